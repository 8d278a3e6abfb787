// A window Resume checks URLs and pages by the crawl's own scope and acceptance rules, kept in its crawl
// file (StoredCrawlConfig version 2), not by whatever the window's Crawl Rules say now (issue 11); a file
// whose stored rules were tampered with is refused with the reason. The crawls are real: the crawlscope
// executable with --store against the loopback test site, then the window itself; the server is the truth.
#include "../core/clitestsupport.h"
#include "crawlfiles/resumesettings.h"
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "pages/crawlruleseditor.h"
#include "store/crawlstore.h"
#include "store/storedcrawlconfig.h"
#include "testsite.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <signal.h>

namespace {

bool writeFile(const QString &path, const QByteArray &bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

bool setStoredSettings(const QString &path, const QMap<QString, QString> &values) {
    crawl::StoreError error;
    const std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &error);
    return store && store->setSettings(values);
}

// `crawlscope --export FILE` lines (header excluded).
QString rowOf(const QStringList &rows, const QString &url) {
    for (const QString &row : rows) {
        if (row.startsWith(url + QLatin1Char(',')))
            return row;
    }
    return {};
}

// An unfinished crawl file: the crawlscope executable, interrupted (SIGINT) after its first request.
bool interruptedCrawl(testsite::TestSite &site, const QString &list, const QString &crawlFile,
                      const QString &csv) {
    QProcess cli;
    cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    cli.start(QStringLiteral(CRAWLSCOPE_BINARY),
              {QStringLiteral("--headless"), QStringLiteral("--quiet"), QStringLiteral("--input"), list,
               QStringLiteral("--store"), crawlFile, QStringLiteral("--output"), csv,
               QStringLiteral("--robots"), QStringLiteral("ignore"), QStringLiteral("--per-host"),
               QStringLiteral("1"), QStringLiteral("--interval-ms"), QStringLiteral("5000")});
    if (!cli.waitForStarted(10'000) || !QTest::qWaitFor([&] { return site.totalRequests() >= 1; }, 20'000))
        return false;
    ::kill(pid_t(cli.processId()), SIGINT);
    return cli.waitForFinished(30'000) && cli.exitCode() == 130;
}

} // namespace

class TestResumeRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void storedRulesWinOverTheWindowsRules() {
        crawl::CrawlQuality window;
        window.scope.addExclude(QStringLiteral("mine"));
        window.acceptance.minBytes = 5;
        crawl::StoredCrawlConfig stored;
        stored.hasRules = true;
        stored.scope.addInclude(QStringLiteral("theirs"));
        stored.acceptance.expectTitle = true;
        const crawl::CrawlLimits limits;
        const crawl::FetchPolicy policy;
        const ui::ResumeSettings chosen = ui::ResumeSettings::decide(stored, limits, policy, window);
        QCOMPARE(chosen.quality.scope.includePatterns(), QStringList{QStringLiteral("theirs")});
        QVERIFY(chosen.quality.scope.excludePatterns().isEmpty());
        QVERIFY(chosen.quality.acceptance.expectTitle);
        QCOMPARE(chosen.quality.acceptance.minBytes, qint64(0));
        // An older record kept no rules: the window's apply.
        stored.hasRules = false;
        const ui::ResumeSettings older = ui::ResumeSettings::decide(stored, limits, policy, window);
        QCOMPARE(older.quality.scope.excludePatterns(), QStringList{QStringLiteral("mine")});
        QCOMPARE(older.quality.acceptance.minBytes, qint64(5));
    }

    void windowResumeAppliesTheCrawlsOwnRules() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress(QStringLiteral("127.0.0.6")), 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("urls.txt"));
        const QString crawlFile = dir.filePath(QStringLiteral("rules.crawl"));
        QVERIFY(writeFile(list, site.urlList(host, 6, QStringLiteral("/r%1?ms=100"))));
        QVERIFY(interruptedCrawl(site, list, crawlFile, dir.filePath(QStringLiteral("first.csv"))));

        // The crawl's record (as the frontier writes it): robots.txt ignored, /r4 out of scope, pages
        // under 1,000,000 bytes rejected.
        crawl::CrawlLimits limits;
        limits.perHostInFlight = 1;
        limits.intervalMs = 100;
        crawl::CrawlQuality quality;
        quality.robots = crawl::RobotsMode::Ignore;
        quality.scope.addExclude(QStringLiteral("/r4\\?"));
        quality.acceptance.minBytes = 1'000'000;
        QVERIFY(setStoredSettings(
            crawlFile, {{crawl::StoredCrawlConfig::kSettingsKey,
                         crawl::StoredCrawlConfig::from(limits, crawl::FetchPolicy{}, quality).toJson()}}));

        // The window's own rules say otherwise: obey robots.txt, exclude /r5, accept any size.
        auto owned = std::make_unique<ui::MainWindow>();
        ui::MainWindow &window = *owned;
        window.setConfirmationsEnabled(false);
        ui::CrawlRules rules;
        rules.robots = QStringLiteral("obey");
        rules.exclude = QStringLiteral("/r5\\?");
        window.crawlRules()->setRules(rules);
        QSignalSpy opened(&window, &ui::MainWindow::crawlFileOpened);
        window.openCrawl(crawlFile); // File > Open Crawl
        QVERIFY(opened.wait(20'000));
        QVERIFY(opened.last().at(2).toBool()); // unfinished
        site.resetRecords();
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        QVERIFY(window.resumeCrawl(window.crawlFile())); // Resume
        QVERIFY(finished.wait(60'000));

        QStringList targets;
        for (const testsite::RequestRecord &request : site.requests(host))
            targets << request.target;
        QVERIFY2(!targets.contains(QStringLiteral("/robots.txt")),
                 qPrintable(targets.join(QLatin1Char(' '))));
        QVERIFY2(!targets.contains(QStringLiteral("/r4?ms=100")), qPrintable(targets.join(QLatin1Char(' '))));
        QVERIFY2(targets.contains(QStringLiteral("/r5?ms=100")), qPrintable(targets.join(QLatin1Char(' '))));

        owned.reset(); // lets go of the crawl file, so --export can read it
        const QStringList rows = clitest::exportedRows(crawlFile, dir.filePath(QStringLiteral("export.csv")));
        QCOMPARE(rows.size(), 6);
        const QString excluded = rowOf(rows, site.baseUrl(host) + QStringLiteral("/r4?ms=100"));
        QVERIFY2(excluded.contains(QLatin1String(",excluded,")), qPrintable(excluded));
        const QString fetched = rowOf(rows, site.baseUrl(host) + QStringLiteral("/r5?ms=100"));
        QVERIFY2(fetched.contains(QLatin1String(",ok,")) &&
                     fetched.contains(QLatin1String("minimum 1000000")),
                 qPrintable(fetched));
    }

    void tamperedStoredRulesRefuseTheResume() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress(QStringLiteral("127.0.0.7")), 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("urls.txt"));
        const QString crawlFile = dir.filePath(QStringLiteral("tampered.crawl"));
        QVERIFY(writeFile(list, site.urlList(host, 3, QStringLiteral("/t%1?ms=100"))));
        QVERIFY(interruptedCrawl(site, list, crawlFile, dir.filePath(QStringLiteral("first.csv"))));
        QVERIFY(setStoredSettings(
            crawlFile,
            {{crawl::StoredCrawlConfig::kSettingsKey,
              QStringLiteral(
                  R"({"version":2,"rules":{"acceptance":{"expectedRegex":{"pattern":"?x"}}}})")}}));

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        QSignalSpy opened(&window, &ui::MainWindow::crawlFileOpened);
        window.openCrawl(crawlFile);
        QVERIFY(opened.wait(20'000));
        site.resetRecords();
        QVERIFY(!window.resumeCrawl(window.crawlFile()));
        const QString message = window.statusBar()->currentMessage();
        QVERIFY2(message.contains(QLatin1String("not a valid regular expression")), qPrintable(message));
        QVERIFY(!crawl::isActive(window.engine()->state()));
        QCOMPARE(site.totalRequests(), qint64(0));
    }
};

QTEST_MAIN(TestResumeRules)
#include "tst_resumerules.moc"
