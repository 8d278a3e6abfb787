#pragma once

#include "cluster/clustertypes.h"
#include "model/hostaction.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace crawl {

class RedisConnection;

// The per-host and global budgets of one crawl, shared by every worker through Redis: in flight per host and
// overall, the start interval per host (and per-host overrides), Retry-After pauses and the breaker state.
// Each decision is one atomic Lua script on the server, so N workers together never exceed a host's limits,
// and the limits are read on every decision: a change made anywhere applies to the next start everywhere.
//
// A grant is named by the caller (grantId, unique per request, e.g. "worker-7:1234") and carries an expiry:
// a worker that dies holding grants does not hold the host's slots forever; a long request renews its grant.
// Not thread-safe (it uses the caller's connection); one per worker thread.
class ClusterHostBudget {
public:
    ClusterHostBudget(RedisConnection &connection, const QString &crawlName);

    // nowMs: the server's clock unless given (tests). grantTtlMs: how long the slot is held without renewal.
    StartDecision tryStart(const QString &host, const QByteArray &grantId, qint64 grantTtlMs,
                           std::optional<qint64> nowMs = {});
    // False when the grant was no longer in flight (it had expired, or this is a replay) or on error.
    bool finished(const QString &host, const QByteArray &grantId, std::optional<qint64> nowMs = {});
    // The grant's new expiry, or nullopt when it is no longer in flight.
    std::optional<qint64> renew(const QString &host, const QByteArray &grantId, qint64 grantTtlMs,
                                std::optional<qint64> nowMs = {});
    // Retry-After: pauses the host for every worker. Returns the pause now in force (a later one wins).
    std::optional<qint64> pauseHost(const QString &host, qint64 untilMs, std::optional<qint64> nowMs = {});
    // A window's choice for one host, for every worker (pause, resume, skip its remaining URLs, close its
    // tripped breaker). True when it changed something, false when there was nothing to change (an unknown
    // host, a resume of a closed breaker), nullopt on error (lastError()).
    std::optional<bool> hostAction(const QString &host, HostAction action, std::optional<qint64> nowMs = {});
    // state: "closed", "open" (no start before untilMs, then one probe at a time) or "halfopen" (one at a
    // time).
    bool setBreaker(const QString &host, const QString &state, qint64 untilMs,
                    std::optional<qint64> nowMs = {});

    // A completed attempt on the host under grant `grantId` (health: AttemptHealth as an int), judged on the
    // breaker window every worker shares: N workers' failures add up to one host's trip, and only the probe's
    // outcome closes or re-opens it.
    BreakerRecord recordAttempt(const QString &host, const QByteArray &grantId, int health,
                                std::optional<qint64> nowMs = {});
    // The same, with the attempt's status and latency for --adaptive: when the crawl has it on, the attempt
    // also joins the host's pace log and the record carries the shared pace (BreakerRecord::pace) for
    // updatePace(). Same round trip.
    BreakerRecord recordAttempt(const QString &host, const QByteArray &grantId, int health, int status,
                                qint64 latencyMs, std::optional<qint64> nowMs = {});
    // --adaptive: folds the pace log into the host's shared PaceController (foldSharedPace) and writes it
    // back with a compare-and-set. On a conflict, done if the winner's fold took this call's event
    // (shared.eventSeq), else folds again from what the conflict returned, at most kPaceCommitAttempts times.
    static constexpr int kPaceCommitAttempts = 4;
    PaceUpdate updatePace(const QString &host, SharedPace shared, std::optional<qint64> nowMs = {});

    // Returns the new limits version, or nullopt on error (lastError()).
    std::optional<qint64> setLimits(const ClusterLimits &limits);
    // nullopt fields remove the override.
    std::optional<qint64> setHostOverride(const QString &host, std::optional<int> inFlight,
                                          std::optional<qint64> intervalMs);
    std::optional<ClusterLimits> limits();
    // One HGET: cheap enough to poll every second to notice a change made elsewhere.
    std::optional<qint64> limitsVersion();
    HostBudgetStatus hostStatus(const QString &host, std::optional<qint64> nowMs = {});

    QString lastError() const { return m_lastError; }

private:
    QByteArray m_prefix;
    RedisConnection &m_connection;
    QString m_lastError;
};

} // namespace crawl
