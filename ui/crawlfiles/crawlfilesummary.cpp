#include "crawlfiles/crawlfilesummary.h"

#include <QCoreApplication>

#include <algorithm>

namespace ui {

void CrawlFileSummary::setCounts(const crawl::StoreCounts &counts,
                                 const std::array<qint64, crawl::kOutcomeCount> &byOutcome,
                                 bool inputComplete) {
    m_counts = counts;
    m_byOutcome = byOutcome;
    m_inputComplete = inputComplete;
}

void CrawlFileSummary::setHosts(const QList<crawl::HostRecord> &busiest, qint64 hostsTotal,
                                const crawl::CrawlLimits &limits, qint64 nowMs) {
    m_limits = limits;
    m_hosts.clear();
    m_extra.clear();
    m_rowByHost.clear();
    m_hostsTotal = std::max<qint64>(hostsTotal, busiest.size());
    for (const crawl::HostRecord &record : busiest) {
        if (m_hosts.size() >= kMaxHosts)
            break;
        crawl::HostSnapshot h;
        h.host = record.hostKey;
        // Nothing is in flight in a file no crawl runs: what was leased at a crash is queued again.
        h.queued = record.pending + record.inFlight;
        h.done = record.done;
        h.ok = record.ok;
        h.failed = record.failed;
        h.retries = record.retries;
        h.status429 = record.http429;
        h.overridden = record.maxInFlight > 0 || record.startIntervalMs >= 0;
        h.maxInFlight = record.maxInFlight > 0 ? record.maxInFlight : limits.maxInFlightFor(record.hostKey);
        h.intervalMs =
            record.startIntervalMs >= 0 ? int(record.startIntervalMs) : limits.intervalMsFor(record.hostKey);
        h.effectiveMaxInFlight = h.maxInFlight;
        h.effectiveIntervalMs = h.intervalMs;
        if (record.userPaused) {
            h.state = crawl::HostState::Paused;
        } else if (record.pausedUntilMs > nowMs) {
            h.state = crawl::HostState::BackingOff; // a Retry-After pause still running
            h.stateUntilMs = record.pausedUntilMs;
        }
        m_rowByHost.insert(h.host, int(m_hosts.size()));
        m_hosts.append(h);
    }
    m_extra.resize(size_t(m_hosts.size()));
}

void CrawlFileSummary::addResult(const crawl::ResultFact &fact) {
    if (fact.latencyMs >= 0)
        m_latency.add(fact.latencyMs * 1000);
    if (fact.startedAtMs > 0 && (m_firstStartMs == 0 || fact.startedAtMs < m_firstStartMs))
        m_firstStartMs = fact.startedAtMs;
    m_lastFinishMs = std::max(m_lastFinishMs, fact.finishedAtMs);
    if (fact.accepted == 1)
        ++m_accepted;
    else if (fact.accepted == 0)
        ++m_rejected;
    m_requests += std::max(0, fact.attempts);
    const auto row = m_rowByHost.constFind(fact.hostKey);
    if (row == m_rowByHost.cend())
        return; // a host beyond the ones shown: counted in the totals only
    crawl::HostSnapshot &h = m_hosts[*row];
    HostExtra &extra = m_extra[size_t(*row)];
    if (fact.latencyMs >= 0)
        extra.latency.add(fact.latencyMs * 1000);
    h.started += std::max(0, fact.attempts);
    h.responses = h.started;
    if (fact.accepted == 1)
        ++h.accepted;
    if (fact.outcome == crawl::Outcome::BlockedRobots)
        ++extra.blockedByRobots;
}

crawl::CrawlSnapshot CrawlFileSummary::snapshot() const {
    crawl::CrawlSnapshot s;
    const bool unfinished = !m_inputComplete || m_counts.pending + m_counts.inFlight > 0;
    s.state = unfinished ? crawl::CrawlState::Idle : crawl::CrawlState::Finished;
    s.total = m_inputComplete ? m_counts.rows() : -1;
    s.done = m_counts.done;
    s.ok = m_counts.ok;
    s.failed = m_counts.failed;
    s.invalid = m_counts.invalid;
    s.duplicates = m_counts.duplicates;
    s.queued = m_counts.pending + m_counts.inFlight;
    s.retries = m_counts.retries;
    s.byOutcome = m_byOutcome;
    s.accepted = m_accepted;
    s.rejected = m_rejected;
    s.rawResponses = m_requests;
    s.elapsedMs = m_firstStartMs > 0 && m_lastFinishMs > m_firstStartMs ? m_lastFinishMs - m_firstStartMs : 0;
    s.p50Ms = m_latency.percentileMs(0.50);
    s.p95Ms = m_latency.percentileMs(0.95);
    s.p99Ms = m_latency.percentileMs(0.99);
    s.limits = m_limits;
    s.hosts = m_hosts;
    for (qsizetype i = 0; i < s.hosts.size(); ++i) {
        crawl::HostSnapshot &h = s.hosts[i];
        const HostExtra &extra = m_extra[size_t(i)];
        h.p50Ms = extra.latency.percentileMs(0.50);
        h.p95Ms = extra.latency.percentileMs(0.95);
        h.p99Ms = extra.latency.percentileMs(0.99);
        s.status429 += h.status429;
        if (extra.blockedByRobots > 0)
            h.robotsStatus =
                QCoreApplication::translate("ui::CrawlFileSummary", "%n URL(s) blocked by robots.txt",
                                            nullptr, int(extra.blockedByRobots));
    }
    return s;
}

} // namespace ui
