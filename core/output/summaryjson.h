#pragma once

#include "model/crawlsnapshot.h"

#include <QJsonObject>

namespace crawl {

// The crawl summary as JSON (the --summary-json file): totals, outcomes, rates, latency, per-host rows.
QJsonObject summaryToJson(const CrawlSummary &summary);

} // namespace crawl
