#pragma once

#include "store/storetypes.h"

#include <QMap>
#include <QString>

namespace crawl {

// Where a crawl keeps its durable record (its CrawlStore file) and how it opens it.
struct CrawlJournal {
    QString path;        // empty: a temporary journal, deleted when the engine is done with it
    bool resume = false; // continue the crawl stored at `path` (its input list and settings)
    StoreOptions::Sync sync = StoreOptions::Sync::Normal;
    QMap<QString, QString> settings; // a new crawl's caller settings (e.g. the command line), stored with it

    static CrawlJournal temporary() { return {}; }
    static CrawlJournal create(const QString &path) { return {path, false, StoreOptions::Sync::Normal, {}}; }
    static CrawlJournal resumeFrom(const QString &path) {
        return {path, true, StoreOptions::Sync::Normal, {}};
    }
};

// Settings keys the engine itself keeps in a journal (callers use their own, without this prefix).
namespace journalkey {
inline const QString inputKind = QStringLiteral("engine.input_kind"); // file, stdin, text
inline const QString inputPath = QStringLiteral("engine.input_path");
inline const QString inputText = QStringLiteral("engine.input_text");         // a pasted list, kept whole
inline const QString inputComplete = QStringLiteral("engine.input_complete"); // "1" once every line is in
inline const QString createdAt = QStringLiteral("engine.created_at");
} // namespace journalkey

} // namespace crawl
