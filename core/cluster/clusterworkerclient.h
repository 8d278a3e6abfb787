#pragma once

#include "cluster/clusterrobotsstore.h"
#include "cluster/clustertypes.h"
#include "cluster/redisurl.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPair>
#include <QString>

#include <deque>
#include <memory>

class QTimer;

namespace crawl {

class ClusterHostBudget;
class ClusterQueue;
class RedisConnection;

// A worker's link to the shared crawl, on a thread of its own: the Redis calls block (a reconnect may wait
// for seconds), so the fetch threads never make them; they talk to this object by queued signals with value
// types. It also does what every worker must do on time without being asked:
// - renews the leases it holds (every third of the lease time), and says when one was lost (the request
//   must then be dropped: another worker will fetch that URL);
// - sends a heartbeat every second (its in-flight leases and acknowledged results per second);
// - watches the shared limits' version every second and emits limitsChanged, so a change made anywhere (the
//   window, another process) reaches this worker within about a second.
// Create it, move it to its thread, then call start() there (a queued call).
class ClusterWorkerClient : public QObject {
    Q_OBJECT
public:
    struct Settings {
        RedisUrl url;
        QString crawlName;
        QByteArray workerId; // unique per worker process, e.g. "host-pid-random"
        qint64 leaseTtlMs = 30000;
        int heartbeatIntervalMs = 1000;
        int limitsPollIntervalMs = 1000;
    };

    explicit ClusterWorkerClient(Settings settings, QObject *parent = nullptr);
    ~ClusterWorkerClient() override;

    // "<host name>-<pid>-<random>": unique enough that two processes never share lease ids.
    static QByteArray makeWorkerId();

    // Round trips to Redis so far (for the benchmark); call on the client's thread.
    quint64 roundTrips() const;

    static constexpr qint64 kMinPollMs = 10;
    static constexpr qint64 kMaxPollMs = 250;

public Q_SLOTS:
    // Emits started(); unreachable() when one connection attempt to Redis fails (calling start() again later
    // is how a worker keeps trying); problem() when the crawl does not exist (then also crawlMissing():
    // calling start() again later is how a worker waits for its coordinator) or Redis fails mid-way.
    void start();
    void stop();
    // Up to `count` leases (fewer, or none, when no host may start). Emits leased().
    void requestLeases(int count);
    // requestSent false: nothing was sent (robots.txt blocked it), the lease's start is given back.
    void acknowledge(const QByteArray &leaseId, const QList<QPair<QByteArray, QByteArray>> &resultFields,
                     bool requestSent = true);
    void retryLater(const QByteArray &leaseId, qint64 notBeforeMs);
    // A lease whose URL was not sent: back to its host's queue, its attempt not counted, its start given back
    // unless requestSent (its slot fetched the origin's robots.txt instead).
    void giveBack(const QByteArray &leaseId, bool requestSent = false);
    // giveBack, the URL queued again only at notBeforeMs (server clock).
    void giveBackUntil(const QByteArray &leaseId, qint64 notBeforeMs);
    // robots.txt of the lease's host (ClusterRobotsStore): emits robotsLookedUp().
    void lookupRobots(const QByteArray &leaseId, const QString &host, qint64 lockTtlMs);
    // The fetch of the host's robots.txt ended (stored for every worker, the lock freed), or was given up.
    void storeRobots(const QString &host, const crawl::ClusterRobotsEntry &entry, qint64 ttlMs, bool retry,
                     qint64 failuresTtlMs, const QString &hostKey, qint64 crawlDelayMs);
    void unlockRobots(const QString &host);
    // Retry-After on a host: every worker's next start there waits until untilMs (server clock).
    void pauseHost(const QString &host, qint64 untilMs);
    // A redirect hop to another host than the lease's: that host's budget (in flight, interval, pause) must
    // allow it too. Emits hopDecision(); a granted hop holds its slot (renewed with the leases) until
    // finishHop(). One hop grant per lease at a time.
    void tryStartHop(const QByteArray &leaseId, const QString &host);
    // A completed attempt on `host` under grant `grantId` (a lease id, or "<lease>:hop"), for the host's
    // shared circuit breaker; emits breakerChanged() when it tripped, recovered or gave up. Call it before
    // the acknowledge/retryLater/finishHop that frees the grant (same thread: they run in order).
    // latencyMs >= 0: with --adaptive on the crawl, the attempt also paces the host (its status and latency
    // go into the shared pace: ClusterHostBudget::updatePace, one more round trip).
    void recordAttempt(const QString &host, const QByteArray &grantId, int health, int status = 0,
                       qint64 latencyMs = -1);
    void finishHop(const QByteArray &leaseId);
    // A worker going away: every held lease goes back to its host's queue at once (attempt counted).
    void releaseAll();
    // Emits crawlState().
    void checkCrawlState();

Q_SIGNALS:
    void started(const crawl::ClusterLimits &limits);
    // Emitted by start() before started(): the crawl's settings (the coordinator's flags among them).
    void settingsRead(const QMap<QString, QString> &settings);
    // inputComplete: the coordinator has enqueued its whole list; finished: and every URL has its result.
    void crawlState(bool inputComplete, bool finished);
    // askAgainInMs: when nothing (more) could be leased, when to ask again: the time until a host may start,
    // kept within [kMinPollMs, kMaxPollMs] (a slot freed elsewhere is noticed within kMaxPollMs; a full
    // global cap does not turn into a busy loop). -1: nothing is queued or waiting for a retry.
    void leased(const QList<crawl::ClusterLease> &leases, qint64 askAgainInMs);
    void acknowledged(const QByteArray &leaseId, bool accepted, const QString &refusal);
    void leaseLost(const QByteArray &leaseId, const QString &reason);
    void limitsChanged(const crawl::ClusterLimits &limits);
    void robotsLookedUp(const QByteArray &leaseId, const QString &host,
                        const crawl::ClusterRobotsLookup &lookup);
    void problem(const QString &error); // Redis unreachable or refused; the text never holds the password
    void crawlMissing();
    // start() could not connect; permanent: waiting will not help (AUTH or SELECT refused).
    void unreachable(const QString &error, bool permanent);
    // askedAtSteadyNs: when the grant was asked for (steady clock), like ClusterLease::askedAtSteadyNs.
    void hopDecision(const QByteArray &leaseId, bool granted, qint64 askAgainInMs, qint64 askedAtSteadyNs);
    // The hop's host was given up by its breaker (instead of hopDecision): the URL must end as `skipped`.
    void hopGivenUp(const QByteArray &leaseId, const QString &host, const QString &reason);
    // The redirect's host was skipped from a window: the lease's URL ends `cancelled`.
    void hopSkippedByUser(const QByteArray &leaseId, const QString &host);
    void breakerChanged(const QString &host, const crawl::BreakerRecord &record);

private:
    void connectAndStart();
    void startOnConnection();
    void renewLeases();
    void sendHeartbeat();
    void pollLimits();
    QByteArray nextLeaseId();

    Settings m_settings;
    std::unique_ptr<RedisConnection> m_connection;
    std::unique_ptr<ClusterQueue> m_queue;
    std::unique_ptr<ClusterHostBudget> m_budget;
    std::unique_ptr<ClusterRobotsStore> m_robots;
    QTimer *m_renewTimer = nullptr;
    QTimer *m_heartbeatTimer = nullptr;
    QTimer *m_limitsTimer = nullptr;
    QHash<QByteArray, QString> m_held; // lease id -> host, while the request runs
    QHash<QByteArray, QString>
        m_hops; // lease id -> host of its granted redirect hop (grant id: lease + ":hop")
    qint64 m_leaseCounter = 0;
    qint64 m_limitsVersion = -1;
    std::deque<qint64> m_ackTimes; // monotonic ms of recent accepted acks, for the rate in the heartbeat
    QElapsedTimer m_clock;
};

} // namespace crawl
