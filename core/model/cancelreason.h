#pragma once

#include <QString>

namespace crawl {

// The error text of a `cancelled` result, in one place so every path that cancels says the same.
inline QString stoppedBeforeFinishText() {
    return QStringLiteral("crawl stopped before this URL finished");
}

inline QString skippedHostText(const QString &hostKey) {
    return QStringLiteral("skipped by user: host %1").arg(hostKey);
}

// The error text of a `skipped` result: the host's circuit breaker gave it up.
inline QString breakerGaveUpText(const QString &hostKey, const QString &reason) {
    return QStringLiteral("host %1 given up by its circuit breaker (tripped past the give-up time): %2")
        .arg(hostKey, reason);
}

} // namespace crawl
