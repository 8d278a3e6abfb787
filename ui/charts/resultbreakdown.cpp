#include "charts/resultbreakdown.h"

#include <algorithm>

namespace ui {

namespace {
constexpr std::array<qint64, kLatencyBuckets - 1> kEdgesMs = {10, 20, 50, 100, 200, 500, 1000, 2000, 5000};

QString seconds(qint64 ms) {
    return QString::number(double(ms) / 1000);
}
} // namespace

std::optional<StatusClass> statusClassOf(const crawl::CrawlResult &result) {
    switch (result.outcome) {
    case crawl::Outcome::Cancelled:
    case crawl::Outcome::InvalidUrl:
    case crawl::Outcome::Skipped:       // given up with its host: never answered, like a cancelled URL
    case crawl::Outcome::BlockedRobots: // never requested
    case crawl::Outcome::Excluded:      // never requested (or its redirect was not followed)
        return std::nullopt;
    case crawl::Outcome::Ok:
    case crawl::Outcome::HttpError:
        if (result.status >= 200 && result.status < 300)
            return StatusClass::Success2xx;
        if (result.status >= 300 && result.status < 400)
            return StatusClass::Redirect3xx;
        if (result.status >= 400 && result.status < 500)
            return StatusClass::Client4xx;
        if (result.status >= 500 && result.status < 600)
            return StatusClass::Server5xx;
        return StatusClass::Failed; // a status outside 2xx-5xx is no answer a user can act on
    case crawl::Outcome::Timeout:
    case crawl::Outcome::NetworkError:
    case crawl::Outcome::TooLarge:
        return StatusClass::Failed;
    }
    return StatusClass::Failed;
}

int latencyBucketOf(qint64 ms) {
    return int(std::upper_bound(kEdgesMs.cbegin(), kEdgesMs.cend(), ms) - kEdgesMs.cbegin());
}

QString latencyBucketLabel(int bucket) {
    // Short enough to sit under a narrow bar: milliseconds bare, a bucket reaching a second in seconds.
    if (bucket <= 0)
        return QStringLiteral("0–") + QString::number(kEdgesMs.front()); // never "<10": labels are rich text
    if (bucket >= kLatencyBuckets - 1)
        return QStringLiteral("≥") + seconds(kEdgesMs.back()) + QStringLiteral(" s");
    const qint64 from = kEdgesMs[size_t(bucket - 1)];
    const qint64 to = kEdgesMs[size_t(bucket)];
    if (to >= 1000)
        return seconds(from) + QStringLiteral("–") + seconds(to) + QStringLiteral(" s");
    return QString::number(from) + QStringLiteral("–") + QString::number(to);
}

void ResultBreakdown::count(const crawl::CrawlResult &result, int sign) {
    const std::optional<StatusClass> cls = statusClassOf(result);
    if (!cls)
        return;
    m_overall[size_t(*cls)] += sign;
    m_byHost[result.host][size_t(*cls)] += sign;
    if (result.latencyMs >= 0)
        m_latency[size_t(latencyBucketOf(result.latencyMs))] += sign;
}

QStringList ResultBreakdown::busiestHosts(int n) const {
    QList<QPair<qint64, QString>> ranked;
    for (auto it = m_byHost.cbegin(); it != m_byHost.cend(); ++it) {
        qint64 total = 0;
        for (const qint64 c : it.value())
            total += c;
        if (total > 0)
            ranked.append({total, it.key()});
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    QStringList hosts;
    for (qsizetype i = 0; i < ranked.size() && i < n; ++i)
        hosts.append(ranked[i].second);
    return hosts;
}

} // namespace ui
