#include "engine/crawlengine.h"

#include "engine/enginecontext.h"
#include "engine/fetchshard.h"
#include "engine/filelimit.h"
#include "engine/inputfeeder.h"
#include "input/urlnormalizer.h"

#include <QElapsedTimer>
#include <QHash>
#include <QIODevice>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace crawl {

namespace {
constexpr int kResultBatchMs = 100;

struct HostTally {
    qint64 done = 0;
    qint64 ok = 0;
    qint64 failed = 0;
    qint64 accepted = 0;
};
} // namespace

void registerCrawlMetaTypes() {
    qRegisterMetaType<CrawlResult>();
    qRegisterMetaType<QList<CrawlResult>>();
    qRegisterMetaType<CrawlSnapshot>();
    qRegisterMetaType<HostSnapshot>();
    qRegisterMetaType<CrawlSummary>();
    qRegisterMetaType<CrawlLimits>();
    qRegisterMetaType<InputSource>();
    qRegisterMetaType<BreakerEvent>();
    qRegisterMetaType<CrawlQuality>();
}

class CrawlEnginePrivate {
public:
    explicit CrawlEnginePrivate(CrawlEngine *engine)
        : q(engine) {}

    void teardown();
    void collectResults();
    CrawlSnapshot buildSnapshot();
    void tally(const CrawlResult &result, int sign);
    void finishIfDone();
    void applyConfig();
    FetchShard *shardFor(const QString &hostKey) const {
        return context->shards[size_t(context->shardFor(hostKey))];
    }

    CrawlEngine *q;
    CrawlLimits limits;
    FetchPolicy policy;
    CrawlQuality quality;
    int fetchThreads = 2;
    int snapshotMs = 250;
    int workerNice = 0;

    CrawlState state = CrawlState::Idle;
    bool stopRequested = false;
    std::unique_ptr<EngineContext> context;
    std::vector<QThread *> shardThreads;
    InputFeeder *feeder = nullptr;
    QThread *feederThread = nullptr;

    QTimer resultTimer;
    QTimer snapshotTimer;
    QElapsedTimer elapsed;

    // Tallies from the results themselves: the only place that sees every URL's end.
    qint64 done = 0;
    std::array<qint64, kOutcomeCount> byOutcome{};
    qint64 accepted = 0;
    qint64 rejected = 0;
    QHash<QString, HostTally> hostTallies;

    // Rates between snapshots.
    qint64 lastSnapshotNs = 0;
    qint64 doneAtLastSnapshot = 0;
    qint64 failedAtLastSnapshot = 0;
    qint64 startedAtLastSnapshot = 0;
    double smoothedThroughput = 0;
    LatencyHistogram recentCarry;
};

CrawlEngine::CrawlEngine(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<CrawlEnginePrivate>(this)) {
    registerCrawlMetaTypes();
    d->resultTimer.setInterval(kResultBatchMs);
    connect(&d->resultTimer, &QTimer::timeout, this, [this] { d->collectResults(); });
    d->snapshotTimer.setInterval(d->snapshotMs);
    connect(&d->snapshotTimer, &QTimer::timeout, this, [this] { Q_EMIT snapshotReady(d->buildSnapshot()); });
}

CrawlEngine::~CrawlEngine() {
    d->teardown();
}

void CrawlEnginePrivate::teardown() {
    resultTimer.stop();
    snapshotTimer.stop();
    if (!context)
        return;
    context->stopping.store(true);
    if (feeder) {
        feeder->abandon();
        InputFeeder *f = feeder;
        QMetaObject::invokeMethod(
            f, [f] { delete f; }, Qt::BlockingQueuedConnection);
        feeder = nullptr;
        feederThread->quit();
        feederThread->wait();
        delete feederThread;
        feederThread = nullptr;
    }
    // Shards route redirect hops and wake each other (through the budget): none may be deleted while
    // another still runs.
    for (FetchShard *shard : context->shards)
        shard->quiesce();
    for (size_t i = 0; i < context->shards.size(); ++i) {
        FetchShard *shard = context->shards[i];
        QMetaObject::invokeMethod(
            shard, [shard] { delete shard; }, Qt::BlockingQueuedConnection);
        shardThreads[i]->quit();
        shardThreads[i]->wait();
        delete shardThreads[i];
    }
    shardThreads.clear();
    context.reset();
}

void CrawlEngine::setLimits(const CrawlLimits &limits) {
    d->limits = limits;
    d->applyConfig();
}

CrawlLimits CrawlEngine::limits() const {
    return d->limits;
}

void CrawlEngine::setFetchPolicy(const FetchPolicy &policy) {
    d->policy = policy;
    d->applyConfig();
}

FetchPolicy CrawlEngine::fetchPolicy() const {
    return d->policy;
}

void CrawlEngine::setCrawlQuality(const CrawlQuality &quality) {
    d->quality = quality;
    d->applyConfig();
}

CrawlQuality CrawlEngine::crawlQuality() const {
    return d->quality;
}

void CrawlEnginePrivate::applyConfig() {
    if (!context)
        return;
    {
        QWriteLocker lock(&context->configLock);
        context->limits = limits.withCanonicalHostKeys();
        context->policy = policy;
        context->quality = quality;
    }
    context->budget.setGlobalLimit(limits.globalInFlight);
    context->budget.setMaxRate(limits.maxRatePerSec);
    context->configVersion.fetch_add(1, std::memory_order_release);
    for (FetchShard *shard : context->shards)
        shard->wake();
}

void CrawlEngine::setFetchThreads(int count) {
    d->fetchThreads = std::clamp(count, 1, 16);
}

void CrawlEngine::setWorkerNice(int nice) {
    d->workerNice = std::clamp(nice, 0, 19);
}

void CrawlEngine::setSnapshotIntervalMs(int ms) {
    d->snapshotMs = std::max(20, ms);
    d->snapshotTimer.setInterval(d->snapshotMs);
}

bool CrawlEngine::start(const InputSource &input, QString *error) {
    if (isActive(d->state)) {
        if (error)
            *error = QStringLiteral("a crawl is already running");
        return false;
    }
    std::unique_ptr<QIODevice> device = input.open(error);
    if (!device)
        return false;

    d->teardown();
    raiseOpenFileLimit();
    d->context = std::make_unique<EngineContext>(d->fetchThreads);
    EngineContext *context = d->context.get();
    context->workerNice = d->workerNice;
    d->applyConfig();
    context->budget.setWakeFunction([context](int shard) { context->shards[size_t(shard)]->wake(); });

    for (int i = 0; i < d->fetchThreads; ++i) {
        auto *thread = new QThread;
        thread->setObjectName(QStringLiteral("crawl-fetch-%1").arg(i));
        auto *shard = new FetchShard(i, context);
        shard->moveToThread(thread);
        context->shards.push_back(shard);
        d->shardThreads.push_back(thread);
    }
    for (QThread *thread : d->shardThreads)
        thread->start();

    d->feederThread = new QThread;
    d->feederThread->setObjectName(QStringLiteral("crawl-input"));
    d->feeder = new InputFeeder(context, std::move(device), input.kind, input.path);
    d->feeder->moveToThread(d->feederThread);
    d->feederThread->start();
    InputFeeder *feeder = d->feeder;
    QMetaObject::invokeMethod(
        feeder, [feeder] { feeder->begin(); }, Qt::QueuedConnection);

    d->state = CrawlState::Running;
    d->stopRequested = false;
    d->done = 0;
    d->byOutcome.fill(0);
    d->accepted = d->rejected = 0;
    d->hostTallies.clear();
    d->doneAtLastSnapshot = d->failedAtLastSnapshot = d->startedAtLastSnapshot = 0;
    d->smoothedThroughput = 0;
    d->lastSnapshotNs = steadyNowNs();
    d->elapsed.start();
    d->resultTimer.start();
    d->snapshotTimer.start();
    return true;
}

void CrawlEngine::pause() {
    if (d->state != CrawlState::Running || !d->context)
        return;
    d->context->paused.store(true);
    d->state = CrawlState::Paused;
}

void CrawlEngine::resume() {
    if (d->state != CrawlState::Paused || !d->context)
        return;
    d->context->paused.store(false);
    d->state = CrawlState::Running;
    for (FetchShard *shard : d->context->shards)
        shard->wake();
}

void CrawlEngine::stop() {
    if (!d->context || d->state == CrawlState::Finished || d->state == CrawlState::Idle)
        return;
    d->stopRequested = true;
    d->state = CrawlState::Stopping;
    d->context->stopping.store(true);
    d->context->paused.store(false);
    for (FetchShard *shard : d->context->shards)
        shard->stopAll();
    InputFeeder *feeder = d->feeder;
    QMetaObject::invokeMethod(
        feeder, [feeder] { feeder->readSome(); }, Qt::QueuedConnection);
}

void CrawlEngine::pauseHost(const QString &hostKey) {
    if (d->context)
        d->shardFor(hostKey)->setHostPaused(hostKey, true);
}

void CrawlEngine::resumeHost(const QString &hostKey) {
    if (d->context)
        d->shardFor(hostKey)->setHostPaused(hostKey, false);
}

void CrawlEngine::skipHost(const QString &hostKey) {
    if (d->context)
        d->shardFor(hostKey)->skipHost(hostKey);
}

void CrawlEngine::resetHostBreaker(const QString &hostKey) {
    if (d->context)
        d->shardFor(hostKey)->resetHostBreaker(hostKey);
}

void CrawlEngine::retry(const QList<CrawlResult> &previous) {
    if (!d->context || d->state == CrawlState::Stopping || d->state == CrawlState::Idle)
        return;
    if (d->stopRequested) {
        // A stopped crawl's shards refuse work; retrying after a stop continues the same crawl.
        d->stopRequested = false;
        d->context->stopping.store(false);
        for (FetchShard *shard : d->context->shards)
            shard->resumeAfterStop();
    }
    for (const CrawlResult &old : previous) {
        const NormalizedUrl normalized = normalizeUrl(old.url);
        if (!normalized.ok() || old.outcome == Outcome::Ok)
            continue;      // nothing to fetch for an invalid line or a success
        d->tally(old, -1); // its new result takes the old one's place in the counts
        Job job = Job::fromInput(old.id, old.lineNumber, normalized, steadyNowNs());
        d->context->buffered.fetch_add(1);
        d->shardFor(job.inputHost)->enqueue(std::move(job));
    }
    if (d->state == CrawlState::Finished) {
        d->state = d->context->paused.load() ? CrawlState::Paused : CrawlState::Running;
        d->resultTimer.start();
        d->snapshotTimer.start();
    }
}

CrawlState CrawlEngine::state() const {
    return d->state;
}

void CrawlEnginePrivate::tally(const CrawlResult &result, int sign) {
    done += sign;
    byOutcome[size_t(result.outcome)] += sign;
    const bool isAccepted = result.accepted == CrawlResult::Accepted::Yes;
    accepted += isAccepted ? sign : 0;
    rejected += result.accepted == CrawlResult::Accepted::No ? sign : 0;
    if (result.host.isEmpty())
        return;
    HostTally &host = hostTallies[result.host];
    host.done += sign;
    host.accepted += isAccepted ? sign : 0;
    if (result.outcome == Outcome::Ok)
        host.ok += sign;
    else
        host.failed += sign;
}

void CrawlEnginePrivate::collectResults() {
    if (!context)
        return;
    QList<CrawlResult> batch;
    QList<BreakerEvent> events;
    {
        QMutexLocker lock(&context->resultsMutex);
        batch.swap(context->results);
        events.swap(context->breakerEvents);
    }
    for (const BreakerEvent &event : std::as_const(events))
        Q_EMIT q->hostBreakerChanged(event);
    for (const CrawlResult &result : std::as_const(batch))
        tally(result, +1);
    if (!batch.isEmpty())
        Q_EMIT q->resultsReady(batch);
    finishIfDone();
}

void CrawlEnginePrivate::finishIfDone() {
    if (state == CrawlState::Finished || state == CrawlState::Idle || !feeder || !feeder->reachedEnd.load())
        return;
    if (done < feeder->produced.load())
        return;
    state = CrawlState::Finished;
    resultTimer.stop();
    snapshotTimer.stop();
    for (FetchShard *shard : context->shards)
        shard->publishAndWait(); // shards are idle now; their last counters belong in the summary
    CrawlSummary summary;
    summary.last = buildSnapshot();
    summary.stoppedByUser = stopRequested;
    summary.inputError = feeder->readError; // written before reachedEnd was set
    Q_EMIT q->snapshotReady(summary.last);
    Q_EMIT q->finished(summary);
}

CrawlSnapshot CrawlEnginePrivate::buildSnapshot() {
    CrawlSnapshot s;
    s.state = state;
    s.elapsedMs = elapsed.isValid() ? elapsed.elapsed() : 0;
    s.limits = limits;
    if (!context)
        return s;

    s.done = done;
    s.byOutcome = byOutcome;
    s.ok = byOutcome[size_t(Outcome::Ok)];
    s.accepted = accepted;
    s.rejected = rejected;
    s.failed = done - s.ok;
    s.invalid = feeder ? feeder->invalid.load() : 0;
    s.duplicates = feeder ? feeder->duplicates.load() : 0;
    if (feeder && feeder->reachedEnd.load())
        s.total = feeder->produced.load();
    else if (feeder && feeder->estimatedRows.load() >= 0)
        s.total = std::max(feeder->estimatedRows.load() - s.duplicates, feeder->produced.load());

    LatencyHistogram all;
    LatencyHistogram recent;
    qint64 started = 0;
    {
        QMutexLocker lock(&context->statsMutex);
        for (ShardStats &shard : context->shardStats) {
            s.hosts.append(shard.hosts);
            all.merge(shard.all);
            recent.merge(shard.recent);
            shard.recent.clear();
            s.retries += shard.retries;
            s.status429 += shard.status429;
            s.rawResponses += shard.rawResponses;
            s.queued += shard.queued;
            started += shard.started;
        }
    }
    // One counter, not a sum of shards published at different moments (which could exceed the limit).
    s.inFlight = context->budget.inFlight();
    for (HostSnapshot &host : s.hosts) {
        s.breakerTrips += host.breakerTrips;
        s.breakerRecoveries += host.breakerRecoveries;
        s.hostsGivenUp += host.breakerState == BreakerState::GaveUp ? 1 : 0;
        s.hostsTripped +=
            host.breakerState == BreakerState::Open || host.breakerState == BreakerState::HalfOpen ? 1 : 0;
        const auto it = hostTallies.constFind(host.host);
        if (it != hostTallies.cend()) {
            host.done = it->done;
            host.ok = it->ok;
            host.failed = it->failed;
            host.accepted = it->accepted;
        }
    }
    s.p50Ms = all.percentileMs(0.50);
    s.p95Ms = all.percentileMs(0.95);
    s.p99Ms = all.percentileMs(0.99);
    s.recentP50Ms = recent.percentileMs(0.50);
    s.recentP95Ms = recent.percentileMs(0.95);
    s.recentP99Ms = recent.percentileMs(0.99);

    const qint64 now = steadyNowNs();
    const double seconds = double(now - lastSnapshotNs) / 1e9;
    if (seconds > 0.01) {
        s.throughputPerSec = double(done - doneAtLastSnapshot) / seconds;
        s.errorsPerSec = double(s.failed - failedAtLastSnapshot) / seconds;
        s.startsPerSec = double(started - startedAtLastSnapshot) / seconds;
        smoothedThroughput = smoothedThroughput <= 0 ? s.throughputPerSec
                                                     : 0.8 * smoothedThroughput + 0.2 * s.throughputPerSec;
        lastSnapshotNs = now;
        doneAtLastSnapshot = done;
        failedAtLastSnapshot = s.failed;
        startedAtLastSnapshot = started;
    }
    // Half recent rate, half the whole crawl's: a host backing off for a few seconds should not make the
    // ETA jump to hours, and a crawl that sped up should still show it.
    const double overallRate = s.elapsedMs > 0 ? double(done) * 1000.0 / double(s.elapsedMs) : 0.0;
    const double etaRate = 0.5 * smoothedThroughput + 0.5 * overallRate;
    if (s.total >= 0 && etaRate > 0.01)
        s.etaMs = qint64(double(std::max<qint64>(0, s.total - done)) / etaRate * 1000.0);
    if (state == CrawlState::Finished)
        s.etaMs = 0;
    return s;
}

} // namespace crawl
