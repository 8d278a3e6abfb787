#include "charts/snapshotbinner.h"

#include <algorithm>
#include <cmath>

namespace ui {

SnapshotBinner::SnapshotBinner(qint64 binMs)
    : m_binMs(std::max<qint64>(1, binMs)) {}

SnapshotBinner::Counts SnapshotBinner::countsOf(const crawl::CrawlSnapshot &snapshot) {
    const qint64 cancelled = snapshot.byOutcome[size_t(crawl::Outcome::Cancelled)];
    return {snapshot.done - cancelled, snapshot.failed - cancelled, cancelled, snapshot.done, snapshot.ok,
            snapshot.accepted};
}

void SnapshotBinner::clear() {
    *this = SnapshotBinner(m_binMs);
}

ChartBin SnapshotBinner::close() {
    ChartBin bin = m_bin;
    const double seconds = double(m_lastMs - m_closedMs) / 1000.0;
    if (m_closedMs >= 0 && seconds > 0) {
        bin.resultsPerSec = double(m_lastCounts.results - m_closedCounts.results) / seconds;
        bin.failuresPerSec = double(m_lastCounts.failures - m_closedCounts.failures) / seconds;
        bin.cancelledPerSec = double(m_lastCounts.cancelled - m_closedCounts.cancelled) / seconds;
        bin.okPerSec = double(m_lastCounts.ok - m_closedCounts.ok) / seconds;
        bin.acceptedPerSec = double(m_lastCounts.accepted - m_closedCounts.accepted) / seconds;
    }
    if (m_samples > 0) {
        bin.inFlight /= m_samples;
        for (auto it = bin.hostInFlight.begin(); it != bin.hostInFlight.end(); ++it)
            *it /= m_samples;
    }
    if (m_latencyWeight > 0) {
        bin.p50Ms = int(std::lround(m_p50Sum / m_latencyWeight));
        bin.p95Ms = int(std::lround(m_p95Sum / m_latencyWeight));
        bin.p99Ms = int(std::lround(m_p99Sum / m_latencyWeight));
    }
    m_closedCounts = m_lastCounts;
    m_closedMs = m_lastMs;
    m_open = false;
    m_bin = ChartBin{};
    m_samples = 0;
    m_latencyWeight = m_p50Sum = m_p95Sum = m_p99Sum = 0;
    return bin;
}

QList<ChartBin> SnapshotBinner::add(const crawl::CrawlSnapshot &snapshot, qint64 nowMs) {
    QList<ChartBin> closed;
    const qint64 start = nowMs - (nowMs % m_binMs + m_binMs) % m_binMs;
    if (m_open && start != m_bin.startMs)
        closed.append(close());
    if (m_closedMs < 0) {
        // The first snapshot: the counts were zero when the crawl started.
        m_closedMs = nowMs - std::max<qint64>(0, snapshot.elapsedMs);
        if (m_closedMs == nowMs)
            m_closedMs = -1; // no elapsed time yet: this snapshot becomes the reference instead
    }
    const Counts counts = countsOf(snapshot);
    if (!m_open) {
        m_open = true;
        m_bin.startMs = start;
    }
    // Running or stopping counts as activity; a pause, idle or finished window is a gap.
    if (snapshot.state == crawl::CrawlState::Running || snapshot.state == crawl::CrawlState::Stopping)
        m_bin.active = true;
    ++m_samples;
    m_bin.inFlight += double(snapshot.inFlight);
    for (const crawl::HostSnapshot &host : snapshot.hosts) {
        if (host.inFlight > 0)
            m_bin.hostInFlight[host.host] += host.inFlight;
    }
    const qint64 finishedNow = counts.results - m_lastCounts.results;
    if (snapshot.recentP50Ms >= 0) {
        const double weight = double(std::max<qint64>(1, finishedNow));
        m_latencyWeight += weight;
        m_p50Sum += weight * snapshot.recentP50Ms;
        m_p95Sum += weight * snapshot.recentP95Ms;
        m_p99Sum += weight * snapshot.recentP99Ms;
    }
    m_lastCounts = counts;
    m_lastMs = nowMs;
    if (m_closedMs < 0) {
        m_closedCounts = counts;
        m_closedMs = nowMs;
    }
    return closed;
}

std::optional<ChartBin> SnapshotBinner::finish() {
    if (!m_open)
        return std::nullopt;
    return close();
}

} // namespace ui
