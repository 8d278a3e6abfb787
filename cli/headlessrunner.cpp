#include "headlessrunner.h"

#include "engine/crawlengine.h"
#include "fileidentity.h"
#include "input/inputfingerprint.h"
#include "output/csvwriter.h"
#include "outputfiles.h"
#include "progressline.h"
#include "runsummary.h"
#include "signalwatcher.h"
#include "stderrline.h"

#include <QEventLoop>

#include <cstdlib>
#include <unistd.h>

namespace crawl {

namespace {
void printError(const QString &what) {
    printStderrLine(QStringLiteral("crawlscope: ") + what);
}

// After the crawl: the summary line, then the outputs put in place (or left as they were), then the code.
int finishRun(const CrawlSummary &summary, OutputFiles &outputs, qint64 rowsWritten, bool outputFailed,
              bool interrupted, const QString &journal) {
    printStderrLine(RunSummary::line(summary));
    QString error;
    if (!summary.journalError.isEmpty()) {
        printError(QStringLiteral("the crawl journal failed: %1; the crawl stopped. Every result committed "
                                  "before it is kept; free the space (or fix the file) and continue with "
                                  "--resume %2")
                       .arg(summary.journalError, journal));
        if (outputs.csv().commit(&error))
            return ExitOutputFailed;
        printError(error);
        outputs.discard();
        return ExitOutputFailed;
    }
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
    if (interrupted && !journal.isEmpty())
        printError(
            QStringLiteral("the crawl is journaled in %1: continue it with crawlscope --headless --resume "
                           "%1")
                .arg(journal));
    return interrupted ? ExitInterrupted : ExitOk;
}

// The journal must not be one of the run's other files (each would destroy the other).
QString journalConflict(const QString &journal, const InputSource &input, const QString &csvPath,
                        const QString &summaryPath) {
    if (journal.isEmpty())
        return {};
    const FileIdentity store = FileIdentity::ofPath(journal, STDIN_FILENO);
    if (input.kind == InputSource::Kind::File &&
        store.clashesWith(FileIdentity::ofPath(input.path, STDIN_FILENO)))
        return QStringLiteral("the crawl journal %1 is the input list; choose a new file for --store")
            .arg(journal);
    if (store.clashesWith(FileIdentity::ofPath(csvPath, STDOUT_FILENO)))
        return QStringLiteral("--output %1 is the crawl journal; writing it would destroy the crawl")
            .arg(csvPath);
    if (!summaryPath.isEmpty() && store.clashesWith(FileIdentity::ofPath(summaryPath, STDOUT_FILENO)))
        return QStringLiteral("--summary-json %1 is the crawl journal; writing it would destroy the crawl")
            .arg(summaryPath);
    return {};
}
// Why a resume must not read the stored list file as it is now (empty: it may). A crawl reads the lines
// it has not stored yet by line number, so an edited file would continue with other URLs.
QString inputChange(const QMap<QString, QString> &stored, bool acceptChange) {
    const std::optional<InputFingerprint> then =
        InputFingerprint::fromString(stored.value(InputFingerprint::kSettingsKey));
    if (!then)
        return {}; // a crawl journaled before fingerprints were kept
    const QString path = stored.value(journalkey::inputPath);
    QString unreadable;
    const std::optional<InputFingerprint> now = InputFingerprint::ofFile(path, &unreadable);
    if (!now)
        return {}; // the engine says whether it still needs the file
    const QString differences = InputFingerprint::differences(*then, *now);
    if (differences.isEmpty())
        return {};
    if (acceptChange) {
        printError(QStringLiteral("the list %1 changed since the crawl started (%2); continuing as asked "
                                  "(--input-changed ok)")
                       .arg(path, differences));
        return {};
    }
    return QStringLiteral("the list %1 changed since the crawl started (%2); its unread lines would be "
                          "taken from the changed file by line number. Restore the list, or continue anyway "
                          "with --input-changed ok")
        .arg(path, differences);
}
} // namespace

int runHeadless(const CommandLineOptions &options, const InputSource &input, const QString &defaultOutput) {
    // Every input is checked before any output is touched, and outputs are opened before the first
    // request: a crawl whose rows cannot be written should not start.
    QString error;
    CrawlJournal journal = CrawlJournal::temporary();
    InputSource listForChecks = input;
    if (!options.resume.isEmpty()) {
        journal = CrawlJournal::resumeFrom(options.resume);
        const QMap<QString, QString> stored = CrawlEngine::readJournalSettings(options.resume, &error);
        if (!error.isEmpty()) {
            printError(error);
            return ExitUsage;
        }
        if (stored.value(journalkey::inputKind) == QLatin1String("file")) {
            listForChecks = InputSource::fromFile(stored.value(journalkey::inputPath));
            error = inputChange(stored, options.inputChangedOk);
            if (!error.isEmpty()) {
                printError(error);
                return ExitUsage;
            }
        } else
            listForChecks = InputSource::fromText({});
    } else {
        if (!options.store.isEmpty()) {
            journal = CrawlJournal::create(options.store);
            QStringList withheld;
            journal.settings.insert(
                QStringLiteral("cli.arguments"),
                storableCrawlArguments(options.crawlArguments, &withheld).join(QLatin1Char('\n')));
            if (!withheld.isEmpty())
                journal.settings.insert(QString::fromLatin1(kWithheldHeadersKey),
                                        withheld.join(QLatin1Char('\n')));
            if (input.kind == InputSource::Kind::File) {
                QString unreadable;
                if (const auto print = InputFingerprint::ofFile(input.path, &unreadable))
                    journal.settings.insert(InputFingerprint::kSettingsKey, print->toString());
            }
        }
        if (!input.check(&error)) {
            printError(error);
            return ExitUsage;
        }
    }
    journal.sync = options.syncFull ? StoreOptions::Sync::Full : StoreOptions::Sync::Normal;
    const QString csvPath = options.output.isEmpty()
                                ? (defaultOutput.isEmpty() ? QStringLiteral("-") : defaultOutput)
                                : options.output;
    error = journalConflict(journal.path, listForChecks, csvPath, options.summaryJson);
    if (!error.isEmpty()) {
        printError(error);
        return ExitUsage;
    }
    OutputFiles outputs;
    if (!outputs.open(listForChecks, csvPath, options.summaryJson, &error)) {
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
        printError(journal.path.isEmpty()
                       ? QStringLiteral("interrupted; cancelling in-flight requests and writing the rest as "
                                        "cancelled (again to quit now)")
                       : QStringLiteral("interrupted; cancelling in-flight requests; unfinished URLs stay "
                                        "pending in %1 for --resume (again to quit now)")
                             .arg(journal.path));
        engine.stop();
    });

    if (!engine.start(input, journal, &error)) {
        printError(error);
        outputs.discard();
        const StoreError::Kind why = engine.journalFailure();
        return why == StoreError::Kind::DiskFull || why == StoreError::Kind::Io ? ExitOutputFailed
                                                                                : ExitUsage;
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
    return finishRun(summary, outputs, writer.rowsWritten(), outputFailed, interrupted, journal.path);
}

} // namespace crawl
