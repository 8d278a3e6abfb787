#pragma once

#include "model/crawlsnapshot.h"

#include <QString>

namespace ui {

// What the hosts table says about one host, decided from that host's snapshot, the crawl's state and
// the user's own actions on it, so the words never contradict the numbers beside them ("idle" with 1/2
// in flight, every host "ready" while the crawl is paused, "backing off 0.0 s").
struct HostStatus {
    enum class Kind {
        Idle,        // nothing queued, nothing in flight, nothing done yet
        Ready,       // URLs queued, a request may start now
        Fetching,    // requests in flight, below the host's limit
        Busy,        // at its in-flight limit
        Pacing,      // waiting for its start interval
        BackingOff,  // Retry-After / backoff: nothing starts before untilMs
        Paused,      // paused by the user (this host)
        CrawlPaused, // the whole crawl is paused
        Skipped,     // the user skipped its remaining URLs
        Tripped,     // its circuit breaker tripped: nothing starts before the probe at untilMs
        GivenUp,     // its circuit breaker gave it up: its remaining URLs ended as skipped
        Stopping,    // the crawl is stopping: requests in flight are being cancelled
        Done,        // every URL of this host has finished
    };
    Kind kind = Kind::Idle;
    QString text;       // "backing off 12.3 s", "paused · 1 finishing", …
    qint64 untilMs = 0; // BackingOff: when it ends (the countdown); Tripped: when the probe may start
};

HostStatus hostStatus(const crawl::HostSnapshot &host, crawl::CrawlState crawlState, bool skipped,
                      qint64 nowMs);

} // namespace ui
