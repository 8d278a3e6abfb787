#pragma once

#include "model/breakerstate.h"
#include "model/crawllimits.h"
#include "model/outcome.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <array>

namespace crawl {

enum class HostState : quint8 {
    Ready,      // can start a request now (or has nothing queued)
    Busy,       // at its in-flight limit
    Pacing,     // waiting for its start interval
    BackingOff, // paused by the server (Retry-After) until `stateUntilMs`
    Paused,     // paused by the user
};
QString hostStateName(HostState state);

// One host as seen at one instant. Latency percentiles are over the whole crawl so far.
struct HostSnapshot {
    QString host; // "host:port"
    HostState state = HostState::Ready;
    qint64 stateUntilMs = 0; // epoch ms when BackingOff/Pacing ends (0 otherwise)
    int inFlight = 0;
    int maxInFlight = 0; // the effective limit (override or global)
    int intervalMs = 0;  // the effective interval
    bool overridden = false;
    qint64 queued = 0;  // waiting to start, including retries waiting for backoff
    qint64 started = 0; // requests started (attempts and redirect hops)
    qint64 done = 0;    // URLs finished whose input host is this host
    qint64 ok = 0;
    qint64 failed = 0;
    qint64 retries = 0;
    qint64 status429 = 0;
    qint64 responses = 0; // HTTP responses received (retries, redirect hops, robots.txt): the 429 rate's base
    int lastStatus = 0;
    int p50Ms = -1, p95Ms = -1, p99Ms = -1;
    qint64 oldestQueuedAgeMs = 0;
    double startsPerSec = 0; // over the last snapshot period
    // The host's circuit breaker: tripped hosts start nothing but a probe after each cool-down.
    BreakerState breakerState = BreakerState::Closed;
    QString breakerReason;        // "18 of the last 20 attempts failed: timeouts" while not closed
    qint64 breakerProbeAtMs = 0;  // epoch ms when the probe may start (tripped only)
    qint64 breakerGiveUpAtMs = 0; // epoch ms when the host is given up (tripped or probing)
    qint64 breakerTrips = 0;
    qint64 breakerRecoveries = 0;
    int effectiveMaxInFlight = 0; // the limit in force now: adaptive pace, 1 while recovering from a trip
    int effectiveIntervalMs = 0;  // the interval in force now (adaptive pace may stretch it)
    QString paceReason;           // --adaptive: why the effective limits last moved ("down on 503")
    qint64 accepted = 0;          // URLs of this host whose last response passed the acceptance checks
    QString robotsStatus;         // "robots.txt: 3 rules, Crawl-delay 2 s", "fetching robots.txt", ...
    QString intervalReason; // why effectiveIntervalMs is above the user's: "Crawl-delay 2 s (robots.txt)"
    bool skipped = false;   // Skip Remaining URLs chosen (a shared crawl's, read from Redis by any window)
};

enum class CrawlState : quint8 { Idle, Running, Paused, Stopping, Finished };
QString crawlStateName(CrawlState state);
// Running, paused or stopping: a crawl exists and has not finished (no new one may start yet).
bool isActive(CrawlState state);

// A snapshot's durations for people (elapsed, ETA): "12s", "3m07s", "1h05m"; "?" when negative (unknown).
QString formatDuration(qint64 ms);

// The whole crawl at one instant; emitted a few times a second, immutable once emitted.
struct CrawlSnapshot {
    CrawlState state = CrawlState::Idle;
    qint64 elapsedMs = 0;
    qint64 total = -1; // input lines that will produce a result; -1 while still unknown
    qint64 done = 0;   // results emitted
    qint64 ok = 0;
    qint64 failed = 0; // every non-ok outcome, invalid_url included
    qint64 invalid = 0;
    qint64 duplicates = 0; // lines skipped because an equal URL was already queued
    qint64 inFlight = 0;
    qint64 queued = 0;
    qint64 retries = 0;
    qint64 status429 = 0;
    qint64 rawResponses = 0; // every HTTP response received, retries and redirect hops included
    qint64 accepted = 0;     // results whose response passed the acceptance checks (raw vs accepted)
    qint64 rejected = 0;     // results whose response failed them (no response: neither)
    std::array<qint64, kOutcomeCount> byOutcome{};
    qint64 breakerTrips = 0; // circuit breaker events over every host (see HostSnapshot)
    qint64 breakerRecoveries = 0;
    qint64 hostsGivenUp = 0;
    qint64 hostsTripped = 0;                // tripped or probing now
    double throughputPerSec = 0;            // results per second over the last snapshot period
    double startsPerSec = 0;                // request starts per second over the last snapshot period
    double errorsPerSec = 0;                // failed results per second over the last snapshot period
    int p50Ms = -1, p95Ms = -1, p99Ms = -1; // whole crawl
    int recentP50Ms = -1, recentP95Ms = -1, recentP99Ms = -1; // last snapshot period only
    qint64 etaMs = -1;                                        // -1 when unknown
    CrawlLimits limits;                                       // the limits in force
    QList<HostSnapshot> hosts;
};

// What a finished crawl reports once (also written as the --summary-json file).
struct CrawlSummary {
    CrawlSnapshot last;
    bool stoppedByUser = false;
    QString inputError;   // reading the list failed part way ("after line N: reason"); empty otherwise
    QString journalError; // the crawl store failed (disk full...): the crawl stopped; committed rows are kept
};

} // namespace crawl

Q_DECLARE_METATYPE(crawl::HostSnapshot)
Q_DECLARE_METATYPE(crawl::CrawlSnapshot)
Q_DECLARE_METATYPE(crawl::CrawlSummary)
