#include "models/hostquality.h"

#include <QObject>

#include <algorithm>

namespace ui {

double hostYield(const crawl::HostSnapshot &host) {
    if (host.ok <= 0)
        return -1;
    return std::min(1.0, double(host.accepted) / double(host.ok));
}

double host429Rate(const crawl::HostSnapshot &host) {
    if (host.responses <= 0)
        return -1;
    return std::min(1.0, double(host.status429) / double(host.responses));
}

QString shareText(double share) {
    if (share < 0)
        return {};
    const double percent = share * 100.0;
    if (percent > 0 && percent < 10)
        return QObject::tr("%1 %").arg(percent, 0, 'f', 1);
    return QObject::tr("%1 %").arg(qRound(percent));
}

QString queueAgeText(const crawl::HostSnapshot &host) {
    if (host.queued <= 0 || host.oldestQueuedAgeMs <= 0)
        return {};
    const qint64 ms = host.oldestQueuedAgeMs;
    if (ms < 60'000)
        return QObject::tr("%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
    return QObject::tr("%1 min %2 s").arg(ms / 60'000).arg(ms / 1000 % 60, 2, 10, QLatin1Char('0'));
}

} // namespace ui
