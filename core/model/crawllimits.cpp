#include "model/crawllimits.h"

#include <QUrl>

#include <algorithm>

namespace crawl {

int CrawlLimits::maxInFlightFor(const QString &hostKey) const {
    const auto it = hostOverrides.constFind(hostKey);
    const int limit = (it != hostOverrides.cend() && it->maxInFlight > 0) ? it->maxInFlight : perHostInFlight;
    return std::max(1, limit);
}

int CrawlLimits::intervalMsFor(const QString &hostKey) const {
    const auto it = hostOverrides.constFind(hostKey);
    const int interval = (it != hostOverrides.cend() && it->intervalMs >= 0) ? it->intervalMs : intervalMs;
    return std::max(0, interval);
}

CrawlLimits CrawlLimits::withCanonicalHostKeys() const {
    CrawlLimits out = *this;
    out.hostOverrides.clear();
    for (auto it = hostOverrides.cbegin(); it != hostOverrides.cend(); ++it) {
        const QString &key = it.key();
        const qsizetype colon = key.lastIndexOf(QLatin1Char(':'));
        QString host = colon < 0 ? key : key.left(colon);
        if (!host.startsWith(QLatin1Char('['))) { // an IPv6 literal is already canonical
            const QByteArray ace = QUrl::toAce(host);
            if (!ace.isEmpty())
                host = QString::fromLatin1(ace);
        }
        out.hostOverrides.insert(host.toLower() + (colon < 0 ? QString() : key.mid(colon)), it.value());
    }
    return out;
}

} // namespace crawl
