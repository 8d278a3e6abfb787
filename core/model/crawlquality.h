#pragma once

#include "policy/acceptancecheck.h"
#include "policy/scoperules.h"
#include "robots/robotsfetchpolicy.h"

#include <QByteArray>
#include <QMetaType>
#include <QString>

#include <optional>

namespace crawl {

// What robots.txt means for a crawl: obey it, do not fetch it, or fetch it and only mark the rows.
enum class RobotsMode : quint8 { Obey, Ignore, Report };
QString robotsModeName(RobotsMode mode); // "obey", "ignore", "report"
std::optional<RobotsMode> robotsModeFromName(const QString &name);

// Permission, scope and acceptance of one crawl (issue 13): a value copied into every fetch shard.
// The engine's default fetches no robots.txt and checks nothing but the default acceptance (2xx, soft 404
// reported); the command line and the window obey robots.txt by default.
struct CrawlQuality {
    RobotsMode robots = RobotsMode::Ignore;
    QByteArray robotsAgent = "crawlscope"; // the product token matched against robots.txt groups
    bool ignoreCrawlDelay = false;
    RobotsRetrySettings robotsRetry;             // 5xx / unreachable robots.txt: fetched again with backoff
    qint64 robotsRefetchMs = 24LL * 3600 * 1000; // a cached robots.txt is fetched again after this
    int robotsMaxRedirects = 5;
    ScopeRules scope;
    AcceptanceCriteria acceptance;
};

} // namespace crawl

Q_DECLARE_METATYPE(crawl::CrawlQuality)
