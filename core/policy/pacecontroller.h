#pragma once

#include "policy/hostbreaker.h"

#include <QByteArray>
#include <QString>

#include <algorithm>
#include <optional>

namespace crawl {

// Adaptive pace for one host (--adaptive): AIMD between the user's limits as ceilings and 1 request in
// flight as the floor. A pure class: responses come in as values, the effective limits go out.
//
// - Slow start: a host begins at kStartInFlight (the command line's default per-host limit) and the limit
//   doubles after each healthy round until the first overload or the ceiling. Starting at the
//   ceiling would send a host that takes K at once ceiling - K requests it must refuse in the very first
//   round; with their retries that is a full breaker window of failures (measured: a ceiling of 16 at a
//   host taking 4 tripped after 20 of 20 attempts failed, before the pace could adapt).
// - Overload (429, 503, a timeout, or a latency well above the host's own baseline) halves the in-flight
//   limit; at 1 in flight it doubles an extra start interval instead (up to kMaxIntervalMs). One
//   overload episode decreases once: the requests already in flight at the decrease were sent at the old
//   pace, so their answers do not decrease again.
// - After slow start, a run of healthy responses as long as the current limit (one "round") first shrinks
//   the extra interval, then raises the in-flight limit by one, up to the ceiling. A step that would reach
//   the limit the host last refused waits kPlateauRounds rounds: without it a host that takes K at once
//   gets one refused request every K/2 + ... + K + (K + 1) answers (tst_hosthealth_engine, K = 4: 10.5 %
//   of the requests were 503s); with it the K term is K x kPlateauRounds (5.4 %), and the host spends
//   longer at K.
// - Other failures (refused, 500, ...) are neutral: the circuit breaker judges those.
// A Retry-After still pauses the whole host as before; this class does not see it.
class PaceController {
public:
    static constexpr int kMaxIntervalMs = 10'000;
    static constexpr double kSlowFactor = 3.0;  // "well above": 3 x the baseline latency ...
    static constexpr qint64 kSlowMarginMs = 50; // ... and at least this much above it
    static constexpr int kBaselineSamples = 5;  // healthy answers before latency can count as overload
    static constexpr int kStartInFlight = 2;    // slow start begins here (or at a lower ceiling)
    static constexpr int kPlateauRounds = 4;    // rounds before stepping up to a limit the host refused

    enum class Change : quint8 { None, Decreased, Increased };

    // The user's limits: the effective ones never go above them (lowering them clamps at once). The
    // controller starts at kStartInFlight (slow start), never above the ceiling.
    void configure(int ceilingInFlight, int userIntervalMs);

    // A completed attempt: how it went, its status (0 if none), its latency and the host's requests still
    // in flight (those were sent at the pace in force before this answer).
    Change onResponse(AttemptHealth health, int status, qint64 latencyMs, int inFlightNow);

    int inFlightLimit() const { return m_limit; }
    int intervalMs() const { return std::max(m_userIntervalMs, m_extraIntervalMs); }
    int ceiling() const { return m_ceiling; }
    bool inSlowStart() const { return m_slowStart; }
    qint64 baselineMs() const { return qint64(m_baselineMs); }
    const QString &lastReason() const { return m_reason; }    // why it last moved: "503", "latency 900 ms"
    int extraIntervalMs() const { return m_extraIntervalMs; } // what the pace adds (0: the user's interval)

    // The whole state as one line of text, and back: a shared crawl keeps each host's pace in Redis and
    // every worker applies onResponse() to it (ClusterPace), so the state must survive the trip exactly
    // (the baseline with all 17 digits). fromState() refuses anything it did not write (nullopt): the
    // text comes from a server, and a bad one starts the host afresh rather than at a nonsense limit.
    QByteArray toState() const;
    static std::optional<PaceController> fromState(const QByteArray &state);

private:
    void decrease(const QString &why, int inFlightNow);
    void increase();
    int roundLength() const; // healthy answers before the next step up

    int m_ceiling = 0; // 0 until configured
    int m_userIntervalMs = 0;
    int m_limit = kStartInFlight;
    bool m_slowStart = true; // until the first overload or the ceiling
    int m_refusedLimit = 0;  // the limit at the last decrease (the host refused it); 0 once reached again
    int m_extraIntervalMs = 0;
    int m_healthyRun = 0;
    int m_ignoreOverloads = 0; // answers still due from requests sent before the last decrease
    double m_baselineMs = 0;
    int m_samples = 0;
    QString m_reason;
};

} // namespace crawl
