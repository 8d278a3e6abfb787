#include "cluster/clusterworkerclient.h"

#include "cluster/clusterhostbudget.h"
#include "cluster/clusterqueue.h"
#include "cluster/redisconnection.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QSysInfo>
#include <QTimer>

#include <algorithm>
#include <chrono>

namespace crawl {

namespace {
constexpr qint64 kRateWindowMs = 5000;
}

ClusterWorkerClient::ClusterWorkerClient(Settings settings, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings)) {
    // Queued signals and slots across the worker's threads carry these.
    qRegisterMetaType<ClusterLimits>();
    qRegisterMetaType<BreakerRecord>();
    qRegisterMetaType<ClusterLease>();
    qRegisterMetaType<QList<ClusterLease>>();
    qRegisterMetaType<QList<QPair<QByteArray, QByteArray>>>();
    qRegisterMetaType<QMap<QString, QString>>();
    qRegisterMetaType<ClusterRobotsLookup>();
}

ClusterWorkerClient::~ClusterWorkerClient() = default;

QByteArray ClusterWorkerClient::makeWorkerId() {
    return QSysInfo::machineHostName().toUtf8() + '-' +
           QByteArray::number(QCoreApplication::applicationPid()) + '-' +
           QByteArray::number(QRandomGenerator::system()->generate(), 16);
}

quint64 ClusterWorkerClient::roundTrips() const {
    return m_connection ? m_connection->roundTrips() : 0;
}

void ClusterWorkerClient::start() {
    if (m_connection) { // called again: the crawl did not exist yet, or Redis could not be reached
        connectAndStart();
        return;
    }
    m_clock.start();
    RedisConnection::Options options;
    options.clientName = m_settings.workerId;
    m_connection = std::make_unique<RedisConnection>(m_settings.url, options);
    m_queue = std::make_unique<ClusterQueue>(*m_connection, m_settings.crawlName);
    m_budget = std::make_unique<ClusterHostBudget>(*m_connection, m_settings.crawlName);
    m_robots = std::make_unique<ClusterRobotsStore>(*m_connection, m_settings.crawlName);

    m_renewTimer = new QTimer(this);
    m_renewTimer->setInterval(static_cast<int>(std::max<qint64>(50, m_settings.leaseTtlMs / 3)));
    connect(m_renewTimer, &QTimer::timeout, this, &ClusterWorkerClient::renewLeases);
    m_heartbeatTimer = new QTimer(this);
    m_heartbeatTimer->setInterval(m_settings.heartbeatIntervalMs);
    connect(m_heartbeatTimer, &QTimer::timeout, this, &ClusterWorkerClient::sendHeartbeat);
    m_limitsTimer = new QTimer(this);
    m_limitsTimer->setInterval(m_settings.limitsPollIntervalMs);
    connect(m_limitsTimer, &QTimer::timeout, this, &ClusterWorkerClient::pollLimits);
    connectAndStart();
}

void ClusterWorkerClient::connectAndStart() {
    // One attempt, not the connection's 30 s of reconnecting: the worker says at once that Redis is not
    // there, and this thread stays free to hand leases back if the process is told to stop meanwhile.
    if (!m_connection->isConnected() && !m_connection->connectOnce()) {
        Q_EMIT unreachable(m_connection->lastError(), m_connection->lastFailureIsPermanent());
        return;
    }
    startOnConnection();
}

void ClusterWorkerClient::startOnConnection() {
    // A worker pointed at a crawl that does not exist would otherwise just see "nothing queued" forever.
    if (!m_queue->crawlExists()) {
        if (m_queue->lastError().isEmpty())
            Q_EMIT crawlMissing();
        Q_EMIT problem(m_queue->lastError().isEmpty()
                           ? QStringLiteral("no crawl named \"%1\" in %2")
                                 .arg(m_settings.crawlName, m_settings.url.redacted())
                           : m_queue->lastError());
        return;
    }
    const QMap<QString, QString> settings = m_queue->settings();
    const std::optional<ClusterLimits> limits = m_budget->limits();
    if (!limits) {
        Q_EMIT problem(m_budget->lastError());
        return;
    }
    m_limitsVersion = limits->version;
    Q_EMIT settingsRead(settings);
    sendHeartbeat();
    m_renewTimer->start();
    m_heartbeatTimer->start();
    m_limitsTimer->start();
    Q_EMIT started(*limits);
}

void ClusterWorkerClient::stop() {
    for (QTimer *timer : {m_renewTimer, m_heartbeatTimer, m_limitsTimer}) {
        if (timer)
            timer->stop();
    }
}

QByteArray ClusterWorkerClient::nextLeaseId() {
    return m_settings.workerId + ':' + QByteArray::number(++m_leaseCounter);
}

void ClusterWorkerClient::requestLeases(int count) {
    QList<ClusterLease> leases;
    qint64 askAgainInMs = -1;
    while (leases.size() < count) {
        const qint64 askedAtNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count();
        const LeaseResult result = m_queue->lease(m_settings.workerId, nextLeaseId(), m_settings.leaseTtlMs);
        if (!result.error.isEmpty()) {
            Q_EMIT problem(result.error);
            break;
        }
        if (!result.lease) {
            if (result.askAgainAtMs >= 0)
                askAgainInMs = std::clamp(result.askAgainAtMs - result.serverNowMs, kMinPollMs, kMaxPollMs);
            break;
        }
        m_held.insert(result.lease->leaseId, result.lease->host);
        leases.append(*result.lease);
        leases.last().askedAtSteadyNs = askedAtNs;
    }
    Q_EMIT leased(leases, askAgainInMs);
}

void ClusterWorkerClient::acknowledge(const QByteArray &leaseId,
                                      const QList<QPair<QByteArray, QByteArray>> &resultFields,
                                      bool requestSent) {
    finishHop(leaseId); // the request is over: its hop's slot frees with it
    const AckResult result =
        m_queue->acknowledge(m_settings.workerId, leaseId, resultFields, std::nullopt,
                             requestSent ? ClusterQueue::RequestSent::Yes : ClusterQueue::RequestSent::No);
    if (!result.error.isEmpty()) {
        // The lease stays held (and renewed): acknowledging again with the same id is safe.
        Q_EMIT problem(result.error);
        Q_EMIT acknowledged(leaseId, false, result.error);
        return;
    }
    m_held.remove(leaseId);
    if (result.accepted) {
        m_ackTimes.push_back(m_clock.elapsed());
        while (!m_ackTimes.empty() && m_ackTimes.front() < m_clock.elapsed() - kRateWindowMs)
            m_ackTimes.pop_front();
    }
    Q_EMIT acknowledged(leaseId, result.accepted, result.refusal);
}

void ClusterWorkerClient::retryLater(const QByteArray &leaseId, qint64 notBeforeMs) {
    finishHop(leaseId);
    const RenewResult result = m_queue->retryLater(m_settings.workerId, leaseId, notBeforeMs);
    if (!result.error.isEmpty()) {
        Q_EMIT problem(result.error);
        return;
    }
    m_held.remove(leaseId);
    if (!result.renewed)
        Q_EMIT leaseLost(leaseId, result.refusal);
}

void ClusterWorkerClient::tryStartHop(const QByteArray &leaseId, const QString &host) {
    const qint64 askedAtNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count();
    finishHop(leaseId);
    const StartDecision decision = m_budget->tryStart(host, leaseId + ":hop", m_settings.leaseTtlMs);
    if (!decision.error.isEmpty()) {
        Q_EMIT problem(decision.error);
        Q_EMIT hopDecision(leaseId, false, kMaxPollMs, askedAtNs);
        return;
    }
    if (decision.reason == StartDecision::Reason::GivenUp) {
        // Nothing starts there again: the lease's URL ends as `skipped`, with the breaker's words for why.
        Q_EMIT hopGivenUp(leaseId, host, m_budget->hostStatus(host).breakerReason);
        return;
    }
    if (decision.reason == StartDecision::Reason::SkippedByUser) {
        Q_EMIT hopSkippedByUser(leaseId, host);
        return;
    }
    if (decision.granted)
        m_hops.insert(leaseId, host);
    const qint64 askAgainInMs =
        decision.granted ? 0 : std::clamp(decision.atMs - decision.serverNowMs, kMinPollMs, kMaxPollMs);
    Q_EMIT hopDecision(leaseId, decision.granted, askAgainInMs, askedAtNs);
}

void ClusterWorkerClient::recordAttempt(const QString &host, const QByteArray &grantId, int health,
                                        int status, qint64 latencyMs) {
    const BreakerRecord record = m_budget->recordAttempt(host, grantId, health, status, latencyMs);
    if (!record.error.isEmpty()) {
        // Not recorded: the window misses one attempt; a probe's grant then ends without a verdict and the
        // host is probed again.
        Q_EMIT problem(record.error);
        return;
    }
    // --adaptive: fold the host's pace log into its shared pace now, before the acknowledgement frees the
    // grant (its reschedule then sees the new limits).
    if (record.pace) {
        if (const PaceUpdate update = m_budget->updatePace(host, *record.pace); !update.error.isEmpty())
            Q_EMIT problem(update.error);
    }
    if (record.transition != BreakerRecord::Transition::None)
        Q_EMIT breakerChanged(host, record);
}

void ClusterWorkerClient::finishHop(const QByteArray &leaseId) {
    const auto it = m_hops.constFind(leaseId);
    if (it == m_hops.constEnd())
        return;
    // False when it had expired already: nothing to give back either way.
    m_budget->finished(it.value(), leaseId + ":hop");
    m_hops.erase(it);
}

void ClusterWorkerClient::giveBack(const QByteArray &leaseId, bool requestSent) {
    const RenewResult result =
        m_queue->giveBack(m_settings.workerId, leaseId, std::nullopt,
                          requestSent ? ClusterQueue::RequestSent::Yes : ClusterQueue::RequestSent::No);
    if (!result.error.isEmpty()) {
        Q_EMIT problem(result.error); // it expires instead
        return;
    }
    m_held.remove(leaseId);
}

void ClusterWorkerClient::giveBackUntil(const QByteArray &leaseId, qint64 notBeforeMs) {
    const RenewResult result = m_queue->giveBackUntil(m_settings.workerId, leaseId, notBeforeMs);
    if (!result.error.isEmpty()) {
        Q_EMIT problem(result.error); // it expires instead
        return;
    }
    m_held.remove(leaseId);
}

void ClusterWorkerClient::lookupRobots(const QByteArray &leaseId, const QString &host, qint64 lockTtlMs) {
    const ClusterRobotsLookup lookup = m_robots->lookup(host, m_settings.workerId, lockTtlMs);
    if (!lookup.error.isEmpty())
        Q_EMIT problem(lookup.error);
    Q_EMIT robotsLookedUp(leaseId, host, lookup);
}

void ClusterWorkerClient::storeRobots(const QString &host, const ClusterRobotsEntry &entry, qint64 ttlMs,
                                      bool retry, qint64 failuresTtlMs, const QString &hostKey,
                                      qint64 crawlDelayMs) {
    QString error;
    // Redis unreachable: the lock expires and another worker fetches robots.txt again.
    if (!m_robots->store(host, m_settings.workerId, entry, ttlMs, retry, failuresTtlMs, hostKey, crawlDelayMs,
                         &error))
        Q_EMIT problem(error);
}

void ClusterWorkerClient::unlockRobots(const QString &host) {
    QString error;
    if (!m_robots->unlock(host, m_settings.workerId, &error))
        Q_EMIT problem(error);
}

void ClusterWorkerClient::pauseHost(const QString &host, qint64 untilMs) {
    if (!m_budget->pauseHost(host, untilMs))
        Q_EMIT problem(m_budget->lastError());
}

void ClusterWorkerClient::releaseAll() {
    const QList<QByteArray> hops = m_hops.keys();
    for (const QByteArray &leaseId : hops)
        finishHop(leaseId);
    const QList<QByteArray> held = m_held.keys();
    for (const QByteArray &leaseId : held) {
        // notBefore 0: the server's now. Redis unreachable: the lease expires on its own instead.
        const RenewResult result = m_queue->retryLater(m_settings.workerId, leaseId, 0);
        if (!result.error.isEmpty()) {
            Q_EMIT problem(result.error);
            break;
        }
        m_held.remove(leaseId);
    }
    stop();
}

void ClusterWorkerClient::checkCrawlState() {
    const QMap<QString, QString> settings = m_queue->settings();
    const ClusterCounts counts = m_queue->counts();
    if (!counts.error.isEmpty()) {
        Q_EMIT problem(counts.error);
        return;
    }
    const bool inputComplete = settings.value(QStringLiteral("input_complete")) == QLatin1String("1");
    Q_EMIT crawlState(inputComplete, inputComplete && counts.queued == 0 && counts.leased == 0 &&
                                         counts.delayed == 0 && counts.done >= counts.enqueued);
}

void ClusterWorkerClient::renewLeases() {
    for (auto it = m_hops.cbegin(); it != m_hops.cend(); ++it)
        m_budget->renew(it.value(), it.key() + ":hop", m_settings.leaseTtlMs);
    const QList<QByteArray> held = m_held.keys();
    for (const QByteArray &leaseId : held) {
        const RenewResult result = m_queue->renew(m_settings.workerId, leaseId, m_settings.leaseTtlMs);
        if (!result.error.isEmpty()) {
            Q_EMIT problem(result.error);
            return; // Redis unreachable: try again at the next tick (the leases may still be alive)
        }
        if (!result.renewed) {
            finishHop(leaseId);
            m_held.remove(leaseId);
            Q_EMIT leaseLost(leaseId, result.refusal);
        }
    }
}

void ClusterWorkerClient::sendHeartbeat() {
    while (!m_ackTimes.empty() && m_ackTimes.front() < m_clock.elapsed() - kRateWindowMs)
        m_ackTimes.pop_front();
    const double window =
        static_cast<double>(std::min<qint64>(kRateWindowMs, std::max<qint64>(1, m_clock.elapsed())));
    const double rate = static_cast<double>(m_ackTimes.size()) * 1000.0 / window;
    if (!m_queue->heartbeat(m_settings.workerId, static_cast<int>(m_held.size()), rate))
        Q_EMIT problem(m_queue->lastError());
}

void ClusterWorkerClient::pollLimits() {
    const std::optional<qint64> version = m_budget->limitsVersion();
    if (!version) {
        Q_EMIT problem(m_budget->lastError());
        return;
    }
    if (*version == m_limitsVersion)
        return;
    const std::optional<ClusterLimits> limits = m_budget->limits();
    if (!limits) {
        Q_EMIT problem(m_budget->lastError());
        return;
    }
    m_limitsVersion = limits->version;
    Q_EMIT limitsChanged(*limits);
}

} // namespace crawl
