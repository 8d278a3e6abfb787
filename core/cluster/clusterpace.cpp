#include "cluster/clusterpace.h"

#include "cluster/clusterlimits.h"
#include "policy/hostbreaker.h"
#include "policy/pacecontroller.h"

namespace crawl {

std::optional<PaceEvent> parsePaceEvent(const QByteArray &text) {
    const QList<QByteArray> parts = text.split(' ');
    if (parts.size() != 5)
        return std::nullopt;
    bool ok[5] = {};
    PaceEvent e;
    e.seq = parts[0].toLongLong(&ok[0]);
    e.health = parts[1].toInt(&ok[1]);
    e.status = parts[2].toInt(&ok[2]);
    e.latencyMs = parts[3].toLongLong(&ok[3]);
    e.inFlight = parts[4].toInt(&ok[4]);
    for (const bool b : ok)
        if (!b)
            return std::nullopt;
    if (e.seq < 1 || e.health < 0 || e.health >= kAttemptHealthCount || e.status < 0 || e.latencyMs < 0 ||
        e.inFlight < 0)
        return std::nullopt;
    return e;
}

PaceCommit foldSharedPace(const SharedPace &shared) {
    PaceController pace = PaceController::fromState(shared.state).value_or(PaceController{});
    pace.configure(shared.ceiling, static_cast<int>(userIntervalMs(shared.storedIntervalMs)));
    const int limitBefore = pace.inFlightLimit();
    const int extraBefore = pace.extraIntervalMs();
    PaceCommit out;
    out.expectedVersion = shared.version;
    out.through = shared.version;
    for (const PaceEvent &e : shared.events) {
        if (e.seq <= out.through)
            continue; // folded already (or out of order: never applied twice)
        pace.onResponse(static_cast<AttemptHealth>(e.health), e.status, e.latencyMs, e.inFlight);
        out.through = e.seq;
    }
    out.state = pace.toState();
    out.inFlightLimit = pace.inFlightLimit();
    out.extraIntervalMs = pace.extraIntervalMs();
    out.gapMs = out.extraIntervalMs > 0 ? out.extraIntervalMs + kClusterIntervalGuardMs : 0;
    out.reason = pace.lastReason();
    out.changed = out.inFlightLimit != limitBefore || out.extraIntervalMs != extraBefore;
    return out;
}

} // namespace crawl
