// --adaptive over a shared crawl (issue 15 with issue 14's pace), with the real crawlscope binary: a
// coordinator and three workers against a test-site host that serves only K requests at once (503 above
// K) and a healthy host beside it. Asserted on what the *site* recorded: with the shared pace the host's
// in-flight peak settles at about K and 503s are a small share, far below the same crawl without
// --adaptive; every line has its one row; the healthy host climbs to the user's limit meanwhile.
#include "../core/clitestsupport.h"
#include "cluster/clusterhostbudget.h"
#include "cluster/redisconnection.h"
#include "crawlscopeprocess.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace crawl;
using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {

constexpr qint64 kMs = 1'000'000;
// The tolerance host: K at once, 40 ms + 10 ms per request being served (tst_hosthealth_engine's).
constexpr int kTolerance = 4;
const QString kTolerancePattern = QStringLiteral("/t%1?tolerance=4&tolms=40&tolstep=10");

// What the server saw on one host.
struct ServerView {
    double spanMs = 0; // first start to last end
    qsizetype requests = 0;
    qsizetype status503 = 0;
    int peakInFlight = 0;        // over the whole crawl
    int settledPeakInFlight = 0; // over its second half (by start time): after the pace found the host
    double share503() const { return requests > 0 ? double(status503) / double(requests) : 0; }
    QString text() const {
        return QStringLiteral(
                   "%1 requests, %2 answered 503 (%3 %), peak in flight %4, %5 in the second half, "
                   "%6 ms")
            .arg(requests)
            .arg(status503)
            .arg(100.0 * share503(), 0, 'f', 1)
            .arg(peakInFlight)
            .arg(settledPeakInFlight)
            .arg(spanMs, 0, 'f', 0);
    }
};

// The most requests in flight at once among `records` started at or after `fromNs` (each counted from
// its start to its end, as the server saw them).
int peakInFlight(const QList<RequestRecord> &records, qint64 fromNs) {
    std::vector<std::pair<qint64, int>> edges;
    for (const RequestRecord &r : records) {
        if (r.startNs < fromNs)
            continue;
        edges.push_back({r.startNs, +1});
        edges.push_back({r.endNs > 0 ? r.endNs : r.startNs, -1});
    }
    std::sort(edges.begin(), edges.end()); // at one instant, an end (-1) before a start (+1)
    int now = 0, peak = 0;
    for (const auto &edge : edges) {
        now += edge.second;
        peak = std::max(peak, now);
    }
    return peak;
}

ServerView serverView(const QList<RequestRecord> &records) {
    ServerView v;
    v.requests = records.size();
    qint64 first = std::numeric_limits<qint64>::max(), last = 0, lastEnd = 0;
    for (const RequestRecord &r : records) {
        v.status503 += r.status == 503 ? 1 : 0;
        first = std::min(first, r.startNs);
        last = std::max(last, r.startNs);
        lastEnd = std::max(lastEnd, r.endNs);
    }
    v.spanMs = records.isEmpty() ? 0 : double(lastEnd - first) / double(kMs);
    v.peakInFlight = peakInFlight(records, 0);
    v.settledPeakInFlight = records.isEmpty() ? 0 : peakInFlight(records, first + (last - first) / 2);
    return v;
}

} // namespace

class TestClusterAdaptive : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString clusterUrl() const { return QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()); }

    // A coordinator (per host 16 at most: the ceiling) and three workers of 16 each; waits for all of them.
    // Returns the CSV's row count, or -1 (the failure said).
    int crawl(const QString &name, const QByteArray &list, const QStringList &flags) {
        const QString input = m_dir.filePath(name + QStringLiteral(".txt"));
        const QString csv = m_dir.filePath(name + QStringLiteral(".csv"));
        if (!clitest::writeFile(input, list))
            return -1;
        auto coordinator = startCrawlscope(
            QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), input,
                        QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), name,
                        QStringLiteral("--output"), csv, QStringLiteral("--quiet"),
                        QStringLiteral("--robots"), QStringLiteral("ignore"), QStringLiteral("--concurrency"),
                        QStringLiteral("48"), QStringLiteral("--per-host"), QStringLiteral("16"),
                        QStringLiteral("--interval-ms"), QStringLiteral("0")} +
            flags);
        std::vector<std::unique_ptr<CrawlscopeProcess>> workers;
        for (int i = 0; i < 3; ++i)
            workers.push_back(
                startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                 QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), name,
                                 QStringLiteral("--concurrency"), QStringLiteral("16")}));
        const bool finished = waitFinished(*coordinator, 120'000);
        m_workerLines.clear();
        for (auto &worker : workers) {
            if (!waitFinished(*worker, 15'000) || worker->process->exitCode() != 0) {
                qWarning("worker: %s", worker->err.constData());
                return -1;
            }
            m_workerLines += worker->err;
        }
        if (!finished || coordinator->process->exitCode() != 0) {
            qWarning("coordinator: %s", coordinator->err.constData());
            return -1;
        }
        int count = 0;
        m_rows = clitest::rowsByUrl(csv, &count);
        return count;
    }
    QHash<QString, QStringList> m_rows;
    QByteArray m_workerLines; // the last crawl's workers' stderr

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    // The contrast first: the user's 16 per host, no adaptation, one attempt each: many requests are 503s.
    // Then --adaptive on the same host: the peak settles at about K and 503s are a small share; a healthy
    // host beside it, in both runs, is served about as fast with the pace as without it.
    void sharedPaceFindsTheHostsTolerance() {
        const QString healthyPattern = QStringLiteral("/h%1?ms=60");
        // The same list in both runs (another site, so the server's records are each run's own).
        constexpr int kTolerantUrls = 320, kHealthyUrls = 160;
        TestSite fixedSite;
        const QString fixedHost = fixedSite.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString fixedHealthy = fixedSite.addHost(QHostAddress(QStringLiteral("127.0.0.5")));
        QVERIFY(!fixedHost.isEmpty() && !fixedHealthy.isEmpty());
        QCOMPARE(crawl(QStringLiteral("fixed"),
                       fixedSite.urlList(fixedHost, kTolerantUrls, kTolerancePattern) +
                           fixedSite.urlList(fixedHealthy, kHealthyUrls, healthyPattern),
                       {QStringLiteral("--retries"), QStringLiteral("0"), QStringLiteral("--no-breaker")}),
                 kTolerantUrls + kHealthyUrls);
        const ServerView fixed = serverView(fixedSite.requests(fixedHost));
        const ServerView fixedCalm = serverView(fixedSite.requests(fixedHealthy));
        qInfo("without --adaptive: %s; the healthy host: %s", qPrintable(fixed.text()),
              qPrintable(fixedCalm.text()));
        QCOMPARE(fixed.requests, qsizetype(kTolerantUrls));
        QVERIFY2(fixed.share503() > 0.3, qPrintable(fixed.text()));
        QVERIFY2(fixed.peakInFlight > kTolerance, qPrintable(fixed.text())); // the 503s are answered at once

        TestSite site;
        const QString tolerant = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        const QString healthy = site.addHost(QHostAddress(QStringLiteral("127.0.0.4")));
        QVERIFY(!tolerant.isEmpty() && !healthy.isEmpty());
        const QByteArray list = site.urlList(tolerant, kTolerantUrls, kTolerancePattern) +
                                site.urlList(healthy, kHealthyUrls, healthyPattern);
        // The breaker at its defaults: it must not trip on a host the pace keeps happy.
        QCOMPARE(crawl(QStringLiteral("adaptive"), list,
                       {QStringLiteral("--adaptive"), QStringLiteral("--retries"), QStringLiteral("8"),
                        QStringLiteral("--backoff-ms"), QStringLiteral("50")}),
                 kTolerantUrls + kHealthyUrls);
        QVERIFY2(m_workerLines.count("adaptive pace per host") == 3, m_workerLines.constData());
        for (const QString &url : site.urls(tolerant, kTolerantUrls, kTolerancePattern))
            QCOMPARE(m_rows.value(url).value(clitest::OutcomeCol), QStringLiteral("ok"));
        for (const QString &url : site.urls(healthy, kHealthyUrls, healthyPattern))
            QCOMPARE(m_rows.value(url).value(clitest::OutcomeCol), QStringLiteral("ok"));

        const ServerView seen = serverView(site.requests(tolerant));
        qInfo("with --adaptive, 3 workers: %s", qPrintable(seen.text()));
        QCOMPARE(seen.requests - seen.status503, qsizetype(kTolerantUrls)); // every URL served exactly once
        QVERIFY2(seen.share503() < 0.15, qPrintable(seen.text()));
        QVERIFY2(seen.share503() < fixed.share503() / 4,
                 qPrintable(seen.text() + QStringLiteral(" vs ") + fixed.text()));
        // Settled: K served, at most the one or two probing the step above that the host refuses at once.
        QVERIFY2(seen.settledPeakInFlight <= kTolerance + 2, qPrintable(seen.text()));
        QVERIFY2(seen.settledPeakInFlight >= kTolerance - 1, qPrintable(seen.text())); // and not far below

        // The healthy host was not held to the other's pace: slow start took it well past K, and it was
        // served about as fast as without --adaptive (slow start's first rounds aside).
        const ServerView calm = serverView(site.requests(healthy));
        qInfo("healthy host beside it: %s", qPrintable(calm.text()));
        QCOMPARE(calm.status503, qsizetype(0));
        QVERIFY2(calm.peakInFlight > kTolerance + 2, qPrintable(calm.text()));
        QVERIFY2(calm.spanMs <= 1.5 * fixedCalm.spanMs + 1000,
                 qPrintable(calm.text() + QStringLiteral(" vs ") + fixedCalm.text()));

        // What the window reads: the shared pace per host, the healthy one at the ceiling, the other near K.
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, QStringLiteral("adaptive"));
        QCOMPARE(budget.limits()->adaptive, true);
        const HostBudgetStatus calmPace = budget.hostStatus(healthy);
        QCOMPARE(calmPace.paceInFlight, 16);
        const HostBudgetStatus tolerantPace = budget.hostStatus(tolerant);
        QVERIFY2(tolerantPace.paceInFlight >= 1 && tolerantPace.paceInFlight <= kTolerance + 1,
                 qPrintable(QString::number(tolerantPace.paceInFlight)));
        QVERIFY2(!tolerantPace.paceReason.isEmpty(), qPrintable(tolerantPace.paceReason));

        // --cluster-set --adaptive is accepted (a stored limit like the others).
        auto set = startCrawlscope({QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"),
                                    QStringLiteral("fixed"), QStringLiteral("--cluster-set"),
                                    QStringLiteral("--adaptive")});
        QVERIFY(waitFinished(*set, 10'000));
        QVERIFY2(set->process->exitCode() == 0, set->err.constData());
        ClusterHostBudget fixedBudget(connection, QStringLiteral("fixed"));
        QCOMPARE(fixedBudget.limits()->adaptive, true);
    }
};

QTEST_GUILESS_MAIN(TestClusterAdaptive)
#include "tst_clusteradaptive.moc"
