#include "headlessrunner.h"

#include "engine/crawlengine.h"
#include "output/csvwriter.h"
#include "outputfiles.h"
#include "progressline.h"
#include "runsummary.h"
#include "signalwatcher.h"
#include "stderrline.h"

#include <QEventLoop>

#include <cstdlib>

namespace crawl {

namespace {
void printError(const QString &what) {
    printStderrLine(QStringLiteral("crawlscope: ") + what);
}

// After the crawl: the summary line, then the outputs put in place (or left as they were), then the code.
int finishRun(const CrawlSummary &summary, OutputFiles &outputs, qint64 rowsWritten, bool outputFailed,
              bool interrupted) {
    printStderrLine(RunSummary::line(summary));
    QString error;
    if (outputFailed) {
        outputs.discard(); // a regular --output file keeps its previous content
        return ExitOutputFailed;
    }
    if (!outputs.csv().commit(&error)) {
        printError(error);
        outputs.discard();
        return ExitOutputFailed;
    }
    if (!outputs.csv().isStdout())
        printError(QStringLiteral("%1 rows written to %2").arg(rowsWritten).arg(outputs.csv().path()));
    if (OutputFile *json = outputs.summary(); json && !RunSummary::writeJson(summary, *json, &error)) {
        printError(error);
        return ExitOutputFailed;
    }
    if (!summary.inputError.isEmpty()) {
        printError(QStringLiteral("reading the input failed %1; the results cover only the lines before it")
                       .arg(summary.inputError));
        return ExitUsage;
    }
    return interrupted ? ExitInterrupted : ExitOk;
}
} // namespace

int runHeadless(const CommandLineOptions &options, const InputSource &input, const QString &defaultOutput) {
    // Every input is checked before any output is touched, and outputs are opened before the first
    // request: a crawl whose rows cannot be written should not start.
    QString error;
    if (!input.check(&error)) {
        printError(error);
        return ExitUsage;
    }
    const QString csvPath = options.output.isEmpty()
                                ? (defaultOutput.isEmpty() ? QStringLiteral("-") : defaultOutput)
                                : options.output;
    OutputFiles outputs;
    if (!outputs.open(input, csvPath, options.summaryJson, &error)) {
        printError(error);
        return ExitUsage;
    }

    CrawlEngine engine;
    engine.setFetchThreads(options.fetchThreads);
    engine.setLimits(options.limits);
    engine.setFetchPolicy(options.policy);
    engine.setCrawlQuality(options.quality);
    engine.setSnapshotIntervalMs(250);

    ResultCsvWriter writer(outputs.csv().device());
    ProgressLine progress(options.quiet);
    bool outputFailed = false;
    bool interrupted = false;
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
            // Stop fetching what could not be recorded.
            outputFailed = true;
            printError(QStringLiteral("cannot write results to %1: %2; stopping the crawl")
                           .arg(outputs.csv().displayName(), writer.errorString()));
            engine.stop();
        }
    });
    QObject::connect(&engine, &CrawlEngine::snapshotReady, &progress, &ProgressLine::update);
    // A host tripping or recovering is news even with --quiet: it explains slow hosts and skipped rows.
    QObject::connect(&engine, &CrawlEngine::hostBreakerChanged, &loop,
                     [](const BreakerEvent &event) { printError(breakerEventText(event)); });
    QObject::connect(&engine, &CrawlEngine::finished, &loop, [&](const CrawlSummary &s) {
        summary = s;
        loop.quit();
    });

    SignalWatcher signalWatcher(ExitInterrupted);
    QObject::connect(&signalWatcher, &SignalWatcher::interrupted, &loop, [&](int) {
        if (interrupted) {
            // A second signal: the user will not wait for the cancelled rows. Leave every output file
            // as it was before the run (rows already streamed to a pipe stay there).
            outputs.discard();
            printError(QStringLiteral("interrupted again; exiting now, no output file was replaced"));
            std::_Exit(ExitInterrupted);
        }
        interrupted = true;
        printError(QStringLiteral("interrupted; cancelling in-flight requests and writing the rest as "
                                  "cancelled (again to quit now)"));
        engine.stop();
    });

    if (!engine.start(input, &error)) {
        printError(error);
        return ExitUsage;
    }
    // Results arrive through the event loop, so the header is written before any row.
    if (!writer.writeHeader() || !writer.flush()) {
        printError(
            QStringLiteral("cannot write %1: %2").arg(outputs.csv().displayName(), writer.errorString()));
        return ExitOutputFailed;
    }
    progress.start();
    loop.exec();
    progress.finish(summary.last);
    return finishRun(summary, outputs, writer.rowsWritten(), outputFailed, interrupted);
}

} // namespace crawl
