#pragma once

#include <QtGlobal>

#include <deque>

namespace ui {

// URLs finished per second over a sliding window of snapshots.
//
// The engine's per-snapshot rate counts the result batches that happened to land in one snapshot
// period, so a steady 32/s crawl reads 0, 31.6, 64.7, 0. Over a window of several seconds the batch
// boundaries average out; when the crawl stops producing, the rate falls to 0 within the window.
class ThroughputMeter {
public:
    explicit ThroughputMeter(qint64 windowMs = 5'000);

    // `done` is the crawl's running count of finished URLs at `nowMs` (any monotonic clock in ms).
    void add(qint64 nowMs, qint64 done);
    void clear();
    // -1 until the samples span enough time to say anything (a quarter of the window).
    double perSecond() const;

private:
    struct Sample {
        qint64 atMs;
        qint64 done;
    };
    std::deque<Sample> m_samples;
    qint64 m_windowMs;
};

} // namespace ui
