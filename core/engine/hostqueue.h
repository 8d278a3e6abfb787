#pragma once

#include "engine/job.h"
#include "model/crawllimits.h"
#include "model/crawlsnapshot.h"
#include "policy/hostbreaker.h"
#include "policy/pacecontroller.h"
#include "stats/hoststats.h"

#include <QString>

#include <algorithm>
#include <deque>
#include <vector>

class QNetworkReply;

namespace crawl {

// One host inside its fetch shard: the URLs waiting for it and the state that decides when the next one
// may start. Lives as long as the shard.
struct HostQueue {
    QString key; // "host:port"
    std::deque<Job> queue;
    int inFlight = 0;
    std::vector<int> laneInFlight; // requests of this host per QNAM lane (see NetworkLanes)
    qint64 lastStartNs = 0;
    // A paced host waits until its latest request was actually written (QNAM writes on its own
    // thread, later than we ask); pacing then counts from that moment, as the server sees it.
    QNetworkReply *awaitingSent = nullptr;
    double jitterFactor = 1.0; // sampled at each start: gap = interval x factor
    qint64 backoffUntilNs = 0; // server asked to wait (Retry-After)
    qint64 backoffUntilEpochMs = 0;
    qint64 waitingRetries = 0; // jobs of this host in the shard's delayed heap
    bool userPaused = false;
    bool skipped = false;
    bool inRunnable = false;
    qint64 scheduledWakeNs = 0;

    HostBreaker breaker; // tripped: nothing starts but one probe after each cool-down
    PaceController pace; // --adaptive: the host's own limits under the user's

    // The limits in force for this host now: the user's, under the adaptive pace when it is on, and
    // 1 in flight while recovering from a breaker trip.
    int effectiveMaxInFlight(const CrawlLimits &limits) const {
        const int user = limits.maxInFlightFor(key);
        return breaker.inFlightCap(limits.adaptive ? std::min(user, pace.inFlightLimit()) : user);
    }
    int effectiveIntervalMs(const CrawlLimits &limits) const {
        const int user = limits.intervalMsFor(key);
        return limits.adaptive ? std::max(user, pace.intervalMs()) : user;
    }

    HostStats stats;

    // What the live view shows about this host now (takes the start rate since the previous call).
    HostSnapshot snapshot(const CrawlLimits &limits, qint64 nowNs, qint64 epochNowMs, double seconds,
                          qint64 pacingMarginNs);

    // Earliest steady-clock time the next start may happen (0 or past: now), from the server's
    // Retry-After and the start interval. `marginNs` keeps the gap the server observes at or above it.
    qint64 blockedUntil(int intervalMs, qint64 marginNs) const {
        qint64 until = backoffUntilNs;
        if (intervalMs > 0 && lastStartNs > 0) {
            const qint64 gap = qint64(double(qint64(intervalMs) * 1'000'000) * jitterFactor) + marginNs;
            until = std::max(until, lastStartNs + gap);
        }
        return until;
    }
};

} // namespace crawl
