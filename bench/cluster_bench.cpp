// bench-cluster: what the shared (Redis) frontier costs per request (not a test). Starts its own
// redis-server on a loopback port with a temporary folder (or uses --redis URL), then:
//   queue:  N worker threads lease and acknowledge U URLs over H hosts (one lease + one ack per URL,
//           limits set high so only Redis is measured);
//   budget: N threads take and return host-budget grants (tryStart + finished) over H hosts;
//   ping:   two bare PINGs per "request", the floor any two-round-trip protocol costs here.
// Prints one JSON object per mode: requests/s, Redis round trips per request, client CPU per request (this
// process, all threads), redis-server CPU per request (from /proc), so requests/s per Redis core.
//   bench-cluster [--threads N] [--urls U] [--hosts H] [--fsync always|everysec] [--redis URL] [--mode
//   queue|budget|both]
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterqueue.h"
#include "cluster/redisconnection.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>

#include <atomic>
#include <cstdio>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace crawl;

namespace {

double processCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// utime + stime of another process, from /proc/PID/stat (fields 14 and 15).
double otherProcessCpuSeconds(qint64 pid) {
    if (pid <= 0)
        return 0;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return 0;
    // After "pid (comm) ", field 3 (state) is index 0: utime (14) is index 11, stime (15) index 12.
    return static_cast<double>(fields[11].toLongLong() + fields[12].toLongLong()) /
           static_cast<double>(sysconf(_SC_CLK_TCK));
}

struct Measure {
    QElapsedTimer wall;
    double clientCpu = 0;
    double serverCpu = 0;
    qint64 pid = 0;
    void start(qint64 serverPid) {
        pid = serverPid;
        clientCpu = processCpuSeconds();
        serverCpu = otherProcessCpuSeconds(pid);
        wall.start();
    }
    QJsonObject finish(const char *mode, qint64 requests, quint64 roundTrips) const {
        const double seconds = static_cast<double>(wall.nsecsElapsed()) / 1e9;
        const double client = processCpuSeconds() - clientCpu;
        const double server = otherProcessCpuSeconds(pid) - serverCpu;
        const double n = static_cast<double>(std::max<qint64>(1, requests));
        QJsonObject out{{QStringLiteral("mode"), QLatin1String(mode)},
                        {QStringLiteral("requests"), requests},
                        {QStringLiteral("seconds"), seconds},
                        {QStringLiteral("requests_per_s"), n / seconds},
                        {QStringLiteral("round_trips_per_request"), static_cast<double>(roundTrips) / n},
                        {QStringLiteral("client_cpu_us_per_request"), client * 1e6 / n}};
        if (pid > 0) {
            out.insert(QStringLiteral("redis_cpu_us_per_request"), server * 1e6 / n);
            out.insert(QStringLiteral("requests_per_s_per_redis_core"), server > 0 ? n / server : 0.0);
        }
        return out;
    }
};

void print(const QJsonObject &object) {
    printf("%s\n", QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
    fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const auto option = [&](const QString &name, const QString &fallback) {
        const qsizetype i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : fallback;
    };
    const int threads = option(QStringLiteral("--threads"), QStringLiteral("4")).toInt();
    const int urls = option(QStringLiteral("--urls"), QStringLiteral("20000")).toInt();
    const int hosts = option(QStringLiteral("--hosts"), QStringLiteral("64")).toInt();
    const QString mode = option(QStringLiteral("--mode"), QStringLiteral("both"));
    const QString redisText = option(QStringLiteral("--redis"), QString());

    QTemporaryDir dir;
    QProcess server;
    RedisUrl url;
    if (redisText.isEmpty()) {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        url.host = QStringLiteral("127.0.0.1");
        url.port = probe.serverPort();
        probe.close();
        server.setProcessChannelMode(QProcess::MergedChannels);
        server.start(QStandardPaths::findExecutable(QStringLiteral("redis-server")),
                     {QStringLiteral("--port"), QString::number(url.port), QStringLiteral("--bind"),
                      QStringLiteral("127.0.0.1"), QStringLiteral("--dir"), dir.path(),
                      QStringLiteral("--appendonly"), QStringLiteral("yes"), QStringLiteral("--appendfsync"),
                      option(QStringLiteral("--fsync"), QStringLiteral("everysec")), QStringLiteral("--save"),
                      QString(), QStringLiteral("--logfile"), QString()});
        QByteArray log;
        QElapsedTimer since;
        since.start();
        while (!log.contains("Ready to accept connections") && since.elapsed() < 20000 &&
               server.state() != QProcess::NotRunning) {
            server.waitForReadyRead(500);
            log += server.readAll();
        }
        if (!log.contains("Ready to accept connections")) {
            fprintf(stderr, "bench-cluster: redis-server did not start (is it installed?)\n%s\n",
                    log.constData());
            return 1;
        }
    } else {
        const RedisUrlParse parsed = parseRedisUrl(redisText, RedisUrlEnvironment::fromProcess());
        if (!parsed.url) {
            fprintf(stderr, "bench-cluster: %s\n", qPrintable(parsed.error));
            return 2;
        }
        url = *parsed.url;
    }
    const qint64 serverPid = server.processId();
    const QString crawl = QStringLiteral("bench-%1").arg(QCoreApplication::applicationPid());

    RedisConnection setup(url);
    ClusterQueue setupQueue(setup, crawl);
    ClusterHostBudget setupBudget(setup, crawl);
    if (!setupQueue.createCrawl({}) || !setupBudget.setLimits({100000, 100000, 0, 0, 0})) {
        fprintf(stderr, "bench-cluster: %s\n", qPrintable(setupQueue.lastError() + setupBudget.lastError()));
        return 1;
    }

    if (mode == QStringLiteral("queue") || mode == QStringLiteral("both")) {
        Measure enqueue;
        enqueue.start(serverPid);
        const quint64 tripsBefore = setup.roundTrips();
        constexpr int kBatch = 500;
        for (int first = 0; first < urls; first += kBatch) {
            QList<ClusterUrl> batch;
            for (int i = first; i < std::min(urls, first + kBatch); ++i) {
                const QString text = QStringLiteral("http://h%1.bench:8080/p/%2").arg(i % hosts).arg(i);
                batch.append({text, text, QStringLiteral("h%1.bench:8080").arg(i % hosts), i + 1});
            }
            if (const EnqueueResult r = setupQueue.enqueue(batch, QByteArray::number(first));
                !r.error.isEmpty()) {
                fprintf(stderr, "bench-cluster: enqueue: %s\n", qPrintable(r.error));
                return 1;
            }
        }
        print(enqueue.finish("enqueue", urls, setup.roundTrips() - tripsBefore));

        Measure run;
        run.start(serverPid);
        std::atomic<quint64> trips{0};
        std::atomic<qint64> acked{0};
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                RedisConnection connection(url);
                ClusterQueue queue(connection, crawl);
                const QByteArray owner = "bench-" + QByteArray::number(t);
                const QList<QPair<QByteArray, QByteArray>> result{{"outcome", "ok"}, {"status", "200"}};
                for (int n = 0;; ++n) {
                    const QByteArray leaseId = owner + ':' + QByteArray::number(n);
                    const LeaseResult lease = queue.lease(owner, leaseId, 30'000);
                    if (!lease.lease)
                        break; // limits are high: no lease means the queue is empty
                    if (queue.acknowledge(owner, leaseId, result).accepted)
                        ++acked;
                }
                trips += connection.roundTrips();
            });
        }
        for (auto &worker : workers)
            worker.join();
        QJsonObject out = run.finish("lease+ack", acked.load(), trips.load());
        out.insert(QStringLiteral("threads"), threads);
        out.insert(QStringLiteral("hosts"), hosts);
        print(out);
    }

    if (mode == QStringLiteral("budget") || mode == QStringLiteral("both")) {
        const int perThread = std::max(1, urls / std::max(1, threads));
        Measure run;
        run.start(serverPid);
        std::atomic<quint64> trips{0};
        std::atomic<qint64> granted{0};
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                RedisConnection connection(url);
                ClusterHostBudget budget(connection, crawl);
                for (int n = 0; n < perThread; ++n) {
                    const QString host = QStringLiteral("h%1.bench:8080").arg((n * threads + t) % hosts);
                    const QByteArray grant = 'g' + QByteArray::number(t) + ':' + QByteArray::number(n);
                    if (budget.tryStart(host, grant, 30'000).granted) {
                        ++granted;
                        budget.finished(host, grant);
                    }
                }
                trips += connection.roundTrips();
            });
        }
        for (auto &worker : workers)
            worker.join();
        QJsonObject out = run.finish("tryStart+finished", granted.load(), trips.load());
        out.insert(QStringLiteral("threads"), threads);
        out.insert(QStringLiteral("hosts"), hosts);
        print(out);
    }

    // The floor: two bare round trips (PING) per "request", what any two-call protocol costs on this machine.
    if (mode == QStringLiteral("ping") || mode == QStringLiteral("both")) {
        const int perThread = std::max(1, urls / std::max(1, threads));
        Measure run;
        run.start(serverPid);
        std::atomic<quint64> trips{0};
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t) {
            workers.emplace_back([&] {
                RedisConnection connection(url);
                for (int n = 0; n < perThread * 2; ++n)
                    connection.command({QByteArrayLiteral("PING")});
                trips += connection.roundTrips();
            });
        }
        for (auto &worker : workers)
            worker.join();
        QJsonObject out = run.finish("2xPING", qint64(perThread) * threads, trips.load());
        out.insert(QStringLiteral("threads"), threads);
        print(out);
    }

    if (server.state() == QProcess::Running) {
        server.terminate();
        server.waitForFinished(10000);
    }
    return 0;
}
