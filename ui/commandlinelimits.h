#pragma once

#include "model/crawllimits.h"
#include "model/fetchpolicy.h"

#include <QStringList>

namespace ui {

// Limits given on the command line for the window: only the flags the user typed (`flags`, named as on
// the command line: "per-host", "timeout", …) overwrite `limits` / `policy` with the values parsed into
// `given`; everything else stays as the window had it (the user's saved limits). Per-host overrides are
// added to those already set.
void applyCommandLineFlags(const QStringList &flags, const crawl::CrawlLimits &givenLimits,
                           const crawl::FetchPolicy &givenPolicy, crawl::CrawlLimits *limits,
                           crawl::FetchPolicy *policy);

} // namespace ui
