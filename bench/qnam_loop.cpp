// bench-qnam-loop: a bare QNetworkAccessManager loop, the floor Qt's HTTP layer sets for Crawlscope.
//
// Reads a URL list, then keeps up to --concurrency requests in flight with at most --per-host per host,
// no pacing, no retries, no output but a JSON summary line on stdout. Hosts ("host:port") are spread
// round-robin over --threads worker threads; each thread owns exactly one QNAM and gets an equal share
// of the global limit. Note: QNAM opens at most 6 connections per host:port, so with one thread a
// per-host limit of 8 leaves 2 requests per host queued inside QNAM (that is part of the floor).
//
//   bench-qnam-loop --input URLS.txt [--concurrency 64] [--per-host 8] [--threads 1|2]
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QThread>
#include <QUrl>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <sys/resource.h>
#include <vector>

namespace {

struct HostQueue {
    std::vector<QUrl> urls;
    std::size_t next = 0;
    int inFlight = 0;
};

struct Totals {
    std::atomic<qint64> done{0};
    std::atomic<qint64> ok{0};
    std::atomic<qint64> errors{0};
    std::atomic<qint64> bytes{0};
};

// Lives in its worker thread; everything it touches is created there.
class LoopWorker {
public:
    LoopWorker(std::vector<HostQueue> hosts, int globalLimit, int perHost, Totals *totals, QThread *thread)
        : m_hosts(std::move(hosts))
        , m_globalLimit(std::max(1, globalLimit))
        , m_perHost(std::max(1, perHost))
        , m_totals(totals)
        , m_thread(thread) {
        for (const HostQueue &h : m_hosts)
            m_remaining += static_cast<qint64>(h.urls.size());
    }

    void start(QObject *context) {
        m_nam = std::make_unique<QNetworkAccessManager>();
        m_context = context;
        if (m_remaining == 0) {
            m_thread->quit();
            return;
        }
        pump();
    }

    void finishAndQuit() {
        m_nam.reset();
        m_thread->quit();
    }

private:
    void pump() {
        const std::size_t hostCount = m_hosts.size();
        while (m_inFlight < m_globalLimit) {
            bool started = false;
            for (std::size_t i = 0; i < hostCount && m_inFlight < m_globalLimit; ++i) {
                const std::size_t idx = (m_cursor + i) % hostCount;
                HostQueue &h = m_hosts[idx];
                if (h.inFlight >= m_perHost || h.next >= h.urls.size())
                    continue;
                dispatch(idx);
                m_cursor = (idx + 1) % hostCount;
                started = true;
                break;
            }
            if (!started)
                return;
        }
    }

    void dispatch(std::size_t hostIndex) {
        HostQueue &h = m_hosts[hostIndex];
        QNetworkRequest request(h.urls[h.next++]);
        request.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("bench-qnam-loop/1.0"));
        ++h.inFlight;
        ++m_inFlight;
        QNetworkReply *reply = m_nam->get(request);
        QObject::connect(reply, &QNetworkReply::finished, m_context,
                         [this, reply, hostIndex] { onFinished(reply, hostIndex); });
    }

    void onFinished(QNetworkReply *reply, std::size_t hostIndex) {
        const QByteArray body = reply->readAll();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const bool ok = reply->error() == QNetworkReply::NoError && status >= 200 && status < 400;
        reply->deleteLater();
        m_totals->bytes += body.size();
        ++(ok ? m_totals->ok : m_totals->errors);
        ++m_totals->done;
        --m_hosts[hostIndex].inFlight;
        --m_inFlight;
        if (--m_remaining == 0) {
            finishAndQuit();
            return;
        }
        pump();
    }

    std::vector<HostQueue> m_hosts;
    int m_globalLimit;
    int m_perHost;
    Totals *m_totals;
    QThread *m_thread;
    QObject *m_context = nullptr;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    std::size_t m_cursor = 0;
    int m_inFlight = 0;
    qint64 m_remaining = 0;
};

double cpuSeconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench-qnam-loop"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Bare QNetworkAccessManager loop (benchmark floor)"));
    parser.addHelpOption();
    const QCommandLineOption inputOpt(QStringLiteral("input"), QStringLiteral("URL list, one per line"),
                                      QStringLiteral("file"));
    const QCommandLineOption concOpt(QStringLiteral("concurrency"), QStringLiteral("global in-flight (64)"),
                                     QStringLiteral("n"), QStringLiteral("64"));
    const QCommandLineOption hostOpt(QStringLiteral("per-host"), QStringLiteral("per-host in-flight (8)"),
                                     QStringLiteral("n"), QStringLiteral("8"));
    const QCommandLineOption threadOpt(QStringLiteral("threads"),
                                       QStringLiteral("threads, one QNAM each (1)"), QStringLiteral("n"),
                                       QStringLiteral("1"));
    parser.addOptions({inputOpt, concOpt, hostOpt, threadOpt});
    parser.process(app);

    QFile file(parser.value(inputOpt));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "bench-qnam-loop: cannot open input '%s'\n", qPrintable(parser.value(inputOpt)));
        return 2;
    }
    const int threads = std::clamp(parser.value(threadOpt).toInt(), 1, 64);
    const int concurrency = std::max(1, parser.value(concOpt).toInt());
    const int perHost = std::max(1, parser.value(hostOpt).toInt());

    // Group URLs by host, in order of first appearance; hosts go round-robin to threads.
    QHash<QString, std::size_t> hostIndex;
    std::vector<HostQueue> allHosts;
    qint64 total = 0;
    qint64 invalid = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        QUrl url(QString::fromUtf8(line), QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty()) {
            ++invalid;
            continue;
        }
        const QString key = url.host() + QLatin1Char(':') + QString::number(url.port(80));
        auto it = hostIndex.find(key);
        if (it == hostIndex.end()) {
            it = hostIndex.insert(key, allHosts.size());
            allHosts.emplace_back();
        }
        allHosts[it.value()].urls.push_back(std::move(url));
        ++total;
    }

    std::vector<std::vector<HostQueue>> perThread(static_cast<std::size_t>(threads));
    for (std::size_t i = 0; i < allHosts.size(); ++i)
        perThread[i % perThread.size()].push_back(std::move(allHosts[i]));

    Totals totals;
    std::vector<std::unique_ptr<QThread>> qthreads;
    std::vector<std::unique_ptr<QObject>> contexts;
    std::vector<std::unique_ptr<LoopWorker>> workers;
    const int share = std::max(1, concurrency / threads);
    QElapsedTimer timer;
    timer.start();
    for (int t = 0; t < threads; ++t) {
        auto thread = std::make_unique<QThread>();
        auto context = std::make_unique<QObject>();
        context->moveToThread(thread.get());
        auto worker = std::make_unique<LoopWorker>(std::move(perThread[static_cast<std::size_t>(t)]), share,
                                                   perHost, &totals, thread.get());
        thread->start();
        LoopWorker *w = worker.get();
        QObject *ctx = context.get();
        QMetaObject::invokeMethod(
            ctx, [w, ctx] { w->start(ctx); }, Qt::QueuedConnection);
        qthreads.push_back(std::move(thread));
        contexts.push_back(std::move(context));
        workers.push_back(std::move(worker));
    }
    for (auto &thread : qthreads)
        thread->wait();
    const double elapsed = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    workers.clear();
    contexts.clear();
    qthreads.clear();

    const double cpu = cpuSeconds();
    std::printf("{\"requests\":%lld,\"ok\":%lld,\"errors\":%lld,\"invalid\":%lld,\"bytes\":%lld,"
                "\"threads\":%d,\"elapsed_s\":%.4f,\"requests_per_s\":%.1f,\"cpu_s\":%.3f}\n",
                static_cast<long long>(totals.done.load()), static_cast<long long>(totals.ok.load()),
                static_cast<long long>(totals.errors.load()), static_cast<long long>(invalid),
                static_cast<long long>(totals.bytes.load()), threads, elapsed,
                elapsed > 0 ? static_cast<double>(total) / elapsed : 0.0, cpu);
    return totals.done.load() == total ? 0 : 1;
}
