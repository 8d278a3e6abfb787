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

} // namespace crawl
