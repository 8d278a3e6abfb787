#pragma once

#include "testsite.h"

#include <QByteArray>
#include <QHash>
#include <QString>

namespace testsite {

// What the site observed on one listening host; guarded by its SiteRecorder's mutex.
struct ObservedHost {
    QString name; // "address:port"
    HostRecord record;
    QHash<QByteArray, int> failHits; // target -> hits since the last reset, for fail=K
    int toleranceServing = 0;        // tolerance=K requests being served now (not reset: they are real)
};

} // namespace testsite
