// ClusterHostBudget against a real redis-server: the per-host and global in-flight limits, the start
// interval, Retry-After pauses, the breaker and per-host overrides, each decided atomically on the server;
// grants of a dead worker expire; a limit change is seen by another connection at once; and many threads
// hammering one host never exceed its limit or its interval (measured from the grants themselves).
#include "cluster/clusterhostbudget.h"
#include "cluster/redisconnection.h"
#include "redistestserver.h"

#include <QSet>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

using namespace crawl;
using Reason = StartDecision::Reason;

namespace {
const QString kHost = QStringLiteral("shop.example:443");

QString crawlName() {
    return QString::fromLatin1(QTest::currentTestFunction());
}
} // namespace

class TestClusterHostBudget : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;

private Q_SLOTS:
    void initTestCase() { REDIS_TEST_SERVER_START(m_server); }

    void intervalThenPerHostLimit() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY2(budget.setLimits({10, 2, 100, 0, 0}), qPrintable(budget.lastError()));

        StartDecision d = budget.tryStart(kHost, "g1", 10'000, 1'000);
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QVERIFY(d.granted);
        QCOMPARE(d.atMs, 1'000);
        QCOMPARE(d.hostInFlight, 1);

        d = budget.tryStart(kHost, "g2", 10'000, 1'050);
        QVERIFY(!d.granted);
        QCOMPARE(d.reason, Reason::Interval);
        QCOMPARE(d.atMs, 1'100); // start-to-start: 100 ms after the first start

        d = budget.tryStart(kHost, "g2", 10'000, 1'100);
        QVERIFY(d.granted);
        QCOMPARE(d.hostInFlight, 2);

        d = budget.tryStart(kHost, "g3", 10'000, 1'200);
        QVERIFY(!d.granted);
        QCOMPARE(d.reason, Reason::HostBusy);
        QCOMPARE(d.atMs, 11'000); // upper bound: the oldest grant's expiry

        d = budget.tryStart(QStringLiteral("other.example:443"), "o1", 10'000, 1'200);
        QVERIFY2(d.granted, "other hosts go on");

        QVERIFY(budget.finished(kHost, "g1", 1'250));
        QVERIFY(!budget.finished(kHost, "g1", 1'250)); // a replay frees nothing twice
        d = budget.tryStart(kHost, "g3", 10'000, 1'300);
        QVERIFY(d.granted);
        QCOMPARE(budget.hostStatus(kHost, 1'300).inFlight, 2);
        QCOMPARE(budget.hostStatus(kHost, 1'300).starts, 3);
    }

    // --jitter: each host's next start is interval x (1 + U(0, jitter)) after its last, never sooner; the
    // spread differs from grant to grant (the window's and the engine's jitter alike).
    void jitterSpreadsTheGapWithinItsBound() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        ClusterLimits limits{100, 1, 100, 0, 0};
        limits.jitterPermille = 500;
        QVERIFY2(budget.setLimits(limits), qPrintable(budget.lastError()));
        QCOMPARE(budget.limits()->jitterPermille, 500);
        QSet<qint64> gaps;
        for (int i = 0; i < 30; ++i) {
            const QString host = QStringLiteral("j%1.example:80").arg(i);
            QVERIFY(budget.tryStart(host, "g" + QByteArray::number(i), 10'000, 1'000).granted);
            const qint64 gap = budget.hostStatus(host, 1'000).nextStartMs - 1'000;
            QVERIFY2(gap >= 100 && gap < 150, qPrintable(QString::number(gap)));
            gaps.insert(gap);
        }
        QVERIFY2(gaps.size() >= 5, "the gaps are spread, not one fixed value");
        limits.jitterPermille = 1001;
        QVERIFY(!budget.setLimits(limits));
    }

    void globalCapAcrossHosts() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY(budget.setLimits({2, 4, 0, 0, 0}));
        QVERIFY(budget.tryStart(QStringLiteral("a:80"), "a1", 5'000, 100).granted);
        QVERIFY(budget.tryStart(QStringLiteral("b:80"), "b1", 5'000, 100).granted);
        const StartDecision d = budget.tryStart(QStringLiteral("c:80"), "c1", 5'000, 100);
        QVERIFY(!d.granted);
        QCOMPARE(d.reason, Reason::GlobalBusy);
        QVERIFY(budget.finished(QStringLiteral("a:80"), "a1", 200));
        QVERIFY(budget.tryStart(QStringLiteral("c:80"), "c1", 5'000, 200).granted);
    }

    void replayOfAGrantTakesNoSecondSlot() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY(budget.setLimits({10, 1, 1'000, 0, 0}));
        const StartDecision first = budget.tryStart(kHost, "w1:1", 5'000, 100);
        const StartDecision replay = budget.tryStart(kHost, "w1:1", 5'000, 150);
        QVERIFY(first.granted && replay.granted);
        QCOMPARE(replay.atMs, first.atMs);
        QCOMPARE(replay.hostInFlight, 1);
        QCOMPARE(budget.hostStatus(kHost, 150).starts, 1);
    }

    void deadWorkersGrantExpiresAndRenewalKeepsIt() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY(budget.setLimits({10, 1, 0, 0, 0}));
        QVERIFY(budget.tryStart(kHost, "alive", 500, 1'000).granted);
        QCOMPARE(budget.renew(kHost, "alive", 500, 1'400), std::optional<qint64>(1'900));
        QCOMPARE(budget.tryStart(kHost, "x", 500, 1'600).reason, Reason::HostBusy); // renewed: still held
        QVERIFY(budget.finished(kHost, "alive", 1'700));

        QVERIFY(budget.tryStart(kHost, "dies", 500, 2'000).granted);
        QCOMPARE(budget.tryStart(kHost, "y", 500, 2'400).reason, Reason::HostBusy);
        // No finish and no renewal: at expiry the slot is free again for everyone.
        QVERIFY(budget.tryStart(kHost, "y", 500, 2'501).granted);
        QVERIFY(!budget.renew(kHost, "dies", 500, 2'600).has_value());
    }

    void retryAfterPausesTheHostForEveryWorker() {
        RedisConnection first(m_server.url());
        RedisConnection second(m_server.url());
        ClusterHostBudget worker1(first, crawlName());
        ClusterHostBudget worker2(second, crawlName());
        QVERIFY(worker1.setLimits({10, 4, 0, 0, 0}));
        QCOMPARE(worker1.pauseHost(kHost, 5'000, 1'000), std::optional<qint64>(5'000));
        StartDecision d = worker2.tryStart(kHost, "w2", 10'000, 1'000);
        QVERIFY(!d.granted);
        QCOMPARE(d.reason, Reason::Paused);
        QCOMPARE(d.atMs, 5'000);
        // A shorter Retry-After seen later by another worker does not shorten the pause.
        QCOMPARE(worker2.pauseHost(kHost, 3'000, 1'100), std::optional<qint64>(5'000));
        QVERIFY(worker2.tryStart(QStringLiteral("other:80"), "o", 10'000, 1'100).granted);
        QVERIFY(worker2.tryStart(kHost, "w2", 10'000, 5'000).granted);
        QCOMPARE(worker1.hostStatus(kHost, 5'000).pausedUntilMs, 5'000);
    }

    void breakerOpenThenOneProbeAtATime() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY(budget.setLimits({10, 4, 0, 0, 0}));
        QVERIFY(budget.setBreaker(kHost, QStringLiteral("open"), 3'000, 1'000));
        StartDecision d = budget.tryStart(kHost, "p1", 10'000, 2'000);
        QCOMPARE(d.reason, Reason::BreakerOpen);
        QCOMPARE(d.atMs, 3'000);
        QVERIFY(budget.tryStart(kHost, "p1", 10'000, 3'000).granted);
        // One probe across every worker: while it runs (half-open) nothing else starts on the host.
        QCOMPARE(budget.tryStart(kHost, "p2", 10'000, 3'000).reason, Reason::BreakerOpen);
        QCOMPARE(budget.hostStatus(kHost, 3'000).breaker, QStringLiteral("halfopen"));
        QVERIFY(budget.setBreaker(kHost, QStringLiteral("closed"), 0, 3'100));
        QVERIFY(budget.tryStart(kHost, "p2", 10'000, 3'100).granted);
        QVERIFY(!budget.setBreaker(kHost, QStringLiteral("ajar"), 0));
    }

    void hostOverrideReplacesTheDefaults() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        const auto v1 = budget.setLimits({10, 4, 0, 0, 0});
        QVERIFY(v1);
        const auto v2 = budget.setHostOverride(kHost, 1, 2'000);
        QVERIFY(v2);
        QCOMPARE(*v2, *v1 + 1);
        QVERIFY(budget.tryStart(kHost, "a", 60'000, 1'000).granted);
        QCOMPARE(budget.tryStart(kHost, "b", 60'000, 1'000).reason, Reason::Interval);
        QVERIFY(budget.finished(kHost, "a", 2'000));
        QCOMPARE(budget.tryStart(kHost, "b", 60'000, 2'999).reason, Reason::Interval);
        QVERIFY(budget.tryStart(kHost, "b", 60'000, 3'000).granted);
        QCOMPARE(budget.tryStart(kHost, "c", 60'000, 6'000).reason, Reason::HostBusy);
        QVERIFY(
            budget.setHostOverride(kHost, std::nullopt, std::nullopt)); // back to 4 in flight, no interval
        QVERIFY(budget.tryStart(kHost, "c", 60'000, 6'000).granted);
        QVERIFY(budget.tryStart(kHost, "d", 60'000, 6'000).granted);
        QVERIFY(!budget.setHostOverride(kHost, 0, std::nullopt));
        QVERIFY(!budget.setLimits({0, 1, 0, 0, 0}));
    }

    void limitChangeIsSeenByAnotherConnectionAtOnce() {
        RedisConnection windowConnection(m_server.url());
        RedisConnection workerConnection(m_server.url());
        ClusterHostBudget window(windowConnection, crawlName());
        ClusterHostBudget worker(workerConnection, crawlName());
        const auto before = window.setLimits({10, 3, 0, 0, 0});
        QVERIFY(before);
        StartDecision d = worker.tryStart(kHost, "w:1", 60'000);
        QVERIFY(d.granted);
        QCOMPARE(d.limitsVersion, *before);

        const auto after = window.setLimits({10, 1, 0, 0, 0}); // the slider moved in the window
        QVERIFY(after);
        QCOMPARE(*after, *before + 1);
        QCOMPARE(worker.limitsVersion(), after);
        const auto seen = worker.limits();
        QVERIFY(seen);
        QCOMPARE(seen->perHostInFlight, 1);
        d = worker.tryStart(kHost, "w:2", 60'000);
        QVERIFY2(!d.granted, "the lowered per-host limit applies to the very next start");
        QCOMPARE(d.reason, Reason::HostBusy);
        QCOMPARE(d.limitsVersion, *after);
    }

    // N threads, each with its own connection, compete for one host with limit L and interval I on the
    // server's clock. From the grants: the in-flight count never exceeds L (as the server counted it and as
    // the threads hold them), and consecutive grants are never closer than I.
    void hammeringOneHostNeverExceedsItsLimits() {
        constexpr int kThreads = 6;
        constexpr int kLimit = 3;
        constexpr qint64 kIntervalMs = 15;
        constexpr auto kRunFor = std::chrono::milliseconds(2500);
        const QString crawl = crawlName();
        {
            RedisConnection setup(m_server.url());
            QVERIFY(ClusterHostBudget(setup, crawl).setLimits({100, kLimit, kIntervalMs, 0, 0}));
        }
        std::mutex mutex;
        QList<qint64> grantTimes;
        int serverPeak = 0;
        std::atomic<int> holding{0};
        std::atomic<int> heldPeak{0};
        std::atomic<int> errors{0};
        const auto deadline = std::chrono::steady_clock::now() + kRunFor;
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                RedisConnection connection(m_server.url());
                ClusterHostBudget budget(connection, crawl);
                std::mt19937 random(static_cast<unsigned>(t));
                std::uniform_int_distribution<int> holdMs(20, 70);
                for (int n = 0; std::chrono::steady_clock::now() < deadline; ++n) {
                    const QByteArray grant = "t" + QByteArray::number(t) + ":" + QByteArray::number(n);
                    const StartDecision d = budget.tryStart(kHost, grant, 10'000);
                    if (!d.error.isEmpty()) {
                        ++errors;
                        return;
                    }
                    if (!d.granted) {
                        // What a worker does: wait until the time it was given (a busy host: a short poll).
                        const qint64 waitMs = std::clamp<qint64>(d.atMs - d.serverNowMs, 1, 5);
                        std::this_thread::sleep_for(std::chrono::milliseconds(waitMs));
                        continue;
                    }
                    const int now = ++holding;
                    int peak = heldPeak.load();
                    while (now > peak && !heldPeak.compare_exchange_weak(peak, now)) {
                    }
                    {
                        const std::lock_guard lock(mutex);
                        grantTimes.append(d.atMs);
                        serverPeak = std::max(serverPeak, d.hostInFlight);
                    }
                    // The "request": held for a while, as a fetch would be.
                    std::this_thread::sleep_for(std::chrono::milliseconds(holdMs(random)));
                    --holding;
                    if (!budget.finished(kHost, grant))
                        ++errors;
                }
            });
        }
        for (auto &thread : threads)
            thread.join();

        QCOMPARE(errors.load(), 0);
        std::sort(grantTimes.begin(), grantTimes.end());
        qint64 smallestGap = std::numeric_limits<qint64>::max();
        for (qsizetype i = 1; i < grantTimes.size(); ++i)
            smallestGap = std::min(smallestGap, grantTimes[i] - grantTimes[i - 1]);
        qInfo("%lld grants from %d threads; server-counted peak %d, held peak %d (limit %d); smallest gap "
              "%lld ms "
              "(interval %lld)",
              static_cast<long long>(grantTimes.size()), kThreads, serverPeak, heldPeak.load(), kLimit,
              static_cast<long long>(smallestGap), static_cast<long long>(kIntervalMs));
        QVERIFY2(grantTimes.size() >= 20, "the threads must actually get grants");
        QVERIFY(serverPeak <= kLimit);
        QVERIFY(heldPeak.load() <= kLimit);
        QVERIFY2(heldPeak.load() >= 2, "the test must produce contention to mean anything");
        QVERIFY(smallestGap >= kIntervalMs);
    }
};

QTEST_GUILESS_MAIN(TestClusterHostBudget)
#include "tst_clusterhostbudget.moc"
