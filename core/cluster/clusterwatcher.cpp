#include "cluster/clusterwatcher.h"

#include "cluster/clusterhostbudget.h"
#include "cluster/clusterqueue.h"
#include "cluster/clusterresultcodec.h"
#include "cluster/redisconnection.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QRandomGenerator>
#include <QSysInfo>
#include <QTimer>

#include <algorithm>

namespace crawl {

namespace {
// Ids of the coordinator's input rows in the window: far above any URL id Redis hands out (a counter).
constexpr quint64 kInputRowIdBase = quint64(1) << 62;
// A reader mark outlives a few missed refreshes (a Redis restart), not a window that went away.
constexpr qint64 kReaderTtlMs = 30000;
constexpr int kMaxHostPages = 50; // x 200 hosts: the table's bound, so one poll stays short
constexpr int kHostsPerPage = 200;
} // namespace

std::atomic<int> ClusterWatcher::s_live{0};

ClusterWatcher::ClusterWatcher(Settings settings, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
    , m_readerId(QByteArrayLiteral("window-") + QSysInfo::machineHostName().toUtf8() + '-' +
                 QByteArray::number(QCoreApplication::applicationPid()) + '-' +
                 QByteArray::number(QRandomGenerator::system()->generate(), 16)) {
    ++s_live;
}

ClusterWatcher::~ClusterWatcher() {
    --s_live;
}

bool ClusterWatcher::streamIdLess(const QByteArray &a, const QByteArray &b) {
    const auto parts = [](const QByteArray &id) {
        const qsizetype dash = id.indexOf('-');
        return std::pair<qulonglong, qulonglong>(id.left(dash).toULongLong(),
                                                 dash < 0 ? 0 : id.mid(dash + 1).toULongLong());
    };
    return parts(a) < parts(b);
}

qint64 ClusterWatcher::rowsTrimmedUnread(qint64 entriesAdded, qint64 length, qint64 rowsRead,
                                         const QByteArray &firstStreamId,
                                         const QByteArray &lastReadStreamId) {
    const bool gap = firstStreamId.isEmpty() || lastReadStreamId.isEmpty() ||
                     streamIdLess(lastReadStreamId, firstStreamId);
    if (!gap)
        return 0; // the stream still holds the last row read, so it holds every row after it
    return std::max<qint64>(0, entriesAdded - length - rowsRead);
}

void ClusterWatcher::start() {
    m_since.start();
    RedisConnection::Options options;
    // Short: a poll that cannot reach Redis reports it and tries again next second, so stop() is never
    // kept waiting long by a reconnect.
    options.connectTimeoutMs = 1000;
    options.commandTimeoutMs = 3000;
    options.reconnectDeadlineMs = 500;
    options.clientName = m_readerId;
    m_connection = std::make_unique<RedisConnection>(m_settings.url, options);
    m_queue = std::make_unique<ClusterQueue>(*m_connection, m_settings.crawlName);
    m_budget = std::make_unique<ClusterHostBudget>(*m_connection, m_settings.crawlName);
    m_pollTimer = new QTimer(this);
    m_pollTimer->setInterval(m_settings.pollIntervalMs);
    connect(m_pollTimer, &QTimer::timeout, this, &ClusterWatcher::poll);
    m_resultsTimer = new QTimer(this);
    m_resultsTimer->setInterval(m_settings.resultsIntervalMs);
    connect(m_resultsTimer, &QTimer::timeout, this, &ClusterWatcher::readResults);
    // Marked before the first read: from now on the coordinator keeps every row this watcher has not read.
    m_queue->markReader(m_readerId, m_lastStreamId, kReaderTtlMs);
    poll();
    readResults();
    m_pollTimer->start();
    m_resultsTimer->start();
}

void ClusterWatcher::stop() {
    if (m_stopped)
        return;
    m_stopped = true;
    if (m_pollTimer)
        m_pollTimer->stop();
    if (m_resultsTimer)
        m_resultsTimer->stop();
    if (m_connection && m_connection->isConnected())
        m_queue->dropReader(m_readerId);
    if (m_connection)
        m_connection->disconnect();
}

bool ClusterWatcher::pollBroken() const {
    return m_stopRequested || !m_connection->isConnected();
}

bool ClusterWatcher::ensureConnected(QString *problem) {
    if (m_connection->isConnected())
        return true;
    if (m_connection->connect())
        return true;
    *problem = m_connection->lastError();
    return false;
}

void ClusterWatcher::poll() {
    if (m_stopped || m_stopRequested)
        return;
    ClusterWatchSnapshot s;
    s.crawlName = m_settings.crawlName;
    s.redactedUrl = m_settings.url.redacted();
    s.watchingForMs = m_since.elapsed();
    s.resultsSeen = m_seenIds.size();
    s.resultsOk = m_resultsOk;
    s.resultsFailed = m_resultsFailed;
    QString problem;
    if (ensureConnected(&problem)) {
        const qint64 localBefore = QDateTime::currentMSecsSinceEpoch();
        const QList<WorkerStatus> workers = m_queue->workers(&s.serverNowMs);
        problem = m_queue->lastError();
        // Each call below may time out on a hung server: after one has, the rest are skipped, so a poll
        // costs one timeout, not one per call.
        if (s.serverNowMs > 0) {
            problem.clear();
            s.localMinusServerMs = localBefore - s.serverNowMs;
            s.workers = clusterWorkerViews(workers, s.serverNowMs, m_settings.workerDeadAfterMs);
            s.counts = m_queue->counts();
            if (!pollBroken())
                if (const std::optional<ClusterLimits> limits = m_budget->limits())
                    s.limits = *limits;
            if (!pollBroken())
                s.inputComplete =
                    m_queue->settings().value(QStringLiteral("input_complete")) == QLatin1String("1");
            QByteArray cursor = QByteArrayLiteral("0");
            for (int page = 0; page < kMaxHostPages && !pollBroken(); ++page) {
                QByteArray next;
                s.hosts += m_queue->hostsPage(cursor, kHostsPerPage, &next, s.serverNowMs);
                if (next == "0" || next.isEmpty())
                    break;
                cursor = next;
            }
            // SSCAN may return a host twice across pages: keep the last sighting of each.
            QHash<QString, qsizetype> seen;
            QList<ClusterHostRow> unique;
            for (const ClusterHostRow &row : std::as_const(s.hosts)) {
                if (const auto it = seen.constFind(row.host); it != seen.cend()) {
                    unique[*it] = row;
                } else {
                    seen.insert(row.host, unique.size());
                    unique.append(row);
                }
            }
            s.hosts = unique;
            qint64 starts = 0;
            for (const ClusterHostRow &row : std::as_const(s.hosts))
                starts += row.status.starts;
            if (m_lastStarts >= 0 && s.serverNowMs > m_lastStartsAtMs)
                s.startsPerSec = static_cast<double>(std::max<qint64>(0, starts - m_lastStarts)) * 1000.0 /
                                 static_cast<double>(s.serverNowMs - m_lastStartsAtMs);
            m_lastStarts = starts;
            m_lastStartsAtMs = s.serverNowMs;
            if (m_stopRequested)
                return; // nobody is listening any more
            if (!m_connection->isConnected())
                problem = m_connection->lastError();
            else if (!s.counts.error.isEmpty())
                problem = s.counts.error;
            else if (!m_queue->crawlExists()) // false also when Redis went away meanwhile: say which
                problem = m_connection->isConnected()
                              ? QStringLiteral("the crawl \"%1\" is no longer in %2")
                                    .arg(m_settings.crawlName, m_settings.url.redacted())
                              : m_connection->lastError();
        }
    }
    s.connected = problem.isEmpty();
    if (!s.connected)
        s.problem = QStringLiteral("disconnected, retrying: %1").arg(problem);
    Q_EMIT snapshotReady(s);
}

void ClusterWatcher::readResults() {
    if (m_stopped || m_stopRequested || !m_connection->isConnected())
        return; // poll() reconnects and reports; reading resumes from m_lastStreamId
    checkTrimmedUnread();
    QList<CrawlResult> batch;
    for (int round = 0; round < 10 && !pollBroken(); ++round) {
        const QList<ClusterResultRecord> page =
            m_queue->readResults(m_lastStreamId, m_settings.resultsPerRead);
        m_rowsRead += page.size();
        for (const ClusterResultRecord &record : page) {
            CrawlResult row = ClusterResultCodec::decode(record.fields);
            // An input row (invalid line, out of scope) has no URL id: Redis adds it once per line, and it
            // gets an id of its own from its line, apart from the URLs' (the results model keys rows by id).
            if (record.isInputRow()) {
                row.id = kInputRowIdBase + quint64(std::max<qint64>(0, row.lineNumber));
            } else {
                if (m_seenIds.contains(row.id))
                    continue; // the coordinator drops repeats too: one row per URL
                m_seenIds.insert(row.id);
            }
            (row.outcome == Outcome::Ok ? m_resultsOk : m_resultsFailed) += 1;
            batch.append(std::move(row));
        }
        if (!page.isEmpty())
            m_lastStreamId = page.last().streamId;
        if (page.size() < m_settings.resultsPerRead)
            break;
    }
    // Refreshed on every read (not only when rows came): the mark must outlive a quiet spell.
    if (!pollBroken())
        m_queue->markReader(m_readerId, m_lastStreamId, kReaderTtlMs);
    if (!batch.isEmpty())
        Q_EMIT resultsReady(batch);
}

void ClusterWatcher::checkTrimmedUnread() {
    // Before the page is read, so rows added meanwhile are in neither count.
    const RedisReply info = m_connection->command({QByteArrayLiteral("XINFO"), QByteArrayLiteral("STREAM"),
                                                   clusterKeyPrefix(m_settings.crawlName) + "results"});
    if (info.kind != RedisReply::Kind::Array)
        return; // no stream yet (nothing written), or the call failed: poll() reports that
    qint64 added = -1;
    qint64 length = 0;
    QByteArray firstId;
    for (qsizetype i = 0; i + 1 < info.elements.size(); i += 2) {
        const QByteArray &field = info.elements[i].text;
        const RedisReply &value = info.elements[i + 1];
        if (field == "entries-added")
            added = value.toInteger(-1);
        else if (field == "length")
            length = value.toInteger();
        else if (field == "first-entry" && value.kind == RedisReply::Kind::Array && !value.elements.isEmpty())
            firstId = value.elements.first().text;
    }
    if (added < 0)
        return; // a server older than 7.0 does not count the rows ever added
    const qint64 missed = rowsTrimmedUnread(added, length, m_rowsRead, firstId, m_lastStreamId);
    if (missed > m_rowsMissed) {
        m_rowsMissed = missed;
        Q_EMIT rowsMissed(missed);
    }
}

void ClusterWatcher::setSharedLimits(const ClusterLimits &wanted, const ClusterHostLimits &hostOverrides) {
    QString problem;
    if (!ensureConnected(&problem)) {
        Q_EMIT limitsWritten(false, 0, problem);
        return;
    }
    std::optional<ClusterLimits> limits = m_budget->limits();
    if (!limits) {
        Q_EMIT limitsWritten(false, 0, m_budget->lastError());
        return;
    }
    limits->globalInFlight = wanted.globalInFlight;
    limits->perHostInFlight = wanted.perHostInFlight;
    limits->intervalMs = wanted.intervalMs;
    limits->maxRatePerSec = wanted.maxRatePerSec;
    std::optional<qint64> version = m_budget->setLimits(*limits);
    for (auto it = hostOverrides.cbegin(); version && it != hostOverrides.cend(); ++it) {
        version = m_budget->setHostOverride(it.key(), it.value().first, it.value().second);
        m_overriddenHosts.insert(it.key());
    }
    for (const QString &host : QSet<QString>(m_overriddenHosts)) {
        if (!version || hostOverrides.contains(host))
            continue;
        version = m_budget->setHostOverride(host, std::nullopt, std::nullopt); // back to the crawl's limits
        m_overriddenHosts.remove(host);
    }
    Q_EMIT limitsWritten(version.has_value(), version.value_or(0),
                         version ? QString() : m_budget->lastError());
}

void ClusterWatcher::applyHostAction(const QString &host, HostAction action) {
    QString problem;
    if (!ensureConnected(&problem)) {
        Q_EMIT hostActionApplied(host, action, false, false, problem);
        return;
    }
    const std::optional<bool> changed = m_budget->hostAction(host, action);
    Q_EMIT hostActionApplied(host, action, changed.has_value(), changed.value_or(false),
                             changed ? QString() : m_budget->lastError());
    if (changed.value_or(false))
        poll(); // the Hosts tab shows the new state now, not a second later
}

} // namespace crawl
