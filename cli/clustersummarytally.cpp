#include "clustersummarytally.h"

#include <algorithm>

namespace crawl {

void ClusterSummaryTally::add(const CrawlResult &row) {
    CrawlSnapshot &t = m_totals;
    ++t.done;
    ++t.byOutcome[size_t(row.outcome)];
    const bool ok = row.outcome == Outcome::Ok;
    t.ok += ok ? 1 : 0;
    t.failed += ok ? 0 : 1;
    t.invalid += row.outcome == Outcome::InvalidUrl ? 1 : 0;
    const qint64 retries = std::max(0, row.attempts - 1);
    t.retries += retries;
    t.status429 += row.status == 429 ? 1 : 0;
    t.rawResponses += row.status > 0 ? 1 : 0; // the final response; a worker's retries are not reported
    t.accepted += row.accepted == CrawlResult::Accepted::Yes ? 1 : 0;
    t.rejected += row.accepted == CrawlResult::Accepted::No ? 1 : 0;
    if (row.latencyMs >= 0)
        m_latency.add(row.latencyMs * 1000);
    if (row.host.isEmpty())
        return; // an invalid line belongs to no host
    HostTally &h = m_hosts[row.host];
    ++h.done;
    h.ok += ok ? 1 : 0;
    h.failed += ok ? 0 : 1;
    h.requests += row.attempts;
    h.retries += retries;
    h.status429 += row.status == 429 ? 1 : 0;
    h.accepted += row.accepted == CrawlResult::Accepted::Yes ? 1 : 0;
    if (row.latencyMs >= 0)
        h.latency.add(row.latencyMs * 1000);
}

CrawlSummary ClusterSummaryTally::summary(qint64 elapsedMs, qint64 duplicates, const CrawlLimits &limits,
                                          bool stoppedByUser) const {
    CrawlSummary out;
    out.stoppedByUser = stoppedByUser;
    CrawlSnapshot &s = out.last;
    s = m_totals;
    s.state = CrawlState::Finished;
    s.elapsedMs = elapsedMs;
    s.total = stoppedByUser ? -1 : s.done;
    s.duplicates = duplicates;
    s.limits = limits;
    s.p50Ms = m_latency.percentileMs(0.50);
    s.p95Ms = m_latency.percentileMs(0.95);
    s.p99Ms = m_latency.percentileMs(0.99);
    for (auto it = m_hosts.cbegin(); it != m_hosts.cend(); ++it) {
        HostSnapshot h;
        h.host = it.key();
        h.done = it->done;
        h.ok = it->ok;
        h.failed = it->failed;
        h.started = it->requests;
        h.retries = it->retries;
        h.status429 = it->status429;
        h.accepted = it->accepted;
        h.p50Ms = it->latency.percentileMs(0.50);
        h.p95Ms = it->latency.percentileMs(0.95);
        h.p99Ms = it->latency.percentileMs(0.99);
        h.maxInFlight = limits.maxInFlightFor(h.host); // as given at the start (--cluster-set may change it)
        h.intervalMs = limits.intervalMsFor(h.host);
        h.effectiveMaxInFlight = h.maxInFlight;
        h.effectiveIntervalMs = h.intervalMs;
        s.hosts.append(h);
    }
    std::sort(s.hosts.begin(), s.hosts.end(),
              [](const HostSnapshot &a, const HostSnapshot &b) { return a.host < b.host; });
    return out;
}

} // namespace crawl
