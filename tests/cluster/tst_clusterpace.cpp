// --adaptive in a shared crawl (clusterpace.h): PaceController's state as a value (exact round trip, hostile
// text refused), the fold of the pace log, and then against a real redis-server: two connections standing in
// for two workers, their answers interleaved (one after the other, both recorded before either folds, a
// fold that loses the race and folds again), leave in Redis exactly the state one local PaceController fed
// the same answers in the same order holds, after every step; budget_try grants against the pace's limits;
// the cost in round trips; the window's view of the pace.
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterlimits.h"
#include "cluster/clusterpace.h"
#include "cluster/clusterqueue.h"
#include "cluster/clusterwatchsnapshot.h"
#include "cluster/redisconnection.h"
#include "model/crawlsnapshot.h"
#include "policy/pacecontroller.h"
#include "redistestserver.h"

#include <QTest>

#include <map>
#include <random>

using namespace crawl;
using Reason = StartDecision::Reason;

namespace {

const QString kHost = QStringLiteral("tolerant.example:80");
constexpr int kHealthy = int(AttemptHealth::Healthy);
constexpr int kTimeout = int(AttemptHealth::Timeout);
constexpr int kNetwork = int(AttemptHealth::NetworkError);
constexpr int kServerError = int(AttemptHealth::ServerError);
constexpr int kTooMany = int(AttemptHealth::TooManyRequests);

QString crawlName() {
    return QString::fromLatin1(QTest::currentTestFunction());
}

ClusterLimits adaptiveLimits(int perHost) {
    ClusterLimits limits;
    limits.globalInFlight = 100;
    limits.perHostInFlight = perHost;
    limits.adaptive = true;
    return limits;
}

// One answer as a worker reports it.
struct Answer {
    int health = kHealthy;
    int status = 200;
    qint64 latencyMs = 20;
};

// A mix with every kind of answer the controller tells apart: healthy, slow, 503, 429, timeout, neutral.
Answer randomAnswer(std::mt19937 &random) {
    const int kind = int(random() % 20);
    if (kind < 12)
        return {kHealthy, 200, 15 + qint64(random() % 15)};
    if (kind == 12)
        return {kHealthy, 200, 400}; // well above the baseline once it has one
    if (kind == 13 || kind == 14)
        return {kServerError, 503, 5};
    if (kind == 15)
        return {kTooMany, 429, 5};
    if (kind == 16)
        return {kTimeout, 0, 3000};
    if (kind == 17)
        return {kNetwork, 0, 1};   // neutral: the breaker judges those
    return {kServerError, 500, 5}; // neutral too
}

// A controller that went through every kind of state: slow start, decreases, an extra interval, a reason.
QList<PaceController> variedControllers() {
    QList<PaceController> out;
    PaceController pace;
    pace.configure(16, 100);
    out << pace;
    std::mt19937 random(7);
    for (int i = 0; i < 300; ++i) {
        const Answer a = randomAnswer(random);
        pace.onResponse(static_cast<AttemptHealth>(a.health), a.status, a.latencyMs, int(random() % 4));
        if (i % 25 == 0)
            out << pace;
    }
    PaceController floor; // at 1 in flight with an extra interval
    floor.configure(4, 0);
    for (int i = 0; i < 5; ++i)
        floor.onResponse(AttemptHealth::ServerError, 503, 5, 0);
    out << floor;
    return out;
}

} // namespace

class TestClusterPace : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;

private Q_SLOTS:
    void initTestCase() { REDIS_TEST_SERVER_START(m_server); }

    // The state survives the trip exactly: the same text again, and the same decisions from then on.
    void stateRoundTripsExactly() {
        const QList<PaceController> controllers = variedControllers();
        bool sawInterval = false;
        for (const PaceController &original : controllers) {
            sawInterval = sawInterval || original.extraIntervalMs() > 0;
            const QByteArray text = original.toState();
            const std::optional<PaceController> back = PaceController::fromState(text);
            QVERIFY2(back, text.constData());
            QCOMPARE(back->toState(), text);
            QCOMPARE(back->inFlightLimit(), original.inFlightLimit());
            QCOMPARE(back->intervalMs(), original.intervalMs());
            QCOMPARE(back->inSlowStart(), original.inSlowStart());
            QCOMPARE(back->baselineMs(), original.baselineMs());
            QCOMPARE(back->lastReason(), original.lastReason());
            // Both fed the same answers move alike (hidden fields included: run, plateau, ignored overloads).
            PaceController a = original;
            PaceController b = *back;
            std::mt19937 random(11);
            for (int i = 0; i < 100; ++i) {
                const Answer r = randomAnswer(random);
                const int inFlight = int(random() % 3);
                QCOMPARE(b.onResponse(static_cast<AttemptHealth>(r.health), r.status, r.latencyMs, inFlight),
                         a.onResponse(static_cast<AttemptHealth>(r.health), r.status, r.latencyMs, inFlight));
                QCOMPARE(b.toState(), a.toState());
            }
        }
        QVERIFY(sawInterval);
        QVERIFY(controllers.last().lastReason().contains(QLatin1Char(' '))); // a reason with spaces survived
    }

    // The text comes from a server: anything the controller did not write is refused, never half-read.
    void hostileStateIsRefused() {
        const QByteArray good = variedControllers().value(3).toState();
        QVERIFY(PaceController::fromState(good));
        for (const QByteArray &bad :
             {QByteArray(), QByteArrayLiteral("garbage"), QByteArrayLiteral("pace1 1 2 3"),
              QByteArray(good).replace("pace1", "pace9"), QByteArrayLiteral("pace1 16 0 -4 1 0 0 0 0 0 0 x"),
              QByteArrayLiteral("pace1 16 0 4 1 0 0 0 0 nan 0 x"),
              QByteArrayLiteral("pace1 16 0 4 1 0 0 0 0 inf 0 x"),
              QByteArrayLiteral("pace1 16 0 4 1 0 0 0 0 1e999 0 x"),
              QByteArrayLiteral("pace1 16 0 99999999999 1 0 0 0 0 1 0 x")})
            QVERIFY2(!PaceController::fromState(bad), bad.constData());
        // An extra interval above the controller's own cap is clamped, not trusted.
        const std::optional<PaceController> clamped =
            PaceController::fromState("pace1 16 0 1 0 0 999999 0 0 20 9 down on 503");
        QVERIFY(clamped);
        QCOMPARE(clamped->extraIntervalMs(), PaceController::kMaxIntervalMs);

        QVERIFY(parsePaceEvent("3 0 200 20 1"));
        QCOMPARE(parsePaceEvent("3 4 429 20 1")->status, 429);
        for (const QByteArray &bad :
             {QByteArray(), QByteArrayLiteral("3 0 200 20"), QByteArrayLiteral("0 0 200 20 1"),
              QByteArrayLiteral("3 5 200 20 1"), QByteArrayLiteral("3 0 200 -1 1"),
              QByteArrayLiteral("3 0 200 20 1 9"), QByteArrayLiteral("a b c d e")})
            QVERIFY2(!parsePaceEvent(bad), bad.constData());
    }

    // The fold is the controller: events in chunks give what one controller fed them one by one gives, an
    // event at or before the version is never applied twice, and a bad stored state starts afresh.
    void foldIsTheController() {
        std::mt19937 random(5);
        PaceController local;
        local.configure(12, 0);
        SharedPace shared;
        shared.ceiling = 12;
        qint64 seq = 0;
        for (int chunk = 0; chunk < 30; ++chunk) {
            shared.events.clear();
            const int n = 1 + int(random() % 4);
            for (int i = 0; i < n; ++i) {
                const Answer a = randomAnswer(random);
                const PaceEvent e{++seq, a.health, a.status, a.latencyMs, int(random() % 3)};
                shared.events << e;
                local.onResponse(static_cast<AttemptHealth>(e.health), e.status, e.latencyMs, e.inFlight);
            }
            shared.events.prepend(shared.events.first()); // a duplicate and ...
            shared.events.prepend(
                PaceEvent{shared.version, kServerError, 503, 1, 0}); // ... one folded before
            if (shared.version == 0)
                shared.events.removeFirst();
            const PaceCommit c = foldSharedPace(shared);
            QCOMPARE(c.expectedVersion, shared.version);
            QCOMPARE(c.through, seq);
            QCOMPARE(c.state, local.toState());
            QCOMPARE(c.inFlightLimit, local.inFlightLimit());
            QCOMPARE(c.extraIntervalMs, local.extraIntervalMs());
            QCOMPARE(c.gapMs,
                     local.extraIntervalMs() > 0 ? local.extraIntervalMs() + kClusterIntervalGuardMs : 0);
            QCOMPARE(c.reason, local.lastReason());
            shared.version = c.through;
            shared.state = c.state;
        }
        shared.state = "pace1 bad";
        shared.events = {PaceEvent{seq + 1, kHealthy, 200, 20, 0}};
        PaceController fresh;
        fresh.configure(12, 0);
        fresh.onResponse(AttemptHealth::Healthy, 200, 20, 0);
        QCOMPARE(foldSharedPace(shared).state, fresh.toState());
    }

    // (a) Two workers, 240 answers in every interleaving the scripts allow: after every step the state in
    // Redis is byte for byte what one local controller fed the same answers in the log's order holds, and
    // each logged answer carries the host's other grants in flight at that moment (over both workers).
    void sharedStateFollowsOneLocalController() {
        RedisConnection c1(m_server.url()), c2(m_server.url());
        ClusterHostBudget w1(c1, crawlName()), w2(c2, crawlName());
        QVERIFY2(w1.setLimits(adaptiveLimits(16)), qPrintable(w1.lastError()));
        PaceController local;
        local.configure(16, 0);
        std::map<qint64, PaceEvent> logged; // every answer the scripts logged, by seq
        qint64 fedThrough = 0;
        int conflictsRetried = 0, conflictsTakenByOther = 0;
        const auto feedLocal = [&] {
            for (auto it = logged.upper_bound(fedThrough); it != logged.end(); ++it) {
                local.onResponse(static_cast<AttemptHealth>(it->second.health), it->second.status,
                                 it->second.latencyMs, it->second.inFlight);
                fedThrough = it->first;
            }
        };
        // Records `a` under `grant`; checks what the script logged against what was sent.
        const auto record = [&](ClusterHostBudget &w, const QByteArray &grant, const Answer &a, qint64 now,
                                int othersInFlight) -> std::optional<SharedPace> {
            const BreakerRecord r = w.recordAttempt(kHost, grant, a.health, a.status, a.latencyMs, now);
            if (!r.error.isEmpty() || !r.pace)
                return std::nullopt;
            for (const PaceEvent &e : r.pace->events) {
                if (e.seq != r.pace->eventSeq)
                    continue;
                if (e.health != a.health || e.status != a.status || e.latencyMs != a.latencyMs ||
                    e.inFlight != othersInFlight)
                    return std::nullopt;
                logged[e.seq] = e;
            }
            return logged.count(r.pace->eventSeq) ? r.pace : std::nullopt;
        };

        std::mt19937 random(2026);
        qint64 now = 1'000'000;
        int steps = 0;
        while (logged.size() < 240) {
            now += 20'000; // past any interval the pace may add (at most 10 s), and every grant's expiry
            const Answer a = randomAnswer(random), b = randomAnswer(random);
            const QByteArray ga = "a" + QByteArray::number(steps), gb = "b" + QByteArray::number(steps);
            // Both ask for a slot; the pace's limit may refuse the second (then it is not in flight).
            const StartDecision sa = w1.tryStart(kHost, ga, 10'000, now);
            QVERIFY2(sa.granted, qPrintable(sa.error));
            const bool bHeld = w2.tryStart(kHost, gb, 10'000, now).granted;
            QCOMPARE(bHeld, local.inFlightLimit() >= 2);
            const int mode = steps % 3;
            if (mode == 0) { // one after the other
                const auto pa = record(w1, ga, a, now + 1, bHeld ? 1 : 0);
                QVERIFY(pa);
                QVERIFY(w1.updatePace(kHost, *pa, now + 1).committed);
                w1.finished(kHost, ga, now + 1);
                if (bHeld) {
                    const auto pb = record(w2, gb, b, now + 2, 0);
                    QVERIFY(pb);
                    QVERIFY(w2.updatePace(kHost, *pb, now + 2).committed);
                }
            } else if (mode == 1) { // both recorded, then the later folds first: the earlier's event is in it
                const auto pa = record(w1, ga, a, now + 1, bHeld ? 1 : 0);
                QVERIFY(pa);
                if (bHeld) {
                    const auto pb = record(w2, gb, b, now + 2, 1);
                    QVERIFY(pb);
                    QVERIFY(w2.updatePace(kHost, *pb, now + 3).committed);
                    const PaceUpdate late = w1.updatePace(kHost, *pa, now + 3);
                    QVERIFY(late.error.isEmpty());
                    QVERIFY(!late.committed);
                    QCOMPARE(late.attempts, 1);
                    ++conflictsTakenByOther;
                } else {
                    QVERIFY(w1.updatePace(kHost, *pa, now + 3).committed);
                }
            } else { // both recorded, the earlier folds first: the later's fold loses and folds again
                const auto pa = record(w1, ga, a, now + 1, bHeld ? 1 : 0);
                QVERIFY(pa);
                if (bHeld) {
                    const auto pb = record(w2, gb, b, now + 2, 1);
                    QVERIFY(pb);
                    QVERIFY(w1.updatePace(kHost, *pa, now + 3).committed);
                    const PaceUpdate again = w2.updatePace(kHost, *pb, now + 3);
                    QVERIFY(again.committed);
                    QCOMPARE(again.attempts, 2);
                    ++conflictsRetried;
                } else {
                    QVERIFY(w1.updatePace(kHost, *pa, now + 3).committed);
                }
            }
            w1.finished(kHost, ga, now + 4);
            w2.finished(kHost, gb, now + 4);

            feedLocal();
            RedisConnection look(m_server.url());
            const RedisReply stored =
                look.command({"HGET", clusterKeyPrefix(crawlName()) + "host:" + kHost.toUtf8(), "pace"});
            QCOMPARE(stored.text, local.toState());
            const HostBudgetStatus status = w1.hostStatus(kHost, now + 5);
            QCOMPARE(status.paceInFlight, local.inFlightLimit());
            QCOMPARE(status.paceGapMs,
                     local.extraIntervalMs() > 0 ? local.extraIntervalMs() + kClusterIntervalGuardMs : 0);
            QCOMPARE(status.paceReason, local.lastReason());
            // Nothing left unfolded.
            QCOMPARE(
                look.command({"LLEN", clusterKeyPrefix(crawlName()) + "pev:" + kHost.toUtf8()}).toInteger(),
                0);
            ++steps;
        }
        QVERIFY2(conflictsRetried >= 5 && conflictsTakenByOther >= 5,
                 qPrintable(QStringLiteral("%1 %2").arg(conflictsRetried).arg(conflictsTakenByOther)));
        qInfo("%d answers in %d steps; %d folds lost and folded again, %d folds taken by the other worker; "
              "the pace ended at %d in flight, +%d ms (%s)",
              int(logged.size()), steps, conflictsRetried, conflictsTakenByOther, local.inFlightLimit(),
              local.extraIntervalMs(), qPrintable(local.lastReason()));
    }

    // (2) budget_try grants against min(user limit, pace limit) and max(user interval, pace interval), as
    // HostQueue does locally; switched off, the user's limits alone apply again.
    void budgetGrantsAgainstThePace() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        ClusterLimits limits = adaptiveLimits(8);
        QVERIFY(budget.setLimits(limits));
        const auto answer = [&](const QByteArray &grant, int health, int status, qint64 now) {
            const BreakerRecord r = budget.recordAttempt(kHost, grant, health, status, 20, now);
            QVERIFY(r.pace);
            QVERIFY(budget.updatePace(kHost, *r.pace, now).committed);
            QVERIFY(budget.finished(kHost, grant, now));
        };
        qint64 now = 10'000;
        // Slow start: 2 at first, not the user's 8.
        QVERIFY(budget.tryStart(kHost, "g1", 60'000, now).granted);
        QVERIFY(budget.tryStart(kHost, "g2", 60'000, now).granted);
        QCOMPARE(budget.tryStart(kHost, "g3", 60'000, now).reason, Reason::HostBusy);
        QCOMPARE(budget.hostStatus(kHost, now).paceInFlight, -1); // nothing folded yet
        answer("g1", kHealthy, 200, now);
        answer("g2", kHealthy, 200, now); // a healthy round of 2: 4
        QCOMPARE(budget.hostStatus(kHost, now).paceInFlight, 4);
        for (int i = 0; i < 4; ++i)
            QVERIFY(budget.tryStart(kHost, "r" + QByteArray::number(i), 60'000, now).granted);
        QCOMPARE(budget.tryStart(kHost, "r4", 60'000, now).reason, Reason::HostBusy);
        // A 503 with three others in flight: down to 2; their overloads do not count again.
        answer("r0", kServerError, 503, now);
        QCOMPARE(budget.hostStatus(kHost, now).paceInFlight, 2);
        QCOMPARE(budget.hostStatus(kHost, now).paceReason, QStringLiteral("down on 503"));
        for (const char *g : {"r1", "r2", "r3"})
            answer(g, kServerError, 503, now);
        QCOMPARE(budget.hostStatus(kHost, now).paceInFlight, 2);
        QCOMPARE(budget.tryStart(kHost, "s0", 60'000, now).granted, true);
        QCOMPARE(budget.tryStart(kHost, "s1", 60'000, now).granted, true);
        QCOMPARE(budget.tryStart(kHost, "s2", 60'000, now).reason, Reason::HostBusy);
        answer("s0", kServerError, 503, now); // 1 (s1 still out: its answer is ignored)
        answer("s1", kServerError, 503, now);
        QCOMPARE(budget.hostStatus(kHost, now).paceInFlight, 1);
        // At 1 in flight an overload adds an interval: 250 ms (+ the guard) between starts.
        now += 1'000;
        QVERIFY(budget.tryStart(kHost, "t0", 60'000, now).granted);
        answer("t0", kTooMany, 429, now + 10);
        const HostBudgetStatus paced = budget.hostStatus(kHost, now + 10);
        QCOMPARE(paced.paceInFlight, 1);
        QCOMPARE(paced.paceGapMs, 250 + kClusterIntervalGuardMs);
        QCOMPARE(paced.nextStartMs, now + 250 + kClusterIntervalGuardMs); // from the latest start, at once
        const StartDecision early = budget.tryStart(kHost, "t1", 60'000, now + 100);
        QCOMPARE(early.reason, Reason::Interval);
        QCOMPARE(early.atMs, now + 250 + kClusterIntervalGuardMs);
        QVERIFY(budget.tryStart(kHost, "t1", 60'000, now + 290).granted);
        QCOMPARE(budget.tryStart(kHost, "t2", 60'000, now + 2'000).reason, Reason::HostBusy); // 1 in flight
        // The user's lower limit stays the ceiling: per host 1 and an interval of 1 s beat the pace.
        limits.perHostInFlight = 1;
        limits.intervalMs = 1'000;
        QVERIFY(budget.setLimits(limits));
        QVERIFY(budget.finished(kHost, "t1", now + 2'000));
        QVERIFY(budget.tryStart(kHost, "u0", 60'000, now + 2'000).granted);
        const StartDecision spaced = budget.tryStart(kHost, "u1", 60'000, now + 2'500);
        QCOMPARE(spaced.reason, Reason::Interval);
        QCOMPARE(spaced.atMs, now + 3'000);
        QCOMPARE(budget.tryStart(kHost, "u1", 60'000, now + 3'000).reason, Reason::HostBusy);
        QVERIFY(budget.finished(kHost, "u0", now + 3'000));
        QVERIFY(budget.tryStart(kHost, "u1", 60'000, now + 3'000).granted);
        QVERIFY(budget.finished(kHost, "u1", now + 3'000));
        // Off (--cluster-set, the window): the user's limits alone, however low the pace went.
        limits.perHostInFlight = 8;
        limits.intervalMs = 0;
        limits.adaptive = false;
        QVERIFY(budget.setLimits(limits));
        QCOMPARE(budget.limits()->adaptive, false);
        for (int i = 0; i < 8; ++i)
            QVERIFY(budget.tryStart(kHost, "v" + QByteArray::number(i), 60'000, now + 10'000).granted);
        QCOMPARE(budget.tryStart(kHost, "v8", 60'000, now + 10'000).reason, Reason::HostBusy);
        // ... and the answers then go to the breaker only: no pace log, no second round trip.
        const BreakerRecord off = budget.recordAttempt(kHost, "v0", kHealthy, 200, 20, now + 10'000);
        QVERIFY(off.error.isEmpty());
        QVERIFY(!off.pace);
        limits.adaptive = true;
        QVERIFY(budget.setLimits(limits));
        QCOMPARE(budget.limits()->adaptive, true);
    }

    // The cost: with --adaptive, recording an answer and folding it are two round trips (the breaker's
    // one, and the compare-and-set); a fold that loses the race costs one more only when the winner had
    // not seen this answer.
    void roundTripsPerAnswer() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY(budget.setLimits(adaptiveLimits(4)));
        QVERIFY(budget.tryStart(kHost, "g", 10'000, 1'000).granted);
        const quint64 before = connection.roundTrips();
        const BreakerRecord r = budget.recordAttempt(kHost, "g", kHealthy, 200, 20, 1'010);
        QVERIFY(r.pace);
        QCOMPARE(connection.roundTrips() - before, quint64(1));
        const PaceUpdate u = budget.updatePace(kHost, *r.pace, 1'010);
        QVERIFY(u.committed);
        QCOMPARE(u.attempts, 1);
        QCOMPARE(connection.roundTrips() - before, quint64(2));
    }

    // What lives in Redis is hostile too: a state that is not one, and lines that are not events, start the
    // host afresh and are skipped; the fold writes a good state back.
    void hostileStoredPaceStartsAfresh() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY(budget.setLimits(adaptiveLimits(6)));
        const QByteArray hk = clusterKeyPrefix(crawlName()) + "host:" + kHost.toUtf8();
        const QByteArray pk = clusterKeyPrefix(crawlName()) + "pev:" + kHost.toUtf8();
        QVERIFY(!connection.command({"HSET", hk, "pace", "pace1 6 0 9999999 x"}).isError());
        QVERIFY(!connection.command({"RPUSH", pk, "not an event", "-5 0 200 1 0"}).isError());
        const BreakerRecord r = budget.recordAttempt(kHost, "g", kHealthy, 200, 20, 1'000);
        QVERIFY(r.pace);
        QCOMPARE(r.pace->events.size(), 1);
        QVERIFY(budget.updatePace(kHost, *r.pace, 1'000).committed);
        PaceController fresh;
        fresh.configure(6, 0);
        fresh.onResponse(AttemptHealth::Healthy, 200, 20, 0);
        QCOMPARE(connection.command({"HGET", hk, "pace"}).text, fresh.toState());
        QCOMPARE(connection.command({"LLEN", pk}).toInteger(), 0); // the junk went with the fold
    }

    // (3) The window: the Hosts tab shows the pace's effective limits and its reason, as a local crawl's.
    void windowShowsThePace() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, crawlName());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        ClusterLimits limits = adaptiveLimits(8);
        limits.intervalMs = 100 + kClusterIntervalGuardMs;
        QVERIFY(budget.setLimits(limits));
        const QString calm = QStringLiteral("calm.example:80");
        const QList<ClusterUrl> urls = {
            {QStringLiteral("http://tolerant.example/"), QStringLiteral("http://tolerant.example/"), kHost,
             1},
            {QStringLiteral("http://calm.example/"), QStringLiteral("http://calm.example/"), calm, 2}};
        QVERIFY(queue.enqueue(urls, "b1").error.isEmpty());
        // The tolerant host went down to 1 with 250 ms added; the calm one has had no answer yet.
        for (int i = 0; i < 2; ++i) {
            const BreakerRecord r =
                budget.recordAttempt(kHost, "x" + QByteArray::number(i), kServerError, 503, 5, 1'000);
            QVERIFY(r.pace);
            QVERIFY(budget.updatePace(kHost, *r.pace, 1'000).committed);
        }
        QByteArray cursor;
        const QList<ClusterHostRow> rows = queue.hostsPage("0", 100, &cursor, 2'000);
        QCOMPARE(rows.size(), 2);
        ClusterWatchSnapshot watched;
        watched.serverNowMs = 2'000;
        watched.limits = *budget.limits();
        watched.hosts = rows;
        const CrawlSnapshot snapshot = toCrawlSnapshot(watched, kClusterIntervalGuardMs);
        QCOMPARE(snapshot.hosts.size(), 2);
        const HostSnapshot &c = snapshot.hosts[0];
        const HostSnapshot &t = snapshot.hosts[1];
        QCOMPARE(c.host, calm);
        QCOMPARE(c.maxInFlight, 8);
        QCOMPARE(c.effectiveMaxInFlight, PaceController::kStartInFlight); // slow start's first limit
        QCOMPARE(c.effectiveIntervalMs, 100);
        QCOMPARE(t.host, kHost);
        QCOMPARE(t.maxInFlight, 8);
        QCOMPARE(t.effectiveMaxInFlight, 1);
        QCOMPARE(t.intervalMs, 100);
        QCOMPARE(t.effectiveIntervalMs, 250);
        QCOMPARE(t.paceReason, QStringLiteral("down on 503"));
        // Off: the user's limits, no reason.
        watched.limits.adaptive = false;
        const CrawlSnapshot off = toCrawlSnapshot(watched, kClusterIntervalGuardMs);
        QCOMPARE(off.hosts[1].effectiveMaxInFlight, 8);
        QCOMPARE(off.hosts[1].effectiveIntervalMs, 100);
        QVERIFY(off.hosts[1].paceReason.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestClusterPace)
#include "tst_clusterpace.moc"
