#include "output/summaryjson.h"

#include <QJsonArray>

namespace crawl {

QJsonObject summaryToJson(const CrawlSummary &summary) {
    const CrawlSnapshot &s = summary.last;
    QJsonObject outcomes;
    for (int i = 0; i < kOutcomeCount; ++i)
        outcomes.insert(outcomeName(static_cast<Outcome>(i)), double(s.byOutcome[size_t(i)]));

    QJsonArray hosts;
    for (const HostSnapshot &h : s.hosts) {
        hosts.append(QJsonObject{
            {QStringLiteral("host"), h.host},
            {QStringLiteral("done"), double(h.done)},
            {QStringLiteral("ok"), double(h.ok)},
            {QStringLiteral("failed"), double(h.failed)},
            {QStringLiteral("requests"), double(h.started)},
            {QStringLiteral("retries"), double(h.retries)},
            {QStringLiteral("status_429"), double(h.status429)},
            {QStringLiteral("p50_ms"), h.p50Ms},
            {QStringLiteral("p95_ms"), h.p95Ms},
            {QStringLiteral("p99_ms"), h.p99Ms},
            {QStringLiteral("max_in_flight"), h.maxInFlight},
            {QStringLiteral("interval_ms"), h.intervalMs},
            {QStringLiteral("breaker_state"), breakerStateName(h.breakerState)},
            {QStringLiteral("breaker_trips"), double(h.breakerTrips)},
            {QStringLiteral("breaker_recoveries"), double(h.breakerRecoveries)},
            {QStringLiteral("effective_max_in_flight"), h.effectiveMaxInFlight},
            {QStringLiteral("effective_interval_ms"), h.effectiveIntervalMs},
            {QStringLiteral("accepted"), double(h.accepted)},
            {QStringLiteral("robots"), h.robotsStatus},
            {QStringLiteral("interval_reason"), h.intervalReason},
        });
    }
    const double seconds = double(s.elapsedMs) / 1000.0;
    return QJsonObject{
        {QStringLiteral("state"), crawlStateName(s.state)},
        {QStringLiteral("stopped_by_user"), summary.stoppedByUser},
        {QStringLiteral("elapsed_ms"), double(s.elapsedMs)},
        {QStringLiteral("total"), double(s.total)},
        {QStringLiteral("done"), double(s.done)},
        {QStringLiteral("ok"), double(s.ok)},
        {QStringLiteral("failed"), double(s.failed)},
        {QStringLiteral("invalid"), double(s.invalid)},
        {QStringLiteral("duplicates"), double(s.duplicates)},
        {QStringLiteral("retries"), double(s.retries)},
        {QStringLiteral("status_429"), double(s.status429)},
        {QStringLiteral("responses"), double(s.rawResponses)},
        // Raw vs accepted: a 200 is not a success until the acceptance checks pass.
        {QStringLiteral("accepted"), double(s.accepted)},
        {QStringLiteral("rejected"), double(s.rejected)},
        {QStringLiteral("yield"), s.ok > 0 ? double(s.accepted) / double(s.ok) : 0.0},
        {QStringLiteral("accepted_per_sec"), seconds > 0 ? double(s.accepted) / seconds : 0.0},
        {QStringLiteral("results_per_sec"), seconds > 0 ? double(s.done) / seconds : 0.0},
        {QStringLiteral("p50_ms"), s.p50Ms},
        {QStringLiteral("p95_ms"), s.p95Ms},
        {QStringLiteral("p99_ms"), s.p99Ms},
        {QStringLiteral("outcomes"), outcomes},
        {QStringLiteral("breaker"),
         QJsonObject{
             {QStringLiteral("trips"), double(s.breakerTrips)},
             {QStringLiteral("recoveries"), double(s.breakerRecoveries)},
             {QStringLiteral("hosts_given_up"), double(s.hostsGivenUp)},
             {QStringLiteral("hosts_tripped"), double(s.hostsTripped)},
         }},
        {QStringLiteral("hosts"), hosts},
    };
}

} // namespace crawl
