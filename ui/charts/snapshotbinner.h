#pragma once

#include "charts/chartbin.h"
#include "model/crawlsnapshot.h"

#include <QList>

#include <optional>

namespace ui {

// Turns the engine's snapshots (every ~250 ms, with jitter) into fixed one-second bins. Rates come from
// the difference of the cumulative counts between the last snapshots of two bins divided by the time
// between them, so a steady crawl gives a flat line instead of a comb of per-snapshot rates.
class SnapshotBinner {
public:
    explicit SnapshotBinner(qint64 binMs = 1000);

    // The bins this snapshot closes (its predecessor's bin when it starts a new one). A window with no
    // snapshot at all produces no bin: the charts show it as a gap.
    QList<ChartBin> add(const crawl::CrawlSnapshot &snapshot, qint64 nowMs);
    // Closes the open bin (the crawl finished: no later snapshot will close it).
    std::optional<ChartBin> finish();
    void clear();
    qint64 binMs() const { return m_binMs; }

private:
    struct Counts {
        qint64 results = 0, failures = 0, cancelled = 0, done = 0, ok = 0, accepted = 0;
    };
    static Counts countsOf(const crawl::CrawlSnapshot &snapshot);
    ChartBin close();

    qint64 m_binMs;
    bool m_open = false;
    ChartBin m_bin;         // the open bin
    int m_samples = 0;      // snapshots in the open bin
    Counts m_lastCounts;    // at the latest snapshot
    qint64 m_lastMs = 0;    // when the latest snapshot came
    Counts m_closedCounts;  // at the last snapshot of the previous bin (or the crawl's start)
    qint64 m_closedMs = -1; // when that was; -1 before the first snapshot
    // Latency of the open bin: percentiles weighted by the results each snapshot period brought.
    double m_latencyWeight = 0;
    double m_p50Sum = 0, m_p95Sum = 0, m_p99Sum = 0;
};

} // namespace ui
