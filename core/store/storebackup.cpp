#include "store/storebackup.h"

#include "store/savecopytarget.h"

#include <QFile>
#include <QFileInfo>

#include <sqlite3.h>

namespace crawl {

StoreBackup::StoreBackup(QString target, QString partial, sqlite3 *destination, sqlite3_backup *backup)
    : m_target(std::move(target))
    , m_partial(std::move(partial))
    , m_destination(destination)
    , m_backup(backup) {}

StoreBackup::~StoreBackup() {
    abandon();
}

std::unique_ptr<StoreBackup> StoreBackup::start(sqlite3 *source, const QString &sourcePath,
                                                const QString &target, QString *error,
                                                const QString &inputListPath) {
    *error = SaveCopyTarget::refusal(SaveCopyTarget::resolve(sourcePath, target, inputListPath), target);
    if (!error->isEmpty())
        return nullptr;
    const QString partial = SaveCopyTarget::createPartialFile(target, error);
    if (partial.isEmpty())
        return nullptr;
    sqlite3 *destination = nullptr;
    const int rc = sqlite3_open_v2(partial.toUtf8().constData(), &destination,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        *error = QStringLiteral("cannot save a copy of the crawl to %1: %2")
                     .arg(target,
                          QString::fromUtf8(destination ? sqlite3_errmsg(destination) : sqlite3_errstr(rc)));
        sqlite3_close(destination);
        QFile::remove(partial);
        return nullptr;
    }
    sqlite3_backup *backup = sqlite3_backup_init(destination, "main", source, "main");
    if (!backup) {
        *error = QStringLiteral("cannot save a copy of the crawl to %1: %2")
                     .arg(target, QString::fromUtf8(sqlite3_errmsg(destination)));
        sqlite3_close(destination);
        QFile::remove(partial);
        return nullptr;
    }
    return std::unique_ptr<StoreBackup>(new StoreBackup(target, partial, destination, backup));
}

StoreBackup::Step StoreBackup::step(int pages) {
    if (m_finished)
        return m_error.isEmpty() ? Step::Done : Step::Failed;
    if (!m_backup)
        return failWith(QStringLiteral("the copy was abandoned"));
    const int rc = sqlite3_backup_step(m_backup, std::max(1, pages));
    m_total = sqlite3_backup_pagecount(m_backup);
    m_remaining = sqlite3_backup_remaining(m_backup);
    if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
        return Step::More; // busy or locked: the source is in use right now; the next step tries again
    if (rc != SQLITE_DONE) {
        return failWith(QStringLiteral("cannot save a copy of the crawl to %1: %2")
                            .arg(m_target, QString::fromUtf8(sqlite3_errstr(rc))));
    }
    const int finishRc = sqlite3_backup_finish(m_backup);
    m_backup = nullptr;
    if (finishRc != SQLITE_OK) {
        return failWith(QStringLiteral("cannot save a copy of the crawl to %1: %2")
                            .arg(m_target, QString::fromUtf8(sqlite3_errstr(finishRc))));
    }
    if (!finishFile())
        return Step::Failed;
    m_finished = true;
    return Step::Done;
}

bool StoreBackup::finishFile() {
    // Closing the copy's only connection checkpoints its write-ahead log into the file: the renamed file
    // is complete on its own.
    const int rc = sqlite3_close(m_destination);
    m_destination = nullptr;
    if (rc != SQLITE_OK) {
        failWith(QStringLiteral("cannot complete the copy of the crawl at %1").arg(m_target));
        return false;
    }
    const QFileInfo targetInfo(m_target);
    if (targetInfo.exists() && !QFile::remove(m_target)) {
        failWith(QStringLiteral("cannot replace %1 with the copy of the crawl").arg(m_target));
        return false;
    }
    if (!QFile::rename(m_partial, m_target)) {
        failWith(QStringLiteral("cannot move the copy of the crawl to %1").arg(m_target));
        return false;
    }
    return true;
}

StoreBackup::Step StoreBackup::failWith(const QString &message) {
    m_error = message;
    abandon();
    m_finished = true;
    return Step::Failed;
}

void StoreBackup::abandon() {
    if (m_backup) {
        sqlite3_backup_finish(m_backup);
        m_backup = nullptr;
    }
    if (m_destination) {
        sqlite3_close(m_destination);
        m_destination = nullptr;
    }
    if (!m_finished || !m_error.isEmpty()) {
        QFile::remove(m_partial);
        QFile::remove(m_partial + QStringLiteral("-wal"));
        QFile::remove(m_partial + QStringLiteral("-shm"));
        QFile::remove(m_partial + QStringLiteral("-journal"));
    }
}

} // namespace crawl
