#pragma once

#include "model/breakersettings.h"
#include "model/breakerstate.h"
#include "model/outcome.h"

#include <QString>

#include <array>
#include <vector>

namespace crawl {

// How one completed attempt went, as far as the host's health is concerned.
enum class AttemptHealth : quint8 { Healthy, Timeout, NetworkError, ServerError, TooManyRequests };
inline constexpr int kAttemptHealthCount = 5;

// Timeouts, network errors, 5xx and 429 count against a host; everything else (2xx, 3xx, other 4xx, a
// body over the cap) says the host answered.
AttemptHealth attemptHealthOf(Outcome attemptOutcome, int status);

// One host's circuit breaker, as a pure state machine: time comes in as a value (steady-clock ms), so
// every transition is unit-tested without a clock or a socket.
//
//   Closed --(a full window of the last N attempts, at least `threshold` failed)--> Open
//   Open --(cool-down over: startProbe)--> HalfOpen (exactly one request in flight)
//   HalfOpen --(probe healthy)--> Closed, 1 in flight until N more attempts completed ("reduced pace")
//   HalfOpen --(probe failed)--> Open, cool-down doubled (capped)
//   Open/HalfOpen --(give-up time since the first trip)--> GaveUp (the host's URLs end as `skipped`)
//   any --(reset, by the user)--> Closed
//
// The window is a ring of N fixed slots allocated when configured: recording an attempt allocates
// nothing, and the failure counts are kept incrementally.
class HostBreaker {
public:
    enum class Transition : quint8 { None, Tripped, Recovered, GaveUp };

    explicit HostBreaker(const BreakerSettings &settings = {});

    // New settings; the window restarts when its size changes. Disabled: back to Closed.
    void configure(const BreakerSettings &settings);

    // A completed attempt. `probe`: it was the request startProbe() allowed. Attempts that were in flight
    // when the host tripped are ignored (the window judged them already).
    Transition record(AttemptHealth health, qint64 nowMs, bool probe = false);

    bool allowsStarts() const { return m_state == BreakerState::Closed; }
    bool probeDue(qint64 nowMs) const { return m_state == BreakerState::Open && nowMs >= m_probeAtMs; }
    void startProbe(); // Open -> HalfOpen
    // The probe ended without reaching a verdict (the crawl stopped, nothing was sent): probe again now.
    void probeAbandoned(qint64 nowMs);
    bool giveUpDue(qint64 nowMs) const { return m_state == BreakerState::Open && nowMs >= m_giveUpAtMs; }
    Transition giveUp(); // Open -> GaveUp
    void reset();        // the user resumes the host

    // The in-flight limit while recovering from a trip: 1; otherwise `limit`.
    int inFlightCap(int limit) const { return m_recoveringLeft > 0 ? 1 : limit; }

    BreakerState state() const { return m_state; }
    const QString &reason() const { return m_reason; }
    qint64 probeAtMs() const { return m_probeAtMs; }   // Open: when the probe may start
    qint64 giveUpAtMs() const { return m_giveUpAtMs; } // Open/HalfOpen: when the host is given up
    // Open: the earliest moment the breaker itself changes (probe or give-up); 0 otherwise.
    qint64 nextChangeMs() const;
    int trips() const { return m_trips; } // trips since the host last ran a full healthy window
    int windowCount() const { return m_count; }
    int windowFailures() const { return m_failures; }

    // "18 of the last 20 attempts failed: timeouts" (the most frequent failure kind is named).
    static QString tripReason(int failures, int count, AttemptHealth dominant);

private:
    struct Slot {
        qint64 atMs = 0;
        AttemptHealth health = AttemptHealth::Healthy;
    };
    void clearWindow();
    void dropOldest();
    void expire(qint64 nowMs);
    void trip(qint64 nowMs, const QString &reason);
    qint64 cooldownMs() const; // for the trip about to happen (m_trips already counts it)
    AttemptHealth dominantFailure() const;

    BreakerSettings m_settings;
    std::vector<Slot> m_ring; // fixed size N
    int m_head = 0;           // oldest slot
    int m_count = 0;
    int m_failures = 0;
    std::array<int, kAttemptHealthCount> m_byHealth{};

    BreakerState m_state = BreakerState::Closed;
    QString m_reason;
    QString m_firstReason; // the window's verdict at the first trip, kept while probes fail
    int m_trips = 0;
    qint64 m_probeAtMs = 0;
    qint64 m_giveUpAtMs = 0;
    int m_recoveringLeft = 0;
};

} // namespace crawl
