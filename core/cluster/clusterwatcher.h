#pragma once

#include "cluster/clustertypes.h"
#include "cluster/clusterwatchsnapshot.h"
#include "cluster/redisurl.h"
#include "model/crawlresult.h"
#include "model/hostaction.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QSet>

#include <atomic>
#include <memory>

class QTimer;

namespace crawl {

class ClusterHostBudget;
class ClusterQueue;
class RedisConnection;

// Watches one shared crawl for the window, on a thread of its own (every Redis call blocks there, never on
// the GUI thread). Every second it reads the workers, the hosts' budgets, the counts and the limits and
// emits a ClusterWatchSnapshot; every 250 ms it reads the results stream from where it stopped and emits the
// new rows, decoded as the coordinator decodes them. It registers as a reader of the stream, so the
// coordinator's trimming keeps the rows it has not read yet. Redis going away is not fatal: the snapshot
// says "disconnected, retrying" and the next poll tries again.
// Create it, move it to its thread, then call start() there (a queued call); stop() before the thread ends.
class ClusterWatcher : public QObject {
    Q_OBJECT
public:
    struct Settings {
        RedisUrl url;
        QString crawlName;
        int pollIntervalMs = 1000;
        int resultsIntervalMs = 250;
        qint64 workerDeadAfterMs = kClusterWorkerDeadAfterMs;
        int resultsPerRead = 1000;
    };

    explicit ClusterWatcher(Settings settings, QObject *parent = nullptr);
    ~ClusterWatcher() override;

    // Any thread: the window is leaving, so the poll in hand skips its remaining Redis calls (a hung server
    // then costs at most the one call already sent). stop() must still follow, queued.
    void requestStop() { m_stopRequested = true; }
    // Watchers not yet destroyed: a window that closes does not wait for its watcher's thread, which ends
    // and deletes the watcher on its own (tests wait for this to reach zero).
    static int liveCount() { return s_live.load(); }
    // Rows of the results stream this reader never saw because they were trimmed first (its mark expired,
    // or it attached after the coordinator's last trim). The stream is a suffix of every row ever added
    // (MINID trims only its head), so when its first row comes after the last one read, every row added
    // but neither read nor still there was lost. `firstStreamId` empty: the stream is empty.
    static qint64 rowsTrimmedUnread(qint64 entriesAdded, qint64 length, qint64 rowsRead,
                                    const QByteArray &firstStreamId, const QByteArray &lastReadStreamId);
    // Stream ids ("ms-seq") in stream order.
    static bool streamIdLess(const QByteArray &a, const QByteArray &b);

public Q_SLOTS:
    void start();
    void stop(); // drops the reader mark (the stream may be trimmed again) and disconnects
    // Writes the crawl's shared limits as --cluster-set does: the global cap, per-host in flight and the
    // stored interval (with its guard) from `wanted`; maxAttempts stays. `hostOverrides` (host -> in flight,
    // stored interval) replace the per-host overrides this watcher wrote before (others' stay). Every worker
    // obeys from its next lease.
    void setSharedLimits(const crawl::ClusterLimits &wanted, const crawl::ClusterHostLimits &hostOverrides);
    // The Hosts tab's choice for one host, for every worker (ClusterHostBudget::hostAction); the next
    // snapshot shows it at once.
    void applyHostAction(const QString &host, crawl::HostAction action);

Q_SIGNALS:
    void snapshotReady(const crawl::ClusterWatchSnapshot &snapshot);
    void resultsReady(const QList<crawl::CrawlResult> &results);
    void limitsWritten(bool ok, qint64 version, const QString &error);
    // changed: false when there was nothing to change (the breaker had closed meanwhile).
    void hostActionApplied(const QString &host, crawl::HostAction action, bool ok, bool changed,
                           const QString &error);
    // The total so far, emitted each time it grows (see rowsTrimmedUnread).
    void rowsMissed(qint64 total);

private:
    void poll();
    void readResults();
    void checkTrimmedUnread();
    bool ensureConnected(QString *problem);
    // A call in this poll failed (the connection was dropped) or the window is leaving: skip the rest.
    bool pollBroken() const;

    Settings m_settings;
    QByteArray m_readerId;
    std::unique_ptr<RedisConnection> m_connection;
    std::unique_ptr<ClusterQueue> m_queue;
    std::unique_ptr<ClusterHostBudget> m_budget;
    QTimer *m_pollTimer = nullptr;
    QTimer *m_resultsTimer = nullptr;
    QElapsedTimer m_since;
    QByteArray m_lastStreamId;
    QSet<quint64> m_seenIds;
    qint64 m_resultsOk = 0;
    qint64 m_resultsFailed = 0;
    QSet<QString> m_overriddenHosts; // the per-host overrides this watcher wrote
    qint64 m_lastStarts = -1;
    qint64 m_lastStartsAtMs = 0;
    bool m_stopped = false;
    std::atomic<bool> m_stopRequested{false};
    qint64 m_rowsRead = 0; // stream entries read, repeats included: what rowsTrimmedUnread counts against
    qint64 m_rowsMissed = 0;
    static std::atomic<int> s_live;
};

} // namespace crawl
