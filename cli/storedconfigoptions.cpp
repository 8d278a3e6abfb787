#include "storedconfigoptions.h"

namespace crawl {

CommandLineOptions withStoredCrawlConfig(const CommandLineOptions &given, const StoredCrawlConfig &stored) {
    CommandLineOptions o = given;
    const auto typed = [&](const char *flag) { return given.explicitFlags.contains(QLatin1String(flag)); };
    // The stored value, unless its flag was given now.
    const auto take = [&](const char *flag, auto &field, const auto &storedValue) {
        if (!typed(flag))
            field = storedValue;
    };
    const CrawlLimits &l = stored.limits;
    take("concurrency", o.limits.globalInFlight, l.globalInFlight);
    take("per-host", o.limits.perHostInFlight, l.perHostInFlight);
    take("interval-ms", o.limits.intervalMs, l.intervalMs);
    take("jitter", o.limits.jitter, l.jitter);
    take("max-rate", o.limits.maxRatePerSec, l.maxRatePerSec);
    take("host-limit", o.limits.hostOverrides, l.hostOverrides); // given now: replaces all stored ones
    // Switches: the stored state unless the command line turns it on or off.
    o.limits.adaptive = typed("no-adaptive") ? false : (given.limits.adaptive || l.adaptive);

    const FetchPolicy &p = stored.policy;
    take("retries", o.policy.maxRetries, p.maxRetries);
    take("backoff-ms", o.policy.backoffBaseMs, p.backoffBaseMs);
    o.policy.backoffCapMs = p.backoffCapMs; // no flag sets these three
    o.policy.breaker.windowS = p.breaker.windowS;
    o.policy.breaker.cooldownCapFactor = p.breaker.cooldownCapFactor;
    take("max-retry-after", o.policy.maxRetryAfterS, p.maxRetryAfterS);
    take("max-url-time", o.policy.maxUrlTimeS, p.maxUrlTimeS);
    take("timeout", o.policy.totalTimeoutS, p.totalTimeoutS);
    take("connect-timeout", o.policy.connectTimeoutS, p.connectTimeoutS);
    take("idle-timeout", o.policy.idleTimeoutS, p.idleTimeoutS);
    take("max-bytes", o.policy.maxBodyBytes, p.maxBodyBytes);
    take("max-redirects", o.policy.maxRedirects, p.maxRedirects);
    take("user-agent", o.policy.userAgent, p.userAgent);
    take("header", o.policy.headers, p.headers); // stored ones hold no credentials (StoredCrawlConfig)
    take("breaker-window", o.policy.breaker.window, p.breaker.window);
    take("breaker-threshold", o.policy.breaker.threshold, p.breaker.threshold);
    take("breaker-cooldown", o.policy.breaker.cooldownS, p.breaker.cooldownS);
    take("breaker-give-up", o.policy.breaker.giveUpS, p.breaker.giveUpS);
    o.policy.breaker.enabled = typed("breaker") || (p.breaker.enabled && !typed("no-breaker"));
    o.policy.keepStricterRedirectSafety(p); // o.policy holds the command line's: the stricter of the two

    take("robots", o.quality.robots, stored.robots);
    if (!stored.robotsAgent.isEmpty())
        take("robots-agent", o.quality.robotsAgent, stored.robotsAgent);
    o.quality.ignoreCrawlDelay = given.quality.ignoreCrawlDelay || stored.ignoreCrawlDelay;
    if (!stored.hasRules) // a record from before version 2: the command line's own rules
        return o;

    // Scope: each of --include, --exclude and --allow-hosts given now replaces its stored part.
    const ScopeRules &now = given.quality.scope;
    const ScopeRules &kept = stored.scope;
    ScopeRules scope;
    // The patterns were compiled once already (by the parser or by the record's reader): no error here.
    for (const QString &pattern : (typed("include") ? now : kept).includePatterns())
        scope.addInclude(pattern);
    for (const QString &pattern : (typed("exclude") ? now : kept).excludePatterns())
        scope.addExclude(pattern);
    const ScopeRules &hosts = typed("allow-hosts") ? now : kept;
    if (hosts.restrictsHosts())
        scope.setAllowedHosts(hosts.allowedHostsText(), hosts.allowedHostsFileName());
    o.quality.scope = scope;

    const AcceptanceCriteria &a = stored.acceptance;
    AcceptanceCriteria &to = o.quality.acceptance;
    take("expect-status", to.statuses, a.statuses);
    take("expect-type", to.contentTypes, a.contentTypes);
    take("expect-text", to.expectedText, a.expectedText);
    take("expect-regex", to.expectedRegex, a.expectedRegex);
    to.expectTitle = given.quality.acceptance.expectTitle || a.expectTitle;
    take("min-bytes", to.minBytes, a.minBytes);
    take("soft-404", to.soft404, a.soft404);
    take("soft-404-pattern", to.soft404Pattern, a.soft404Pattern);
    to.bodyPrefixBytes = a.bodyPrefixBytes;
    return o;
}

} // namespace crawl
