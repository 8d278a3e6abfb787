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

} // namespace crawl
