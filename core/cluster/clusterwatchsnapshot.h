#pragma once

#include "cluster/clustertypes.h"
#include "model/crawlsnapshot.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>

namespace crawl {

// A worker's lease lifetime: renewed every third of it; a dead worker's URLs go back to the others after it.
inline constexpr qint64 kClusterLeaseTtlMs = 10000;
// How long a worker may stay silent before the window calls it dead: its leases have expired by then.
inline constexpr qint64 kClusterWorkerDeadAfterMs = kClusterLeaseTtlMs;

// Per-host overrides as the shared budget stores them: host ("host:port") -> {in flight, stored interval}.
using ClusterHostLimits = QHash<QString, QPair<int, qint64>>;

// One worker as the window shows it.
struct ClusterWorkerView {
    WorkerStatus status;
    QString host;              // the machine, taken from the worker id ("<host>-<pid>-<random>")
    qint64 heartbeatAgeMs = 0; // on the server's clock
    bool dead = false;
};

// What a ClusterWatcher saw at one poll: a value that crosses from its thread to the window's.
struct ClusterWatchSnapshot {
    QString crawlName;
    QString redactedUrl;
    bool connected = false;
    QString problem; // why the last poll failed ("disconnected, retrying: ..."); empty when fine
    qint64 serverNowMs = 0;
    qint64 localMinusServerMs = 0; // add to a server time to get this machine's epoch ms
    qint64 watchingForMs = 0;      // since the watcher attached
    bool inputComplete = false;    // the coordinator has enqueued its whole list
    ClusterCounts counts;
    ClusterLimits limits;
    QList<ClusterWorkerView> workers;
    QList<ClusterHostRow> hosts;
    qint64 resultsSeen = 0; // result rows the watcher read from the stream (since it attached)
    qint64 resultsOk = 0;
    qint64 resultsFailed = 0;
    double startsPerSec = 0; // over every host, since the previous poll
};

// The host a worker runs on, from its id "<host name>-<pid>-<random>" (the host name may hold '-').
QString clusterWorkerHost(const QString &workerId);
QList<ClusterWorkerView> clusterWorkerViews(const QList<WorkerStatus> &workers, qint64 serverNowMs,
                                            qint64 deadAfterMs);
// Finished: the list is in, nothing is queued, leased or waiting, and every distinct URL has its result.
bool isClusterCrawlFinished(const ClusterWatchSnapshot &snapshot);
// The shared crawl in the shape of a local crawl's snapshot, so the window's hosts table, status bar and
// charts show it unchanged. intervalGuardMs is taken off stored intervals (they carry the coordinator's
// guard); times move to this machine's clock.
CrawlSnapshot toCrawlSnapshot(const ClusterWatchSnapshot &snapshot, qint64 intervalGuardMs);

} // namespace crawl

Q_DECLARE_METATYPE(crawl::ClusterWatchSnapshot)
