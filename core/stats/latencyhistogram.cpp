#include "stats/latencyhistogram.h"

#include <cmath>

namespace crawl {

namespace {
constexpr double kFirstBucketMicros = 100.0;
constexpr double kGrowth = 1.15;
const double kLogGrowth = std::log(kGrowth);
} // namespace

int LatencyHistogram::bucketFor(qint64 micros) {
    if (micros <= kFirstBucketMicros)
        return 0;
    const int bucket = 1 + int(std::log(double(micros) / kFirstBucketMicros) / kLogGrowth);
    return bucket >= kBuckets ? kBuckets - 1 : bucket;
}

double LatencyHistogram::bucketMidMicros(int bucket) {
    if (bucket == 0)
        return kFirstBucketMicros / 2;
    // Bucket b (b >= 1) covers [100 x g^(b-1), 100 x g^b): report its geometric middle.
    return kFirstBucketMicros * std::pow(kGrowth, double(bucket) - 0.5);
}

void LatencyHistogram::add(qint64 micros) {
    ++m_counts[size_t(bucketFor(micros))];
    ++m_count;
}

void LatencyHistogram::merge(const LatencyHistogram &other) {
    for (int i = 0; i < kBuckets; ++i)
        m_counts[size_t(i)] += other.m_counts[size_t(i)];
    m_count += other.m_count;
}

void LatencyHistogram::clear() {
    m_counts.fill(0);
    m_count = 0;
}

int LatencyHistogram::percentileMs(double q) const {
    if (m_count == 0)
        return -1;
    // The smallest bucket whose cumulative count reaches ceil(q x n).
    const quint64 rank = std::max<quint64>(1, quint64(std::ceil(q * double(m_count))));
    quint64 seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
        seen += m_counts[size_t(i)];
        if (seen >= rank)
            return int(std::llround(bucketMidMicros(i) / 1000.0));
    }
    return int(std::llround(bucketMidMicros(kBuckets - 1) / 1000.0));
}

} // namespace crawl
