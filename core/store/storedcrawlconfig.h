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
// supplies its own), the robots.txt settings, and (since version 2) the scope and acceptance rules, so
// a resumed crawl checks its URLs and pages as it started, not by the resuming side's current rules.
struct StoredCrawlConfig {
    static inline const QString kSettingsKey = QStringLiteral("engine.config");
    // The allowed hosts list (up to megabytes) beside the record, so a limit change that rewrites the
    // record does not rewrite the list (toSettings; the writer skips it when unchanged).
    static inline const QString kAllowedHostsKey = QStringLiteral("engine.allowedHosts");
    static constexpr int kVersion = 3; // 2: scope and acceptance rules; 3: allowed hosts under their own key
    // What a record read back may hold: the file may be hostile (a huge or pathological rule set).
    static constexpr qsizetype kMaxPatterns = 1000;       // include and exclude patterns, each
    static constexpr qsizetype kMaxPatternLength = 4096;  // characters of one pattern
    static constexpr qsizetype kMaxAllowedHosts = 200000; // lines of the allowed hosts
    static constexpr qsizetype kMaxTextLength = 65536;    // the expected text, a content type list

    // Out of line: GCC 12 inlining AcceptanceCriteria's list initializer reports a false
    // -Wmaybe-uninitialized in every file that makes one.
    StoredCrawlConfig();

    CrawlLimits limits;
    FetchPolicy policy;
    RobotsMode robots = RobotsMode::Ignore;
    QByteArray robotsAgent;
    bool ignoreCrawlDelay = false;
    // Scope and acceptance: kept only by version 2 records (hasRules false for an older one, whose
    // resuming side supplies its own).
    bool hasRules = false;
    ScopeRules scope;
    AcceptanceCriteria acceptance;

    static StoredCrawlConfig from(const CrawlLimits &limits, const FetchPolicy &policy,
                                  const CrawlQuality &quality);
    QString toJson() const; // one self-contained record (the allowed hosts inside it)
    // What the crawl file keeps: the record under kSettingsKey and, when the scope restricts hosts, the
    // list under kAllowedHostsKey.
    QMap<QString, QString> toSettings() const;
    // nullopt when the settings hold no record (a file from before it existed) or a damaged one; a
    // record's missing or out-of-range fields keep their defaults rather than refusing the whole record.
    // Rules that cannot be kept as they are (an invalid regular expression, too many or too long
    // patterns) refuse it with *error saying which: resuming without the crawl's scope could fetch what
    // it excluded, so the resuming side refuses too.
    static std::optional<StoredCrawlConfig> fromSettings(const QMap<QString, QString> &settings,
                                                         QString *error = nullptr);
    static std::optional<StoredCrawlConfig> fromJson(const QString &json, QString *error = nullptr);

private:
    QString recordJson(bool hostsInline) const;
    static std::optional<StoredCrawlConfig> fromRecord(const QString &json, const QString *separateHosts,
                                                       QString *error);
};

} // namespace crawl
