// --adaptive in the engine, asserted on what the loopback test site saw: a host answering 503 gets fewer
// requests at once after each overload round, down to 1; a healthy host keeps the user's limit.
#include "crawlfixture.h"
#include "engine/crawlengine.h"
#include "loopbacksite.h"
#include "model/outcome.h"
#include "testsite.h"

#include <QTest>

#include <algorithm>
#include <limits>

using namespace crawl;
using namespace crawl::testing;
using testsite::RequestRecord;

namespace {

// The most requests open at once at the server, counting only instants at or after `fromNs`.
int peakOverlapFrom(const QList<RequestRecord> &records, qint64 fromNs) {
    std::vector<std::pair<qint64, int>> events;
    for (const RequestRecord &r : records) {
        events.emplace_back(r.startNs, +1);
        events.emplace_back(r.endNs > 0 ? r.endNs : std::numeric_limits<qint64>::max(), -1);
    }
    std::sort(events.begin(), events.end());
    int open = 0;
    int peak = 0;
    for (const auto &[at, delta] : events) {
        open += delta;
        if (at >= fromNs)
            peak = std::max(peak, open);
    }
    return peak;
}

CrawlLimits adaptiveLimits(int perHost) {
    CrawlLimits limits = limitsOf(32, perHost, 0);
    limits.adaptive = true;
    return limits;
}

} // namespace

class TestAdaptivePaceEngine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void overloadedHostGetsFewerRequestsAtOnce() {
        MAKE_SITE(site, 1);
        QStringList lines;
        for (int i = 0; i < 14; ++i)
            lines << site->url(0, QStringLiteral("/s%1?status=503&ms=40").arg(i));
        Crawl crawl;
        FetchPolicy policy = quickPolicy(0);
        policy.breaker.enabled = false; // the pace alone
        crawl.engine.setLimits(adaptiveLimits(8));
        crawl.engine.setFetchPolicy(policy);
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(30'000));
        QCOMPARE(crawl.count(Outcome::HttpError), int(lines.size()));

        QList<RequestRecord> records = site->requests(0);
        std::sort(records.begin(), records.end(),
                  [](const RequestRecord &a, const RequestRecord &b) { return a.startNs < b.startNs; });
        QCOMPARE(records.size(), lines.size());
        // 8 at first (the user's limit), halved after the first 503s, halved again after the next round.
        QCOMPARE(peakOverlapFrom(records, 0), 8);
        QVERIFY2(peakOverlapFrom(records, records[8].startNs) <= 4,
                 qPrintable(QString::number(peakOverlapFrom(records, records[8].startNs))));
        QVERIFY2(peakOverlapFrom(records, records[12].startNs) <= 2,
                 qPrintable(QString::number(peakOverlapFrom(records, records[12].startNs))));

        const HostSnapshot &host = crawl.summary.last.hosts.first();
        QCOMPARE(host.maxInFlight, 8);
        QCOMPARE(host.effectiveMaxInFlight, 1);
        QVERIFY2(host.paceReason.contains(QStringLiteral("503")), qPrintable(host.paceReason));
    }

    void healthyHostKeepsTheUsersLimit() {
        MAKE_SITE(site, 1);
        QStringList lines;
        for (int i = 0; i < 24; ++i)
            lines << site->url(0, QStringLiteral("/ok%1?ms=30").arg(i));
        Crawl crawl;
        crawl.engine.setLimits(adaptiveLimits(4));
        crawl.engine.setFetchPolicy(quickPolicy(0));
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(30'000));
        QCOMPARE(crawl.count(Outcome::Ok), int(lines.size()));
        QCOMPARE(site->peak(0), 4);
        QCOMPARE(crawl.summary.last.hosts.first().effectiveMaxInFlight, 4);
    }
};

QTEST_GUILESS_MAIN(TestAdaptivePaceEngine)
#include "tst_adaptivepace_engine.moc"
