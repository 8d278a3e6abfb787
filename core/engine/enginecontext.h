#pragma once

#include "engine/filelimit.h"
#include "engine/job.h"
#include "engine/sharedbudget.h"
#include "model/breakerevent.h"
#include "model/crawllimits.h"
#include "model/crawlquality.h"
#include "model/crawlresult.h"
#include "model/crawlsnapshot.h"
#include "model/fetchpolicy.h"
#include "stats/latencyhistogram.h"

#include <QList>
#include <QMutex>
#include <QReadWriteLock>

#include <atomic>
#include <chrono>
#include <vector>

namespace crawl {

class FetchShard;

inline qint64 steadyNowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// What one shard last published about its hosts (live state only: done/ok/failed are tallied by the
// engine from the results themselves, since a redirect can finish a URL on another shard).
struct ShardStats {
    QList<HostSnapshot> hosts;
    LatencyHistogram all;    // every response latency of this shard's hosts
    LatencyHistogram recent; // responses since the previous publication (consumed by the façade)
    qint64 started = 0;
    qint64 retries = 0;
    qint64 status429 = 0;
    qint64 rawResponses = 0;
    qint64 queued = 0;
    qint64 inFlight = 0;
};

// State shared by the engine façade, the input feeder and the fetch shards. Everything here is either
// atomic or guarded by its own lock; nothing else crosses threads.
struct EngineContext {
    explicit EngineContext(int shardCount)
        : budget(shardCount)
        , shardStats(size_t(shardCount)) {}

    SharedBudget budget;
    DescriptorReserve descriptorReserve{16}; // released on the first "out of file descriptors"
    std::atomic<bool> stopping{false};
    std::atomic<bool> paused{false};
    int workerNice = 0; // fixed before the threads start

    // Limits and policy: copied by shards when `configVersion` moves.
    mutable QReadWriteLock configLock;
    CrawlLimits limits;
    FetchPolicy policy;
    CrawlQuality quality;
    std::atomic<quint64> configVersion{1};

    // Finished results waiting for the frontier to commit them (shards push, the frontier takes), and
    // committed rows waiting for the façade's next batch (acknowledge after commit). One lock for both.
    QMutex resultsMutex;
    QList<CrawlResult> results;
    QList<CrawlResult> committed;
    QList<qint64> startedAttempts; // ids whose next attempt started (the journal counts attempts)
    void pushStartedAttempt(quint64 id) {
        QMutexLocker lock(&resultsMutex);
        startedAttempts.append(qint64(id));
    }
    void pushResult(CrawlResult &&result) {
        QMutexLocker lock(&resultsMutex);
        results.append(std::move(result));
    }
    // Circuit breaker changes waiting for the façade (rare: a trip, a recovery, a give-up), same lock.
    QList<BreakerEvent> breakerEvents;
    void pushBreakerEvent(BreakerEvent &&event) {
        QMutexLocker lock(&resultsMutex);
        breakerEvents.append(std::move(event));
    }

    QMutex statsMutex;
    std::vector<ShardStats> shardStats;

    std::vector<FetchShard *> shards; // fixed after start; shard i lives in its own thread
    int shardFor(const QString &hostKey) const {
        return int(qHash(hostKey, 0x5bd1e995u) % size_t(shards.size()));
    }
};

} // namespace crawl
