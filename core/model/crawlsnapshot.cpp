#include "model/crawlsnapshot.h"

namespace crawl {

QString hostStateName(HostState state) {
    switch (state) {
    case HostState::Ready:
        return QStringLiteral("ready");
    case HostState::Busy:
        return QStringLiteral("busy");
    case HostState::Pacing:
        return QStringLiteral("waiting for interval");
    case HostState::BackingOff:
        return QStringLiteral("backing off");
    case HostState::Paused:
        return QStringLiteral("paused");
    }
    return {};
}

QString crawlStateName(CrawlState state) {
    switch (state) {
    case CrawlState::Idle:
        return QStringLiteral("idle");
    case CrawlState::Running:
        return QStringLiteral("running");
    case CrawlState::Paused:
        return QStringLiteral("paused");
    case CrawlState::Stopping:
        return QStringLiteral("stopping");
    case CrawlState::Finished:
        return QStringLiteral("finished");
    }
    return {};
}

bool isActive(CrawlState state) {
    return state == CrawlState::Running || state == CrawlState::Paused || state == CrawlState::Stopping;
}

QString formatDuration(qint64 ms) {
    if (ms < 0)
        return QStringLiteral("?");
    const qint64 s = ms / 1000;
    if (s >= 3600)
        return QStringLiteral("%1h%2m").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    if (s >= 60)
        return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1s").arg(s);
}

} // namespace crawl
