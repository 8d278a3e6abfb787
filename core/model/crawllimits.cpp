#include "model/crawllimits.h"

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

} // namespace crawl
