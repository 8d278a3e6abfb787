#pragma once

#include <QString>

#include <memory>

struct sqlite3;
struct sqlite3_backup;

namespace crawl {

// A copy of a crawl store made step by step with SQLite's online backup API, so the thread that owns
// the store keeps committing results between steps (VACUUM INTO held it for the whole copy). Writes
// made through the source connection between steps are carried into the copy by SQLite itself; a
// write by another connection makes the next step start over (sqlite3_backup_step's documented
// restart), so the copy is always of one consistent state: the source as it is when the last step ends.
//
// The copy goes to a new "<target>.partial-XXXXXX" (a user's own "<target>.partial" is left alone) and is
// renamed over the target only once complete, so neither a failed nor a cancelled copy touches an existing
// target; destroying an unfinished backup removes the partial file. Used from the source connection's thread
// only.
class StoreBackup {
public:
    enum class Step { More, Done, Failed };

    ~StoreBackup(); // an unfinished copy is abandoned: its partial file removed
    StoreBackup(const StoreBackup &) = delete;
    StoreBackup &operator=(const StoreBackup &) = delete;

    // Refuses what SaveCopyTarget::refusal refuses (not a regular file, the source, its -wal/-shm/-journal,
    // the crawl's input list).
    static std::unique_ptr<StoreBackup> start(sqlite3 *source, const QString &sourcePath,
                                              const QString &target, QString *error,
                                              const QString &inputListPath = {});

    // Copies up to `pages` more pages; Done once the copy is complete and renamed over the target.
    Step step(int pages);
    QString target() const { return m_target; }
    QString error() const { return m_error; } // after Failed
    qint64 pagesCopied() const { return m_total - m_remaining; }
    qint64 pagesTotal() const { return m_total; } // the source's size now (it may grow while copying)

private:
    StoreBackup(QString target, QString partial, sqlite3 *destination, sqlite3_backup *backup);
    Step failWith(const QString &message);
    bool finishFile();
    void abandon();

    QString m_target;
    QString m_partial;
    sqlite3 *m_destination = nullptr;
    sqlite3_backup *m_backup = nullptr;
    qint64 m_total = 0;
    qint64 m_remaining = 0;
    bool m_finished = false;
    QString m_error;
};

} // namespace crawl
