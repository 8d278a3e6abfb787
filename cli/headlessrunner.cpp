#include "headlessrunner.h"

#include "engine/crawlengine.h"
#include "output/csvwriter.h"
#include "output/summaryjson.h"
#include "signalwatcher.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTimer>

#include <cstdio>

namespace crawl {

namespace {

QString formatDuration(qint64 ms) {
    if (ms < 0)
        return QStringLiteral("?");
    const qint64 s = ms / 1000;
    if (s >= 3600)
        return QStringLiteral("%1h%2m").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    if (s >= 60)
        return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1s").arg(s);
}

void printErr(const QString &line) {
    const QByteArray bytes = line.toLocal8Bit() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

QString progressLine(const CrawlSnapshot &s) {
    const QString total = s.total >= 0 ? QString::number(s.total) : QStringLiteral("?");
    const QString percent =
        s.total > 0 ? QStringLiteral(" (%1%)").arg(100.0 * double(s.done) / double(s.total), 0, 'f', 1)
                    : QString();
    return QStringLiteral("[%1] %2/%3%4  %5/s  in-flight %6  queued %7  failed %8  retries %9  ETA %10")
        .arg(formatDuration(s.elapsedMs), QString::number(s.done), total, percent)
        .arg(s.throughputPerSec, 0, 'f', 1)
        .arg(s.inFlight)
        .arg(s.queued)
        .arg(s.failed)
        .arg(s.retries)
        .arg(s.state == CrawlState::Finished ? QStringLiteral("0s") : formatDuration(s.etaMs));
}

} // namespace

int runHeadless(const CommandLineOptions &options, const InputSource &input, const QString &defaultOutput) {
    // Output first: a crawl whose rows cannot be written should not start.
    const QString outputPath = options.output.isEmpty()
                                   ? (defaultOutput.isEmpty() ? QStringLiteral("-") : defaultOutput)
                                   : options.output;
    QFile output;
    const bool toStdout = outputPath == QLatin1String("-");
    if (toStdout
            ? !output.open(stdout, QIODevice::WriteOnly)
            : !(output.setFileName(outputPath), output.open(QIODevice::WriteOnly | QIODevice::Truncate))) {
        printErr(
            QStringLiteral("crawlscope: cannot write output %1: %2").arg(outputPath, output.errorString()));
        return ExitUsage;
    }

    CrawlEngine engine;
    engine.setFetchThreads(options.fetchThreads);
    engine.setLimits(options.limits);
    engine.setFetchPolicy(options.policy);
    engine.setSnapshotIntervalMs(250);

    ResultCsvWriter writer(&output);
    bool outputFailed = false;
    bool interrupted = false;
    CrawlSnapshot latest;
    CrawlSummary summary;
    QEventLoop loop;

    QObject::connect(&engine, &CrawlEngine::resultsReady, &loop, [&](const QList<CrawlResult> &results) {
        if (outputFailed)
            return;
        for (const CrawlResult &result : results) {
            if (!writer.write(result))
                break;
        }
        if (!writer.flush() || !writer.errorString().isEmpty()) {
            // Stop fetching what could not be recorded; rows already written stay complete.
            outputFailed = true;
            printErr(QStringLiteral(
                         "crawlscope: cannot write results to %1: %2; stopping the crawl (%3 rows written)")
                         .arg(toStdout ? QStringLiteral("stdout") : outputPath, writer.errorString())
                         .arg(writer.rowsWritten()));
            engine.stop();
        }
    });
    QObject::connect(&engine, &CrawlEngine::snapshotReady, &loop,
                     [&](const CrawlSnapshot &snapshot) { latest = snapshot; });
    QObject::connect(&engine, &CrawlEngine::finished, &loop, [&](const CrawlSummary &s) {
        summary = s;
        loop.quit();
    });

    QTimer progress;
    progress.setInterval(1000);
    QObject::connect(&progress, &QTimer::timeout, &loop, [&] {
        if (!options.quiet)
            printErr(progressLine(latest));
    });

    SignalWatcher signalWatcher;
    QObject::connect(&signalWatcher, &SignalWatcher::interrupted, &loop, [&](int) {
        if (!interrupted)
            printErr(QStringLiteral(
                "crawlscope: interrupted; cancelling in-flight requests and writing the rest as cancelled"));
        interrupted = true;
        engine.stop();
    });

    QString error;
    if (!engine.start(input, &error)) {
        printErr(QStringLiteral("crawlscope: %1").arg(error));
        return ExitUsage;
    }
    // Results arrive through the event loop, so the header is written before any row.
    if (!writer.writeHeader() || !writer.flush()) {
        printErr(
            QStringLiteral("crawlscope: cannot write output %1: %2").arg(outputPath, writer.errorString()));
        return ExitOutputFailed;
    }
    progress.start();
    loop.exec();
    progress.stop();
    output.close();

    const CrawlSnapshot &s = summary.last;
    if (!options.quiet)
        printErr(progressLine(s));
    QStringList outcomes;
    for (int i = 0; i < kOutcomeCount; ++i) {
        if (s.byOutcome[size_t(i)] > 0)
            outcomes << QStringLiteral("%1 %2")
                            .arg(outcomeName(static_cast<Outcome>(i)))
                            .arg(s.byOutcome[size_t(i)]);
    }
    const double seconds = double(s.elapsedMs) / 1000.0;
    printErr(
        QStringLiteral(
            "crawlscope: %1 %2 URLs in %3 s (%4/s): %5; %6 duplicates skipped; %7 retries, %8 x 429; "
            "latency p50 %9 ms")
            .arg(summary.stoppedByUser ? QStringLiteral("stopped after") : QStringLiteral("finished"))
            .arg(s.done)
            .arg(seconds, 0, 'f', 1)
            .arg(seconds > 0 ? double(s.done) / seconds : 0.0, 0, 'f', 1)
            .arg(outcomes.isEmpty() ? QStringLiteral("nothing to do") : outcomes.join(QStringLiteral(", ")))
            .arg(s.duplicates)
            .arg(s.retries)
            .arg(s.status429)
            .arg(s.p50Ms) +
        QStringLiteral(", p95 %1 ms, p99 %2 ms").arg(s.p95Ms).arg(s.p99Ms));
    if (!toStdout && !outputFailed)
        printErr(
            QStringLiteral("crawlscope: %1 rows written to %2").arg(writer.rowsWritten()).arg(outputPath));

    if (!options.summaryJson.isEmpty()) {
        QSaveFile json(options.summaryJson);
        if (!json.open(QIODevice::WriteOnly) ||
            json.write(QJsonDocument(summaryToJson(summary)).toJson()) < 0 || !json.commit()) {
            printErr(QStringLiteral("crawlscope: cannot write summary %1: %2")
                         .arg(options.summaryJson, json.errorString()));
            return ExitOutputFailed;
        }
    }
    if (outputFailed)
        return ExitOutputFailed;
    return interrupted ? ExitInterrupted : ExitOk;
}

} // namespace crawl
