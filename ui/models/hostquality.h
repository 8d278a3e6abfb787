#pragma once

#include "model/crawlsnapshot.h"

#include <QString>

namespace ui {

// The per-host quality figures of the Hosts table (issue 13), from one host snapshot.
// Yield: accepted ÷ ok (how many 200s were worth having); -1 while the host has no ok result.
double hostYield(const crawl::HostSnapshot &host);
// The share of the host's HTTP responses that were 429 Too Many Requests; -1 before any response.
double host429Rate(const crawl::HostSnapshot &host);
// "87 %", "0.4 %" (small shares keep a decimal: a 0.4 % 429 rate matters); empty for -1.
QString shareText(double share);
// "12.3 s", "4 min 05 s"; empty when nothing waits (the age of the host's oldest queued URL).
QString queueAgeText(const crawl::HostSnapshot &host);

} // namespace ui
