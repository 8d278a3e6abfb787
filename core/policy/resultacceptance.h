#pragma once

#include "model/crawlresult.h"
#include "policy/acceptancecheck.h"

#include <QByteArray>

namespace crawl {

// Fills a result's acceptance columns (accepted, rejectReason, title) from its last response: status,
// content type and byte count from `result`, the kept start of the body in `bodyPrefix`. The outcome is
// left as the transport decided it. A soft 404 only reported (not rejected) still names itself in the
// reject reason, so the row says why it looks suspicious while it counts as accepted.
void applyAcceptance(CrawlResult &result, const AcceptanceCriteria &criteria, const QByteArray &bodyPrefix);

} // namespace crawl
