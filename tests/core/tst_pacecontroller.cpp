// Adaptive per-host pace (AIMD) as a pure controller: ceilings, floor, decrease, increase, baseline.
#include "policy/pacecontroller.h"

#include <QTest>

using namespace crawl;
using Change = PaceController::Change;

namespace {

// `n` healthy answers of `latencyMs` with nothing else in flight.
void healthy(PaceController &pace, int n, qint64 latencyMs = 20) {
    for (int i = 0; i < n; ++i)
        pace.onResponse(AttemptHealth::Healthy, 200, latencyMs, 0);
}

// A controller that slow start has taken to the ceiling (healthy rounds of 2, 4, 8, ... answers).
PaceController controller(int ceiling, int intervalMs = 0) {
    PaceController pace;
    pace.configure(ceiling, intervalMs);
    while (pace.inFlightLimit() < ceiling)
        healthy(pace, pace.inFlightLimit());
    return pace;
}

} // namespace

class TestPaceController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void slowStartDoublesFromTwoUpToTheCeiling() {
        PaceController pace;
        pace.configure(16, 100);
        QCOMPARE(pace.inFlightLimit(), PaceController::kStartInFlight);
        QCOMPARE(pace.intervalMs(), 100);
        QVERIFY(pace.inSlowStart());
        const int expected[] = {4, 8, 16, 16};
        for (const int limit : expected) {
            const int round = pace.inFlightLimit();
            healthy(pace, round - 1);
            QCOMPARE(pace.inFlightLimit(), round); // a round is as long as the limit
            healthy(pace, 1);
            QCOMPARE(pace.inFlightLimit(), limit);
        }
        QVERIFY2(pace.lastReason().contains(QStringLiteral("slow start")), qPrintable(pace.lastReason()));
        QVERIFY(!pace.inSlowStart()); // the ceiling ends it
        PaceController one;
        one.configure(1, 0); // never above a ceiling under the start
        QCOMPARE(one.inFlightLimit(), 1);
    }

    void theFirstOverloadEndsSlowStartThenGrowthIsAdditive() {
        PaceController pace;
        pace.configure(16, 0);
        healthy(pace, 2 + 4); // 2 -> 4 -> 8
        QCOMPARE(pace.inFlightLimit(), 8);
        // 8 sent, the host takes 4: the first 503 halves to 4, the others sent at 8 do not count again.
        QCOMPARE(pace.onResponse(AttemptHealth::ServerError, 503, 1, 7), Change::Decreased);
        QVERIFY(!pace.inSlowStart());
        QCOMPARE(pace.inFlightLimit(), 4);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(pace.onResponse(AttemptHealth::ServerError, 503, 1, 6 - i), Change::None);
        healthy(pace, 4);                  // the four it served: one round at 4 ...
        QCOMPARE(pace.inFlightLimit(), 5); // ... is one more, not double
        healthy(pace, 5);
        QCOMPARE(pace.inFlightLimit(), 6);
    }

    void overloadHalvesDownToOneThenStretchesTheInterval() {
        PaceController pace = controller(16, 0);
        const int expected[] = {8, 4, 2, 1, 1};
        for (const int limit : expected) {
            QCOMPARE(pace.onResponse(AttemptHealth::ServerError, 503, 10, 0), Change::Decreased);
            QCOMPARE(pace.inFlightLimit(), limit);
        }
        QCOMPARE(pace.intervalMs(), 250); // at the floor: the interval grows instead
        pace.onResponse(AttemptHealth::TooManyRequests, 429, 10, 0);
        QCOMPARE(pace.intervalMs(), 500);
        for (int i = 0; i < 10; ++i)
            pace.onResponse(AttemptHealth::Timeout, 0, 30'000, 0);
        QCOMPARE(pace.intervalMs(), PaceController::kMaxIntervalMs);
        QCOMPARE(pace.inFlightLimit(), 1);
        QVERIFY(pace.lastReason().contains(QStringLiteral("timeout")));
    }

    void answersToRequestsSentBeforeADecreaseDoNotDecreaseAgain() {
        PaceController pace = controller(16, 0);
        // 16 in flight all get 503: the first halves, the 15 already sent at the old pace do not.
        QCOMPARE(pace.onResponse(AttemptHealth::ServerError, 503, 10, 15), Change::Decreased);
        for (int i = 0; i < 15; ++i)
            QCOMPARE(pace.onResponse(AttemptHealth::ServerError, 503, 10, 14 - i), Change::None);
        QCOMPARE(pace.inFlightLimit(), 8);
        QCOMPARE(pace.onResponse(AttemptHealth::ServerError, 503, 10, 0), Change::Decreased);
        QCOMPARE(pace.inFlightLimit(), 4);
    }

    void healthyRoundsIncreaseAdditivelyUpToTheCeiling() {
        PaceController pace = controller(4, 0);
        for (int i = 0; i < 3; ++i)
            pace.onResponse(AttemptHealth::ServerError, 503, 10, 0);
        QCOMPARE(pace.inFlightLimit(), 1);
        QCOMPARE(pace.intervalMs(), 250);
        healthy(pace, 1); // a round at 1 in flight: first the extra interval goes
        QCOMPARE(pace.intervalMs(), 0);
        QCOMPARE(pace.inFlightLimit(), 1);
        // 2 is what the host refused last: kPlateauRounds rounds at 1 before trying it again.
        healthy(pace, PaceController::kPlateauRounds - 1);
        QCOMPARE(pace.inFlightLimit(), 1);
        healthy(pace, 1);
        QCOMPARE(pace.inFlightLimit(), 2);
        healthy(pace, 1);
        QCOMPARE(pace.inFlightLimit(), 2); // a round is as long as the limit
        healthy(pace, 1);
        QCOMPARE(pace.inFlightLimit(), 3);
        healthy(pace, 3);
        QCOMPARE(pace.inFlightLimit(), 4);
        healthy(pace, 40);
        QCOMPARE(pace.inFlightLimit(), 4); // never above the user's limit
    }

    void steppingUpToARefusedLimitWaitsLonger() {
        // A host that takes 4: refused at 5, back to 2; 3 after a round of 2, 4 after a round of 3, then
        // kPlateauRounds rounds at 4 before 5 is tried again.
        PaceController pace = controller(16, 0);
        for (int i = 0; i < 2; ++i)
            pace.onResponse(AttemptHealth::ServerError, 503, 1, 0); // 16 -> 8 -> 4
        healthy(pace, 4);
        QCOMPARE(pace.inFlightLimit(), 5); // 8 was refused, 5 is still below it: one round
        pace.onResponse(AttemptHealth::ServerError, 503, 1, 0);
        QCOMPARE(pace.inFlightLimit(), 2);
        healthy(pace, 2);
        QCOMPARE(pace.inFlightLimit(), 3);
        healthy(pace, 3);
        QCOMPARE(pace.inFlightLimit(), 4);
        int answersAtFour = 0;
        while (pace.inFlightLimit() == 4) {
            healthy(pace, 1);
            ++answersAtFour;
        }
        QCOMPARE(answersAtFour, 4 * PaceController::kPlateauRounds);
        QCOMPARE(pace.inFlightLimit(), 5);
        QVERIFY2(pace.lastReason().contains(QStringLiteral("after 16 healthy answers")),
                 qPrintable(pace.lastReason()));
        // 5 taken this time: the memory is gone, 6 after one round of 5.
        healthy(pace, 5);
        QCOMPARE(pace.inFlightLimit(), 6);
    }

    void theUsersIntervalStaysTheMinimum() {
        PaceController pace = controller(1, 2'000);
        pace.onResponse(AttemptHealth::ServerError, 503, 10, 0);
        QCOMPARE(pace.intervalMs(), 2'000); // 250 ms extra is still under the user's 2 s
        healthy(pace, 5);
        QCOMPARE(pace.intervalMs(), 2'000);
    }

    void latencyWellAboveTheBaselineIsOverload() {
        PaceController pace;
        pace.configure(8, 0);
        healthy(pace, PaceController::kBaselineSamples, 40);
        QCOMPARE(pace.baselineMs(), 40);
        QVERIFY(pace.onResponse(AttemptHealth::Healthy, 200, 100, 0) != Change::Decreased); // 2.5 x: not yet
        const int before = pace.inFlightLimit();
        QCOMPARE(pace.onResponse(AttemptHealth::Healthy, 200, 400, 0), Change::Decreased);
        QCOMPARE(pace.inFlightLimit(), before / 2);
        QVERIFY2(pace.lastReason().contains(QStringLiteral("latency 400 ms")), qPrintable(pace.lastReason()));
        // Tiny baselines need a real margin too: 3 x 2 ms is not slow.
        PaceController fast = controller(8, 0);
        healthy(fast, PaceController::kBaselineSamples, 2);
        QCOMPARE(fast.onResponse(AttemptHealth::Healthy, 200, 30, 0), Change::None);
    }

    void otherFailuresAreNeutral() {
        PaceController pace = controller(8, 0);
        QCOMPARE(pace.onResponse(AttemptHealth::NetworkError, 0, 5, 0), Change::None);
        QCOMPARE(pace.onResponse(AttemptHealth::ServerError, 500, 5, 0), Change::None);
        QCOMPARE(pace.inFlightLimit(), 8);
    }

    void loweringTheCeilingClampsRaisingItFollows() {
        PaceController slow;
        slow.configure(16, 0);
        slow.configure(1, 0);
        QCOMPARE(slow.inFlightLimit(), 1); // a ceiling under slow start's clamps too
        slow.configure(16, 0);
        QCOMPARE(slow.inFlightLimit(), 1); // and slow start climbs back by itself
        healthy(slow, 1);
        QCOMPARE(slow.inFlightLimit(), 2);

        PaceController pace = controller(16, 0);
        pace.configure(4, 0);
        QCOMPARE(pace.inFlightLimit(), 4);
        pace.configure(10, 0); // was at the ceiling: follows the user up
        QCOMPARE(pace.inFlightLimit(), 10);
        pace.onResponse(AttemptHealth::ServerError, 503, 10, 0);
        pace.configure(20, 0); // backed off: stays where the host put it
        QCOMPARE(pace.inFlightLimit(), 5);
    }
};

QTEST_GUILESS_MAIN(TestPaceController)
#include "tst_pacecontroller.moc"
