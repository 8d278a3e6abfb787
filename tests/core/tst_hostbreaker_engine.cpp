// The per-host circuit breaker in the engine, asserted on what the loopback test site recorded: a dead
// host trips after about a window of attempts, the server then sees only probes, the other hosts go on,
// and every URL still ends with exactly one result; a host that recovers finishes after its probe.
#include "crawlfixture.h"
#include "engine/crawlengine.h"
#include "loopbacksite.h"
#include "model/breakerevent.h"
#include "model/outcome.h"
#include "testsite.h"

#include <QSet>
#include <QTest>
#include <QUrl>

#include <algorithm>

using namespace crawl;
using namespace crawl::testing;
using testsite::RequestRecord;

namespace {

// Short, millisecond cool-downs so a test waits seconds, not minutes.
FetchPolicy breakerPolicy(int window, int cooldownMs, int giveUpMs, int retries) {
    FetchPolicy policy = quickPolicy(retries, 10);
    policy.breaker.window = window;
    policy.breaker.threshold = 0.8;
    policy.breaker.cooldownMs = cooldownMs;
    policy.breaker.giveUpMs = giveUpMs;
    return policy;
}

QList<RequestRecord> byStart(QList<RequestRecord> records) {
    std::sort(records.begin(), records.end(),
              [](const RequestRecord &a, const RequestRecord &b) { return a.startNs < b.startNs; });
    return records;
}

// Every input line has exactly one result (by id), none twice.
bool exactlyOneResultEach(const QList<CrawlResult> &results, int lines) {
    QSet<qint64> ids;
    for (const CrawlResult &r : results)
        ids.insert(r.id);
    return ids.size() == lines && results.size() == lines;
}

} // namespace

class TestHostBreakerEngine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deadHostTripsProbesAndIsGivenUpWhileOthersFinish() {
        MAKE_SITE(site, 3);
        constexpr int kWindow = 10;
        constexpr int kCooldownMs = 1'000;
        constexpr int kGiveUpMs = 2'500;
        constexpr int kPerHost = 2;
        QStringList lines;
        for (int i = 0; i < 30; ++i)
            lines << site->url(0, QStringLiteral("/dead%1?status=503").arg(i));
        for (int i = 0; i < 30; ++i) {
            lines << site->url(1, QStringLiteral("/ok%1").arg(i));
            lines << site->url(2, QStringLiteral("/ok%1").arg(i));
        }
        Crawl crawl;
        QList<BreakerEvent> events;
        QObject::connect(&crawl.engine, &CrawlEngine::hostBreakerChanged, &crawl.engine,
                         [&events](const BreakerEvent &e) { events << e; });
        crawl.engine.setLimits(limitsOf(16, kPerHost, 0));
        crawl.engine.setFetchPolicy(breakerPolicy(kWindow, kCooldownMs, kGiveUpMs, 2));
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(30'000));

        // Every URL ended exactly once; the dead host's leftovers as `skipped`, with the reason.
        QVERIFY(exactlyOneResultEach(crawl.results, int(lines.size())));
        const QString deadHost = site->hosts.at(0);
        int skipped = 0;
        for (const CrawlResult &r : std::as_const(crawl.results)) {
            if (r.host == deadHost) {
                QVERIFY2(r.outcome == Outcome::Skipped || r.outcome == Outcome::HttpError,
                         qPrintable(outcomeName(r.outcome)));
                if (r.outcome == Outcome::Skipped) {
                    ++skipped;
                    QVERIFY2(
                        r.error.contains(QStringLiteral("circuit breaker")) &&
                            r.error.contains(QStringLiteral("of the last 10 attempts failed: server errors")),
                        qPrintable(r.error));
                }
            } else {
                QCOMPARE(r.outcome, Outcome::Ok);
            }
        }
        QVERIFY2(skipped >= 20, qPrintable(QString::number(skipped)));
        QCOMPARE(crawl.summary.last.byOutcome[size_t(Outcome::Skipped)], qint64(skipped));

        // The server: about a window of attempts (plus what was in flight), then one request at a time,
        // each a cool-down after the previous one ended.
        const QList<RequestRecord> dead = byStart(site->requests(0));
        QVERIFY(!dead.isEmpty());
        qsizetype firstProbe = -1;
        for (qsizetype i = 1; i < dead.size(); ++i) {
            if (dead[i].startNs - dead[i - 1].endNs >= qint64(kCooldownMs / 2) * kNsPerMs) {
                firstProbe = i;
                break;
            }
        }
        QVERIFY2(firstProbe >= kWindow && firstProbe <= kWindow + kPerHost,
                 qPrintable(QStringLiteral("%1 requests before the trip").arg(firstProbe)));
        const qsizetype probes = dead.size() - firstProbe;
        QVERIFY2(probes >= 1 && probes <= 2, qPrintable(QStringLiteral("%1 probes").arg(probes)));
        for (qsizetype i = firstProbe; i < dead.size(); ++i) {
            const double idleMs = nsToMs(dead[i].startNs - dead[i - 1].endNs);
            QVERIFY2(idleMs >= kCooldownMs * 0.9,
                     qPrintable(QStringLiteral("probe %1 after %2 ms").arg(i).arg(idleMs)));
        }

        // The other hosts never waited for the dead one: no pause in their starts anywhere near a cool-down.
        for (int host = 1; host <= 2; ++host) {
            const QList<RequestRecord> ok = byStart(site->requests(host));
            QCOMPARE(ok.size(), 30);
            for (qsizetype i = 1; i < ok.size(); ++i)
                QVERIFY2(nsToMs(ok[i].startNs - ok[i - 1].startNs) < kCooldownMs / 2.0,
                         qPrintable(QStringLiteral("host %1 paused %2 ms")
                                        .arg(host)
                                        .arg(nsToMs(ok[i].startNs - ok[i - 1].startNs))));
        }

        // Events: a trip with the reason, trips again on each failed probe, then the give-up.
        QVERIFY(events.size() >= 2);
        QCOMPARE(events.first().kind, BreakerEvent::Kind::Tripped);
        QCOMPARE(events.first().host, deadHost);
        QVERIFY2(events.first().reason.startsWith(
                     QStringLiteral("10 of the last 10 attempts failed: server errors")) ||
                     events.first().reason.contains(
                         QStringLiteral("of the last 10 attempts failed: server errors")),
                 qPrintable(events.first().reason));
        QCOMPARE(events.last().kind, BreakerEvent::Kind::GaveUp);
        const CrawlSnapshot &last = crawl.summary.last;
        QCOMPARE(last.hostsGivenUp, qint64(1));
        QCOMPARE(last.breakerRecoveries, qint64(0));
        QVERIFY(last.breakerTrips >= 1);
        const auto deadSnapshot = std::find_if(last.hosts.cbegin(), last.hosts.cend(),
                                               [&](const HostSnapshot &h) { return h.host == deadHost; });
        QVERIFY(deadSnapshot != last.hosts.cend());
        QCOMPARE(deadSnapshot->breakerState, BreakerState::GaveUp);
    }

    void recoveringHostFinishesAfterItsProbe() {
        // Host 1 answers /shared with 503 five times, then 200. Each input URL on host 0 redirects
        // there, so host 1's breaker sees exactly those hits (one at a time).
        MAKE_SITE(site, 2);
        constexpr int kWindow = 5;
        constexpr int kCooldownMs = 700;
        const QString shared = site->url(1, QStringLiteral("/shared?fail=5"));
        QStringList lines;
        for (int i = 0; i < 8; ++i)
            lines << site->url(0, QStringLiteral("/a%1?to=").arg(i) +
                                      QString::fromLatin1(QUrl::toPercentEncoding(shared)));
        Crawl crawl;
        QList<BreakerEvent> events;
        QObject::connect(&crawl.engine, &CrawlEngine::hostBreakerChanged, &crawl.engine,
                         [&events](const BreakerEvent &e) { events << e; });
        crawl.engine.setLimits(limitsOf(16, 1, 0));
        crawl.engine.setFetchPolicy(breakerPolicy(kWindow, kCooldownMs, 60'000, 8));
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(30'000));

        QVERIFY(exactlyOneResultEach(crawl.results, int(lines.size())));
        QCOMPARE(crawl.count(Outcome::Ok), int(lines.size()));

        const QList<RequestRecord> target = byStart(site->requests(1));
        QCOMPARE(target.size(), 5 + int(lines.size())); // five failures, then one success per URL
        for (int i = 0; i < 5; ++i)
            QCOMPARE(target[i].status, 503);
        for (qsizetype i = 5; i < target.size(); ++i)
            QCOMPARE(target[i].status, 200);
        // The probe waited out the cool-down after the fifth failure.
        QVERIFY2(nsToMs(target[5].startNs - target[4].endNs) >= kCooldownMs * 0.9,
                 qPrintable(QString::number(nsToMs(target[5].startNs - target[4].endNs))));

        QCOMPARE(events.size(), 2);
        QCOMPARE(events[0].kind, BreakerEvent::Kind::Tripped);
        QCOMPARE(events[0].reason, QStringLiteral("5 of the last 5 attempts failed: server errors (5xx)"));
        QCOMPARE(events[1].kind, BreakerEvent::Kind::Recovered);
        QCOMPARE(crawl.summary.last.breakerTrips, qint64(1));
        QCOMPARE(crawl.summary.last.breakerRecoveries, qint64(1));
        QCOMPARE(crawl.summary.last.hostsGivenUp, qint64(0));
    }

    void userResumesATrippedHostAtOnce() {
        MAKE_SITE(site, 2);
        const QString shared = site->url(1, QStringLiteral("/shared?fail=3"));
        QStringList lines;
        for (int i = 0; i < 6; ++i)
            lines << site->url(0, QStringLiteral("/a%1?to=").arg(i) +
                                      QString::fromLatin1(QUrl::toPercentEncoding(shared)));
        Crawl crawl;
        QList<BreakerEvent> events;
        QObject::connect(&crawl.engine, &CrawlEngine::hostBreakerChanged, &crawl.engine,
                         [&](const BreakerEvent &e) {
                             events << e;
                             if (e.kind == BreakerEvent::Kind::Tripped)
                                 crawl.engine.resetHostBreaker(e.host);
                         });
        crawl.engine.setLimits(limitsOf(16, 1, 0));
        // A cool-down far longer than the test may wait: only the user's resume can finish it in time.
        crawl.engine.setFetchPolicy(breakerPolicy(3, 600'000, 1'200'000, 6));
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.count(Outcome::Ok), int(lines.size()));
        QVERIFY(events.size() >= 2);
        QCOMPARE(events[0].kind, BreakerEvent::Kind::Tripped);
        QCOMPARE(events[1].kind, BreakerEvent::Kind::Reset);
        QCOMPARE(site->requests(1).size(), 3 + lines.size());
    }

    void noBreakerNeverTrips() {
        MAKE_SITE(site, 1);
        QStringList lines;
        for (int i = 0; i < 12; ++i)
            lines << site->url(0, QStringLiteral("/dead%1?status=503").arg(i));
        Crawl crawl;
        int events = 0;
        QObject::connect(&crawl.engine, &CrawlEngine::hostBreakerChanged, &crawl.engine,
                         [&events](const BreakerEvent &) { ++events; });
        FetchPolicy policy = breakerPolicy(3, 60'000, 120'000, 0);
        policy.breaker.enabled = false;
        crawl.engine.setLimits(limitsOf(16, 2, 0));
        crawl.engine.setFetchPolicy(policy);
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.count(Outcome::HttpError), int(lines.size()));
        QCOMPARE(site->requests(0).size(), lines.size()); // every URL was tried
        QCOMPARE(events, 0);
    }
};

QTEST_GUILESS_MAIN(TestHostBreakerEngine)
#include "tst_hostbreaker_engine.moc"
