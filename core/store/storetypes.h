#pragma once

#include "input/urllistreader.h"
#include "model/crawlresult.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace crawl {

// Value types crossing the CrawlStore API. Times are milliseconds since the Unix epoch (UTC), so a
// "next eligible" time survives a restart unchanged.

// Where one input entry is in its life. Stored as these integers: never renumber them.
enum class EntryState : int {
    Queued = 0,    // waiting for its first fetch (eligible from nextAtMs)
    RetryWait = 1, // a retry is due at nextAtMs
    InFlight = 2,  // leased to a fetcher (leaseOwner, leaseUntilMs); back to Queued if that fetcher dies
    Done = 3,      // its terminal result row is committed
};

struct StoreError {
    enum class Kind {
        None,
        NotFound,       // open(): no such file
        AlreadyExists,  // create(): the file exists (resume it instead)
        NotACrawlStore, // not SQLite, or SQLite without our application_id / schema
        Corrupt,        // SQLite reports corruption, or tables are missing
        TooNew,         // written by a newer schema version than this build knows
        ReadOnly,       // the file or its folder cannot be written, or the store was opened read-only
        DiskFull,       // SQLITE_FULL: disk full or the store's size limit reached
        Busy,           // another process holds the crawl open
        Io,             // any other I/O failure
        Other,
    };
    Kind kind = Kind::None;
    QString message; // names the file and what the user can do
    bool isError() const { return kind != Kind::None; }
};

// Options fixed when a store is opened (not stored in the file).
struct StoreOptions {
    enum class Sync {
        Normal, // WAL + synchronous=NORMAL: survives a process crash; power loss may drop the last commits
        Full,   // WAL + synchronous=FULL: every acknowledged commit also survives power loss
    };
    Sync sync = Sync::Normal;
    bool readOnly = false; // for export/inspection: every write fails with StoreError::Kind::ReadOnly
    qint64 maxBytes = 0;   // 0 = unlimited; otherwise writes past this size fail as DiskFull
    // How long to wait for a lock another connection holds before failing with Busy (0: at once). For
    // readers on their own thread (CrawlStore::kReaderBusyWaitMs), never the GUI thread's quick looks.
    int busyWaitMs = 0;
};

// One input line as the store saw it (UrlListReader produces these upstream).
struct StoreInputLine {
    qint64 lineNumber = 0;
    QString raw;           // the line as read; kept only for invalid lines
    QString normalizedUrl; // the dedup key; empty when the line is invalid
    QString hostKey;       // "host:port"; empty when invalid
    QString invalidReason; // why the line is not a crawlable URL (without the line number)
};

// The reader's line as the store keeps it (what the feeder will hand to appendInput).
inline StoreInputLine storeInputLine(const InputLine &line) {
    StoreInputLine out;
    out.lineNumber = line.lineNumber;
    out.raw = line.raw;
    if (line.normalized.ok()) {
        out.normalizedUrl = line.normalized.text;
        out.hostKey = line.normalized.hostKey;
    } else {
        out.invalidReason = line.normalized.error;
    }
    return out;
}

struct AppendOutcome {
    qint64 added = 0;      // new entries queued
    qint64 duplicates = 0; // lines whose normalized URL was already stored
    qint64 invalid = 0;    // lines stored as invalid_url results
};

// An entry a frontier may start; attempts counts the fetches already made (including crashed ones).
struct PendingEntry {
    qint64 id = 0;
    qint64 lineNumber = 0;
    QString url;
    QString hostKey;
    int attempts = 0;
    qint64 nextAtMs = 0;
};

struct EligibleHost {
    QString hostKey;
    qint64 eligibleAtMs = 0; // the earliest moment one of its entries may start (pauses included)
};

// Per-host policy and tallies. The tallies are exact: they change in the same transaction as the entries.
struct HostRecord {
    QString hostKey;
    qint64 pending = 0; // queued or waiting for a retry
    qint64 inFlight = 0;
    qint64 done = 0;
    qint64 ok = 0;
    qint64 failed = 0;
    qint64 retries = 0;
    qint64 http429 = 0;
    qint64 pausedUntilMs = 0; // Retry-After pause (0 = none)
    bool userPaused = false;
    int maxInFlight = 0;         // override; 0 = the crawl's limit
    qint64 startIntervalMs = -1; // override; -1 = the crawl's interval
    qint64 eligibleAtMs = -1;    // -1 when there is nothing it may start
};

struct StoreCounts {
    qint64 lines = 0;      // input lines stored (valid, invalid and duplicate)
    qint64 duplicates = 0; // counted, never stored as entries
    qint64 invalid = 0;
    qint64 pending = 0;
    qint64 inFlight = 0;
    qint64 done = 0; // includes invalid lines
    qint64 ok = 0;
    qint64 failed = 0; // includes invalid lines
    qint64 retries = 0;
    qint64 rows() const { return lines - duplicates; } // rows the CSV will hold
};

// What one commit records. Everything in it lands in one transaction, or none of it does.
struct ResultBatch {
    struct Finished {
        qint64 entryId = 0;
        CrawlResult result; // url/host/lineNumber come from the store; the rest is kept as given
    };
    struct Retry {
        qint64 entryId = 0;
        qint64 retryAtMs = 0;
        int status = 0; // the status that caused it (429s are tallied per host)
    };
    struct HostPause {
        QString hostKey;
        qint64 untilMs = 0; // Retry-After: the whole host waits until then
    };
    QList<qint64> started; // leased entries whose next attempt started (once per attempt)
    QList<Finished> finished;
    QList<Retry> retries;
    QList<HostPause> pauses;
    bool isEmpty() const {
        return started.isEmpty() && finished.isEmpty() && retries.isEmpty() && pauses.isEmpty();
    }
};

// A leased entry given back without an outcome (the crawl stopped, or it was never started): it is
// queued again with the attempts the fetcher really made.
struct ReleasedLease {
    qint64 entryId = 0;
    int attempts = 0;
};

// Which stored rows a page holds.
enum class RowFilter {
    All,        // every row (unfinished ones as `cancelled`, as the CSV at a stop)
    Finished,   // rows with a committed outcome
    Unfinished, // entries still queued, waiting for a retry or in flight
};

// The few facts of one committed result a summary needs (an opened crawl's hosts and totals), read
// without the texts of the row.
struct ResultFact {
    QString hostKey; // empty for invalid lines
    Outcome outcome = Outcome::Cancelled;
    int attempts = 0; // requests made for the URL (redirect hops not counted)
    qint64 latencyMs = -1;
    qint64 startedAtMs = 0;  // 0 when never started
    qint64 finishedAtMs = 0; // 0 when unknown
    int accepted = -1;       // -1 no check applied, 0 rejected, 1 accepted
};

// EXPLAIN QUERY PLAN of one hot-path statement, for the test that proves none of them scans a big table.
struct QueryPlan {
    QString name;
    QString sql;
    QStringList steps; // SQLite's plan lines, e.g. "SEARCH entries USING INDEX entries_pending (...)"
};

} // namespace crawl
