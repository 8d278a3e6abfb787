#pragma once

#include <QString>
#include <QStringList>

namespace crawl {

// Which flags mean something for a `--worker`. A worker fetches with the flags its coordinator stored in
// the crawl and under the shared limits, and writes no file: any other flag would be accepted and silently
// not applied. Returns the reason the first such flag is refused (empty: all apply). `explicitFlags` are
// flag names without dashes, as CommandLineOptions::explicitFlags holds them.
QString clusterWorkerFlagRefusal(const QStringList &explicitFlags);
// The limits a shared crawl stores for every worker (ClusterLimits), besides --concurrency: what a worker
// refuses ("set it on the coordinator") and what --cluster-set changes.
const QStringList &clusterSharedLimitFlags();
// The coordinator's flags that no worker applies yet (docs/cluster.md, "What a worker does not do yet"): the
// crawl would run without what the user asked for. Empty when every flag given is applied.
QString clusterCoordinatorFlagRefusal(const QStringList &explicitFlags);

} // namespace crawl
