#include "status/etaestimate.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

QString tr(const char *text) {
    return QCoreApplication::translate("ui::EtaEstimate", text);
}

bool hasWork(const crawl::HostSnapshot &h) {
    return h.queued > 0 || h.inFlight > 0;
}

// The least time this host needs for its queue, whatever the rest of the crawl does.
qint64 hostFloorMs(const crawl::HostSnapshot &h, qint64 nowMs) {
    if (h.queued <= 0)
        return 0;
    const double pacing = double(h.queued) * std::max(0, h.intervalMs);
    const double latency = h.p50Ms > 0 ? double(h.queued) * h.p50Ms / std::max(1, h.maxInFlight) : 0.0;
    qint64 floor = qint64(std::max(pacing, latency));
    if (h.state == crawl::HostState::BackingOff && h.stateUntilMs > nowMs)
        floor += h.stateUntilMs - nowMs;
    return floor;
}

} // namespace

EtaEstimate estimateEta(const crawl::CrawlSnapshot &s, double ratePerSec, qint64 nowMs) {
    EtaEstimate eta;
    if (s.state != crawl::CrawlState::Running)
        return eta;

    qint64 pausedWork = 0;
    int hostsWithWork = 0;
    int backingOff = 0;
    qint64 backoffUntil = 0;
    qint64 hostFloor = 0;
    for (const crawl::HostSnapshot &h : s.hosts) {
        if (!hasWork(h))
            continue;
        ++hostsWithWork;
        if (h.state == crawl::HostState::Paused) {
            ++eta.pausedHosts;
            eta.pausedQueued += h.queued;
            pausedWork += h.queued;
            continue;
        }
        if (h.state == crawl::HostState::BackingOff && h.stateUntilMs > nowMs && h.inFlight == 0) {
            ++backingOff;
            backoffUntil = std::max(backoffUntil, h.stateUntilMs);
        }
        hostFloor = std::max(hostFloor, hostFloorMs(h, nowMs));
    }

    // Only waiting hosts hold the rest: say what they wait for instead of a number.
    if (hostsWithWork > 0 && eta.pausedHosts == hostsWithWork) {
        eta.kind = EtaEstimate::Kind::WaitingPaused;
        eta.waitingHosts = eta.pausedHosts;
        return eta;
    }
    if (hostsWithWork > 0 && backingOff + eta.pausedHosts == hostsWithWork && backingOff > 0) {
        eta.kind = EtaEstimate::Kind::WaitingUntil;
        eta.waitingHosts = backingOff;
        eta.untilMs = backoffUntil;
        return eta;
    }

    const qint64 remaining =
        std::max<qint64>(0, (s.total >= 0 ? s.total - s.done : s.queued + s.inFlight) - pausedWork);
    qint64 best = hostFloor;
    bool known = hostFloor > 0;
    if (ratePerSec > 0) {
        best = std::max(best, qint64(std::llround(double(remaining) / ratePerSec * 1000.0)));
        known = true;
    }
    if (s.limits.maxRatePerSec > 0)
        best = std::max(best, qint64(std::llround(double(remaining) / s.limits.maxRatePerSec * 1000.0)));
    if (remaining == 0) {
        best = 0;
        known = true;
    }
    if (!known)
        return eta;
    eta.kind = EtaEstimate::Kind::Estimate;
    eta.etaMs = best;
    return eta;
}

QString etaText(const EtaEstimate &eta, crawl::CrawlState state) {
    if (state == crawl::CrawlState::Paused)
        return tr("ETA – (paused)");
    switch (eta.kind) {
    case EtaEstimate::Kind::Unknown:
        return state == crawl::CrawlState::Running ? tr("ETA ?") : tr("ETA –");
    case EtaEstimate::Kind::Estimate: {
        QString text = tr("ETA %1").arg(crawl::formatDuration(eta.etaMs));
        if (eta.pausedHosts > 0)
            text += (eta.pausedHosts == 1 ? tr(" + 1 paused host")
                                          : tr(" + %1 paused hosts").arg(eta.pausedHosts));
        return text;
    }
    case EtaEstimate::Kind::WaitingUntil: {
        const QString until =
            QDateTime::fromMSecsSinceEpoch(eta.untilMs).toLocalTime().toString(QStringLiteral("HH:mm:ss"));
        return eta.waitingHosts == 1 ? tr("waiting on 1 host until %1").arg(until)
                                     : tr("waiting on %1 hosts until %2").arg(eta.waitingHosts).arg(until);
    }
    case EtaEstimate::Kind::WaitingPaused:
        return eta.waitingHosts == 1 ? tr("waiting on 1 paused host")
                                     : tr("waiting on %1 paused hosts").arg(eta.waitingHosts);
    }
    return {};
}

} // namespace ui
