#include "engine/fetchshard.h"

#include "engine/bodyprefix.h"
#include "engine/requesttemplates.h"
#include "input/urlnormalizer.h"
#include "model/cancelreason.h"
#include "policy/redirectsafety.h"
#include "policy/resultacceptance.h"

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

// The server sees a request a little after we start it (a new connection first needs a handshake, a
// reused one does not); this keeps the gaps it observes at or above the interval.
constexpr qint64 kPacingMarginNs = 2'000'000;

constexpr int kDeadlineSweepMs = 50;
constexpr int kPublishMs = 200;

constexpr qint64 msToNs(qint64 ms) {
    return ms * 1'000'000;
}

// Same scheme, host and port as the input URL (the host key carries host and port).
bool sameOrigin(const Job &job) {
    if (job.currentHost != job.inputHost)
        return false;
    const bool inputHttps = job.inputUrl.startsWith(QLatin1String("https:"));
    return inputHttps == (job.currentUrl.scheme() == QLatin1String("https"));
}

} // namespace

FetchShard::FetchShard(int index, EngineContext *context)
    : m_index(index)
    , m_context(context)
    , m_lanes(this)
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
            endWaiting(host, Outcome::Cancelled, skippedHostText(hostKey));
        },
        Qt::QueuedConnection);
}

void FetchShard::resetHostBreaker(const QString &hostKey) {
    QMetaObject::invokeMethod(
        this,
        [this, hostKey] {
            Host *host = hostFor(hostKey);
            if (host->breaker.state() == BreakerState::Closed)
                return;
            host->breaker.reset();
            BreakerEvent event;
            event.kind = BreakerEvent::Kind::Reset;
            event.host = hostKey;
            event.atMs = QDateTime::currentMSecsSinceEpoch();
            m_context->pushBreakerEvent(std::move(event));
            markRunnable(host);
            pump();
        },
        Qt::QueuedConnection);
}

void FetchShard::endWaiting(Host *host, Outcome outcome, const QString &why) {
    while (!host->queue.empty()) {
        Job job = std::move(host->queue.front());
        host->queue.pop_front();
        endUnstarted(job, outcome, why);
    }
    for (auto it = m_delayed.begin(); it != m_delayed.end();) {
        if (it->second.currentHost == host->key) {
            --host->waitingRetries;
            endUnstarted(it->second, outcome, why);
            it = m_delayed.erase(it);
        } else {
            ++it;
        }
    }
}

void FetchShard::quiesce() {
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_stopped = true;
            m_wakeTimer.stop();
            m_deadlineTimer.stop();
            m_publishTimer.stop();
            for (auto &[reply, flight] : m_inFlight) {
                reply->disconnect(this);
                reply->abort();
            }
            m_inFlight.clear();
        },
        Qt::BlockingQueuedConnection);
}

void FetchShard::stopNow() {
    m_stopped = true;
    std::vector<QNetworkReply *> replies;
    replies.reserve(m_inFlight.size());
    for (const auto &entry : m_inFlight)
        replies.push_back(entry.first);
    for (QNetworkReply *reply : replies)
        abortInFlight(reply, AbortReason::Stopped);
    const QString why = stoppedBeforeFinishText();
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
            cancelJob(job, stoppedBeforeFinishText());
        else
            placeLocal(std::move(job), front, now);
    }
}

void FetchShard::placeLocal(Job job, bool front, qint64 nowNs) {
    // A URL entering the crawl (not a hop, a retry or a robots fetch): is it in scope at all?
    if (job.firstStartNs == 0 && !job.continuingRedirect && !job.robotsFetch &&
        endIfOutOfScope(job, NormalizedUrl{job.currentUrl, job.inputUrl, job.inputHost, {}}, 0, nullptr,
                        nowNs))
        return;
    Host *host = hostFor(job.currentHost);
    if (host->skipped) {
        cancelJob(job, skippedHostText(host->key));
        return;
    }
    if (host->breaker.state() == BreakerState::GaveUp) {
        endUnstarted(job, Outcome::Skipped, breakerGaveUpText(host->key, host->breaker.reason()));
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
        m_quality = m_context->quality;
    }
    m_robots.configure(m_quality);
    m_configVersion = version;
    m_rateWakeNs = 0; // a changed rate cap applies now, not after the old spacing
    buildRequestTemplates();
    for (Host *host : m_hostOrder) {
        host->breaker.configure(m_policy.breaker);
        host->pace.configure(m_limits.maxInFlightFor(host->key), m_limits.intervalMsFor(host->key));
    }
    // A raised limit must start waiting work at once: every host with work gets another look.
    for (Host *host : m_hostOrder) {
        if (!host->queue.empty())
            markRunnable(host);
    }
}

void FetchShard::startNetwork(int perHostInFlight) {
    // Before the lanes' HTTP threads exist: they inherit this thread's nice, and they do much of the crawl's
    // CPU work (pump() lowers it only once the first job arrives, after they were started at nice 0).
    lowerThreadPriority(m_context->workerNice);
    const int perLane = NetworkLanes::kConnectionsPerLane;
    m_lanes.startLanes(std::max(1, (perHostInFlight + perLane - 1) / perLane));
}

void FetchShard::buildRequestTemplates() {
    RequestTemplates templates = RequestTemplates::forPolicy(m_policy);
    m_request = std::move(templates.request);
    m_requestWithoutCredentials = std::move(templates.withoutCredentials);
}

FetchShard::Host *FetchShard::liveHost(const QString &key) const {
    const auto it = m_hosts.find(key);
    return it == m_hosts.end() ? nullptr : it->second.get();
}

bool FetchShard::isEvictable(const Host *host, qint64 nowNs) const {
    if (!host->queue.empty() || host->inFlight > 0 || host->waitingRetries > 0 || host->awaitingSent ||
        host->userPaused || host->skipped || host->inRunnable ||
        host->breaker.state() != BreakerState::Closed || host->backoffUntilNs > nowNs)
        return false;
    // Its next start must not come sooner than the interval allows: a host made again starts unpaced.
    return host->lastStartNs == 0 ||
           host->blockedUntil(host->effectiveIntervalMs(m_limits), kPacingMarginNs) + kEvictAfterIdleNs <=
               nowNs;
}

void FetchShard::evictIdleHosts(qint64 nowNs) {
    if (m_hosts.size() <= kKeepIdleHosts)
        return;
    size_t excess = m_hosts.size() - kKeepIdleHosts;
    std::vector<Host *> kept;
    kept.reserve(m_hostOrder.size());
    for (Host *host : m_hostOrder) {
        if (excess > 0 && isEvictable(host, nowNs)) {
            const QString key = host->key; // the map owns the host: erase destroys it
            m_hosts.erase(key);
            --excess;
            continue;
        }
        kept.push_back(host);
    }
    m_hostOrder.swap(kept);
}

FetchShard::Host *FetchShard::hostFor(const QString &key) {
    auto it = m_hosts.find(key);
    if (it != m_hosts.end())
        return it->second.get();
    auto host = std::make_unique<Host>();
    host->key = key;
    host->breaker.configure(m_policy.breaker);
    host->pace.configure(m_limits.maxInFlightFor(key), m_limits.intervalMsFor(key));
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
    m_timedHosts.emplace(atNs, host->key);
}

qint64 FetchShard::hostBlockedUntil(const Host *host) const {
    return host->blockedUntil(intervalMsFor(host), kPacingMarginNs);
}

void FetchShard::pump() {
    if (!m_publishTimer.isActive() && !m_stopped) {
        m_publishTimer.start(); // first run on this thread
        lowerThreadPriority(m_context->workerNice);
    }
    refreshConfig(); // before new jobs are placed: their scope check needs this crawl's rules
    drainInbox();
    if (m_stopped)
        return;

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
        const auto [at, key] = m_timedHosts.top();
        m_timedHosts.pop();
        Host *host = liveHost(key);
        if (host && host->scheduledWakeNs == at) {
            host->scheduledWakeNs = 0;
            markRunnable(host);
        }
    }
    while (!m_heldSlots.empty() && m_heldSlots.begin()->first <= now) {
        Host *host = m_heldSlots.begin()->second;
        m_heldSlots.erase(m_heldSlots.begin());
        --host->inFlight;
        markRunnable(host);
    }
    if (m_rateWakeNs != 0 && m_rateWakeNs <= now)
        m_rateWakeNs = 0;

    if (!m_context->paused.load(std::memory_order_relaxed) && m_rateWakeNs == 0) {
        while (!m_runnable.empty()) {
            Host *host = m_runnable.front();
            if (host->queue.empty() || host->userPaused ||
                host->inFlight >= host->effectiveMaxInFlight(m_limits)) {
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
            // robots.txt: known before the origin's first request, which never reaches a disallowed path.
            RobotsGate::Action robots = RobotsGate::Action::Start;
            if (m_robots.active() && !host->queue.front().robotsFetch) {
                const RobotsGate::Decision gate = m_robots.admit(host->queue.front(), now);
                robots = gate.action;
                if (robots == RobotsGate::Action::Hold) { // the fetch's end (or its retry time) wakes it
                    m_runnable.pop_front();
                    host->inRunnable = false;
                    if (gate.wakeAtNs > 0)
                        scheduleHostWake(host, gate.wakeAtNs);
                    continue;
                }
                if (robots == RobotsGate::Action::Block) {
                    Job job = std::move(host->queue.front());
                    host->queue.pop_front();
                    endUnstarted(job, Outcome::BlockedRobots, gate.reason);
                    continue;
                }
            }
            const bool probe = !host->breaker.allowsStarts();
            if (probe && !breakerLetsStart(host, now)) {
                m_runnable.pop_front();
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
            // The global slot first: a rate slot reserved while in-flight is the binding limit would be
            // wasted and make the rate cap undershoot.
            if (!m_context->budget.tryAcquire()) {
                // Register before the second try so a release in between cannot be missed.
                m_context->budget.markStarved(m_index);
                if (!m_context->budget.tryAcquire())
                    break;
            }
            if (const qint64 wait = m_context->budget.reserveRateSlot(now); wait > 0) {
                m_context->budget.release();
                m_rateWakeNs = now + wait;
                break;
            }
            m_runnable.pop_front();
            host->inRunnable = false;
            Job job;
            if (robots == RobotsGate::Action::FetchRobots) {
                job = m_robots.robotsJob(host->queue.front(), now); // the URL waits for the answer
            } else {
                job = std::move(host->queue.front());
                host->queue.pop_front();
            }
            if (probe)
                host->breaker.startProbe();
            startRequest(host, std::move(job), probe);
            if (!host->queue.empty())
                markRunnable(host); // round robin: to the back of the line
            now = steadyNowNs();
        }
    }
    armWakeTimer(now);
}

bool FetchShard::breakerLetsStart(Host *host, qint64 nowNs) {
    const qint64 nowMs = nowNs / 1'000'000;
    if (host->breaker.state() == BreakerState::GaveUp) {
        // Retries that came due after the give-up end here.
        endWaiting(host, Outcome::Skipped, breakerGaveUpText(host->key, host->breaker.reason()));
        return false;
    }
    if (host->breaker.giveUpDue(nowMs)) {
        onBreakerTransition(host, host->breaker.giveUp(), nowNs);
        return false;
    }
    if (host->breaker.probeDue(nowMs))
        return true;
    // Tripped (look again when the probe or the give-up is due) or probing (the probe's end decides).
    if (const qint64 nextMs = host->breaker.nextChangeMs(); nextMs > 0)
        scheduleHostWake(host, msToNs(nextMs));
    return false;
}

void FetchShard::recordAttempt(const InFlight &flight, const ResponseFacts &facts,
                               const ResponseDecision &decision, qint64 nowNs) {
    Host *host = flight.host;
    const qint64 nowMs = nowNs / 1'000'000;
    // A stop, or a request that never left (no descriptors), says nothing about the host's health.
    if (facts.abortReason == AbortReason::Stopped || decision.attemptNotMade) {
        if (flight.probe)
            host->breaker.probeAbandoned(nowMs);
        return;
    }
    const AttemptHealth health = attemptHealthOf(decision.outcome, facts.status);
    if (m_limits.adaptive && host->pace.onResponse(health, facts.status, (nowNs - flight.startNs) / 1'000'000,
                                                   host->inFlight) == PaceController::Change::Increased)
        markRunnable(host);
    const HostBreaker::Transition transition = host->breaker.record(health, nowMs, flight.probe);
    if (transition != HostBreaker::Transition::None)
        onBreakerTransition(host, transition, nowNs);
}

void FetchShard::onBreakerTransition(Host *host, HostBreaker::Transition transition, qint64 nowNs) {
    const qint64 epochNow = QDateTime::currentMSecsSinceEpoch();
    BreakerEvent event;
    event.host = host->key;
    event.reason = host->breaker.reason();
    event.atMs = epochNow;
    event.trips = host->breaker.trips();
    switch (transition) {
    case HostBreaker::Transition::None:
        return;
    case HostBreaker::Transition::Tripped:
        ++host->stats.breakerTrips;
        event.kind = BreakerEvent::Kind::Tripped;
        event.probeAtMs = epochNow + (host->breaker.probeAtMs() - nowNs / 1'000'000);
        scheduleHostWake(host, msToNs(host->breaker.nextChangeMs()));
        break;
    case HostBreaker::Transition::Recovered:
        ++host->stats.breakerRecoveries;
        event.kind = BreakerEvent::Kind::Recovered;
        markRunnable(host);
        break;
    case HostBreaker::Transition::GaveUp:
        event.kind = BreakerEvent::Kind::GaveUp;
        m_context->pushBreakerEvent(std::move(event));
        giveUpHost(host);
        return;
    }
    m_context->pushBreakerEvent(std::move(event));
}

void FetchShard::giveUpHost(Host *host) {
    ++host->stats.breakerGiveUps;
    endWaiting(host, Outcome::Skipped, breakerGaveUpText(host->key, host->breaker.reason()));
}

void FetchShard::armWakeTimer(qint64 nowNs) {
    qint64 due = 0;
    const auto consider = [&due](qint64 at) {
        if (at > 0 && (due == 0 || at < due))
            due = at;
    };
    // Drop stale timed entries so the timer is not armed for them.
    while (!m_timedHosts.empty()) {
        const Host *host = liveHost(m_timedHosts.top().second);
        if (host && host->scheduledWakeNs == m_timedHosts.top().first)
            break;
        m_timedHosts.pop();
    }
    if (!m_timedHosts.empty())
        consider(m_timedHosts.top().first);
    if (!m_delayed.empty())
        consider(m_delayed.begin()->first);
    if (!m_heldSlots.empty())
        consider(m_heldSlots.begin()->first);
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

void FetchShard::startRequest(Host *host, Job job, bool probe) {
    const qint64 now = steadyNowNs();
    if (!job.continuingRedirect) {
        if (job.firstStartNs == 0) { // its first attempt here (a resumed URL may have made some before)
            job.firstStartNs = now;
            job.firstStartEpochMs = QDateTime::currentMSecsSinceEpoch();
        }
        if (!job.redoAttempt) {
            ++job.attempts;
            if (!job.robotsFetch)
                m_context->pushStartedAttempt(job.id);
        }
        job.redoAttempt = false;
        job.redirects = 0;
        job.chain.clear();
        job.warning.clear();
    }
    job.continuingRedirect = false;
    job.chain.append(job.currentUrl.toString(QUrl::FullyEncoded));

    // Credentials go to the origin the user gave them for, not to wherever a redirect points.
    const bool withCredentials = m_policy.sendCredentialsCrossOrigin || job.redirects == 0 || sameOrigin(job);
    QNetworkRequest request(withCredentials ? m_request : m_requestWithoutCredentials);
    request.setUrl(job.currentUrl);

    int lane = 0;
    QNetworkAccessManager *nam = m_lanes.laneFor(host->laneInFlight, &lane);
    ++host->inFlight;
    ++host->laneInFlight[size_t(lane)];
    ++host->stats.started;
    ++m_started;
    host->lastStartNs = now;
    const double jitter = std::clamp(m_limits.jitter, 0.0, 1.0);
    host->jitterFactor =
        1.0 + (jitter > 0 ? std::uniform_real_distribution<double>(0.0, jitter)(m_random) : 0.0);

    QNetworkReply *reply = nam->get(request);
    if (intervalMsFor(host) > 0)
        host->awaitingSent = reply;
    InFlight flight;
    flight.job = std::move(job);
    flight.host = host;
    flight.lane = lane;
    flight.probe = probe;
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

qint64 FetchShard::abandonedSlotHoldNs(const InFlight &flight, QNetworkReply *reply, qint64 nowNs) const {
    // A request we gave up on after it reached the server may still be running there: its host slot
    // stays taken for as long again as it ran (at most the total timeout), so a polite limit of N is
    // not N plus the abandoned ones. A connect timeout never reached the server: nothing to hold.
    const bool timedOut =
        flight.abortReason == AbortReason::TotalDeadline ||
        (flight.abortReason == AbortReason::None && reply->error() == QNetworkReply::OperationCanceledError);
    if (!timedOut)
        return 0;
    return std::min(nowNs - flight.startNs, msToNs(qint64(std::max(1, m_policy.totalTimeoutS)) * 1000));
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
    flight->headersComplete = true;
    flight->contentType = reply->header(QNetworkRequest::ContentTypeHeader).toString();
    flight->keepBytes = bodyBytesToKeep(m_quality.acceptance, flight->job.robotsFetch, flight->contentType);
    const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
    if (length.isValid() && length.toLongLong() > m_policy.maxBodyBytes)
        abortInFlight(reply, AbortReason::TooLarge);
}

void FetchShard::onReadyRead(QNetworkReply *reply) {
    InFlight *flight = responding(reply);
    if (!flight)
        return;
    // The body is counted and dropped but for its first keepBytes (acceptance checks, title, robots.txt).
    flight->bytes += consumeBody(reply, flight->bodyPrefix, flight->keepBytes);
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
        host->awaitingSent = nullptr;          // failed before it was written: nothing more to wait for
    --host->laneInFlight[size_t(flight.lane)]; // the aborted connection is closed: the lane has room
    const qint64 now = steadyNowNs();
    if (const qint64 holdNs = abandonedSlotHoldNs(flight, reply, now); holdNs > 0)
        m_heldSlots.emplace(now + holdNs, host); // released by pump() when due
    else
        --host->inFlight;
    m_context->budget.release();
    if (flight.abortReason == AbortReason::None && reply->isOpen())
        flight.bytes += consumeBody(reply, flight.bodyPrefix, flight.keepBytes);

    handleResponse(flight, reply, now);
    markRunnable(host);
    wake();
}

ResponseFacts FetchShard::factsOf(const InFlight &flight, QNetworkReply *reply, qint64 nowNs) {
    ResponseFacts facts;
    facts.abortReason = flight.abortReason;
    facts.networkError = reply->error();
    if (facts.networkError != QNetworkReply::NoError) {
        facts.networkErrorText = reply->errorString();
        // Qt reports EMFILE/ENFILE only through the socket's resource error text.
        facts.outOfDescriptors = facts.networkErrorText.contains(QLatin1String("Out of resources"));
    }
    facts.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (facts.status > 0) {
        if (facts.status >= 300) { // only error texts and redirects read these
            facts.reasonPhrase = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
            facts.location = reply->rawHeader("Location");
        }
        facts.contentEncoding = reply->rawHeader("Content-Encoding");
        // Qt 6.4 drops a head over its limits and goes on with no header at all (so no Content-Length).
        facts.headersComplete = flight.headersComplete && !reply->rawHeaderPairs().isEmpty();
        if (flight.bytes == 0)
            facts.chunked = reply->rawHeader("Transfer-Encoding").toLower().contains("chunked");
        if (const QVariant declared = reply->header(QNetworkRequest::ContentLengthHeader); declared.isValid())
            facts.declaredLength = declared.toLongLong();
        if (facts.status == 429 || facts.status == 503) {
            facts.retryAfter = reply->rawHeader("Retry-After");
            if (!facts.retryAfter.isEmpty())
                facts.nowUtc = QDateTime::currentDateTimeUtc();
        }
    }
    facts.url = flight.job.currentUrl;
    facts.bodyBytes = flight.bytes;
    facts.attempts = flight.job.attempts;
    facts.redirects = flight.job.redirects;
    facts.spentMs = (nowNs - flight.job.firstStartNs) / 1'000'000;
    facts.random01 = std::uniform_real_distribution<double>(0, 1)(m_random);
    return facts;
}

void FetchShard::countResponse(Host *host, const InFlight &flight, int status, qint64 nowNs) {
    const qint64 micros = (nowNs - flight.startNs) / 1000;
    ++m_rawResponses;
    ++host->stats.responses;
    host->stats.lastStatus = status;
    host->stats.latency.add(micros);
    m_allLatency.add(micros);
    m_recent.add(micros);
    if (status == 429) {
        ++host->stats.status429;
        ++m_status429;
    }
}

void FetchShard::handleResponse(InFlight &flight, QNetworkReply *reply, qint64 nowNs) {
    Host *host = flight.host;
    Job &job = flight.job;
    const ResponseFacts facts = factsOf(flight, reply, nowNs);
    job.lastStatus = facts.status;
    if (facts.status > 0) {
        countResponse(host, flight, facts.status, nowNs);
        m_context->budget.onRequestCompleted();
    }

    const ResponseDecision decision = decideResponse(facts, m_policy);
    recordAttempt(flight, facts, decision, nowNs);
    if (decision.pauseHostMs >= 0) {
        // The server asked this host to wait: every URL on it waits, other hosts go on.
        const qint64 until = nowNs + msToNs(decision.pauseHostMs);
        if (until > host->backoffUntilNs) {
            host->backoffUntilNs = until;
            host->backoffUntilEpochMs = QDateTime::currentMSecsSinceEpoch() + decision.pauseHostMs;
        }
    }
    if (job.robotsFetch && !decision.attemptNotMade) {
        // robots.txt: its own redirect limit, and no URL retries (decideRobotsFetch says what a failure
        // means).
        const bool redirect = decision.action == ResponseDecision::Action::FollowRedirect;
        if (redirect && job.redirects < m_quality.robotsMaxRedirects) {
            followRedirect(job, decision.redirectTo);
            return;
        }
        const bool tooManyRedirects = redirect || (facts.status >= 300 && facts.status <= 399);
        endRobotsJob(job, facts.status, tooManyRedirects, flight.bodyPrefix);
        return;
    }
    switch (decision.action) {
    case ResponseDecision::Action::Finish:
        finish(job, decision.outcome, facts.status, decision.error, &flight, nowNs);
        return;
    case ResponseDecision::Action::FollowRedirect:
        if (!decision.warning.isEmpty())
            job.warning = decision.warning;
        // A redirect out of the crawl's scope is not followed.
        if (m_quality.scope.restrictsAnything() &&
            endIfOutOfScope(job, normalizeUrl(decision.redirectTo.toString(QUrl::FullyEncoded)), facts.status,
                            &flight, nowNs))
            return;
        followRedirect(job, decision.redirectTo);
        return;
    case ResponseDecision::Action::Retry:
        if (decision.attemptNotMade) {
            // Start the same request again later: a hop stays a hop, an attempt is not counted twice.
            m_context->budget.onOutOfDescriptors();
            m_context->descriptorReserve.release();
            job.notBeforeNs = nowNs + msToNs(decision.retryInMs);
            job.continuingRedirect = job.redirects > 0;
            job.redoAttempt = !job.continuingRedirect;
            if (job.continuingRedirect && !job.chain.isEmpty())
                job.chain.removeLast();
            routeJob(std::move(job), true);
            return;
        }
        // The URL waits out its own delay too: the host that asked to wait may be a redirect target,
        // and the retry starts again at the input host.
        retryLater(job, host, nowNs, decision.retryInMs);
        return;
    }
}

void FetchShard::followRedirect(Job &job, const QUrl &target) {
    ++job.redirects;
    job.currentUrl = target;
    job.currentHost = hostKey(target);
    job.continuingRedirect = true;
    // The hop is a request like any other: it waits for the limits of its own host.
    routeJob(std::move(job), true);
}

void FetchShard::retryLater(Job &job, Host *host, qint64 nowNs, qint64 waitMs) {
    ++host->stats.retries;
    ++m_retries;
    // A new attempt starts again from the input URL, without holding any slot while it waits.
    job.continuingRedirect = false;
    job.currentUrl = QUrl(job.inputUrl);
    job.currentHost = job.inputHost;
    job.notBeforeNs = waitMs > 0 ? nowNs + msToNs(waitMs) : 0;
    routeJob(std::move(job), true);
}

void FetchShard::finish(Job &job, Outcome outcome, int status, const QString &error, const InFlight *last,
                        qint64 nowNs) {
    if (job.robotsFetch) { // a robots.txt fetch that ended without an answer (cancelled, host skipped)
        endRobotsJob(job, last ? status : 0, false, last ? last->bodyPrefix : QByteArray());
        return;
    }
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
    result.warning = std::move(job.warning);
    if (!job.robotsNote.isEmpty()) {
        const QString note = QStringLiteral("robots.txt would block it: ") + job.robotsNote;
        result.warning = result.warning.isEmpty() ? note : result.warning + QStringLiteral("; ") + note;
    }
    if (last)
        applyAcceptance(result, m_quality.acceptance, last->bodyPrefix);
    m_context->pushResult(std::move(result));
}

void FetchShard::cancelJob(Job &job, const QString &why) {
    endUnstarted(job, Outcome::Cancelled, why);
}

void FetchShard::endUnstarted(Job &job, Outcome outcome, const QString &why) {
    finish(job, outcome, job.lastStatus, why, nullptr, steadyNowNs());
}

void FetchShard::publishStats() {
    const qint64 now = steadyNowNs();
    evictIdleHosts(now);
    const double seconds = m_lastPublishNs > 0 ? double(now - m_lastPublishNs) / 1e9 : 0.0;
    m_lastPublishNs = now;
    const qint64 epochNow = QDateTime::currentMSecsSinceEpoch();

    ShardStats stats;
    stats.hosts.reserve(qsizetype(m_hostOrder.size()));
    for (Host *host : m_hostOrder) {
        HostSnapshot h = host->snapshot(m_limits, now, epochNow, seconds, kPacingMarginNs);
        if (m_robots.active()) {
            h.robotsStatus = m_robots.statusText(host->key);
            if (const int delayMs = m_robots.crawlDelayMs(host->key); delayMs > h.effectiveIntervalMs) {
                h.effectiveIntervalMs = delayMs;
                h.intervalReason =
                    QStringLiteral("Crawl-delay %1 s (robots.txt)").arg(double(delayMs) / 1000.0);
            }
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

// --- Issue 13: robots.txt, scope and acceptance -----------------------------------------------------

int FetchShard::intervalMsFor(const Host *host) const {
    const int interval = host->effectiveIntervalMs(m_limits);
    return std::max(interval, m_robots.crawlDelayMs(host->key)); // Crawl-delay: at least that far apart
}

bool FetchShard::endIfOutOfScope(Job &job, const NormalizedUrl &url, int status, const InFlight *last,
                                 qint64 nowNs) {
    if (!m_quality.scope.restrictsAnything())
        return false;
    const ScopeDecision decision = url.ok() ? m_quality.scope.check(url) : ScopeDecision{};
    if (decision.inScope)
        return false;
    if (!last) {
        endUnstarted(job, Outcome::Excluded, QStringLiteral("out of scope: ") + decision.rule);
        return true;
    }
    const QString target = url.text;
    finish(job, Outcome::Excluded, status,
           QStringLiteral("redirect to %1 not followed: %2").arg(target, decision.rule), last, nowNs);
    return true;
}

void FetchShard::endRobotsJob(Job &job, int status, bool tooManyRedirects, const QByteArray &body) {
    RobotsFetchOutcome outcome;
    outcome.hostKey = job.inputHost;
    outcome.https = job.inputUrl.startsWith(QLatin1String("https:"));
    outcome.status = status;
    outcome.tooManyRedirects = tooManyRedirects;
    outcome.body = body;
    // Always by a queued call, also to this shard: a robots fetch can end while the shard iterates its
    // hosts (a stop cancels everything), and the answer may create a host.
    m_context->shards[size_t(m_context->shardFor(outcome.hostKey))]->deliverRobots(std::move(outcome));
}

void FetchShard::deliverRobots(RobotsFetchOutcome outcome) {
    QMetaObject::invokeMethod(
        this, [this, outcome = std::move(outcome)] { onRobotsFetched(outcome); }, Qt::QueuedConnection);
}

void FetchShard::onRobotsFetched(const RobotsFetchOutcome &outcome) {
    Host *host = hostFor(m_robots.onFetched(outcome, steadyNowNs()));
    // Its URLs were held: they start now, wait for the retry, or end as blocked (pump decides).
    markRunnable(host);
    wake();
}

} // namespace crawl
