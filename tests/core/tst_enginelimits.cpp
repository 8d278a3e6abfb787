// Issue 9 item 20, as the loopback server saw it: Retry-After from a redirect target, rate-cap changes
// mid-crawl, the rate slot taken only with a global slot, IDN host overrides, the snapshot's in-flight
// total, and teardown while shards route work to each other.
#include "crawlfixture.h"
#include "loopbacksite.h"
#include "scriptedserver.h"
#include "testsite.h"

#include <QNetworkProxy>
#include <QScopeGuard>
#include <QTest>
#include <QUrl>

#include <memory>

using namespace crawl;
using namespace crawl::testing;
using testsite::RequestRecord;

class TestEngineLimits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The retry starts again at the input host, so it must wait out what the redirect target asked for,
    // not go at once and burn an attempt on a host that is still paused.
    void retryAfterAtRedirectTargetDelaysTheRetry() {
        MAKE_SITE(site, 2);
        const QString target = site->url(1, QStringLiteral("/busy?fail=1&failstatus=503&ra=1"));
        const QString input =
            site->url(0, QStringLiteral("/hop?to=") + QString::fromLatin1(QUrl::toPercentEncoding(target)));
        Crawl crawl(limitsOf(16, 2, 0), quickPolicy(1, 20));
        START(crawl, QStringList{input});
        QVERIFY(crawl.waitFinished(10'000));

        const CrawlResult r = crawl.result(input);
        QCOMPARE(r.outcome, Outcome::Ok);
        QCOMPARE(r.attempts, 2);
        const QList<RequestRecord> atInput = site->requests(0);
        const QList<RequestRecord> atTarget = site->requests(1);
        QCOMPARE(atInput.size(), 2);
        QCOMPARE(atTarget.size(), 2);
        QCOMPARE(atTarget[0].status, 503);
        const double waitedMs = nsToMs(atInput[1].startNs - atTarget[0].endNs);
        QVERIFY2(
            waitedMs >= 950,
            qPrintable(
                QStringLiteral("the retry at the input host came %1 ms after Retry-After: 1").arg(waitedMs)));
    }

    // Raising or clearing --max-rate applies to the next start, not after the old spacing.
    void changingMaxRateAppliesAtOnce_data() {
        QTest::addColumn<double>("newRate");
        QTest::newRow("cleared") << 0.0;
        QTest::newRow("raised to 20/s") << 20.0;
    }
    void changingMaxRateAppliesAtOnce() {
        QFETCH(double, newRate);
        MAKE_SITE(site, 1);
        const QStringList lines = site->urls(0, 4, QStringLiteral("/r%1"));
        CrawlLimits limits = limitsOf(16, 8, 0);
        limits.maxRatePerSec = 0.25; // 4 s apart
        Crawl crawl(limits, quickPolicy());
        START(crawl, lines);
        QVERIFY(QTest::qWaitFor([&] { return !site->requests(0).isEmpty(); }, 5000));
        limits.maxRatePerSec = newRate;
        crawl.engine.setLimits(limits);
        QVERIFY(crawl.waitFinished(10'000));

        const QList<RequestRecord> seen = site->requests(0);
        QCOMPARE(seen.size(), 4);
        const double spanMs = nsToMs(seen.last().startNs - seen.first().startNs);
        QVERIFY2(spanMs < 1500,
                 qPrintable(QStringLiteral("after the rate changed to %1/s, 4 starts took %2 ms (old spacing "
                                           "4 s)")
                                .arg(newRate)
                                .arg(spanMs)));
    }

    // With the global in-flight binding (1 slot, 150 ms responses) and a 10/s cap, a start may follow each
    // response at once; a rate slot reserved while no global slot was free would push every start late.
    void rateCapNotWastedWhileGlobalSlotBinds() {
        MAKE_SITE(site, 1);
        const int urls = 8;
        const QStringList lines = site->urls(0, urls, QStringLiteral("/w%1?ms=150"));
        CrawlLimits limits = limitsOf(1, 4, 0);
        limits.maxRatePerSec = 10;
        Crawl crawl(limits, quickPolicy());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(15'000));
        QCOMPARE(crawl.count(Outcome::Ok), urls);

        const QList<RequestRecord> seen = site->requests(0);
        QCOMPARE(seen.size(), urls);
        const double meanGapMs = nsToMs(seen.last().startNs - seen.first().startNs) / double(urls - 1);
        QVERIFY2(
            meanGapMs < 185,
            qPrintable(QStringLiteral("mean start gap %1 ms; responses take 150 ms, the cap allows 100 ms")
                           .arg(meanGapMs)));
    }

    // The snapshot's in-flight is one consistent number, never above the global limit.
    void snapshotInFlightNeverAboveGlobalLimit() {
        MAKE_SITE(site, 6);
        QStringList lines;
        for (int i = 0; i < 600; ++i)
            lines << site->url(i % 6, QStringLiteral("/q%1?ms=0-3").arg(i));
        Crawl crawl;
        crawl.engine.setFetchThreads(3);
        crawl.engine.setSnapshotIntervalMs(20);
        crawl.engine.setLimits(limitsOf(4, 4, 0));
        crawl.engine.setFetchPolicy(quickPolicy());
        qint64 highest = 0;
        int snapshots = 0;
        QObject::connect(&crawl.engine, &CrawlEngine::snapshotReady, &crawl.engine,
                         [&](const CrawlSnapshot &s) {
                             highest = std::max(highest, s.inFlight);
                             ++snapshots;
                         });
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(30'000));
        QVERIFY(snapshots > 3);
        QVERIFY2(highest <= 4, qPrintable(QStringLiteral("a snapshot showed %1 in flight with a global "
                                                         "limit of 4")
                                              .arg(highest)));
    }

    // --host-limit for an IDN name must bind the host the engine keys by its "xn--" form. The name is
    // never resolved: every request goes to the loopback site acting as an HTTP proxy.
    void hostLimitMatchesIdnHost() {
        ScriptedServer proxy([](const ScriptedRequest &) {
            ScriptedResponse response = okResponse();
            response.delayMs = 200;
            return response;
        });
        QVERIFY(proxy.listening());
        QNetworkProxy::setApplicationProxy(
            QNetworkProxy(QNetworkProxy::HttpProxy, proxy.address().toString(), proxy.port()));
        const auto restore = qScopeGuard([] { QNetworkProxy::setApplicationProxy(QNetworkProxy::NoProxy); });

        QStringList lines;
        for (int i = 0; i < 4; ++i)
            lines << QStringLiteral("http://bücher.test/slow%1").arg(i);
        CrawlLimits limits = limitsOf(16, 4, 0);
        limits.hostOverrides.insert(QStringLiteral("bücher.test:80"), HostOverride{1, 0});
        Crawl crawl(limits, quickPolicy());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(15'000));
        QVERIFY2(crawl.count(Outcome::Ok) == 4, qPrintable(crawl.results.first().error));
        QCOMPARE(proxy.requests.size(), 4);
        QVERIFY2(proxy.requests[0].target.contains("xn--bcher-kva.test"),
                 proxy.requests[0].target.constData());
        QCOMPARE(proxy.peakInFlight, 1);
    }

    // Destroying the engine while shards redirect work to each other: every shard is quiet before any
    // is deleted. (A use-after-free here crashes the test, or ASan reports it.)
    void teardownWhileShardsRouteHops() {
        MAKE_SITE(site, 6);
        for (int round = 0; round < 8; ++round) {
            QStringList lines;
            for (int i = 0; i < 300; ++i) {
                const QString next = site->url((i + 1) % 6, QStringLiteral("/t%1?ms=0-2").arg(i));
                lines << site->url(i % 6, QStringLiteral("/h%1?to=").arg(i) +
                                              QString::fromLatin1(QUrl::toPercentEncoding(next)));
            }
            auto crawl = std::make_unique<Crawl>();
            crawl->engine.setFetchThreads(4);
            crawl->engine.setLimits(limitsOf(32, 4, 0));
            crawl->engine.setFetchPolicy(quickPolicy());
            START(*crawl, lines);
            QVERIFY(QTest::qWaitFor([&] { return crawl->results.size() >= 20 + round * 10; }, 10'000));
            crawl.reset();
        }
    }
};

QTEST_GUILESS_MAIN(TestEngineLimits)
#include "tst_enginelimits.moc"
