#pragma once

#include "model/crawlsnapshot.h"

#include <QString>

namespace ui {

// How long the crawl still needs, from a snapshot, the smoothed rate and the hosts' own limits.
struct EtaEstimate {
    enum class Kind {
        Unknown,       // not running, or nothing to go on yet
        Estimate,      // etaMs
        WaitingUntil,  // only hosts backing off (Retry-After) have work left: nothing starts before untilMs
        WaitingPaused, // only hosts the user paused have work left
    };
    Kind kind = Kind::Unknown;
    qint64 etaMs = -1;
    qint64 untilMs = 0;      // WaitingUntil: epoch ms when the last waiting host may start again
    int waitingHosts = 0;    // WaitingUntil / WaitingPaused: hosts that hold the remaining work
    int pausedHosts = 0;     // Estimate: hosts paused by the user whose queued URLs are not counted
    qint64 pausedQueued = 0; // ... and how many URLs they hold
};

// The ETA is the largest of
//  - the remaining URLs at the smoothed rate (`ratePerSec`, < 0 when not known yet),
//  - the global rate cap's floor: remaining / cap,
//  - every host's own floor: its queued URLs need queued × interval (the interval is start to start, so
//    the in-flight limit does not shorten it) and queued × p50 latency / its in-flight limit, plus what
//    is left of a Retry-After back-off.
// A host the user paused finishes never on its own: its URLs are left out and reported separately.
EtaEstimate estimateEta(const crawl::CrawlSnapshot &snapshot, double ratePerSec, qint64 nowMs);

// "ETA 2m10s", "ETA 2m10s + 1 paused host", "waiting on 1 host until 12:04:31", "paused", "–".
QString etaText(const EtaEstimate &eta, crawl::CrawlState state);

} // namespace ui
