#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace crawl {

// --adaptive in a shared crawl: each host's PaceController lives in Redis (P host:<h> `pace`), and every
// completed attempt is appended to the host's pace log (P pev:<h>) by the same script call that records it
// for the breaker. A worker then folds the log into the state with the C++ controller (foldSharedPace) and
// writes the result back with a compare-and-set on the state's version (the sequence number of the last
// event folded). The log makes the order of the responses the one every worker sees, so the shared state
// is exactly what one local PaceController fed the same responses in that order would hold, whichever
// worker folds them; a worker that loses the race has nothing to redo (its event stays in the log until a
// later fold takes it). No AIMD rule is written twice (no Lua copy of the controller to drift from it).

// One completed attempt in the log: "<seq> <health> <status> <latency ms> <in flight>". In flight: the
// host's other grants still in flight at that answer (over every worker), sent at the pace before it.
struct PaceEvent {
    qint64 seq = 0;
    int health = 0; // AttemptHealth
    int status = 0;
    qint64 latencyMs = 0;
    int inFlight = 0;
};
// nullopt for anything the scripts did not write (the text comes from a server).
std::optional<PaceEvent> parsePaceEvent(const QByteArray &text);

// A host's shared pace as one script call read it, atomically: the state folded through `version`, the
// events after it (in order), and the user's limits for the host (the controller's ceilings).
struct SharedPace {
    qint64 eventSeq = 0; // the event this call appended (0: none)
    qint64 version = 0;
    QByteArray state;            // PaceController::toState(); empty: none yet (slow start from the beginning)
    int ceiling = 1;             // the host's in-flight limit (its override, else the crawl's)
    qint64 storedIntervalMs = 0; // the host's interval as stored (with the guard, clusterlimits.h)
    QList<PaceEvent> events;
};

// What to write back: the state after the events and what the budget scripts read from it.
struct PaceCommit {
    qint64 expectedVersion = 0; // the compare of the compare-and-set
    qint64 through = 0;         // the new version: the last event folded
    QByteArray state;
    int inFlightLimit = 0;
    int extraIntervalMs = 0; // what the pace adds to the user's interval
    qint64 gapMs = 0;        // ... as budget_try spaces starts: with the interval guard, 0 when none
    QString reason;          // why it last moved
    bool changed = false;    // the limits moved (the host may be able to start sooner or must wait longer)
};

// ClusterHostBudget::updatePace: what was written back.
struct PaceUpdate {
    bool committed = false; // this worker's fold was written (else another worker's fold took the event)
    PaceCommit commit;      // the last fold this worker made
    int attempts = 0;       // compare-and-set calls made (round trips)
    QString error;
};

// Pure: the shared state with the events applied by one PaceController, in order (events at or before
// the version are skipped: another worker folded them already).
PaceCommit foldSharedPace(const SharedPace &shared);

} // namespace crawl
