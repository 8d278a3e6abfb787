#pragma once

#include <QMutex>
#include <QtGlobal>

#include <atomic>
#include <functional>

namespace crawl {

// The bounds that span all fetch shards: the global in-flight cap and the global rate cap.
// Shards take a slot only when a request can actually start; a shard that found the budget empty
// registers as starved and is woken when another shard releases a slot.
class SharedBudget {
public:
    explicit SharedBudget(int shardCount);

    void setGlobalLimit(int limit) { m_limit.store(limit > 0 ? limit : 1); }
    int globalLimit() const { return m_limit.load(); }
    int inFlight() const { return m_inFlight.load(); }

    bool tryAcquire();
    // Out of file descriptors: hold the in-flight bound below what failed, then give one slot back per
    // few completed requests until the configured limit is reached again.
    void onOutOfDescriptors();
    void onRequestCompleted() {
        if (m_resourceCap.load(std::memory_order_relaxed) > 0)
            regainResourceSlot();
    }
    int resourceCap() const { return m_resourceCap.load(); } // 0: not lowered
    // Releases a slot and wakes the shards that were starved (through `wake`, called with their index).
    void release();
    void markStarved(int shard) { m_starved.fetch_or(1u << shard); }
    void setWakeFunction(std::function<void(int)> wake) { m_wake = std::move(wake); }

    // Global request-start rate: 0 or less turns it off. A new rate applies at once: the next slot is
    // one *new* spacing after the latest start, not whatever the old spacing had reserved.
    void setMaxRate(double perSecond);
    // Returns 0 when a start may happen now (and reserves it), else the nanoseconds until one may.
    qint64 reserveRateSlot(qint64 nowNs);

private:
    std::atomic<int> m_limit{16};
    std::atomic<int> m_inFlight{0};
    std::atomic<int> m_resourceCap{0};
    std::atomic<int> m_completedSinceCut{0};
    void regainResourceSlot();
    std::atomic<quint32> m_starved{0};
    std::function<void(int)> m_wake;

    QMutex m_rateMutex;
    qint64 m_rateSpacingNs = 0;
    qint64 m_nextRateSlotNs = 0;
    qint64 m_lastRateStartNs = 0;
};

} // namespace crawl
