// The window's crawl rules and what it shows of them, as pure functions and values: the Crawl Rules
// settings checked field by field (a bad line is an error naming it, never dropped), saved and read back;
// the acceptance filter's reading of the core's reject reasons; the hosts table's yield, 429 rate and
// queue age; the result store keeping accepted / reject reason / title / warning for the CSV.
#include "charts/snapshotbinner.h"
#include "commandlinequality.h"
#include "freshsettings.h"
#include "input/urlnormalizer.h"
#include "models/acceptancefilter.h"
#include "models/hostquality.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "models/resultsorter.h"
#include "models/resultstore.h"
#include "output/csvwriter.h"
#include "policy/acceptancecheck.h"
#include "settings/crawlrules.h"

#include <QAbstractItemModelTester>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using Accepted = crawl::CrawlResult::Accepted;

Q_DECLARE_METATYPE(ui::CrawlRules)

namespace {

crawl::CrawlResult result(quint64 id, const QString &url, Accepted accepted, const QString &reason,
                          const QString &title) {
    crawl::CrawlResult r;
    r.id = id;
    r.lineNumber = qint64(id) + 1;
    r.url = url;
    r.host = QStringLiteral("127.0.0.1:8080");
    r.status = 200;
    r.outcome = crawl::Outcome::Ok;
    r.accepted = accepted;
    r.rejectReason = reason;
    r.title = title;
    return r;
}

} // namespace

class TestCrawlRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void defaultsObeyRobotsLikeTheCommandLine() {
        const ui::CrawlRulesParse parse = ui::parseCrawlRules(ui::CrawlRules{});
        QCOMPARE(parse.error, QString());
        QCOMPARE(parse.quality.robots, crawl::RobotsMode::Obey);
        QCOMPARE(parse.quality.robotsAgent, QByteArray("crawlscope"));
        QVERIFY(!parse.quality.scope.restrictsAnything());
        QCOMPARE(parse.quality.acceptance.statuses, (QList<crawl::StatusRange>{{200, 299}}));
        QCOMPARE(parse.quality.acceptance.soft404, crawl::Soft404Mode::Report);
    }

    void everyFieldReachesTheQuality() {
        ui::CrawlRules rules;
        rules.robots = QStringLiteral("Report");
        rules.robotsAgent = QStringLiteral("my_bot");
        rules.ignoreCrawlDelay = true;
        rules.include = QStringLiteral("# only the shop\n\n^http://shop\\.test/\n");
        rules.exclude = QStringLiteral("\\.pdf$\n  /private  \n");
        rules.allowedHosts = QStringLiteral("shop.test\n*.cdn.test:8080\n");
        rules.expectStatus = QStringLiteral("200-299, 304");
        rules.expectType = QStringLiteral("text/html, application/json; charset=utf-8");
        rules.expectText = QStringLiteral("Add to cart");
        rules.expectRegex = QStringLiteral("SKU-\\d+");
        rules.expectTitle = true;
        rules.minBytes = 512;
        rules.soft404 = QStringLiteral("reject");
        const ui::CrawlRulesParse parse = ui::parseCrawlRules(rules);
        QCOMPARE(parse.error, QString());
        const crawl::CrawlQuality &q = parse.quality;
        QCOMPARE(q.robots, crawl::RobotsMode::Report);
        QCOMPARE(q.robotsAgent, QByteArray("my_bot"));
        QVERIFY(q.ignoreCrawlDelay);
        QCOMPARE(int(q.scope.allowedHostCount()), 2);
        // The scope as the engine asks it: excluded with the rule named, comments and blank lines skipped.
        const crawl::ScopeDecision pdf =
            q.scope.check(crawl::normalizeUrl(QStringLiteral("http://shop.test/a.pdf")));
        QVERIFY(!pdf.inScope);
        QVERIFY2(pdf.rule.contains(QStringLiteral("\\.pdf$")), qPrintable(pdf.rule));
        QVERIFY(!q.scope.check(crawl::normalizeUrl(QStringLiteral("http://shop.test/private/x"))).inScope);
        QVERIFY(q.scope.check(crawl::normalizeUrl(QStringLiteral("http://shop.test/item"))).inScope);
        QVERIFY(!q.scope.check(crawl::normalizeUrl(QStringLiteral("http://other.test/item"))).inScope);
        const crawl::AcceptanceCriteria &a = q.acceptance;
        QCOMPARE(a.statuses, (QList<crawl::StatusRange>{{200, 299}, {304, 304}}));
        QCOMPARE(a.contentTypes, (QList<QByteArray>{"text/html", "application/json"}));
        QCOMPARE(a.expectedText, QStringLiteral("Add to cart"));
        QCOMPARE(a.expectedRegex.pattern(), QStringLiteral("SKU-\\d+"));
        QVERIFY(a.expectTitle);
        QCOMPARE(a.minBytes, qint64(512));
        QCOMPARE(a.soft404, crawl::Soft404Mode::Reject);
    }

    void badFieldsAreNamedErrors_data() {
        QTest::addColumn<ui::CrawlRules>("rules");
        QTest::addColumn<int>("field");
        QTest::addColumn<QString>("mentions");
        ui::CrawlRules r;
        r.exclude = QStringLiteral("\\.pdf$\n# fine\n[unclosed\n");
        QTest::newRow("exclude regex")
            << r << int(ui::CrawlRulesField::Exclude) << QStringLiteral("Exclude, line 3: \"[unclosed\"");
        r = {};
        r.include = QStringLiteral("(a");
        QTest::newRow("include regex")
            << r << int(ui::CrawlRulesField::Include) << QStringLiteral("Include, line 1");
        r = {};
        r.robots = QStringLiteral("sometimes");
        QTest::newRow("robots mode") << r << int(ui::CrawlRulesField::Robots) << QStringLiteral("sometimes");
        r = {};
        r.robotsAgent = QStringLiteral("bad agent/1");
        QTest::newRow("agent") << r << int(ui::CrawlRulesField::RobotsAgent) << QStringLiteral("bad agent/1");
        r = {};
        r.allowedHosts = QStringLiteral("ok.test\nhttp://a.test/path\n");
        QTest::newRow("allowed host")
            << r << int(ui::CrawlRulesField::AllowedHosts) << QStringLiteral("line 2");
        r = {};
        r.expectStatus = QStringLiteral("2x0");
        QTest::newRow("status") << r << int(ui::CrawlRulesField::ExpectStatus) << QStringLiteral("2x0");
        r = {};
        r.expectType = QStringLiteral("html");
        QTest::newRow("type") << r << int(ui::CrawlRulesField::ExpectType) << QStringLiteral("html");
        r = {};
        r.expectRegex = QStringLiteral("a)");
        QTest::newRow("expect regex")
            << r << int(ui::CrawlRulesField::ExpectRegex) << QStringLiteral("Expected regex: \"a)\"");
        r = {};
        r.soft404 = QStringLiteral("maybe");
        QTest::newRow("soft 404") << r << int(ui::CrawlRulesField::Soft404) << QStringLiteral("maybe");
        r = {};
        r.minBytes = -1;
        QTest::newRow("min bytes") << r << int(ui::CrawlRulesField::MinBytes) << QStringLiteral("negative");
    }
    void badFieldsAreNamedErrors() {
        QFETCH(ui::CrawlRules, rules);
        QFETCH(int, field);
        QFETCH(QString, mentions);
        const ui::CrawlRulesParse parse = ui::parseCrawlRules(rules);
        QVERIFY2(parse.error.contains(mentions), qPrintable(parse.error));
        QCOMPARE(int(parse.field), field);
        // All or nothing: the good lines before the bad one are not applied either.
        QVERIFY(!parse.quality.scope.restrictsAnything());
        QCOMPARE(parse.quality.robots, crawl::CrawlQuality{}.robots);
    }

    void commandLineQualityFlags() {
        QVERIFY(!ui::namesQualityFlag({}));
        QVERIFY(!ui::namesQualityFlag({QStringLiteral("per-host"), QStringLiteral("timeout")}));
        for (const char *flag : {"robots", "robots-agent", "ignore-crawl-delay", "include", "exclude",
                                 "allow-hosts", "expect-status", "expect-type", "expect-text", "expect-regex",
                                 "expect-title", "min-bytes", "soft-404", "soft-404-pattern"})
            QVERIFY2(ui::namesQualityFlag({QStringLiteral("per-host"), QLatin1String(flag)}), flag);
    }

    void savedAndReadBack() {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("rules.ini")), QSettings::IniFormat);
        QCOMPARE(ui::loadCrawlRules(settings), ui::CrawlRules{}); // nothing saved: the defaults
        ui::CrawlRules rules;
        rules.robots = QStringLiteral("ignore");
        rules.exclude = QStringLiteral("a\nb");
        rules.expectTitle = true;
        rules.minBytes = 1LL << 33;
        rules.soft404 = QStringLiteral("off");
        ui::saveCrawlRules(settings, rules);
        settings.sync();
        QSettings again(dir.filePath(QStringLiteral("rules.ini")), QSettings::IniFormat);
        QCOMPARE(ui::loadCrawlRules(again), rules);
    }

    // The filter reads the reasons as the core words them: built by the core's own check here.
    void acceptanceFilterReadsTheCoresReasons() {
        crawl::AcceptanceCriteria criteria;
        criteria.expectedText = QStringLiteral("needle");
        criteria.minBytes = 1000;
        criteria.expectTitle = true;
        criteria.contentTypes = {"application/json"};
        crawl::AcceptanceFacts facts;
        facts.status = 404;
        facts.contentType = "text/html";
        facts.bodyPrefix = "<html><title>Page not found</title><h1>Page not found</h1></html>";
        facts.totalBytes = facts.bodyPrefix.size();
        facts.page = crawl::extractHtmlPageFacts(facts.bodyPrefix, facts.contentType);
        const crawl::AcceptanceVerdict verdict = crawl::checkAcceptance(criteria, facts);
        QCOMPARE(verdict.accepted, crawl::AcceptanceVerdict::Accepted::No);
        using F = ui::AcceptanceFilter;
        QCOMPARE(F::checksOf(verdict.reason),
                 quint32(F::StatusCheck | F::ContentTypeCheck | F::SizeCheck | F::TextCheck));
        // A 200 with an error template, rejected as a soft 404.
        criteria = {};
        criteria.soft404 = crawl::Soft404Mode::Reject;
        facts.status = 200;
        QCOMPARE(F::checksOf(crawl::checkAcceptance(criteria, facts).reason), quint32(F::Soft404Check));
        criteria = {};
        criteria.expectTitle = true;
        criteria.expectedRegex = QRegularExpression(QStringLiteral("x\\d"));
        facts.status = 200;
        facts.bodyPrefix = "<html><body>nothing</body></html>";
        facts.page = crawl::extractHtmlPageFacts(facts.bodyPrefix, facts.contentType);
        QCOMPARE(F::checksOf(crawl::checkAcceptance(criteria, facts).reason),
                 quint32(F::TitleCheck | F::RegexCheck));
        QCOMPARE(F::checksOf(QStringLiteral("something new")), quint32(F::OtherCheck));
        QCOMPARE(F::checksOf(QString()), 0u);

        F filter;
        QVERIFY(filter.showsAll());
        QVERIFY(filter.accepts(Accepted::Unknown, 0));
        filter.setShown(Accepted::Yes, false);
        filter.setShown(Accepted::Unknown, false);
        QVERIFY(filter.accepts(Accepted::No, F::StatusCheck));
        QVERIFY(!filter.accepts(Accepted::Yes, 0));
        filter.setChecks(F::Soft404Check);
        QVERIFY(!filter.accepts(Accepted::No, F::StatusCheck));
        QVERIFY(filter.accepts(Accepted::No, F::StatusCheck | F::Soft404Check));
    }

    void hostQualityFigures() {
        crawl::HostSnapshot h;
        QCOMPARE(ui::hostYield(h), -1.0);
        QCOMPARE(ui::host429Rate(h), -1.0);
        QCOMPARE(ui::shareText(-1), QString());
        QCOMPARE(ui::queueAgeText(h), QString());
        h.ok = 8;
        h.accepted = 6;
        h.responses = 250;
        h.status429 = 1;
        QCOMPARE(ui::hostYield(h), 0.75);
        QCOMPARE(ui::shareText(ui::hostYield(h)), QStringLiteral("75 %"));
        QCOMPARE(ui::shareText(ui::host429Rate(h)), QStringLiteral("0.4 %"));
        QCOMPARE(ui::shareText(0), QStringLiteral("0 %"));
        h.queued = 3;
        h.oldestQueuedAgeMs = 12'340;
        QCOMPARE(ui::queueAgeText(h), QStringLiteral("12.3 s"));
        h.oldestQueuedAgeMs = 245'000;
        QCOMPARE(ui::queueAgeText(h), QStringLiteral("4 min 05 s"));
        h.queued = 0; // nothing waits: no age, whatever the last value said
        QCOMPARE(ui::queueAgeText(h), QString());
    }

    // The throughput chart's raw and accepted lines: ok and accepted results per second.
    void binsRateRawAndAccepted() {
        ui::SnapshotBinner binner(1000);
        crawl::CrawlSnapshot s;
        s.state = crawl::CrawlState::Running;
        const qint64 t0 = 1'700'000'000'000;
        QList<ui::ChartBin> bins;
        for (int i = 0; i < 13; ++i) { // every 250 ms: 10 more ok results, 6 of them accepted
            s.elapsedMs = i * 250;
            s.done = s.ok = 10 * i;
            s.accepted = 6 * i;
            s.rejected = 4 * i;
            bins += binner.add(s, t0 + i * 250);
        }
        QCOMPARE(bins.size(), 3);
        for (const ui::ChartBin &bin : std::as_const(bins)) {
            QCOMPARE(bin.okPerSec, 40.0);
            QCOMPARE(bin.acceptedPerSec, 24.0);
        }
    }

    void storeKeepsTheAcceptanceColumns() {
        static_assert(sizeof(ui::ResultStore::Row) == 64);
        ui::ResultStore store;
        crawl::CrawlResult a =
            result(0, QStringLiteral("http://a.test/1"), Accepted::No,
                   QStringLiteral("soft 404: title \"Page not found\""), QStringLiteral("Page not found"));
        a.warning = QStringLiteral("redirected to a private address");
        store.append(a);
        store.append(
            result(1, QStringLiteral("http://a.test/2"), Accepted::Yes, {}, QStringLiteral("Zürich ✓")));
        store.append(result(2, QStringLiteral("http://a.test/3"), Accepted::Unknown, {}, {}));
        QCOMPARE(store.accepted(0), Accepted::No);
        QCOMPARE(store.title(1), QStringLiteral("Zürich ✓"));
        QCOMPARE(store.url(1), QStringLiteral("http://a.test/2")); // the title does not run into the URL
        QCOMPARE(store.title(2), QString());
        const crawl::CrawlResult back = store.result(0);
        QCOMPARE(back.accepted, Accepted::No);
        QCOMPARE(back.rejectReason, a.rejectReason);
        QCOMPARE(back.title, a.title);
        QCOMPARE(back.warning, a.warning);
        // The window's CSV row is the command line's row for the same result.
        QCOMPARE(crawl::resultCsvRow(back), crawl::resultCsvRow(a));
        // A retry replaces the row and its acceptance.
        store.replace(
            0, result(0, QStringLiteral("http://a.test/1"), Accepted::Yes, {}, QStringLiteral("Shop")));
        QCOMPARE(store.accepted(0), Accepted::Yes);
        QCOMPARE(store.rejectReason(0), QString());
        QCOMPARE(store.title(0), QStringLiteral("Shop"));
    }

    void filterAndSortByAcceptance() {
        ui::ResultsModel model;
        QAbstractItemModelTester tester(&model);
        ui::ResultFilterSortModel proxy;
        proxy.setResultsModel(&model);
        QAbstractItemModelTester proxyTester(&proxy);
        const QString soft = QStringLiteral("soft 404: title \"Not found\"");
        const QString status = QStringLiteral("status 500 not in 200-299");
        model.addResults(
            {result(0, QStringLiteral("http://a.test/0"), Accepted::Yes, {},
                    QStringLiteral("A long title shared by many pages: 2")),
             result(1, QStringLiteral("http://a.test/1"), Accepted::No, soft, QStringLiteral("Not found")),
             result(2, QStringLiteral("http://a.test/2"), Accepted::No, status, {}),
             result(3, QStringLiteral("http://a.test/3"), Accepted::Unknown, {}, {}),
             result(4, QStringLiteral("http://a.test/4"), Accepted::Yes, {},
                    QStringLiteral("A long title shared by many pages: 1"))});
        QCOMPARE(model.acceptedCount(Accepted::No), qint64(2));
        QCOMPARE(model.index(1, ui::ResultsModel::AcceptedColumn).data().toString(), QStringLiteral("no"));
        QCOMPARE(model.index(3, ui::ResultsModel::AcceptedColumn).data().toString(), QString());
        QCOMPARE(model.index(1, ui::ResultsModel::RejectReasonColumn).data().toString(), soft);
        QCOMPARE(model.index(1, ui::ResultsModel::TitleColumn).data().toString(),
                 QStringLiteral("Not found"));

        ui::AcceptanceFilter filter;
        filter.setShown(Accepted::Yes, false);
        filter.setShown(Accepted::Unknown, false);
        proxy.setAcceptanceFilter(filter);
        QCOMPARE(proxy.sourceRows(), (std::vector<int>{1, 2}));
        filter.setChecks(ui::AcceptanceFilter::Soft404Check);
        proxy.setAcceptanceFilter(filter);
        QCOMPARE(proxy.sourceRows(), (std::vector<int>{1}));
        // New rows pass the same filter as they stream in.
        model.addResults({result(5, QStringLiteral("http://a.test/5"), Accepted::No, soft, {})});
        QCOMPARE(proxy.sourceRows(), (std::vector<int>{1, 5}));
        proxy.setAcceptanceFilter({});
        QCOMPARE(proxy.rowCount(), 6);

        // Titles that share their first 16 bytes still sort by the whole title.
        const ui::ResultSorter byTitle(model.store(), ui::ResultsModel::TitleColumn, Qt::AscendingOrder);
        const std::vector<int> sorted = byTitle.sorted({0, 1, 2, 3, 4, 5});
        QCOMPARE(sorted, (std::vector<int>{2, 3, 5, 4, 0, 1}));
        QVERIFY(byTitle.rowLess(4, 0));
        const ui::ResultSorter byAccepted(model.store(), ui::ResultsModel::AcceptedColumn,
                                          Qt::AscendingOrder);
        QCOMPARE(byAccepted.sorted({0, 1, 2, 3}), (std::vector<int>{3, 0, 1, 2}));
    }
};

QTEST_GUILESS_MAIN(TestCrawlRules)
#include "tst_crawlrules.moc"
