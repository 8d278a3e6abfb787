#pragma once

#include <QHash>
#include <QString>

namespace ui {

// One fixed time window of a crawl as the charts draw it: rates over the window, means of the
// instantaneous values, latency percentiles of the requests that ended in it.
struct ChartBin {
    qint64 startMs = 0;         // epoch ms, a multiple of the bin width
    bool active = false;        // the crawl was running (not paused, idle or finished) in the window
    double resultsPerSec = 0;   // results, cancelled ones excluded
    double failuresPerSec = 0;  // failed results, cancelled ones excluded (a Stop is not an error)
    double cancelledPerSec = 0; // results cancelled by Stop or a skipped host
    double okPerSec = 0;        // raw: results whose outcome is ok (a 200 with an error template included)
    double acceptedPerSec = 0;  // results whose response passed the acceptance checks
    double inFlight = 0;        // mean over the window's snapshots
    int p50Ms = -1, p95Ms = -1, p99Ms = -1; // -1: nothing finished in the window
    QHash<QString, double> hostInFlight;    // mean per host; hosts with nothing in flight are absent
};

} // namespace ui
