#pragma once

#include "model/crawllimits.h"
#include "model/crawlsnapshot.h"
#include "stats/latencyhistogram.h"
#include "store/storetypes.h"

#include <QHash>
#include <QList>

#include <array>
#include <vector>

namespace ui {

// What an opened crawl file shows beside its rows: the Hosts tab (busiest hosts first, at most
// kMaxHosts of them, since a file may hold 100,000) and the summary (done of total, outcome counts,
// duration, latency), built from the store's tallies and one pass over its committed results. A value
// type, filled on a worker thread and handed to the window as a snapshot.
class CrawlFileSummary {
public:
    static constexpr int kMaxHosts = 1'000;

    void setCounts(const crawl::StoreCounts &counts,
                   const std::array<qint64, crawl::kOutcomeCount> &byOutcome, bool inputComplete);
    // The hosts shown (busiest first, at most kMaxHosts) and how many the crawl has in all.
    void setHosts(const QList<crawl::HostRecord> &busiest, qint64 hostsTotal,
                  const crawl::CrawlLimits &limits, qint64 nowMs);
    void addResult(const crawl::ResultFact &fact);

    crawl::CrawlSnapshot snapshot() const;
    qint64 hostsShown() const { return m_hosts.size(); }
    qint64 hostsTotal() const { return m_hostsTotal; }

private:
    struct HostExtra {
        crawl::LatencyHistogram latency;
        qint64 blockedByRobots = 0;
    };

    crawl::StoreCounts m_counts;
    std::array<qint64, crawl::kOutcomeCount> m_byOutcome{};
    bool m_inputComplete = false;
    crawl::CrawlLimits m_limits;
    QList<crawl::HostSnapshot> m_hosts;
    std::vector<HostExtra> m_extra; // parallel to m_hosts
    QHash<QString, int> m_rowByHost;
    qint64 m_hostsTotal = 0;
    crawl::LatencyHistogram m_latency;
    qint64 m_firstStartMs = 0;
    qint64 m_lastFinishMs = 0;
    qint64 m_accepted = 0;
    qint64 m_rejected = 0;
    qint64 m_requests = 0;
};

} // namespace ui
