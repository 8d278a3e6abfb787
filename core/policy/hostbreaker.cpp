#include "policy/hostbreaker.h"

#include <algorithm>
#include <cmath>

namespace crawl {

namespace {

const char *pluralName(AttemptHealth health) {
    switch (health) {
    case AttemptHealth::Timeout:
        return "timeouts";
    case AttemptHealth::NetworkError:
        return "network errors";
    case AttemptHealth::ServerError:
        return "server errors (5xx)";
    case AttemptHealth::TooManyRequests:
        return "429 Too Many Requests";
    case AttemptHealth::Healthy:
        break;
    }
    return "failures";
}

const char *singularName(AttemptHealth health) {
    switch (health) {
    case AttemptHealth::Timeout:
        return "timeout";
    case AttemptHealth::NetworkError:
        return "network error";
    case AttemptHealth::ServerError:
        return "server error (5xx)";
    case AttemptHealth::TooManyRequests:
        return "429 Too Many Requests";
    case AttemptHealth::Healthy:
        break;
    }
    return "failure";
}

} // namespace

AttemptHealth attemptHealthOf(Outcome attemptOutcome, int status) {
    if (attemptOutcome == Outcome::Timeout)
        return AttemptHealth::Timeout;
    if (attemptOutcome == Outcome::NetworkError)
        return AttemptHealth::NetworkError;
    if (status == 429)
        return AttemptHealth::TooManyRequests;
    if (status >= 500 && status <= 599)
        return AttemptHealth::ServerError;
    return AttemptHealth::Healthy;
}

HostBreaker::HostBreaker(const BreakerSettings &settings) {
    configure(settings);
}

void HostBreaker::configure(const BreakerSettings &settings) {
    const int window = std::max(1, settings.window);
    const bool resize = int(m_ring.size()) != window;
    m_settings = settings;
    m_settings.window = window;
    if (resize) {
        m_ring.assign(size_t(window), Slot{});
        clearWindow();
    }
    if (!m_settings.enabled)
        reset();
}

void HostBreaker::clearWindow() {
    m_head = 0;
    m_count = 0;
    m_failures = 0;
    m_byHealth.fill(0);
}

void HostBreaker::dropOldest() {
    const Slot &oldest = m_ring[size_t(m_head)];
    --m_byHealth[size_t(oldest.health)];
    if (oldest.health != AttemptHealth::Healthy)
        --m_failures;
    m_head = (m_head + 1) % int(m_ring.size());
    --m_count;
}

void HostBreaker::expire(qint64 nowMs) {
    if (m_settings.windowS <= 0)
        return;
    const qint64 oldestKept = nowMs - qint64(m_settings.windowS) * 1000;
    while (m_count > 0 && m_ring[size_t(m_head)].atMs < oldestKept)
        dropOldest();
}

AttemptHealth HostBreaker::dominantFailure() const {
    AttemptHealth best = AttemptHealth::Timeout;
    int bestCount = -1;
    for (int i = 1; i < kAttemptHealthCount; ++i) {
        if (m_byHealth[size_t(i)] > bestCount) {
            bestCount = m_byHealth[size_t(i)];
            best = AttemptHealth(i);
        }
    }
    return best;
}

QString HostBreaker::tripReason(int failures, int count, AttemptHealth dominant) {
    return QStringLiteral("%1 of the last %2 attempts failed: %3")
        .arg(failures)
        .arg(count)
        .arg(QLatin1String(pluralName(dominant)));
}

qint64 HostBreaker::cooldownMs() const {
    const qint64 base =
        m_settings.cooldownMs > 0 ? m_settings.cooldownMs : qint64(std::max(0, m_settings.cooldownS)) * 1000;
    const qint64 cap = base * std::max(1, m_settings.cooldownCapFactor);
    const int doublings = std::clamp(m_trips - 1, 0, 30);
    return std::min(cap, base << doublings);
}

void HostBreaker::trip(qint64 nowMs, const QString &reason) {
    const bool firstTrip = m_state == BreakerState::Closed;
    ++m_trips;
    m_state = BreakerState::Open;
    m_reason = reason;
    m_probeAtMs = nowMs + cooldownMs();
    if (firstTrip) {
        m_firstReason = reason;
        const qint64 giveUp =
            m_settings.giveUpMs > 0 ? m_settings.giveUpMs : qint64(std::max(0, m_settings.giveUpS)) * 1000;
        m_giveUpAtMs = nowMs + giveUp;
    }
    m_recoveringLeft = 0;
}

HostBreaker::Transition HostBreaker::record(AttemptHealth health, qint64 nowMs, bool probe) {
    if (!m_settings.enabled)
        return Transition::None;
    if (m_state == BreakerState::Open || m_state == BreakerState::GaveUp)
        return Transition::None;
    if (m_state == BreakerState::HalfOpen) {
        if (!probe)
            return Transition::None;
        if (health == AttemptHealth::Healthy) {
            m_state = BreakerState::Closed;
            m_reason.clear();
            m_firstReason.clear();
            m_probeAtMs = 0;
            m_giveUpAtMs = 0;
            clearWindow();
            m_recoveringLeft = int(m_ring.size());
            return Transition::Recovered;
        }
        const QString reason = QStringLiteral("%1; the probe failed too: %2")
                                   .arg(m_firstReason, QLatin1String(singularName(health)));
        m_state = BreakerState::Open;
        if (nowMs >= m_giveUpAtMs) {
            m_reason = reason;
            return giveUp();
        }
        trip(nowMs, reason);
        return Transition::Tripped;
    }

    expire(nowMs);
    if (m_count == int(m_ring.size()))
        dropOldest();
    m_ring[size_t((m_head + m_count) % int(m_ring.size()))] = Slot{nowMs, health};
    ++m_count;
    ++m_byHealth[size_t(health)];
    if (health != AttemptHealth::Healthy)
        ++m_failures;
    if (m_recoveringLeft > 0 && --m_recoveringLeft == 0)
        m_trips = 0; // a whole window since the recovery: the next trip starts at the base cool-down

    // A full window only: "about N attempts" before a verdict, never one unlucky first request.
    if (m_count == int(m_ring.size()) &&
        double(m_failures) >= m_settings.threshold * double(m_count) - 1e-9 && m_failures > 0) {
        trip(nowMs, tripReason(m_failures, m_count, dominantFailure()));
        return Transition::Tripped;
    }
    return Transition::None;
}

void HostBreaker::startProbe() {
    if (m_state == BreakerState::Open)
        m_state = BreakerState::HalfOpen;
}

void HostBreaker::probeAbandoned(qint64 nowMs) {
    if (m_state != BreakerState::HalfOpen)
        return;
    m_state = BreakerState::Open;
    m_probeAtMs = nowMs;
}

HostBreaker::Transition HostBreaker::giveUp() {
    if (m_state != BreakerState::Open)
        return Transition::None;
    m_state = BreakerState::GaveUp;
    return Transition::GaveUp;
}

void HostBreaker::reset() {
    m_state = BreakerState::Closed;
    m_reason.clear();
    m_firstReason.clear();
    m_trips = 0;
    m_probeAtMs = 0;
    m_giveUpAtMs = 0;
    m_recoveringLeft = 0;
    clearWindow();
}

qint64 HostBreaker::nextChangeMs() const {
    if (m_state != BreakerState::Open)
        return 0;
    return std::min(m_probeAtMs, m_giveUpAtMs);
}

} // namespace crawl
