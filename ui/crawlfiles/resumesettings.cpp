#include "crawlfiles/resumesettings.h"

#include "policy/redirectsafety.h"

namespace ui {

ResumeSettings ResumeSettings::decide(const std::optional<crawl::StoredCrawlConfig> &stored,
                                      const crawl::CrawlLimits &windowLimits,
                                      const crawl::FetchPolicy &windowPolicy,
                                      const crawl::CrawlQuality &windowQuality) {
    ResumeSettings out;
    out.limits = windowLimits;
    out.policy = windowPolicy;
    out.quality = windowQuality;
    if (!stored)
        return out;
    out.fromCrawlFile = true;
    out.limits = stored->limits;
    out.policy = stored->policy;
    // A crawl file can come from anyone: its record may only make redirects stricter than the window's.
    out.policy.keepStricterRedirectSafety(windowPolicy);
    // Credentials are never kept in a crawl file: the window's own credential headers go on.
    for (const auto &header : windowPolicy.headers) {
        if (crawl::isCredentialHeader(header.first))
            out.policy.headers.append(header);
    }
    out.quality.robots = stored->robots;
    if (!stored->robotsAgent.isEmpty())
        out.quality.robotsAgent = stored->robotsAgent;
    out.quality.ignoreCrawlDelay = stored->ignoreCrawlDelay;
    // A record from before version 2 kept no rules: the window's go on, as before.
    if (stored->hasRules) {
        out.quality.scope = stored->scope;
        out.quality.acceptance = stored->acceptance;
    }
    return out;
}

} // namespace ui
