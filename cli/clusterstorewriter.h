#pragma once

#include "input/urllistreader.h"
#include "model/crawlresult.h"
#include "store/storetypes.h"

#include <QHash>
#include <QMap>
#include <QString>

#include <memory>

namespace crawl {

class CrawlStore;

// A --cluster coordinator's crawl file (`--store CRAWL.db`): the same CrawlStore a local crawl writes, so
// `crawlscope --export` and the window's File > Open Crawl read it. The coordinator appends the input lines
// as it feeds them and records each row it collects from Redis, committed before the row counts (CSV,
// progress), as a local crawl acknowledges after commit. The workers' retries and pauses live in Redis, so
// the file holds lines, outcomes and per-host tallies, not the shared frontier's state.
// Used from the coordinator's thread only (CrawlStore's rule).
class ClusterStoreWriter {
public:
    ~ClusterStoreWriter();
    ClusterStoreWriter(const ClusterStoreWriter &) = delete;
    ClusterStoreWriter &operator=(const ClusterStoreWriter &) = delete;

    // A new file (an existing one is refused); nullptr and *error otherwise.
    static std::unique_ptr<ClusterStoreWriter> create(const QString &path,
                                                      const QMap<QString, QString> &settings,
                                                      StoreOptions::Sync sync, QString *error);
    // The file of the crawl being resumed: its stored lines are not appended again, its unfinished
    // entries get the rows collected now.
    static std::unique_ptr<ClusterStoreWriter> open(const QString &path, StoreOptions::Sync sync,
                                                    QString *error);

    // Lines after the last stored one, in one transaction (invalid lines become invalid_url entries).
    bool append(const QList<InputLine> &lines);
    // The rows in one transaction; returns once committed. A row whose URL has no unfinished entry (already
    // recorded by the coordinator before a resume) is skipped.
    bool record(const QList<CrawlResult> &rows);
    bool setSetting(const QString &key, const QString &value);
    // Closes and deletes the file (and its WAL): the shared crawl it was for was never created.
    void discard();

    QString path() const { return m_path; }
    QString lastError() const { return m_error; }

private:
    ClusterStoreWriter(QString path, std::unique_ptr<CrawlStore> store);
    bool mapUnfinished(); // entries after m_lastId that have no row yet, by URL

    QString m_path;
    std::unique_ptr<CrawlStore> m_store;
    QHash<QString, qint64> m_unfinished; // normalized URL -> entry id
    qint64 m_lastId = 0;
    qint64 m_lastLine = 0;
    QString m_error;
};

} // namespace crawl
