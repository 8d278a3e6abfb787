// --adaptive in the engine, asserted on what the loopback test site saw: a host answering 503 gets fewer
// requests at once, down to 1 and then further apart; a healthy host reaches the user's limit.
// (tst_hosthealth_engine: a host that takes K at once, against a ceiling of 16.)
#include "crawlfixture.h"
#include "engine/crawlengine.h"
#include "loopbacksite.h"
#include "model/outcome.h"
#include "policy/pacecontroller.h"
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
        for (int i = 0; i < 6; ++i)
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
        // Slow start's first round (2, not the user's 8); halved to 1 after the first 503s; at 1 in flight
        // the interval grows instead: 250 ms, then 500 ms, then 1 s between starts.
        QCOMPARE(peakOverlapFrom(records, 0), PaceController::kStartInFlight);
        QCOMPARE(peakOverlapFrom(records, records[2].startNs), 1);
        const double expectedGapMs[] = {250, 500, 1000};
        for (int i = 0; i < 3; ++i) {
            const double gapMs = nsToMs(records[i + 3].startNs - records[i + 2].startNs);
            QVERIFY2(gapMs >= expectedGapMs[i] * 0.9,
                     qPrintable(QStringLiteral("gap %1: %2 ms").arg(i).arg(gapMs)));
        }

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
