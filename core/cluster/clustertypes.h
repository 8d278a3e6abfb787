#pragma once

#include "cluster/clusterpace.h"
#include "model/breakersettings.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QPair>
#include <QString>

#include <optional>

// Value types of the shared (Redis) frontier and host budget: they cross threads and outlive connections.
// Times are milliseconds since the epoch on the Redis server's clock (every worker shares it).
namespace crawl {

// "crawlscope:{NAME}:" — the {hash tag} keeps one crawl's keys on one node should Redis ever be a cluster.
QByteArray clusterKeyPrefix(const QString &crawlName);
// Letters, digits, '.', '_' and '-', 1 to 64 characters (it becomes part of every key name).
bool isValidCrawlName(const QString &name, QString *why = nullptr);

struct ClusterLimits {
    int globalInFlight = 16;  // the crawl's in-flight cap, over every worker together
    int perHostInFlight = 1;  // per host, over every worker together
    qint64 intervalMs = 0;    // minimum start-to-start gap per host
    int maxAttempts = 0;      // leases lost to dead workers before a URL gets a terminal result; 0: no bound
    qint64 version = 0;       // bumped by every change to the limits or to a host override
    int jitterPermille = 0;   // --jitter x 1000: each host's gap is interval x (1 + U(0, jitter))
    double maxRatePerSec = 0; // --max-rate: request starts per second over every worker together; 0: off
    // --breaker-*: each host's circuit breaker, its window and give-up clock shared by every worker
    // (HostBreaker's rules).
    BreakerSettings breaker;
    // --adaptive: each host's pace (PaceController, shared: clusterpace.h) under the limits above.
    bool adaptive = false;
};

// What one completed attempt did to its host's shared circuit breaker (ClusterHostBudget::recordAttempt).
struct BreakerRecord {
    // GaveUp: the probe failed past the give-up time; the host's remaining URLs end as `skipped`.
    enum class Transition { None = 0, Tripped = 1, Recovered = 2, GaveUp = 3 };
    Transition transition = Transition::None;
    QString state;          // closed, open, halfopen, gaveup
    qint64 probeAtMs = 0;   // open: when the probe may start (server clock)
    int failures = 0;       // in the window, after this attempt
    int count = 0;          // attempts in the window
    int dominantHealth = 1; // the most frequent failure's AttemptHealth
    int trips = 0;          // trips since the host last ran a whole healthy window
    qint64 serverNowMs = 0;
    // --adaptive: the attempt went into the host's pace log; the shared pace as the call left it, for the
    // worker to fold and write back (ClusterHostBudget::updatePace).
    std::optional<SharedPace> pace;
    QString error;
};

// The breaker's last trip as the scripts store it ("<failures> <count> <dominant health> <trips>"), in the
// words a local crawl uses ("5 of the last 5 attempts failed: timeouts"); empty for an empty or bad text.
QString breakerReasonOf(const QByteArray &stored);

struct StartDecision {
    enum class Reason {
        Granted = 0,
        Paused = 1,
        BreakerOpen = 2,
        Interval = 3,
        HostBusy = 4,
        GlobalBusy = 5,
        RateCap = 6,      // --max-rate: the crawl-wide start rate; atMs is when the next start may be
        GivenUp = 7,      // the host's breaker gave it up: nothing starts there again
        PausedByUser = 8, // a window paused it: nothing starts until resumed
        SkippedByUser = 9 // a window skipped it: its URLs end `cancelled`, nothing starts there again
    };
    bool granted = false;
    // Granted: the server time of the grant. Refused: when to ask again (for HostBusy/GlobalBusy an upper
    // bound, the earliest expiry of the grants in flight; a finish usually frees the slot sooner).
    qint64 atMs = 0;
    Reason reason = Reason::Granted;
    int hostInFlight = 0; // the host's grants in flight after this call
    qint64 limitsVersion = 0;
    qint64 serverNowMs = 0;
    QString error; // Redis could not be asked; nothing was granted
};

struct HostBudgetStatus {
    int inFlight = 0;
    qint64 nextStartMs = 0;
    qint64 pausedUntilMs = 0;
    QString breaker; // closed, open, halfopen, gaveup
    qint64 breakerUntilMs = 0;
    QString breakerReason;      // why it last tripped, in a local crawl's words; empty when it never did
    bool pausedByUser = false;  // a window's Pause (ClusterHostBudget::hostAction)
    bool skippedByUser = false; // a window's Skip Remaining URLs: its URLs end `cancelled`
    qint64 starts = 0;
    qint64 queued = 0;
    qint64 serverNowMs = 0;
    // --adaptive: the host's pace as last written (-1: none yet), the interval it adds (with the guard,
    // 0: none) and why it last moved.
    int paceInFlight = -1;
    qint64 paceGapMs = 0;
    QString paceReason;
    QString error;
};

// One host in a page of ClusterQueue::hostsPage (the window's hosts view).
struct ClusterHostRow {
    QString host;
    HostBudgetStatus status;
    // Its own limits (--cluster-set --host-limit, the window's per-host limit); -1: the crawl's apply.
    int overrideInFlight = -1;
    qint64 overrideIntervalMs = -1; // as stored (with the interval guard)
};

struct ClusterUrl {
    QString url;        // as given in the input
    QString normalized; // the deduplication key (crawl::normalizeUrl(...).text)
    QString host;       // crawl::hostKey(): "host:port"
    qint64 line = 0;    // input line number
};

struct EnqueueResult {
    int added = 0;
    int duplicates = 0;
    QString error;
};

struct ClusterLease {
    QByteArray leaseId;
    qint64 urlId = 0;
    QString url;
    QString host;
    int attempts = 0; // including this one
    qint64 line = 0;
    qint64 expiresMs = 0;
    int hostInFlight = 0; // the host's grants in flight, this one included, as the server counted them
    // Steady clock (ns) when the lease call that granted it was sent: the grant is at most this old plus the
    // time since, whatever the clocks of the machines say. A worker that gets a lease late does not send it.
    qint64 askedAtSteadyNs = 0;
    // The host was given up by its breaker: the worker acknowledges the URL as `skipped` without a request
    // (the lease took no slot and counted no attempt). givenUpReason: the breaker's words for it.
    bool givenUp = false;
    QString givenUpReason;
    // A window skipped the host (Skip Remaining URLs): acknowledged as `cancelled` without a request.
    bool skippedByUser = false;
};

struct LeaseResult {
    std::optional<ClusterLease> lease;
    // No lease: when a host may start next (-1: nothing queued or waiting). Only a hint: a slot freed by
    // another worker can make it sooner, and with the global cap full it may already have passed, so a
    // caller polls within bounds (ClusterWorkerClient clamps it) rather than sleeping until it.
    qint64 askAgainAtMs = -1;
    qint64 serverNowMs = 0;
    QString error;
};

struct RenewResult {
    bool renewed = false;
    qint64 expiresMs = 0;
    QString refusal; // expired, foreign, unknown, acked, released: the worker must drop the request
    QString error;
};

struct AckResult {
    bool accepted = false;
    QByteArray streamId; // the result's entry in the results stream
    QString refusal;     // expired, foreign, unknown, released, done: the result must be discarded
    QString error;
};

struct WorkerStatus {
    QString id;
    int inFlight = 0;
    double requestsPerSecond = 0;
    qint64 lastHeartbeatMs = 0;
};
// Dead: no heartbeat for longer than `timeoutMs` (the window shows it as dead, its leases expire).
bool isWorkerDead(const WorkerStatus &worker, qint64 nowMs, qint64 timeoutMs);

struct ClusterResultRecord {
    QByteArray streamId;
    QMap<QByteArray, QByteArray> fields; // id, url, line, attempts, owner, and what the worker wrote
    // A row the coordinator wrote itself (ClusterQueue::addInputRows): in its CSV already, no URL id.
    bool isInputRow() const { return fields.contains("input"); }
};

struct ClusterCounts {
    qint64 enqueued = 0;
    qint64 duplicates = 0;
    qint64 queued = 0;
    qint64 leased = 0;
    qint64 delayed = 0;
    qint64 done = 0;
    qint64 expired = 0;   // leases lost to workers that stopped renewing
    qint64 inputRows = 0; // rows the coordinator wrote itself (invalid lines, out of scope): not in enqueued
    QString error;
};

} // namespace crawl

Q_DECLARE_METATYPE(crawl::ClusterLimits)
Q_DECLARE_METATYPE(crawl::ClusterLease)
Q_DECLARE_METATYPE(crawl::BreakerRecord)
