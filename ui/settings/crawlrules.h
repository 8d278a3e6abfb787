#pragma once

#include "model/crawlquality.h"

#include <QString>

class QSettings;

namespace ui {

// The window's crawl rules (issue 13) as the Crawl Rules dialog shows them: text the user types, kept as
// typed in QSettings (group "crawlRules") and turned into a crawl::CrawlQuality by parseCrawlRules()
// before every crawl the window starts. The window obeys robots.txt by default, like the command line.
struct CrawlRules {
    QString robots = QStringLiteral("obey"); // obey, ignore or report
    QString robotsAgent = QStringLiteral("crawlscope");
    bool ignoreCrawlDelay = false;
    QString include;      // one regular expression per line (a URL must match one)
    QString exclude;      // one regular expression per line (a URL matching any is excluded)
    QString allowedHosts; // one host, host:port or *.domain per line; empty: every host
    QString expectStatus = QStringLiteral("200-299");
    QString expectType; // "text/html, application/json"; empty: any type
    QString expectText;
    QString expectRegex;
    bool expectTitle = false;
    qint64 minBytes = 0;
    QString soft404 = QStringLiteral("report"); // off, report or reject

    bool operator==(const CrawlRules &) const = default;
};

// Which field an error is about, so the dialog can put the cursor there.
enum class CrawlRulesField {
    None,
    Robots,
    RobotsAgent,
    Include,
    Exclude,
    AllowedHosts,
    ExpectStatus,
    ExpectType,
    ExpectText,
    ExpectRegex,
    MinBytes,
    Soft404
};

struct CrawlRulesParse {
    crawl::CrawlQuality quality;
    QString error; // empty when every field is valid; else the field, the line and what is wrong
    CrawlRulesField field = CrawlRulesField::None;
};

// All or nothing: a bad line is an error naming it, never silently dropped. Blank lines and lines
// starting with '#' in the multi-line fields are skipped.
CrawlRulesParse parseCrawlRules(const CrawlRules &rules);

CrawlRules loadCrawlRules(QSettings &settings);
void saveCrawlRules(QSettings &settings, const CrawlRules &rules);

} // namespace ui
