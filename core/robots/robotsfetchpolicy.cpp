#include "robots/robotsfetchpolicy.h"

#include <algorithm>

namespace crawl {

RobotsFetchDecision decideRobotsFetch(int httpStatus, bool tooManyRedirects, int attempt,
                                      const RobotsRetrySettings &settings) {
    RobotsFetchDecision decision;
    if (tooManyRedirects) {
        decision.action = RobotsFetchDecision::Action::AllowAll;
        decision.reason = QStringLiteral("robots.txt: too many redirects, treated as absent");
        return decision;
    }
    if (httpStatus >= 200 && httpStatus <= 299) {
        decision.action = RobotsFetchDecision::Action::Parse;
        return decision;
    }
    if (httpStatus >= 400 && httpStatus <= 499 && httpStatus != 429) {
        decision.action = RobotsFetchDecision::Action::AllowAll;
        decision.reason = QStringLiteral("robots.txt: HTTP %1, treated as absent").arg(httpStatus);
        return decision;
    }
    decision.action = RobotsFetchDecision::Action::DisallowAll;
    const QString what = httpStatus == 0 ? QStringLiteral("robots.txt: no response")
                                         : QStringLiteral("robots.txt: HTTP %1").arg(httpStatus);
    const int maxAttempts = std::max(1, settings.maxAttempts);
    const int done = std::clamp(attempt, 1, maxAttempts);
    decision.retry = attempt < maxAttempts;
    if (!decision.retry) {
        decision.reason = QStringLiteral("%1 after %2 attempts, host not crawled").arg(what).arg(done);
        return decision;
    }
    qint64 delay = std::max(0, settings.baseDelayMs);
    for (int i = 1; i < done && delay < settings.maxDelayMs; ++i)
        delay *= 2;
    decision.retryDelayMs = std::min<qint64>(delay, std::max(0, settings.maxDelayMs));
    decision.reason = QStringLiteral("%1 (retry %2 of %3 in %4 s)")
                          .arg(what)
                          .arg(done)
                          .arg(maxAttempts - 1)
                          .arg(double(decision.retryDelayMs) / 1000.0);
    return decision;
}

} // namespace crawl
