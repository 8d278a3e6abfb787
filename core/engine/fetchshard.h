#pragma once

#include "engine/enginecontext.h"
#include "engine/job.h"
#include "stats/latencyhistogram.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QNetworkReply>
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

    // Thread-safe entry points (called from any thread).
    void enqueue(Job job, bool front = false); // a new URL, a redirect hop or a requeued URL
    void wake();                               // re-run scheduling soon (limits changed, slot freed)
    void stopAll();                            // cancel everything; later jobs end as cancelled
    void resumeAfterStop();                    // accept work again (retrying after a stop)
    void setHostPaused(const QString &hostKey, bool paused);
    void skipHost(const QString &hostKey);
    // Publishes statistics now and returns once they are in the context (the final snapshot needs them).
    void publishAndWait();

private:
    // Per-host scheduling state; lives as long as the shard.
    struct Host {
        QString key;
        std::deque<Job> queue;
        int inFlight = 0;
        std::vector<int> laneInFlight; // requests of this host per QNAM lane (each lane: at most 6)
        qint64 lastStartNs = 0;
        // A paced host waits until its latest request was actually written (QNAM writes on its own
        // thread, later than we ask); pacing then counts from that moment, as the server sees it.
        QNetworkReply *awaitingSent = nullptr;
        double jitterFactor = 1.0; // sampled at each start: gap = interval x factor
        qint64 backoffUntilNs = 0; // server asked to wait (Retry-After)
        qint64 backoffUntilEpochMs = 0;
        qint64 waitingRetries = 0; // jobs of this host in the delayed heap
        bool userPaused = false;
        bool skipped = false;
        bool inRunnable = false;
        qint64 scheduledWakeNs = 0;
        // statistics
        qint64 started = 0;
        qint64 startedAtLastPublish = 0;
        qint64 retries = 0;
        qint64 status429 = 0;
        int lastStatus = 0;
        LatencyHistogram latency;
    };

    enum class AbortReason : quint8 { None, TooLarge, TotalDeadline, ConnectDeadline, Stopped };

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
        AbortReason abortReason = AbortReason::None;
    };

    void pump();
    void drainInbox();
    void refreshConfig();
    Host *hostFor(const QString &key);
    void markRunnable(Host *host);
    void scheduleHostWake(Host *host, qint64 atNs);
    void armWakeTimer(qint64 nowNs);
    qint64 hostBlockedUntil(const Host *host) const;

    void startRequest(Host *host, Job job);
    QNetworkAccessManager *laneFor(Host *host, int *laneIndex);
    InFlight *responding(QNetworkReply *reply); // a response is arriving: no connect deadline any more
    void onMetaData(QNetworkReply *reply);
    void onReadyRead(QNetworkReply *reply);
    void onFinished(QNetworkReply *reply);
    void abortInFlight(QNetworkReply *reply, AbortReason reason);
    void sweepDeadlines();

    void handleResponse(InFlight &flight, QNetworkReply *reply, qint64 nowNs);
    void followRedirect(InFlight &flight, int status, const QUrl &target);
    void retryOrFinish(InFlight &flight, qint64 nowNs, qint64 retryAfterMs);
    void finish(Job &job, Outcome outcome, int status, const QString &error, const InFlight *last,
                qint64 nowNs);
    void cancelJob(Job &job, const QString &why);
    void routeJob(Job job, bool front);
    void placeLocal(Job job, bool front, qint64 nowNs);
    void stopNow();

    void publishStats();

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
    QByteArray m_userAgent;

    std::unordered_map<QString, std::unique_ptr<Host>> m_hosts;
    std::vector<Host *> m_hostOrder; // creation order, for stable snapshots
    std::deque<Host *> m_runnable;
    using TimedHost = std::pair<qint64, Host *>;
    std::priority_queue<TimedHost, std::vector<TimedHost>, std::greater<>> m_timedHosts;
    std::multimap<qint64, Job> m_delayed; // retries waiting for their backoff, by due time

    std::vector<QNetworkAccessManager *> m_lanes;
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
