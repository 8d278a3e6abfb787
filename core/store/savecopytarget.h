#pragma once

#include <QString>

namespace crawl {

// Where Save Crawl As may write a copy of a crawl. The decision (refusal) is pure over resolved paths;
// resolve() gathers them from the file system. A copy must never replace the crawl itself, a file SQLite
// keeps beside it (the live "-wal" is deleted when the crawl closes, taking the "saved" copy with it) or
// the list the crawl reads its URLs from.
struct SaveCopyTarget {
    QString source;    // the crawl file, resolved (links followed)
    QString target;    // where the copy goes, resolved (an absent file: its folder resolved + its name)
    QString inputList; // the crawl's input list, resolved; empty when unknown
    bool targetExists = false;
    bool targetIsFile = false;

    static SaveCopyTarget resolve(const QString &sourcePath, const QString &targetPath,
                                  const QString &inputListPath);

    // Why the copy may not go to `target` (a message for the user); empty when it may.
    static QString refusal(const SaveCopyTarget &paths, const QString &shownTarget);

    // A new, empty, uniquely named file beside `target` for the copy under way (an existing
    // "<target>.partial" of the user's is never touched); empty with *error set when none can be made.
    static QString createPartialFile(const QString &target, QString *error);
};

} // namespace crawl
