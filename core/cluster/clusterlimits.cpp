#include "cluster/clusterlimits.h"

#include <algorithm>
#include <cmath>

namespace crawl {

namespace {
qint64 guarded(qint64 intervalMs) {
    return intervalMs > 0 ? intervalMs + kClusterIntervalGuardMs : 0;
}
} // namespace

ClusterLimits clusterLimitsFor(const CrawlLimits &limits, const FetchPolicy &policy, ClusterLimits base,
                               const QStringList &given) {
    const auto wanted = [&given](const char *flag) {
        return given.isEmpty() || given.contains(QLatin1String(flag));
    };
    if (wanted("concurrency"))
        base.globalInFlight = limits.globalInFlight;
    if (wanted("per-host"))
        base.perHostInFlight = limits.perHostInFlight;
    if (wanted("interval-ms"))
        base.intervalMs = guarded(limits.intervalMs);
    if (wanted("jitter"))
        base.jitterPermille = static_cast<int>(std::lround(std::clamp(limits.jitter, 0.0, 1.0) * 1000));
    // Leases lost to dead workers before a URL ends as network_error: its own retries plus two losses.
    if (wanted("retries"))
        base.maxAttempts = policy.maxRetries + 3;
    if (wanted("max-rate"))
        base.maxRatePerSec = limits.maxRatePerSec;
    if (wanted("adaptive") || wanted("no-adaptive"))
        base.adaptive = limits.adaptive;
    // The breaker's flags, each on its own.
    if (wanted("no-breaker") || wanted("breaker"))
        base.breaker.enabled = policy.breaker.enabled;
    if (wanted("breaker-window"))
        base.breaker.window = policy.breaker.window;
    if (wanted("breaker-threshold"))
        base.breaker.threshold = policy.breaker.threshold;
    if (wanted("breaker-cooldown")) {
        base.breaker.cooldownS = policy.breaker.cooldownS;
        base.breaker.cooldownMs = policy.breaker.cooldownMs;
    }
    if (wanted("breaker-give-up")) {
        base.breaker.giveUpS = policy.breaker.giveUpS;
        base.breaker.giveUpMs = policy.breaker.giveUpMs;
    }
    if (given.isEmpty()) {
        base.breaker.windowS = policy.breaker.windowS;
        base.breaker.cooldownCapFactor = policy.breaker.cooldownCapFactor;
    }
    return base;
}

QHash<QString, ClusterHostOverride> clusterHostOverridesFor(const CrawlLimits &limits) {
    QHash<QString, ClusterHostOverride> out;
    for (auto it = limits.hostOverrides.cbegin(); it != limits.hostOverrides.cend(); ++it) {
        const qint64 interval = it->intervalMs < 0 ? limits.intervalMs : it->intervalMs;
        out.insert(it.key(), {std::max(1, it->maxInFlight), guarded(interval)});
    }
    return out;
}

qint64 userIntervalMs(qint64 storedIntervalMs) {
    return std::max<qint64>(0, storedIntervalMs - kClusterIntervalGuardMs);
}

} // namespace crawl
