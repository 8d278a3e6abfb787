// The window takes the breaker and adaptive flags typed on the command line, and only those.
#include "commandlinelimits.h"

#include <QTest>

class TestCommandLineLimits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void breakerAndAdaptiveFlagsReachTheWindow() {
        crawl::CrawlLimits given;
        given.adaptive = true;
        crawl::FetchPolicy givenPolicy;
        givenPolicy.breaker.window = 7;
        givenPolicy.breaker.threshold = 0.5;
        givenPolicy.breaker.cooldownS = 3;
        givenPolicy.breaker.giveUpS = 9;
        givenPolicy.breaker.enabled = false;

        crawl::CrawlLimits limits;
        crawl::FetchPolicy policy;
        ui::applyCommandLineFlags({QStringLiteral("breaker-window")}, given, givenPolicy, &limits, &policy);
        QCOMPARE(policy.breaker.window, 7);
        QCOMPARE(policy.breaker.threshold, 0.8); // not typed: the window's own value stays
        QVERIFY(policy.breaker.enabled);
        QVERIFY(!limits.adaptive);

        ui::applyCommandLineFlags({QStringLiteral("adaptive"), QStringLiteral("breaker-threshold"),
                                   QStringLiteral("breaker-cooldown"), QStringLiteral("breaker-give-up"),
                                   QStringLiteral("no-breaker")},
                                  given, givenPolicy, &limits, &policy);
        QVERIFY(limits.adaptive);
        QCOMPARE(policy.breaker.threshold, 0.5);
        QCOMPARE(policy.breaker.cooldownS, 3);
        QCOMPARE(policy.breaker.giveUpS, 9);
        QVERIFY(!policy.breaker.enabled);
    }
};

QTEST_GUILESS_MAIN(TestCommandLineLimits)
#include "tst_commandlinelimits.moc"
