#include "model/breakerevent.h"

#include <QDateTime>

namespace crawl {

QString breakerStateName(BreakerState state) {
    switch (state) {
    case BreakerState::Closed:
        return QStringLiteral("closed");
    case BreakerState::Open:
        return QStringLiteral("tripped");
    case BreakerState::HalfOpen:
        return QStringLiteral("probing");
    case BreakerState::GaveUp:
        return QStringLiteral("gave_up");
    }
    return QStringLiteral("closed");
}

QString breakerEventText(const BreakerEvent &event) {
    switch (event.kind) {
    case BreakerEvent::Kind::Tripped:
        return QStringLiteral("host %1 tripped: %2; probe at %3")
            .arg(event.host, event.reason,
                 QDateTime::fromMSecsSinceEpoch(event.probeAtMs).toString(QStringLiteral("HH:mm:ss")));
    case BreakerEvent::Kind::Recovered:
        return QStringLiteral("host %1 recovered: the probe succeeded, resuming at a reduced pace")
            .arg(event.host);
    case BreakerEvent::Kind::GaveUp:
        return QStringLiteral("host %1 given up: %2; its remaining URLs are skipped")
            .arg(event.host, event.reason);
    case BreakerEvent::Kind::Reset:
        return QStringLiteral("host %1 resumed by user").arg(event.host);
    }
    return {};
}

} // namespace crawl
