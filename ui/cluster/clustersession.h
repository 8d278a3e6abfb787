#pragma once

#include "cluster/clusterwatchsnapshot.h"
#include "cluster/redisurl.h"
#include "model/crawllimits.h"
#include "model/crawlresult.h"
#include "model/crawlsnapshot.h"
#include "model/hostaction.h"

#include <QObject>
#include <QThread>

namespace crawl {
class ClusterWatcher;
}

namespace ui {

// The window's link to one shared crawl: a ClusterWatcher on its own thread (all Redis I/O there), its
// snapshots turned into the local crawl's snapshot shape for the hosts table, status bar and charts, its
// result rows passed on as a local crawl's, and the window's limits written as the shared limits.
class ClusterSession : public QObject {
    Q_OBJECT
public:
    // How long closing waits for the watcher's thread before leaving it to end on its own.
    static constexpr int kCloseWaitMs = 100;

    explicit ClusterSession(QObject *parent = nullptr);
    ~ClusterSession() override;

    void attach(const crawl::RedisUrl &url, const QString &crawlName);
    void detach(); // returns at once: the watcher finishes its current call on its own thread
    bool isAttached() const { return m_watcher != nullptr; }
    QString crawlName() const { return m_crawlName; }
    QString redactedUrl() const { return m_url.redacted(); }
    const crawl::ClusterWatchSnapshot &lastSnapshot() const { return m_last; }

    // The panel's global cap, per-host limit and interval, and the hosts table's per-host limits, as the
    // shared limits (what --cluster-set writes, the interval guard included). Every worker obeys from its
    // next lease.
    void setLimits(const crawl::CrawlLimits &limits);
    // The Hosts tab's Pause, Resume, Skip Remaining URLs or Resume Tripped Host, for every worker.
    void applyHostAction(const QString &host, crawl::HostAction action);
    // The status bar's words for an applied host action.
    static QString hostActionText(const QString &host, crawl::HostAction action, bool ok, bool changed,
                                  const QString &error);
    // The shared limits in the panel's terms (the guard taken off the interval).
    static crawl::CrawlLimits panelLimits(const crawl::ClusterLimits &shared, crawl::CrawlLimits base);

Q_SIGNALS:
    void attachedChanged(bool attached);
    void clusterSnapshot(const crawl::ClusterWatchSnapshot &snapshot);
    void snapshotReady(const crawl::CrawlSnapshot &snapshot);
    void resultsReady(const QList<crawl::CrawlResult> &results);
    void limitsWritten(bool ok, qint64 version, const QString &error);
    void hostActionApplied(const QString &host, crawl::HostAction action, bool ok, bool changed,
                           const QString &error);
    // Rows the coordinator trimmed before this window read them (its reader mark expired while it was
    // suspended, or it attached after the last trim): the total so far, each time it grows.
    void rowsMissed(qint64 total);
    // Only on a change between connected and not: the window says it once, not every second.
    void connectionChanged(bool connected, const QString &problem);

private:
    void onSnapshot(const crawl::ClusterWatchSnapshot &snapshot);

    crawl::RedisUrl m_url;
    QString m_crawlName;
    QThread *m_thread = nullptr;
    crawl::ClusterWatcher *m_watcher = nullptr; // lives on m_thread; deleted when that thread ends (detach)
    crawl::ClusterWatchSnapshot m_last;
    bool m_connected = true;
};

} // namespace ui
