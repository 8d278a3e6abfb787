#pragma once

#include "model/breakerstate.h"

#include <QMetaType>
#include <QString>

namespace crawl {

// A host's circuit breaker changed state: emitted by CrawlEngine::hostBreakerChanged, so the command
// line and the window can tell the user at once (a snapshot could miss a trip that recovered quickly).
struct BreakerEvent {
    enum class Kind : quint8 {
        Tripped,   // closed -> open, or a failed probe -> open again
        Recovered, // the probe succeeded: the host runs again (at a reduced pace for a while)
        GaveUp,    // tripped past the give-up time: its remaining URLs end as `skipped`
        Reset,     // the user resumed the host (CrawlEngine::resetHostBreaker)
    };
    Kind kind = Kind::Tripped;
    QString host;
    QString reason;       // Tripped/GaveUp: "18 of the last 20 attempts failed: timeouts"
    qint64 atMs = 0;      // epoch ms
    qint64 probeAtMs = 0; // Tripped: epoch ms when the probe may start
    int trips = 0;        // trips of this host since it last ran healthily
};

QString breakerEventText(const BreakerEvent &event); // one line for people (the CLI's stderr)

} // namespace crawl

Q_DECLARE_METATYPE(crawl::BreakerEvent)
