#include "eventlooplagprobe.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ui {

namespace {
constexpr size_t kMaxSamples = 1 << 20; // ~87 minutes at 5 ms
}

EventLoopLagProbe::EventLoopLagProbe(QObject *parent, int intervalMs)
    : QObject(parent)
    , m_intervalMs(intervalMs) {
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &EventLoopLagProbe::tick);
}

void EventLoopLagProbe::start() {
    m_clock.start();
    m_lastNs = m_clock.nsecsElapsed();
    m_timer.start();
}

void EventLoopLagProbe::stop() {
    m_timer.stop();
}

void EventLoopLagProbe::reset() {
    m_lagUs.clear();
    m_next = 0;
    if (m_clock.isValid())
        m_lastNs = m_clock.nsecsElapsed();
}

void EventLoopLagProbe::tick() {
    const qint64 now = m_clock.nsecsElapsed();
    const qint64 lateUs = std::max<qint64>(0, (now - m_lastNs) / 1000 - qint64(m_intervalMs) * 1000);
    m_lastNs = now;
    const auto sample = qint32(std::min<qint64>(lateUs, std::numeric_limits<qint32>::max()));
    if (m_lagUs.size() < kMaxSamples) {
        m_lagUs.push_back(sample);
    } else {
        m_lagUs[m_next] = sample;
        m_next = (m_next + 1) % kMaxSamples;
    }
}

double EventLoopLagProbe::percentileMs(double p) const {
    if (m_lagUs.empty())
        return 0;
    std::vector<qint32> sorted = m_lagUs;
    const auto rank =
        size_t(std::clamp(std::ceil(p / 100.0 * double(sorted.size())) - 1, 0.0, double(sorted.size() - 1)));
    std::nth_element(sorted.begin(), sorted.begin() + qsizetype(rank), sorted.end());
    return sorted[rank] / 1000.0;
}

} // namespace ui
