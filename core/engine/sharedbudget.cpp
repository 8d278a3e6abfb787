#include "engine/sharedbudget.h"

#include <algorithm>

namespace crawl {

SharedBudget::SharedBudget(int shardCount) {
    Q_ASSERT(shardCount > 0 && shardCount <= 32);
}

bool SharedBudget::tryAcquire() {
    int current = m_inFlight.load(std::memory_order_relaxed);
    while (current < m_limit.load(std::memory_order_relaxed)) {
        if (m_inFlight.compare_exchange_weak(current, current + 1, std::memory_order_acq_rel))
            return true;
    }
    return false;
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
