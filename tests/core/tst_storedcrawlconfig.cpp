// The settings a crawl file keeps for whoever resumes it (StoredCrawlConfig): every limit and request
// setting survives the round trip, credentials are never written, and a hostile or damaged record is
// refused or falls back field by field instead of reaching the engine.
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
};

QTEST_GUILESS_MAIN(TestStoredCrawlConfig)
#include "tst_storedcrawlconfig.moc"
