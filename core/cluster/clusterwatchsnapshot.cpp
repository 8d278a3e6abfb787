#include "cluster/clusterwatchsnapshot.h"

#include "policy/pacecontroller.h"

#include <algorithm>

namespace crawl {

QString clusterWorkerHost(const QString &workerId) {
    const qsizetype last = workerId.lastIndexOf(QLatin1Char('-'));
    const qsizetype pid = last > 0 ? workerId.lastIndexOf(QLatin1Char('-'), last - 1) : -1;
    return pid > 0 ? workerId.left(pid) : workerId;
}

QList<ClusterWorkerView> clusterWorkerViews(const QList<WorkerStatus> &workers, qint64 serverNowMs,
                                            qint64 deadAfterMs) {
    QList<ClusterWorkerView> out;
    out.reserve(workers.size());
    for (const WorkerStatus &worker : workers) {
        ClusterWorkerView view;
        view.status = worker;
        view.host = clusterWorkerHost(worker.id);
        view.heartbeatAgeMs = std::max<qint64>(0, serverNowMs - worker.lastHeartbeatMs);
        view.dead = isWorkerDead(worker, serverNowMs, deadAfterMs);
        if (view.dead) { // a dead worker's last report is stale: it has nothing in flight any more
            view.status.inFlight = 0;
            view.status.requestsPerSecond = 0;
        }
        out.append(view);
    }
    return out;
}

bool isClusterCrawlFinished(const ClusterWatchSnapshot &s) {
    const ClusterCounts &c = s.counts;
    return s.inputComplete && c.queued == 0 && c.leased == 0 && c.delayed == 0 && c.done >= c.enqueued;
}

CrawlSnapshot toCrawlSnapshot(const ClusterWatchSnapshot &s, qint64 intervalGuardMs) {
    const auto userInterval = [intervalGuardMs](qint64 stored) {
        return static_cast<int>(std::max<qint64>(0, stored - intervalGuardMs));
    };
    CrawlSnapshot out;
    out.state = isClusterCrawlFinished(s) ? CrawlState::Finished : CrawlState::Running;
    out.elapsedMs = s.watchingForMs;
    // Lines, as a local crawl counts them: the rows the coordinator wrote itself (invalid, out of scope) too.
    out.total = s.inputComplete ? s.counts.enqueued + s.counts.inputRows : -1;
    out.done = s.counts.done + s.counts.inputRows;
    out.ok = s.resultsOk;
    out.failed = s.resultsFailed;
    out.duplicates = s.counts.duplicates;
    out.inFlight = s.counts.leased;
    out.queued = s.counts.queued + s.counts.delayed;
    out.startsPerSec = s.startsPerSec;
    for (const ClusterWorkerView &worker : s.workers)
        out.throughputPerSec += worker.dead ? 0 : worker.status.requestsPerSecond;
    if (out.total >= 0 && out.throughputPerSec > 0)
        out.etaMs = static_cast<qint64>(static_cast<double>(std::max<qint64>(0, out.total - out.done)) /
                                        out.throughputPerSec * 1000.0);
    out.limits.globalInFlight = s.limits.globalInFlight;
    out.limits.perHostInFlight = s.limits.perHostInFlight;
    out.limits.intervalMs = userInterval(s.limits.intervalMs);

    const qint64 now = s.serverNowMs;
    for (const ClusterHostRow &row : s.hosts) {
        const HostBudgetStatus &b = row.status;
        HostSnapshot host;
        host.host = row.host;
        host.inFlight = b.inFlight;
        // A per-host override replaces the crawl's limit, as in the budget scripts (host_limits).
        host.overridden = row.overrideInFlight >= 0 || row.overrideIntervalMs >= 0;
        host.maxInFlight = host.effectiveMaxInFlight =
            row.overrideInFlight >= 0 ? row.overrideInFlight : s.limits.perHostInFlight;
        host.intervalMs = host.effectiveIntervalMs =
            userInterval(row.overrideIntervalMs >= 0 ? row.overrideIntervalMs : s.limits.intervalMs);
        if (s.limits.adaptive) {
            // The shared pace under the user's limits, as budget_try applies it (HostQueue's rule); slow
            // start's first limit before any answer was folded.
            const int pace = b.paceInFlight >= 0 ? b.paceInFlight : PaceController::kStartInFlight;
            host.effectiveMaxInFlight = std::min(host.maxInFlight, std::max(1, pace));
            if (b.paceGapMs > 0)
                host.effectiveIntervalMs = std::max(host.intervalMs, userInterval(b.paceGapMs));
            host.paceReason = b.paceReason;
        }
        host.queued = b.queued;
        host.started = b.starts;
        host.skipped = b.skippedByUser;
        if (b.breaker == QLatin1String("gaveup")) {
            // As a local crawl shows it: given up, its remaining URLs skipped.
            host.breakerState = BreakerState::GaveUp;
            host.breakerReason = b.breakerReason;
        } else if (b.pausedByUser) {
            host.state = HostState::Paused; // a window's Pause, for every worker (the menu offers Resume)
        } else if (b.pausedUntilMs > now) {
            host.state = HostState::BackingOff;
            host.stateUntilMs = b.pausedUntilMs + s.localMinusServerMs;
        } else if (b.breaker == QLatin1String("open") && b.breakerUntilMs > now) {
            host.state = HostState::BackingOff;
            host.stateUntilMs = b.breakerUntilMs + s.localMinusServerMs;
            host.breakerState = BreakerState::Open;
            host.breakerProbeAtMs = host.stateUntilMs;
            host.breakerReason = b.breakerReason;
        } else if (b.breaker == QLatin1String("open") || b.breaker == QLatin1String("halfopen")) {
            // The cool-down is over: its one probe runs (or is about to).
            host.state = HostState::Busy;
            host.breakerState = BreakerState::HalfOpen;
            host.breakerReason = b.breakerReason;
        } else if (b.inFlight >= host.effectiveMaxInFlight) {
            host.state = HostState::Busy;
        } else if (b.nextStartMs > now && b.queued > 0) {
            host.state = HostState::Pacing;
            host.stateUntilMs = b.nextStartMs + s.localMinusServerMs;
        }
        out.hosts.append(host);
    }
    std::sort(out.hosts.begin(), out.hosts.end(),
              [](const HostSnapshot &a, const HostSnapshot &b) { return a.host < b.host; });
    return out;
}

} // namespace crawl
