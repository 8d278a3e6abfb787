// `crawlscope --headless --resume CRAWL.db` of a crawl started in the window (issue 11): such a file keeps
// no command-line flags, only the settings record (StoredCrawlConfig) the crawl ran with. The resume runs
// with that record's limits, robots.txt mode and scope, not with the command line's defaults; flags given
// now override it, and redirect safety is the stricter of the two. What the server saw is the truth.
#include "clitestsupport.h"
#include "commandline.h"
#include "store/crawlstore.h"
#include "store/storedcrawlconfig.h"
#include "storedconfigoptions.h"
#include "testsite.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <signal.h>

using namespace clitest;

namespace {

bool setStoredSettings(const QString &path, const QMap<QString, QString> &values) {
    crawl::StoreError error;
    const std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &error);
    return store && store->setSettings(values);
}

crawl::CommandLineOptions parsed(const QStringList &flags) {
    const crawl::CommandLineParse parse =
        crawl::parseCommandLine(QStringList{QStringLiteral("crawlscope"), QStringLiteral("--headless"),
                                            QStringLiteral("--resume"), QStringLiteral("c.db")} +
                                flags);
    if (!parse.ok)
        qWarning() << parse.error;
    return parse.options;
}

// What a window crawl keeps: polite limits, robots.txt ignored, a scope, and acceptance rules.
crawl::StoredCrawlConfig windowCrawlRecord() {
    crawl::CrawlLimits limits;
    limits.globalInFlight = 8;
    limits.perHostInFlight = 1;
    limits.intervalMs = 1000;
    limits.hostOverrides.insert(QStringLiteral("slow.example:80"), crawl::HostOverride{1, 3000});
    crawl::FetchPolicy policy;
    policy.maxRetries = 0;
    policy.backoffCapMs = 7000;
    policy.refusePrivateRedirects = true;
    policy.sendCredentialsCrossOrigin = true;
    policy.headers = {{"X-Team", "seo"}};
    crawl::CrawlQuality quality;
    quality.robots = crawl::RobotsMode::Ignore;
    quality.scope.addExclude(QStringLiteral("/w6\\?"));
    quality.acceptance.minBytes = 1'000'000; // the test site's pages are smaller: rejected
    quality.acceptance.expectTitle = true;
    return crawl::StoredCrawlConfig::from(limits, policy, quality);
}

} // namespace

class TestCliResumeWindowCrawl : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // --- the decision (withStoredCrawlConfig) ----------------------------------------------------------

    void storedSettingsReplaceTheCommandLineDefaults() {
        const crawl::StoredCrawlConfig stored = windowCrawlRecord();
        const crawl::CommandLineOptions o = crawl::withStoredCrawlConfig(parsed({}), stored);
        QCOMPARE(o.limits, stored.limits);
        QCOMPARE(o.policy.maxRetries, 0);
        QCOMPARE(o.policy.backoffCapMs, 7000);
        QCOMPARE(o.policy.headers, stored.policy.headers);
        QCOMPARE(o.quality.robots, crawl::RobotsMode::Ignore); // the command line's default is obey
        QCOMPARE(o.quality.scope.excludePatterns(), QStringList{QStringLiteral("/w6\\?")});
        QCOMPARE(o.quality.acceptance.minBytes, qint64(1'000'000));
        QVERIFY(o.quality.acceptance.expectTitle);
        // Redirect safety: the stricter of both. The file asked for credentials across origins; the
        // command line did not, so they are not sent; the file's refusal of private redirects stays.
        QVERIFY(!o.policy.sendCredentialsCrossOrigin);
        QVERIFY(o.policy.refusePrivateRedirects);
    }

    void flagsGivenNowOverrideTheStoredOnes() {
        const crawl::StoredCrawlConfig stored = windowCrawlRecord();
        const crawl::CommandLineOptions o = crawl::withStoredCrawlConfig(
            parsed({QStringLiteral("--interval-ms=300"), QStringLiteral("--per-host=3"),
                    QStringLiteral("--host-limit=fast.example=2/0"), QStringLiteral("--robots=obey"),
                    QStringLiteral("--exclude=\\.zip$"), QStringLiteral("--min-bytes=0"),
                    QStringLiteral("--header=Authorization: Bearer now"),
                    QStringLiteral("--send-credentials-cross-origin")}),
            stored);
        QCOMPARE(o.limits.intervalMs, 300);
        QCOMPARE(o.limits.perHostInFlight, 3);
        QCOMPARE(o.limits.globalInFlight, 8);                                         // not given: stored
        QVERIFY(!o.limits.hostOverrides.contains(QStringLiteral("slow.example:80"))); // replaced
        QCOMPARE(o.limits.hostOverrides.value(QStringLiteral("fast.example:80")),
                 (crawl::HostOverride{2, 0}));
        QCOMPARE(o.quality.robots, crawl::RobotsMode::Obey);
        QCOMPARE(o.quality.scope.excludePatterns(), QStringList{QStringLiteral("\\.zip$")});
        QCOMPARE(o.quality.acceptance.minBytes, qint64(0));
        QVERIFY(o.quality.acceptance.expectTitle); // a switch the file set stays set
        // Credential headers are never stored: the ones given now are the ones sent.
        QCOMPARE(o.policy.headers, (QList<QPair<QByteArray, QByteArray>>{{"Authorization", "Bearer now"}}));
        QVERIFY(o.policy.sendCredentialsCrossOrigin); // both said yes
        QVERIFY(o.policy.refusePrivateRedirects);     // a flag cannot loosen what the file tightened
    }

    // --adaptive and the breaker are switches: the stored state stays unless the command line turns it on
    // (--adaptive, --breaker) or off (--no-adaptive, --no-breaker).
    void switchesTurnOnAndOff() {
        crawl::StoredCrawlConfig stored = windowCrawlRecord();
        stored.limits.adaptive = true;
        stored.policy.breaker.enabled = false;
        crawl::CommandLineOptions o = crawl::withStoredCrawlConfig(parsed({}), stored);
        QVERIFY(o.limits.adaptive);
        QVERIFY(!o.policy.breaker.enabled);
        o = crawl::withStoredCrawlConfig(
            parsed({QStringLiteral("--no-adaptive"), QStringLiteral("--breaker")}), stored);
        QVERIFY(!o.limits.adaptive);
        QVERIFY(o.policy.breaker.enabled);
        stored.limits.adaptive = false;
        stored.policy.breaker.enabled = true;
        o = crawl::withStoredCrawlConfig(
            parsed({QStringLiteral("--adaptive"), QStringLiteral("--no-breaker")}), stored);
        QVERIFY(o.limits.adaptive);
        QVERIFY(!o.policy.breaker.enabled);
    }

    void olderRecordKeepsTheCommandLinesRules() {
        crawl::StoredCrawlConfig stored = windowCrawlRecord();
        stored.hasRules = false; // a version 1 record
        const crawl::CommandLineOptions o =
            crawl::withStoredCrawlConfig(parsed({QStringLiteral("--include=keep")}), stored);
        QCOMPARE(o.quality.scope.includePatterns(), QStringList{QStringLiteral("keep")});
        QVERIFY(o.quality.scope.excludePatterns().isEmpty());
        QCOMPARE(o.limits.intervalMs, 1000);
    }

    // --- the real binary -------------------------------------------------------------------------------

    void resumeOfAWindowCrawlRunsWithItsStoredSettings() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("urls.txt"));
        const QString crawlFile = dir.filePath(QStringLiteral("window.crawl"));
        QVERIFY(writeFile(list, site.urlList(host, 8, QStringLiteral("/w%1?ms=700"))));

        // An unfinished crawl: started, interrupted after its first request.
        QProcess first;
        first.start(QStringLiteral(CRAWLSCOPE_BINARY),
                    {QStringLiteral("--headless"), QStringLiteral("--quiet"), QStringLiteral("--input"), list,
                     QStringLiteral("--store"), crawlFile, QStringLiteral("--output"),
                     dir.filePath(QStringLiteral("first.csv")), QStringLiteral("--robots"),
                     QStringLiteral("ignore"), QStringLiteral("--per-host"), QStringLiteral("1"),
                     QStringLiteral("--interval-ms"), QStringLiteral("5000")});
        QVERIFY(first.waitForStarted(10'000));
        QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 1; }, 20'000));
        ::kill(pid_t(first.processId()), SIGINT);
        QVERIFY(first.waitForFinished(30'000));
        QCOMPARE(first.exitCode(), 130);

        // Make it a window crawl: no command-line flags, the settings record as the window writes it.
        QVERIFY(setStoredSettings(crawlFile,
                                  {{QStringLiteral("cli.arguments"), QString()},
                                   {crawl::StoredCrawlConfig::kSettingsKey, windowCrawlRecord().toJson()}}));
        site.resetRecords();
        const QString csv = dir.filePath(QStringLiteral("resumed.csv"));
        const Run resumed = runCli({QStringLiteral("--headless"), QStringLiteral("--quiet"),
                                    QStringLiteral("--resume"), crawlFile, QStringLiteral("--output"), csv},
                                   {}, 60'000);
        QVERIFY2(resumed.finished && resumed.exitCode == 0, resumed.err.constData());

        // The server saw the stored limits (1 in flight, 1000 ms apart; the defaults are 2 and 500),
        // no robots.txt request (stored: ignore; the default obeys), and no request for the excluded URL.
        const QList<testsite::RequestRecord> requests = site.requests(host);
        QVERIFY2(requests.size() >= 5, qPrintable(QString::number(requests.size())));
        QCOMPARE(site.hostRecord(host).peakInFlight, 1);
        for (qsizetype i = 1; i < requests.size(); ++i) {
            const qint64 gapMs = (requests[i].startNs - requests[i - 1].startNs) / 1'000'000;
            QVERIFY2(gapMs >= 990, qPrintable(QStringLiteral("gap %1 ms").arg(gapMs)));
        }
        for (const testsite::RequestRecord &request : requests) {
            QVERIFY2(!request.target.startsWith(QLatin1String("/robots.txt")), "robots.txt was fetched");
            QVERIFY2(!request.target.startsWith(QLatin1String("/w6?")), "the excluded URL was fetched");
            QCOMPARE(request.header("X-Team"), QByteArray("seo")); // the stored header goes on
        }
        // One row per line for the whole crawl; the excluded URL says why, the acceptance check ran.
        bool ok = false;
        const QList<QStringList> rows = parseCsv(readFile(csv), &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), 9); // header + 8
        const QStringList *excluded = rowFor(rows, site.baseUrl(host) + QStringLiteral("/w6?ms=700"));
        QVERIFY(excluded);
        QCOMPARE(excluded->at(OutcomeCol), QStringLiteral("excluded"));
        // The stored acceptance rules judged the page (a 200 that the command line's would accept).
        const QStringList *fetched = rowFor(rows, site.baseUrl(host) + QStringLiteral("/w7?ms=700"));
        QVERIFY(fetched);
        QCOMPARE(fetched->at(OutcomeCol), QStringLiteral("ok"));
        QCOMPARE(fetched->at(Accepted), QStringLiteral("no"));
        QVERIFY2(fetched->at(RejectReason).contains(QLatin1String("1000000")),
                 qPrintable(fetched->at(RejectReason)));
    }

    // A tampered record whose rules cannot be kept refuses the resume, names the problem, fetches nothing.
    void tamperedRulesRefuseTheResume() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("urls.txt"));
        const QString crawlFile = dir.filePath(QStringLiteral("tampered.crawl"));
        QVERIFY(writeFile(list, site.urlList(host, 3, QStringLiteral("/t%1?hang=1"))));
        QProcess first;
        first.start(QStringLiteral(CRAWLSCOPE_BINARY),
                    quickFlags() + QStringList{QStringLiteral("--quiet"), QStringLiteral("--input"), list,
                                               QStringLiteral("--store"), crawlFile,
                                               QStringLiteral("--output"),
                                               dir.filePath(QStringLiteral("first.csv"))});
        QVERIFY(first.waitForStarted(10'000));
        QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 1; }, 20'000));
        ::kill(pid_t(first.processId()), SIGINT);
        QVERIFY(first.waitForFinished(30'000));
        QVERIFY(setStoredSettings(
            crawlFile, {{QStringLiteral("cli.arguments"), QString()},
                        {crawl::StoredCrawlConfig::kSettingsKey,
                         QStringLiteral(R"({"version":2,"rules":{"scope":{"exclude":["+oops"]}}})")}}));
        site.resetRecords();
        const Run resumed =
            runCli({QStringLiteral("--headless"), QStringLiteral("--quiet"), QStringLiteral("--resume"),
                    crawlFile, QStringLiteral("--output"), dir.filePath(QStringLiteral("resumed.csv"))});
        QVERIFY(resumed.finished);
        QCOMPARE(resumed.exitCode, 2);
        QVERIFY2(resumed.err.contains("--exclude") && resumed.err.contains("+oops"), resumed.err.constData());
        QCOMPARE(site.totalRequests(), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestCliResumeWindowCrawl)
#include "tst_cli_resumewindowcrawl.moc"
