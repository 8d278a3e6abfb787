// cluster-test-worker: a worker process for tst_clusterprocesses (not installed). It leases URLs of one
// crawl, "fetches" each for --hold-ms, and acknowledges it, until nothing is queued, leased or waiting.
// With --hang-after N it acknowledges N URLs, leases one more, prints "hanging LEASE URLID" and then
// blocks forever holding it, so the test can kill -9 a worker that certainly holds a lease.
//   cluster-test-worker --port P --crawl NAME --owner ID [--ttl-ms T] [--hold-ms H] [--hang-after N]
#include "cluster/clusterqueue.h"
#include "cluster/redisconnection.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

using namespace crawl;

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const auto option = [&](const QString &name, const QString &fallback) {
        const qsizetype i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : fallback;
    };
    RedisUrl url;
    url.host = QStringLiteral("127.0.0.1");
    url.port = static_cast<quint16>(option(QStringLiteral("--port"), QStringLiteral("0")).toUInt());
    const QString crawl = option(QStringLiteral("--crawl"), QString());
    const QByteArray owner = option(QStringLiteral("--owner"), QStringLiteral("worker")).toUtf8();
    const qint64 ttlMs = option(QStringLiteral("--ttl-ms"), QStringLiteral("1000")).toLongLong();
    const int holdMs = option(QStringLiteral("--hold-ms"), QStringLiteral("10")).toInt();
    const int hangAfter = option(QStringLiteral("--hang-after"), QStringLiteral("-1")).toInt();

    RedisConnection::Options options;
    options.clientName = owner;
    RedisConnection connection(url, options);
    ClusterQueue queue(connection, crawl);
    int acked = 0;
    for (qint64 n = 1;; ++n) {
        const QByteArray leaseId = owner + ':' + QByteArray::number(n);
        const LeaseResult result = queue.lease(owner, leaseId, ttlMs);
        if (!result.error.isEmpty()) {
            fprintf(stderr, "lease failed: %s\n", qPrintable(result.error));
            return 1;
        }
        if (!result.lease) {
            const ClusterCounts counts = queue.counts();
            if (counts.queued == 0 && counts.leased == 0 && counts.delayed == 0)
                return 0;
            const qint64 waitMs = result.askAgainAtMs < 0 ? 20 : result.askAgainAtMs - result.serverNowMs;
            std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp<qint64>(waitMs, 5, 50)));
            continue;
        }
        if (hangAfter >= 0 && acked == hangAfter) {
            printf("hanging %s %lld\n", leaseId.constData(), static_cast<long long>(result.lease->urlId));
            fflush(stdout);
            for (;;)
                std::this_thread::sleep_for(std::chrono::seconds(60));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(holdMs));
        // The server's in-flight count for the host at this start travels with the result, for the test.
        const AckResult ack =
            queue.acknowledge(owner, leaseId,
                              {{"outcome", "ok"},
                               {"status", "200"},
                               {"host_inflight", QByteArray::number(result.lease->hostInFlight)}});
        if (!ack.error.isEmpty()) {
            fprintf(stderr, "acknowledge failed: %s\n", qPrintable(ack.error));
            return 1;
        }
        if (ack.accepted)
            ++acked;
    }
}
