// The shared circuit breaker's give-up (issue 15): a host tripped for --breaker-give-up without recovering
// is given up for every worker, and each of its remaining URLs ends with one `skipped` row, as in a local
// crawl. First the scripts against a real redis-server (several connections standing in for several workers,
// explicit times), then the real crawlscope binary (a coordinator and three workers) against the loopback
// test site, asserting what the *site* saw and what the CSV holds.
#include "../core/clitestsupport.h"
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterqueue.h"
#include "cluster/clusterwatchsnapshot.h"
#include "cluster/redisconnection.h"
#include "crawlscopeprocess.h"
#include "input/urlnormalizer.h"
#include "model/cancelreason.h"
#include "model/crawlsnapshot.h"
#include "policy/hostbreaker.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace crawl;
using Reason = StartDecision::Reason;
using Transition = BreakerRecord::Transition;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {

constexpr qint64 kMs = 1'000'000;
constexpr qint64 kTtl = 60'000;
constexpr int kHealthy = int(AttemptHealth::Healthy);
constexpr int kServerError = int(AttemptHealth::ServerError);
const QString kProbeFailed =
    QStringLiteral("5 of the last 5 attempts failed: server errors (5xx); the probe failed too");

QString crawlName() {
    return QString::fromLatin1(QTest::currentTestFunction());
}

ClusterUrl urlOn(const QString &host, int n) {
    const QString text = QStringLiteral("http://%1/page/%2").arg(host).arg(n);
    const NormalizedUrl normalized = normalizeUrl(text);
    return {text, normalized.text, normalized.hostKey, n};
}

// Window 5, all of it failed trips; 1 s cool-down (doubling, at most 4 s); given up 3 s after the first trip.
ClusterLimits giveUpLimits(int giveUpMs = 3000) {
    ClusterLimits limits{10, 4, 0, 0, 0};
    limits.breaker.window = 5;
    limits.breaker.threshold = 1.0;
    limits.breaker.cooldownS = 1;
    limits.breaker.cooldownCapFactor = 4;
    limits.breaker.giveUpMs = giveUpMs;
    return limits;
}

// Five failures at `at` trip `host` (grants no lease holds: the window only counts them).
bool tripAt(ClusterHostBudget &budget, const QString &host, qint64 at) {
    for (int i = 0; i < 5; ++i) {
        const BreakerRecord r = budget.recordAttempt(
            host, "fail-" + QByteArray::number(at) + '-' + QByteArray::number(i), kServerError, at);
        if (!r.error.isEmpty() || r.transition != (i == 4 ? Transition::Tripped : Transition::None))
            return false;
    }
    return true;
}

const QList<QPair<QByteArray, QByteArray>> kSkippedRow{{"outcome", "skipped"}};

using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;
using Proc = CrawlscopeProcess;

} // namespace

class TestClusterGiveUp : public QObject {
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

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    // The give-up clock runs from the first trip, through a failed probe: once it has run out the next lease
    // gives the host up for everyone. Its queued URLs and those waiting for a retry are then leased as skips
    // (no slot, no attempt), each acknowledged once; the other host goes on; a new connection (a resumed
    // coordinator or worker) finds the decision kept.
    void giveUpEndsQueuedAndWaitingUrls() {
        RedisConnection c1(m_server.url()), c2(m_server.url());
        ClusterQueue q1(c1, crawlName()), q2(c2, crawlName());
        ClusterHostBudget b1(c1, crawlName()), b2(c2, crawlName());
        QVERIFY(q1.createCrawl({}));
        QVERIFY2(b1.setLimits(giveUpLimits()), qPrintable(b1.lastError()));
        QCOMPARE(b2.limits()->breaker.giveUpS, 3); // whole seconds read back as seconds
        const QString down = QStringLiteral("down.test:80");
        const QString up = QStringLiteral("up.test:80");

        QCOMPARE(q1.enqueue({urlOn(QStringLiteral("down.test"), 1), urlOn(QStringLiteral("down.test"), 2),
                             urlOn(QStringLiteral("down.test"), 3), urlOn(QStringLiteral("down.test"), 4)},
                            "b1", 1'000)
                     .added,
                 4);
        // page/1 fails and waits a minute for its retry.
        const LeaseResult first = q1.lease("w1", "L1", kTtl, 1'000);
        QVERIFY(first.lease);
        QCOMPARE(first.lease->host, down);
        QVERIFY(!first.lease->givenUp);
        QVERIFY(q1.retryLater("w1", "L1", 61'000, 1'000).renewed);
        QCOMPARE(q2.enqueue({urlOn(QStringLiteral("up.test"), 5)}, "b2", 1'000).added, 1);
        QVERIFY(tripAt(b1, down, 1'000));

        // Open: only the other host starts.
        const LeaseResult other = q2.lease("w2", "L2", kTtl, 1'500);
        QVERIFY(other.lease);
        QCOMPARE(other.lease->host, up);
        // The probe (page/2) fails before the give-up time: tripped again, probe at 2,100 + 2 s.
        const LeaseResult probe = q1.lease("w1", "L3", kTtl, 2'000);
        QVERIFY(probe.lease);
        QCOMPARE(probe.lease->host, down);
        QVERIFY(!probe.lease->givenUp);
        const BreakerRecord again = b1.recordAttempt(down, "L3", kServerError, 2'100);
        QCOMPARE(again.transition, Transition::Tripped);
        QCOMPARE(again.probeAtMs, 4'100);
        QVERIFY(q1.retryLater("w1", "L3", 62'000, 2'100).renewed);
        // Nothing to lease; ask again when the give-up falls (4,000), before the probe would (4,100).
        const LeaseResult none = q2.lease("w2", "L4", kTtl, 3'000);
        QVERIFY(!none.lease);
        QCOMPARE(none.askAgainAtMs, 4'000);
        QCOMPARE(b2.tryStart(down, "hop", kTtl, 3'999).reason, Reason::BreakerOpen);

        // 4,000: given up. Every URL of the host, queued or waiting for a retry, is leased as a skip.
        QSet<QString> skipped;
        for (int i = 0; i < 4; ++i) {
            const QByteArray id = "S" + QByteArray::number(i);
            const LeaseResult skip = (i % 2 ? q1 : q2).lease(i % 2 ? "w1" : "w2", id, kTtl, 4'000);
            QVERIFY(skip.lease);
            QCOMPARE(skip.lease->host, down);
            QVERIFY(skip.lease->givenUp);
            QCOMPARE(skip.lease->givenUpReason, kProbeFailed);
            // Its attempt is not counted: the rows say how many requests were really made.
            const bool triedBefore = skip.lease->url.endsWith(QLatin1String("/1")) ||
                                     skip.lease->url.endsWith(QLatin1String("/2"));
            QCOMPARE(skip.lease->attempts, triedBefore ? 1 : 0);
            skipped.insert(skip.lease->url);
            if (i == 0) { // a worker going away gives it back: still not counted, skipped again later
                QVERIFY(q2.giveBack("w2", id, 4'000).renewed);
                const LeaseResult again2 = q2.lease("w2", "S0b", kTtl, 4'000);
                QVERIFY(again2.lease && again2.lease->givenUp);
                QCOMPARE(again2.lease->attempts, skip.lease->attempts);
                QVERIFY(q2.acknowledge("w2", "S0b", kSkippedRow, 4'000).accepted);
                continue;
            }
            QVERIFY(skip.lease->givenUp);
            QVERIFY((i % 2 ? q1 : q2).acknowledge(i % 2 ? "w1" : "w2", id, kSkippedRow, 4'000).accepted);
        }
        QCOMPARE(skipped.size(), 4);
        QVERIFY(!q1.lease("w1", "L5", kTtl, 4'000).lease);
        QCOMPARE(b1.tryStart(down, "hop2", kTtl, 4'000).reason, Reason::GivenUp);
        QVERIFY(q2.acknowledge("w2", "L2", kSkippedRow, 4'000).accepted);
        const ClusterCounts counts = q1.counts();
        QCOMPARE(counts.done, 5);
        QCOMPARE(counts.delayed, 0);
        QCOMPARE(counts.queued, 0);
        QCOMPARE(counts.leased, 0);
        // The results stream holds one entry per URL.
        QCOMPARE(q1.readResults({}, 100).size(), 5);

        // A resumed coordinator or a new worker (a new connection) sees the host given up, and a URL of that
        // host added now is skipped too. Attempts that arrive late say nothing more.
        RedisConnection c3(m_server.url());
        ClusterQueue q3(c3, crawlName());
        ClusterHostBudget b3(c3, crawlName());
        const HostBudgetStatus status = b3.hostStatus(down, 5'000);
        QCOMPARE(status.breaker, QStringLiteral("gaveup"));
        QCOMPARE(status.breakerReason, kProbeFailed);
        QCOMPARE(b3.recordAttempt(down, "late", kHealthy, 5'000).transition, Transition::None);
        QCOMPARE(q3.enqueue({urlOn(QStringLiteral("down.test"), 9)}, "b3", 5'000).added, 1);
        const LeaseResult late = q3.lease("w3", "L6", kTtl, 5'000);
        QVERIFY(late.lease && late.lease->givenUp);

        // The attached window's Hosts table: given up, with the reason (as a local crawl's host shows).
        ClusterWatchSnapshot watched;
        watched.serverNowMs = 5'000;
        watched.hosts.append({down, status});
        const CrawlSnapshot shown = toCrawlSnapshot(watched, 40);
        QCOMPARE(shown.hosts.size(), 1);
        QCOMPARE(shown.hosts[0].breakerState, BreakerState::GaveUp);
        QCOMPARE(shown.hosts[0].breakerReason, kProbeFailed);
    }

    // A probe that fails past the give-up time gives the host up at once (HostBreaker::record): the probe's
    // own URL, sent back for a retry, is not held for its retry delay but skipped with the rest.
    void probeFailingPastTheGiveUpTimeEndsTheHost() {
        RedisConnection c1(m_server.url()), c2(m_server.url());
        ClusterQueue q1(c1, crawlName()), q2(c2, crawlName());
        ClusterHostBudget b1(c1, crawlName()), b2(c2, crawlName());
        QVERIFY(q1.createCrawl({}));
        QVERIFY(b1.setLimits(giveUpLimits(1500)));
        const QString down = QStringLiteral("down.test:80");
        QCOMPARE(q1.enqueue({urlOn(QStringLiteral("down.test"), 1), urlOn(QStringLiteral("down.test"), 2)},
                            "b1", 1'000)
                     .added,
                 2);
        QVERIFY(tripAt(b1, down, 1'000));
        const LeaseResult probe = q1.lease("w1", "P", kTtl, 2'000);
        QVERIFY(probe.lease && !probe.lease->givenUp);
        // While the probe is in flight past the give-up time, nothing is decided: it finishes normally.
        QVERIFY(!q2.lease("w2", "X", kTtl, 2'600).lease);
        QCOMPARE(b2.hostStatus(down, 2'600).breaker, QStringLiteral("halfopen"));
        const BreakerRecord verdict = b1.recordAttempt(down, "P", kServerError, 2'700);
        QCOMPARE(verdict.transition, Transition::GaveUp);
        QCOMPARE(verdict.state, QStringLiteral("gaveup"));
        QCOMPARE(HostBreaker::tripReason(verdict.failures, verdict.count,
                                         static_cast<AttemptHealth>(verdict.dominantHealth)) +
                     QStringLiteral("; the probe failed too"),
                 kProbeFailed);
        QVERIFY(q1.retryLater("w1", "P", 60'000, 2'700).renewed);
        QCOMPARE(q1.counts().delayed, 0);
        int skips = 0;
        for (const QByteArray id : {"S1", "S2"}) {
            const LeaseResult skip = q2.lease("w2", id, kTtl, 2'700);
            QVERIFY(skip.lease && skip.lease->givenUp);
            QCOMPARE(skip.lease->givenUpReason, kProbeFailed);
            QVERIFY(q2.acknowledge("w2", id, kSkippedRow, 2'700).accepted);
            ++skips;
        }
        QCOMPARE(skips, 2);
        QCOMPARE(q1.counts().done, 2);
    }

    // A tripped host with nothing queued, its last URL waiting a minute for a retry: it is still given up
    // on time, and that URL ends then, not when its retry comes due.
    void retriesAloneEndAtTheGiveUp() {
        RedisConnection c1(m_server.url());
        ClusterQueue q1(c1, crawlName());
        ClusterHostBudget b1(c1, crawlName());
        QVERIFY(q1.createCrawl({}));
        QVERIFY(b1.setLimits(giveUpLimits()));
        const QString down = QStringLiteral("down.test:80");
        QCOMPARE(q1.enqueue({urlOn(QStringLiteral("down.test"), 1), urlOn(QStringLiteral("down.test"), 2)},
                            "b1", 1'000)
                     .added,
                 2);
        QVERIFY(q1.lease("w1", "L1", kTtl, 1'000).lease);
        QVERIFY(q1.lease("w1", "L2", kTtl, 1'000).lease);
        QVERIFY(q1.retryLater("w1", "L1", 61'000, 1'000).renewed);
        QVERIFY(tripAt(b1, down, 1'000));
        QVERIFY(q1.acknowledge("w1", "L2", {{"outcome", "server_error"}}, 1'000).accepted);
        const LeaseResult before = q1.lease("w1", "L3", kTtl, 3'000);
        QVERIFY(!before.lease);
        QCOMPARE(before.askAgainAtMs, 4'000); // the give-up, not the retry (61,000)
        const LeaseResult givingUp = q1.lease("w1", "L4", kTtl, 4'000);
        QVERIFY(!givingUp.lease);
        QCOMPARE(givingUp.askAgainAtMs, 4'000); // at once: the waiting URL is queued now
        QCOMPARE(b1.hostStatus(down, 4'000).breaker, QStringLiteral("gaveup"));
        const LeaseResult skip = q1.lease("w1", "L5", kTtl, 4'000);
        QVERIFY(skip.lease && skip.lease->givenUp);
        QCOMPARE(skip.lease->attempts, 1);
        QVERIFY(q1.acknowledge("w1", "L5", kSkippedRow, 4'000).accepted);
        QCOMPARE(q1.counts().done, 2);
        QCOMPARE(q1.counts().delayed, 0);
    }

    // The clock restarts after a recovery (a later trip is judged from its own start); a longer give-up set
    // while tripped applies at once; the breaker switched off gives nothing up.
    void recoveryRestartsTheClockAndSettingsApply() {
        RedisConnection c1(m_server.url());
        ClusterHostBudget b1(c1, crawlName());
        QVERIFY(b1.setLimits(giveUpLimits()));
        const QString host = QStringLiteral("flaky.test:80");
        QVERIFY(tripAt(b1, host, 1'000));
        QVERIFY(b1.tryStart(host, "p1", kTtl, 2'000).granted);
        QCOMPARE(b1.recordAttempt(host, "p1", kHealthy, 2'100).transition, Transition::Recovered);
        QVERIFY(b1.finished(host, "p1", 2'100));
        // Tripped again at 5,000 (a whole window after the recovery: the base cool-down). Judged from 1,000
        // the host would be given up by now; from its own trip, not before 8,000.
        QVERIFY(tripAt(b1, host, 5'000));
        QVERIFY(b1.tryStart(host, "p2", kTtl, 7'000).granted); // the probe, not a give-up
        QCOMPARE(b1.recordAttempt(host, "p2", kServerError, 7'100).transition, Transition::Tripped);
        QVERIFY(b1.finished(host, "p2", 7'100));
        // --cluster-set --breaker-give-up: 10 s from the first trip (5,000) now, so past 8,000 it still
        // probes.
        QVERIFY(b1.setLimits(giveUpLimits(10'000)));
        const StartDecision open = b1.tryStart(host, "x", kTtl, 9'000);
        QCOMPARE(open.reason, Reason::BreakerOpen);
        QCOMPARE(open.atMs, 9'100); // 7,100 + 2 s: the probe comes before the give-up
        QVERIFY(b1.tryStart(host, "p3", kTtl, 9'100).granted);
        QCOMPARE(b1.recordAttempt(host, "p3", kServerError, 9'200).transition, Transition::Tripped);
        QVERIFY(b1.finished(host, "p3", 9'200));
        // Probe due at 13,200, give-up at 15,000: at 14,000 the host may probe, not given up yet.
        QCOMPARE(b1.hostStatus(host, 14'000).breaker, QStringLiteral("open"));
        // Off: the host is never given up, whatever the clock says.
        ClusterLimits off = giveUpLimits(10'000);
        off.breaker.enabled = false;
        QVERIFY(b1.setLimits(off));
        QVERIFY(b1.tryStart(host, "y", kTtl, 20'000).granted);
        QVERIFY(b1.finished(host, "y", 20'000));
        QVERIFY(b1.setLimits(giveUpLimits(10'000)));
        QCOMPARE(b1.tryStart(host, "z", kTtl, 20'000).reason, Reason::GivenUp);
        // Seconds read back as the flag gives them.
        ClusterLimits seconds = giveUpLimits(0);
        seconds.breaker.giveUpS = 90;
        QVERIFY(b1.setLimits(seconds));
        QCOMPARE(b1.limits()->breaker.giveUpS, 90);
    }

    // The real binary: a host that always answers 503, another healthy, three workers. The site sees three
    // failures (the trip), one probe a cool-down later, then nothing more on that host: the give-up (2 s)
    // falls before the next probe (3 s). Every line has one row: the failing host's URLs `skipped` with the
    // local crawl's reason, including those waiting out a 15-30 s retry delay (the crawl ends long before),
    // and the healthy host's all fetched.
    void giveUpEndsAHostForEveryWorker() {
        TestSite site;
        const QString down = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString healthy = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(!down.isEmpty() && !healthy.isEmpty());
        const QString downPattern = QStringLiteral("/d%1?status=503");
        const QString healthyPattern = QStringLiteral("/h%1?ms=50");
        const QByteArray list =
            site.urlList(down, 8, downPattern) + site.urlList(healthy, 30, healthyPattern);
        const QString input = m_dir.filePath(QStringLiteral("giveup.txt"));
        const QString csv = m_dir.filePath(QStringLiteral("giveup.csv"));
        QVERIFY(clitest::writeFile(input, list));
        QElapsedTimer clock;
        clock.start();
        auto coordinator = startCrawlscope({QStringLiteral("--headless"),
                                            QStringLiteral("--input"),
                                            input,
                                            QStringLiteral("--cluster"),
                                            clusterUrl(),
                                            QStringLiteral("--crawl"),
                                            QStringLiteral("giveup"),
                                            QStringLiteral("--output"),
                                            csv,
                                            QStringLiteral("--quiet"),
                                            QStringLiteral("--robots"),
                                            QStringLiteral("ignore"),
                                            QStringLiteral("--per-host"),
                                            QStringLiteral("2"),
                                            QStringLiteral("--interval-ms"),
                                            QStringLiteral("0"),
                                            QStringLiteral("--host-limit"),
                                            down + QStringLiteral("=1"),
                                            QStringLiteral("--retries"),
                                            QStringLiteral("1"),
                                            QStringLiteral("--backoff-ms"),
                                            QStringLiteral("30000"),
                                            QStringLiteral("--breaker-window"),
                                            QStringLiteral("3"),
                                            QStringLiteral("--breaker-threshold"),
                                            QStringLiteral("1"),
                                            QStringLiteral("--breaker-cooldown"),
                                            QStringLiteral("1"),
                                            QStringLiteral("--breaker-give-up"),
                                            QStringLiteral("2")});
        std::vector<std::unique_ptr<Proc>> workers;
        for (int i = 0; i < 3; ++i)
            workers.push_back(startWorker(QStringLiteral("giveup")));
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        const qint64 tookMs = clock.elapsed();
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QByteArray workerLines;
        for (auto &worker : workers) {
            QVERIFY2(waitFinished(*worker, 10000), worker->err.constData());
            QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());
            workerLines += worker->err;
        }

        const QList<RequestRecord> d = [&] {
            QList<RequestRecord> records = site.requests(down);
            std::sort(records.begin(), records.end(),
                      [](const RequestRecord &a, const RequestRecord &b) { return a.startNs < b.startNs; });
            return records;
        }();
        QString trace;
        for (const RequestRecord &r : d)
            trace += QStringLiteral("%1@%2 ").arg(r.status).arg((r.startNs - d[0].startNs) / kMs);
        // The trip (3), the probe: nothing more.
        QVERIFY2(d.size() == 4, qPrintable(trace + QString::fromUtf8(workerLines)));
        QVERIFY2(d[3].startNs - d[2].endNs >= 1000 * kMs, qPrintable(trace));
        QVERIFY2(d[2].startNs - d[0].startNs < 1000 * kMs, qPrintable(trace));

        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 38);
        const QString reason =
            breakerGaveUpText(down, QStringLiteral("3 of the last 3 attempts failed: server errors (5xx); "
                                                   "the probe failed too"));
        int triedOnce = 0;
        for (const QString &url : site.urls(down, 8, downPattern)) {
            const QStringList row = rows.value(url);
            QCOMPARE(row.value(clitest::OutcomeCol), QStringLiteral("skipped"));
            QCOMPARE(row.value(clitest::Error), reason);
            triedOnce += row.value(clitest::Attempts) == QLatin1String("1") ? 1 : 0;
        }
        QCOMPARE(triedOnce, 4); // the four requests the site saw; the other four never sent
        for (const QString &url : site.urls(healthy, 30, healthyPattern))
            QCOMPARE(rows.value(url).value(clitest::OutcomeCol), QStringLiteral("ok"));
        QCOMPARE(site.requests(healthy).size(), 30);
        // The URLs waiting out their retry delay (at least 15 s) ended at the give-up, not after it.
        QVERIFY2(tookMs < 14'000, qPrintable(QString::number(tookMs)));
        QVERIFY2(workerLines.contains("given up: 3 of the last 3 attempts failed: server errors (5xx); the "
                                      "probe failed too; its remaining URLs are skipped"),
                 workerLines.constData());
    }
};

QTEST_GUILESS_MAIN(TestClusterGiveUp)
#include "tst_clustergiveup.moc"
