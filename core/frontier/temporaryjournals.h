#pragma once

#include <QString>

#include <functional>
#include <optional>

namespace crawl {

// Where a crawl without a named journal keeps its temporary one: $TMPDIR/crawlscope-<uid>/ (mode 0700,
// owned by this user), one folder per crawl named "journal-<pid>-XXXXXX". A process killed with SIGKILL
// cannot delete its folder; the next crawl deletes the folders whose owner is gone.
namespace temporaryjournals {

// Creates (or checks) this user's folder. Empty with *error set if it cannot be made safe (e.g. another
// user owns a folder of that name, or it is a symlink).
QString folder(QString *error);
// The owner pid a journal folder's name carries, or nullopt for a name that is not one of ours.
std::optional<qint64> ownerPid(const QString &folderName);
// The template for a new journal folder of this process, for QTemporaryDir.
QString folderTemplate(const QString &base, qint64 pid);
// Deletes the journal folders under `base` whose owner is not alive (by isAlive). Returns how many.
int removeStale(const QString &base, const std::function<bool(qint64)> &isAlive);

} // namespace temporaryjournals

} // namespace crawl
