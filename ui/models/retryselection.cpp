#include "models/retryselection.h"

namespace ui {

bool isTransientFailure(crawl::Outcome outcome, int status) {
    switch (outcome) {
    case crawl::Outcome::Timeout:
    case crawl::Outcome::NetworkError:
    case crawl::Outcome::Cancelled:
    case crawl::Outcome::Skipped: // its host was failing then; it may answer now
        return true;
    case crawl::Outcome::HttpError:
        return status == 408 || status == 429 || (status >= 500 && status <= 599);
    case crawl::Outcome::Ok:
    case crawl::Outcome::TooLarge: // the same body will be too large again
    case crawl::Outcome::InvalidUrl:
    case crawl::Outcome::BlockedRobots: // the site's rules say no; asking again is not polite
    case crawl::Outcome::Excluded:      // the crawl's own scope: the same rule excludes it again
        return false;
    }
    return false;
}

bool wantsRetry(RetryScope scope, crawl::Outcome outcome, int status) {
    if (!crawl::isFailure(outcome) || outcome == crawl::Outcome::InvalidUrl)
        return false;
    return scope != RetryScope::Transient || isTransientFailure(outcome, status);
}

} // namespace ui
