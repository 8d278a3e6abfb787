#pragma once

#include "model/crawllimits.h"
#include "model/fetchpolicy.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QStringList>

namespace demo {

// The demo's limits: the one definition the window and the headless demo share. Gentler than the
// defaults and with short waits, so that the whole crawl of the built-in site (retries, Retry-After,
// backoff, timeouts, oversized bodies) shows every behaviour within about a minute.
struct DemoSettings {
    crawl::CrawlLimits limits;
    crawl::FetchPolicy policy;
};

// `base` with the demo's values, except the settings whose command-line flag (e.g. "per-host") is in
// `keep`: flags the user gave explicitly win. Settings the demo does not pick are left as in `base`.
DemoSettings demoSettings(DemoSettings base, const QStringList &keep = {});

// What the window shows beside each demo host's address: its personality ("slow", "rate-limited"), from
// the demo site's (host, profile name) pairs. A host the site fell back to sharing is labelled once.
QHash<QString, QString> demoHostLabels(const QList<QPair<QString, QString>> &profiles);

// How many URLs the demo crawls, as a factor of its usual few thousand: the environment variable
// CRAWLSCOPE_DEMO_SCALE when it is a positive number, else 1.
double demoScale();

} // namespace demo
