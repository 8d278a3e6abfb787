#pragma once

#include "robotstxt.h"
#include "testsite.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <optional>

namespace testsite {

// What the site observed on one listening host; guarded by its SiteRecorder's mutex.
struct ObservedHost {
    QString name; // "address:port"
    HostRecord record;
    QHash<QByteArray, int> failHits; // target -> hits since the last reset, for fail=K
    int toleranceServing = 0;        // tolerance=K requests being served now (not reset: they are real)
    std::optional<RobotsTxt> robots; // what /robots.txt answers (none: served like any other path)
};

} // namespace testsite
