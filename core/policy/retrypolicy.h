#pragma once

#include <QtGlobal>

namespace crawl {

// Statuses worth another attempt: the server may answer differently later.
bool isRetryableStatus(int status);

// Exponential backoff for the attempt that just failed (1-based): base x 2^(attempt-1), capped, then
// "equal jitter" (half fixed, half uniform random; `random01` in [0,1)) so URLs that failed together
// do not retry together.
qint64 backoffDelayMs(int failedAttempt, int baseMs, int capMs, double random01);

} // namespace crawl
