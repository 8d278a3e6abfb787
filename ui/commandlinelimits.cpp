#include "commandlinelimits.h"

namespace ui {

void applyCommandLineFlags(const QStringList &flags, const crawl::CrawlLimits &gl,
                           const crawl::FetchPolicy &gp, crawl::CrawlLimits *l, crawl::FetchPolicy *p) {
    const auto given = [&flags](const char *flag) { return flags.contains(QLatin1String(flag)); };
    if (given("concurrency"))
        l->globalInFlight = gl.globalInFlight;
    if (given("per-host"))
        l->perHostInFlight = gl.perHostInFlight;
    if (given("interval-ms"))
        l->intervalMs = gl.intervalMs;
    if (given("jitter"))
        l->jitter = gl.jitter;
    if (given("max-rate"))
        l->maxRatePerSec = gl.maxRatePerSec;
    if (given("host-limit")) {
        for (auto it = gl.hostOverrides.cbegin(); it != gl.hostOverrides.cend(); ++it)
            l->hostOverrides.insert(it.key(), it.value());
    }
    if (given("retries"))
        p->maxRetries = gp.maxRetries;
    if (given("backoff-ms"))
        p->backoffBaseMs = gp.backoffBaseMs;
    if (given("max-retry-after"))
        p->maxRetryAfterS = gp.maxRetryAfterS;
    if (given("max-url-time"))
        p->maxUrlTimeS = gp.maxUrlTimeS;
    if (given("timeout"))
        p->totalTimeoutS = gp.totalTimeoutS;
    if (given("connect-timeout"))
        p->connectTimeoutS = gp.connectTimeoutS;
    if (given("idle-timeout"))
        p->idleTimeoutS = gp.idleTimeoutS;
    if (given("max-bytes"))
        p->maxBodyBytes = gp.maxBodyBytes;
    if (given("max-redirects"))
        p->maxRedirects = gp.maxRedirects;
    if (given("user-agent"))
        p->userAgent = gp.userAgent;
    if (given("header"))
        p->headers = gp.headers;
    if (given("adaptive"))
        l->adaptive = gl.adaptive;
    if (given("breaker-window"))
        p->breaker.window = gp.breaker.window;
    if (given("breaker-threshold"))
        p->breaker.threshold = gp.breaker.threshold;
    if (given("breaker-cooldown"))
        p->breaker.cooldownS = gp.breaker.cooldownS;
    if (given("breaker-give-up"))
        p->breaker.giveUpS = gp.breaker.giveUpS;
    if (given("no-breaker"))
        p->breaker.enabled = gp.breaker.enabled;
}

} // namespace ui
