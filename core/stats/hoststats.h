#pragma once

#include "stats/latencyhistogram.h"

#include <QtGlobal>

namespace crawl {

// What a shard counts about one host for the live view; scheduling never reads it.
struct HostStats {
    qint64 started = 0; // requests started (attempts and redirect hops)
    qint64 startedAtLastPublish = 0;
    qint64 retries = 0;
    qint64 status429 = 0;
    qint64 responses = 0; // HTTP responses received (retries, redirect hops and robots.txt included)
    int lastStatus = 0;
    qint64 breakerTrips = 0;      // circuit breaker trips (a failed probe trips again)
    qint64 breakerRecoveries = 0; // successful probes
    qint64 breakerGiveUps = 0;
    LatencyHistogram latency;

    // Starts per second since the previous call (which this call becomes).
    double takeStartRate(double seconds) {
        const double rate = seconds > 0 ? double(started - startedAtLastPublish) / seconds : 0.0;
        startedAtLastPublish = started;
        return rate;
    }
};

} // namespace crawl
