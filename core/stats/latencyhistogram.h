#pragma once

#include <QtGlobal>

#include <array>

namespace crawl {

// Bounded-memory latency distribution: logarithmic buckets from 0.1 ms growing by 15% each (about 7%
// error on a reported percentile), up to about an hour. Percentiles come from bucket counts, never from
// a list of every sample, so a host that serves a million requests still costs the same few hundred bytes.
class LatencyHistogram {
public:
    static constexpr int kBuckets = 128;

    void add(qint64 micros);
    void merge(const LatencyHistogram &other);
    void clear();
    quint64 count() const { return m_count; }
    // The q-quantile (0..1) in milliseconds, rounded; -1 when empty.
    int percentileMs(double q) const;

    static int bucketFor(qint64 micros);
    static double bucketMidMicros(int bucket);

private:
    std::array<quint32, kBuckets> m_counts{};
    quint64 m_count = 0;
};

} // namespace crawl
