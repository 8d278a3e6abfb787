#pragma once

#include "policy/hostbreaker.h"

#include <QString>

#include <algorithm>

namespace crawl {

// Adaptive pace for one host (--adaptive): AIMD between the user's limits as ceilings and 1 request in
// flight as the floor. A pure class: responses come in as values, the effective limits go out.
//
// - Overload (429, 503, a timeout, or a latency well above the host's own baseline) halves the in-flight
//   limit; at 1 in flight it doubles an extra start interval instead (up to kMaxIntervalMs). One
//   overload episode decreases once: the requests already in flight at the decrease were sent at the old
//   pace, so their answers do not decrease again.
// - A run of healthy responses as long as the current limit (one "round") first shrinks the extra
//   interval, then raises the in-flight limit by one, up to the ceiling.
// - Other failures (refused, 500, ...) are neutral: the circuit breaker judges those.
// A Retry-After still pauses the whole host as before; this class does not see it.
class PaceController {
public:
    static constexpr int kMaxIntervalMs = 10'000;
    static constexpr double kSlowFactor = 3.0;  // "well above": 3 x the baseline latency ...
    static constexpr qint64 kSlowMarginMs = 50; // ... and at least this much above it
    static constexpr int kBaselineSamples = 5;  // healthy answers before latency can count as overload

    enum class Change : quint8 { None, Decreased, Increased };

    // The user's limits: the effective ones never go above them (lowering them clamps at once). The
    // controller starts at the ceiling: the user's limits are what the user considers polite.
    void configure(int ceilingInFlight, int userIntervalMs);

    // A completed attempt: how it went, its status (0 if none), its latency and the host's requests still
    // in flight (those were sent at the pace in force before this answer).
    Change onResponse(AttemptHealth health, int status, qint64 latencyMs, int inFlightNow);

    int inFlightLimit() const { return m_limit; }
    int intervalMs() const { return std::max(m_userIntervalMs, m_extraIntervalMs); }
    int ceiling() const { return m_ceiling; }
    qint64 baselineMs() const { return qint64(m_baselineMs); }
    const QString &lastReason() const { return m_reason; } // why it last moved: "503", "latency 900 ms"

private:
    void decrease(const QString &why, int inFlightNow);
    void increase();

    int m_ceiling = 1;
    int m_userIntervalMs = 0;
    int m_limit = 1;
    int m_extraIntervalMs = 0;
    int m_healthyRun = 0;
    int m_ignoreOverloads = 0; // answers still due from requests sent before the last decrease
    double m_baselineMs = 0;
    int m_samples = 0;
    QString m_reason;
};

} // namespace crawl
