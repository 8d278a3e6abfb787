#pragma once

#include "cluster/clustertypes.h"
#include "model/crawllimits.h"
#include "model/fetchpolicy.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace crawl {

// Added to every shared start interval. A worker sends a leased request only while the grant is at most
// kClusterLateLeaseMs old (older leases go back unfetched), so two starts the budget spaced by
// interval + guard reach the server at least interval + guard - kClusterLateLeaseMs - (send latency) apart:
// the guard is what keeps the gaps the *server* sees at or above the interval the user asked for.
inline constexpr qint64 kClusterLateLeaseMs = 10;
inline constexpr qint64 kClusterIntervalGuardMs = 40;

// The shared limits for a crawl's flags. `given`: the flags given on the command line (only those change
// when `base` is the crawl's current limits, as --cluster-set does); empty: all of them.
ClusterLimits clusterLimitsFor(const CrawlLimits &limits, const FetchPolicy &policy, ClusterLimits base,
                               const QStringList &given = {});
// The per-host overrides (--host-limit) as the shared budget stores them: in flight, interval with guard.
struct ClusterHostOverride {
    int inFlight = 0;
    qint64 intervalMs = 0;
};
QHash<QString, ClusterHostOverride> clusterHostOverridesFor(const CrawlLimits &limits);
// The interval the user asked for, from a stored one (the guard removed), for messages.
qint64 userIntervalMs(qint64 storedIntervalMs);

} // namespace crawl
