#include "runsummary.h"

#include "output/summaryjson.h"
#include "outputfile.h"

#include <QIODevice>
#include <QJsonDocument>
#include <QStringList>

namespace crawl {

QString RunSummary::line(const CrawlSummary &summary) {
    const CrawlSnapshot &s = summary.last;
    QStringList outcomes;
    for (int i = 0; i < kOutcomeCount; ++i) {
        if (s.byOutcome[size_t(i)] > 0)
            outcomes << QStringLiteral("%1 %2")
                            .arg(outcomeName(static_cast<Outcome>(i)))
                            .arg(s.byOutcome[size_t(i)]);
    }
    const double seconds = double(s.elapsedMs) / 1000.0;
    return QStringLiteral(
               "crawlscope: %1 %2 URLs in %3 s (%4/s): %5; %6 duplicates skipped; %7 retries, %8 x 429; "
               "%9")
               .arg(summary.stoppedByUser ? QStringLiteral("stopped after") : QStringLiteral("finished"))
               .arg(s.done)
               .arg(seconds, 0, 'f', 1)
               .arg(seconds > 0 ? double(s.done) / seconds : 0.0, 0, 'f', 1)
               .arg(outcomes.isEmpty() ? QStringLiteral("nothing to do")
                                       : outcomes.join(QStringLiteral(", ")))
               .arg(s.duplicates)
               .arg(s.retries)
               .arg(s.status429)
               .arg(s.p50Ms < 0 ? QStringLiteral("no latency (nothing was fetched)")
                                : QStringLiteral("latency p50 %1 ms, p95 %2 ms, p99 %3 ms")
                                      .arg(s.p50Ms)
                                      .arg(s.p95Ms)
                                      .arg(s.p99Ms)) +
           (s.breakerTrips > 0
                ? QStringLiteral("; circuit breaker: %1 trips, %2 recoveries, %3 hosts given up")
                      .arg(s.breakerTrips)
                      .arg(s.breakerRecoveries)
                      .arg(s.hostsGivenUp)
                : QString());
}

bool RunSummary::writeJson(const CrawlSummary &summary, OutputFile &file, QString *error) {
    const QByteArray json = QJsonDocument(summaryToJson(summary)).toJson();
    if (file.device()->write(json) != json.size()) {
        *error = QStringLiteral("cannot write %1: %2").arg(file.displayName(), file.device()->errorString());
        file.discard();
        return false;
    }
    return file.commit(error);
}

} // namespace crawl
