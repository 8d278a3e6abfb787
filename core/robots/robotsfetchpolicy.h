#pragma once

#include <QString>

// Integration (issue 13): the engine fetches /robots.txt once per crawl and host (through the host's own
// limiter, up to 5 redirects) and hands the final status here. Parse -> RobotsRules::parse(body);
// AllowAll / DisallowAll -> RobotsRules::allowAll / disallowAll(reason). While `retry` is set the host's
// URLs wait (they are not failed) and the robots fetch is tried again after `retryDelayMs`; once retries
// are used up the host's URLs end with outcome `blocked_robots` and `reason` as their error.

namespace crawl {

struct RobotsFetchDecision {
    enum class Action { Parse, AllowAll, DisallowAll };
    Action action = Action::AllowAll;
    bool retry = false; // only with DisallowAll: fetch robots.txt again later
    qint64 retryDelayMs =
        0;          // before the next robots fetch (exponential, capped, no jitter: one fetch per host)
    QString reason; // e.g. "robots.txt: HTTP 503 (retry 2 of 4 in 20 s)"; empty for Parse
};

struct RobotsRetrySettings {
    int maxAttempts = 4;         // robots fetches in all, the first included
    int baseDelayMs = 10'000;    // after the first failure; doubles each time
    int maxDelayMs = 5 * 60'000; // cap of one wait
};

// `httpStatus` is the final status after redirects, 0 when there was no response at all (refused, reset,
// timeout, DNS); `tooManyRedirects` when the redirect limit was hit; `attempt` is 1-based.
//  - 2xx: parse the body.
//  - 4xx other than 429, and too many redirects: "unavailable" (RFC 9309 section 2.3.1.3): no restrictions.
//  - 429, 5xx, no response, and anything else: "unreachable" (section 2.3.1.4): disallow everything, and
//    retry with backoff while attempts remain. 429 is counted here, not with 4xx: it says "slow down", not
//    "there is no robots.txt", and reading it as permission would crawl an overloaded site harder.
RobotsFetchDecision decideRobotsFetch(int httpStatus, bool tooManyRedirects, int attempt,
                                      const RobotsRetrySettings &settings = {});

} // namespace crawl
