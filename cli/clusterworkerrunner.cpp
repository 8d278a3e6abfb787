#include "clusterworkerrunner.h"

#include "cluster/clusterlimits.h"
#include "cluster/clusterqueue.h"
#include "cluster/clusterresultcodec.h"
#include "cluster/clusterwatchsnapshot.h"
#include "cluster/clusterworkerclient.h"
#include "cluster/redisconnection.h"
#include "clustercredentials.h"
#include "engine/bodyprefix.h"
#include "engine/requesttemplates.h"
#include "headlessrunner.h"
#include "input/urlnormalizer.h"
#include "model/breakerevent.h"
#include "model/cancelreason.h"
#include "policy/hostbreaker.h"
#include "policy/redirectsafety.h"
#include "policy/resultacceptance.h"
#include "robots/robotsfetchpolicy.h"
#include "signalwatcher.h"
#include "stderrline.h"

#include <QDateTime>
#include <QEventLoop>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QTimeZone>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

namespace crawl {

namespace {

constexpr qint64 kLeaseTtlMs = crawl::kClusterLeaseTtlMs;
constexpr int kIdlePollMs = 250; // nothing to lease: look again (new input, retries coming due)
constexpr int kAckRetryMs = 500; // Redis unreachable while acknowledging: the lease is renewed meanwhile
constexpr int kMaxAckAttempts = 120;
// Redis unreachable at start: try again every second, and say so again at most this often.
constexpr int kReconnectRetryMs = 1000;
constexpr qint64 kUnreachableRepeatMs = 10000;
// A worker given --crawl NAME waits this long for its coordinator to create the crawl (the two are often
// started together), then ends with exit 2: a mistyped name must not wait forever.
constexpr qint64 kMissingCrawlGraceMs = 5000;

// A URL whose origin's robots.txt another worker is fetching goes back to the queue for this long (at most):
// short enough that it starts soon after the rules are stored, long enough not to spin on the lock.
constexpr qint64 kRobotsWaitMs = 250;
// Origins whose rules this worker keeps; beyond it the map starts again (the rules are in Redis).
constexpr qsizetype kMaxRobotsOrigins = 20'000;

// robots.txt is per origin: http and https of a host may differ (RFC 9309 section 2.3).
QString robotsOrigin(const QUrl &url, const QString &host) {
    return url.scheme() + QStringLiteral("://") + host;
}

QUrl robotsUrlOf(const QUrl &url) {
    QUrl robots;
    robots.setScheme(url.scheme());
    robots.setHost(url.host());
    robots.setPort(url.port());
    robots.setPath(QStringLiteral("/robots.txt"));
    return robots;
}

qint64 steadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void say(const QString &what) {
    printStderrLine(QStringLiteral("crawlscope: ") + what);
}

// The refusals of ClusterQueue::acknowledge: the result is not wanted (another worker has or will have
// it). Anything else is Redis failing, and acknowledging again is safe.
bool isRefusal(const QString &refusal) {
    static const QStringList refusals = {QStringLiteral("expired"), QStringLiteral("foreign"),
                                         QStringLiteral("unknown"), QStringLiteral("released"),
                                         QStringLiteral("done"),    QStringLiteral("acked")};
    return refusals.contains(refusal);
}

bool sameOrigin(const QUrl &a, const QUrl &b) {
    return a.scheme() == b.scheme() && a.host() == b.host() && a.port(-1) == b.port(-1);
}

} // namespace

QString pickClusterCrawl(RedisConnection &connection, QString *error) {
    const QStringList names = ClusterQueue::crawlNames(connection, error);
    if (!error->isEmpty())
        return {};
    for (const QString &name : names) {
        ClusterQueue queue(connection, name);
        const ClusterCounts counts = queue.counts();
        const bool inputComplete =
            queue.settings().value(QStringLiteral("input_complete")) == QLatin1String("1");
        if (counts.error.isEmpty() && (!inputComplete || counts.done < counts.enqueued))
            return name;
    }
    return {};
}

ClusterWorkerRunner::ClusterWorkerRunner(const CommandLineOptions &options, const RedisUrl &url,
                                         QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_url(url)
    , m_crawlName(options.crawlName)
    , m_workerId(ClusterWorkerClient::makeWorkerId()) {
    m_concurrency =
        options.explicitFlags.contains(QLatin1String("concurrency")) ? options.limits.globalInFlight : 16;
    m_askTimer.setSingleShot(true);
    connect(&m_askTimer, &QTimer::timeout, this, &ClusterWorkerRunner::askForWork);
    m_deadlineTimer.setInterval(100);
    connect(&m_deadlineTimer, &QTimer::timeout, this, [this] {
        // The total time of a request hop (the idle timeout is QNAM's transfer timeout).
        const qint64 now = steadyNs();
        const qint64 totalNs = qint64(std::max(1, m_policy.totalTimeoutS)) * 1'000'000'000;
        for (Flight &flight : m_flights) {
            if (flight.reply && now - flight.hopStartNs > totalNs) {
                flight.abortReason = AbortReason::TotalDeadline;
                flight.reply->abort();
            }
        }
    });
    m_stateTimer.setInterval(kIdlePollMs);
    connect(&m_stateTimer, &QTimer::timeout, this, [this] {
        if (m_client && m_flights.isEmpty())
            QMetaObject::invokeMethod(m_client, &ClusterWorkerClient::checkCrawlState, Qt::QueuedConnection);
    });
}

ClusterWorkerRunner::~ClusterWorkerRunner() {
    m_clientThread.quit();
    m_clientThread.wait();
}

int ClusterWorkerRunner::run() {
    m_network = new QNetworkAccessManager(this);
    m_network->setAutoDeleteReplies(false);
    m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);

    SignalWatcher watcher(ExitInterrupted);
    connect(&watcher, &SignalWatcher::interrupted, this, &ClusterWorkerRunner::onInterrupted);

    QEventLoop loop;
    m_loop = &loop;
    if (m_crawlName.isEmpty()) {
        // No --crawl: the first unfinished crawl, or wait for one (a worker pool started before any crawl).
        RedisConnection::Options pickOptions;
        pickOptions.clientName =
            QByteArrayLiteral("crawlscope-worker-pick"); // also proves a TLS port at once
        m_pickConnection = std::make_unique<RedisConnection>(m_url, pickOptions);
        m_pickTimer.setInterval(kReconnectRetryMs);
        connect(&m_pickTimer, &QTimer::timeout, this, &ClusterWorkerRunner::pickCrawl);
        m_pickTimer.start();
        QMetaObject::invokeMethod(this, &ClusterWorkerRunner::pickCrawl, Qt::QueuedConnection);
    } else {
        QMetaObject::invokeMethod(this, &ClusterWorkerRunner::startClient, Qt::QueuedConnection);
    }
    loop.exec();
    m_loop = nullptr;
    m_pickTimer.stop();
    m_clientThread.quit();
    m_clientThread.wait();
    m_client = nullptr;
    return m_exitCode;
}

bool ClusterWorkerRunner::sayUnreachable(const QString &error) {
    if (m_sinceUnreachableSaid.isValid() && m_sinceUnreachableSaid.elapsed() < kUnreachableRepeatMs)
        return false;
    say(QStringLiteral("cannot reach Redis at %1 (%2); retrying every %3 s (Ctrl-C to stop)")
            .arg(m_url.redacted(), error)
            .arg(kReconnectRetryMs / 1000));
    m_sinceUnreachableSaid.start();
    return true;
}

void ClusterWorkerRunner::pickCrawl() {
    if (m_finishing || m_client)
        return;
    if (!m_pickConnection->isConnected() && !m_pickConnection->connectOnce()) {
        if (m_pickConnection->lastFailureIsPermanent()) {
            say(QStringLiteral("cannot use Redis at %1: %2")
                    .arg(m_url.redacted(), m_pickConnection->lastError()));
            return finish(ExitUsage);
        }
        sayUnreachable(m_pickConnection->lastError());
        return;
    }
    QString error;
    const QString name = pickClusterCrawl(*m_pickConnection, &error);
    if (!error.isEmpty()) {
        sayUnreachable(error);
        return;
    }
    if (name.isEmpty()) {
        if (!m_saidWaitingForAny)
            say(QStringLiteral("no unfinished shared crawl in %1 yet; waiting for one (Ctrl-C to stop)")
                    .arg(m_url.redacted()));
        m_saidWaitingForAny = true;
        return;
    }
    m_pickTimer.stop();
    m_pickConnection.reset();
    m_crawlName = name;
    startClient();
}

void ClusterWorkerRunner::startClient() {
    if (m_finishing)
        return;
    ClusterWorkerClient::Settings settings;
    settings.url = m_url;
    settings.crawlName = m_crawlName;
    settings.workerId = m_workerId;
    settings.leaseTtlMs = kLeaseTtlMs;
    m_client = new ClusterWorkerClient(settings);
    m_client->moveToThread(&m_clientThread);
    connect(&m_clientThread, &QThread::finished, m_client, &QObject::deleteLater);
    connect(m_client, &ClusterWorkerClient::settingsRead, this, &ClusterWorkerRunner::onSettings);
    connect(m_client, &ClusterWorkerClient::started, this, &ClusterWorkerRunner::onStarted);
    connect(m_client, &ClusterWorkerClient::limitsChanged, this, &ClusterWorkerRunner::onLimitsChanged);
    connect(m_client, &ClusterWorkerClient::leased, this, &ClusterWorkerRunner::onLeased);
    connect(m_client, &ClusterWorkerClient::acknowledged, this, &ClusterWorkerRunner::onAcknowledged);
    connect(m_client, &ClusterWorkerClient::leaseLost, this, &ClusterWorkerRunner::onLeaseLost);
    connect(m_client, &ClusterWorkerClient::crawlState, this, &ClusterWorkerRunner::onCrawlState);
    connect(m_client, &ClusterWorkerClient::hopDecision, this, &ClusterWorkerRunner::onHopDecision);
    connect(m_client, &ClusterWorkerClient::robotsLookedUp, this, &ClusterWorkerRunner::onRobotsLookedUp);
    connect(m_client, &ClusterWorkerClient::problem, this, &ClusterWorkerRunner::onProblem);
    connect(m_client, &ClusterWorkerClient::breakerChanged, this, &ClusterWorkerRunner::onBreakerChanged);
    connect(m_client, &ClusterWorkerClient::hopGivenUp, this,
            [this](const QByteArray &leaseId, const QString &host, const QString &reason) {
                const auto it = m_flights.find(leaseId);
                if (it != m_flights.end() && it->pendingHopHost == host && !m_stopping)
                    acknowledgeGivenUp(*it, host, reason);
            });
    // A redirect to a host a window skipped: the URL ends `cancelled`, as a local crawl's hop to a skipped
    // host does (FetchShard::placeLocal).
    connect(m_client, &ClusterWorkerClient::hopSkippedByUser, this,
            [this](const QByteArray &leaseId, const QString &host) {
                const auto it = m_flights.find(leaseId);
                if (it != m_flights.end() && it->pendingHopHost == host && !m_stopping)
                    acknowledgeUnfetched(*it, Outcome::Cancelled, skippedHostText(host));
            });
    connect(m_client, &ClusterWorkerClient::unreachable, this, [this](const QString &error, bool permanent) {
        if (m_finishing)
            return;
        if (permanent) {
            say(QStringLiteral("cannot use Redis at %1: %2").arg(m_url.redacted(), error));
            return finish(ExitUsage);
        }
        // A worker outlives a Redis that is not up yet (started first, or restarting): it keeps trying.
        sayUnreachable(error);
        retryStartLater(kReconnectRetryMs);
    });
    connect(m_client, &ClusterWorkerClient::crawlMissing, this, [this] {
        if (!m_sinceMissing.isValid()) {
            say(QStringLiteral("no crawl named \"%1\" in %2 yet; waiting up to %3 s for its coordinator")
                    .arg(m_crawlName, m_url.redacted())
                    .arg(kMissingCrawlGraceMs / 1000));
            m_sinceMissing.start();
        } else if (m_sinceMissing.elapsed() >= kMissingCrawlGraceMs) {
            say(QStringLiteral("no crawl named \"%1\" in %2 (check the name; a coordinator creates it with "
                               "--input FILE --crawl %1)")
                    .arg(m_crawlName, m_url.redacted()));
            return finish(ExitUsage);
        }
        m_waitingForCrawl = true;
        retryStartLater(kIdlePollMs);
    });
    m_clientThread.start();
    QMetaObject::invokeMethod(m_client, &ClusterWorkerClient::start, Qt::QueuedConnection);
}

void ClusterWorkerRunner::retryStartLater(int delayMs) {
    QTimer::singleShot(delayMs, this, [this] {
        if (m_client && !m_finishing)
            QMetaObject::invokeMethod(m_client, &ClusterWorkerClient::start, Qt::QueuedConnection);
    });
}

void ClusterWorkerRunner::onSettings(const QMap<QString, QString> &settings) {
    // The coordinator's fetch flags (timeouts, retries, headers...) apply to every worker.
    const QString stored = settings.value(QStringLiteral("cli.arguments"));
    QStringList arguments{QStringLiteral("crawlscope"), QStringLiteral("--headless"),
                          QStringLiteral("--input"), QStringLiteral("-")};
    if (!stored.isEmpty())
        arguments << stored.split(QLatin1Char('\n'));
    const CommandLineParse parsed = parseCommandLine(arguments);
    if (!parsed.ok) {
        say(QStringLiteral("the shared crawl \"%1\" has flags this worker does not understand: %2")
                .arg(m_crawlName, parsed.error));
        return finish(ExitUsage);
    }
    m_policy = parsed.options.policy;
    // Credential headers are not in Redis: this worker's own --header values, merged over the stored ones.
    const ClusterWorkerHeaders headers =
        mergeClusterWorkerHeaders(m_policy.headers, m_options.policy.headers,
                                  settings.value(QString::fromLatin1(kWithheldHeadersKey))
                                      .split(QLatin1Char('\n'), Qt::SkipEmptyParts));
    if (!headers.missing.isEmpty()) {
        QStringList flags;
        for (const QString &name : headers.missing)
            flags << QStringLiteral("--header %1").arg(name);
        say(QStringLiteral("the shared crawl \"%1\" was started with credential headers that are not stored "
                           "in Redis: this crawl needs %2 on every worker (give --header \"Name: value\")")
                .arg(m_crawlName, flags.join(QStringLiteral(" and "))));
        return finish(ExitUsage);
    }
    m_policy.headers = headers.headers;
    m_acceptance = parsed.options.quality.acceptance;
    m_scope = parsed.options.quality.scope;
    const CrawlQuality &quality = parsed.options.quality;
    m_robotsSettings.robots = quality.robots;
    m_robotsSettings.robotsAgent =
        quality.robotsAgent.isEmpty() ? QByteArrayLiteral("crawlscope") : quality.robotsAgent;
    m_robotsSettings.ignoreCrawlDelay = quality.ignoreCrawlDelay;
    m_robotsSettings.robotsRetry = quality.robotsRetry;
    m_robotsSettings.robotsRefetchMs = std::max<qint64>(1, quality.robotsRefetchMs);
    m_robotsSettings.robotsMaxRedirects = quality.robotsMaxRedirects;
    RequestTemplates templates = RequestTemplates::forPolicy(m_policy); // exactly what the engine sends
    m_request = std::move(templates.request);
    m_requestWithoutCredentials = std::move(templates.withoutCredentials);
}

void ClusterWorkerRunner::applyLimits(const ClusterLimits &limits) {
    m_breakerOn = limits.breaker.enabled;
    m_adaptive = limits.adaptive;
    const int wanted =
        m_options.explicitFlags.contains(QLatin1String("concurrency")) ? m_options.limits.globalInFlight : 16;
    m_concurrency = std::max(1, std::min(wanted, limits.globalInFlight));
}

void ClusterWorkerRunner::onStarted(const ClusterLimits &limits) {
    if (m_finishing)
        return;
    applyLimits(limits);
    say(QStringLiteral("worker %1 on crawl \"%2\" at %3: %4 at a time (shared: %5 in flight, %6 per host, "
                       "%7 ms apart%8)")
            .arg(QString::fromUtf8(m_workerId), m_crawlName, m_url.redacted())
            .arg(m_concurrency)
            .arg(limits.globalInFlight)
            .arg(limits.perHostInFlight)
            .arg(userIntervalMs(limits.intervalMs))
            .arg(limits.adaptive ? QStringLiteral(", adaptive pace per host") : QString()));
    m_deadlineTimer.start();
    m_stateTimer.start();
    askForWork();
}

void ClusterWorkerRunner::onLimitsChanged(const ClusterLimits &limits) {
    applyLimits(limits);
    say(QStringLiteral("shared limits changed (version %1): %2 in flight, %3 per host, %4 ms apart%5")
            .arg(limits.version)
            .arg(limits.globalInFlight)
            .arg(limits.perHostInFlight)
            .arg(userIntervalMs(limits.intervalMs))
            .arg(limits.adaptive ? QStringLiteral(", adaptive pace per host") : QString()));
    askForWork();
}

void ClusterWorkerRunner::askForWork() {
    if (m_asking) {
        // The answer on its way was decided before this: a slot or a host's start freed since (an
        // acknowledgement, a blocked URL's start given back) would otherwise wait for the poll timer.
        m_askAgain = true;
        return;
    }
    if (m_stopping || m_finishing || !m_client)
        return;
    const int free = m_concurrency - int(m_flights.size());
    if (free <= 0)
        return;
    m_asking = true;
    m_requested = free;
    m_askTimer.stop();
    QMetaObject::invokeMethod(
        m_client, [client = m_client, free] { client->requestLeases(free); }, Qt::QueuedConnection);
}

void ClusterWorkerRunner::onLeased(const QList<ClusterLease> &leases, qint64 askAgainInMs) {
    m_asking = false;
    const bool askAgain = std::exchange(m_askAgain, false);
    const qint64 now = steadyNs();
    for (const ClusterLease &lease : leases) {
        if ((lease.givenUp || lease.skippedByUser) && !m_stopping) { // nothing is sent: never late
            Flight flight;
            flight.lease = lease;
            Flight &stored = m_flights.insert(lease.leaseId, flight).value();
            if (lease.givenUp)
                acknowledgeGivenUp(stored, lease.host, lease.givenUpReason);
            else
                acknowledgeUnfetched(stored, Outcome::Cancelled, skippedHostText(lease.host));
            continue;
        }
        if (m_stopping || now - lease.askedAtSteadyNs > kClusterLateLeaseMs * 1'000'000) {
            // Its grant is older than the interval guard covers: sent now it could reach the host sooner
            // after the next grant than the interval allows. Back to the queue, unfetched.
            ++m_lateLeases;
            QMetaObject::invokeMethod(
                m_client, [client = m_client, id = lease.leaseId] { client->giveBack(id); },
                Qt::QueuedConnection);
            continue;
        }
        Flight flight;
        flight.lease = lease;
        flight.currentUrl = QUrl(lease.url);
        flight.grantServerMs = lease.expiresMs - kLeaseTtlMs;
        flight.grantSteadyNs = lease.askedAtSteadyNs;
        flight.firstStartEpochMs = QDateTime::currentMSecsSinceEpoch();
        Flight &stored = m_flights.insert(lease.leaseId, flight).value();
        admitLease(stored);
    }
    if (m_stopping)
        return;
    // Fewer than asked for: nothing more may start now; ask when a host may (or poll for new input, retries
    // and slots freed by other workers). All of them: there may be more.
    if (leases.size() < m_requested && !askAgain)
        m_askTimer.start(int(askAgainInMs >= 0 ? askAgainInMs : kIdlePollMs));
    else
        askForWork();
}

bool ClusterWorkerRunner::isLate(const Flight &flight) const {
    return steadyNs() - flight.lease.askedAtSteadyNs > kClusterLateLeaseMs * 1'000'000;
}

qint64 ClusterWorkerRunner::robotsLockTtlMs() const {
    // Long enough for the whole fetch (each hop may take the total timeout); a worker that dies while
    // fetching holds its origin's URLs back this long at most.
    return qint64(m_robotsSettings.robotsMaxRedirects + 1) * std::max(1, m_policy.totalTimeoutS) * 1000 +
           5000;
}

void ClusterWorkerRunner::admitLease(Flight &flight) {
    if (m_robotsSettings.robots == RobotsMode::Ignore)
        return startFetch(flight);
    const QString origin = robotsOrigin(flight.currentUrl, flight.lease.host);
    if (const auto known = m_robots.constFind(origin); known != m_robots.constEnd()) {
        if (steadyNs() < known->validUntilNs)
            return applyRobots(flight, *known);
        m_robots.erase(known);
    }
    flight.awaitingRobots = true;
    QMetaObject::invokeMethod(
        m_client,
        [client = m_client, leaseId = flight.lease.leaseId, origin, ttl = robotsLockTtlMs()] {
            client->lookupRobots(leaseId, origin, ttl);
        },
        Qt::QueuedConnection);
}

void ClusterWorkerRunner::onRobotsLookedUp(const QByteArray &leaseId, const QString &host,
                                           const ClusterRobotsLookup &lookup) {
    const auto it = m_flights.find(leaseId);
    if (it == m_flights.end() || !it->awaitingRobots || m_stopping) {
        if (lookup.state == ClusterRobotsLookup::State::FetchIt) // nobody here will fetch it
            QMetaObject::invokeMethod(
                m_client, [client = m_client, host] { client->unlockRobots(host); }, Qt::QueuedConnection);
        return;
    }
    Flight &flight = *it;
    flight.awaitingRobots = false;
    flight.robotsLookedUp = true;
    if (!lookup.error.isEmpty()) // Redis failing (it reconnects): the URL waits, nothing is sent blind
        return deferLease(flight, kRobotsWaitMs);
    switch (lookup.state) {
    case ClusterRobotsLookup::State::Known: {
        if (m_robots.size() >= kMaxRobotsOrigins)
            m_robots.clear();
        const HostRobots robots = hostRobotsFrom(lookup.entry, lookup.remainingMs);
        m_robots.insert(host, robots);
        return applyRobots(flight, robots);
    }
    case ClusterRobotsLookup::State::FetchIt:
        if (isLate(flight)) { // like a late lease: the slot's start time has passed, try again
            ++m_lateLeases;
            QMetaObject::invokeMethod(
                m_client, [client = m_client, host] { client->unlockRobots(host); }, Qt::QueuedConnection);
            return deferLease(flight, 0);
        }
        // This lease's slot fetches robots.txt: the fetch counts against the host's shared budget.
        flight.robotsFetch = true;
        flight.robotsAttempt = lookup.attempt;
        flight.currentUrl = robotsUrlOf(flight.currentUrl);
        return sendHop(flight);
    case ClusterRobotsLookup::State::Wait:
        return deferLease(
            flight, std::clamp<qint64>(lookup.remainingMs, ClusterWorkerClient::kMinPollMs, kRobotsWaitMs));
    }
}

ClusterWorkerRunner::HostRobots ClusterWorkerRunner::hostRobotsFrom(const ClusterRobotsEntry &entry,
                                                                    qint64 remainingMs) const {
    // The engine's decision (RobotsGate::onFetched), from what the fetching worker stored.
    const RobotsFetchDecision decision =
        decideRobotsFetch(entry.status, entry.tooManyRedirects, entry.attempt, m_robotsSettings.robotsRetry);
    HostRobots robots;
    switch (decision.action) {
    case RobotsFetchDecision::Action::Parse:
        robots.rules = RobotsRules::parse(entry.body, m_robotsSettings.robotsAgent);
        break;
    case RobotsFetchDecision::Action::AllowAll:
        robots.rules = RobotsRules::allowAll(decision.reason);
        break;
    case RobotsFetchDecision::Action::DisallowAll:
        robots.rules = RobotsRules::disallowAll(decision.reason);
        break;
    }
    robots.retryPending = decision.retry;
    robots.reason = decision.reason;
    if (const auto delay = robots.rules.crawlDelaySeconds();
        delay && *delay > 0 && !m_robotsSettings.ignoreCrawlDelay)
        robots.crawlDelayMs = int(std::min(std::ceil(*delay * 1000.0 - 1e-6), 86'400'000.0)); // a day at most
    const qint64 validMs = remainingMs >= 0 ? remainingMs : m_robotsSettings.robotsRefetchMs;
    robots.validUntilNs = steadyNs() + validMs * 1'000'000;
    return robots;
}

void ClusterWorkerRunner::applyRobots(Flight &flight, const HostRobots &robots) {
    if (robots.retryPending) {
        if (m_robotsSettings.robots ==
            RobotsMode::Obey) // unreachable for now: wait for the next robots fetch
            return deferLease(
                flight, std::max<qint64>(kRobotsWaitMs, (robots.validUntilNs - steadyNs()) / 1'000'000));
        flight.robotsNote = robots.reason; // report only: nothing waits for an unreachable robots.txt
        return startFetch(flight);
    }
    const RobotsVerdict verdict = robots.rules.check(flight.currentUrl);
    if (!verdict.allowed) {
        if (m_robotsSettings.robots == RobotsMode::Obey)
            return acknowledgeBlocked(flight, verdict.reason);
        flight.robotsNote = verdict.reason;
    }
    startFetch(flight);
}

void ClusterWorkerRunner::startFetch(Flight &flight) {
    if (flight.robotsLookedUp && isLate(flight)) { // the round trip to Redis made it late
        ++m_lateLeases;
        return deferLease(flight, 0);
    }
    sendHop(flight);
}

void ClusterWorkerRunner::endRobotsFetch(Flight &flight, int status, bool tooManyRedirects) {
    const QByteArray leaseId = flight.lease.leaseId;
    if (!flight.hopHost.isEmpty()) {
        flight.hopHost.clear();
        QMetaObject::invokeMethod(
            m_client, [client = m_client, leaseId] { client->finishHop(leaseId); }, Qt::QueuedConnection);
    }
    ClusterRobotsEntry entry;
    entry.status = status;
    entry.tooManyRedirects = tooManyRedirects;
    entry.body =
        status >= 200 && status <= 299 ? flight.bodyPrefix.left(RobotsRules::maxParsedBytes) : QByteArray();
    entry.attempt = flight.robotsAttempt;
    const RobotsFetchDecision decision =
        decideRobotsFetch(status, tooManyRedirects, entry.attempt, m_robotsSettings.robotsRetry);
    const qint64 ttlMs = decision.retry ? decision.retryDelayMs : m_robotsSettings.robotsRefetchMs;
    const QString origin = robotsOrigin(QUrl(flight.lease.url), flight.lease.host);
    if (m_robots.size() >= kMaxRobotsOrigins)
        m_robots.clear();
    const HostRobots robots = hostRobotsFrom(entry, ttlMs);
    m_robots.insert(origin, robots);
    // Stored before the URL goes back (the same thread, in order): whoever leases it next reads the rules.
    // A Crawl-delay becomes the host's least interval in the shared budget, with the same guard as an
    // interval the user sets (clusterlimits.h), so the server sees starts at least that far apart.
    const qint64 crawlDelayMs = robots.crawlDelayMs > 0 ? robots.crawlDelayMs + kClusterIntervalGuardMs : 0;
    QMetaObject::invokeMethod(
        m_client,
        [client = m_client, origin, entry, ttlMs, retry = decision.retry,
         failTtl = m_robotsSettings.robotsRefetchMs, host = flight.lease.host,
         crawlDelayMs] { client->storeRobots(origin, entry, ttlMs, retry, failTtl, host, crawlDelayMs); },
        Qt::QueuedConnection);
    say(QStringLiteral("robots.txt of %1: %2")
            .arg(origin,
                 decision.action == RobotsFetchDecision::Action::Parse
                     ? QStringLiteral("HTTP %1, %2 rules").arg(status).arg(robots.rules.rules().size())
                     : decision.reason));
    // The URL itself was not sent: back to the front of its host's queue, its attempt not counted; its
    // next start obeys the host's interval (this fetch spent the slot).
    QMetaObject::invokeMethod(
        m_client, [client = m_client, leaseId] { client->giveBack(leaseId, true); }, Qt::QueuedConnection);
    m_flights.remove(leaseId);
    askForWork();
}

void ClusterWorkerRunner::deferLease(Flight &flight, qint64 waitMs) {
    const QByteArray leaseId = flight.lease.leaseId;
    QMetaObject::invokeMethod(
        m_client,
        [client = m_client, leaseId, at = serverNowMs(flight) + std::max<qint64>(0, waitMs)] {
            client->giveBackUntil(leaseId, at);
        },
        Qt::QueuedConnection);
    m_flights.remove(leaseId);
    // Queued: this may run inside onLeased's loop, which asks for more itself when it is done.
    QMetaObject::invokeMethod(this, &ClusterWorkerRunner::askForWork, Qt::QueuedConnection);
}

void ClusterWorkerRunner::acknowledgeBlocked(Flight &flight, const QString &reason) {
    // Never requested: a row like a local crawl's (outcome blocked_robots, the rule as the error).
    CrawlResult result;
    result.url = flight.lease.url;
    result.host = flight.lease.host;
    result.outcome = Outcome::BlockedRobots;
    result.error = reason;
    result.finishedAt = QDateTime::currentDateTimeUtc();
    flight.resultFields = ClusterResultCodec::encode(result);
    flight.resultFields.append({"host_inflight", QByteArray::number(flight.lease.hostInFlight)});
    flight.requestSent = false; // as a local crawl, which decides before it starts: the host is not delayed
    sendAcknowledgement(flight);
}

void ClusterWorkerRunner::acknowledgeGivenUp(Flight &flight, const QString &host, const QString &reason) {
    if (!m_givenUpSaid.contains(host)) { // each worker that skips a host's URLs says why, once
        m_givenUpSaid.insert(host);
        BreakerEvent event;
        event.kind = BreakerEvent::Kind::GaveUp;
        event.host = host;
        event.reason = reason;
        say(breakerEventText(event));
    }
    acknowledgeUnfetched(flight, Outcome::Skipped, breakerGaveUpText(host, reason));
}

void ClusterWorkerRunner::acknowledgeUnfetched(Flight &flight, Outcome outcome, const QString &error) {
    CrawlResult result;
    result.url = flight.lease.url;
    result.host = flight.lease.host;
    result.outcome = outcome;
    result.error = error;
    result.finishedAt = QDateTime::currentDateTimeUtc();
    flight.resultFields = ClusterResultCodec::encode(result);
    flight.resultFields.append({"host_inflight", QByteArray::number(flight.lease.hostInFlight)});
    sendAcknowledgement(flight);
}

void ClusterWorkerRunner::sendHop(Flight &flight) {
    QNetworkRequest request =
        (m_policy.sendCredentialsCrossOrigin || sameOrigin(flight.currentUrl, QUrl(flight.lease.url)))
            ? m_request
            : m_requestWithoutCredentials;
    request.setUrl(flight.currentUrl);
    flight.chain.append(flight.currentUrl.toString());
    flight.hopStartNs = steadyNs();
    flight.ttfbNs = 0;
    flight.bytes = 0;
    flight.contentType.clear();
    flight.bodyPrefix.clear();
    flight.keepBytes = -1;
    flight.headersSeen = false;
    flight.abortReason = AbortReason::None;
    QNetworkReply *reply = m_network->get(request);
    flight.reply = reply;
    m_leaseOfReply.insert(reply, flight.lease.leaseId);
    connect(reply, &QNetworkReply::metaDataChanged, this, [this, reply] {
        const auto it = m_flights.find(m_leaseOfReply.value(reply));
        if (it != m_flights.end() && !it->headersSeen) {
            it->headersSeen = true;
            it->ttfbNs = steadyNs() - it->hopStartNs;
            it->contentType = reply->header(QNetworkRequest::ContentTypeHeader).toString();
        }
    });
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReplyData(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onReplyFinished(reply); });
}

void ClusterWorkerRunner::onReplyData(QNetworkReply *reply) {
    const auto it = m_flights.find(m_leaseOfReply.value(reply));
    if (it == m_flights.end()) {
        reply->skip(reply->bytesAvailable());
        return;
    }
    // Only the first bytes the acceptance checks read are kept; the rest is counted and dropped.
    it->bytes += consumeBody(reply, it->bodyPrefix, keepBytesOf(*it));
    if (it->bytes > m_policy.maxBodyBytes && it->abortReason == AbortReason::None) {
        it->abortReason = AbortReason::TooLarge;
        reply->abort();
    }
}

qsizetype ClusterWorkerRunner::keepBytesOf(Flight &flight) const {
    // Decided once per hop, from its content type (sendHop resets it for the next hop).
    if (flight.keepBytes < 0)
        flight.keepBytes = bodyBytesToKeep(m_acceptance, flight.robotsFetch, flight.contentType);
    return flight.keepBytes;
}

qint64 ClusterWorkerRunner::serverNowMs(const Flight &flight) const {
    // The server's clock, from the grant and our own steady clock: machines' wall clocks may disagree.
    return flight.grantServerMs + (steadyNs() - flight.grantSteadyNs) / 1'000'000;
}

void ClusterWorkerRunner::onReplyFinished(QNetworkReply *reply) {
    reply->deleteLater();
    const QByteArray leaseId = m_leaseOfReply.take(reply);
    const auto it = m_flights.find(leaseId);
    if (it == m_flights.end() || it->reply != reply || m_stopping)
        return; // lost lease or a stop: the result is not wanted
    Flight &flight = *it;
    flight.reply = nullptr;
    if (reply->isOpen())
        flight.bytes += consumeBody(reply, flight.bodyPrefix, keepBytesOf(flight));
    const qint64 now = steadyNs();

    ResponseFacts facts;
    facts.abortReason = flight.abortReason;
    facts.networkError = reply->error();
    if (facts.networkError != QNetworkReply::NoError)
        facts.networkErrorText = reply->errorString();
    facts.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (facts.status > 0) {
        facts.reasonPhrase = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
        facts.location = reply->rawHeader("Location");
        facts.contentEncoding = reply->rawHeader("Content-Encoding");
        facts.headersComplete = !reply->rawHeaderPairs().isEmpty();
        facts.chunked = reply->rawHeader("Transfer-Encoding").toLower().contains("chunked");
        if (const QVariant declared = reply->header(QNetworkRequest::ContentLengthHeader); declared.isValid())
            facts.declaredLength = declared.toLongLong();
        if (facts.status == 429 || facts.status == 503) {
            facts.retryAfter = reply->rawHeader("Retry-After");
            facts.nowUtc = QDateTime::currentDateTimeUtc();
        }
    }
    facts.url = flight.currentUrl;
    facts.bodyBytes = flight.bytes;
    facts.attempts = flight.lease.attempts;
    facts.redirects = flight.redirects;
    facts.spentMs = QDateTime::currentMSecsSinceEpoch() - flight.firstStartEpochMs;
    facts.random01 = QRandomGenerator::global()->generateDouble();
    ResponseDecision decision = decideResponse(facts, m_policy);
    recordAttempt(flight, facts, decision);
    if (flight.robotsFetch) {
        // robots.txt: its own redirect limit and no retries of its own (decideRobotsFetch says what a
        // failure means), as in the engine; a Retry-After still pauses the host.
        const bool redirect = decision.action == ResponseDecision::Action::FollowRedirect;
        if (!redirect || flight.redirects >= m_robotsSettings.robotsMaxRedirects) {
            if (decision.pauseHostMs >= 0)
                QMetaObject::invokeMethod(
                    m_client,
                    [client = m_client, host = flight.lease.host,
                     until = serverNowMs(flight) + decision.pauseHostMs] { client->pauseHost(host, until); },
                    Qt::QueuedConnection);
            return endRobotsFetch(flight, facts.status,
                                  redirect || (facts.status >= 300 && facts.status <= 399));
        }
    }
    if (decision.action == ResponseDecision::Action::FollowRedirect && m_scope.restrictsAnything() &&
        !flight.robotsFetch) {
        // A redirect out of the crawl's scope is not followed (as in a single-process crawl).
        const NormalizedUrl target = normalizeUrl(decision.redirectTo.toString(QUrl::FullyEncoded));
        const ScopeDecision scope = target.ok() ? m_scope.check(target) : ScopeDecision{};
        if (!scope.inScope) {
            decision.action = ResponseDecision::Action::Finish;
            decision.outcome = Outcome::Excluded;
            decision.error = QStringLiteral("redirect to %1 not followed: %2").arg(target.text, scope.rule);
        }
    }

    if (decision.pauseHostMs >= 0) {
        // Retry-After: the whole host waits, for every worker.
        QMetaObject::invokeMethod(
            m_client,
            [client = m_client, host = flight.lease.host,
             until = serverNowMs(flight) + decision.pauseHostMs] { client->pauseHost(host, until); },
            Qt::QueuedConnection);
    }
    switch (decision.action) {
    case ResponseDecision::Action::FollowRedirect: {
        if (!decision.warning.isEmpty())
            flight.warning = decision.warning;
        ++flight.redirects;
        flight.currentUrl = decision.redirectTo;
        const QString nextHost = hostKey(decision.redirectTo);
        if (!flight.hopHost.isEmpty()) { // the previous hop's slot frees now
            flight.hopHost.clear();
            QMetaObject::invokeMethod(
                m_client, [client = m_client, leaseId] { client->finishHop(leaseId); }, Qt::QueuedConnection);
        }
        if (nextHost == flight.lease.host) {
            sendHop(flight); // the lease holds this host's slot
            return;
        }
        // Another host: its own shared budget decides when the hop may start (the lease's slot stays held).
        flight.pendingHopHost = nextHost;
        askForHop(leaseId);
        return;
    }
    case ResponseDecision::Action::Retry:
        // Back to Redis with its next-eligible time: any worker may take it then.
        QMetaObject::invokeMethod(
            m_client,
            [client = m_client, leaseId, at = serverNowMs(flight) + decision.retryInMs] {
                client->retryLater(leaseId, at);
            },
            Qt::QueuedConnection);
        m_flights.erase(it);
        askForWork();
        return;
    case ResponseDecision::Action::Finish:
        break;
    }
    CrawlResult result;
    result.url = flight.lease.url;
    result.host = flight.lease.host;
    result.status = facts.status;
    result.outcome = decision.outcome;
    result.error = decision.error;
    result.finalUrl = facts.status > 0 ? flight.currentUrl.toString() : QString();
    result.redirects = flight.redirects;
    result.bytes = flight.bytes;
    result.contentType = flight.contentType;
    result.latencyMs = (now - flight.hopStartNs) / 1'000'000;
    result.ttfbMs = flight.headersSeen ? flight.ttfbNs / 1'000'000 : -1;
    result.startedAt = QDateTime::fromMSecsSinceEpoch(flight.firstStartEpochMs, Qt::UTC);
    result.finishedAt = QDateTime::currentDateTimeUtc();
    result.redirectChain = flight.chain;
    result.warning = flight.warning;
    if (!flight.robotsNote.isEmpty()) { // --robots report: the same words as a local crawl
        const QString note = QStringLiteral("robots.txt would block it: ") + flight.robotsNote;
        result.warning = result.warning.isEmpty() ? note : result.warning + QStringLiteral("; ") + note;
    }
    applyAcceptance(result, m_acceptance, flight.bodyPrefix); // the same checks as a single-process crawl
    flight.resultFields = ClusterResultCodec::encode(result);
    // For the tests and the window: how many grants the host had in flight, by the server's count.
    flight.resultFields.append({"host_inflight", QByteArray::number(flight.lease.hostInFlight)});
    sendAcknowledgement(flight);
}

void ClusterWorkerRunner::recordAttempt(const Flight &flight, const ResponseFacts &facts,
                                        const ResponseDecision &decision) {
    // As the engine (FetchShard::recordAttempt): a request that never left says nothing about the host.
    if ((!m_breakerOn && !m_adaptive) || decision.attemptNotMade || facts.abortReason == AbortReason::Stopped)
        return;
    // The hop's host: a redirect hop on another host is judged there, under its hop grant.
    const bool onHop = !flight.hopHost.isEmpty();
    const int health = int(attemptHealthOf(decision.outcome, facts.status));
    // --adaptive: the hop's latency, as the engine measures it (FetchShard::recordAttempt).
    const qint64 latencyMs =
        m_adaptive ? std::max<qint64>(0, (steadyNs() - flight.hopStartNs) / 1'000'000) : -1;
    QMetaObject::invokeMethod(
        m_client,
        [client = m_client, host = onHop ? flight.hopHost : flight.lease.host,
         grant = onHop ? flight.lease.leaseId + ":hop" : flight.lease.leaseId, health, status = facts.status,
         latencyMs] { client->recordAttempt(host, grant, health, status, latencyMs); },
        Qt::QueuedConnection);
}

void ClusterWorkerRunner::onBreakerChanged(const QString &host, const BreakerRecord &record) {
    // The same line a local crawl prints (breakerEventText); times on this machine's clock.
    BreakerEvent event;
    event.host = host;
    event.atMs = QDateTime::currentMSecsSinceEpoch();
    event.trips = record.trips;
    if (record.transition == BreakerRecord::Transition::Recovered) {
        event.kind = BreakerEvent::Kind::Recovered;
    } else if (record.transition == BreakerRecord::Transition::GaveUp) {
        // Its URLs are skipped from now on (the leases say so); the line once, like a skip would print it.
        if (m_givenUpSaid.contains(host))
            return;
        m_givenUpSaid.insert(host);
        event.kind = BreakerEvent::Kind::GaveUp;
        event.reason = HostBreaker::tripReason(record.failures, record.count,
                                               static_cast<AttemptHealth>(record.dominantHealth)) +
                       QStringLiteral("; the probe failed too");
    } else {
        event.kind = BreakerEvent::Kind::Tripped;
        event.reason = HostBreaker::tripReason(record.failures, record.count,
                                               static_cast<AttemptHealth>(record.dominantHealth));
        if (record.trips > 1)
            event.reason += QStringLiteral("; the probe failed too");
        event.probeAtMs = event.atMs + (record.probeAtMs - record.serverNowMs);
    }
    say(breakerEventText(event));
}

void ClusterWorkerRunner::askForHop(const QByteArray &leaseId) {
    const auto it = m_flights.constFind(leaseId);
    if (it == m_flights.constEnd() || m_stopping)
        return;
    QMetaObject::invokeMethod(
        m_client,
        [client = m_client, leaseId, host = it->pendingHopHost] { client->tryStartHop(leaseId, host); },
        Qt::QueuedConnection);
}

void ClusterWorkerRunner::onHopDecision(const QByteArray &leaseId, bool granted, qint64 askAgainInMs,
                                        qint64 askedAtSteadyNs) {
    const auto it = m_flights.find(leaseId);
    const bool wanted = it != m_flights.end() && !it->pendingHopHost.isEmpty() && !m_stopping;
    const bool late = steadyNs() - askedAtSteadyNs > kClusterLateLeaseMs * 1'000'000;
    if (granted && (!wanted || late)) {
        // Not sent: give the slot back (a late grant, like a late lease, could start too close to the next).
        QMetaObject::invokeMethod(
            m_client, [client = m_client, leaseId] { client->finishHop(leaseId); }, Qt::QueuedConnection);
    }
    if (!wanted)
        return;
    if (!granted || late) {
        QTimer::singleShot(int(std::max<qint64>(ClusterWorkerClient::kMinPollMs, askAgainInMs)), this,
                           [this, leaseId] { askForHop(leaseId); });
        return;
    }
    it->hopHost = it->pendingHopHost;
    it->pendingHopHost.clear();
    sendHop(*it);
}

void ClusterWorkerRunner::sendAcknowledgement(Flight &flight) {
    ++flight.ackAttempts;
    QMetaObject::invokeMethod(
        m_client,
        [client = m_client, id = flight.lease.leaseId, fields = flight.resultFields,
         sent = flight.requestSent] { client->acknowledge(id, fields, sent); },
        Qt::QueuedConnection);
}

void ClusterWorkerRunner::onAcknowledged(const QByteArray &leaseId, bool accepted, const QString &refusal) {
    const auto it = m_flights.find(leaseId);
    if (it == m_flights.end())
        return;
    if (!accepted && !isRefusal(refusal) && it->ackAttempts < kMaxAckAttempts && !m_stopping) {
        // Redis could not be asked: the result is kept and sent again (a replay is recognised).
        QTimer::singleShot(kAckRetryMs, this, [this, leaseId] {
            const auto again = m_flights.find(leaseId);
            if (again != m_flights.end())
                sendAcknowledgement(*again);
        });
        return;
    }
    if (accepted)
        ++m_acknowledged;
    else
        ++m_lostLeases;
    m_flights.erase(it);
    askForWork();
}

void ClusterWorkerRunner::onLeaseLost(const QByteArray &leaseId, const QString &reason) {
    const auto it = m_flights.find(leaseId);
    if (it == m_flights.end())
        return;
    // Another worker will fetch it: drop the request and its result.
    ++m_lostLeases;
    say(QStringLiteral("lease on %1 lost (%2); dropping that request").arg(it->lease.url, reason));
    if (it->robotsFetch)
        QMetaObject::invokeMethod(
            m_client,
            [client = m_client, origin = robotsOrigin(QUrl(it->lease.url), it->lease.host)] {
                client->unlockRobots(origin);
            },
            Qt::QueuedConnection);
    QNetworkReply *reply = it->reply;
    m_flights.erase(it);
    if (reply) {
        m_leaseOfReply.remove(reply);
        reply->abort();
    }
    askForWork();
}

void ClusterWorkerRunner::onCrawlState(bool inputComplete, bool finished) {
    Q_UNUSED(inputComplete);
    if (finished && m_flights.isEmpty() && !m_finishing) {
        quint64 roundTrips = 0;
        QMetaObject::invokeMethod(
            m_client, [&roundTrips, client = m_client] { roundTrips = client->roundTrips(); },
            Qt::BlockingQueuedConnection);
        say(QStringLiteral(
                "crawl \"%1\" is finished; this worker acknowledged %2 results with %3 Redis round "
                "trips (%4 leases came late and went back unfetched)")
                .arg(m_crawlName)
                .arg(m_acknowledged)
                .arg(roundTrips)
                .arg(m_lateLeases));
        finish(ExitOk);
    }
}

void ClusterWorkerRunner::onProblem(const QString &error) {
    if (m_waitingForCrawl && !m_deadlineTimer.isActive())
        return; // crawlMissing() handles it
    // Redis may be restarting: the connection reconnects on its own; say it once, not every poll.
    if (error != m_lastProblem)
        say(QStringLiteral("Redis at %1: %2").arg(m_url.redacted(), error));
    m_lastProblem = error;
    if (!m_client || m_finishing)
        return;
    if (m_deadlineTimer.isActive())
        return;
    // Not started: no crawl, or Redis refused us.
    finish(ExitUsage);
}

void ClusterWorkerRunner::onInterrupted() {
    if (m_stopping)
        return;
    m_stopping = true;
    if (!m_client) { // still looking for a crawl: nothing is held
        say(QStringLiteral("interrupted before joining a crawl"));
        return finish(ExitInterrupted);
    }
    say(QStringLiteral("interrupted; releasing %1 leases").arg(m_flights.size()));
    for (auto it = m_flights.begin(); it != m_flights.end(); ++it) {
        if (it->robotsFetch) // the next worker fetches it at once, rather than when the lock expires
            QMetaObject::invokeMethod(
                m_client,
                [client = m_client, origin = robotsOrigin(QUrl(it->lease.url), it->lease.host)] {
                    client->unlockRobots(origin);
                },
                Qt::QueuedConnection);
        if (QNetworkReply *reply = it->reply) {
            m_leaseOfReply.remove(reply);
            it->reply = nullptr;
            reply->abort();
        }
    }
    m_flights.clear();
    // Blocking: every held lease is back in its host's queue before this process exits.
    QMetaObject::invokeMethod(m_client, &ClusterWorkerClient::releaseAll, Qt::BlockingQueuedConnection);
    finish(ExitInterrupted);
}

void ClusterWorkerRunner::finish(int exitCode) {
    m_finishing = true;
    m_exitCode = exitCode;
    m_askTimer.stop();
    m_deadlineTimer.stop();
    m_stateTimer.stop();
    if (m_client)
        QMetaObject::invokeMethod(m_client, &ClusterWorkerClient::stop, Qt::BlockingQueuedConnection);
    if (m_loop)
        m_loop->quit();
}

int runClusterWorker(const CommandLineOptions &options) {
    const RedisUrlParse url = parseRedisUrl(options.clusterUrl, RedisUrlEnvironment::fromProcess());
    if (!url.error.isEmpty()) {
        say(QStringLiteral("--cluster: %1").arg(url.error));
        return ExitUsage;
    }
    ClusterWorkerRunner runner(options, *url.url);
    return runner.run();
}

} // namespace crawl
