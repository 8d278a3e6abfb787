#pragma once

#include "engine/enginecontext.h"
#include "engine/hostqueue.h"
#include "engine/job.h"
#include "engine/networklanes.h"
#include "engine/robotsgate.h"
#include "model/crawlquality.h"
#include "policy/responsedecision.h"
#include "stats/latencyhistogram.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QObject>
#include <QTimer>
#include <queue>

#include <deque>
#include <map>
#include <memory>
#include <random>
#include <unordered_map>
#include <vector>

class QNetworkAccessManager;

namespace crawl {

// A fetch shard owns a subset of hosts (by hash of the host key) and does all their work on its own
// thread: queues, pacing, backoff, and the QNetworkAccessManagers that carry the requests. Keeping a
// host's scheduling and its sockets on one thread means a start decision and the request start are
// the same moment, which is what the server's observed gaps depend on.
class FetchShard : public QObject {
    Q_OBJECT
public:
    FetchShard(int index, EngineContext *context);
    ~FetchShard() override;

    // In the shard's thread, before it has work: start the HTTP threads of the lanes `perHostInFlight`
    // needs (see NetworkLanes::startLanes).
    void startNetwork(int perHostInFlight);

    // Thread-safe entry points (called from any thread).
    void enqueue(Job job, bool front = false); // a new URL, a redirect hop or a requeued URL
    void wake();                               // re-run scheduling soon (limits changed, slot freed)
    void stopAll();                            // cancel everything; later jobs end as cancelled
    void resumeAfterStop();                    // accept work again (retrying after a stop)
    void setHostPaused(const QString &hostKey, bool paused);
    void skipHost(const QString &hostKey);
    // The user resumes a host its circuit breaker tripped (or gave up): it runs again at once.
    void resetHostBreaker(const QString &hostKey);
    // Teardown, step 1 (blocks until done): no more work, no more requests, nothing routed to other
    // shards. Only after every shard is quiet may any of them be deleted.
    void quiesce();
    // Publishes statistics now and returns once they are in the context (the final snapshot needs them).
    void publishAndWait();
    // A /robots.txt fetch of one of this shard's origins ended (possibly on another shard, after a redirect).
    void deliverRobots(RobotsFetchOutcome outcome);

private:
    using Host = HostQueue;

    struct InFlight {
        Job job;
        Host *host = nullptr;
        int lane = 0;
        qint64 startNs = 0;
        qint64 deadlineNs = 0;
        qint64 connectDeadlineNs = 0; // armed while a new connection is being made
        qint64 ttfbNs = 0;
        qint64 bytes = 0;
        QString contentType;
        bool headersComplete = false; // metaDataChanged arrived
        bool probe = false;           // the one request a tripped host's breaker let through
        QByteArray bodyPrefix;        // the first keepBytes of the decoded body (acceptance, robots.txt)
        qsizetype keepBytes = 0;
        AbortReason abortReason = AbortReason::None;
    };

    void pump();
    void drainInbox();
    void refreshConfig();
    void buildRequestTemplates();
    Host *hostFor(const QString &key);
    Host *liveHost(const QString &key) const; // null when the host is not in memory
    // A many-host crawl keeps only the hosts with work (and the most recent idle ones) in memory: an
    // idle host's state is rebuilt when work comes back, its tallies live in the crawl store.
    bool isEvictable(const Host *host, qint64 nowNs) const;
    void evictIdleHosts(qint64 nowNs);
    void markRunnable(Host *host);
    void scheduleHostWake(Host *host, qint64 atNs);
    void armWakeTimer(qint64 nowNs);
    qint64 hostBlockedUntil(const Host *host) const;

    void startRequest(Host *host, Job job, bool probe);
    // A tripped host: may it start its probe now? Otherwise arranges to look again when that changes.
    bool breakerLetsStart(Host *host, qint64 nowNs);
    void recordAttempt(const InFlight &flight, const ResponseFacts &facts, const ResponseDecision &decision,
                       qint64 nowNs);
    void onBreakerTransition(Host *host, HostBreaker::Transition transition, qint64 nowNs);
    void giveUpHost(Host *host);
    // Ends every URL waiting for `host` (queued or waiting for a retry) without a request.
    void endWaiting(Host *host, Outcome outcome, const QString &why);
    InFlight *responding(QNetworkReply *reply); // a response is arriving: no connect deadline any more
    void onMetaData(QNetworkReply *reply);
    void onReadyRead(QNetworkReply *reply);
    void onFinished(QNetworkReply *reply);
    void abortInFlight(QNetworkReply *reply, AbortReason reason);
    void sweepDeadlines();
    qint64 abandonedSlotHoldNs(const InFlight &flight, QNetworkReply *reply, qint64 nowNs) const;

    ResponseFacts factsOf(const InFlight &flight, QNetworkReply *reply, qint64 nowNs);
    void countResponse(Host *host, const InFlight &flight, int status, qint64 nowNs);
    void handleResponse(InFlight &flight, QNetworkReply *reply, qint64 nowNs);
    void followRedirect(Job &job, const QUrl &target);
    void retryLater(Job &job, Host *host, qint64 nowNs, qint64 waitMs);
    void finish(Job &job, Outcome outcome, int status, const QString &error, const InFlight *last,
                qint64 nowNs);
    void cancelJob(Job &job, const QString &why);
    void endUnstarted(Job &job, Outcome outcome, const QString &why);
    void routeJob(Job job, bool front);
    void placeLocal(Job job, bool front, qint64 nowNs);
    void stopNow();

    void publishStats();

    static constexpr size_t kKeepIdleHosts = 512;              // below this many hosts nothing is evicted
    static constexpr qint64 kEvictAfterIdleNs = 2'000'000'000; // idle this long past its pacing gap
    // Issue 13 (robots.txt, scope, acceptance), kept apart from the scheduling above.
    int intervalMsFor(const Host *host) const; // the host's interval, raised to its Crawl-delay
    bool endIfOutOfScope(Job &job, const NormalizedUrl &url, int status, const InFlight *last, qint64 nowNs);
    void endRobotsJob(Job &job, int status, bool tooManyRedirects, const QByteArray &body);
    void onRobotsFetched(const RobotsFetchOutcome &outcome);

    const int m_index;
    EngineContext *const m_context;

    // Inbox: jobs arriving from other threads.
    QMutex m_inboxMutex;
    std::vector<std::pair<Job, bool>> m_inbox;
    std::atomic<bool> m_wakePosted{false};

    // Copies of the shared configuration, refreshed when its version moves.
    quint64 m_configVersion = 0;
    CrawlLimits m_limits;
    FetchPolicy m_policy;
    CrawlQuality m_quality;
    RobotsGate m_robots;       // robots.txt per origin of this shard's hosts (outlives HostQueue objects)
    QNetworkRequest m_request; // every request starts as a copy of this
    QNetworkRequest m_requestWithoutCredentials; // ... or this, on a hop to another origin

    std::unordered_map<QString, std::unique_ptr<Host>> m_hosts;
    std::vector<Host *> m_hostOrder; // creation order, for stable snapshots
    std::deque<Host *> m_runnable;
    using TimedHost = std::pair<qint64, QString>; // by key: the host may be evicted before it is due
    std::priority_queue<TimedHost, std::vector<TimedHost>, std::greater<>> m_timedHosts;
    std::multimap<qint64, Job> m_delayed;      // retries waiting for their backoff, by due time
    std::multimap<qint64, Host *> m_heldSlots; // host slots of abandoned requests, by release time

    NetworkLanes m_lanes;
    std::unordered_map<QNetworkReply *, InFlight> m_inFlight;
    bool m_stopped = false;

    QTimer m_wakeTimer;
    qint64 m_wakeTimerDueNs = 0;
    qint64 m_rateWakeNs = 0;
    qint64 m_lastPublishNs = 0;
    LatencyHistogram m_allLatency;
    QTimer m_deadlineTimer;
    QTimer m_publishTimer;
    LatencyHistogram m_recent;
    qint64 m_retries = 0;
    qint64 m_status429 = 0;
    qint64 m_rawResponses = 0;
    qint64 m_started = 0;
    std::mt19937_64 m_random;
};

} // namespace crawl
