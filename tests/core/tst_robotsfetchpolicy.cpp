// What a robots.txt fetch's status means for the host (RFC 9309 section 2.3.1): 2xx parse, 4xx no
// restrictions, 5xx / 429 / no response disallow everything with retries, too many redirects = absent.
#include "robots/robotsfetchpolicy.h"

#include <QTest>

using namespace crawl;
using Action = RobotsFetchDecision::Action;

class TestRobotsFetchPolicy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void statusClasses_data() {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("action");
        QTest::addColumn<bool>("retry");
        QTest::newRow("200") << 200 << int(Action::Parse) << false;
        QTest::newRow("204") << 204 << int(Action::Parse) << false;
        QTest::newRow("404") << 404 << int(Action::AllowAll) << false;
        QTest::newRow("401") << 401 << int(Action::AllowAll) << false;
        QTest::newRow("403") << 403 << int(Action::AllowAll) << false;
        QTest::newRow("410") << 410 << int(Action::AllowAll) << false;
        QTest::newRow("429") << 429 << int(Action::DisallowAll) << true;
        QTest::newRow("500") << 500 << int(Action::DisallowAll) << true;
        QTest::newRow("503") << 503 << int(Action::DisallowAll) << true;
        QTest::newRow("no response") << 0 << int(Action::DisallowAll) << true;
        QTest::newRow("unfollowed 3xx") << 304 << int(Action::DisallowAll) << true;
        QTest::newRow("1xx") << 100 << int(Action::DisallowAll) << true;
    }
    void statusClasses() {
        QFETCH(int, status);
        QFETCH(int, action);
        QFETCH(bool, retry);
        const RobotsFetchDecision decision = decideRobotsFetch(status, false, 1);
        QCOMPARE(int(decision.action), action);
        QCOMPARE(decision.retry, retry);
        QCOMPARE(decision.reason.isEmpty(), action == int(Action::Parse));
    }

    void tooManyRedirectsMeansAbsent() {
        const RobotsFetchDecision decision = decideRobotsFetch(301, true, 1);
        QCOMPARE(decision.action, Action::AllowAll);
        QVERIFY(decision.reason.contains(QStringLiteral("too many redirects")));
    }

    void retriesBackOffThenGiveUp() {
        const RobotsRetrySettings settings{4, 1000, 3000};
        const RobotsFetchDecision first = decideRobotsFetch(503, false, 1, settings);
        QVERIFY(first.retry);
        QCOMPARE(first.retryDelayMs, 1000);
        QCOMPARE(first.reason, QStringLiteral("robots.txt: HTTP 503 (retry 1 of 3 in 1 s)"));
        QCOMPARE(decideRobotsFetch(503, false, 2, settings).retryDelayMs, 2000);
        QCOMPARE(decideRobotsFetch(0, false, 3, settings).retryDelayMs, 3000); // capped
        const RobotsFetchDecision last = decideRobotsFetch(0, false, 4, settings);
        QCOMPARE(last.action, Action::DisallowAll);
        QVERIFY(!last.retry);
        QCOMPARE(last.retryDelayMs, 0);
        QCOMPARE(last.reason, QStringLiteral("robots.txt: no response after 4 attempts, host not crawled"));
        QVERIFY(!decideRobotsFetch(500, false, 99, settings).retry);
        QVERIFY(!decideRobotsFetch(500, false, 1, RobotsRetrySettings{1, 1000, 1000}).retry);
        // Huge attempt numbers and bases do not overflow.
        QCOMPARE(decideRobotsFetch(500, false, 60, RobotsRetrySettings{100, 1'000'000'000, 2'000'000'000})
                     .retryDelayMs,
                 2'000'000'000);
    }
};

QTEST_GUILESS_MAIN(TestRobotsFetchPolicy)
#include "tst_robotsfetchpolicy.moc"
