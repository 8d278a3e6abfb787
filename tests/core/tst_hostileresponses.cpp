// Responses that used to end with a false outcome (issue 9 items 13-16): compression bombs, a bad
// chunk size, oversized heads on a kept-alive connection, and Qt's hidden re-sends. Asserted on the
// result rows and on what the loopback site recorded.
#include "crawlfixture.h"
#include "loopbacksite.h"
#include "testsite.h"

#include <QTest>

using namespace crawl;
using namespace crawl::testing;
using testsite::RequestRecord;

namespace {

// The quick policy with the byte cap on a body (decoded) set to `maxBytes`.
void capBodyBytes(Crawl &crawl, qint64 maxBytes) {
    FetchPolicy policy = quickPolicy();
    policy.maxBodyBytes = maxBytes;
    crawl.engine.setFetchPolicy(policy);
}

} // namespace

class TestHostileResponses : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The byte cap applies to the decoded body: a small gzip/deflate body that inflates past it ends
    // too_large, whatever Qt's own bomb check would have done.
    void compressionBombIsTooLarge_data() {
        QTest::addColumn<QString>("profile");
        QTest::newRow("gzip 20 MiB") << QStringLiteral("gzip=20M");
        QTest::newRow("gzip 200 MiB") << QStringLiteral("gzip=200M");
        QTest::newRow("gzip 1 GiB") << QStringLiteral("gzip=1G");
        QTest::newRow("deflate 200 MiB") << QStringLiteral("deflate=200M");
    }
    void compressionBombIsTooLarge() {
        QFETCH(QString, profile);
        MAKE_SITE(site, 1);
        const QString url = site->url(0, QStringLiteral("/bomb?") + profile);
        Crawl crawl;
        capBodyBytes(crawl, 10 * 1024 * 1024);
        START(crawl, QStringList{url});
        QVERIFY(crawl.waitFinished(30'000));
        const CrawlResult r = crawl.result(url);
        QVERIFY2(r.outcome == Outcome::TooLarge, qPrintable(QStringLiteral("%1 -> %2, %3 bytes: %4")
                                                                .arg(profile, outcomeName(r.outcome))
                                                                .arg(r.bytes)
                                                                .arg(r.error)));
        QVERIFY2(r.error.contains(QStringLiteral("decoded")), qPrintable(r.error));
        QCOMPARE(site->requests(0).size(), 1);
    }

    // Under the cap, `bytes` is the decoded size.
    void compressedBodyUnderTheCapReportsDecodedBytes() {
        MAKE_SITE(site, 1);
        const QString url = site->url(0, QStringLiteral("/z?gzip=20M"));
        Crawl crawl;
        capBodyBytes(crawl, 64 * 1024 * 1024);
        START(crawl, QStringList{url});
        QVERIFY(crawl.waitFinished(30'000));
        const CrawlResult r = crawl.result(url);
        QCOMPARE(r.outcome, Outcome::Ok);
        QCOMPARE(r.bytes, qint64(20) * 1024 * 1024);
    }

    void badChunkSizeIsNetworkError() {
        MAKE_SITE(site, 1);
        const QString url = site->url(0, QStringLiteral("/c?chunked=bad&size=5000"));
        Crawl crawl;
        crawl.engine.setFetchPolicy(quickPolicy());
        START(crawl, QStringList{url});
        QVERIFY(crawl.waitFinished(10'000));
        const CrawlResult r = crawl.result(url);
        QVERIFY2(
            r.outcome == Outcome::NetworkError,
            qPrintable(
                QStringLiteral("%1, %2 bytes: %3").arg(outcomeName(r.outcome)).arg(r.bytes).arg(r.error)));
    }

    // A huge head after a normal response on the same kept-alive connection: ok, or a clear error; never
    // a timeout with status 200.
    void oversizedHeadOnKeptAliveConnection_data() {
        QTest::addColumn<QString>("profile");
        QTest::newRow("150 headers") << QStringLiteral("headers=150");
        QTest::newRow("1 MB header line") << QStringLiteral("headerbytes=1M");
    }
    void oversizedHeadOnKeptAliveConnection() {
        QFETCH(QString, profile);
        MAKE_SITE(site, 1);
        const QString first = site->url(0, QStringLiteral("/first"));
        const QString big = site->url(0, QStringLiteral("/big?") + profile);
        Crawl crawl;
        crawl.engine.setLimits(limitsOf(1, 1, 0));
        FetchPolicy policy = quickPolicy();
        policy.idleTimeoutS = 2;
        crawl.engine.setFetchPolicy(policy);
        START(crawl, (QStringList{first, big}));
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.result(first).outcome, Outcome::Ok);
        const CrawlResult r = crawl.result(big);
        QVERIFY2(r.outcome == Outcome::Ok ||
                     (r.outcome == Outcome::NetworkError && r.error.contains(QStringLiteral("header"))),
                 qPrintable(QStringLiteral("%1 -> %2 (status %3, %4 bytes, ttfb %5 ms, type %6): %7")
                                .arg(profile, outcomeName(r.outcome))
                                .arg(r.status)
                                .arg(r.bytes)
                                .arg(r.ttfbMs)
                                .arg(r.contentType, r.error)));
    }
};

QTEST_GUILESS_MAIN(TestHostileResponses)
#include "tst_hostileresponses.moc"
