#include "engine/crawlengine.h"

#include "engine/enginecontext.h"
#include "engine/fetchshard.h"
#include "engine/filelimit.h"
#include "engine/inputfeeder.h"
#include "frontier/frontierservice.h"
#include "input/urlnormalizer.h"
#include "store/crawlstore.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QIODevice>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace crawl {

namespace {
constexpr int kResultBatchMs = 100;

QString inputKindName(InputSource::Kind kind) {
    switch (kind) {
    case InputSource::Kind::File:
        return QStringLiteral("file");
    case InputSource::Kind::Stdin:
        return QStringLiteral("stdin");
    case InputSource::Kind::Text:
        break;
    }
    return QStringLiteral("text");
}

// The journal and input threads are the crawl's too: like the fetch threads (FetchShard::pump) they
// yield the CPU to the window's thread (Linux keeps a nice value per thread).
void lowerPriorityOf(QObject *threadObject, int nice) {
    if (nice <= 0)
        return;
    QMetaObject::invokeMethod(
        threadObject, [nice] { ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), nice); },
        Qt::QueuedConnection);
}
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
    FrontierService *frontier = nullptr;
    QThread *frontierThread = nullptr;
    QString journalPath;
    int copyPagesPerStep = 256;
    int copyPauseMs = 0;
    StoreError::Kind journalFailure = StoreError::Kind::None;

    QTimer resultTimer;
    QTimer snapshotTimer;
    QElapsedTimer elapsed;

    // Tallies from the results themselves: the only place that sees every URL's end.
    qint64 done = 0;
    std::array<qint64, kOutcomeCount> byOutcome{};
    qint64 accepted = 0;
    qint64 rejected = 0;

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
    if (frontier) {
        FrontierService *f = frontier;
        QMetaObject::invokeMethod(
            f, [f] { f->halt(); }, Qt::BlockingQueuedConnection); // hands nothing more to the shards
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
    if (frontier) {
        FrontierService *f = frontier;
        QMetaObject::invokeMethod(
            f, [f] { delete f; }, Qt::BlockingQueuedConnection); // closes the journal on its own thread
        frontier = nullptr;
        frontierThread->quit();
        frontierThread->wait();
        delete frontierThread;
        frontierThread = nullptr;
    }
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
    if (nice <= 0) {
        d->workerNice = 0;
        return;
    }
    // Relative to the caller: under `nice`, an absolute 10 would put the crawl level with the window.
    errno = 0;
    const int own = ::getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)));
    d->workerNice = std::clamp((errno == 0 ? own : 0) + std::min(nice, 19), 0, 19);
}

void CrawlEngine::setSnapshotIntervalMs(int ms) {
    d->snapshotMs = std::max(20, ms);
    d->snapshotTimer.setInterval(d->snapshotMs);
}

bool CrawlEngine::start(const InputSource &input, QString *error) {
    return start(input, CrawlJournal::temporary(), error);
}

bool CrawlEngine::start(const InputSource &input, const CrawlJournal &journal, QString *error) {
    if (isActive(d->state)) {
        if (error)
            *error = QStringLiteral("a crawl is already running");
        return false;
    }
    d->teardown();
    QString localError;
    QString &err = error ? *error : localError;

    d->context = std::make_unique<EngineContext>(d->fetchThreads);
    EngineContext *context = d->context.get();
    // The journal first: a resumed crawl says where its input is, and a refused file must leave nothing
    // started.
    d->frontierThread = new QThread;
    d->frontierThread->setObjectName(QStringLiteral("crawl-journal"));
    d->frontier = new FrontierService(context);
    d->frontier->moveToThread(d->frontierThread);
    connect(d->frontier, &FrontierService::copySaved, this, &CrawlEngine::journalCopied,
            Qt::QueuedConnection);
    connect(d->frontier, &FrontierService::copyProgress, this, &CrawlEngine::journalCopyProgress,
            Qt::QueuedConnection);
    d->frontierThread->start();
    lowerPriorityOf(d->frontier, d->workerNice);
    CrawlJournal opening = journal;
    if (!journal.resume) {
        opening.settings.insert(journalkey::inputKind, inputKindName(input.kind));
        if (input.kind == InputSource::Kind::File)
            opening.settings.insert(journalkey::inputPath, QFileInfo(input.path).absoluteFilePath());
        else if (input.kind == InputSource::Kind::Text)
            opening.settings.insert(journalkey::inputText, QString::fromUtf8(input.text));
    }
    bool opened = false;
    FrontierService *frontier = d->frontier;
    QMetaObject::invokeMethod(
        frontier, [&] { opened = frontier->open(opening, &err); }, Qt::BlockingQueuedConnection);
    d->journalFailure = opened ? StoreError::Kind::None : frontier->openFailure();
    if (!opened) {
        d->teardown();
        return false;
    }
    InputSource source = input;
    std::unique_ptr<QIODevice> device;
    if (journal.resume) {
        const QMap<QString, QString> stored = frontier->storedSettings();
        const QString kind = stored.value(journalkey::inputKind);
        if (kind == QLatin1String("text"))
            source = InputSource::fromText(stored.value(journalkey::inputText).toUtf8());
        else if (kind == QLatin1String("file"))
            source = InputSource::fromFile(stored.value(journalkey::inputPath));
        else
            source = InputSource::fromText({}); // standard input cannot be read again
    }
    if (journal.resume && frontier->storedInputComplete()) {
        source = InputSource::fromText({}); // every line is stored: nothing more to read
    }
    device = source.open(&err);
    if (!device) {
        if (journal.resume)
            err = QStringLiteral("cannot resume %1: %2 (its remaining lines were not read yet)")
                      .arg(journal.path, err);
        d->teardown();
        return false;
    }
    d->journalPath = journal.path.isEmpty() ? QString() : frontier->storePath();

    raiseOpenFileLimit();
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
    // Every thread the crawl needs exists before its first connection: a thread started when connections
    // hold every descriptor cannot create its event dispatcher, and GLib aborts the process.
    const int perHost = d->limits.perHostInFlight;
    for (FetchShard *shard : context->shards)
        QMetaObject::invokeMethod(
            shard, [shard, perHost] { shard->startNetwork(perHost); }, Qt::BlockingQueuedConnection);

    d->feederThread = new QThread;
    d->feederThread->setObjectName(QStringLiteral("crawl-input"));
    d->feeder = new InputFeeder(context, frontier, std::move(device), source.kind, source.path,
                                journal.resume ? frontier->resumeAfterLine() : 0);
    d->feeder->moveToThread(d->feederThread);
    d->feederThread->start();
    lowerPriorityOf(d->feeder, d->workerNice);
    InputFeeder *feeder = d->feeder;
    QMetaObject::invokeMethod(
        feeder, [] {}, Qt::BlockingQueuedConnection); // its dispatcher exists too
    QMetaObject::invokeMethod(
        feeder, [feeder] { feeder->begin(); }, Qt::QueuedConnection);
    QMetaObject::invokeMethod(
        frontier, [frontier] { frontier->begin(); }, Qt::QueuedConnection);

    d->state = CrawlState::Running;
    d->stopRequested = false;
    d->done = 0;
    d->byOutcome.fill(0);
    d->accepted = d->rejected = 0;
    d->doneAtLastSnapshot = d->failedAtLastSnapshot = d->startedAtLastSnapshot = 0;
    d->smoothedThroughput = 0;
    d->lastSnapshotNs = steadyNowNs();
    d->elapsed.start();
    d->resultTimer.start();
    d->snapshotTimer.start();
    return true;
}

QString CrawlEngine::journalPath() const {
    return d->journalPath;
}

StoreError::Kind CrawlEngine::journalFailure() const {
    return d->journalFailure;
}

QMap<QString, QString> CrawlEngine::readJournalSettings(const QString &path, QString *error) {
    StoreError storeError;
    StoreOptions options;
    options.readOnly = true;
    std::unique_ptr<CrawlStore> store = CrawlStore::open(path, &storeError, options);
    if (!store) {
        if (error)
            *error = storeError.message;
        return {};
    }
    QMap<QString, QString> settings = store->settings();
    if (store->lastError().isError() && error)
        *error = store->lastError().message;
    return settings;
}

void CrawlEngine::saveJournalCopy(const QString &target) {
    FrontierService *frontier = d->frontier;
    if (!frontier) {
        QMetaObject::invokeMethod(
            this, [this, target] { Q_EMIT journalCopied(false, target, QStringLiteral("no crawl is open")); },
            Qt::QueuedConnection);
        return;
    }
    QMetaObject::invokeMethod(
        frontier,
        [frontier, target, pages = d->copyPagesPerStep, pauseMs = d->copyPauseMs] {
            frontier->saveCopy(target, pages, pauseMs);
        },
        Qt::QueuedConnection);
}

void CrawlEngine::cancelJournalCopy() {
    if (FrontierService *frontier = d->frontier)
        QMetaObject::invokeMethod(
            frontier, [frontier] { frontier->cancelCopy(); }, Qt::QueuedConnection);
}

void CrawlEngine::setJournalCopyStep(int pagesPerStep, int pauseMs) {
    d->copyPagesPerStep = std::max(1, pagesPerStep);
    d->copyPauseMs = std::max(0, pauseMs);
}

bool CrawlEngine::hasOpenJournal() const {
    return d->frontier != nullptr;
}

void CrawlEngine::writeJournalSettings(const QMap<QString, QString> &values) {
    if (FrontierService *frontier = d->frontier) {
        QMetaObject::invokeMethod(
            frontier, [frontier, values] { frontier->writeSettings(values); }, Qt::QueuedConnection);
    }
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
    d->frontier->kick();
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
        d->frontier->resumeAfterStop();
    }
    QList<CrawlResult> again;
    for (const CrawlResult &old : previous) {
        if (!normalizeUrl(old.url).ok() || old.outcome == Outcome::Ok)
            continue;      // nothing to fetch for an invalid line or a success
        d->tally(old, -1); // its new result takes the old one's place in the counts
        again.append(old);
    }
    if (again.isEmpty())
        return;
    d->frontier->retry(again);
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
    if (sign > 0 || result.host.isEmpty() || !frontier)
        return;
    // A retried row leaves the host's tallies (its new outcome is counted when it commits).
    QMutexLocker lock(&frontier->talliesMutex);
    const auto it = frontier->tallies.find(result.host);
    if (it != frontier->tallies.end()) {
        --it->done;
        --(result.outcome == Outcome::Ok ? it->ok : it->failed);
        it->accepted -= isAccepted ? 1 : 0;
    }
}

void CrawlEnginePrivate::collectResults() {
    if (!context)
        return;
    QList<CrawlResult> batch;
    QList<BreakerEvent> events;
    {
        QMutexLocker lock(&context->resultsMutex);
        batch.swap(context->committed);
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
    if (state == CrawlState::Finished || state == CrawlState::Idle || !frontier)
        return;
    const bool journalFailed = frontier->failed.load();
    if (journalFailed && !stopRequested) {
        // Nothing more can be acknowledged: stop fetching, keep what is committed, say why.
        context->stopping.store(true);
        for (FetchShard *shard : context->shards)
            shard->stopAll();
    }
    if (!journalFailed && (!frontier->inputComplete.load() || done < frontier->rows.load()))
        return;
    state = CrawlState::Finished;
    resultTimer.stop();
    snapshotTimer.stop();
    for (FetchShard *shard : context->shards)
        shard->publishAndWait(); // shards are idle now; their last counters belong in the summary
    CrawlSummary summary;
    summary.last = buildSnapshot();
    summary.stoppedByUser = stopRequested;
    summary.inputError = frontier->readError; // written before inputComplete was set
    if (journalFailed)
        summary.journalError = frontier->failure;
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
    s.invalid = frontier ? frontier->invalid.load() : 0;
    s.duplicates = frontier ? frontier->duplicates.load() : 0;
    if (frontier && frontier->inputComplete.load())
        s.total = frontier->rows.load();
    else if (feeder && feeder->estimatedRows.load() >= 0)
        s.total = std::max(feeder->estimatedRows.load() - s.duplicates, frontier ? frontier->rows.load() : 0);

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
    }
    if (frontier) {
        QMutexLocker lock(&frontier->talliesMutex);
        for (HostSnapshot &host : s.hosts) {
            const auto it = frontier->tallies.constFind(host.host);
            if (it != frontier->tallies.cend()) {
                host.done = it->done;
                host.ok = it->ok;
                host.failed = it->failed;
                host.accepted = it->accepted;
            }
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
