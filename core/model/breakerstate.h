#pragma once

#include <QString>

namespace crawl {

// Where a host's circuit breaker stands (see HostBreaker).
enum class BreakerState : quint8 {
    Closed,   // requests start as the limits allow
    Open,     // tripped: nothing starts until the cool-down ends
    HalfOpen, // the cool-down ended: one probe request is in flight
    GaveUp,   // tripped past the give-up time: the host's URLs end as `skipped`
};

QString breakerStateName(BreakerState state); // "closed", "tripped", "probing", "gave_up"

} // namespace crawl
