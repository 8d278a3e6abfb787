#pragma once

#include "cluster/clustertypes.h"
#include "model/crawlresult.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace crawl {

class RedisConnection;

// The shared frontier of one crawl in Redis: the queued URLs per host (deduplicated by normalized URL),
// leases, the results stream and the workers' heartbeats. Every step is one atomic Lua script.
//
// - lease(): takes the next URL of a host that may start now (the host budget's in-flight limits, start
//   interval, Retry-After pause and breaker, as ClusterHostBudget applies them) and leases it to `owner`
//   until an expiry. The lease is also the host-budget grant, so one script call = one URL + one slot.
// - renew() while the request runs; acknowledge() writes the result to the stream exactly once: only the
//   owner's live lease may, a replay gets the same stream id, an expired or foreign lease is refused (that
//   worker's result is dropped; the URL was or will be fetched by another).
// - A lease that is not renewed expires: the next lease() (or expireLeases()) puts the URL back at the front
//   of its host's queue, with its attempt counted.
//
// Not thread-safe (it uses the caller's connection); one per worker thread.
class ClusterQueue {
public:
    ClusterQueue(RedisConnection &connection, const QString &crawlName);

    // Creates the crawl (refuses an existing one: false with lastError()). Settings are kept in its meta
    // hash.
    bool createCrawl(const QMap<QString, QString> &settings);
    bool crawlExists();
    // Every crawl created in this Redis database (sorted), for a worker started without --crawl.
    static QStringList crawlNames(RedisConnection &connection, QString *error = nullptr);
    QMap<QString, QString> settings();
    // Adds or replaces one setting (e.g. the coordinator's "input complete" mark).
    bool setSetting(const QString &key, const QString &value);

    // Adds URLs in one atomic batch. batchId names the batch so a replay after a reconnect adds nothing
    // twice.
    EnqueueResult enqueue(const QList<ClusterUrl> &urls, const QByteArray &batchId,
                          std::optional<qint64> nowMs = {});

    LeaseResult lease(const QByteArray &owner, const QByteArray &leaseId, qint64 leaseTtlMs,
                      std::optional<qint64> nowMs = {}, int hostsToScan = 32);
    RenewResult renew(const QByteArray &owner, const QByteArray &leaseId, qint64 leaseTtlMs,
                      std::optional<qint64> nowMs = {});
    // RequestSent::No: the lease ends without a request (robots.txt blocked it), so its start is given back:
    // the host's next start is what it was before the grant, unless the host started again since.
    enum class RequestSent { Yes, No };
    AckResult acknowledge(const QByteArray &owner, const QByteArray &leaseId,
                          const QList<QPair<QByteArray, QByteArray>> &resultFields,
                          std::optional<qint64> nowMs = {}, RequestSent sent = RequestSent::Yes);
    // The rows the coordinator writes itself (invalid lines, lines out of scope; lineNumber set), added to
    // the results stream marked as input rows (ClusterResultRecord::isInputRow) so a window shows them; a
    // line sent again (a resume) is not added twice. Returns how many were added, -1 on error.
    int addInputRows(const QList<CrawlResult> &rows);
    // A retry: ends the lease without a result; the URL joins its host's queue again at notBeforeMs.
    RenewResult retryLater(const QByteArray &owner, const QByteArray &leaseId, qint64 notBeforeMs,
                           std::optional<qint64> nowMs = {});
    // A lease the worker did not use for its URL: the URL is queued again at once and the attempt the lease
    // counted is taken back. RequestSent::No (it came late): nothing reached the host, so its start and the
    // crawl's rate slot go back too, unless another start has been taken since. Yes (its slot fetched the
    // origin's robots.txt): the start stays spent.
    RenewResult giveBack(const QByteArray &owner, const QByteArray &leaseId, std::optional<qint64> nowMs = {},
                         RequestSent sent = RequestSent::No);
    // giveBack, but the URL joins its host's queue only at notBeforeMs (its host's robots.txt is being
    // fetched by another worker, or waits for a retry): nothing sent, so the attempt and start go back too.
    RenewResult giveBackUntil(const QByteArray &owner, const QByteArray &leaseId, qint64 notBeforeMs,
                              std::optional<qint64> nowMs = {});
    // Reclaims up to `limit` expired leases; returns how many, or -1 on error. lease() does this too.
    int expireLeases(int limit = 1000, std::optional<qint64> nowMs = {});

    // requestsPerSecond is kept with millisecond precision.
    bool heartbeat(const QByteArray &workerId, int inFlight, double requestsPerSecond,
                   std::optional<qint64> nowMs = {});
    // Every worker that ever sent a heartbeat, with the server's time in *serverNowMs.
    QList<WorkerStatus> workers(qint64 *serverNowMs = nullptr);

    // Results after streamId (empty: from the start), at most `count`.
    QList<ClusterResultRecord> readResults(const QByteArray &afterStreamId, int count);
    // Drops results up to and including streamId, once the collector has committed them (the stream would
    // otherwise hold every result of the crawl). Returns how many were dropped, -1 on error.
    // Never drops what a live reader (markReader) has not read yet.
    qint64 trimResults(const QByteArray &upToStreamId);
    // A window watching the results stream: it has read up to lastStreamId (empty: nothing yet), so
    // trimResults keeps everything after it for ttlMs (refresh it while reading; dropReader when done).
    bool markReader(const QByteArray &readerId, const QByteArray &lastStreamId, qint64 ttlMs,
                    std::optional<qint64> nowMs = {});
    bool dropReader(const QByteArray &readerId);

    // One page of the crawl's hosts with their budget state; start with cursor "0", stop when *nextCursor
    // is "0" again (SSCAN: a host may appear twice across pages, none is missed).
    QList<ClusterHostRow> hostsPage(const QByteArray &cursor, int count, QByteArray *nextCursor,
                                    std::optional<qint64> nowMs = {});
    ClusterCounts counts();

    QString lastError() const { return m_lastError; }

private:
    RenewResult endLease(const QByteArray &owner, const QByteArray &leaseId, qint64 notBeforeMs,
                         bool attempted, std::optional<qint64> nowMs, RequestSent sent);

    QByteArray m_prefix;
    QString m_crawlName;
    RedisConnection &m_connection;
    QString m_lastError;
};

} // namespace crawl
