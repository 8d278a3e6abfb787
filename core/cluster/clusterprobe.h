#pragma once

#include "cluster/redisurl.h"

#include <QString>
#include <QStringList>

namespace crawl {

// What the Attach to Cluster dialog learns from one short visit to Redis (blocking: call it off the GUI
// thread). Errors name the redacted URL only.
struct ClusterProbe {
    QString error;      // empty: Redis answered (and, when a crawl was named, it exists)
    QStringList crawls; // every crawl in that database, sorted
    bool crawlFound = false;
};

// Connects (AUTH, SELECT) with short timeouts, lists the crawls and, when crawlName is not empty, checks
// that it exists. `rediss://` and unreachable or refusing servers come back as errors, never as a hang.
ClusterProbe probeCluster(const RedisUrl &url, const QString &crawlName, int timeoutMs = 3000);

} // namespace crawl
