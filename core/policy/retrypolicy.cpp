#include "policy/retrypolicy.h"

#include <algorithm>
#include <cmath>

namespace crawl {

bool isRetryableStatus(int status) {
    switch (status) {
    case 408:
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
        return true;
    default:
        return false;
    }
}

qint64 backoffDelayMs(int failedAttempt, int baseMs, int capMs, double random01) {
    const int exponent = std::clamp(failedAttempt - 1, 0, 30);
    const double raw =
        std::min<double>(double(std::max(0, baseMs)) * std::ldexp(1.0, exponent), double(std::max(0, capMs)));
    const double jittered = raw / 2.0 + std::clamp(random01, 0.0, 1.0) * raw / 2.0;
    return qint64(std::llround(jittered));
}

} // namespace crawl
