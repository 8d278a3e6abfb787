#include "cluster/clusterprobe.h"

#include "cluster/clusterqueue.h"
#include "cluster/clustertypes.h"
#include "cluster/redisconnection.h"

namespace crawl {

ClusterProbe probeCluster(const RedisUrl &url, const QString &crawlName, int timeoutMs) {
    ClusterProbe out;
    QString why;
    if (!crawlName.isEmpty() && !isValidCrawlName(crawlName, &why)) {
        out.error = QStringLiteral("crawl name \"%1\": %2").arg(crawlName, why);
        return out;
    }
    RedisConnection::Options options;
    options.connectTimeoutMs = timeoutMs;
    options.commandTimeoutMs = timeoutMs;
    options.reconnectDeadlineMs = 500; // a refused port is an answer: do not keep the user waiting
    options.clientName = QByteArrayLiteral("crawlscope-window");
    RedisConnection connection(url, options);
    if (!connection.connect()) {
        out.error = connection.lastError();
        return out;
    }
    QString error;
    out.crawls = ClusterQueue::crawlNames(connection, &error);
    if (!error.isEmpty()) {
        out.error = QStringLiteral("Redis at %1: %2").arg(url.redacted(), error);
        return out;
    }
    if (crawlName.isEmpty())
        return out;
    ClusterQueue queue(connection, crawlName);
    out.crawlFound = queue.crawlExists();
    if (!out.crawlFound)
        out.error = queue.lastError().isEmpty()
                        ? QStringLiteral("no crawl named \"%1\" in %2").arg(crawlName, url.redacted())
                        : QStringLiteral("Redis at %1: %2").arg(url.redacted(), queue.lastError());
    return out;
}

} // namespace crawl
