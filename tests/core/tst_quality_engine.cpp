// robots.txt, crawl scope and acceptance checks in the engine (issue 13), asserted on what the loopback test
// site recorded: no request to a disallowed path, robots.txt fetched once per host through the host's own
// limits, Crawl-delay gaps at the server, a 5xx robots.txt retried before the host's URLs end as blocked,
// excluded URLs and out-of-scope redirects never requested, and the acceptance columns of each result.
#include "crawlfixture.h"
#include "engine/crawlengine.h"
#include "loopbacksite.h"
#include "model/crawlquality.h"
#include "model/outcome.h"
#include "testsite.h"

#include <QTest>
#include <QUrl>

#include <algorithm>

using namespace crawl;
using namespace crawl::testing;
using testsite::RequestRecord;
using testsite::RobotsTxt;

namespace {

QList<RequestRecord> byStart(QList<RequestRecord> records) {
    std::sort(records.begin(), records.end(),
              [](const RequestRecord &a, const RequestRecord &b) { return a.startNs < b.startNs; });
    return records;
}

int countTarget(const QList<RequestRecord> &records, const QString &target) {
    return int(std::count_if(records.cbegin(), records.cend(),
                             [&](const RequestRecord &r) { return r.target == target; }));
}

CrawlQuality obeying() {
    CrawlQuality quality;
    quality.robots = RobotsMode::Obey;
    return quality;
}

} // namespace

class TestQualityEngine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void disallowedPathsAreNeverRequested() {
        MAKE_SITE(site, 1);
        QVERIFY(site->server.setRobotsTxt(site->hosts[0], RobotsTxt::text("User-agent: *\n"
                                                                          "Disallow: /private\n"
                                                                          "Allow: /private/ok\n")));
        const QStringList allowed{site->url(0, QStringLiteral("/a")), site->url(0, QStringLiteral("/b")),
                                  site->url(0, QStringLiteral("/private/ok"))};
        const QStringList blocked{site->url(0, QStringLiteral("/private")),
                                  site->url(0, QStringLiteral("/private/x?y=1")),
                                  site->url(0, QStringLiteral("/privateer"))};
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
        crawl.engine.setCrawlQuality(obeying());
        START(crawl, allowed + blocked);
        QVERIFY(crawl.waitFinished(20'000));

        const QList<RequestRecord> seen = byStart(site->requests(0));
        QCOMPARE(seen.size(), 1 + allowed.size());
        QCOMPARE(seen.first().target, QStringLiteral("/robots.txt")); // before any URL of the host
        for (const RequestRecord &r : seen)
            QVERIFY2(!r.target.startsWith(QLatin1String("/private")) ||
                         r.target == QLatin1String("/private/ok"),
                     qPrintable(r.target));
        for (const QString &url : allowed)
            QCOMPARE(crawl.result(url).outcome, Outcome::Ok);
        for (const QString &url : blocked) {
            const CrawlResult r = crawl.result(url);
            QCOMPARE(r.outcome, Outcome::BlockedRobots);
            QCOMPARE(r.error, QStringLiteral("Disallow: /private (robots.txt line 2)"));
            QCOMPARE(r.attempts, 0);
            QCOMPARE(r.accepted, CrawlResult::Accepted::Unknown); // nothing was fetched to accept
        }
        QCOMPARE(crawl.summary.last.byOutcome[size_t(Outcome::BlockedRobots)], qint64(blocked.size()));
    }

    // The robots fetch is a request like any other: it takes a host slot, and the host's URLs wait for it.
    void robotsIsFetchedOncePerHostWithinTheHostLimit() {
        MAKE_SITE(site, 2);
        for (const QString &host : site->hosts)
            QVERIFY(
                site->server.setRobotsTxt(host, RobotsTxt::text("User-agent: *\nDisallow: /nothing-here\n")));
        constexpr int kPerHost = 2;
        QStringList lines =
            site->urls(0, 12, QStringLiteral("/p%1?ms=80")) + site->urls(1, 12, QStringLiteral("/q%1?ms=80"));
        Crawl crawl(limitsOf(16, kPerHost, 0), quickPolicy());
        crawl.engine.setFetchThreads(2);
        crawl.engine.setCrawlQuality(obeying());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(30'000));
        QCOMPARE(crawl.count(Outcome::Ok), lines.size());

        for (int host = 0; host < 2; ++host) {
            const QList<RequestRecord> seen = byStart(site->requests(host));
            QCOMPARE(seen.size(), 13);
            QCOMPARE(countTarget(seen, QStringLiteral("/robots.txt")), 1);
            const RequestRecord &robots = seen.first();
            QCOMPARE(robots.target, QStringLiteral("/robots.txt"));
            QVERIFY(robots.endNs > 0);
            // Held until the rules were known: no URL of the host started before robots.txt had answered.
            for (qsizetype i = 1; i < seen.size(); ++i)
                QVERIFY2(seen[i].startNs >= robots.endNs, qPrintable(seen[i].target));
            QVERIFY2(site->peak(host) <= kPerHost, qPrintable(QString::number(site->peak(host))));
            // It was sent with our User-Agent, like the URLs.
            QVERIFY(robots.userAgent.startsWith("Crawlscope/"));
        }
    }

    void crawlDelaySpacesStartsAtTheServer() {
        MAKE_SITE(site, 1);
        QVERIFY(site->server.setRobotsTxt(site->hosts[0], RobotsTxt::text("User-agent: crawlscope\n"
                                                                          "Crawl-delay: 0.3\n"
                                                                          "Disallow:\n")));
        const QStringList lines = site->urls(0, 5, QStringLiteral("/d%1"));
        Crawl crawl(limitsOf(8, 4, 0), quickPolicy()); // no interval of our own: only robots.txt slows it
        crawl.engine.setCrawlQuality(obeying());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.count(Outcome::Ok), lines.size());
        const QList<RequestRecord> seen = byStart(site->requests(0));
        QCOMPARE(seen.size(), 6);
        for (qsizetype i = 2; i < seen.size(); ++i) {
            const double gapMs = nsToMs(seen[i].startNs - seen[i - 1].startNs);
            QVERIFY2(gapMs >= 295.0,
                     qPrintable(QStringLiteral("gap %1 ms before %2").arg(gapMs).arg(seen[i].target)));
        }
        const QList<HostSnapshot> hosts = crawl.summary.last.hosts;
        QCOMPARE(hosts.size(), 1);
        QVERIFY2(hosts.first().robotsStatus.contains(QLatin1String("Crawl-delay 0.3 s")),
                 qPrintable(hosts.first().robotsStatus));
        QCOMPARE(hosts.first().effectiveIntervalMs, 300);
        QCOMPARE(hosts.first().intervalReason, QStringLiteral("Crawl-delay 0.3 s (robots.txt)"));

        // --ignore-crawl-delay: the same host, no gap imposed.
        site->server.resetRecords();
        Crawl fast(limitsOf(8, 1, 0), quickPolicy());
        CrawlQuality ignoring = obeying();
        ignoring.ignoreCrawlDelay = true;
        fast.engine.setCrawlQuality(ignoring);
        START(fast, lines);
        QVERIFY(fast.waitFinished(20'000));
        const QList<RequestRecord> again = byStart(site->requests(0));
        QCOMPARE(again.size(), 6);
        QVERIFY2(nsToMs(again.last().startNs - again[1].startNs) < 4 * 295.0,
                 "with the Crawl-delay ignored, five requests took as long as with it");
    }

    // 5xx: nothing but robots.txt is fetched; it is tried again with backoff, then the URLs end as blocked.
    void unreachableRobotsBlocksAfterRetries() {
        MAKE_SITE(site, 1);
        QVERIFY(site->server.setRobotsTxt(site->hosts[0], RobotsTxt::withStatus(503)));
        const QStringList lines = site->urls(0, 4, QStringLiteral("/u%1"));
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
        CrawlQuality quality = obeying();
        quality.robotsRetry.maxAttempts = 3;
        quality.robotsRetry.baseDelayMs = 200;
        crawl.engine.setCrawlQuality(quality);
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        const QList<RequestRecord> seen = byStart(site->requests(0));
        QCOMPARE(seen.size(), 3);
        QCOMPARE(countTarget(seen, QStringLiteral("/robots.txt")), 3);
        QVERIFY(nsToMs(seen[1].startNs - seen[0].startNs) >= 195.0); // 200 ms, then 400 ms
        QVERIFY(nsToMs(seen[2].startNs - seen[1].startNs) >= 395.0);
        for (const QString &url : lines) {
            const CrawlResult r = crawl.result(url);
            QCOMPARE(r.outcome, Outcome::BlockedRobots);
            QVERIFY2(r.error.contains(QLatin1String("HTTP 503")) &&
                         r.error.contains(QLatin1String("3 attempts")),
                     qPrintable(r.error));
        }
    }

    void robotsThatRecoversLetsTheHostGoOn() {
        MAKE_SITE(site, 1);
        RobotsTxt robots = RobotsTxt::text("User-agent: *\nDisallow: /no\n");
        robots.failFirst = 1;
        robots.failStatus = 500;
        QVERIFY(site->server.setRobotsTxt(site->hosts[0], robots));
        const QStringList lines{site->url(0, QStringLiteral("/yes")), site->url(0, QStringLiteral("/no"))};
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
        CrawlQuality quality = obeying();
        quality.robotsRetry.baseDelayMs = 100;
        crawl.engine.setCrawlQuality(quality);
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        const QList<RequestRecord> seen = byStart(site->requests(0));
        QCOMPARE(seen.size(), 3); // robots.txt twice, /yes once
        QCOMPARE(countTarget(seen, QStringLiteral("/robots.txt")), 2);
        QCOMPARE(seen[0].status, 500);
        QCOMPARE(seen[1].target, QStringLiteral("/robots.txt"));
        QCOMPARE(seen[2].target, QStringLiteral("/yes"));
        QCOMPARE(crawl.result(lines[0]).outcome, Outcome::Ok);
        QCOMPARE(crawl.result(lines[1]).outcome, Outcome::BlockedRobots);
    }

    void missingRobotsAllowsEverything() {
        MAKE_SITE(site, 1);
        QVERIFY(site->server.setRobotsTxt(site->hosts[0], RobotsTxt::withStatus(404)));
        const QStringList lines = site->urls(0, 5, QStringLiteral("/m%1"));
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
        crawl.engine.setCrawlQuality(obeying());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.count(Outcome::Ok), 5);
        QCOMPARE(site->requests(0).size(), 6);
        QVERIFY2(crawl.summary.last.hosts.first().robotsStatus.contains(QLatin1String("HTTP 404")),
                 qPrintable(crawl.summary.last.hosts.first().robotsStatus));
    }

    // The host snapshot counts every HTTP response, retries and robots.txt included (the window's 429 rate
    // is status429 ÷ responses): both as many as the server answered.
    void hostCountsEveryResponse() {
        MAKE_SITE(site, 1);
        QVERIFY(site->server.setRobotsTxt(site->hosts[0], RobotsTxt::withStatus(404)));
        QStringList lines = site->urls(0, 3, QStringLiteral("/r%1"));
        lines.append(site->url(0, QStringLiteral("/limited?fail=2&failstatus=429")));
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy(3, 20));
        crawl.engine.setCrawlQuality(obeying());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.count(Outcome::Ok), 4);
        const QList<RequestRecord> seen = site->requests(0);
        QCOMPARE(seen.size(), 7); // robots.txt, three pages, the limited one three times
        const HostSnapshot &host = crawl.summary.last.hosts.first();
        QCOMPARE(host.status429, qint64(2));
        QCOMPARE(host.responses, qint64(seen.size()));
    }

    // A redirected robots.txt is followed (to another host, through that host's limits); its rules apply.
    void redirectedRobotsIsFollowed() {
        MAKE_SITE(site, 2);
        QVERIFY(site->server.setRobotsTxt(
            site->hosts[0], RobotsTxt::redirectTo(site->url(1, QStringLiteral("/robots.txt")).toUtf8())));
        QVERIFY(
            site->server.setRobotsTxt(site->hosts[1], RobotsTxt::text("User-agent: *\nDisallow: /secret\n")));
        const QStringList lines{site->url(0, QStringLiteral("/open")),
                                site->url(0, QStringLiteral("/secret/1"))};
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
        crawl.engine.setFetchThreads(2);
        crawl.engine.setCrawlQuality(obeying());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.result(lines[0]).outcome, Outcome::Ok);
        QCOMPARE(crawl.result(lines[1]).outcome, Outcome::BlockedRobots);
        QCOMPARE(site->requests(0).size(), 2); // robots.txt (the 301) and /open
        QCOMPARE(countTarget(site->requests(0), QStringLiteral("/secret/1")), 0);
        QCOMPARE(site->requests(1).size(), 1); // the redirect hop, and nothing else
    }

    // RFC 9309 asks for at least 500 KiB to be parsed; a rule beyond that is not read.
    void hugeRobotsIsReadUpTo500KiB() {
        MAKE_SITE(site, 1);
        QVERIFY(site->server.setRobotsTxt(
            site->hosts[0],
            RobotsTxt::huge(900 * 1024, "User-agent: *\nDisallow: /early\n", "Disallow: /late\n")));
        const QStringList lines{site->url(0, QStringLiteral("/early")),
                                site->url(0, QStringLiteral("/late"))};
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
        crawl.engine.setCrawlQuality(obeying());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.result(lines[0]).outcome, Outcome::BlockedRobots);
        QCOMPARE(crawl.result(lines[1]).outcome, Outcome::Ok);
    }

    // --robots report: fetched anyway, the row says which rule would have blocked it.
    void reportModeFetchesAndMarksTheRow() {
        MAKE_SITE(site, 1);
        QVERIFY(site->server.setRobotsTxt(site->hosts[0],
                                          RobotsTxt::text("User-agent: *\nDisallow: /private\n")));
        const QString url = site->url(0, QStringLiteral("/private/1"));
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
        CrawlQuality quality;
        quality.robots = RobotsMode::Report;
        crawl.engine.setCrawlQuality(quality);
        START(crawl, QStringList{url});
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.result(url).outcome, Outcome::Ok);
        QVERIFY2(crawl.result(url).warning.contains(QLatin1String("Disallow: /private (robots.txt line 2)")),
                 qPrintable(crawl.result(url).warning));
        QCOMPARE(countTarget(site->requests(0), QStringLiteral("/private/1")), 1);
    }

    void ignoreModeNeverFetchesRobots() {
        MAKE_SITE(site, 1);
        QVERIFY(site->server.setRobotsTxt(site->hosts[0], RobotsTxt::text("User-agent: *\nDisallow: /\n")));
        const QStringList lines = site->urls(0, 3, QStringLiteral("/i%1"));
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy()); // the engine's default: RobotsMode::Ignore
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.count(Outcome::Ok), 3);
        QCOMPARE(countTarget(site->requests(0), QStringLiteral("/robots.txt")), 0);
    }

    // Out of scope: input lines never requested, a redirect out of scope not followed.
    void scopeExcludesInputsAndRedirects() {
        MAKE_SITE(site, 2);
        CrawlQuality quality;
        QVERIFY(quality.scope.addExclude(QStringLiteral("/skip")).isEmpty());
        QVERIFY(quality.scope.setAllowedHosts(site->hosts[0].toUtf8() + "\n", QStringLiteral("hosts.txt"))
                    .isEmpty());
        const QString inScope = site->url(0, QStringLiteral("/a"));
        const QString excluded = site->url(0, QStringLiteral("/skip/1"));
        const QString otherHost = site->url(1, QStringLiteral("/b"));
        const QString target = site->url(1, QStringLiteral("/landing"));
        const QString redirect =
            site->url(0, QStringLiteral("/r?to=") + QString::fromLatin1(QUrl::toPercentEncoding(target)));
        Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
        crawl.engine.setCrawlQuality(quality);
        START(crawl, (QStringList{inScope, excluded, otherHost, redirect}));
        QVERIFY(crawl.waitFinished(20'000));

        QCOMPARE(crawl.result(inScope).outcome, Outcome::Ok);
        QCOMPARE(crawl.result(excluded).outcome, Outcome::Excluded);
        QCOMPARE(crawl.result(excluded).error, QStringLiteral("out of scope: --exclude \"/skip\""));
        QCOMPARE(crawl.result(otherHost).outcome, Outcome::Excluded);
        QVERIFY2(crawl.result(otherHost).error.contains(QLatin1String("--allow-hosts")),
                 qPrintable(crawl.result(otherHost).error));
        const CrawlResult redirected = crawl.result(redirect);
        QCOMPARE(redirected.outcome, Outcome::Excluded);
        QCOMPARE(redirected.status, 302);
        QVERIFY2(redirected.error.startsWith(QStringLiteral("redirect to %1 not followed").arg(target)),
                 qPrintable(redirected.error));
        QCOMPARE(site->requests(1).size(), 0); // neither the excluded host nor the redirect target
        QCOMPARE(countTarget(site->requests(0), QStringLiteral("/skip/1")), 0);
        QCOMPARE(site->requests(0).size(), 2);
    }

    void acceptanceColumnsAndCounts() {
        MAKE_SITE(site, 1);
        const QString page = site->url(0, QStringLiteral("/page"));
        const QString soft404 = site->url(0, QStringLiteral("/gone?soft404=1"));
        const QString notFound = site->url(0, QStringLiteral("/missing?status=404"));
        const QString json = site->url(0, QStringLiteral("/data?type=application/json&size=500"));
        const QString tiny = site->url(0, QStringLiteral("/tiny?size=10"));
        const QString untitled = site->url(0, QStringLiteral("/untitled?title="));
        const QStringList lines{page, soft404, notFound, json, tiny, untitled};

        // The defaults: 2xx accepted, a soft 404 only reported.
        {
            Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
            START(crawl, lines);
            QVERIFY(crawl.waitFinished(20'000));
            const CrawlResult ok = crawl.result(page);
            QCOMPARE(ok.accepted, CrawlResult::Accepted::Yes);
            QCOMPARE(ok.title, QStringLiteral("Crawlscope test page /page"));
            QVERIFY(ok.rejectReason.isEmpty());
            const CrawlResult soft = crawl.result(soft404);
            QCOMPARE(soft.outcome, Outcome::Ok);
            QCOMPARE(soft.accepted, CrawlResult::Accepted::Yes);
            QCOMPARE(soft.title, QStringLiteral("Page not found"));
            QVERIFY2(soft.rejectReason.startsWith(QLatin1String("soft 404 (reported only)")),
                     qPrintable(soft.rejectReason));
            const CrawlResult missing = crawl.result(notFound);
            QCOMPARE(missing.outcome, Outcome::HttpError);
            QCOMPARE(missing.accepted, CrawlResult::Accepted::No);
            QCOMPARE(missing.rejectReason, QStringLiteral("status 404 not in 200-299"));
            QCOMPARE(crawl.summary.last.accepted, qint64(5));
            QCOMPARE(crawl.summary.last.rejected, qint64(1));
            QCOMPARE(crawl.summary.last.hosts.first().accepted, qint64(5));
        }
        // Every check at once, and a soft 404 rejected.
        {
            CrawlQuality quality;
            AcceptanceCriteria &c = quality.acceptance;
            c.contentTypes = {QByteArrayLiteral("text/html")};
            c.expectedText = QStringLiteral("served by");
            c.minBytes = 100;
            c.expectTitle = true;
            c.soft404 = Soft404Mode::Reject;
            Crawl crawl(limitsOf(8, 2, 0), quickPolicy());
            crawl.engine.setCrawlQuality(quality);
            START(crawl, lines);
            QVERIFY(crawl.waitFinished(20'000));
            QCOMPARE(crawl.result(page).accepted, CrawlResult::Accepted::Yes);
            const CrawlResult soft = crawl.result(soft404);
            QCOMPARE(soft.accepted, CrawlResult::Accepted::No);
            QCOMPARE(soft.rejectReason, QStringLiteral("soft 404: title \"Page not found\""));
            const CrawlResult data = crawl.result(json);
            QCOMPARE(data.accepted, CrawlResult::Accepted::No);
            QVERIFY2(data.rejectReason.contains(
                         QLatin1String("content type \"application/json\" not in text/html")),
                     qPrintable(data.rejectReason));
            const CrawlResult small = crawl.result(tiny);
            QCOMPARE(small.accepted, CrawlResult::Accepted::No);
            QVERIFY2(small.rejectReason.contains(QLatin1String("10 bytes, fewer than the minimum 100")) &&
                         small.rejectReason.contains(QLatin1String("text \"served by\" not in")),
                     qPrintable(small.rejectReason));
            const CrawlResult noTitle = crawl.result(untitled);
            QCOMPARE(noTitle.accepted, CrawlResult::Accepted::No);
            QCOMPARE(noTitle.rejectReason, QStringLiteral("empty HTML title"));
            QCOMPARE(crawl.summary.last.accepted, qint64(1));
            QCOMPARE(crawl.summary.last.rejected, qint64(5));
            QCOMPARE(crawl.summary.last.ok, qint64(5)); // the outcome stays what the transport says
        }
    }
};

QTEST_GUILESS_MAIN(TestQualityEngine)
#include "tst_quality_engine.moc"
