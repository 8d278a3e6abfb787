// RobotsGate, the shard's robots.txt decisions, without a network: when an origin's robots.txt must be
// fetched first, when its URLs wait, which URLs are blocked (and why), retries of an unreachable file,
// the 24 h re-fetch, report mode and Crawl-delay.
#include "engine/robotsgate.h"
#include "input/urlnormalizer.h"

#include <QTest>

using namespace crawl;

namespace {

constexpr qint64 kMs = 1'000'000;

Job jobFor(const QString &url) {
    const NormalizedUrl normalized = normalizeUrl(url);
    return Job::fromInput(1, 1, normalized, 0);
}

CrawlQuality quality(RobotsMode mode) {
    CrawlQuality q;
    q.robots = mode;
    q.robotsRetry.maxAttempts = 3;
    q.robotsRetry.baseDelayMs = 1000;
    return q;
}

RobotsFetchOutcome fetched(const QString &hostKey, int status, const QByteArray &body = {}) {
    RobotsFetchOutcome outcome;
    outcome.hostKey = hostKey;
    outcome.status = status;
    outcome.body = body;
    return outcome;
}

} // namespace

class TestRobotsGate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ignoreModeStartsEverything() {
        RobotsGate gate;
        gate.configure(quality(RobotsMode::Ignore));
        QVERIFY(!gate.active());
        Job job = jobFor(QStringLiteral("http://a.test/private"));
        QCOMPARE(gate.admit(job, 0).action, RobotsGate::Action::Start);
    }

    void fetchesFirstHoldsThenDecides() {
        RobotsGate gate;
        gate.configure(quality(RobotsMode::Obey));
        Job job = jobFor(QStringLiteral("http://user:pw@a.test:8080/private/1?x=1"));
        QCOMPARE(gate.admit(job, 0).action, RobotsGate::Action::FetchRobots);
        const Job robots = gate.robotsJob(job, 0);
        QVERIFY(robots.robotsFetch);
        QCOMPARE(robots.currentUrl.toString(), QStringLiteral("http://a.test:8080/robots.txt"));
        QCOMPARE(robots.currentHost, QStringLiteral("a.test:8080"));
        QCOMPARE(robots.attempts, 1); // not counted as an input URL starting
        QCOMPARE(gate.admit(job, 1).action, RobotsGate::Action::Hold);
        QCOMPARE(gate.admit(job, 1).wakeAtNs, 0); // the fetch's end wakes the host

        QCOMPARE(gate.onFetched(fetched(QStringLiteral("a.test:8080"), 200,
                                        "User-agent: *\nCrawl-delay: 1.5\nDisallow: /private\n"),
                                2),
                 QStringLiteral("a.test:8080"));
        const RobotsGate::Decision blocked = gate.admit(job, 3);
        QCOMPARE(blocked.action, RobotsGate::Action::Block);
        QCOMPARE(blocked.reason, QStringLiteral("Disallow: /private (robots.txt line 3)"));
        Job open = jobFor(QStringLiteral("http://a.test:8080/public"));
        QCOMPARE(gate.admit(open, 3).action, RobotsGate::Action::Start);
        QCOMPARE(gate.crawlDelayMs(QStringLiteral("a.test:8080")), 1500);
        QVERIFY2(gate.statusText(QStringLiteral("a.test:8080")).contains(QLatin1String("Crawl-delay 1.5 s")),
                 qPrintable(gate.statusText(QStringLiteral("a.test:8080"))));
        // https on the same host:port is another origin: its own robots.txt.
        Job secure = jobFor(QStringLiteral("https://a.test:8080/private"));
        QCOMPARE(gate.admit(secure, 3).action, RobotsGate::Action::FetchRobots);
    }

    void crawlDelayCanBeIgnored() {
        RobotsGate gate;
        CrawlQuality q = quality(RobotsMode::Obey);
        q.ignoreCrawlDelay = true;
        gate.configure(q);
        Job job = jobFor(QStringLiteral("http://a.test/"));
        gate.robotsJob(job, 0);
        gate.onFetched(fetched(QStringLiteral("a.test:80"), 200, "User-agent: *\nCrawl-delay: 5\n"), 1);
        QCOMPARE(gate.crawlDelayMs(QStringLiteral("a.test:80")), 0);
        QVERIFY(gate.statusText(QStringLiteral("a.test:80")).contains(QLatin1String("(ignored)")));
    }

    void unreachableIsRetriedWithBackoffThenBlocks() {
        RobotsGate gate;
        gate.configure(quality(RobotsMode::Obey));
        Job job = jobFor(QStringLiteral("http://a.test/x"));
        gate.robotsJob(job, 0);
        gate.onFetched(fetched(QStringLiteral("a.test:80"), 503), 0);
        RobotsGate::Decision d = gate.admit(job, 10 * kMs);
        QCOMPARE(d.action, RobotsGate::Action::Hold); // waits, not failed
        QCOMPARE(d.wakeAtNs, 1000 * kMs);
        QCOMPARE(gate.admit(job, 1000 * kMs).action, RobotsGate::Action::FetchRobots);
        gate.robotsJob(job, 1000 * kMs);
        gate.onFetched(fetched(QStringLiteral("a.test:80"), 0), 1000 * kMs); // no answer at all
        QCOMPARE(gate.admit(job, 1000 * kMs).wakeAtNs, 3000 * kMs);          // doubled
        gate.robotsJob(job, 3000 * kMs);
        gate.onFetched(fetched(QStringLiteral("a.test:80"), 500), 3000 * kMs);
        d = gate.admit(job, 3000 * kMs);
        QCOMPARE(d.action, RobotsGate::Action::Block);
        QVERIFY2(d.reason.contains(QLatin1String("after 3 attempts")), qPrintable(d.reason));
    }

    void notFoundAllowsEverything() {
        RobotsGate gate;
        gate.configure(quality(RobotsMode::Obey));
        Job job = jobFor(QStringLiteral("http://a.test/anything"));
        gate.robotsJob(job, 0);
        gate.onFetched(fetched(QStringLiteral("a.test:80"), 404), 0);
        QCOMPARE(gate.admit(job, 1).action, RobotsGate::Action::Start);
    }

    void fetchedAgainAfterADay() {
        RobotsGate gate;
        gate.configure(quality(RobotsMode::Obey));
        Job job = jobFor(QStringLiteral("http://a.test/page"));
        gate.robotsJob(job, 0);
        gate.onFetched(fetched(QStringLiteral("a.test:80"), 200, "User-agent: *\nDisallow:\n"), 0);
        constexpr qint64 kDayNs = 24LL * 3600 * 1000 * kMs;
        QCOMPARE(gate.admit(job, kDayNs - 1).action, RobotsGate::Action::Start);
        QCOMPARE(gate.admit(job, kDayNs).action, RobotsGate::Action::FetchRobots);
    }

    void reportModeMarksInsteadOfBlocking() {
        RobotsGate gate;
        gate.configure(quality(RobotsMode::Report));
        Job job = jobFor(QStringLiteral("http://a.test/private"));
        gate.robotsJob(job, 0);
        gate.onFetched(fetched(QStringLiteral("a.test:80"), 200, "User-agent: *\nDisallow: /private\n"), 0);
        QCOMPARE(gate.admit(job, 1).action, RobotsGate::Action::Start);
        QCOMPARE(job.robotsNote, QStringLiteral("Disallow: /private (robots.txt line 2)"));
    }

    // The map is bounded: beyond kMaxHosts the least recently used settled origins are dropped (their
    // robots.txt is fetched again if their URLs come back); one being fetched is never dropped.
    void originsAreBounded() {
        RobotsGate gate;
        gate.configure(quality(RobotsMode::Obey));
        Job pending = jobFor(QStringLiteral("http://pending.test/"));
        gate.robotsJob(pending, 0); // fetching, never answered
        for (size_t i = 0; i < RobotsGate::kMaxHosts; ++i) {
            Job job = jobFor(QStringLiteral("http://h%1.test/").arg(i));
            gate.robotsJob(job, qint64(i + 1));
            gate.onFetched(fetched(job.currentHost, 404), qint64(i + 1));
        }
        Job oldest = jobFor(QStringLiteral("http://h0.test/"));
        Job newest = jobFor(QStringLiteral("http://h%1.test/").arg(RobotsGate::kMaxHosts - 1));
        QCOMPARE(gate.admit(newest, qint64(RobotsGate::kMaxHosts) + 1).action, RobotsGate::Action::Start);
        QCOMPARE(gate.admit(pending, qint64(RobotsGate::kMaxHosts) + 1).action, RobotsGate::Action::Hold);
        QCOMPARE(gate.admit(oldest, qint64(RobotsGate::kMaxHosts) + 2).action,
                 RobotsGate::Action::FetchRobots);
    }

    // Report mode never holds a URL for an unreachable robots.txt: it goes on, marked.
    void reportModeDoesNotWaitForRetries() {
        RobotsGate gate;
        gate.configure(quality(RobotsMode::Report));
        Job job = jobFor(QStringLiteral("http://a.test/x"));
        gate.robotsJob(job, 0);
        gate.onFetched(fetched(QStringLiteral("a.test:80"), 503), 0);
        QCOMPARE(gate.admit(job, 1).action, RobotsGate::Action::Start);
        QVERIFY2(job.robotsNote.contains(QLatin1String("HTTP 503")), qPrintable(job.robotsNote));
        QCOMPARE(gate.admit(job, 1000 * kMs).action, RobotsGate::Action::FetchRobots); // still retried
    }

    void ourProductTokenIsMatched() {
        RobotsGate gate;
        CrawlQuality q = quality(RobotsMode::Obey);
        q.robotsAgent = "MyBot";
        gate.configure(q);
        Job job = jobFor(QStringLiteral("http://a.test/only-mybot"));
        gate.robotsJob(job, 0);
        gate.onFetched(fetched(QStringLiteral("a.test:80"), 200,
                               "User-agent: *\nDisallow: /\n\nUser-agent: mybot\nDisallow: /only-mybot\n"),
                       0);
        QCOMPARE(gate.admit(job, 1).action, RobotsGate::Action::Block);
        Job other = jobFor(QStringLiteral("http://a.test/else"));
        QCOMPARE(gate.admit(other, 1).action, RobotsGate::Action::Start); // the * group does not apply
    }
};

QTEST_GUILESS_MAIN(TestRobotsGate)
#include "tst_robotsgate.moc"
