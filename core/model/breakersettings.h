#pragma once

namespace crawl {

// The per-host circuit breaker's knobs (see HostBreaker). Part of FetchPolicy, so it reaches every shard
// the same way the retry rules do.
struct BreakerSettings {
    bool enabled = true;
    int window = 20;            // the last N completed attempts of a host are judged
    double threshold = 0.8;     // trip when at least this share of a full window failed
    int windowS = 600;          // attempts older than this no longer count (a slow trickle of old failures)
    int cooldownS = 60;         // first cool-down; doubles on each trip that follows without recovery
    int cooldownCapFactor = 16; // the cool-down grows to at most cooldownS x this
    int giveUpS = 1800; // tripped this long since the first trip: the host's remaining URLs are skipped
    // Test hook: cool-downs and give-up in milliseconds instead (0 = use the seconds above).
    int cooldownMs = 0;
    int giveUpMs = 0;

    bool operator==(const BreakerSettings &) const = default;
};

} // namespace crawl
