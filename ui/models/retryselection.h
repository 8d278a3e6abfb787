#pragma once

#include "model/outcome.h"

namespace ui {

// What "Retry" re-queues.
enum class RetryScope {
    Transient,   // failures that may go away: timeouts, network errors, 408/429/5xx, cancelled URLs
    AllFailures, // every failure, permanent 403/404/410 and redirect limits included
    Selected,    // the failures the user selected in the failures table, whatever they are
};

// A failure the server or the network may answer differently later. Cancelled URLs count: they were
// stopped or skipped, which says nothing about the URL itself.
bool isTransientFailure(crawl::Outcome outcome, int status);

// Whether a row with this outcome is re-queued by `scope` (for Selected: when it is selected). An
// invalid line stays invalid however often it is tried; ok rows are never retried.
bool wantsRetry(RetryScope scope, crawl::Outcome outcome, int status);

} // namespace ui
