#pragma once

#include "frontier/crawljournal.h"
#include "input/inputsource.h"
#include "model/breakerevent.h"
#include "model/crawllimits.h"
#include "model/crawlquality.h"
#include "model/crawlresult.h"
#include "model/crawlsnapshot.h"
#include "model/fetchpolicy.h"

#include <QList>
#include <QObject>

#include <memory>

namespace crawl {

class CrawlEnginePrivate;

// The crawl engine. Lives in the caller's thread (GUI or command line) but does all its work on its own
// threads: one reads the input, N fetch shards each own a subset of hosts, their QNetworkAccessManagers,
// timers and queues. Everything it hands out is an immutable value, delivered by queued signal in the
// thread this object lives in, batched (results every ~100 ms, snapshots at the snapshot interval).
//
// Every method is non-blocking and may be called at any time; changes reach running work within one
// event-loop turn of the shard threads.
class CrawlEngine : public QObject {
    Q_OBJECT
public:
    explicit CrawlEngine(QObject *parent = nullptr);
    ~CrawlEngine() override; // stops the crawl (results of the stop are not delivered) and joins threads

    void setLimits(const CrawlLimits &limits);
    CrawlLimits limits() const;
    void setFetchPolicy(const FetchPolicy &policy); // applies to attempts that start afterwards
    FetchPolicy fetchPolicy() const;
    // robots.txt, scope and acceptance checks (issue 13); applies to URLs that start afterwards.
    void setCrawlQuality(const CrawlQuality &quality);
    CrawlQuality crawlQuality() const;

    // Before start(): threads that fetch (default: 2, at least 1). Hosts are spread over them.
    void setFetchThreads(int count);
    void setSnapshotIntervalMs(int ms); // default 250
    // Before start(): how much nicer (0-19) than the calling thread the engine's threads run, so a window
    // stays responsive when the crawl saturates the CPU (capped at nice 19; a window started under `nice 5`
    // and asking for 10 gets 15). 0 (the default) leaves them at the caller's priority.
    void setWorkerNice(int nice);

    // Starts crawling `input`. Returns false (and sets *error) if the input cannot be opened or a crawl
    // is already running; nothing is emitted then.
    bool start(const InputSource &input, QString *error = nullptr);
    // The same, journaled: every input line, lease and outcome goes into the crawl store at
    // `journal.path` (a temporary one when empty), and a result is delivered only once it is committed
    // there. With journal.resume the crawl stored there continues: its committed rows are delivered
    // first (resultsReady), then the rest is fetched; `input` is ignored (the stored list is read).
    // Refuses (false, *error says why) an existing file for a new crawl, or a missing, foreign, corrupt,
    // busy or read-only one for a resume.
    bool start(const InputSource &input, const CrawlJournal &journal, QString *error = nullptr);
    QString journalPath() const; // the crawl store in use; empty for a temporary one
    // Why the last start() could not open its journal (None when it did, or failed for another reason):
    // DiskFull or Io mean the disk, the others the file the caller named.
    StoreError::Kind journalFailure() const;
    // A stored crawl's settings (the caller's and the engine's keys), read without taking the crawl over.
    static QMap<QString, QString> readJournalSettings(const QString &path, QString *error = nullptr);

    // While a journal is open (during a crawl and after it finished, until the next start): a consistent
    // copy of it at `target`, made on the journal's own thread; reported by journalCopied. A target that
    // exists is replaced once the copy is complete (the caller asks the user first).
    void saveJournalCopy(const QString &target);
    void cancelJournalCopy(); // abandons a copy under way (reported by journalCopied, not ok)
    // How the copy steps: pages per step, and the least time between steps (a test hook: 0 by default).
    void setJournalCopyStep(int pagesPerStep, int pauseMs);
    bool hasOpenJournal() const;
    // Caller settings written into the open journal on its thread (a crawl's "stopped cleanly" marker).
    void writeJournalSettings(const QMap<QString, QString> &values);

    void pause(); // no new request starts; in-flight requests finish
    void resume();
    // Cancels in-flight requests; every URL not yet finished (read or not) gets a `cancelled` result,
    // then finished() is emitted.
    void stop();

    void pauseHost(const QString &hostKey);
    void resumeHost(const QString &hostKey);
    void skipHost(const QString &hostKey); // its queued URLs end as cancelled ("skipped by user")
    // Resumes a host its circuit breaker tripped (or gave up): it starts requests again at once, with an
    // empty window and the base cool-down. URLs already ended as `skipped` stay ended (retry() them).
    void resetHostBreaker(const QString &hostKey);

    // Queues finished URLs again (e.g. "Retry failed"). Each new result carries the same id, so views
    // can replace the old row. Works while running and after finished() (the crawl runs again).
    void retry(const QList<CrawlResult> &previous);

    CrawlState state() const;

Q_SIGNALS:
    void resultsReady(const QList<crawl::CrawlResult> &results);
    void snapshotReady(const crawl::CrawlSnapshot &snapshot);
    void finished(const crawl::CrawlSummary &summary);
    // A host's circuit breaker tripped, recovered, gave up or was reset by the user. Delivered with the
    // result batches, before the results that followed it.
    void hostBreakerChanged(const crawl::BreakerEvent &event);
    void journalCopied(bool ok, const QString &target, const QString &error);
    void journalCopyProgress(qint64 pagesCopied, qint64 pagesTotal);

private:
    std::unique_ptr<CrawlEnginePrivate> d;
};

// Registers the value types with Qt's meta-type system; called by CrawlEngine's constructor.
void registerCrawlMetaTypes();

} // namespace crawl
