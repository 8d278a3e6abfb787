// The settings a crawl file keeps for whoever resumes it (StoredCrawlConfig): every limit and request
// setting survives the round trip, credentials are never written, and a hostile or damaged record is
// refused or falls back field by field instead of reaching the engine.
#include "input/urlnormalizer.h"
#include "model/settingranges.h"
#include "store/storedcrawlconfig.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace crawl;

class TestStoredCrawlConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripKeepsLimitsPolicyAndRobots() {
        CrawlLimits limits;
        limits.globalInFlight = 7;
        limits.perHostInFlight = 1;
        limits.intervalMs = 300;
        limits.jitter = 0.25;
        limits.maxRatePerSec = 12.5;
        limits.adaptive = true;
        limits.hostOverrides.insert(QStringLiteral("slow.example:443"), HostOverride{1, 2000});
        FetchPolicy policy;
        policy.maxRetries = 5;
        policy.totalTimeoutS = 12;
        policy.maxBodyBytes = qint64(3) << 32; // beyond 32 bits
        policy.userAgent = QStringLiteral("probe/1.0");
        policy.headers = {{"X-Team", "seo"}, {"Authorization", "Bearer secret"}, {"Cookie", "sid=1"}};
        policy.breaker.threshold = 0.5;
        CrawlQuality quality;
        quality.robots = RobotsMode::Report;
        quality.robotsAgent = "mybot";
        quality.ignoreCrawlDelay = true;

        const QString json = StoredCrawlConfig::from(limits, policy, quality).toJson();
        QVERIFY2(!json.contains(QLatin1String("secret")) && !json.contains(QLatin1String("sid=1")),
                 qPrintable(json)); // credentials never reach the file
        const auto back = StoredCrawlConfig::fromSettings({{StoredCrawlConfig::kSettingsKey, json}});
        QVERIFY(back);
        QCOMPARE(back->limits, limits);
        FetchPolicy expected = policy;
        expected.headers = {{"X-Team", "seo"}};
        QCOMPARE(back->policy, expected);
        QCOMPARE(back->robots, RobotsMode::Report);
        QCOMPARE(back->robotsAgent, QByteArray("mybot"));
        QVERIFY(back->ignoreCrawlDelay);
    }

    void missingOrDamagedRecordIsNone() {
        QVERIFY(!StoredCrawlConfig::fromSettings({}));
        QVERIFY(!StoredCrawlConfig::fromJson(QStringLiteral("{not json")));
        QVERIFY(!StoredCrawlConfig::fromJson(QStringLiteral("[1,2]")));
        QVERIFY(!StoredCrawlConfig::fromJson(QStringLiteral("{\"limits\":{}}")));  // no version
        QVERIFY(!StoredCrawlConfig::fromJson(QStringLiteral("{\"version\":99}"))); // a newer writer
    }

    void hostileValuesFallBackToDefaults() {
        const QByteArray json = R"({"version":1,
            "limits":{"globalInFlight":-5,"perHostInFlight":1e12,"intervalMs":"300","jitter":7,
                      "hostOverrides":{"a:80":{"maxInFlight":-1,"intervalMs":-9}}},
            "policy":{"maxRetries":1e9,"totalTimeoutS":0,"userAgent":"x\nInjected: 1",
                      "headers":[["X-Ok","1"],["X-Bad","a\r\nInjected: 1"],["Proxy-Authorization","x"],["lonely"]]},
            "quality":{"robots":"sometimes","robotsAgent":""}})";
        const auto c = StoredCrawlConfig::fromJson(QString::fromUtf8(json));
        QVERIFY(c);
        const CrawlLimits defaults;
        QCOMPARE(c->limits.globalInFlight, defaults.globalInFlight);
        QCOMPARE(c->limits.perHostInFlight, defaults.perHostInFlight);
        QCOMPARE(c->limits.intervalMs, defaults.intervalMs); // a string is not a number
        QCOMPARE(c->limits.jitter, defaults.jitter);
        QCOMPARE(c->limits.hostOverrides.value(QStringLiteral("a:80")), (HostOverride{0, -1}));
        const FetchPolicy policyDefaults;
        QCOMPARE(c->policy.maxRetries, policyDefaults.maxRetries);
        QCOMPARE(c->policy.totalTimeoutS, policyDefaults.totalTimeoutS);
        QCOMPARE(c->policy.userAgent, policyDefaults.userAgent);
        QCOMPARE(c->policy.headers, (QList<QPair<QByteArray, QByteArray>>{{"X-Ok", "1"}}));
        QCOMPARE(c->robots, RobotsMode::Ignore);
        QVERIFY(c->robotsAgent.isEmpty());
    }

    // A crawl file may be hostile: it can ask for nothing the command line refuses (settingranges.h).
    void limitsStayInCommandLineRanges() {
        const auto tampered = StoredCrawlConfig::fromJson(QStringLiteral(
            R"({"version":1,"limits":{"globalInFlight":100000,"perHostInFlight":100000},
                "policy":{"idleTimeoutS":2147483647,"maxRetryAfterS":2147483647,"maxRetries":1000,
                          "maxRedirects":1000,"maxBodyBytes":0,"userAgent":"x\rInjected: 1",
                          "breaker":{"threshold":0}}})"));
        QVERIFY(tampered);
        const CrawlLimits limits;
        const FetchPolicy policy;
        QCOMPARE(tampered->limits.globalInFlight, limits.globalInFlight);
        QCOMPARE(tampered->limits.perHostInFlight, limits.perHostInFlight);
        QCOMPARE(tampered->policy.idleTimeoutS, policy.idleTimeoutS);
        QCOMPARE(tampered->policy.maxRetryAfterS, policy.maxRetryAfterS);
        QCOMPARE(tampered->policy.maxRetries, policy.maxRetries);
        QCOMPARE(tampered->policy.maxRedirects, policy.maxRedirects);
        QCOMPARE(tampered->policy.maxBodyBytes, policy.maxBodyBytes);
        QCOMPARE(tampered->policy.userAgent, policy.userAgent);
        QCOMPARE(tampered->policy.breaker.threshold, policy.breaker.threshold);

        // The largest values the command line accepts come back as they are.
        namespace R = settingrange;
        const auto edge = StoredCrawlConfig::fromJson(
            QStringLiteral(R"({"version":1,"limits":{"globalInFlight":%1,"perHostInFlight":%2},
                "policy":{"idleTimeoutS":%3,"maxRetryAfterS":%4,"maxBodyBytes":%5}})")
                .arg(R::globalInFlight.max)
                .arg(R::perHostInFlight.max)
                .arg(R::idleTimeoutS.max)
                .arg(R::maxRetryAfterS.max)
                .arg(R::maxBodyBytes.max));
        QVERIFY(edge);
        QCOMPARE(edge->limits.globalInFlight, 4096);
        QCOMPARE(edge->limits.perHostInFlight, 1024);
        QCOMPARE(edge->policy.idleTimeoutS, 86'400);
        QCOMPARE(edge->policy.maxRetryAfterS, 86'400);
        QCOMPARE(edge->policy.maxBodyBytes, qint64(1) << 40);
    }
    // Version 2 keeps the scope and acceptance rules; they come back as the same working rules.
    void roundTripKeepsScopeAndAcceptance() {
        CrawlQuality quality;
        QVERIFY(quality.scope.addInclude(QStringLiteral("^https?://[^/]+/keep/")).isEmpty());
        QVERIFY(quality.scope.addExclude(QStringLiteral("\\.pdf$")).isEmpty());
        QVERIFY(
            quality.scope.setAllowedHosts("a.example\n*.b.example:8080\n[::1]\n", QStringLiteral("hosts.txt"))
                .isEmpty());
        AcceptanceCriteria &a = quality.acceptance;
        a.statuses = {StatusRange{200, 204}, StatusRange{304, 304}};
        a.contentTypes = {"text/html", "application/*"};
        a.expectedText = QStringLiteral("Welcome, \"friend\"");
        a.expectedRegex = QRegularExpression(QStringLiteral("id=\\d+"));
        a.expectTitle = true;
        a.minBytes = 4096;
        a.soft404 = Soft404Mode::Reject;
        a.soft404Pattern =
            QRegularExpression(QStringLiteral("oops"), QRegularExpression::CaseInsensitiveOption);

        const QString json = StoredCrawlConfig::from({}, {}, quality).toJson();
        QString error;
        const auto back = StoredCrawlConfig::fromSettings({{StoredCrawlConfig::kSettingsKey, json}}, &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(error.isEmpty());
        QVERIFY(back->hasRules);
        QCOMPARE(back->scope.includePatterns(), quality.scope.includePatterns());
        QCOMPARE(back->scope.excludePatterns(), QStringList{QStringLiteral("\\.pdf$")});
        QVERIFY(back->scope.restrictsHosts());
        QCOMPARE(back->scope.allowedHostsText(), quality.scope.allowedHostsText());
        QCOMPARE(back->scope.allowedHostsFileName(), QStringLiteral("hosts.txt"));
        const auto check = [&](const char *url) {
            return back->scope.check(normalizeUrl(QString::fromLatin1(url))).inScope;
        };
        QVERIFY(check("http://a.example/keep/page"));
        QVERIFY(!check("http://a.example/keep/page.pdf")); // excluded
        QVERIFY(!check("http://a.example/other"));         // no include matched
        QVERIFY(check("http://x.b.example:8080/keep/1"));
        QVERIFY(!check("http://x.b.example/keep/1")); // port 80 is not 8080
        QVERIFY(!check("http://c.example/keep/1"));   // host not allowed
        const AcceptanceCriteria &b = back->acceptance;
        QCOMPARE(b.statuses, a.statuses);
        QCOMPARE(b.contentTypes, a.contentTypes);
        QCOMPARE(b.expectedText, a.expectedText);
        QCOMPARE(b.expectedRegex.pattern(), a.expectedRegex.pattern());
        QVERIFY(b.expectTitle);
        QCOMPARE(b.minBytes, qint64(4096));
        QCOMPARE(b.soft404, Soft404Mode::Reject);
        QCOMPARE(b.soft404Pattern.pattern(), QStringLiteral("oops"));
        QVERIFY(b.soft404Pattern.match(QStringLiteral("OOPS!")).hasMatch()); // options kept
    }

    // What the crawl file keeps (toSettings): the allowed hosts beside the record, not inside it, so a
    // limit change rewrites a small record; without the list the record is refused, not read as "every
    // host allowed".
    void allowedHostsAreKeptBesideTheRecord() {
        CrawlQuality quality;
        QByteArray hosts;
        for (int i = 0; i < 5000; ++i)
            hosts += "host" + QByteArray::number(i) + ".example\n";
        QVERIFY(quality.scope.setAllowedHosts(hosts, QStringLiteral("big.txt")).isEmpty());
        CrawlLimits limits;
        limits.globalInFlight = 7;
        const QMap<QString, QString> settings = StoredCrawlConfig::from(limits, {}, quality).toSettings();
        QCOMPARE(settings.size(), 2);
        QCOMPARE(settings.value(StoredCrawlConfig::kAllowedHostsKey).toUtf8(),
                 quality.scope.allowedHostsText());
        const QString record = settings.value(StoredCrawlConfig::kSettingsKey);
        QVERIFY2(record.size() < 2000, qPrintable(QString::number(record.size())));
        QVERIFY(!record.contains(QStringLiteral("host4999")));

        QString error;
        const auto back = StoredCrawlConfig::fromSettings(settings, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->limits.globalInFlight, 7);
        QCOMPARE(back->scope.allowedHostsText(), quality.scope.allowedHostsText());
        QCOMPARE(back->scope.allowedHostsFileName(), QStringLiteral("big.txt"));
        QVERIFY(back->scope.check(normalizeUrl(QStringLiteral("http://host4999.example/"))).inScope);
        QVERIFY(!back->scope.check(normalizeUrl(QStringLiteral("http://other.example/"))).inScope);

        const auto missing =
            StoredCrawlConfig::fromSettings({{StoredCrawlConfig::kSettingsKey, record}}, &error);
        QVERIFY(!missing);
        QVERIFY2(error.contains(QStringLiteral("allowed hosts list is missing")), qPrintable(error));

        // No host restriction: nothing beside the record.
        QCOMPARE(StoredCrawlConfig::from(limits, {}, CrawlQuality{}).toSettings().size(), 1);
    }

    // A version 1 record (written before rules were kept) still loads: limits, no rules.
    void versionOneRecordLoadsWithoutRules() {
        QString error;
        const auto old = StoredCrawlConfig::fromJson(
            QStringLiteral(R"({"version":1,"limits":{"intervalMs":1000},"quality":{"robots":"ignore"},
                "rules":{"scope":{"exclude":["x"]}}})"),
            &error);
        QVERIFY(old);
        QVERIFY(error.isEmpty());
        QCOMPARE(old->limits.intervalMs, 1000);
        QVERIFY(!old->hasRules); // a version 1 writer never wrote rules: these are not trusted
        QVERIFY(old->scope.excludePatterns().isEmpty());
        // Version 2 without rules (hand-written): limits, no rules.
        const auto bare = StoredCrawlConfig::fromJson(QStringLiteral(R"({"version":2})"), &error);
        QVERIFY(bare && !bare->hasRules && error.isEmpty());
    }

    // Tampered rules: refused with a message naming the problem, never a crash or a half-kept scope.
    void tamperedRulesAreRefusedWithAReason() {
        const auto refused = [](const QString &rules) {
            QString error;
            const auto c = StoredCrawlConfig::fromJson(
                QStringLiteral("{\"version\":2,\"rules\":%1}").arg(rules), &error);
            return c ? QStringLiteral("<accepted>") : error;
        };
        QString why = refused(QStringLiteral("{\"scope\":{\"exclude\":[\"*unclosed\"]}}"));
        QVERIFY2(why.contains(QLatin1String("--exclude")) && why.contains(QLatin1String("*unclosed")),
                 qPrintable(why));
        why = refused(QStringLiteral("{\"acceptance\":{\"expectedRegex\":{\"pattern\":\"[z-a]\"}}}"));
        QVERIFY2(why.contains(QLatin1String("not a valid regular expression")), qPrintable(why));
        why = refused(QStringLiteral("{\"acceptance\":{\"soft404Pattern\":{\"pattern\":\"a{2,1}\"}}}"));
        QVERIFY2(why.contains(QLatin1String("soft-404")), qPrintable(why));
        why = refused(QStringLiteral("{\"scope\":{\"include\":\"not a list\"}}"));
        QVERIFY2(why.contains(QLatin1String("not a list")), qPrintable(why));
        why = refused(QStringLiteral("{\"scope\":{\"include\":[7]}}"));
        QVERIFY2(why.contains(QLatin1String("not text")), qPrintable(why));
        why = refused(QStringLiteral("{\"acceptance\":{\"statuses\":\"2x0\"}}"));
        QVERIFY2(why.contains(QLatin1String("statuses")), qPrintable(why));
        why = refused(QStringLiteral("{\"scope\":{\"allowHosts\":{\"hosts\":\"a.example/b\\n\"}}}"));
        QVERIFY2(why.contains(QLatin1String("allowed hosts")), qPrintable(why));

        // Caps: pattern count and length, text length.
        QStringList many;
        for (qsizetype i = 0; i <= StoredCrawlConfig::kMaxPatterns; ++i)
            many << QStringLiteral("\"p%1\"").arg(i);
        why = refused(QStringLiteral("{\"scope\":{\"include\":[%1]}}").arg(many.join(QLatin1Char(','))));
        QVERIFY2(why.contains(QLatin1String("at most 1000")), qPrintable(why));
        const QString longPattern(StoredCrawlConfig::kMaxPatternLength + 1, QLatin1Char('a'));
        why = refused(QStringLiteral("{\"scope\":{\"exclude\":[\"%1\"]}}").arg(longPattern));
        QVERIFY2(why.contains(QLatin1String("at most 4096")), qPrintable(why));
        const QString longText(StoredCrawlConfig::kMaxTextLength + 1, QLatin1Char('t'));
        why = refused(QStringLiteral("{\"acceptance\":{\"expectedText\":\"%1\"}}").arg(longText));
        QVERIFY2(why.contains(QLatin1String("expected text")), qPrintable(why));
        QString hosts;
        for (qsizetype i = 0; i <= StoredCrawlConfig::kMaxAllowedHosts; ++i)
            hosts += QStringLiteral("h\\n");
        why = refused(QStringLiteral("{\"scope\":{\"allowHosts\":{\"hosts\":\"%1\"}}}").arg(hosts));
        QVERIFY2(why.contains(QLatin1String("allowed hosts")), qPrintable(why));

        // Out-of-range numbers and unknown options fall back, as the limits do; the record is kept.
        QString error;
        const auto odd = StoredCrawlConfig::fromJson(
            QStringLiteral(
                "{\"version\":2,\"rules\":{\"acceptance\":{\"minBytes\":-5,\"bodyPrefixBytes\":1e15,"
                "\"soft404\":\"maybe\",\"soft404Pattern\":{\"pattern\":\"\",\"options\":-1}}}}"),
            &error);
        QVERIFY2(odd, qPrintable(error));
        const AcceptanceCriteria defaults;
        QCOMPARE(odd->acceptance.minBytes, qint64(0));
        QCOMPARE(odd->acceptance.bodyPrefixBytes, defaults.bodyPrefixBytes);
        QCOMPARE(odd->acceptance.soft404, defaults.soft404);
        QCOMPARE(odd->acceptance.soft404Pattern.pattern(), defaults.soft404Pattern.pattern());
    }
};

QTEST_GUILESS_MAIN(TestStoredCrawlConfig)
#include "tst_storedcrawlconfig.moc"
