#include "engine/sharedbudget.h"

#include <algorithm>

namespace crawl {

SharedBudget::SharedBudget(int shardCount) {
    Q_ASSERT(shardCount > 0 && shardCount <= 32);
}

bool SharedBudget::tryAcquire() {
    int current = m_inFlight.load(std::memory_order_relaxed);
    int limit = m_limit.load(std::memory_order_relaxed);
    if (const int cap = m_resourceCap.load(std::memory_order_relaxed); cap > 0)
        limit = std::min(limit, cap);
    while (current < limit) {
        if (m_inFlight.compare_exchange_weak(current, current + 1, std::memory_order_acq_rel))
            return true;
    }
    return false;
}

void SharedBudget::onOutOfDescriptors() {
    // The failed request's slot is already released: what is still in flight is the most that fit.
    const int fitted = std::max(1, m_inFlight.load());
    int cap = m_resourceCap.load();
    while ((cap == 0 || fitted < cap) && !m_resourceCap.compare_exchange_weak(cap, fitted)) {
    }
    m_completedSinceCut.store(0);
}

void SharedBudget::regainResourceSlot() {
    constexpr int kCompletionsPerSlot = 8;
    if (m_completedSinceCut.fetch_add(1) + 1 < kCompletionsPerSlot)
        return;
    m_completedSinceCut.store(0);
    int cap = m_resourceCap.load();
    if (cap <= 0)
        return;
    const int next = cap + 1 >= m_limit.load() ? 0 : cap + 1;
    m_resourceCap.compare_exchange_strong(cap, next);
}

void SharedBudget::release() {
    m_inFlight.fetch_sub(1, std::memory_order_acq_rel);
    if (m_starved.load(std::memory_order_acquire) == 0)
        return;
    quint32 starved = m_starved.exchange(0);
    for (int shard = 0; starved != 0; ++shard, starved >>= 1) {
        if ((starved & 1u) && m_wake)
            m_wake(shard);
    }
}

void SharedBudget::setMaxRate(double perSecond) {
    QMutexLocker lock(&m_rateMutex);
    m_rateSpacingNs = perSecond > 0 ? qint64(1e9 / perSecond) : 0;
    m_nextRateSlotNs = m_lastRateStartNs > 0 ? m_lastRateStartNs + m_rateSpacingNs : 0;
}

qint64 SharedBudget::reserveRateSlot(qint64 nowNs) {
    QMutexLocker lock(&m_rateMutex);
    if (m_rateSpacingNs <= 0)
        return 0;
    if (nowNs < m_nextRateSlotNs)
        return m_nextRateSlotNs - nowNs;
    // No burst credit: consecutive starts are at least one spacing apart.
    m_lastRateStartNs = std::max(m_nextRateSlotNs, nowNs);
    m_nextRateSlotNs = m_lastRateStartNs + m_rateSpacingNs;
    return 0;
}

} // namespace crawl
