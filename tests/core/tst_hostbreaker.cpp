// The per-host circuit breaker as a pure state machine: every transition, with time given as values.
#include "policy/hostbreaker.h"

#include <QTest>

using namespace crawl;
using Transition = HostBreaker::Transition;

namespace {

BreakerSettings settingsOf(int window, double threshold, int cooldownS = 60, int giveUpS = 1800) {
    BreakerSettings s;
    s.window = window;
    s.threshold = threshold;
    s.cooldownS = cooldownS;
    s.giveUpS = giveUpS;
    return s;
}

// Records `n` attempts of one kind, one ms apart from `*nowMs`; returns the last transition.
Transition feed(HostBreaker &breaker, AttemptHealth health, int n, qint64 *nowMs) {
    Transition last = Transition::None;
    for (int i = 0; i < n; ++i) {
        const Transition t = breaker.record(health, ++*nowMs);
        if (t != Transition::None)
            last = t;
    }
    return last;
}

// Trips a fresh breaker of window 20 / threshold 0.8 with 20 timeouts.
qint64 tripped(HostBreaker &breaker) {
    qint64 now = 1'000;
    feed(breaker, AttemptHealth::Timeout, 20, &now);
    return now;
}

} // namespace

class TestHostBreaker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void healthOfAttempts() {
        QCOMPARE(attemptHealthOf(Outcome::Timeout, 0), AttemptHealth::Timeout);
        QCOMPARE(attemptHealthOf(Outcome::NetworkError, 0), AttemptHealth::NetworkError);
        QCOMPARE(attemptHealthOf(Outcome::HttpError, 503), AttemptHealth::ServerError);
        QCOMPARE(attemptHealthOf(Outcome::HttpError, 500), AttemptHealth::ServerError);
        QCOMPARE(attemptHealthOf(Outcome::HttpError, 429), AttemptHealth::TooManyRequests);
        QCOMPARE(attemptHealthOf(Outcome::HttpError, 404), AttemptHealth::Healthy);
        QCOMPARE(attemptHealthOf(Outcome::HttpError, 403), AttemptHealth::Healthy);
        QCOMPARE(attemptHealthOf(Outcome::Ok, 200), AttemptHealth::Healthy);
        QCOMPARE(attemptHealthOf(Outcome::Ok, 302), AttemptHealth::Healthy); // a redirect hop
        QCOMPARE(attemptHealthOf(Outcome::TooLarge, 200), AttemptHealth::Healthy);
    }

    void closedStaysClosedUntilTheWindowIsFull() {
        HostBreaker breaker(settingsOf(20, 0.8));
        qint64 now = 0;
        QCOMPARE(feed(breaker, AttemptHealth::Timeout, 19, &now), Transition::None);
        QCOMPARE(breaker.state(), BreakerState::Closed);
        QVERIFY(breaker.allowsStarts());
        QCOMPARE(breaker.windowFailures(), 19);
        QCOMPARE(breaker.record(AttemptHealth::Timeout, ++now), Transition::Tripped);
        QCOMPARE(breaker.state(), BreakerState::Open);
        QVERIFY(!breaker.allowsStarts());
    }

    void tripsAtTheThresholdNotBelow() {
        HostBreaker breaker(settingsOf(20, 0.8));
        qint64 now = 0;
        // 15 of 20 failed (75 %): below 80 %, stays closed however long it runs like this.
        for (int round = 0; round < 5; ++round) {
            feed(breaker, AttemptHealth::Healthy, 5, &now);
            QCOMPARE(feed(breaker, AttemptHealth::ServerError, 15, &now), Transition::None);
        }
        QCOMPARE(breaker.state(), BreakerState::Closed);
        // Now 16 of the last 20 (80 %): trips, and the reason names counts and the dominant kind.
        QCOMPARE(breaker.record(AttemptHealth::Timeout, ++now), Transition::Tripped);
        QCOMPARE(breaker.reason(), QStringLiteral("16 of the last 20 attempts failed: server errors (5xx)"));
    }

    void reasonNamesTheDominantFailure() {
        HostBreaker breaker(settingsOf(20, 0.8));
        qint64 now = 0;
        feed(breaker, AttemptHealth::Healthy, 2, &now);
        feed(breaker, AttemptHealth::NetworkError, 3, &now);
        QCOMPARE(feed(breaker, AttemptHealth::Timeout, 15, &now), Transition::Tripped);
        QCOMPARE(breaker.reason(), QStringLiteral("18 of the last 20 attempts failed: timeouts"));

        HostBreaker limited(settingsOf(4, 1.0));
        now = 0;
        QCOMPARE(feed(limited, AttemptHealth::TooManyRequests, 4, &now), Transition::Tripped);
        QCOMPARE(limited.reason(), QStringLiteral("4 of the last 4 attempts failed: 429 Too Many Requests"));
        QCOMPARE(HostBreaker::tripReason(5, 6, AttemptHealth::NetworkError),
                 QStringLiteral("5 of the last 6 attempts failed: network errors"));
    }

    void oldAttemptsLeaveTheTimeWindow() {
        BreakerSettings s = settingsOf(10, 0.8);
        s.windowS = 60;
        HostBreaker breaker(s);
        qint64 now = 0;
        feed(breaker, AttemptHealth::Timeout, 9, &now);
        QCOMPARE(breaker.windowCount(), 9);
        // Two minutes later the old failures no longer count: one more failure is 1 of 1, not 10 of 10.
        now += 120'000;
        QCOMPARE(breaker.record(AttemptHealth::Timeout, now), Transition::None);
        QCOMPARE(breaker.windowCount(), 1);
        QCOMPARE(breaker.windowFailures(), 1);
        QCOMPARE(breaker.state(), BreakerState::Closed);
    }

    void openWaitsForTheCooldownThenProbesOnce() {
        HostBreaker breaker(settingsOf(20, 0.8, 60));
        const qint64 at = tripped(breaker);
        QCOMPARE(breaker.probeAtMs(), at + 60'000);
        QCOMPARE(breaker.nextChangeMs(), at + 60'000);
        QVERIFY(!breaker.probeDue(at + 59'999));
        // Results of requests that were in flight when it tripped do not count.
        QCOMPARE(breaker.record(AttemptHealth::Healthy, at + 10), Transition::None);
        QCOMPARE(breaker.state(), BreakerState::Open);
        QVERIFY(breaker.probeDue(at + 60'000));
        breaker.startProbe();
        QCOMPARE(breaker.state(), BreakerState::HalfOpen);
        QVERIFY(!breaker.allowsStarts());
        QVERIFY(!breaker.probeDue(at + 70'000)); // exactly one probe
        QCOMPARE(breaker.nextChangeMs(), 0);
        // A leftover (non-probe) result while probing changes nothing.
        QCOMPARE(breaker.record(AttemptHealth::Healthy, at + 60'100), Transition::None);
        QCOMPARE(breaker.state(), BreakerState::HalfOpen);
    }

    void probeSuccessRecoversAtReducedPace() {
        HostBreaker breaker(settingsOf(20, 0.8, 60));
        const qint64 at = tripped(breaker);
        QCOMPARE(breaker.inFlightCap(8), 8);
        breaker.startProbe();
        QCOMPARE(breaker.record(AttemptHealth::Healthy, at + 60'500, true), Transition::Recovered);
        QCOMPARE(breaker.state(), BreakerState::Closed);
        QVERIFY(breaker.allowsStarts());
        QVERIFY(breaker.reason().isEmpty());
        QCOMPARE(breaker.windowCount(), 0);
        // One in flight until a whole window of attempts completed since the recovery.
        QCOMPARE(breaker.inFlightCap(8), 1);
        qint64 now = at + 61'000;
        feed(breaker, AttemptHealth::Healthy, 19, &now);
        QCOMPARE(breaker.inFlightCap(8), 1);
        QCOMPARE(breaker.trips(), 1);
        feed(breaker, AttemptHealth::Healthy, 1, &now);
        QCOMPARE(breaker.inFlightCap(8), 8);
        QCOMPARE(breaker.trips(), 0); // healthy again: the next trip starts at the base cool-down
    }

    void probeFailureTripsAgainWithAGrowingCooldown() {
        HostBreaker breaker(settingsOf(20, 0.8, 60));
        qint64 now = tripped(breaker);
        const QString first = breaker.reason();
        QCOMPARE(breaker.trips(), 1);
        const qint64 expected[] = {120'000, 240'000, 480'000, 960'000, 960'000, 960'000};
        for (const qint64 cooldown : expected) {
            now = breaker.probeAtMs();
            breaker.startProbe();
            QCOMPARE(breaker.record(AttemptHealth::Timeout, now + 5, true), Transition::Tripped);
            QCOMPARE(breaker.state(), BreakerState::Open);
            QCOMPARE(breaker.probeAtMs() - (now + 5), cooldown); // doubles, capped at 16 x 60 s
            if (breaker.giveUpDue(breaker.probeAtMs()))
                break;
        }
        QVERIFY(breaker.reason().startsWith(first));
        QVERIFY2(breaker.reason().endsWith(QStringLiteral("the probe failed too: timeout")),
                 qPrintable(breaker.reason()));
    }

    void givesUpAfterTheGiveUpTimeSinceTheFirstTrip() {
        HostBreaker breaker(settingsOf(20, 0.8, 60, 100));
        const qint64 at = tripped(breaker);
        QCOMPARE(breaker.giveUpAtMs(), at + 100'000);
        breaker.startProbe();
        QCOMPARE(breaker.record(AttemptHealth::ServerError, at + 60'010, true), Transition::Tripped);
        // The next probe would be at +180 s: the give-up time (+100 s) comes first.
        QCOMPARE(breaker.nextChangeMs(), at + 100'000);
        QVERIFY(!breaker.giveUpDue(at + 99'999));
        QVERIFY(breaker.giveUpDue(at + 100'000));
        QCOMPARE(breaker.giveUp(), Transition::GaveUp);
        QCOMPARE(breaker.state(), BreakerState::GaveUp);
        QVERIFY(!breaker.allowsStarts());
        QVERIFY(!breaker.probeDue(at + 1'000'000));
        QCOMPARE(breaker.record(AttemptHealth::Healthy, at + 100'001, true), Transition::None);
        QCOMPARE(breaker.giveUp(), Transition::None); // once only
    }

    void aProbeFailingPastTheGiveUpTimeGivesUp() {
        HostBreaker breaker(settingsOf(20, 0.8, 60, 30));
        const qint64 at = tripped(breaker);
        breaker.startProbe(); // the cool-down (60 s) is longer than the give-up time (30 s)
        QCOMPARE(breaker.record(AttemptHealth::Timeout, at + 60'001, true), Transition::GaveUp);
        QCOMPARE(breaker.state(), BreakerState::GaveUp);
        QVERIFY(breaker.reason().contains(QStringLiteral("the probe failed too")));
    }

    void abandonedProbeProbesAgain() {
        HostBreaker breaker(settingsOf(20, 0.8, 60));
        const qint64 at = tripped(breaker);
        breaker.startProbe();
        breaker.probeAbandoned(at + 60'100);
        QCOMPARE(breaker.state(), BreakerState::Open);
        QVERIFY(breaker.probeDue(at + 60'100));
    }

    void resetByTheUserClosesFromEveryState() {
        HostBreaker open(settingsOf(20, 0.8));
        tripped(open);
        open.reset();
        QCOMPARE(open.state(), BreakerState::Closed);
        QCOMPARE(open.trips(), 0);
        QCOMPARE(open.windowCount(), 0);
        QVERIFY(open.reason().isEmpty());

        HostBreaker probing(settingsOf(20, 0.8));
        tripped(probing);
        probing.startProbe();
        probing.reset();
        QCOMPARE(probing.state(), BreakerState::Closed);

        HostBreaker gaveUp(settingsOf(20, 0.8, 60, 1));
        const qint64 at = tripped(gaveUp);
        QVERIFY(gaveUp.giveUpDue(at + 1'000));
        gaveUp.giveUp();
        gaveUp.reset();
        QCOMPARE(gaveUp.state(), BreakerState::Closed);
        QVERIFY(gaveUp.allowsStarts());
        QCOMPARE(gaveUp.inFlightCap(4), 4);
    }

    void disabledNeverTrips() {
        BreakerSettings s = settingsOf(5, 0.5);
        s.enabled = false;
        HostBreaker breaker(s);
        qint64 now = 0;
        QCOMPARE(feed(breaker, AttemptHealth::Timeout, 50, &now), Transition::None);
        QCOMPARE(breaker.state(), BreakerState::Closed);
        // Turning it off while tripped lets the host run again.
        HostBreaker running(settingsOf(20, 0.8));
        tripped(running);
        running.configure(s);
        QCOMPARE(running.state(), BreakerState::Closed);
    }

    void millisecondCooldownsForTests() {
        BreakerSettings s = settingsOf(2, 1.0);
        s.cooldownMs = 300;
        s.giveUpMs = 2'000;
        HostBreaker breaker(s);
        qint64 now = 0;
        QCOMPARE(feed(breaker, AttemptHealth::Timeout, 2, &now), Transition::Tripped);
        QCOMPARE(breaker.probeAtMs(), now + 300);
        QCOMPARE(breaker.giveUpAtMs(), now + 2'000);
    }

    void resizingTheWindowStartsItAgain() {
        HostBreaker breaker(settingsOf(20, 0.8));
        qint64 now = 0;
        feed(breaker, AttemptHealth::Timeout, 10, &now);
        breaker.configure(settingsOf(5, 0.8));
        QCOMPARE(breaker.windowCount(), 0);
        QCOMPARE(feed(breaker, AttemptHealth::Timeout, 5, &now), Transition::Tripped);
        QCOMPARE(breaker.reason(), QStringLiteral("5 of the last 5 attempts failed: timeouts"));
    }
};

QTEST_GUILESS_MAIN(TestHostBreaker)
#include "tst_hostbreaker.moc"
