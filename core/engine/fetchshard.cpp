#include "engine/fetchshard.h"

#include "input/urlnormalizer.h"
#include "policy/retryafter.h"
#include "policy/retrypolicy.h"

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkRequest>

#include <algorithm>
#include <cmath>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace crawl {

namespace {

// Linux keeps a nice value per thread; the threads QNAM creates from here inherit it.
void lowerThreadPriority(int nice) {
    if (nice > 0)
        ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), nice);
}

// QNAM opens at most 6 connections per host:port and queues the rest inside itself, where its transfer
// timeout would run on queued work; a host never gets more than this many requests on one QNAM.
constexpr int kConnectionsPerLane = 6;

// The server sees a request a little after we start it (a new connection first needs a handshake, a
// reused one does not); this keeps the gaps it observes at or above the interval.
constexpr qint64 kPacingMarginNs = 2'000'000;

constexpr int kDeadlineSweepMs = 50;
constexpr int kPublishMs = 200;

constexpr qint64 msToNs(qint64 ms) {
    return ms * 1'000'000;
}

bool isTransportError(QNetworkReply::NetworkError error) {
    return (error >= QNetworkReply::ConnectionRefusedError && error <= QNetworkReply::UnknownNetworkError) ||
           error == QNetworkReply::ProtocolFailure;
}

QString describeTransportError(QNetworkReply::NetworkError error, const QString &qtText) {
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("connection refused");
    case QNetworkReply::RemoteHostClosedError:
        return QStringLiteral("connection closed by the server before the response was complete");
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("host not found (DNS)");
    case QNetworkReply::TimeoutError:
        return QStringLiteral("connection timed out");
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
        return QStringLiteral("network unavailable");
    case QNetworkReply::ProtocolFailure:
        return QStringLiteral("malformed HTTP response (%1)").arg(qtText);
    default:
        return qtText;
    }
}

QString statusText(int status, QNetworkReply *reply) {
    const QString reason =
        QString::fromLatin1(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray());
    return reason.isEmpty() ? QStringLiteral("HTTP %1").arg(status)
                            : QStringLiteral("HTTP %1 %2").arg(status).arg(reason);
}

} // namespace

FetchShard::FetchShard(int index, EngineContext *context)
    : m_index(index)
    , m_context(context)
    , m_wakeTimer(this)
    , m_deadlineTimer(this)
    , m_publishTimer(this)
    , m_random(std::random_device{}()) {
    m_wakeTimer.setSingleShot(true);
    m_wakeTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_wakeTimer, &QTimer::timeout, this, [this] {
        m_wakeTimerDueNs = 0;
        pump();
    });
    m_deadlineTimer.setInterval(kDeadlineSweepMs);
    connect(&m_deadlineTimer, &QTimer::timeout, this, &FetchShard::sweepDeadlines);
    m_publishTimer.setInterval(kPublishMs);
    connect(&m_publishTimer, &QTimer::timeout, this, &FetchShard::publishStats);
    // Timers must be started from the shard's own thread: the first wake does it.
}

FetchShard::~FetchShard() {
    // Replies belong to their QNAMs (children of this object); detach first so their destruction does
    // not call back into a half-destroyed shard.
    for (auto &[reply, flight] : m_inFlight) {
        reply->disconnect(this);
        reply->abort();
    }
    m_inFlight.clear();
}

void FetchShard::enqueue(Job job, bool front) {
    {
        QMutexLocker lock(&m_inboxMutex);
        m_inbox.emplace_back(std::move(job), front);
    }
    wake();
}

void FetchShard::wake() {
    if (m_wakePosted.exchange(true))
        return; // one queued wake is enough: it drains everything that arrived meanwhile
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_wakePosted.store(false);
            pump();
        },
        Qt::QueuedConnection);
}

void FetchShard::stopAll() {
    QMetaObject::invokeMethod(
        this, [this] { stopNow(); }, Qt::QueuedConnection);
}

void FetchShard::publishAndWait() {
    QMetaObject::invokeMethod(
        this, [this] { publishStats(); }, Qt::BlockingQueuedConnection);
}

void FetchShard::resumeAfterStop() {
    QMetaObject::invokeMethod(
        this, [this] { m_stopped = false; }, Qt::QueuedConnection);
}

void FetchShard::setHostPaused(const QString &hostKey, bool paused) {
    QMetaObject::invokeMethod(
        this,
        [this, hostKey, paused] {
            Host *host = hostFor(hostKey);
            host->userPaused = paused;
            if (!paused)
                markRunnable(host);
            pump();
        },
        Qt::QueuedConnection);
}

void FetchShard::skipHost(const QString &hostKey) {
    QMetaObject::invokeMethod(
        this,
        [this, hostKey] {
            Host *host = hostFor(hostKey);
            host->skipped = true;
            while (!host->queue.empty()) {
                Job job = std::move(host->queue.front());
                host->queue.pop_front();
                cancelJob(job, QStringLiteral("skipped by user: host %1").arg(hostKey));
            }
            for (auto it = m_delayed.begin(); it != m_delayed.end();) {
                if (it->second.currentHost == hostKey) {
                    --host->waitingRetries;
                    cancelJob(it->second, QStringLiteral("skipped by user: host %1").arg(hostKey));
                    it = m_delayed.erase(it);
                } else {
                    ++it;
                }
            }
        },
        Qt::QueuedConnection);
}

void FetchShard::stopNow() {
    m_stopped = true;
    std::vector<QNetworkReply *> replies;
    replies.reserve(m_inFlight.size());
    for (const auto &entry : m_inFlight)
        replies.push_back(entry.first);
    for (QNetworkReply *reply : replies)
        abortInFlight(reply, AbortReason::Stopped);
    const QString why = QStringLiteral("crawl stopped before this URL finished");
    for (Host *host : m_hostOrder) {
        while (!host->queue.empty()) {
            Job job = std::move(host->queue.front());
            host->queue.pop_front();
            cancelJob(job, why);
        }
        host->waitingRetries = 0;
    }
    for (auto &[due, job] : m_delayed)
        cancelJob(job, why);
    m_delayed.clear();
    drainInbox();
    m_wakeTimer.stop();
    m_deadlineTimer.stop();
    publishStats();
}

void FetchShard::drainInbox() {
    std::vector<std::pair<Job, bool>> arrived;
    {
        QMutexLocker lock(&m_inboxMutex);
        arrived.swap(m_inbox);
    }
    if (arrived.empty())
        return;
    const qint64 now = steadyNowNs();
    for (auto &[job, front] : arrived) {
        if (m_stopped)
            cancelJob(job, QStringLiteral("crawl stopped before this URL finished"));
        else
            placeLocal(std::move(job), front, now);
    }
}

void FetchShard::placeLocal(Job job, bool front, qint64 nowNs) {
    Host *host = hostFor(job.currentHost);
    if (host->skipped) {
        cancelJob(job, QStringLiteral("skipped by user: host %1").arg(host->key));
        return;
    }
    if (job.notBeforeNs > nowNs) {
        ++host->waitingRetries;
        m_delayed.emplace(job.notBeforeNs, std::move(job));
        return;
    }
    if (front)
        host->queue.push_front(std::move(job));
    else
        host->queue.push_back(std::move(job));
    markRunnable(host);
}

void FetchShard::routeJob(Job job, bool front) {
    const int target = m_context->shardFor(job.currentHost);
    if (target == m_index)
        placeLocal(std::move(job), front, steadyNowNs());
    else
        m_context->shards[size_t(target)]->enqueue(std::move(job), front);
}

void FetchShard::refreshConfig() {
    const quint64 version = m_context->configVersion.load(std::memory_order_acquire);
    if (version == m_configVersion)
        return;
    {
        QReadLocker lock(&m_context->configLock);
        m_limits = m_context->limits;
        m_policy = m_context->policy;
    }
    m_configVersion = version;
    m_userAgent =
        (m_policy.userAgent.isEmpty() ? FetchPolicy::defaultUserAgent() : m_policy.userAgent).toUtf8();
    // A raised limit must start waiting work at once: every host with work gets another look.
    for (Host *host : m_hostOrder) {
        if (!host->queue.empty())
            markRunnable(host);
    }
}

FetchShard::Host *FetchShard::hostFor(const QString &key) {
    auto it = m_hosts.find(key);
    if (it != m_hosts.end())
        return it->second.get();
    auto host = std::make_unique<Host>();
    host->key = key;
    Host *raw = host.get();
    m_hosts.emplace(key, std::move(host));
    m_hostOrder.push_back(raw);
    return raw;
}

void FetchShard::markRunnable(Host *host) {
    if (!host->inRunnable) {
        host->inRunnable = true;
        m_runnable.push_back(host);
    }
}

void FetchShard::scheduleHostWake(Host *host, qint64 atNs) {
    if (host->scheduledWakeNs == atNs)
        return;
    host->scheduledWakeNs = atNs;
    m_timedHosts.emplace(atNs, host);
}

qint64 FetchShard::hostBlockedUntil(const Host *host) const {
    qint64 until = host->backoffUntilNs;
    const int intervalMs = m_limits.intervalMsFor(host->key);
    if (intervalMs > 0 && host->started > 0) {
        const qint64 gap = qint64(double(msToNs(intervalMs)) * host->jitterFactor) + kPacingMarginNs;
        until = std::max(until, host->lastStartNs + gap);
    }
    return until;
}

void FetchShard::pump() {
    if (!m_publishTimer.isActive() && !m_stopped) {
        m_publishTimer.start(); // first run on this thread
        lowerThreadPriority(m_context->workerNice);
    }
    drainInbox();
    if (m_stopped)
        return;
    refreshConfig();

    qint64 now = steadyNowNs();
    while (!m_delayed.empty() && m_delayed.begin()->first <= now) {
        Job job = std::move(m_delayed.begin()->second);
        m_delayed.erase(m_delayed.begin());
        Host *host = hostFor(job.currentHost);
        --host->waitingRetries;
        job.notBeforeNs = 0;
        host->queue.push_front(std::move(job));
        markRunnable(host);
    }
    while (!m_timedHosts.empty() && m_timedHosts.top().first <= now) {
        const auto [at, host] = m_timedHosts.top();
        m_timedHosts.pop();
        if (host->scheduledWakeNs == at) {
            host->scheduledWakeNs = 0;
            markRunnable(host);
        }
    }
    if (m_rateWakeNs != 0 && m_rateWakeNs <= now)
        m_rateWakeNs = 0;

    if (!m_context->paused.load(std::memory_order_relaxed) && m_rateWakeNs == 0) {
        while (!m_runnable.empty()) {
            Host *host = m_runnable.front();
            if (host->queue.empty() || host->userPaused ||
                host->inFlight >= m_limits.maxInFlightFor(host->key)) {
                // Completion, resume or new work puts it back.
                m_runnable.pop_front();
                host->inRunnable = false;
                continue;
            }
            if (host->awaitingSent) {
                m_runnable.pop_front(); // requestSent puts it back
                host->inRunnable = false;
                continue;
            }
            const qint64 blockedUntil = hostBlockedUntil(host);
            if (blockedUntil > now) {
                m_runnable.pop_front();
                host->inRunnable = false;
                scheduleHostWake(host, blockedUntil);
                continue;
            }
            if (const qint64 wait = m_context->budget.reserveRateSlot(now); wait > 0) {
                m_rateWakeNs = now + wait;
                break;
            }
            if (!m_context->budget.tryAcquire()) {
                // Register before the second try so a release in between cannot be missed.
                m_context->budget.markStarved(m_index);
                if (!m_context->budget.tryAcquire())
                    break;
            }
            m_runnable.pop_front();
            host->inRunnable = false;
            Job job = std::move(host->queue.front());
            host->queue.pop_front();
            startRequest(host, std::move(job));
            if (!host->queue.empty())
                markRunnable(host); // round robin: to the back of the line
            now = steadyNowNs();
        }
    }
    armWakeTimer(now);
}

void FetchShard::armWakeTimer(qint64 nowNs) {
    qint64 due = 0;
    const auto consider = [&due](qint64 at) {
        if (at > 0 && (due == 0 || at < due))
            due = at;
    };
    // Drop stale timed entries so the timer is not armed for them.
    while (!m_timedHosts.empty() && m_timedHosts.top().second->scheduledWakeNs != m_timedHosts.top().first)
        m_timedHosts.pop();
    if (!m_timedHosts.empty())
        consider(m_timedHosts.top().first);
    if (!m_delayed.empty())
        consider(m_delayed.begin()->first);
    consider(m_rateWakeNs);
    if (due == 0) {
        m_wakeTimer.stop();
        m_wakeTimerDueNs = 0;
        return;
    }
    if (m_wakeTimer.isActive() && m_wakeTimerDueNs == due)
        return;
    m_wakeTimerDueNs = due;
    // Round up: a timer that fires early would only re-arm; one that fires late delays a start.
    const qint64 waitNs = std::max<qint64>(0, due - nowNs);
    m_wakeTimer.start(int((waitNs + 999'999) / 1'000'000));
}

QNetworkAccessManager *FetchShard::laneFor(Host *host, int *laneIndex) {
    int lane = 0;
    while (true) {
        if (size_t(lane) >= host->laneInFlight.size())
            host->laneInFlight.resize(size_t(lane) + 1, 0);
        if (size_t(lane) >= m_lanes.size()) {
            auto *nam = new QNetworkAccessManager(this);
            nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
            nam->setStrictTransportSecurityEnabled(false);
            m_lanes.push_back(nam);
        }
        if (host->laneInFlight[size_t(lane)] < kConnectionsPerLane)
            break;
        ++lane;
    }
    *laneIndex = lane;
    return m_lanes[size_t(lane)];
}

void FetchShard::startRequest(Host *host, Job job) {
    const qint64 now = steadyNowNs();
    if (!job.continuingRedirect) {
        if (job.attempts == 0) {
            job.firstStartNs = now;
            job.firstStartEpochMs = QDateTime::currentMSecsSinceEpoch();
            m_context->buffered.fetch_sub(1, std::memory_order_relaxed);
        }
        ++job.attempts;
        job.redirects = 0;
        job.chain.clear();
    }
    job.continuingRedirect = false;
    job.chain.append(job.currentUrl.toString(QUrl::FullyEncoded));

    QNetworkRequest request(job.currentUrl);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    request.setHeader(QNetworkRequest::UserAgentHeader, m_userAgent);
    for (const auto &[name, value] : m_policy.headers)
        request.setRawHeader(name, value);
    // QNAM's transfer timeout is an inactivity timeout; safe because nothing ever queues inside QNAM.
    request.setTransferTimeout(std::max(1, m_policy.idleTimeoutS) * 1000);

    int lane = 0;
    QNetworkAccessManager *nam = laneFor(host, &lane);
    ++host->inFlight;
    ++host->laneInFlight[size_t(lane)];
    ++host->started;
    ++m_started;
    host->lastStartNs = now;
    const double jitter = std::clamp(m_limits.jitter, 0.0, 1.0);
    host->jitterFactor =
        1.0 + (jitter > 0 ? std::uniform_real_distribution<double>(0.0, jitter)(m_random) : 0.0);

    QNetworkReply *reply = nam->get(request);
    if (m_limits.intervalMsFor(host->key) > 0)
        host->awaitingSent = reply;
    InFlight flight;
    flight.job = std::move(job);
    flight.host = host;
    flight.lane = lane;
    flight.startNs = now;
    flight.deadlineNs = now + msToNs(qint64(std::max(1, m_policy.totalTimeoutS)) * 1000);
    m_inFlight.emplace(reply, std::move(flight));

    connect(reply, &QNetworkReply::metaDataChanged, this, [this, reply] { onMetaData(reply); });
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
    connect(reply, &QNetworkReply::socketStartedConnecting, this, [this, reply] {
        if (auto it = m_inFlight.find(reply); it != m_inFlight.end())
            it->second.connectDeadlineNs =
                steadyNowNs() + msToNs(qint64(std::max(1, m_policy.connectTimeoutS)) * 1000);
    });
    connect(reply, &QNetworkReply::requestSent, this, [this, reply] {
        auto it = m_inFlight.find(reply);
        if (it == m_inFlight.end())
            return;
        it->second.connectDeadlineNs = 0;
        Host *sentHost = it->second.host;
        if (sentHost->awaitingSent == reply) {
            sentHost->awaitingSent = nullptr;
            sentHost->lastStartNs = std::max(sentHost->lastStartNs, steadyNowNs());
            markRunnable(sentHost);
            pump();
        }
    });
    if (!m_deadlineTimer.isActive())
        m_deadlineTimer.start();
}

FetchShard::InFlight *FetchShard::responding(QNetworkReply *reply) {
    auto it = m_inFlight.find(reply);
    if (it == m_inFlight.end())
        return nullptr;
    InFlight &flight = it->second;
    flight.connectDeadlineNs = 0;
    if (flight.ttfbNs == 0)
        flight.ttfbNs = steadyNowNs();
    return &flight;
}

void FetchShard::onMetaData(QNetworkReply *reply) {
    InFlight *flight = responding(reply);
    if (!flight)
        return;
    flight->contentType = reply->header(QNetworkRequest::ContentTypeHeader).toString();
    const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
    if (length.isValid() && length.toLongLong() > m_policy.maxBodyBytes)
        abortInFlight(reply, AbortReason::TooLarge);
}

void FetchShard::onReadyRead(QNetworkReply *reply) {
    InFlight *flight = responding(reply);
    if (!flight)
        return;
    // The body is counted and dropped: the engine reports on it, it does not keep it.
    flight->bytes += reply->skip(reply->bytesAvailable());
    if (flight->bytes > m_policy.maxBodyBytes)
        abortInFlight(reply, AbortReason::TooLarge);
}

void FetchShard::abortInFlight(QNetworkReply *reply, AbortReason reason) {
    auto it = m_inFlight.find(reply);
    if (it == m_inFlight.end())
        return;
    it->second.abortReason = reason;
    reply->abort(); // emits finished() synchronously: onFinished() handles the outcome
}

void FetchShard::sweepDeadlines() {
    if (m_inFlight.empty()) {
        m_deadlineTimer.stop();
        return;
    }
    const qint64 now = steadyNowNs();
    std::vector<std::pair<QNetworkReply *, AbortReason>> expired;
    for (const auto &[reply, flight] : m_inFlight) {
        if (now >= flight.deadlineNs)
            expired.emplace_back(reply, AbortReason::TotalDeadline);
        else if (flight.connectDeadlineNs != 0 && now >= flight.connectDeadlineNs)
            expired.emplace_back(reply, AbortReason::ConnectDeadline);
    }
    for (const auto &[reply, reason] : expired)
        abortInFlight(reply, reason);
}

void FetchShard::onFinished(QNetworkReply *reply) {
    auto it = m_inFlight.find(reply);
    if (it == m_inFlight.end())
        return;
    InFlight flight = std::move(it->second);
    m_inFlight.erase(it);
    reply->disconnect(this);
    reply->deleteLater();

    Host *host = flight.host;
    if (host->awaitingSent == reply)
        host->awaitingSent = nullptr; // failed before it was written: nothing more to wait for
    --host->inFlight;
    --host->laneInFlight[size_t(flight.lane)];
    m_context->budget.release();
    if (flight.abortReason == AbortReason::None && reply->isOpen())
        flight.bytes += reply->skip(reply->bytesAvailable());

    const qint64 now = steadyNowNs();
    handleResponse(flight, reply, now);
    markRunnable(host);
    wake();
}

void FetchShard::handleResponse(InFlight &flight, QNetworkReply *reply, qint64 nowNs) {
    Host *host = flight.host;
    Job &job = flight.job;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError error = reply->error();
    job.lastStatus = status;

    if (status > 0) {
        const qint64 micros = (nowNs - flight.startNs) / 1000;
        ++m_rawResponses;
        host->lastStatus = status;
        host->latency.add(micros);
        m_allLatency.add(micros);
        m_recent.add(micros);
        if (status == 429) {
            ++host->status429;
            ++m_status429;
        }
    }

    switch (flight.abortReason) {
    case AbortReason::Stopped:
        finish(job, Outcome::Cancelled, status, QStringLiteral("crawl stopped before this URL finished"),
               &flight, nowNs);
        return;
    case AbortReason::TooLarge:
        finish(job, Outcome::TooLarge, status,
               QStringLiteral("body larger than the %1-byte limit").arg(m_policy.maxBodyBytes), &flight,
               nowNs);
        return;
    case AbortReason::TotalDeadline:
        job.lastOutcome = Outcome::Timeout;
        job.lastError =
            QStringLiteral("no complete response within %1 s (total timeout)").arg(m_policy.totalTimeoutS);
        retryOrFinish(flight, nowNs, -1);
        return;
    case AbortReason::ConnectDeadline:
        job.lastOutcome = Outcome::Timeout;
        job.lastError = QStringLiteral("could not connect within %1 s").arg(m_policy.connectTimeoutS);
        retryOrFinish(flight, nowNs, -1);
        return;
    case AbortReason::None:
        break;
    }

    if (error == QNetworkReply::OperationCanceledError) {
        // Nobody here aborted it: QNAM's transfer (inactivity) timeout did.
        job.lastOutcome = Outcome::Timeout;
        job.lastError = QStringLiteral("no data for %1 s (inactivity timeout)").arg(m_policy.idleTimeoutS);
        retryOrFinish(flight, nowNs, -1);
        return;
    }
    if (error == QNetworkReply::SslHandshakeFailedError) {
        finish(job, Outcome::NetworkError, status,
               QStringLiteral("TLS handshake failed: %1").arg(reply->errorString()), &flight, nowNs);
        return;
    }
    if (isTransportError(error)) {
        job.lastOutcome = error == QNetworkReply::TimeoutError ? Outcome::Timeout : Outcome::NetworkError;
        job.lastError = describeTransportError(error, reply->errorString());
        retryOrFinish(flight, nowNs, -1);
        return;
    }
    if (status == 0) {
        finish(job, Outcome::NetworkError, 0,
               error == QNetworkReply::NoError ? QStringLiteral("no HTTP response") : reply->errorString(),
               &flight, nowNs);
        return;
    }

    if (status >= 300 && status < 400 && status != 304) {
        const QByteArray location = reply->rawHeader("Location");
        if (location.isEmpty()) {
            finish(job, Outcome::HttpError, status,
                   QStringLiteral("%1 redirect without a Location header").arg(statusText(status, reply)),
                   &flight, nowNs);
            return;
        }
        const QUrl target = job.currentUrl.resolved(QUrl::fromEncoded(location.trimmed()));
        followRedirect(flight, status, target);
        return;
    }
    if (status >= 200 && status < 300) {
        // Qt 6.4 can report a connection reset mid-body as success; a body shorter than its declared
        // length is a transport failure (only checkable when the body was not content-encoded).
        const QVariant declared = reply->header(QNetworkRequest::ContentLengthHeader);
        const QByteArray encoding = reply->rawHeader("Content-Encoding").trimmed().toLower();
        if (declared.isValid() && (encoding.isEmpty() || encoding == "identity") &&
            flight.bytes < declared.toLongLong()) {
            job.lastOutcome = Outcome::NetworkError;
            job.lastError = QStringLiteral("connection closed after %1 of %2 body bytes")
                                .arg(flight.bytes)
                                .arg(declared.toLongLong());
            retryOrFinish(flight, nowNs, -1);
            return;
        }
        finish(job, Outcome::Ok, status, QString(), &flight, nowNs);
        return;
    }
    job.lastOutcome = Outcome::HttpError;
    job.lastError = statusText(status, reply);
    if (!isRetryableStatus(status)) {
        finish(job, Outcome::HttpError, status, job.lastError, &flight, nowNs);
        return;
    }
    qint64 retryAfterMs = -1;
    if (status == 429 || status == 503) {
        if (const auto parsed =
                parseRetryAfter(reply->rawHeader("Retry-After"), QDateTime::currentDateTimeUtc())) {
            retryAfterMs = std::min<qint64>(*parsed, qint64(std::max(0, m_policy.maxRetryAfterS)) * 1000);
            // The server asked this host to wait: every URL on it waits, other hosts go on.
            const qint64 until = nowNs + msToNs(retryAfterMs);
            if (until > host->backoffUntilNs) {
                host->backoffUntilNs = until;
                host->backoffUntilEpochMs = QDateTime::currentMSecsSinceEpoch() + retryAfterMs;
            }
        }
    }
    retryOrFinish(flight, nowNs, retryAfterMs);
}

void FetchShard::followRedirect(InFlight &flight, int status, const QUrl &target) {
    Job &job = flight.job;
    const qint64 now = steadyNowNs();
    const QString scheme = target.scheme().toLower();
    if (!target.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) ||
        target.host().isEmpty()) {
        finish(job, Outcome::HttpError, status,
               QStringLiteral("HTTP %1 redirect to an unsupported URL: %2")
                   .arg(status)
                   .arg(target.toString(QUrl::FullyEncoded)),
               &flight, now);
        return;
    }
    if (job.redirects >= m_policy.maxRedirects) {
        finish(job, Outcome::HttpError, status,
               QStringLiteral("more than %1 redirects (next: %2)")
                   .arg(m_policy.maxRedirects)
                   .arg(target.toString(QUrl::FullyEncoded)),
               &flight, now);
        return;
    }
    QUrl next = target;
    next.setFragment(QString());
    ++job.redirects;
    job.currentUrl = next;
    job.currentHost = hostKey(next);
    job.continuingRedirect = true;
    // The hop is a request like any other: it waits for the limits of its own host.
    routeJob(std::move(job), true);
}

void FetchShard::retryOrFinish(InFlight &flight, qint64 nowNs, qint64 retryAfterMs) {
    Job &job = flight.job;
    const int maxAttempts = 1 + std::max(0, m_policy.maxRetries);
    if (job.attempts >= maxAttempts) {
        const QString why =
            maxAttempts > 1 ? QStringLiteral("%1 (after %2 attempts)").arg(job.lastError).arg(job.attempts)
                            : job.lastError;
        finish(job, job.lastOutcome, job.lastStatus, why, &flight, nowNs);
        return;
    }
    const qint64 spentMs = (nowNs - job.firstStartNs) / 1'000'000;
    const qint64 waitMs = retryAfterMs >= 0
                              ? retryAfterMs
                              : backoffDelayMs(job.attempts, m_policy.backoffBaseMs, m_policy.backoffCapMs,
                                               std::uniform_real_distribution<double>(0, 1)(m_random));
    if (spentMs + waitMs > qint64(m_policy.maxUrlTimeS) * 1000) {
        finish(job, job.lastOutcome, job.lastStatus,
               QStringLiteral("%1 (gave up: %2 s per URL exceeded)")
                   .arg(job.lastError)
                   .arg(m_policy.maxUrlTimeS),
               &flight, nowNs);
        return;
    }
    ++flight.host->retries;
    ++m_retries;
    // A new attempt starts again from the input URL, without holding any slot while it waits.
    job.continuingRedirect = false;
    job.currentUrl = QUrl(job.inputUrl);
    job.currentHost = job.inputHost;
    // With Retry-After the whole host is already paused until then; otherwise only this URL waits.
    job.notBeforeNs = retryAfterMs >= 0 ? 0 : nowNs + msToNs(waitMs);
    routeJob(std::move(job), true);
}

void FetchShard::finish(Job &job, Outcome outcome, int status, const QString &error, const InFlight *last,
                        qint64 nowNs) {
    CrawlResult result;
    result.id = job.id;
    result.lineNumber = job.lineNumber;
    result.url = job.inputUrl;
    result.host = job.inputHost;
    result.status = status;
    result.outcome = outcome;
    result.attempts = job.attempts;
    result.redirects = job.redirects;
    if (last) {
        if (status > 0)
            result.finalUrl = job.currentUrl.toString(QUrl::FullyEncoded);
        result.bytes = last->bytes;
        result.contentType = last->contentType;
        result.latencyMs = (nowNs - last->startNs) / 1'000'000;
        result.ttfbMs = last->ttfbNs > 0 ? (last->ttfbNs - last->startNs) / 1'000'000 : -1;
    }
    if (outcome != Outcome::Ok)
        result.error = error;
    if (job.firstStartEpochMs > 0)
        result.startedAt = QDateTime::fromMSecsSinceEpoch(job.firstStartEpochMs, Qt::UTC);
    result.finishedAt = QDateTime::currentDateTimeUtc();
    result.redirectChain = std::move(job.chain);
    m_context->pushResult(std::move(result));
}

void FetchShard::cancelJob(Job &job, const QString &why) {
    if (job.attempts == 0 && !job.continuingRedirect)
        m_context->buffered.fetch_sub(1, std::memory_order_relaxed);
    job.lastOutcome = Outcome::Cancelled;
    finish(job, Outcome::Cancelled, job.lastStatus, why, nullptr, steadyNowNs());
}

void FetchShard::publishStats() {
    const qint64 now = steadyNowNs();
    const double seconds = m_lastPublishNs > 0 ? double(now - m_lastPublishNs) / 1e9 : 0.0;
    m_lastPublishNs = now;
    const qint64 epochNow = QDateTime::currentMSecsSinceEpoch();

    ShardStats stats;
    stats.hosts.reserve(qsizetype(m_hostOrder.size()));
    for (Host *host : m_hostOrder) {
        HostSnapshot h;
        h.host = host->key;
        h.inFlight = host->inFlight;
        h.maxInFlight = m_limits.maxInFlightFor(host->key);
        h.intervalMs = m_limits.intervalMsFor(host->key);
        h.overridden = m_limits.hostOverrides.contains(host->key);
        h.queued = qint64(host->queue.size()) + host->waitingRetries;
        h.started = host->started;
        h.retries = host->retries;
        h.status429 = host->status429;
        h.lastStatus = host->lastStatus;
        h.p50Ms = host->latency.percentileMs(0.50);
        h.p95Ms = host->latency.percentileMs(0.95);
        h.p99Ms = host->latency.percentileMs(0.99);
        if (!host->queue.empty())
            h.oldestQueuedAgeMs = std::max<qint64>(0, (now - host->queue.front().enqueuedNs) / 1'000'000);
        h.startsPerSec = seconds > 0 ? double(host->started - host->startedAtLastPublish) / seconds : 0.0;
        host->startedAtLastPublish = host->started;

        const qint64 blockedUntil = hostBlockedUntil(host);
        if (host->userPaused) {
            h.state = HostState::Paused;
        } else if (host->backoffUntilNs > now) {
            h.state = HostState::BackingOff;
            h.stateUntilMs = host->backoffUntilEpochMs;
        } else if (host->inFlight >= h.maxInFlight) {
            h.state = HostState::Busy;
        } else if (!host->queue.empty() && blockedUntil > now) {
            h.state = HostState::Pacing;
            h.stateUntilMs = epochNow + (blockedUntil - now) / 1'000'000;
        }
        stats.queued += h.queued;
        stats.inFlight += host->inFlight;
        stats.hosts.append(std::move(h));
    }
    stats.all = m_allLatency;
    stats.started = m_started;
    stats.retries = m_retries;
    stats.status429 = m_status429;
    stats.rawResponses = m_rawResponses;

    QMutexLocker lock(&m_context->statsMutex);
    ShardStats &slot = m_context->shardStats[size_t(m_index)];
    // `recent` accumulates until the façade takes it, so no response is lost between two snapshots.
    stats.recent = slot.recent;
    stats.recent.merge(m_recent);
    m_recent.clear();
    slot = std::move(stats);
}

} // namespace crawl
