#pragma once

#include "model/crawlresult.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>

namespace ui {

// What a URL's result counts as in the status breakdown. Ok and HTTP errors by their final status;
// timeouts, network errors and oversized bodies as failures without a usable status.
enum class StatusClass { Success2xx, Redirect3xx, Client4xx, Server5xx, Failed, Count };
// None for cancelled URLs (a Stop is not a result) and invalid lines (never requested).
std::optional<StatusClass> statusClassOf(const crawl::CrawlResult &result);

// Response-time buckets with 1/2/5 edges: 0-10 ms, 10-20, 20-50, ..., 2-5 s, >=5 s. Labels are in ms
// ("10–20") up to the buckets that reach a second ("0.5–1 s").
inline constexpr int kLatencyBuckets = 10;
int latencyBucketOf(qint64 ms);
QString latencyBucketLabel(int bucket);

// Counts of the window's results by status class (overall and per host) and by response time. A
// retried URL's earlier result is removed before its new one is added, so each URL counts once.
class ResultBreakdown {
public:
    using ClassCounts = std::array<qint64, size_t(StatusClass::Count)>;

    void add(const crawl::CrawlResult &result) { count(result, 1); }
    void remove(const crawl::CrawlResult &result) { count(result, -1); }
    void clear() { *this = ResultBreakdown{}; }

    const ClassCounts &overall() const { return m_overall; }
    ClassCounts host(const QString &host) const { return m_byHost.value(host); }
    // Hosts with the most counted results first (ties by name), at most `n`.
    QStringList busiestHosts(int n) const;
    const std::array<qint64, kLatencyBuckets> &latency() const { return m_latency; }

private:
    void count(const crawl::CrawlResult &result, int sign);

    ClassCounts m_overall{};
    QHash<QString, ClassCounts> m_byHost;
    std::array<qint64, kLatencyBuckets> m_latency{};
};

} // namespace ui
