// bench-crawlstore: the crawl store's hot path at scale (not a test). Inserts N URLs over H hosts, then
// drives it like the frontier will: eligible hosts -> chunks -> leases -> results in batches of 1,000.
// Prints one JSON object: rows/s per phase, the file size and the process's peak RSS.
//   bench-crawlstore [--urls N] [--hosts H] [--sync full] [--dir DIR]
#include "output/csvwriter.h"
#include "store/crawlstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstdio>
#include <sys/resource.h>

using namespace crawl;

namespace {

qint64 peakRssKb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

[[noreturn]] void die(const CrawlStore &store) {
    fprintf(stderr, "bench-crawlstore: %s\n", qPrintable(store.lastError().message));
    exit(1);
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const auto option = [&](const QString &name, const QString &fallback) {
        const qsizetype i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : fallback;
    };
    const qint64 urls = option(QStringLiteral("--urls"), QStringLiteral("1000000")).toLongLong();
    const qint64 hosts = option(QStringLiteral("--hosts"), QStringLiteral("100000")).toLongLong();
    StoreOptions options;
    if (option(QStringLiteral("--sync"), QStringLiteral("normal")) == QStringLiteral("full"))
        options.sync = StoreOptions::Sync::Full;
    QTemporaryDir tmp(option(QStringLiteral("--dir"), QDir::tempPath()) +
                      QStringLiteral("/bench-crawlstore-XXXXXX"));
    const QString path = tmp.filePath(QStringLiteral("crawl.db"));
    constexpr qint64 now = 1'800'000'000'000;
    constexpr int kBatch = 1000;

    StoreError error;
    auto store =
        CrawlStore::create(path, {{QStringLiteral("input"), QStringLiteral("bench")}}, &error, options);
    if (!store) {
        fprintf(stderr, "bench-crawlstore: %s\n", qPrintable(error.message));
        return 1;
    }
    QJsonObject out;
    out[QStringLiteral("urls")] = urls;
    out[QStringLiteral("hosts")] = hosts;
    out[QStringLiteral("sync")] =
        options.sync == StoreOptions::Sync::Full ? QStringLiteral("full") : QStringLiteral("normal");

    // 1. Input: URL i on host i % H (the interleaved worst case for host lookups), 10,000 lines a commit.
    QElapsedTimer timer;
    timer.start();
    QList<StoreInputLine> lines;
    for (qint64 i = 0; i < urls; ++i) {
        StoreInputLine line;
        line.lineNumber = i + 1;
        line.hostKey = QStringLiteral("host%1.example:443").arg(i % hosts);
        line.normalizedUrl = QStringLiteral("https://host%1.example/page/%2").arg(i % hosts).arg(i);
        lines.append(line);
        if (lines.size() == 10'000 || i + 1 == urls) {
            if (!store->appendInput(lines, now))
                die(*store);
            lines.clear();
        }
    }
    const double insertS = timer.nsecsElapsed() / 1e9;
    out[QStringLiteral("insert_rows_per_s")] = qRound64(urls / insertS);

    // 2. The frontier loop: up to 1,000 eligible hosts, a chunk of 10 from each, leased and finished in
    //    batches of 1,000 (one lease commit + one result commit per batch).
    qint64 leaseNs = 0, resultNs = 0, pickNs = 0, finished = 0, commits = 0;
    QElapsedTimer phase;
    CrawlResult result;
    result.status = 200;
    result.outcome = Outcome::Ok;
    result.attempts = 1;
    result.bytes = 5120;
    result.contentType = QStringLiteral("text/html; charset=utf-8");
    result.latencyMs = 35;
    result.ttfbMs = 12;
    result.startedAt = QDateTime::fromMSecsSinceEpoch(now, Qt::UTC);
    result.finishedAt = result.startedAt.addMSecs(35);
    timer.restart();
    for (;;) {
        phase.restart();
        QList<qint64> ids;
        for (const EligibleHost &host : store->hostsWithEligibleWork(now, kBatch)) {
            for (const PendingEntry &e : store->nextChunkForHost(host.hostKey, 10, now)) {
                ids.append(e.id);
                if (ids.size() == kBatch)
                    break;
            }
            if (ids.size() == kBatch)
                break;
        }
        pickNs += phase.nsecsElapsed();
        if (ids.isEmpty())
            break;
        phase.restart();
        if (store->markInFlight(ids, QStringLiteral("bench"), now + 60'000) != ids.size())
            die(*store);
        leaseNs += phase.nsecsElapsed();
        phase.restart();
        ResultBatch batch;
        batch.finished.reserve(ids.size());
        for (qint64 id : ids)
            batch.finished.append({id, result});
        if (!store->recordResults(batch))
            die(*store);
        resultNs += phase.nsecsElapsed();
        finished += ids.size();
        ++commits;
    }
    const double loopS = timer.nsecsElapsed() / 1e9;
    out[QStringLiteral("frontier_rows_per_s")] = qRound64(finished / loopS);
    out[QStringLiteral("pick_rows_per_s")] = qRound64(finished / (pickNs / 1e9));
    out[QStringLiteral("lease_rows_per_s")] = qRound64(finished / (leaseNs / 1e9));
    out[QStringLiteral("result_rows_per_s")] = qRound64(finished / (resultNs / 1e9));
    out[QStringLiteral("result_commit_ms_avg")] = resultNs / 1e6 / std::max<qint64>(1, commits);
    out[QStringLiteral("finished")] = finished;

    // 3. Export to CSV bytes (what --export and the CSV at exit do), then reopen + reclaim (--resume).
    timer.restart();
    qint64 rows = 0, csvBytes = 0;
    if (!store->exportRows([&](const CrawlResult &r) {
            csvBytes += resultCsvRow(r).size();
            ++rows;
            return true;
        }))
        die(*store);
    out[QStringLiteral("export_rows_per_s")] = qRound64(rows / (timer.nsecsElapsed() / 1e9));
    out[QStringLiteral("csv_bytes")] = csvBytes;
    store.reset();
    out[QStringLiteral("file_bytes")] = QFileInfo(path).size();
    timer.restart();
    store = CrawlStore::open(path, &error, options);
    if (!store || store->reclaimInFlight() < 0) {
        fprintf(stderr, "bench-crawlstore: %s\n", qPrintable(error.message));
        return 1;
    }
    out[QStringLiteral("reopen_ms")] = timer.elapsed();
    timer.restart();
    if (!store->verifyIntegrity())
        die(*store);
    out[QStringLiteral("quick_check_ms")] = timer.elapsed();
    out[QStringLiteral("peak_rss_mb")] = qRound64(peakRssKb() / 1024.0);
    printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Indented).constData());
    return finished == urls && rows == urls ? 0 : 1;
}
