#pragma once
// Test fixture shared by the engine tests: a CrawlEngine with everything it emits captured, and the
// quick limits and policies the tests start from.

#include "engine/crawlengine.h"
#include "input/inputsource.h"
#include "input/urlnormalizer.h"

#include <QTest>

#include <algorithm>

namespace crawl::testing {

constexpr qint64 kNsPerMs = 1'000'000;

inline double nsToMs(qint64 ns) {
    return double(ns) / double(kNsPerMs);
}

// A crawl engine with everything it emits captured.
class Crawl {
public:
    Crawl() {
        QObject::connect(&engine, &CrawlEngine::resultsReady, &engine,
                         [this](const QList<CrawlResult> &batch) { results += batch; });
        QObject::connect(&engine, &CrawlEngine::finished, &engine, [this](const CrawlSummary &s) {
            ++finishedCount;
            summary = s;
        });
    }

    // The limits and the policy most tests start from, set before anything starts.
    Crawl(const CrawlLimits &limits, const FetchPolicy &policy)
        : Crawl() {
        engine.setLimits(limits);
        engine.setFetchPolicy(policy);
    }

    bool start(const QStringList &lines, QString *error) {
        return engine.start(InputSource::fromText(lines.join(QLatin1Char('\n')).toUtf8()), error);
    }
    bool waitFinished(int timeoutMs, int count = 1) {
        return QTest::qWaitFor([this, count] { return finishedCount >= count; }, timeoutMs);
    }
    // The result for an input URL (looked up by its normalized form); id 0 when absent.
    CrawlResult result(const QString &inputUrl) const {
        const QString key = normalizeUrl(inputUrl).text;
        CrawlResult found;
        for (const CrawlResult &r : results) {
            if (r.url == key)
                found = r; // the last one wins (retry() produces a newer result with the same id)
        }
        return found;
    }
    int count(Outcome outcome) const {
        return int(std::count_if(results.cbegin(), results.cend(),
                                 [outcome](const CrawlResult &r) { return r.outcome == outcome; }));
    }

    CrawlEngine engine;
    QList<CrawlResult> results;
    int finishedCount = 0;
    CrawlSummary summary;
};

#define START(crawl, lines)                                                                                  \
    do {                                                                                                     \
        QString startError_;                                                                                 \
        QVERIFY2((crawl).start(lines, &startError_), qPrintable(startError_));                               \
    } while (0)

inline CrawlLimits limitsOf(int global, int perHost, int intervalMs) {
    CrawlLimits limits;
    limits.globalInFlight = global;
    limits.perHostInFlight = perHost;
    limits.intervalMs = intervalMs;
    return limits;
}

// Quick failures by default so a test only waits where it means to.
inline FetchPolicy quickPolicy(int retries = 0, int backoffMs = 50) {
    FetchPolicy policy;
    policy.maxRetries = retries;
    policy.backoffBaseMs = backoffMs;
    policy.totalTimeoutS = 10;
    policy.idleTimeoutS = 5;
    policy.connectTimeoutS = 5;
    return policy;
}

} // namespace crawl::testing
