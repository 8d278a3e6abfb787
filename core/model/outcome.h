#pragma once

#include <QString>

#include <optional>

namespace crawl {

// Terminal outcome of one input line. Every non-blank, non-comment line ends as exactly one of these.
enum class Outcome : quint8 {
    Ok,            // 2xx after following redirects
    HttpError,     // a final non-2xx status (including exhausted retries of 429/5xx, redirect limits)
    Timeout,       // connect, inactivity or total deadline of the last attempt
    NetworkError,  // refused, reset, DNS, TLS, malformed response
    TooLarge,      // body over the byte cap
    InvalidUrl,    // the input line is not a crawlable http(s) URL
    Cancelled,     // the crawl was stopped (or the host skipped) before the URL finished
    Skipped,       // its host was given up by the circuit breaker (tripped past the give-up time)
    BlockedRobots, // the host's robots.txt disallows it (or could not be fetched): never requested
    Excluded,      // outside the crawl's scope (--include/--exclude/--allow-hosts), or redirected out of it
};

inline constexpr int kOutcomeCount = 10;

// Stable machine names, used in the CSV, the JSON summary and the UI filters.
QString outcomeName(Outcome outcome);
std::optional<Outcome> outcomeFromName(const QString &name);

inline bool isFailure(Outcome outcome) {
    return outcome != Outcome::Ok;
}

} // namespace crawl
