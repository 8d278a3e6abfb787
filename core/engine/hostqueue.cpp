#include "engine/hostqueue.h"

namespace crawl {

HostSnapshot HostQueue::snapshot(const CrawlLimits &limits, qint64 nowNs, qint64 epochNowMs, double seconds,
                                 qint64 pacingMarginNs) {
    HostSnapshot h;
    h.host = key;
    h.inFlight = inFlight;
    h.maxInFlight = limits.maxInFlightFor(key);
    h.intervalMs = limits.intervalMsFor(key);
    h.overridden = limits.hostOverrides.contains(key);
    h.queued = qint64(queue.size()) + waitingRetries;
    h.started = stats.started;
    h.retries = stats.retries;
    h.status429 = stats.status429;
    h.responses = stats.responses;
    h.lastStatus = stats.lastStatus;
    h.p50Ms = stats.latency.percentileMs(0.50);
    h.p95Ms = stats.latency.percentileMs(0.95);
    h.p99Ms = stats.latency.percentileMs(0.99);
    if (!queue.empty())
        h.oldestQueuedAgeMs = std::max<qint64>(0, (nowNs - queue.front().enqueuedNs) / 1'000'000);
    h.startsPerSec = stats.takeStartRate(seconds);
    h.breakerState = breaker.state();
    if (h.breakerState != BreakerState::Closed) {
        h.breakerReason = breaker.reason();
        const qint64 nowMs = nowNs / 1'000'000;
        if (h.breakerState == BreakerState::Open)
            h.breakerProbeAtMs = epochNowMs + (breaker.probeAtMs() - nowMs);
        if (h.breakerState != BreakerState::GaveUp)
            h.breakerGiveUpAtMs = epochNowMs + (breaker.giveUpAtMs() - nowMs);
    }
    h.breakerTrips = stats.breakerTrips;
    h.breakerRecoveries = stats.breakerRecoveries;
    h.effectiveMaxInFlight = effectiveMaxInFlight(limits);
    h.effectiveIntervalMs = effectiveIntervalMs(limits);
    if (limits.adaptive)
        h.paceReason = pace.lastReason();

    const qint64 pacedUntil = blockedUntil(effectiveIntervalMs(limits), pacingMarginNs);
    if (userPaused) {
        h.state = HostState::Paused;
    } else if (backoffUntilNs > nowNs) {
        h.state = HostState::BackingOff;
        h.stateUntilMs = backoffUntilEpochMs;
    } else if (inFlight >= h.effectiveMaxInFlight) {
        h.state = HostState::Busy;
    } else if (!queue.empty() && pacedUntil > nowNs) {
        h.state = HostState::Pacing;
        h.stateUntilMs = epochNowMs + (pacedUntil - nowNs) / 1'000'000;
    }
    return h;
}

} // namespace crawl
