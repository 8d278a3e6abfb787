// The demo's settings: the one definition the window and the headless demo use.
#include "demosettings.h"

#include <QTest>

class TestDemoSettings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gentlerThanTheDefaults() {
        const demo::DemoSettings s = demo::demoSettings({});
        QCOMPARE(s.limits.globalInFlight, 32);
        QCOMPARE(s.limits.perHostInFlight, 4);
        QCOMPARE(s.limits.intervalMs, 100);
        QCOMPARE(s.policy.totalTimeoutS, 10);
        QCOMPARE(s.policy.idleTimeoutS, 5);
        QCOMPARE(s.policy.maxRetryAfterS, 5);
        QCOMPARE(s.policy.backoffBaseMs, 200);
        QCOMPARE(s.policy.maxBodyBytes, qint64(1) << 20);
        // What the demo does not pick stays as given.
        QCOMPARE(s.policy.maxRetries, crawl::FetchPolicy{}.maxRetries);
        QCOMPARE(s.limits.jitter, crawl::CrawlLimits{}.jitter);
    }

    void explicitFlagsWin() {
        demo::DemoSettings base;
        base.limits.perHostInFlight = 9;
        base.limits.intervalMs = 7;
        base.policy.maxBodyBytes = 123;
        base.policy.idleTimeoutS = 2;
        base.policy.connectTimeoutS = 3;
        const demo::DemoSettings s = demo::demoSettings(
            base, {QStringLiteral("per-host"), QStringLiteral("max-bytes"), QStringLiteral("idle-timeout")});
        QCOMPARE(s.limits.perHostInFlight, 9);
        QCOMPARE(s.policy.maxBodyBytes, 123);
        QCOMPARE(s.policy.idleTimeoutS, 2);
        QCOMPARE(s.limits.intervalMs, 100); // given, but not named in `keep`: the demo's value
        QCOMPARE(s.policy.connectTimeoutS, 3);
    }

    void scaleFromTheEnvironment() {
        qputenv("CRAWLSCOPE_DEMO_SCALE", "0.25");
        QCOMPARE(demo::demoScale(), 0.25);
        for (const char *bad : {"0", "-1", "lots", ""}) {
            qputenv("CRAWLSCOPE_DEMO_SCALE", bad);
            QCOMPARE(demo::demoScale(), 1.0);
        }
        qunsetenv("CRAWLSCOPE_DEMO_SCALE");
        QCOMPARE(demo::demoScale(), 1.0);
    }
};

QTEST_GUILESS_MAIN(TestDemoSettings)
#include "tst_demosettings.moc"
