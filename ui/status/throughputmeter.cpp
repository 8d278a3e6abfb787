#include "status/throughputmeter.h"

namespace ui {

ThroughputMeter::ThroughputMeter(qint64 windowMs)
    : m_windowMs(windowMs) {}

void ThroughputMeter::add(qint64 nowMs, qint64 done) {
    if (!m_samples.empty() && (nowMs < m_samples.back().atMs || done < m_samples.back().done))
        m_samples.clear(); // a new crawl (or a clock step): start over
    m_samples.push_back({nowMs, done});
    // Keep one sample at or before the window's start as the anchor of the difference.
    while (m_samples.size() > 2 && m_samples[1].atMs <= nowMs - m_windowMs)
        m_samples.pop_front();
}

void ThroughputMeter::clear() {
    m_samples.clear();
}

double ThroughputMeter::perSecond() const {
    if (m_samples.size() < 2)
        return -1;
    const Sample &first = m_samples.front();
    const Sample &last = m_samples.back();
    const qint64 spanMs = last.atMs - first.atMs;
    if (spanMs < m_windowMs / 4)
        return -1;
    return double(last.done - first.done) * 1000.0 / double(spanMs);
}

} // namespace ui
