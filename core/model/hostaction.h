#pragma once

#include <QtGlobal>

namespace crawl {

// What the Hosts tab's context menu does to one host: the same choices for a local crawl (CrawlEngine) and
// a shared one (ClusterHostBudget::hostAction, every worker).
enum class HostAction : quint8 {
    Pause,         // no new request starts on the host; requests in flight finish
    Resume,        // undoes Pause
    Skip,          // every URL of the host not yet started ends as `cancelled`
    ResumeTripped, // a tripped (or given-up) circuit breaker closes: requests start again now
};

} // namespace crawl
