#pragma once

#include "frontier/frontierstore.h"
#include "store/sqlstatement.h"
#include "store/storetypes.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QThread>

#include <functional>
#include <memory>
#include <optional>

struct sqlite3;

namespace crawl {

// The durable record of one crawl: one SQLite file holding its settings, every input line, each entry's
// state and its terminal result, and per-host policy and tallies. The frontier is built on it.
//
// Why the SQLite C API and not Qt Sql: the hot path is batched inserts and updates from one thread. A
// prepared sqlite3_stmt reused per row costs a bind and a step; QSqlQuery adds QVariant boxing and a
// driver indirection per value. Measured with bench/bench-sqlite-api (same SQLite 3.40.1, WAL,
// synchronous=NORMAL, 1,000 rows a transaction, CPU time per row): insert with a UNIQUE url 3.9 us (C API)
// vs 5.3 us (Qt Sql); update by id 0.85 us vs 1.9 us. Qt Sql also needs a driver *plugin*
// (libqt6sql6-sqlite) that is a run-time dependency: a missing plugin fails at open, not at build.
// libsqlite3 is linked directly (Debian: libsqlite3-dev to build, libsqlite3-0 to run).
//
// Threading: a CrawlStore is used from ONE thread only (the thread that opened it). It is not a QObject
// and has no locks; the SQLite connection is opened with SQLITE_OPEN_NOMUTEX. Other threads talk to the
// thread that owns it (queued signals carrying value types).
//
// Durability: WAL mode; synchronous=NORMAL by default (an acknowledged commit survives a crash or kill -9
// of the process; a power cut or kernel crash may lose the last commits, never corrupt the file);
// synchronous=FULL as an option (every acknowledged commit also survives power loss). The file is opened
// with an exclusive lock: a second process opening the same crawl gets StoreError::Kind::Busy.
//
// Design for the integration step:
// - Frontier: keeps a small in-memory queue per *active* host. When a host's queue runs low it calls
//   nextChunkForHost(host, chunk, now) and markInFlight() for what it starts (one transaction per batch of
//   starts). To find hosts to activate it calls hostsWithEligibleWork(now, limit), which reads an index on
//   hosts.eligible_at (min next-eligible time of the host's pending entries, raised to its Retry-After
//   pause; NULL when it has nothing or is paused by the user). A host with nothing eligible is evicted
//   from memory; its tallies live in the store, and it comes back through hostsWithEligibleWork. So the
//   order of the input file never matters and memory is in-flight work plus one chunk per active host.
//   nextChunkForHost() reserves nothing: the frontier owns the chunk it read and asks again only once it
//   has leased (markInFlight) or dropped it, or the same entries come back.
// - Input: the feeder appends the list in batches (~10,000 lines a commit) while the crawl already runs;
//   hosts of the first batch are eligible at once, so a 10M-line list starts fetching within a batch, not
//   after the whole file (bench-crawlstore: 1M lines over 100k hosts insert at ~27-60k lines/s here).
// - Results: the engine hands finished and to-be-retried entries to the store's thread, which collects
//   them into a ResultBatch and commits every ~100 ms or 1,000 results. recordResults() returns only after
//   COMMIT: only then are the rows passed on to the CSV writer, the GUI and the progress counters
//   ("acknowledge after commit"). A failed commit (disk full) rolls the batch back: the entries stay in
//   flight in the store and the crawl stops with the error; nothing committed is lost.
// - --resume: open(path) (refuses foreign, corrupt or too-new files, migrates older ones), settings() for
//   the stored input and limits (flags given with --resume override them via setSettings), then
//   reclaimInFlight(): what was in flight at the crash goes back to Queued with its attempt counted.
//   Committed outcomes are never fetched again because only Queued/RetryWait entries are ever handed out.
//   SIGINT with a store records nothing for unfinished URLs (they stay pending, resumable); the CSV
//   written at exit shows them as cancelled through exportRows().
// - CSV: exportRows() walks entries in input order (one row per stored line: each distinct URL at its
//   first line, and every invalid line; duplicates are counted, not repeated, exactly as today's CSV).
//   Unfinished entries come out as `cancelled`, so the CSV at SIGINT still has one row per line.
// - Multi-machine later: leases (owner + lease_until) and reclaimExpiredLeases(now) are what a shared
//   frontier needs; a Redis implementation would sit behind the same frontier interface.
class CrawlStore final : public FrontierStore {
public:
    static constexpr int kSchemaVersion = 3;
    static constexpr qint32 kApplicationId = 0x43536377; // "CScw": marks the file as a Crawlscope crawl
    // StoreOptions::busyWaitMs for a reader on a worker thread: outlasts another connection's close.
    static constexpr int kReaderBusyWaitMs = 250;

    ~CrawlStore() override;
    CrawlStore(const CrawlStore &) = delete;
    CrawlStore &operator=(const CrawlStore &) = delete;

    // A new crawl; refuses an existing file (even an empty one). On failure returns null and fills error.
    static std::unique_ptr<CrawlStore> create(const QString &path, const QMap<QString, QString> &settings,
                                              StoreError *error, const StoreOptions &options = {});
    // An existing crawl (resume, export). Refuses a missing, foreign, corrupt or too-new file; migrates an
    // older schema in one transaction.
    static std::unique_ptr<CrawlStore> open(const QString &path, StoreError *error,
                                            const StoreOptions &options = {});

    QString path() const override { return m_path; }
    // What SQLite actually runs with, e.g. "journal_mode=wal synchronous=NORMAL" (for logs and tests).
    QString durability() override;
    StoreError lastError() const override { return m_error; }

    QMap<QString, QString> settings() override;
    bool setSettings(const QMap<QString, QString> &values) override; // upserts the given keys

    // Appends input lines in input order, one transaction. Valid lines whose normalized URL is already
    // stored count as duplicates; invalid lines become Done entries with an invalid_url result.
    // `invalidRows` (optional) receives the invalid_url rows this call committed, with their entry ids.
    bool appendInput(const QList<StoreInputLine> &lines, qint64 nowMs, AppendOutcome *outcome = nullptr,
                     QList<CrawlResult> *invalidRows = nullptr) override;
    qint64 lastInputLine() override;

    // Queued or retry-due entries of one host with nextAt <= now, oldest first (index-only).
    QList<PendingEntry> nextChunkForHost(const QString &hostKey, int limit, qint64 nowMs) override;
    // Hosts with an entry that may start by `now`, soonest first (index-only).
    QList<EligibleHost> hostsWithEligibleWork(qint64 nowMs, int limit) override;
    // The soonest eligible time of any host, or -1 when nothing is pending (to arm a timer).
    qint64 nextEligibleAtMs() override;

    // Leases entries to `owner` until leaseUntilMs; entries not pending are skipped. An attempt is counted
    // when it starts (ResultBatch::started), so a lease that never started costs the URL nothing.
    // Returns how many were leased, or -1 on error.
    qint64 markInFlight(const QList<qint64> &ids, const QString &owner, qint64 leaseUntilMs) override;

    // Results, retries and host pauses in ONE transaction; returns only after COMMIT (acknowledge after).
    bool recordResults(const ResultBatch &batch) override;

    // At resume: every in-flight entry goes back to Queued, its attempt counted. Returns how many.
    qint64 reclaimInFlight() override;
    bool releaseLeases(const QList<ReleasedLease> &leases) override;
    // Finished entries queued again ("retry failed"): their old result stays until the new one commits.
    // Invalid lines and unknown ids are skipped. Returns how many were queued, or -1 on error.
    qint64 requeueFinished(const QList<qint64> &ids, qint64 nowMs) override;
    // Entries whose lease expired by `now` (a dead worker) go back to Queued. Returns how many.
    qint64 reclaimExpiredLeases(qint64 nowMs) override;

    // Host policy records.
    bool setHostUserPaused(const QString &hostKey, bool paused);
    bool setHostPausedUntil(const QString &hostKey, qint64 untilMs);
    bool setHostOverrides(const QString &hostKey, int maxInFlight, qint64 startIntervalMs);
    std::optional<HostRecord> hostRecord(const QString &hostKey) override;
    // Hosts in key order after `afterHostKey` (empty: from the start), for a window that pages them.
    QList<HostRecord> hostsPage(const QString &afterHostKey, int limit);
    // The `limit` hosts with the most URLs (done, pending and in flight), busiest first: what a window
    // shows of a crawl with more hosts than it lists. One pass over the hosts table (a top-N sort).
    QList<HostRecord> busiestHosts(int limit);
    qint64 hostCount();
    // Every committed result's summary facts, in entry order; the callback returns false to stop.
    bool forEachResultFact(const std::function<bool(const ResultFact &)> &fact);

    // PRAGMA quick_check over the whole file: O(file size), so a choice for the caller (e.g. after a crash
    // of the machine, or in --export), not part of every open. False with a Corrupt error when damaged.
    bool verifyIntegrity();

    StoreCounts counts() override;
    // Committed outcomes per Outcome value (a resumed crawl's tallies).
    std::array<qint64, kOutcomeCount> outcomeCounts() override;
    EntryState entryState(qint64 id); // for tests and details views; Done when unknown

    // One row per stored line in input order (the CSV's rows). The callback returns false to stop.
    bool exportRows(const std::function<bool(const CrawlResult &)> &row);
    // The same rows, a page at a time after entry id `afterId` (0: from the start), for paged views.
    QList<CrawlResult> rowsPage(qint64 afterId, int limit, RowFilter filter = RowFilter::All) override;

    // Save Crawl As, live or opened: a copy made step by step on this connection (StoreBackup), so commits
    // go on between steps and a copy of any size shows progress and can be cancelled.
    std::unique_ptr<StoreBackup> startBackup(const QString &target, QString *error) override;

    // EXPLAIN QUERY PLAN of every statement on the hot path.
    QList<QueryPlan> hotPathQueryPlans();

private:
    struct HostDelta {
        qint64 pending = 0, inFlight = 0, done = 0, ok = 0, failed = 0, retries = 0, http429 = 0;
        qint64 pausedUntil = 0; // raised to this (Retry-After); eligible_at is recomputed from the index
    };
    struct CrawlDelta {
        qint64 lines = 0, duplicates = 0, invalid = 0, pending = 0, inFlight = 0, done = 0, ok = 0,
               failed = 0, retries = 0;
    };

    CrawlStore(QString path, sqlite3 *db, const StoreOptions &options);
    static std::unique_ptr<CrawlStore> openConnection(const QString &path, bool creating,
                                                      const StoreOptions &options, StoreError *error);
    bool configure();
    bool checkAndMigrate(bool creating);
    bool prepareStatements();

    bool exec(const char *sql);
    bool fail(int rc, const QString &what);
    bool begin();
    bool commit();
    void rollback();
    bool stepDone(SqlStatement &statement, const QString &what);

    qint64 hostIdFor(const QString &hostKey, bool createIfMissing);
    bool applyHostDeltas(const QHash<qint64, HostDelta> &deltas);
    bool applyCrawlDelta(const CrawlDelta &delta);
    qint64 reclaimLeased(qint64 leaseDeadlineMs);
    bool updateHost(const QString &hostKey, const char *sql, qint64 first, qint64 second);

    QString m_path;
    sqlite3 *m_db = nullptr;
    const QThread *m_thread; // the one thread allowed to use this store (asserted in debug builds)
    StoreOptions m_options;
    StoreError m_error;

    SqlStatement m_hostByKey, m_insertHost, m_insertEntry, m_insertResult, m_entryById, m_finishEntry,
        m_retryEntry, m_leaseEntry, m_requeueEntry, m_startAttempt, m_hostDelta, m_crawlDelta, m_chunk,
        m_eligibleHosts, m_leased;
    QString m_lastHostKey; // input lists are often sorted by host: skip the lookup for a repeated host
    qint64 m_lastHostId = 0;
};

} // namespace crawl
