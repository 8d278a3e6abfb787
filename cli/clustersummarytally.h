#pragma once

#include "model/crawlresult.h"
#include "model/crawlsnapshot.h"
#include "stats/latencyhistogram.h"

#include <QHash>
#include <QString>

namespace crawl {

// A shared crawl's summary, counted by its coordinator from the rows it writes (the workers' own counters
// live in other processes). Enough for `--summary-json` with the same fields as a local crawl: outcomes,
// accepted vs rejected, retries (attempts beyond the first), latency percentiles, and the same per host.
// Memory: a fixed histogram per host, not a value per row.
class ClusterSummaryTally {
public:
    void add(const CrawlResult &row);
    // The summary of every row added. `duplicates`: input lines Redis found already queued.
    CrawlSummary summary(qint64 elapsedMs, qint64 duplicates, const CrawlLimits &limits,
                         bool stoppedByUser) const;

private:
    struct HostTally {
        qint64 done = 0;
        qint64 ok = 0;
        qint64 failed = 0;
        qint64 requests = 0;
        qint64 retries = 0;
        qint64 status429 = 0;
        qint64 accepted = 0;
        LatencyHistogram latency;
    };
    CrawlSnapshot m_totals;
    LatencyHistogram m_latency;
    QHash<QString, HostTally> m_hosts;
};

} // namespace crawl
