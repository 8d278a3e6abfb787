#include "frontier/frontierservice.h"

#include "engine/enginecontext.h"
#include "engine/fetchshard.h"
#include "frontier/ownerprocess.h"
#include "frontier/temporaryjournals.h"
#include "model/cancelreason.h"
#include "store/crawlstore.h"
#include "store/storebackup.h"
#include "store/storedcrawlconfig.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QReadLocker>
#include <QUrl>

#include <algorithm>

namespace crawl {

namespace {
constexpr int kTickMs = 10;
constexpr int kIdleDispatchMs = 250; // look for due work (retries, pauses ending) at least this often
constexpr int kLinesPerCommit = 500; // input transactions are short: result commits never wait long
constexpr int kRowsPerPage = 5'000;  // replayed or cancelled rows handed on per tick
constexpr qint64 kMaxUnacknowledgedRows = 20'000; // the façade has not taken them yet: wait
constexpr int kTallyHostsKept = 8'192;
// A single process owns its leases until it dies; a resume reclaims them (a shared frontier renews them).
constexpr qint64 kLeaseMs = 365LL * 24 * 3600 * 1000;

qint64 nowMs() {
    return QDateTime::currentMSecsSinceEpoch();
}
} // namespace

FrontierService::FrontierService(EngineContext *context)
    : m_context(context)
    , m_owner(QStringLiteral("pid-%1").arg(QCoreApplication::applicationPid()))
    , m_tickTimer(this)
    , m_backupTimer(this) {
    m_tickTimer.setInterval(kTickMs);
    connect(&m_tickTimer, &QTimer::timeout, this, &FrontierService::tick);
    connect(&m_backupTimer, &QTimer::timeout, this, &FrontierService::copyStep);
}

FrontierService::~FrontierService() {
    if (m_backup) {
        const QString target = m_backup->target();
        m_backup.reset();
        Q_EMIT copySaved(false, target, QStringLiteral("the crawl was closed before its copy was saved"));
    }
    m_store.reset(); // closes the file before a temporary journal's folder is removed
}

bool FrontierService::open(const CrawlJournal &journal, QString *error) {
    StoreOptions options;
    options.sync = journal.sync;
    QString path = journal.path;
    if (path.isEmpty()) {
        QString folderError;
        const QString base = temporaryjournals::folder(&folderError);
        if (base.isEmpty()) {
            *error = folderError;
            m_openFailure = StoreError::Kind::Io;
            return false;
        }
        // Journals of crawls killed with SIGKILL are left behind: their owner is gone, delete them.
        temporaryjournals::removeStale(base, isProcessAlive);
        m_temporaryDir = std::make_unique<QTemporaryDir>(
            temporaryjournals::folderTemplate(base, QCoreApplication::applicationPid()));
        if (!m_temporaryDir->isValid()) {
            *error = QStringLiteral("cannot create a temporary crawl journal in %1: %2")
                         .arg(base, m_temporaryDir->errorString());
            m_openFailure = StoreError::Kind::Io;
            return false;
        }
        path = m_temporaryDir->filePath(QStringLiteral("crawl.db"));
    }
    StoreError storeError;
    std::unique_ptr<CrawlStore> store;
    if (journal.resume) {
        store = CrawlStore::open(path, &storeError, options);
    } else {
        QMap<QString, QString> settings = journal.settings;
        settings.insert(journalkey::createdAt, QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
        store = CrawlStore::create(path, settings, &storeError, options);
    }
    if (!store) {
        *error = storeError.message;
        m_openFailure = storeError.kind;
        return false;
    }
    if (journal.resume) {
        // What was in flight when the crawl stopped (or crashed) is fetched again, its attempt counted.
        if (store->reclaimInFlight() < 0) {
            *error = store->lastError().message;
            return false;
        }
        m_storedSettings = store->settings();
        m_resumeAfterLine = store->lastInputLine();
        m_storedInputComplete = m_storedSettings.value(journalkey::inputComplete) == QLatin1String("1");
        const StoreCounts counts = store->counts();
        rows.store(counts.rows());
        duplicates.store(counts.duplicates);
        invalid.store(counts.invalid);
        if (store->lastError().isError() || m_resumeAfterLine < 0) {
            *error = store->lastError().message;
            return false;
        }
        m_replayAfterId = 0;
    }
    m_storePath = path;
    m_store = std::move(store);
    return true;
}

void FrontierService::saveCopy(const QString &target, int pagesPerStep, int pauseMs) {
    if (!m_store) {
        Q_EMIT copySaved(false, target, QStringLiteral("the crawl journal is not open"));
        return;
    }
    if (m_backup) {
        Q_EMIT copySaved(
            false, target,
            QStringLiteral("a copy of the crawl to %1 is still being saved").arg(m_backup->target()));
        return;
    }
    QString error;
    m_backup = m_store->startBackup(target, &error);
    if (!m_backup) {
        Q_EMIT copySaved(false, target, error);
        return;
    }
    m_backupPagesPerStep = std::max(1, pagesPerStep);
    // A timer, not a loop: between two steps the tick (commits, hand-outs) runs as usual.
    m_backupTimer.setInterval(std::max(0, pauseMs));
    m_backupTimer.start();
}

void FrontierService::copyStep() {
    if (!m_backup) {
        m_backupTimer.stop();
        return;
    }
    const StoreBackup::Step step = m_backup->step(m_backupPagesPerStep);
    Q_EMIT copyProgress(m_backup->pagesCopied(), m_backup->pagesTotal());
    if (step == StoreBackup::Step::More)
        return;
    m_backupTimer.stop();
    const std::unique_ptr<StoreBackup> backup = std::move(m_backup);
    Q_EMIT copySaved(step == StoreBackup::Step::Done, backup->target(), backup->error());
}

void FrontierService::cancelCopy() {
    if (!m_backup)
        return;
    m_backupTimer.stop();
    const QString target = m_backup->target();
    m_backup.reset(); // removes the partial copy; the target is untouched
    Q_EMIT copySaved(false, target, QStringLiteral("saving the copy was cancelled"));
}

void FrontierService::recordConfig() {
    const quint64 version = m_context->configVersion.load(std::memory_order_acquire);
    if (version == m_configRecorded)
        return;
    m_configRecorded = version;
    StoredCrawlConfig config;
    {
        QReadLocker lock(&m_context->configLock);
        config = StoredCrawlConfig::from(m_context->limits, m_context->policy, m_context->quality);
    }
    // Not the crawl's failure if it cannot be written: a resume then starts from its caller's limits.
    QMap<QString, QString> values = config.toSettings();
    std::optional<QString> newHosts = values.value(StoredCrawlConfig::kAllowedHostsKey);
    if (!values.contains(StoredCrawlConfig::kAllowedHostsKey) || newHosts == m_allowedHostsRecorded) {
        values.remove(StoredCrawlConfig::kAllowedHostsKey); // megabytes, the same on every limit change
        newHosts.reset();
    }
    if (m_store->setSettings(values) && newHosts)
        m_allowedHostsRecorded = std::move(*newHosts);
}

void FrontierService::writeSettings(const QMap<QString, QString> &values) {
    // A failure here is not the crawl's: the store keeps its rows, only the caller's marker is missing.
    if (m_store)
        m_store->setSettings(values);
}

void FrontierService::addLines(QList<StoreInputLine> lines) {
    const qint64 count = lines.size();
    {
        QMutexLocker lock(&m_inboxMutex);
        m_lines.append(std::move(lines));
    }
    pendingLines.fetch_add(count);
    kick();
}

void FrontierService::inputEnded(const QString &readError) {
    {
        QMutexLocker lock(&m_inboxMutex);
        m_inputEnded = true;
        m_inputError = readError;
    }
    kick();
}

void FrontierService::retry(const QList<CrawlResult> &previous) {
    {
        QMutexLocker lock(&m_inboxMutex);
        m_retries.append(previous);
    }
    kick();
}

void FrontierService::resumeAfterStop() {
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_stopHandled = false;
            m_unfinishedAfterId = -1;
        },
        Qt::QueuedConnection);
}

void FrontierService::kick() {
    if (m_tickPosted.exchange(true))
        return;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_dirty = true;
            tick();
        },
        Qt::QueuedConnection);
}

void FrontierService::begin() {
    m_tickTimer.start();
    tick();
}

void FrontierService::halt() {
    m_halted = true;
    m_tickTimer.stop();
}

void FrontierService::tick() {
    m_tickPosted.store(false);
    if (m_halted || failed.load() || !m_store)
        return;
    const qint64 now = nowMs();
    appendLines();
    commitResults();
    if (failed.load())
        return;
    recordConfig();

    QList<CrawlResult> retries;
    {
        QMutexLocker lock(&m_inboxMutex);
        retries.swap(m_retries);
    }
    if (!retries.isEmpty()) {
        QList<qint64> ids;
        ids.reserve(retries.size());
        for (const CrawlResult &row : std::as_const(retries))
            ids.append(qint64(row.id));
        // Finished rows become pending again; rows a stop cancelled are pending already. Both are leased.
        if (m_store->requeueFinished(ids, now) < 0 || m_store->markInFlight(ids, m_owner, now + kLeaseMs) < 0)
            return fail(m_store->lastError().message);
        for (const CrawlResult &row : std::as_const(retries)) {
            const NormalizedUrl url = normalizeUrl(row.url);
            Job job = Job::fromInput(row.id, row.lineNumber, url, steadyNowNs());
            ++m_outstanding[url.hostKey];
            ++m_outstandingTotal;
            m_context->shards[size_t(m_context->shardFor(url.hostKey))]->enqueue(std::move(job));
        }
    }

    // A resumed crawl hands on its committed rows a page per tick while new work already starts: fetching
    // does not wait for a million old rows to reach the CSV.
    if (m_replayAfterId >= 0)
        replayFinished();
    if (m_context->stopping.load())
        m_retryOnly = true;
    if (!m_context->stopping.load() && !m_retryOnly) {
        if (m_dirty || now - m_lastDispatchMs >= kIdleDispatchMs)
            dispatch(now);
    } else if (!m_stopHandled && m_outstandingTotal == 0 && inputComplete.load() && m_replayAfterId < 0) {
        emitUnfinishedAsCancelled();
    }
}

void FrontierService::appendLines() {
    // Storing a big list must not starve the crawl of refills and commits: while work is out, input gets
    // a few milliseconds a tick (about 20,000 lines/s); when nothing is out it may take its time.
    QElapsedTimer spent;
    spent.start();
    const qint64 budgetMs = m_outstandingTotal > 0 ? 4 : 50;
    while (true) {
        QList<StoreInputLine> lines;
        bool ended = false;
        QString endError;
        {
            QMutexLocker lock(&m_inboxMutex);
            if (m_lines.size() <= kLinesPerCommit) {
                lines.swap(m_lines);
            } else {
                lines = m_lines.first(kLinesPerCommit);
                m_lines.remove(0, kLinesPerCommit);
            }
            ended = m_inputEnded && m_lines.isEmpty();
            endError = m_inputError;
        }
        if (!lines.isEmpty()) {
            AppendOutcome outcome;
            QList<CrawlResult> invalidRows;
            if (!m_store->appendInput(lines, nowMs(), &outcome, &invalidRows))
                return fail(m_store->lastError().message);
            rows.fetch_add(outcome.added + outcome.invalid);
            duplicates.fetch_add(outcome.duplicates);
            invalid.fetch_add(outcome.invalid);
            pendingLines.fetch_sub(lines.size());
            acknowledge(std::move(invalidRows));
            m_dirty = true;
        }
        if (ended && !inputComplete.load()) {
            if (!m_store->setSettings({{journalkey::inputComplete, QStringLiteral("1")}}))
                return fail(m_store->lastError().message);
            readError = endError;
            inputComplete.store(true);
        }
        if (lines.size() < kLinesPerCommit || spent.elapsed() >= budgetMs)
            return;
    }
}

void FrontierService::commitResults() {
    QList<CrawlResult> results;
    ResultBatch batch;
    {
        QMutexLocker lock(&m_context->resultsMutex);
        results.swap(m_context->results);
        batch.started.swap(m_context->startedAttempts);
    }
    if (results.isEmpty() && batch.started.isEmpty())
        return;
    const bool stopping = m_context->stopping.load();
    const QString stopText = stoppedBeforeFinishText();
    QList<ReleasedLease> released;
    QList<CrawlResult> finished;
    finished.reserve(results.size());
    for (CrawlResult &result : results) {
        if (auto it = m_outstanding.find(result.host); it != m_outstanding.end()) {
            if (--*it <= 0)
                m_outstanding.erase(it);
            --m_outstandingTotal;
        }
        m_dirty = true;
        if (stopping && result.outcome == Outcome::Cancelled && result.error == stopText) {
            released.append(ReleasedLease{qint64(result.id), result.attempts}); // stays pending: resumable
            continue;
        }
        batch.finished.append(ResultBatch::Finished{qint64(result.id), result});
        finished.append(std::move(result));
    }
    if (!batch.isEmpty() && !m_store->recordResults(batch))
        return fail(m_store->lastError().message);
    if (!released.isEmpty() && !m_store->releaseLeases(released))
        return fail(m_store->lastError().message);
    {
        QMutexLocker lock(&talliesMutex);
        for (const CrawlResult &result : std::as_const(finished)) {
            if (result.host.isEmpty())
                continue;
            HostTally &tally = tallies[result.host];
            ++tally.done;
            ++(result.outcome == Outcome::Ok ? tally.ok : tally.failed);
            tally.accepted += result.accepted == CrawlResult::Accepted::Yes ? 1 : 0;
        }
    }
    acknowledge(std::move(finished));
}

int FrontierService::chunkSizeFor(const QString &hostKey) const {
    int maxInFlight = 1;
    {
        QReadLocker lock(&m_context->configLock);
        maxInFlight = m_context->limits.maxInFlightFor(hostKey);
    }
    // Enough that a fast host never waits for the next tick's refill (a host at 8 in flight and 1 ms a
    // request finishes ~80 a tick), small enough that 256 active hosts hold at most 64k jobs.
    return std::clamp(16 * maxInFlight, 16, 256);
}

void FrontierService::dispatch(qint64 now) {
    m_dirty = false;
    m_lastDispatchMs = now;
    int globalInFlight = 16;
    {
        QReadLocker lock(&m_context->configLock);
        globalInFlight = m_context->limits.globalInFlight;
    }
    // Enough hosts to keep every global slot busy even when most of them are paced or paused.
    const qsizetype maxActiveHosts = std::max(256, 8 * globalInFlight);
    qsizetype active = m_outstanding.size();
    const QList<EligibleHost> hosts = m_store->hostsWithEligibleWork(now, int(maxActiveHosts + 64));
    if (m_store->lastError().isError())
        return fail(m_store->lastError().message);

    struct Handout {
        QString hostKey;
        QList<PendingEntry> entries;
    };
    QList<Handout> handouts;
    QList<qint64> ids;
    QStringList newHosts;
    for (const EligibleHost &host : hosts) {
        const qint64 outstanding = m_outstanding.value(host.hostKey, 0);
        const int chunk = chunkSizeFor(host.hostKey);
        if (outstanding > chunk / 2)
            continue; // enough of its work is still out
        if (outstanding == 0 && active >= maxActiveHosts)
            continue;
        QList<PendingEntry> entries = m_store->nextChunkForHost(host.hostKey, int(chunk - outstanding), now);
        if (entries.isEmpty())
            continue;
        if (outstanding == 0) {
            ++active;
            newHosts.append(host.hostKey);
        }
        for (const PendingEntry &entry : std::as_const(entries))
            ids.append(entry.id);
        handouts.append(Handout{host.hostKey, std::move(entries)});
    }
    if (ids.isEmpty())
        return;
    if (m_store->markInFlight(ids, m_owner, now + kLeaseMs) < 0)
        return fail(m_store->lastError().message);

    // A host coming back shows its committed tallies, not zero.
    {
        QMutexLocker lock(&talliesMutex);
        if (tallies.size() > kTallyHostsKept) {
            for (auto it = tallies.begin(); it != tallies.end();)
                it = m_outstanding.contains(it.key()) ? std::next(it) : tallies.erase(it);
        }
    }
    for (const QString &hostKey : std::as_const(newHosts)) {
        bool known = false;
        {
            QMutexLocker lock(&talliesMutex);
            known = tallies.contains(hostKey);
        }
        if (known)
            continue;
        const std::optional<HostRecord> record = m_store->hostRecord(hostKey);
        QMutexLocker lock(&talliesMutex);
        tallies.insert(hostKey, record ? HostTally{record->done, record->ok, record->failed} : HostTally{});
    }

    const qint64 steadyNow = steadyNowNs();
    for (Handout &handout : handouts) {
        FetchShard *shard = m_context->shards[size_t(m_context->shardFor(handout.hostKey))];
        m_outstanding[handout.hostKey] += handout.entries.size();
        m_outstandingTotal += handout.entries.size();
        for (const PendingEntry &entry : std::as_const(handout.entries)) {
            Job job;
            job.id = quint64(entry.id);
            job.lineNumber = entry.lineNumber;
            job.inputUrl = entry.url;
            job.inputHost = entry.hostKey;
            job.currentUrl = QUrl(entry.url);
            job.currentHost = entry.hostKey;
            job.attempts = entry.attempts; // a URL in flight at a crash has that attempt counted
            job.enqueuedNs = steadyNow;
            shard->enqueue(std::move(job));
        }
    }
}

void FrontierService::replayFinished() {
    {
        QMutexLocker lock(&m_context->resultsMutex);
        if (m_context->committed.size() >= kMaxUnacknowledgedRows)
            return;
    }
    QList<CrawlResult> page = m_store->rowsPage(m_replayAfterId, kRowsPerPage, RowFilter::Finished);
    if (m_store->lastError().isError())
        return fail(m_store->lastError().message);
    if (page.isEmpty()) {
        m_replayAfterId = -1;
        m_liveDuringReplay.clear();
        m_dirty = true;
        return;
    }
    m_replayAfterId = qint64(page.last().id);
    page.removeIf([this](const CrawlResult &row) { return m_liveDuringReplay.remove(row.id); });
    acknowledge(std::move(page), /*replayed=*/true);
}

void FrontierService::emitUnfinishedAsCancelled() {
    {
        QMutexLocker lock(&m_context->resultsMutex);
        if (m_context->committed.size() >= kMaxUnacknowledgedRows)
            return;
    }
    if (m_unfinishedAfterId < 0)
        m_unfinishedAfterId = 0;
    const QList<CrawlResult> page =
        m_store->rowsPage(m_unfinishedAfterId, kRowsPerPage, RowFilter::Unfinished);
    if (m_store->lastError().isError())
        return fail(m_store->lastError().message);
    if (page.isEmpty()) {
        m_stopHandled = true;
        return;
    }
    m_unfinishedAfterId = qint64(page.last().id);
    // Not recorded: the entries stay pending so --resume continues them. The rows say what a stop means.
    QList<CrawlResult> cancelled;
    cancelled.reserve(page.size());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const CrawlResult &row : page) {
        CrawlResult r;
        r.id = row.id;
        r.lineNumber = row.lineNumber;
        r.url = row.url;
        r.host = row.host;
        r.attempts = row.attempts;
        r.outcome = Outcome::Cancelled;
        r.error = stoppedBeforeFinishText();
        r.finishedAt = now;
        cancelled.append(std::move(r));
    }
    acknowledge(std::move(cancelled));
}

void FrontierService::acknowledge(QList<CrawlResult> rows, bool replayed) {
    if (rows.isEmpty())
        return;
    if (!replayed && m_replayAfterId >= 0) {
        for (const CrawlResult &row : std::as_const(rows))
            m_liveDuringReplay.insert(row.id);
    }
    QMutexLocker lock(&m_context->resultsMutex);
    if (m_context->committed.isEmpty())
        m_context->committed = std::move(rows);
    else
        m_context->committed.append(std::move(rows));
}

void FrontierService::fail(const QString &what) {
    if (failed.load())
        return;
    failure = what.isEmpty() ? QStringLiteral("the crawl journal %1 failed").arg(m_storePath) : what;
    failed.store(true);
    m_tickTimer.stop();
}

} // namespace crawl
