#include "cluster/clustersession.h"

#include "cluster/clusterlimits.h"
#include "cluster/clusterwatcher.h"

namespace ui {

ClusterSession::ClusterSession(QObject *parent)
    : QObject(parent) {}

ClusterSession::~ClusterSession() {
    // The window is going away and must not wait on a hung Redis: the watcher skips the rest of its poll,
    // and a call already sent finishes on the watcher's thread, which then deletes the watcher and itself.
    // The short wait only lets a healthy watcher drop its reader mark before the application may exit.
    QThread *thread = m_thread;
    detach();
    if (thread)
        thread->wait(kCloseWaitMs);
}

void ClusterSession::attach(const crawl::RedisUrl &url, const QString &crawlName) {
    detach();
    m_url = url;
    m_crawlName = crawlName;
    m_last = {};
    m_connected = true;
    crawl::ClusterWatcher::Settings settings;
    settings.url = url;
    settings.crawlName = crawlName;
    m_thread = new QThread;
    m_thread->setObjectName(QStringLiteral("cluster-watcher"));
    auto *watcher = new crawl::ClusterWatcher(settings);
    watcher->moveToThread(m_thread);
    m_watcher = watcher;
    connect(m_thread, &QThread::finished, watcher, &QObject::deleteLater);
    connect(m_thread, &QThread::finished, m_thread, &QObject::deleteLater);
    connect(watcher, &crawl::ClusterWatcher::snapshotReady, this, &ClusterSession::onSnapshot);
    connect(watcher, &crawl::ClusterWatcher::resultsReady, this, &ClusterSession::resultsReady);
    connect(watcher, &crawl::ClusterWatcher::limitsWritten, this, &ClusterSession::limitsWritten);
    connect(watcher, &crawl::ClusterWatcher::hostActionApplied, this, &ClusterSession::hostActionApplied);
    connect(watcher, &crawl::ClusterWatcher::rowsMissed, this, &ClusterSession::rowsMissed);
    m_thread->start();
    QMetaObject::invokeMethod(watcher, &crawl::ClusterWatcher::start, Qt::QueuedConnection);
    Q_EMIT attachedChanged(true);
}

void ClusterSession::detach() {
    if (!m_watcher)
        return;
    crawl::ClusterWatcher *watcher = m_watcher;
    m_watcher = nullptr;
    disconnect(watcher, nullptr, this, nullptr);
    watcher->requestStop(); // thread-safe: the poll in hand makes no further Redis call
    // Queued behind whatever the watcher is doing; the thread then ends and deletes it and itself. Nothing
    // here waits for Redis.
    QMetaObject::invokeMethod(watcher, &crawl::ClusterWatcher::stop, Qt::QueuedConnection);
    QThread *thread = m_thread;
    m_thread = nullptr;
    QMetaObject::invokeMethod(
        watcher, [thread] { thread->quit(); }, Qt::QueuedConnection);
    Q_EMIT attachedChanged(false);
}

QString ClusterSession::hostActionText(const QString &host, crawl::HostAction action, bool ok, bool changed,
                                       const QString &error) {
    if (!ok)
        return tr("Cannot change %1 in the shared crawl: %2").arg(host, error);
    switch (action) {
    case crawl::HostAction::Pause:
        return tr("%1 paused for every worker; requests in flight finish").arg(host);
    case crawl::HostAction::Resume:
        return tr("%1 resumed for every worker").arg(host);
    case crawl::HostAction::Skip:
        return tr("%1 skipped for every worker: its URLs not yet started end as cancelled").arg(host);
    case crawl::HostAction::ResumeTripped:
        return changed ? tr("%1: circuit breaker closed for every worker; requests start again").arg(host)
                       : tr("%1: its circuit breaker had closed already").arg(host);
    }
    return {};
}

void ClusterSession::applyHostAction(const QString &host, crawl::HostAction action) {
    if (!m_watcher)
        return;
    QMetaObject::invokeMethod(
        m_watcher, [watcher = m_watcher, host, action] { watcher->applyHostAction(host, action); },
        Qt::QueuedConnection);
}

void ClusterSession::setLimits(const crawl::CrawlLimits &limits) {
    if (!m_watcher)
        return;
    const crawl::ClusterLimits shared = crawl::clusterLimitsFor(
        limits, crawl::FetchPolicy{}, m_last.limits,
        {QStringLiteral("concurrency"), QStringLiteral("per-host"), QStringLiteral("interval-ms"),
         QStringLiteral("max-rate"), QStringLiteral("adaptive")});
    crawl::ClusterHostLimits overrides;
    const QHash<QString, crawl::ClusterHostOverride> stored =
        crawl::clusterHostOverridesFor(limits.withCanonicalHostKeys());
    for (auto it = stored.cbegin(); it != stored.cend(); ++it)
        overrides.insert(it.key(), {it->inFlight, it->intervalMs});
    QMetaObject::invokeMethod(
        m_watcher, [watcher = m_watcher, shared, overrides] { watcher->setSharedLimits(shared, overrides); },
        Qt::QueuedConnection);
}

crawl::CrawlLimits ClusterSession::panelLimits(const crawl::ClusterLimits &shared, crawl::CrawlLimits base) {
    base.globalInFlight = shared.globalInFlight;
    base.perHostInFlight = shared.perHostInFlight;
    base.intervalMs = static_cast<int>(crawl::userIntervalMs(shared.intervalMs));
    base.maxRatePerSec = shared.maxRatePerSec;
    base.adaptive = shared.adaptive;
    return base;
}

void ClusterSession::onSnapshot(const crawl::ClusterWatchSnapshot &snapshot) {
    // A failed poll carries no counts: keep the last good picture, say only that the link is down.
    if (snapshot.connected)
        m_last = snapshot;
    else
        m_last.problem = snapshot.problem;
    m_last.connected = snapshot.connected;
    if (snapshot.connected != m_connected) {
        m_connected = snapshot.connected;
        Q_EMIT connectionChanged(snapshot.connected, snapshot.problem);
    }
    Q_EMIT clusterSnapshot(snapshot.connected ? snapshot : m_last);
    if (snapshot.connected)
        Q_EMIT snapshotReady(crawl::toCrawlSnapshot(snapshot, crawl::kClusterIntervalGuardMs));
}

} // namespace ui
