#pragma once

#include "cluster/clusterrobotsstore.h"
#include "cluster/clustertypes.h"
#include "cluster/redisurl.h"
#include "commandline.h"
#include "model/crawlquality.h"
#include "model/crawlresult.h"
#include "policy/responsedecision.h"
#include "robots/robotsrules.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QNetworkAccessManager>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QThread>
#include <QTimer>

#include <memory>

class QEventLoop;

namespace crawl {

class ClusterWorkerClient;
class RedisConnection;

// `crawlscope --headless --worker --cluster URL [--crawl NAME] [--concurrency N]`: one worker of a shared
// crawl. Its Redis link (ClusterWorkerClient) runs on a thread of its own; this object, on the main thread,
// fetches what it leased. A lease is the host's budget grant too, so a request starts the moment its lease
// arrives (or never: a lease that arrives late goes back unfetched, see clusterlimits.h); results,
// retries (with their next-eligible time) and Retry-After pauses go back to Redis, so any worker takes the
// retry and every worker obeys the pause. Why this is not a FrontierStore under the fetch shards:
// docs/cluster.md, "The worker".
class ClusterWorkerRunner : public QObject {
    Q_OBJECT
public:
    ClusterWorkerRunner(const CommandLineOptions &options, const RedisUrl &url, QObject *parent = nullptr);
    ~ClusterWorkerRunner() override;

    // Runs until the crawl is finished (0), a signal (130, leases released) or a fatal problem (2).
    int run();

private:
    struct Flight {
        ClusterLease lease;
        QNetworkReply *reply = nullptr; // null while its result waits for the acknowledgement
        QUrl currentUrl;
        int redirects = 0;
        QStringList chain;
        QString warning;
        qint64 grantServerMs = 0; // the server's clock when the lease was granted
        qint64 grantSteadyNs = 0; // ... on our steady clock (an upper bound of the grant's age)
        qint64 firstStartEpochMs = 0;
        qint64 hopStartNs = 0;
        qint64 ttfbNs = 0;
        qint64 bytes = 0;
        QString contentType;
        QByteArray bodyPrefix;    // the first bytes the acceptance checks read (engine/bodyprefix)
        qsizetype keepBytes = -1; // how many of them: known once the headers are
        bool headersSeen = false;
        AbortReason abortReason = AbortReason::None;
        QString hopHost;        // a redirect hop on another host holds that host's slot (a hop grant)
        QString pendingHopHost; // ... or waits for one
        QList<QPair<QByteArray, QByteArray>> resultFields; // sent, waiting for the acknowledgement
        int ackAttempts = 0;
        bool requestSent = true; // false: acknowledged without a request (robots.txt), its start given back
        bool awaitingRobots = false; // its host's robots.txt is being looked up in Redis
        bool robotsLookedUp = false; // ... was: the lease is older by that round trip
        bool robotsFetch = false; // the lease's slot fetches its host's /robots.txt; the URL then goes back
        int robotsAttempt = 1;
        QString robotsNote; // --robots report: what would have blocked it
    };
    // One origin's robots.txt as this worker knows it (read from Redis, or fetched here).
    struct HostRobots {
        RobotsRules rules;
        bool retryPending = false; // robots.txt unreachable for now: the origin's URLs wait (obey)
        QString reason;            // why, when retryPending
        int crawlDelayMs = 0;      // 0: none, or --ignore-crawl-delay
        qint64 validUntilNs = 0;   // steady clock: looked up in Redis again after this
    };

    void pickCrawl();
    void startClient();
    void retryStartLater(int delayMs);
    bool sayUnreachable(const QString &error); // at most once per kUnreachableRepeatMs
    void onSettings(const QMap<QString, QString> &settings);
    void onStarted(const ClusterLimits &limits);
    void onLimitsChanged(const ClusterLimits &limits);
    void onLeased(const QList<ClusterLease> &leases, qint64 askAgainInMs);
    void onAcknowledged(const QByteArray &leaseId, bool accepted, const QString &refusal);
    void onLeaseLost(const QByteArray &leaseId, const QString &reason);
    void onCrawlState(bool inputComplete, bool finished);
    void onProblem(const QString &error);
    void onInterrupted();

    void askForWork();
    // robots.txt (issue 15): before a leased URL is sent, its origin's rules decide (docs/cluster.md).
    void admitLease(Flight &flight);
    void onRobotsLookedUp(const QByteArray &leaseId, const QString &host, const ClusterRobotsLookup &lookup);
    void applyRobots(Flight &flight, const HostRobots &robots);
    void startFetch(Flight &flight);
    void endRobotsFetch(Flight &flight, int status, bool tooManyRedirects);
    void deferLease(Flight &flight, qint64 waitMs);
    void acknowledgeBlocked(Flight &flight, const QString &reason);
    // The host (`host`: the lease's, or its redirect hop's) was given up by its shared breaker: the URL's
    // `skipped` row, as a local crawl writes it, without a request.
    void acknowledgeGivenUp(Flight &flight, const QString &host, const QString &reason);
    // A URL that ends without a request (its host given up or skipped): its row, acknowledged.
    void acknowledgeUnfetched(Flight &flight, Outcome outcome, const QString &error);
    HostRobots hostRobotsFrom(const ClusterRobotsEntry &entry, qint64 remainingMs) const;
    qint64 robotsLockTtlMs() const;
    bool isLate(const Flight &flight) const;
    void sendHop(Flight &flight);
    void onReplyFinished(QNetworkReply *reply);
    void onReplyData(QNetworkReply *reply);
    qsizetype keepBytesOf(Flight &flight) const; // the body bytes kept for the checks, decided once
    // The hop's outcome for its host's shared circuit breaker (docs/cluster.md, "The shared breaker").
    void recordAttempt(const Flight &flight, const ResponseFacts &facts, const ResponseDecision &decision);
    void onBreakerChanged(const QString &host, const BreakerRecord &record);
    void sendAcknowledgement(Flight &flight);
    void askForHop(const QByteArray &leaseId);
    void onHopDecision(const QByteArray &leaseId, bool granted, qint64 askAgainInMs, qint64 askedAtSteadyNs);
    qint64 serverNowMs(const Flight &flight) const;
    void finish(int exitCode);
    void applyLimits(const ClusterLimits &limits);

    CommandLineOptions m_options;
    RedisUrl m_url;
    QString m_crawlName;
    QByteArray m_workerId;
    FetchPolicy m_policy;
    AcceptanceCriteria m_acceptance; // the crawl's acceptance checks, from its stored flags
    ScopeRules m_scope;              // ... and its scope: a redirect out of it is not followed
    // ... and its robots.txt settings (CrawlQuality's robots fields; a whole CrawlQuality member, with its
    // AcceptanceCriteria, trips g++ 12's -Wmaybe-uninitialized in the constructor)
    struct RobotsSettings {
        RobotsMode robots = RobotsMode::Ignore;
        QByteArray robotsAgent = "crawlscope";
        bool ignoreCrawlDelay = false;
        RobotsRetrySettings robotsRetry;
        qint64 robotsRefetchMs = 24LL * 3600 * 1000;
        int robotsMaxRedirects = 5;
    };
    RobotsSettings m_robotsSettings;
    QHash<QString, HostRobots> m_robots; // by robotsOrigin(): "scheme://host:port"
    int m_concurrency = 16;
    bool m_breakerOn = true;     // the shared limits' breaker: off, no attempt is recorded (no round trip)
    bool m_adaptive = false;     // --adaptive on the crawl: every attempt is recorded for the host's pace
    QSet<QString> m_givenUpSaid; // hosts whose give-up this worker has printed (once each)
    QThread m_clientThread;
    ClusterWorkerClient *m_client = nullptr;
    QNetworkAccessManager *m_network = nullptr;
    QNetworkRequest m_request;
    QNetworkRequest m_requestWithoutCredentials;
    QHash<QByteArray, Flight> m_flights; // by lease id: fetching, or waiting for its acknowledgement
    QHash<QNetworkReply *, QByteArray> m_leaseOfReply;
    bool m_asking = false;
    bool m_askAgain = false;   // asked for work while an answer was on its way: ask again when it comes
    qsizetype m_requested = 0; // leases asked for by the request in flight
    bool m_stopping = false;
    bool m_finishing = false;
    bool m_waitingForCrawl = false;
    std::unique_ptr<RedisConnection> m_pickConnection; // no --crawl: looking for an unfinished crawl
    QTimer m_pickTimer;
    bool m_saidWaitingForAny = false;
    QElapsedTimer m_sinceUnreachableSaid;
    QElapsedTimer m_sinceMissing;
    QTimer m_askTimer;
    QTimer m_deadlineTimer;
    QTimer m_stateTimer;
    qint64 m_acknowledged = 0;
    qint64 m_lateLeases = 0;
    qint64 m_lostLeases = 0;
    QString m_lastProblem;
    int m_exitCode = 0;
    QEventLoop *m_loop = nullptr;
};

// Picks the crawl a worker without --crawl works for: the first (by name) that is not finished. Empty when
// there is none yet; empty with *error when Redis cannot be asked.
QString pickClusterCrawl(RedisConnection &connection, QString *error);

int runClusterWorker(const CommandLineOptions &options);

} // namespace crawl
