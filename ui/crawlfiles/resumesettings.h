#pragma once

#include "model/crawllimits.h"
#include "model/crawlquality.h"
#include "model/fetchpolicy.h"
#include "store/storedcrawlconfig.h"

#include <optional>

namespace ui {

// What a crawl resumed from the window runs with. The crawl's own settings (the ones it stored, e.g. a
// command-line crawl's --per-host 1 --interval 300) win over whatever the window's panel shows, so a
// resumed crawl is as polite as it started and checks its URLs and pages by its own scope and acceptance
// rules; the window supplies only what the file does not keep (a file from before it kept settings or
// rules, credential headers). The user then changes them like any running crawl's limits.
struct ResumeSettings {
    crawl::CrawlLimits limits;
    crawl::FetchPolicy policy;
    crawl::CrawlQuality quality;
    bool fromCrawlFile = false; // false: the file kept none, the window's are used

    static ResumeSettings decide(const std::optional<crawl::StoredCrawlConfig> &stored,
                                 const crawl::CrawlLimits &windowLimits,
                                 const crawl::FetchPolicy &windowPolicy,
                                 const crawl::CrawlQuality &windowQuality);
};

} // namespace ui
