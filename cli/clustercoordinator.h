#pragma once

#include "cluster/redisurl.h"
#include "clustersummarytally.h"
#include "commandline.h"
#include "input/inputfingerprint.h"
#include "input/inputsource.h"
#include "model/crawlresult.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>

class QEventLoop;
class QIODevice;

namespace crawl {

class ClusterQueue;
class ClusterStoreWriter;
class OutputFiles;
class RedisConnection;
class ResultCsvWriter;
class UrlListReader;

// `crawlscope --headless --input FILE --cluster URL --crawl NAME [--output FILE.csv] [limits]`: creates the
// shared crawl (a name already in use is refused: a coordinator never takes over a crawl it did not
// create), sets its limits, feeds the list (normalized and deduplicated by Redis; invalid lines become
// rows here at once) and collects the results stream into the CSV, the same columns as a local crawl.
// Exits 0 once every distinct URL and every invalid line has its one row. Its Redis calls run on the main
// thread: it fetches nothing, so nothing waits behind them but its own progress line.
// `--resume NAME` (instead of --crawl) continues an interrupted coordinator's crawl: the results stream keeps
// every row until the crawl is collected, so the resumed coordinator reads the list again (batches already
// sent are recognised), collects every row from the stream's start and writes the whole CSV.
class ClusterCoordinator : public QObject {
    Q_OBJECT
public:
    ClusterCoordinator(const CommandLineOptions &options, const RedisUrl &url, QObject *parent = nullptr);
    ~ClusterCoordinator() override;

    int run(const InputSource &input);

private:
    bool openStore(QString *error); // --store: the crawl file (created, or reopened by --resume)
    void tryToConnect();
    void startCrawl();  // connected: create the crawl, set its limits, start feeding and collecting
    bool resumeCrawl(); // --resume NAME: the crawl exists, is not collected yet, and has the same list
    void tick();
    bool feed();             // false on a fatal problem
    bool collect();          // false on a fatal problem
    bool crawlStillExists(); // false only when Redis answers that the crawl's keys are gone
    void printProgress(bool last);
    void end(int exitCode);

    CommandLineOptions m_options;
    RedisUrl m_url;
    std::unique_ptr<RedisConnection> m_connection;
    std::unique_ptr<ClusterQueue> m_queue;
    std::unique_ptr<OutputFiles> m_outputs;
    std::unique_ptr<ResultCsvWriter> m_writer;
    std::unique_ptr<QIODevice> m_inputDevice;
    std::unique_ptr<UrlListReader> m_reader;
    std::unique_ptr<ClusterStoreWriter> m_store; // --store CRAWL.db, or null
    bool m_inputDone = false;
    qint64 m_expectedRows = 0; // invalid lines + distinct URLs enqueued (known once the list is fed)
    qint64 m_duplicates = 0;
    qint64 m_invalid = 0;
    QByteArray m_lastStreamId;
    QSet<quint64> m_seenIds; // a URL's second result would be a bug: it is reported, never written twice
    qint64 m_repeatedResults = 0;
    ClusterSummaryTally m_tally; // every row written, for --summary-json
    QString m_lastProblem;
    QString m_inputName;
    QString m_inputBytes; // the list's size, stored with the crawl (what older coordinators compare)
    std::optional<InputFingerprint> m_inputPrint; // a list file's fingerprint: a resume checks it is the same
    bool m_resuming = false;
    qint64 m_enqueuedTotal = -1; // distinct URLs in the crawl, known once the list is fed
    QTimer m_connectTimer;
    QElapsedTimer m_sinceConnecting;
    bool m_saidUnreachable = false;
    bool m_discardOutput = false; // ended before the crawl existed: no CSV (an existing file stays as it was)
    QTimer m_tickTimer;
    QElapsedTimer m_sinceProgress;
    QEventLoop *m_loop = nullptr;
    int m_exitCode = 0;
    bool m_interrupted = false;
    bool m_crawlLost = false; // exit 1, but the rows collected are kept (as on SIGINT)
};

int runClusterCoordinator(const CommandLineOptions &options, const InputSource &input);
// `--cluster URL --crawl NAME --cluster-set [limits]`: changes the shared limits; every worker applies them
// within a second (they poll the limits' version).
int runClusterSet(const CommandLineOptions &options);

} // namespace crawl
