#include "models/hoststatus.h"

#include <QCoreApplication>
#include <QDateTime>

#include <cmath>

namespace ui {

namespace {

QString tr(const char *text) {
    return QCoreApplication::translate("ui::HostStatus", text);
}

// " · 2 finishing": requests still in flight while the host no longer starts new ones.
QString finishing(int inFlight) {
    return inFlight > 0 ? tr(" · %1 finishing").arg(inFlight) : QString();
}

HostStatus make(HostStatus::Kind kind, const QString &text, qint64 untilMs = 0) {
    return HostStatus{kind, text, untilMs};
}

} // namespace

HostStatus hostStatus(const crawl::HostSnapshot &h, crawl::CrawlState crawlState, bool skipped,
                      qint64 nowMs) {
    using Kind = HostStatus::Kind;
    const bool hasWork = h.queued > 0 || h.inFlight > 0;
    // What the user did comes first: it explains why nothing starts.
    if (skipped)
        return make(Kind::Skipped, tr("skipped") + finishing(h.inFlight));
    if (h.state == crawl::HostState::Paused &&
        (crawlState == crawl::CrawlState::Running || crawlState == crawl::CrawlState::Paused))
        return make(Kind::Paused, tr("paused") + finishing(h.inFlight));
    switch (crawlState) {
    case crawl::CrawlState::Paused:
        if (hasWork)
            return make(Kind::CrawlPaused, tr("crawl paused") + finishing(h.inFlight));
        break;
    case crawl::CrawlState::Stopping:
        if (h.inFlight > 0)
            return make(Kind::Stopping, tr("stopping") + finishing(h.inFlight));
        break;
    case crawl::CrawlState::Idle:
    case crawl::CrawlState::Finished:
        return h.done > 0 ? make(Kind::Done, tr("done")) : make(Kind::Idle, tr("idle"));
    case crawl::CrawlState::Running:
        break;
    }
    // The breaker explains why a host with work starts nothing: say why and until when.
    switch (h.breakerState) {
    case crawl::BreakerState::Open:
        return make(Kind::Tripped,
                    tr("tripped: %1, probe at %2")
                            .arg(h.breakerReason, QDateTime::fromMSecsSinceEpoch(h.breakerProbeAtMs)
                                                      .toString(QStringLiteral("HH:mm:ss"))) +
                        finishing(h.inFlight),
                    h.breakerProbeAtMs);
    case crawl::BreakerState::HalfOpen:
        return make(Kind::Tripped, tr("tripped: %1, probing").arg(h.breakerReason));
    case crawl::BreakerState::GaveUp:
        return make(Kind::GivenUp, tr("given up: %1").arg(h.breakerReason) + finishing(h.inFlight));
    case crawl::BreakerState::Closed:
        break;
    }
    if (!hasWork)
        return h.done > 0 ? make(Kind::Done, tr("done")) : make(Kind::Idle, tr("idle"));

    // A back-off whose time is up (or rounds to 0.0 s) is over: the counts decide.
    if (h.state == crawl::HostState::BackingOff && h.queued > 0) {
        if (h.stateUntilMs <= 0)
            return make(Kind::BackingOff, tr("backing off") + finishing(h.inFlight));
        const qint64 leftMs = h.stateUntilMs - nowMs;
        if (leftMs >= 100) {
            const double seconds = std::floor(double(leftMs) / 100.0) / 10.0;
            return make(Kind::BackingOff,
                        tr("backing off %1 s").arg(seconds, 0, 'f', 1) + finishing(h.inFlight),
                        h.stateUntilMs);
        }
    }
    const int limit = h.effectiveMaxInFlight > 0 ? h.effectiveMaxInFlight : h.maxInFlight;
    if (limit > 0 && h.inFlight >= limit)
        return make(Kind::Busy, tr("busy (at limit)"));
    if (h.state == crawl::HostState::Pacing && h.queued > 0 && h.inFlight == 0)
        return make(Kind::Pacing, tr("waiting for interval"));
    if (h.inFlight > 0)
        return make(Kind::Fetching, tr("fetching"));
    return make(Kind::Ready, tr("ready"));
}

} // namespace ui
