#pragma once

#include "frontier/crawljournal.h"
#include "frontier/frontierstore.h"
#include "model/crawlresult.h"

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>

namespace crawl {

struct EngineContext;
class StoreBackup;

// What the window's hosts view shows per host from committed outcomes.
struct HostTally {
    qint64 done = 0;
    qint64 ok = 0;
    qint64 failed = 0;
    qint64 accepted = 0; // passed the acceptance checks
};

// The frontier: the one place that decides which URLs the fetch shards get, and the one place where an
// outcome becomes final. Lives on its own thread and owns the crawl's FrontierStore (SQLite file).
//
// - Input: the feeder hands it lines; it appends them to the store in batches (dedup by the store's
//   unique key, so no in-memory set of every URL exists).
// - Work: hosts with due entries are activated and get a bounded chunk (leased in the store, so an entry
//   is never handed out twice); a host's chunk is refilled when half of it has come back. At most
//   `maxActiveHosts` hosts hold work, so memory is in-flight work plus a chunk per active host, and the
//   order of the input file does not matter: a host-sorted list activates every host at once.
// - Outcomes: shards push results into the context; each tick commits them in one transaction and only
//   then passes them on to the engine façade (CSV, window, progress): acknowledge after commit.
// - Stop: results cancelled by a stop are not recorded (their entries stay pending, resumable); once
//   every lease is back, the unfinished entries come out as `cancelled` rows so the CSV at a stop still
//   has one row per line.
class FrontierService : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 kMaxPendingLines = 20'000; // feeder backpressure (lines not yet stored)

    explicit FrontierService(EngineContext *context);
    ~FrontierService() override; // closes the store; a temporary journal is deleted

    // On the frontier thread, before begin(). Creates, opens (resume) or makes a temporary store.
    bool open(const CrawlJournal &journal, QString *error);
    // Valid after open().
    QMap<QString, QString> storedSettings() const { return m_storedSettings; }
    qint64 resumeAfterLine() const { return m_resumeAfterLine; }
    bool storedInputComplete() const { return m_storedInputComplete; }
    QString storePath() const { return m_storePath; }
    StoreError::Kind openFailure() const { return m_openFailure; } // why open() failed

    // Thread-safe.
    void addLines(QList<StoreInputLine> lines); // from the feeder, in input order
    void inputEnded(const QString &readError);  // the feeder read its last line (readError: why it failed)
    void retry(const QList<CrawlResult> &previous); // queue finished or cancelled rows again
    void resumeAfterStop();                         // a stopped crawl continues (with retry())
    void kick();                                    // look for work now (a limit changed, a host resumed)

    // On the frontier thread (the store's): a consistent copy of the store at `target` (Save Crawl As),
    // made `pagesPerStep` pages at a time with the event loop (commits, hand-outs) running between steps
    // and at least `pauseMs` between them; progress by copyProgress, the end by copySaved. One copy at a
    // time: a second one is refused while one runs. cancelCopy() abandons it (no file is left).
    void saveCopy(const QString &target, int pagesPerStep = 256, int pauseMs = 0);
    void cancelCopy();
    // And caller settings written into the store (e.g. the window's "stopped").
    void writeSettings(const QMap<QString, QString> &values);

    void begin(); // on the frontier thread: timers; a resumed crawl replays its committed rows first
    void halt();  // on the frontier thread, before the shards go away: nothing more is handed out

    // Read by the façade (any thread).
    std::atomic<qint64> rows{0}; // rows the crawl will have so far (distinct valid URLs + invalid lines)
    std::atomic<qint64> duplicates{0};
    std::atomic<qint64> invalid{0};
    std::atomic<qint64> pendingLines{0}; // handed over by the feeder, not yet stored
    std::atomic<bool> inputComplete{false};
    QString readError; // written before inputComplete is set
    std::atomic<bool> failed{false};
    QString failure; // the store's error (disk full, read-only...): written before `failed` is set

    // Committed per-host tallies of recently active hosts (the hosts a snapshot can show).
    mutable QMutex talliesMutex;
    QHash<QString, HostTally> tallies;

Q_SIGNALS:
    void copySaved(bool ok, const QString &target, const QString &error);
    void copyProgress(qint64 pagesCopied, qint64 pagesTotal);

private:
    void tick();
    void copyStep();
    void recordConfig(); // the limits in force, into the store (StoredCrawlConfig), when they changed
    void appendLines();
    void commitResults();
    void dispatch(qint64 nowMs);
    void replayFinished();
    void emitUnfinishedAsCancelled();
    // Hands rows to the façade; `replayed`: committed in an earlier run of a resumed crawl.
    void acknowledge(QList<CrawlResult> rows, bool replayed = false);
    void fail(const QString &what);
    int chunkSizeFor(const QString &hostKey) const;

    EngineContext *const m_context;
    std::unique_ptr<FrontierStore> m_store;
    std::unique_ptr<QTemporaryDir> m_temporaryDir;
    QString m_storePath;
    QString m_owner; // lease owner: this process
    QMap<QString, QString> m_storedSettings;
    qint64 m_resumeAfterLine = 0;
    bool m_storedInputComplete = false;
    StoreError::Kind m_openFailure = StoreError::Kind::None;

    // Inbox from the feeder and the façade.
    QMutex m_inboxMutex;
    QList<StoreInputLine> m_lines;
    bool m_inputEnded = false;
    QString m_inputError;
    QList<CrawlResult> m_retries;
    std::atomic<bool> m_tickPosted{false};

    // Work handed to shards and not yet back, per input host (the active hosts).
    QHash<QString, qint64> m_outstanding;
    qint64 m_outstandingTotal = 0;
    bool m_dirty = true;
    bool m_halted = false;
    qint64 m_lastDispatchMs = 0;
    bool m_stopHandled = false; // the unfinished rows of this stop have been emitted
    // After a user's stop only what the user retries is fetched; the rest stays pending for --resume.
    bool m_retryOnly = false;
    qint64 m_replayAfterId = -1; // >= 0 while a resumed crawl replays its committed rows
    // Rows acknowledged live while the replay runs: the replay's cursor will meet them too, and must
    // not hand them on twice. Bounded by what finishes during the replay (seconds).
    QSet<quint64> m_liveDuringReplay;
    qint64 m_unfinishedAfterId = -1; // >= 0 while a stop emits its cancelled rows
    QTimer m_tickTimer;
    quint64 m_configRecorded = 0; // the context's configVersion last written to the store
    // The allowed hosts list last written (StoredCrawlConfig::kAllowedHostsKey), to skip rewriting it.
    std::optional<QString> m_allowedHostsRecorded;

    std::unique_ptr<StoreBackup> m_backup; // Save Crawl As under way
    int m_backupPagesPerStep = 256;
    QTimer m_backupTimer;
};

} // namespace crawl
