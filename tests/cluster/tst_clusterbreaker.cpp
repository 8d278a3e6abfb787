// The circuit breaker and the start-rate cap every worker of a shared crawl shares (issue 15): first the
// scripts against a real redis-server (several connections standing in for several workers, explicit
// times), then the real crawlscope binary (a coordinator and three workers) against the loopback test site,
// asserting what the *site* saw.
#include "../core/clitestsupport.h"
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterwatchsnapshot.h"
#include "cluster/redisconnection.h"
#include "crawlscopeprocess.h"
#include "model/crawlsnapshot.h"
#include "policy/hostbreaker.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace crawl;
using Reason = StartDecision::Reason;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {

constexpr qint64 kMs = 1'000'000;
const QString kHost = QStringLiteral("flaky.example:80");
constexpr int kHealthy = int(AttemptHealth::Healthy);
constexpr int kServerError = int(AttemptHealth::ServerError);
constexpr int kTimeout = int(AttemptHealth::Timeout);

QString crawlName() {
    return QString::fromLatin1(QTest::currentTestFunction());
}

// Window 5, all of it failed trips; 1 s cool-down (doubling, at most 4 s).
ClusterLimits breakerLimits() {
    ClusterLimits limits{10, 4, 0, 0, 0};
    limits.breaker.window = 5;
    limits.breaker.threshold = 1.0;
    limits.breaker.cooldownS = 1;
    limits.breaker.cooldownCapFactor = 4;
    return limits;
}

using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;
using Proc = CrawlscopeProcess;

QList<RequestRecord> startsOf(const TestSite &site, const QString &host) {
    QList<RequestRecord> records = site.requests(host);
    std::sort(records.begin(), records.end(),
              [](const RequestRecord &a, const RequestRecord &b) { return a.startNs < b.startNs; });
    return records;
}

} // namespace

class TestClusterBreaker : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString clusterUrl() const { return QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()); }

    std::unique_ptr<Proc> startWorker(const QString &crawl) {
        return startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), crawl,
                                QStringLiteral("--concurrency"), QStringLiteral("4")});
    }
    std::unique_ptr<Proc> startCoordinator(const QString &crawl, const QByteArray &list, const QString &csv,
                                           const QStringList &limits) {
        const QString input = m_dir.filePath(crawl + QStringLiteral(".txt"));
        if (!clitest::writeFile(input, list))
            return nullptr;
        return startCrawlscope(QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), input,
                                           QStringLiteral("--cluster"), clusterUrl(),
                                           QStringLiteral("--crawl"), crawl, QStringLiteral("--output"), csv,
                                           QStringLiteral("--quiet"), QStringLiteral("--robots"),
                                           QStringLiteral("ignore")} +
                               limits);
    }
private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    // Three connections (three workers) each see two failures of one host: the shared window counts them
    // together, and the fifth consecutive failure, whichever worker saw it, trips the host for everyone.
    void failuresOfSeveralWorkersTripOneBreaker() {
        RedisConnection c1(m_server.url()), c2(m_server.url()), c3(m_server.url());
        ClusterHostBudget w1(c1, crawlName()), w2(c2, crawlName()), w3(c3, crawlName());
        QVERIFY2(w1.setLimits(breakerLimits()), qPrintable(w1.lastError()));
        ClusterHostBudget *workers[] = {&w1, &w2, &w3, &w1, &w2};
        qint64 now = 1'000;
        for (int i = 0; i < 4; ++i) {
            const BreakerRecord r =
                workers[i]->recordAttempt(kHost, "g" + QByteArray::number(i), kServerError, now);
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            QCOMPARE(r.transition, BreakerRecord::Transition::None);
            QCOMPARE(r.failures, i + 1);
            now += 10;
        }
        // A success in between breaks the run: consecutive failures only (threshold 1.0 of a window of 5).
        QCOMPARE(w3.recordAttempt(kHost, "ok", kHealthy, now).transition, BreakerRecord::Transition::None);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(workers[i]->recordAttempt(kHost, "h" + QByteArray::number(i), kTimeout, now).transition,
                     BreakerRecord::Transition::None);
        const BreakerRecord tripped = w3.recordAttempt(kHost, "h4", kServerError, 2'000);
        QCOMPARE(tripped.transition, BreakerRecord::Transition::Tripped);
        QCOMPARE(tripped.state, QStringLiteral("open"));
        QCOMPARE(tripped.probeAtMs, 3'000);
        QCOMPARE(tripped.failures, 5);
        QCOMPARE(tripped.count, 5);
        QCOMPARE(tripped.trips, 1);
        // The words of a local crawl's trip, from the shared counts.
        QCOMPARE(HostBreaker::tripReason(tripped.failures, tripped.count,
                                         static_cast<AttemptHealth>(tripped.dominantHealth)),
                 QStringLiteral("5 of the last 5 attempts failed: timeouts"));

        // Open: nobody starts on the host; other hosts go on.
        const StartDecision refused = w1.tryStart(kHost, "x", 10'000, 2'500);
        QCOMPARE(refused.reason, Reason::BreakerOpen);
        QCOMPARE(refused.atMs, 3'000);
        QVERIFY(w2.tryStart(QStringLiteral("other:80"), "o", 10'000, 2'500).granted);
        const HostBudgetStatus status = w2.hostStatus(kHost, 2'500);
        QCOMPARE(status.breaker, QStringLiteral("open"));
        QCOMPARE(status.breakerReason, QStringLiteral("5 of the last 5 attempts failed: timeouts"));
        // The window's hosts table: tripped, with the reason and the probe time on this machine's clock.
        ClusterWatchSnapshot watched;
        watched.serverNowMs = 2'500;
        watched.localMinusServerMs = 100;
        watched.hosts.append({kHost, status});
        CrawlSnapshot shown = toCrawlSnapshot(watched, 40);
        QCOMPARE(shown.hosts.size(), 1);
        QCOMPARE(shown.hosts[0].breakerState, BreakerState::Open);
        QCOMPARE(shown.hosts[0].breakerProbeAtMs, 3'100);
        QCOMPARE(shown.hosts[0].breakerReason, status.breakerReason);
        watched.serverNowMs = 3'000; // the cool-down is over: probing
        watched.hosts[0].status.serverNowMs = 3'000;
        shown = toCrawlSnapshot(watched, 40);
        QCOMPARE(shown.hosts[0].breakerState, BreakerState::HalfOpen);
        // An attempt that was in flight at the trip says nothing more.
        QCOMPARE(w1.recordAttempt(kHost, "late", kServerError, 2'600).transition,
                 BreakerRecord::Transition::None);
    }

    // After the cool-down exactly one probe starts, whichever worker asks; its failure re-opens the host with
    // the cool-down doubled, its success closes it (then one at a time for a window of attempts).
    void oneProbeThenReopenOrClose() {
        RedisConnection c1(m_server.url()), c2(m_server.url());
        ClusterHostBudget w1(c1, crawlName()), w2(c2, crawlName());
        QVERIFY(w1.setLimits(breakerLimits()));
        for (int i = 0; i < 5; ++i)
            w1.recordAttempt(kHost, "f" + QByteArray::number(i), kServerError, 1'000);
        QCOMPARE(w1.hostStatus(kHost, 1'000).breaker, QStringLiteral("open"));

        QVERIFY(w1.tryStart(kHost, "probe1", 10'000, 2'000).granted);
        QCOMPARE(w2.tryStart(kHost, "other", 10'000, 2'000).reason, Reason::BreakerOpen);
        QCOMPARE(w2.hostStatus(kHost, 2'000).breaker, QStringLiteral("halfopen"));
        // Only the probe's outcome decides.
        QCOMPARE(w2.recordAttempt(kHost, "other", kHealthy, 2'050).transition,
                 BreakerRecord::Transition::None);
        const BreakerRecord reopened = w1.recordAttempt(kHost, "probe1", kServerError, 2'100);
        QCOMPARE(reopened.transition, BreakerRecord::Transition::Tripped);
        QCOMPARE(reopened.probeAtMs, 4'100); // 2 x 1 s
        QCOMPARE(reopened.trips, 2);
        QVERIFY(w1.finished(kHost, "probe1", 2'100));
        QCOMPARE(w2.tryStart(kHost, "early", 10'000, 4'000).reason, Reason::BreakerOpen);

        // A probe given back unsent (or whose worker died) leaves no verdict: the next asker probes at once.
        QVERIFY(w2.tryStart(kHost, "probe2", 10'000, 4'100).granted);
        QVERIFY(w2.finished(kHost, "probe2", 4'110));
        QCOMPARE(w2.hostStatus(kHost, 4'110).breaker, QStringLiteral("open"));
        QVERIFY(w1.tryStart(kHost, "probe3", 10'000, 4'120).granted);
        QCOMPARE(w1.recordAttempt(kHost, "probe3", kHealthy, 4'200).transition,
                 BreakerRecord::Transition::Recovered);
        QVERIFY(w1.finished(kHost, "probe3", 4'200));
        QCOMPARE(w2.hostStatus(kHost, 4'200).breaker, QStringLiteral("closed"));
        // Recovering: one at a time although the limit is 4.
        QVERIFY(w2.tryStart(kHost, "r1", 10'000, 4'300).granted);
        QCOMPARE(w1.tryStart(kHost, "r2", 10'000, 4'300).reason, Reason::HostBusy);

        // Off: nothing is judged.
        ClusterLimits off = breakerLimits();
        off.breaker.enabled = false;
        QVERIFY(w1.setLimits(off));
        for (int i = 0; i < 6; ++i)
            QCOMPARE(w1.recordAttempt(QStringLiteral("down:80"), "d" + QByteArray::number(i), kTimeout, 5'000)
                         .transition,
                     BreakerRecord::Transition::None);
        const std::optional<ClusterLimits> read = w2.limits();
        QVERIFY(read);
        QVERIFY(!read->breaker.enabled);
        QCOMPARE(read->breaker.window, 5);
        QCOMPARE(read->breaker.threshold, 1.0);
        QCOMPARE(read->breaker.cooldownS, 1);
    }

    // --max-rate 20: starts at least 50 ms apart over every host and worker, no burst; a new rate applies to
    // the next start at once.
    void rateCapSpacesStartsAcrossWorkers() {
        RedisConnection c1(m_server.url()), c2(m_server.url());
        ClusterHostBudget w1(c1, crawlName()), w2(c2, crawlName());
        ClusterLimits limits{100, 10, 0, 0, 0};
        limits.maxRatePerSec = 20;
        QVERIFY(w1.setLimits(limits));
        QCOMPARE(w2.limits()->maxRatePerSec, 20.0);
        QVERIFY(w1.tryStart(QStringLiteral("a:80"), "1", 10'000, 1'000).granted);
        StartDecision d = w2.tryStart(QStringLiteral("b:80"), "2", 10'000, 1'020);
        QCOMPARE(d.reason, Reason::RateCap);
        QCOMPARE(d.atMs, 1'050);
        QVERIFY(w2.tryStart(QStringLiteral("b:80"), "2", 10'000, 1'050).granted);
        // Idle for a while: no credit saved up.
        QVERIFY(w1.tryStart(QStringLiteral("c:80"), "3", 10'000, 5'000).granted);
        QCOMPARE(w2.tryStart(QStringLiteral("d:80"), "4", 10'000, 5'010).reason, Reason::RateCap);
        limits.maxRatePerSec = 5; // 200 ms from the latest start
        QVERIFY(w2.setLimits(limits));
        d = w2.tryStart(QStringLiteral("d:80"), "4", 10'000, 5'100);
        QCOMPARE(d.reason, Reason::RateCap);
        QCOMPARE(d.atMs, 5'200);
        limits.maxRatePerSec = 0;
        QVERIFY(w1.setLimits(limits));
        QVERIFY(w2.tryStart(QStringLiteral("d:80"), "4", 10'000, 5'101).granted);
        QVERIFY(w1.tryStart(QStringLiteral("e:80"), "5", 10'000, 5'101).granted);
    }

    // The real binary: a host whose first six requests fail (503), another that is healthy, three workers.
    // The site sees exactly five failures, then nothing on that host for the 1 s cool-down (the other host
    // goes on), one probe (which fails again: 2 s more), one probe that succeeds, then the rest; every line
    // ends with one row.
    void sharedBreakerTripsProbesAndRecovers() {
        TestSite site;
        const QString flaky = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString healthy = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(!flaky.isEmpty() && !healthy.isEmpty());
        // fail=1: each target's first hit answers 503, its retry 200. Retries wait out a backoff behind the
        // fresh URLs, so the first five requests are failures, the sixth (the first probe) too.
        const QByteArray list = site.urlList(flaky, 6, QStringLiteral("/f%1?fail=1")) +
                                site.urlList(healthy, 50, QStringLiteral("/h%1?ms=100"));
        const QString csv = m_dir.filePath(QStringLiteral("breaker.csv"));
        auto coordinator = startCoordinator(
            QStringLiteral("breaker"), list, csv,
            {QStringLiteral("--per-host"), QStringLiteral("2"), QStringLiteral("--interval-ms"),
             QStringLiteral("0"), QStringLiteral("--host-limit"), flaky + QStringLiteral("=1"),
             QStringLiteral("--retries"), QStringLiteral("2"), QStringLiteral("--backoff-ms"),
             QStringLiteral("100"), QStringLiteral("--breaker-window"), QStringLiteral("5"),
             QStringLiteral("--breaker-threshold"), QStringLiteral("1"), QStringLiteral("--breaker-cooldown"),
             QStringLiteral("1")});
        QVERIFY(coordinator);
        std::vector<std::unique_ptr<Proc>> workers;
        for (int i = 0; i < 3; ++i)
            workers.push_back(startWorker(QStringLiteral("breaker")));
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QByteArray workerLines;
        for (auto &worker : workers) {
            QVERIFY2(waitFinished(*worker, 10000), worker->err.constData());
            QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());
            workerLines += worker->err;
        }

        if (qEnvironmentVariableIsSet("CLUSTER_TEST_VERBOSE"))
            qInfo("%s", workerLines.constData());
        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 56);
        for (const QString &url : site.urls(flaky, 6, QStringLiteral("/f%1?fail=1"))) {
            QCOMPARE(rows.value(url).value(clitest::OutcomeCol), QStringLiteral("ok")); // waited, not failed
            QCOMPARE(rows.value(url).value(clitest::Attempts), QStringLiteral("2"));
        }

        const QList<RequestRecord> f = startsOf(site, flaky);
        QCOMPARE(f.size(), 12);
        QString trace;
        for (const RequestRecord &r : f)
            trace += QStringLiteral("%1@%2 ").arg(r.status).arg((r.startNs - f[0].startNs) / kMs);
        for (int i = 0; i < 6; ++i)
            QVERIFY2(f[i].status == 503, qPrintable(trace));
        for (int i = 6; i < 12; ++i)
            QVERIFY2(f[i].status == 200, qPrintable(trace));
        // Tripped by the fifth failure: nothing for the cool-down, then one probe alone, which fails: 2 s.
        QVERIFY2(f[5].startNs - f[4].endNs >= 1000 * kMs, qPrintable(trace));
        QVERIFY2(f[6].startNs - f[5].endNs >= 2000 * kMs, qPrintable(trace));
        QVERIFY2(f[7].startNs >= f[6].endNs, qPrintable(trace)); // the second probe alone too
        // Before the trip nothing waited that long (the five failures came as fast as the limit allows).
        QVERIFY2(f[4].startNs - f[0].startNs < 1000 * kMs, qPrintable(trace));

        // The healthy host went on while the flaky one was open.
        const QList<RequestRecord> h = startsOf(site, healthy);
        QCOMPARE(h.size(), 50);
        const bool duringOpen = std::any_of(h.cbegin(), h.cend(), [&](const RequestRecord &r) {
            return r.startNs > f[4].endNs && r.startNs < f[5].startNs;
        });
        QVERIFY2(duringOpen, qPrintable(trace));

        // Every worker says what a local crawl says, whichever saw it.
        QVERIFY2(workerLines.contains("tripped: 5 of the last 5 attempts failed: server errors (5xx)"),
                 workerLines.constData());
        QVERIFY2(workerLines.contains("recovered"), workerLines.constData());
    }

    // --max-rate 10 over three workers and three hosts: the site never sees more than 10 starts (+1 for the
    // window's edges) in any second, and the crawl takes as long as that rate says; --cluster-set changes it.
    void maxRateHoldsAcrossThreeWorkers() {
        TestSite site;
        QStringList hosts;
        QByteArray list;
        for (const char *address : {"127.0.0.2", "127.0.0.3", "127.0.0.4"}) {
            hosts << site.addHost(QHostAddress(QString::fromLatin1(address)));
            QVERIFY(!hosts.last().isEmpty());
            list += site.urlList(hosts.last(), 10, QStringLiteral("/r%1"));
        }
        const QString csv = m_dir.filePath(QStringLiteral("rate.csv"));
        auto coordinator = startCoordinator(QStringLiteral("rate"), list, csv,
                                            {QStringLiteral("--per-host"), QStringLiteral("4"),
                                             QStringLiteral("--interval-ms"), QStringLiteral("0"),
                                             QStringLiteral("--max-rate"), QStringLiteral("10")});
        QVERIFY(coordinator);
        std::vector<std::unique_ptr<Proc>> workers;
        for (int i = 0; i < 3; ++i)
            workers.push_back(startWorker(QStringLiteral("rate")));
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        for (auto &worker : workers)
            QVERIFY2(waitFinished(*worker, 10000), worker->err.constData());
        int count = 0;
        clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 30);

        QList<qint64> starts;
        for (const RequestRecord &r : site.requests())
            starts << r.startNs;
        std::sort(starts.begin(), starts.end());
        QCOMPARE(starts.size(), 30);
        for (qsizetype i = 0; i < starts.size(); ++i) {
            const auto inWindow = std::count_if(starts.cbegin() + i, starts.cend(),
                                                [&](qint64 s) { return s < starts[i] + 1000 * kMs; });
            QVERIFY2(inWindow <= 11, qPrintable(QString::number(inWindow)));
        }
        // The cap bound: 29 gaps of 100 ms (a margin for the send latency of the grants' delivery).
        QVERIFY2(starts.last() - starts.first() >= 29 * 100 * kMs * 9 / 10,
                 qPrintable(QString::number((starts.last() - starts.first()) / kMs)));

        // --cluster-set --max-rate reaches the shared limits (every worker's next start).
        auto set = startCrawlscope({QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"),
                                    QStringLiteral("rate"), QStringLiteral("--cluster-set"),
                                    QStringLiteral("--max-rate"), QStringLiteral("40")});
        QVERIFY(waitFinished(*set, 10000));
        QVERIFY2(set->process->exitCode() == 0, set->err.constData());
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, QStringLiteral("rate"));
        QCOMPARE(budget.limits()->maxRatePerSec, 40.0);
    }
};

QTEST_GUILESS_MAIN(TestClusterBreaker)
#include "tst_clusterbreaker.moc"
