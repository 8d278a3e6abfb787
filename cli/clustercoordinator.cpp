#include "clustercoordinator.h"

#include "cluster/clusterhostbudget.h"
#include "cluster/clusterlimits.h"
#include "cluster/clusterqueue.h"
#include "cluster/clusterresultcodec.h"
#include "cluster/redisconnection.h"
#include "clusterlistcheck.h"
#include "clusterstorewriter.h"
#include "frontier/crawljournal.h"
#include "headlessrunner.h"
#include "input/streamdevice.h"
#include "input/urllistreader.h"
#include "output/csvwriter.h"
#include "outputfiles.h"
#include "runsummary.h"
#include "signalwatcher.h"
#include "stderrline.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>
#include <QStringList>

#include <utility>

namespace crawl {

namespace {

constexpr int kTickMs = 50;
constexpr int kEnqueueBatch = 500;
constexpr int kLinesPerTick = 5000;
constexpr int kResultsPerRead = 1000;
// A coordinator that cannot reach Redis says so at once, retries this often, and gives up after the budget
// (exit 1): unlike a worker, it has a user waiting for a CSV.
constexpr int kConnectRetryMs = 500;
constexpr qint64 kConnectBudgetMs = 10000;

void say(const QString &what) {
    printStderrLine(QStringLiteral("crawlscope: ") + what);
}

std::optional<RedisUrl> parseClusterUrl(const QString &text) {
    const RedisUrlParse url = parseRedisUrl(text, RedisUrlEnvironment::fromProcess());
    if (!url.error.isEmpty()) {
        say(QStringLiteral("--cluster: %1").arg(url.error));
        return std::nullopt;
    }
    return url.url;
}

bool applyLimits(ClusterHostBudget &budget, const CommandLineOptions &options, const ClusterLimits &base,
                 const QStringList &given, qint64 *version) {
    const std::optional<qint64> set =
        budget.setLimits(clusterLimitsFor(options.limits, options.policy, base, given));
    if (!set)
        return false;
    *version = *set;
    if (given.isEmpty() || given.contains(QLatin1String("host-limit"))) {
        const QHash<QString, ClusterHostOverride> overrides = clusterHostOverridesFor(options.limits);
        for (auto it = overrides.cbegin(); it != overrides.cend(); ++it) {
            const std::optional<qint64> v = budget.setHostOverride(it.key(), it->inFlight, it->intervalMs);
            if (!v)
                return false;
            *version = *v;
        }
    }
    return true;
}

} // namespace

ClusterCoordinator::ClusterCoordinator(const CommandLineOptions &options, const RedisUrl &url,
                                       QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_url(url) {
    m_tickTimer.setInterval(kTickMs);
    connect(&m_tickTimer, &QTimer::timeout, this, &ClusterCoordinator::tick);
}

ClusterCoordinator::~ClusterCoordinator() = default;

int ClusterCoordinator::run(const InputSource &input) {
    QString error;
    if (!input.check(&error)) {
        say(error);
        return ExitUsage;
    }
    const QString csvPath = m_options.output.isEmpty() ? QStringLiteral("-") : m_options.output;
    m_outputs = std::make_unique<OutputFiles>();
    if (!m_outputs->open(input, csvPath, m_options.summaryJson, &error)) {
        say(error);
        return ExitUsage;
    }
    m_inputDevice = input.open(&error);
    if (!m_inputDevice) {
        say(error);
        m_outputs->discard();
        return ExitUsage;
    }
    m_reader = std::make_unique<UrlListReader>(m_inputDevice.get());
    // A pipe is read without blocking: its notifier must run, or no line would ever arrive (the tick timer
    // reads whatever has come in).
    if (auto *stream = qobject_cast<StreamDevice *>(m_inputDevice.get()))
        stream->startReading();

    RedisConnection::Options connectionOptions;
    connectionOptions.clientName = "coordinator-" + m_options.crawlName.toUtf8();
    m_connection = std::make_unique<RedisConnection>(m_url, connectionOptions);
    m_inputName = input.displayName();
    m_resuming = !m_options.resume.isEmpty();
    if (m_options.input != QLatin1String("-")) {
        m_inputBytes = QString::number(QFileInfo(m_options.input).size());
        m_inputPrint = InputFingerprint::ofFile(m_options.input, &error);
        if (!m_inputPrint) {
            say(error);
            m_outputs->discard();
            return ExitUsage;
        }
    }
    if (!m_options.store.isEmpty() && !openStore(&error)) {
        say(error);
        m_outputs->discard();
        return ExitUsage;
    }

    // Installed before the first connection attempt: a signal while Redis is unreachable ends the process
    // as cleanly as one later (the connection is tried from the event loop, never in one long block).
    SignalWatcher watcher(ExitInterrupted);
    connect(&watcher, &SignalWatcher::interrupted, this, [this](int) {
        if (m_interrupted)
            return;
        m_interrupted = true;
        if (!m_writer) {
            say(QStringLiteral("interrupted before the crawl was created at %1; nothing was written")
                    .arg(m_url.redacted()));
            m_discardOutput = true;
        } else {
            say(QStringLiteral("interrupted; writing the %1 rows collected so far (the crawl stays in Redis: "
                               "its workers go on; continue collecting with --resume %2)")
                    .arg(m_writer->rowsWritten())
                    .arg(m_options.crawlName));
        }
        end(ExitInterrupted);
    });
    QEventLoop loop;
    m_loop = &loop;
    m_connectTimer.setInterval(kConnectRetryMs);
    connect(&m_connectTimer, &QTimer::timeout, this, &ClusterCoordinator::tryToConnect);
    m_sinceConnecting.start();
    QMetaObject::invokeMethod(this, &ClusterCoordinator::tryToConnect, Qt::QueuedConnection);
    loop.exec();
    m_loop = nullptr;
    m_connectTimer.stop();

    if (m_store && m_discardOutput && !m_resuming)
        m_store->discard(); // the shared crawl it was for was never created
    if (m_discardOutput || (m_exitCode == ExitOutputFailed && !m_crawlLost) || m_exitCode == ExitUsage) {
        m_outputs->discard();
        return m_exitCode;
    }
    if (!m_outputs->csv().commit(&error)) {
        say(error);
        m_outputs->discard();
        return ExitOutputFailed;
    }
    if (!m_outputs->csv().isStdout())
        say(QStringLiteral("%1 rows written to %2")
                .arg(m_writer->rowsWritten())
                .arg(m_outputs->csv().path()));
    if (OutputFile *json = m_outputs->summary()) {
        const CrawlSummary summary =
            m_tally.summary(m_sinceConnecting.elapsed(), m_duplicates, m_options.limits, m_interrupted);
        if (!RunSummary::writeJson(summary, *json, &error)) {
            say(error);
            return ExitOutputFailed;
        }
    }
    if (m_exitCode == ExitOk && m_store &&
        !m_store->setSetting(journalkey::inputComplete, QStringLiteral("1")))
        say(QStringLiteral("%1: %2").arg(m_store->path(), m_store->lastError()));
    if (m_exitCode == ExitOk) {
        // Every row is in the committed CSV: the stream can go, and a --resume has nothing left to do.
        if (!m_queue->setSetting(QStringLiteral("collected"), QStringLiteral("1")) ||
            (!m_lastStreamId.isEmpty() && m_queue->trimResults(m_lastStreamId) < 0))
            say(QStringLiteral("the CSV is complete, but Redis at %1 could not be told: %2")
                    .arg(m_url.redacted(), m_queue->lastError()));
    }
    if (m_repeatedResults > 0)
        say(QStringLiteral("%1 repeated results were dropped (one row per URL kept)").arg(m_repeatedResults));
    return m_exitCode;
}

bool ClusterCoordinator::openStore(QString *error) {
    const StoreOptions::Sync sync =
        m_options.syncFull ? StoreOptions::Sync::Full : StoreOptions::Sync::Normal;
    if (m_resuming) {
        // The crawl file the interrupted coordinator wrote: its lines stay, its unfinished URLs get their
        // rows.
        m_store = ClusterStoreWriter::open(m_options.store, sync, error);
        return m_store != nullptr;
    }
    QStringList withheld;
    QMap<QString, QString> settings{
        {QStringLiteral("cli.arguments"),
         storableCrawlArguments(m_options.crawlArguments, &withheld).join(QLatin1Char('\n'))},
        {QStringLiteral("cluster.crawl"), m_options.crawlName},
        {QStringLiteral("cluster.url"), m_url.redacted()},
        {journalkey::inputKind,
         m_options.input == QLatin1String("-") ? QStringLiteral("stdin") : QStringLiteral("file")},
        {journalkey::createdAt, QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
    if (m_options.input != QLatin1String("-"))
        settings.insert(journalkey::inputPath, QFileInfo(m_options.input).absoluteFilePath());
    if (m_inputPrint)
        settings.insert(InputFingerprint::kSettingsKey, m_inputPrint->toString());
    if (!withheld.isEmpty())
        settings.insert(QString::fromLatin1(kWithheldHeadersKey), withheld.join(QLatin1Char('\n')));
    m_store = ClusterStoreWriter::create(m_options.store, settings, sync, error);
    return m_store != nullptr;
}

void ClusterCoordinator::tryToConnect() {
    if (!m_loop || m_exitCode != 0 || m_interrupted)
        return;
    if (m_connection->connectOnce()) {
        m_connectTimer.stop();
        if (m_saidUnreachable)
            say(QStringLiteral("reached Redis at %1").arg(m_url.redacted()));
        startCrawl();
        return;
    }
    if (m_connection->lastFailureIsPermanent()) { // AUTH or SELECT refused: waiting will not fix it
        say(QStringLiteral("cannot use Redis at %1: %2").arg(m_url.redacted(), m_connection->lastError()));
        m_discardOutput = true;
        end(ExitUsage);
        return;
    }
    if (m_sinceConnecting.elapsed() >= kConnectBudgetMs) {
        say(QStringLiteral("cannot reach Redis at %1 after %2 s (%3); giving up, nothing was created")
                .arg(m_url.redacted())
                .arg(kConnectBudgetMs / 1000)
                .arg(m_connection->lastError()));
        m_discardOutput = true;
        end(ExitOutputFailed);
        return;
    }
    if (!m_saidUnreachable) {
        // Said at once: a wrong port or a stopped server should not look like a hang.
        say(QStringLiteral("cannot reach Redis at %1 (%2); retrying for up to %3 s...")
                .arg(m_url.redacted(), m_connection->lastError())
                .arg(kConnectBudgetMs / 1000));
        m_saidUnreachable = true;
    }
    if (!m_connectTimer.isActive())
        m_connectTimer.start();
}

bool ClusterCoordinator::resumeCrawl() {
    if (!m_queue->crawlExists()) {
        say(m_queue->lastError().isEmpty()
                ? QStringLiteral("no crawl named \"%1\" in %2: nothing to resume")
                      .arg(m_options.crawlName, m_url.redacted())
                : QStringLiteral("Redis at %1: %2").arg(m_url.redacted(), m_queue->lastError()));
        return false;
    }
    const QMap<QString, QString> settings = m_queue->settings();
    if (settings.value(QStringLiteral("collected")) == QLatin1String("1")) {
        say(QStringLiteral("crawl \"%1\" is finished and its coordinator wrote every row already: nothing to "
                           "resume")
                .arg(m_options.crawlName));
        return false;
    }
    const ClusterListCheck list = checkClusterResumeList(settings, m_inputPrint, m_inputName,
                                                         m_options.crawlName, m_options.inputChangedOk);
    if (!list.message.isEmpty())
        say(list.message);
    if (list.refuse)
        return false;
    // The scope the crawl was created with decides again which lines are excluded rows.
    QStringList arguments{QStringLiteral("crawlscope"), QStringLiteral("--headless"),
                          QStringLiteral("--input"), QStringLiteral("-")};
    const QString stored = settings.value(QStringLiteral("cli.arguments"));
    if (!stored.isEmpty())
        arguments << stored.split(QLatin1Char('\n'));
    const CommandLineParse parsed = parseCommandLine(arguments);
    if (!parsed.ok) {
        say(QStringLiteral("crawl \"%1\" has flags this build does not understand: %2")
                .arg(m_options.crawlName, parsed.error));
        return false;
    }
    m_options.quality = parsed.options.quality;
    say(QStringLiteral("resuming crawl \"%1\": reading %2 again (batches already sent are recognised, not "
                       "queued twice) and collecting every result from the start")
            .arg(m_options.crawlName, m_inputName));
    return true;
}

void ClusterCoordinator::startCrawl() {
    m_queue = std::make_unique<ClusterQueue>(*m_connection, m_options.crawlName);
    if (m_resuming) {
        if (!resumeCrawl()) {
            m_discardOutput = true;
            return end(ExitUsage);
        }
    } else {
        // The workers read the crawl's fetch flags from here (timeouts, retries, headers, user agent). Anyone
        // who can read Redis can read them: a credential header's value never goes there, only its name,
        // and every worker is given the value on its own command line.
        QStringList withheld;
        QMap<QString, QString> meta{
            {QStringLiteral("cli.arguments"),
             storableCrawlArguments(m_options.crawlArguments, &withheld).join(QLatin1Char('\n'))},
            {QStringLiteral("input"), m_inputName},
            {QStringLiteral("input_bytes"), m_inputBytes}, // all that older coordinators compare
            {QStringLiteral("input_complete"), QStringLiteral("0")}};
        if (m_inputPrint)
            meta.insert(InputFingerprint::kSettingsKey, m_inputPrint->toString());
        if (!withheld.isEmpty())
            meta.insert(QString::fromLatin1(kWithheldHeadersKey), withheld.join(QLatin1Char('\n')));
        if (!m_queue->createCrawl(meta)) {
            say(QStringLiteral("%1 (%2): choose a new --crawl name, or continue that crawl with --resume %3")
                    .arg(m_queue->lastError(), m_url.redacted(), m_options.crawlName));
            m_discardOutput = true;
            return end(ExitUsage);
        }
        ClusterHostBudget budget(*m_connection, m_options.crawlName);
        qint64 version = 0;
        if (!applyLimits(budget, m_options, ClusterLimits{}, {}, &version)) {
            say(QStringLiteral("cannot set the crawl's limits: %1").arg(budget.lastError()));
            m_discardOutput = true;
            return end(ExitUsage);
        }
    }
    m_writer = std::make_unique<ResultCsvWriter>(m_outputs->csv().device());
    if (!m_writer->writeHeader() || !m_writer->flush()) {
        say(QStringLiteral("cannot write %1: %2")
                .arg(m_outputs->csv().displayName(), m_writer->errorString()));
        m_discardOutput = true;
        return end(ExitOutputFailed);
    }
    const QStringList withheld = m_queue->settings()
                                     .value(QString::fromLatin1(kWithheldHeadersKey))
                                     .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QString workerHeaders;
    for (const QString &name : withheld)
        workerHeaders += QStringLiteral(" --header \"%1: ...\"").arg(name);
    // The command is copied as printed: a redacted ":***@" in it would be sent as the password (WRONGPASS),
    // so it names no password at all and says where the worker takes it from instead.
    RedisUrl workerUrl = m_url;
    workerUrl.password.clear();
    QStringList variables;
    if (!m_url.password.isEmpty())
        variables.append(QLatin1String(RedisUrl::kPasswordVariable));
    if (m_url.tls) {
        for (const auto &[variable, file] :
             {std::pair{RedisTlsFiles::kCaVariable, m_url.tlsFiles.caCertificates},
              std::pair{RedisTlsFiles::kCertificateVariable, m_url.tlsFiles.certificate},
              std::pair{RedisTlsFiles::kKeyVariable, m_url.tlsFiles.privateKey}})
            if (!file.isEmpty())
                variables.append(QLatin1String(variable));
    }
    const QString withVariables =
        variables.isEmpty() ? QString()
                            : QStringLiteral(" (with %1 set)").arg(variables.join(QStringLiteral(", ")));
    say(QStringLiteral("coordinating crawl \"%1\" at %2; start workers with: crawlscope --headless --worker "
                       "--cluster %3 --crawl %1%4%5")
            .arg(m_options.crawlName, m_url.redacted(), workerUrl.redacted(), workerHeaders, withVariables));
    if (!withheld.isEmpty())
        say(QStringLiteral("%1 not stored in Redis (credentials): every worker needs it on its own command "
                           "line, as above; a worker without it refuses to start")
                .arg(withheld.join(QStringLiteral(", "))));
    m_sinceProgress.start();
    m_tickTimer.start();
    QMetaObject::invokeMethod(this, &ClusterCoordinator::tick, Qt::QueuedConnection);
}

void ClusterCoordinator::tick() {
    if (!m_loop || m_exitCode != 0)
        return;
    if (!feed() || !collect())
        return;
    if (m_sinceProgress.elapsed() >= 1000) {
        if (!crawlStillExists()) {
            say(QStringLiteral(
                    "crawl \"%1\" is gone from Redis at %2 (the server restarted without its data, or "
                    "the crawl was deleted): no worker can deliver the rest; writing the %3 rows "
                    "collected")
                    .arg(m_options.crawlName, m_url.redacted())
                    .arg(m_writer->rowsWritten()));
            m_crawlLost = true;
            end(ExitOutputFailed);
            return;
        }
        printProgress(false);
        m_sinceProgress.restart();
    }
    if (m_inputDone && m_enqueuedTotal < 0) {
        // Counted by Redis, not by this process: a resumed coordinator's replayed batches add nothing new.
        const ClusterCounts counts = m_queue->counts();
        if (counts.error.isEmpty()) {
            m_enqueuedTotal = counts.enqueued;
            m_expectedRows = m_invalid + m_enqueuedTotal;
        }
    }
    if (m_inputDone && m_enqueuedTotal >= 0 && m_writer->rowsWritten() >= m_expectedRows) {
        printProgress(true);
        end(ExitOk);
    }
}

bool ClusterCoordinator::feed() {
    if (m_inputDone)
        return true;
    QList<ClusterUrl> batch;
    QList<CrawlResult> invalidRows;
    QList<InputLine> storeLines; // every line read this tick, for the crawl file
    qint64 firstLine = -1;
    const auto send = [&]() {
        if (batch.isEmpty())
            return true;
        // The batch id is its first line and its content: a replay after a reconnect, or the same batch
        // sent again by a --resume, adds nothing twice; a batch cut elsewhere by a resume (a list first read
        // from a pipe) is a new batch whose URLs Redis deduplicates one by one.
        QCryptographicHash content(QCryptographicHash::Sha1);
        for (const ClusterUrl &url : std::as_const(batch)) {
            content.addData(url.normalized.toUtf8());
            content.addData(QByteArrayView("\n"));
        }
        const QByteArray batchId = "line-" + QByteArray::number(firstLine) + '-' +
                                   QByteArray::number(batch.size()) + '-' + content.result().toHex().left(16);
        const EnqueueResult result = m_queue->enqueue(batch, batchId);
        if (!result.error.isEmpty()) {
            say(QStringLiteral("cannot enqueue in %1: %2").arg(m_url.redacted(), result.error));
            end(ExitUsage);
            return false;
        }
        m_duplicates += result.duplicates;
        batch.clear();
        firstLine = -1;
        return true;
    };
    for (int n = 0; n < kLinesPerTick; ++n) {
        const std::optional<InputLine> line = m_reader->next();
        if (!line) {
            if (m_reader->waitingForData())
                break;
            if (!send())
                return false;
            if (!m_reader->errorString().isEmpty()) {
                say(QStringLiteral("reading the input failed: %1").arg(m_reader->errorString()));
                end(ExitUsage);
                return false;
            }
            if (!m_queue->setSetting(QStringLiteral("input_complete"), QStringLiteral("1"))) {
                say(QStringLiteral("Redis at %1: %2").arg(m_url.redacted(), m_queue->lastError()));
                end(ExitUsage);
                return false;
            }
            m_inputDone = true;
            break;
        }
        if (m_store)
            storeLines.append(*line);
        if (!line->normalized.ok()) {
            CrawlResult row;
            row.lineNumber = line->lineNumber;
            row.url = line->raw;
            row.outcome = Outcome::InvalidUrl;
            row.error = line->normalized.error;
            row.finishedAt = QDateTime::currentDateTimeUtc();
            invalidRows.append(row);
            continue;
        }
        if (m_options.quality.scope.restrictsAnything()) {
            // Out of scope: its row now, never queued (as in a single-process crawl).
            const ScopeDecision scope = m_options.quality.scope.check(line->normalized);
            if (!scope.inScope) {
                CrawlResult row;
                row.lineNumber = line->lineNumber;
                row.url = line->normalized.text;
                row.host = line->normalized.hostKey;
                row.outcome = Outcome::Excluded;
                row.error = QStringLiteral("out of scope: ") + scope.rule;
                row.finishedAt = QDateTime::currentDateTimeUtc();
                invalidRows.append(row);
                continue;
            }
        }
        if (firstLine < 0)
            firstLine = line->lineNumber;
        batch.append(
            {line->normalized.text, line->normalized.text, line->normalized.hostKey, line->lineNumber});
        if (batch.size() >= kEnqueueBatch && !send())
            return false;
    }
    if (!m_inputDone && !send())
        return false;
    if (m_store) {
        // The lines first (invalid ones become their rows there), then the excluded rows, committed before
        // the CSV gets them.
        QList<CrawlResult> excluded;
        for (const CrawlResult &row : std::as_const(invalidRows)) {
            if (row.outcome == Outcome::Excluded)
                excluded.append(row);
        }
        if (!m_store->append(storeLines) || !m_store->record(excluded)) {
            say(QStringLiteral("cannot write the crawl file %1: %2")
                    .arg(m_store->path(), m_store->lastError()));
            end(ExitOutputFailed);
            return false;
        }
    }
    // In the results stream too, for a window attached to the crawl (shown as a local crawl shows them).
    if (!invalidRows.isEmpty() && m_queue->addInputRows(invalidRows) < 0) {
        say(QStringLiteral("cannot write the invalid lines' rows in %1: %2")
                .arg(m_url.redacted(), m_queue->lastError()));
        end(ExitUsage);
        return false;
    }
    for (const CrawlResult &row : std::as_const(invalidRows)) {
        if (!m_writer->write(row))
            break;
        m_tally.add(row);
    }
    m_invalid += invalidRows.size();
    if (!m_writer->flush()) {
        say(QStringLiteral("cannot write results to %1: %2")
                .arg(m_outputs->csv().displayName(), m_writer->errorString()));
        end(ExitOutputFailed);
        return false;
    }
    return true;
}

bool ClusterCoordinator::collect() {
    for (int round = 0; round < 10; ++round) {
        const QList<ClusterResultRecord> page = m_queue->readResults(m_lastStreamId, kResultsPerRead);
        if (page.isEmpty()) {
            const QString problem = m_queue->lastError();
            if (!problem.isEmpty() && problem != m_lastProblem)
                say(QStringLiteral("Redis at %1: %2 (retrying)").arg(m_url.redacted(), problem));
            m_lastProblem = problem;
            return true;
        }
        m_lastProblem.clear();
        QList<CrawlResult> rows;
        for (const ClusterResultRecord &record : page) {
            if (record.isInputRow())
                continue; // written by feed(), straight from the list
            const CrawlResult row = ClusterResultCodec::decode(record.fields);
            if (m_seenIds.contains(row.id)) {
                ++m_repeatedResults;
                continue;
            }
            m_seenIds.insert(row.id);
            rows.append(row);
        }
        // Acknowledge after commit, as a local crawl: a row counts (CSV, progress) once the crawl file has
        // it.
        if (m_store && !m_store->record(rows)) {
            say(QStringLiteral("cannot write the crawl file %1: %2")
                    .arg(m_store->path(), m_store->lastError()));
            end(ExitOutputFailed);
            return false;
        }
        for (const CrawlResult &row : std::as_const(rows)) {
            if (!m_writer->write(row))
                break;
            m_tally.add(row);
        }
        if (!m_writer->flush() || !m_writer->errorString().isEmpty()) {
            say(QStringLiteral("cannot write results to %1: %2")
                    .arg(m_outputs->csv().displayName(), m_writer->errorString()));
            end(ExitOutputFailed);
            return false;
        }
        // The stream keeps them until the crawl is finished and the CSV committed: a coordinator killed
        // before then loses its CSV, and a --resume collects every row again from the stream.
        m_lastStreamId = page.last().streamId;
        if (page.size() < kResultsPerRead)
            return true;
    }
    return true;
}

bool ClusterCoordinator::crawlStillExists() {
    const RedisReply reply =
        m_connection->command({QByteArrayLiteral("EXISTS"), clusterKeyPrefix(m_options.crawlName) + "meta"},
                              RedisConnection::Replay::AfterReconnect);
    return reply.isError() || reply.toInteger() == 1; // unreachable is not gone: Redis may come back
}

void ClusterCoordinator::printProgress(bool last) {
    if (m_options.quiet)
        return;
    const ClusterCounts counts = m_queue->counts();
    if (!counts.error.isEmpty()) {
        // Zeros here would read as "nothing queued"; say what is known instead.
        say(QStringLiteral("crawl \"%1\": %2 rows; Redis at %3: %4 (retrying)")
                .arg(m_options.crawlName)
                .arg(m_writer->rowsWritten())
                .arg(m_url.redacted(), counts.error));
        return;
    }
    qint64 serverNow = 0;
    const QList<WorkerStatus> workers = m_queue->workers(&serverNow);
    int alive = 0;
    for (const WorkerStatus &worker : workers)
        alive += isWorkerDead(worker, serverNow, 5000) ? 0 : 1;
    say(QStringLiteral("crawl \"%1\"%2: %3/%4 rows, %5 queued, %6 in flight, %7 waiting to retry, %8 "
                       "duplicates, %9 workers alive")
            .arg(m_options.crawlName, last ? QStringLiteral(" finished") : QString())
            .arg(m_writer->rowsWritten())
            .arg(m_inputDone ? QString::number(m_expectedRows) : QStringLiteral("?"))
            .arg(counts.queued)
            .arg(counts.leased)
            .arg(counts.delayed)
            .arg(m_duplicates)
            .arg(alive));
}

void ClusterCoordinator::end(int exitCode) {
    m_exitCode = exitCode;
    m_tickTimer.stop();
    if (m_loop)
        m_loop->quit();
}

int runClusterCoordinator(const CommandLineOptions &options, const InputSource &input) {
    const std::optional<RedisUrl> url = parseClusterUrl(options.clusterUrl);
    if (!url)
        return ExitUsage;
    ClusterCoordinator coordinator(options, *url);
    return coordinator.run(input);
}

int runClusterSet(const CommandLineOptions &options) {
    const std::optional<RedisUrl> url = parseClusterUrl(options.clusterUrl);
    if (!url)
        return ExitUsage;
    RedisConnection connection(*url);
    ClusterQueue queue(connection, options.crawlName);
    if (!queue.crawlExists()) {
        say(queue.lastError().isEmpty()
                ? QStringLiteral("no crawl named \"%1\" in %2").arg(options.crawlName, url->redacted())
                : QStringLiteral("Redis at %1: %2").arg(url->redacted(), queue.lastError()));
        return ExitUsage;
    }
    ClusterHostBudget budget(connection, options.crawlName);
    const std::optional<ClusterLimits> current = budget.limits();
    qint64 version = 0;
    if (!current || !applyLimits(budget, options, *current, options.explicitFlags, &version)) {
        say(QStringLiteral("cannot change the limits: %1").arg(budget.lastError()));
        return ExitUsage;
    }
    const std::optional<ClusterLimits> now = budget.limits();
    // What the crawl has now, --max-rate and --adaptive included: `--cluster-set --adaptive` must be seen
    // to have taken.
    if (now)
        say(QStringLiteral("crawl \"%1\": limits version %2: %3 in flight, %4 per host, %5 ms apart%6%7")
                .arg(options.crawlName)
                .arg(now->version)
                .arg(now->globalInFlight)
                .arg(now->perHostInFlight)
                .arg(userIntervalMs(now->intervalMs))
                .arg(now->maxRatePerSec > 0 ? QStringLiteral(", at most %1 starts/s").arg(now->maxRatePerSec)
                                            : QString(),
                     now->adaptive ? QStringLiteral(", adaptive pace per host") : QString()));
    return ExitOk;
}

} // namespace crawl
