#pragma once

#include "model/crawllimits.h"
#include "model/crawlquality.h"
#include "model/fetchpolicy.h"

#include <QMap>
#include <QString>

#include <optional>

namespace crawl {

// The settings a crawl ran with, as its crawl file keeps them (one JSON value under kSettingsKey), so
// whoever resumes it (the command line, the window) starts from what the crawl used, not from its own
// defaults. Written by the frontier when the crawl starts and each time a limit changes while it runs.
//
// Kept: every limit (host overrides included), the fetch policy but its credential headers
// (Authorization, Cookie... are not written to a file in the user's data folder; the resuming side
// supplies its own), and the robots.txt settings of the quality rules. Scope and acceptance rules are
// not kept here (the command line keeps them in its stored flags, the window in its Crawl Rules).
struct StoredCrawlConfig {
    static inline const QString kSettingsKey = QStringLiteral("engine.config");
    static constexpr int kVersion = 1;

    CrawlLimits limits;
    FetchPolicy policy;
    RobotsMode robots = RobotsMode::Ignore;
    QByteArray robotsAgent;
    bool ignoreCrawlDelay = false;

    static StoredCrawlConfig from(const CrawlLimits &limits, const FetchPolicy &policy,
                                  const CrawlQuality &quality);
    QString toJson() const;
    // nullopt when the settings hold no record (a file from before it existed) or a damaged one; a
    // record's missing or out-of-range fields keep their defaults rather than refusing the whole record.
    static std::optional<StoredCrawlConfig> fromSettings(const QMap<QString, QString> &settings);
    static std::optional<StoredCrawlConfig> fromJson(const QString &json);
};

} // namespace crawl
