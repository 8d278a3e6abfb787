#include "store/crawlstore.h"

#include "frontier/crawljournal.h"
#include "store/storebackup.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QTimeZone>

#include <iterator>
#include <limits>
#include <sqlite3.h>

namespace crawl {

namespace {

// Migration steps: kMigrations[n] takes a file from schema version n to n + 1. Never edit a released step;
// append a new one (and bump kSchemaVersion). A new store runs them all from 0.
const char *const kMigrations[] = {
    // 0 -> 1: the first schema.
    R"sql(
CREATE TABLE settings(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE crawl(
    id INTEGER PRIMARY KEY CHECK (id = 1),
    lines INTEGER NOT NULL DEFAULT 0, duplicates INTEGER NOT NULL DEFAULT 0, invalid INTEGER NOT NULL DEFAULT 0,
    pending INTEGER NOT NULL DEFAULT 0, in_flight INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0,
    ok INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0, retries INTEGER NOT NULL DEFAULT 0);
INSERT INTO crawl(id) VALUES (1);
CREATE TABLE hosts(
    id INTEGER PRIMARY KEY,
    host_key TEXT NOT NULL UNIQUE,
    pending INTEGER NOT NULL DEFAULT 0, in_flight INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0,
    ok INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0, retries INTEGER NOT NULL DEFAULT 0,
    http429 INTEGER NOT NULL DEFAULT 0,
    paused_until INTEGER NOT NULL DEFAULT 0,
    user_paused INTEGER NOT NULL DEFAULT 0,
    max_in_flight INTEGER,
    start_interval_ms INTEGER);
CREATE TABLE entries(
    id INTEGER PRIMARY KEY,
    line INTEGER NOT NULL,
    url TEXT UNIQUE,
    raw TEXT,
    host_id INTEGER REFERENCES hosts(id),
    state INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until INTEGER);
CREATE INDEX entries_pending ON entries(host_id, next_at) WHERE state < 2;
CREATE INDEX entries_leased ON entries(lease_until) WHERE state = 2;
CREATE TABLE results(
    entry_id INTEGER PRIMARY KEY REFERENCES entries(id),
    final_url TEXT, status INTEGER, outcome TEXT NOT NULL, attempts INTEGER, redirects INTEGER,
    bytes INTEGER, content_type TEXT, latency_ms INTEGER, ttfb_ms INTEGER, error TEXT,
    started_at INTEGER, finished_at INTEGER, redirect_chain TEXT);
)sql",
    // 1 -> 2: hosts.eligible_at, so "which hosts can start now" is an index range, not a scan of entries.
    R"sql(
ALTER TABLE hosts ADD COLUMN eligible_at INTEGER;
UPDATE hosts SET eligible_at = CASE WHEN user_paused <> 0 THEN NULL ELSE
    max((SELECT min(next_at) FROM entries WHERE entries.host_id = hosts.id AND state < 2), paused_until) END;
CREATE INDEX hosts_eligible ON hosts(eligible_at) WHERE eligible_at IS NOT NULL;
)sql",
    // 2 -> 3: acceptance (issue 13), separate from the outcome: accepted NULL = no check applied, 1 yes, 0
    // no.
    R"sql(
ALTER TABLE results ADD COLUMN accepted INTEGER;
ALTER TABLE results ADD COLUMN reject_reason TEXT;
ALTER TABLE results ADD COLUMN title TEXT;
)sql",
};
static_assert(std::size(kMigrations) == CrawlStore::kSchemaVersion);

constexpr int kQueued = int(EntryState::Queued);
constexpr int kRetryWait = int(EntryState::RetryWait);
constexpr int kInFlight = int(EntryState::InFlight);
constexpr int kDone = int(EntryState::Done);

// The hot-path statements, kept here by name so hotPathQueryPlans() explains exactly what runs.
struct NamedSql {
    const char *name;
    const char *sql;
};
constexpr NamedSql kHostByKey{"hostByKey", "SELECT id FROM hosts WHERE host_key = ?1"};
constexpr NamedSql kInsertHost{"insertHost", "INSERT INTO hosts(host_key) VALUES (?1)"};
constexpr NamedSql kInsertEntry{"insertEntry", "INSERT INTO entries(line, url, raw, host_id, state, next_at) "
                                               "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(url) DO NOTHING"};
constexpr NamedSql kInsertResult{
    "insertResult",
    "INSERT OR REPLACE INTO results(entry_id, final_url, status, outcome, attempts, redirects, bytes, "
    "content_type, latency_ms, ttfb_ms, error, started_at, finished_at, redirect_chain, accepted, "
    "reject_reason, title) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)"};
constexpr NamedSql kEntryById{"entryById", "SELECT host_id, state FROM entries WHERE id = ?1"};
constexpr NamedSql kFinishEntry{"finishEntry",
                                "UPDATE entries SET state = 3, lease_owner = NULL, lease_until = NULL "
                                "WHERE id = ?1"};
constexpr NamedSql kRetryEntry{"retryEntry",
                               "UPDATE entries SET state = 1, next_at = ?2, lease_owner = NULL, "
                               "lease_until = NULL WHERE id = ?1"};
constexpr NamedSql kLeaseEntry{"leaseEntry",
                               "UPDATE entries SET state = 2, lease_owner = ?2, "
                               "lease_until = ?3 WHERE id = ?1 AND state < 2 RETURNING host_id"};
// An attempt counts when it starts, not when its entry is leased: a URL leased but never started before a
// crash keeps its whole retry budget.
constexpr NamedSql kStartAttempt{"startAttempt",
                                 "UPDATE entries SET attempts = attempts + 1 WHERE id = ?1 AND state = 2"};
constexpr NamedSql kRequeueEntry{"requeueEntry",
                                 "UPDATE entries SET state = 0, lease_owner = NULL, lease_until = NULL "
                                 "WHERE id = ?1"};
// Tallies move with the entries; eligible_at is recomputed from the partial index (one seek per host).
constexpr NamedSql kHostDelta{
    "hostDelta",
    "UPDATE hosts SET pending = pending + ?2, in_flight = in_flight + ?3, done = done + ?4, ok = ok + ?5, "
    "failed = failed + ?6, retries = retries + ?7, http429 = http429 + ?8, "
    "paused_until = max(paused_until, ?9), "
    "eligible_at = CASE WHEN user_paused <> 0 THEN NULL ELSE "
    "max((SELECT min(next_at) FROM entries WHERE host_id = ?1 AND state < 2), max(paused_until, ?9)) END "
    "WHERE id = ?1"};
constexpr NamedSql kCrawlDelta{
    "crawlDelta",
    "UPDATE crawl SET lines = lines + ?1, duplicates = duplicates + ?2, invalid = invalid + ?3, "
    "pending = pending + ?4, in_flight = in_flight + ?5, done = done + ?6, ok = ok + ?7, "
    "failed = failed + ?8, retries = retries + ?9 WHERE id = 1"};
constexpr NamedSql kChunk{"nextChunkForHost",
                          "SELECT id, line, url, attempts, next_at FROM entries "
                          "WHERE host_id = ?1 AND state < 2 AND next_at <= ?2 ORDER BY next_at, id LIMIT ?3"};
constexpr NamedSql kEligibleHosts{"hostsWithEligibleWork",
                                  "SELECT host_key, eligible_at FROM hosts WHERE eligible_at <= ?1 "
                                  "ORDER BY eligible_at LIMIT ?2"};
constexpr NamedSql kNextEligible{"nextEligibleAt",
                                 "SELECT eligible_at FROM hosts WHERE eligible_at IS NOT NULL "
                                 "ORDER BY eligible_at LIMIT 1"};
constexpr NamedSql kLeased{"leasedUntil",
                           "SELECT id, host_id FROM entries WHERE state = 2 AND lease_until <= ?1"};

#define CRAWLSTORE_HOST_COLUMNS                                                                              \
    "SELECT host_key, pending, in_flight, done, ok, failed, retries, http429, paused_until, user_paused, "   \
    "max_in_flight, start_interval_ms, eligible_at FROM hosts "
constexpr NamedSql kHostByName{"hostRecord", CRAWLSTORE_HOST_COLUMNS "WHERE host_key = ?1"};
// Keyset paging (after the last key shown), so page N costs the same as page 1.
constexpr NamedSql kHostsPage{"hostsPage",
                              CRAWLSTORE_HOST_COLUMNS "WHERE host_key > ?1 ORDER BY host_key LIMIT ?2"};
#undef CRAWLSTORE_HOST_COLUMNS
#define CRAWLSTORE_ROW_SELECT                                                                                \
    "SELECT e.id, e.line, e.url, e.raw, h.host_key, e.attempts, r.entry_id, r.final_url, r.status, "         \
    "r.outcome, r.attempts, r.redirects, r.bytes, r.content_type, r.latency_ms, r.ttfb_ms, r.error, "        \
    "r.started_at, r.finished_at, r.redirect_chain, r.accepted, r.reject_reason, r.title "                   \
    "FROM entries e LEFT JOIN hosts h ON h.id = e.host_id "                                                  \
    "LEFT JOIN results r ON r.entry_id = e.id"
constexpr const char *kRowSelect = CRAWLSTORE_ROW_SELECT;
constexpr NamedSql kRowsPage{"rowsPage", CRAWLSTORE_ROW_SELECT " WHERE e.id > ?1 ORDER BY e.id LIMIT ?2"};
constexpr NamedSql kFinishedRowsPage{"finishedRowsPage", CRAWLSTORE_ROW_SELECT
                                     " WHERE e.id > ?1 AND e.state = 3 ORDER BY e.id LIMIT ?2"};
constexpr NamedSql kUnfinishedRowsPage{"unfinishedRowsPage", CRAWLSTORE_ROW_SELECT
                                       " WHERE e.id > ?1 AND e.state < 3 ORDER BY e.id LIMIT ?2"};
#undef CRAWLSTORE_ROW_SELECT

HostRecord hostFrom(const SqlStatement &query) {
    HostRecord h;
    h.hostKey = query.text(0);
    h.pending = query.int64(1);
    h.inFlight = query.int64(2);
    h.done = query.int64(3);
    h.ok = query.int64(4);
    h.failed = query.int64(5);
    h.retries = query.int64(6);
    h.http429 = query.int64(7);
    h.pausedUntilMs = query.int64(8);
    h.userPaused = query.int64(9) != 0;
    h.maxInFlight = query.isNull(10) ? 0 : int(query.int64(10));
    h.startIntervalMs = query.isNull(11) ? -1 : query.int64(11);
    h.eligibleAtMs = query.isNull(12) ? -1 : query.int64(12);
    return h;
}

// One CSV row from kRowSelect's columns.
CrawlResult rowFrom(const SqlStatement &query) {
    const auto time = [&](int column) {
        return query.isNull(column) ? QDateTime()
                                    : QDateTime::fromMSecsSinceEpoch(query.int64(column), Qt::UTC);
    };
    CrawlResult r;
    r.id = quint64(query.int64(0));
    r.lineNumber = query.int64(1);
    r.url = query.isNull(2) ? query.text(3) : query.text(2);
    r.host = query.text(4);
    if (query.isNull(6)) {
        // Not finished (the crawl was stopped): the row today's CSV writes for such a URL.
        r.outcome = Outcome::Cancelled;
        r.attempts = int(query.int64(5));
        r.error = QStringLiteral("crawl stopped before this URL finished");
        return r;
    }
    r.finalUrl = query.text(7);
    r.status = int(query.int64(8));
    r.outcome = outcomeFromName(query.text(9)).value_or(Outcome::Cancelled);
    r.attempts = int(query.int64(10));
    r.redirects = int(query.int64(11));
    r.bytes = query.int64(12);
    r.contentType = query.text(13);
    r.latencyMs = query.int64(14);
    r.ttfbMs = query.int64(15);
    r.error = query.text(16);
    r.startedAt = time(17);
    r.finishedAt = time(18);
    if (!query.isNull(19))
        r.redirectChain = query.text(19).split(QLatin1Char('\n'));
    if (!query.isNull(20))
        r.accepted = query.int64(20) != 0 ? CrawlResult::Accepted::Yes : CrawlResult::Accepted::No;
    r.rejectReason = query.text(21);
    r.title = query.text(22);
    return r;
}

constexpr NamedSql kHotPath[] = {
    kHostByKey,  kInsertHost,       kInsertEntry,       kInsertResult, kEntryById,    kFinishEntry,
    kRetryEntry, kLeaseEntry,       kRequeueEntry,      kHostDelta,    kStartAttempt, kCrawlDelta,
    kChunk,      kEligibleHosts,    kNextEligible,      kLeased,       kHostByName,   kHostsPage,
    kRowsPage,   kFinishedRowsPage, kUnfinishedRowsPage};

qint64 msOrNull(const QDateTime &time) {
    return time.isValid() ? time.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
}

StoreError makeError(StoreError::Kind kind, const QString &message) {
    return StoreError{kind, message};
}

} // namespace

CrawlStore::CrawlStore(QString path, sqlite3 *db, const StoreOptions &options)
    : m_path(std::move(path))
    , m_db(db)
    , m_thread(QThread::currentThread())
    , m_options(options) {}

CrawlStore::~CrawlStore() {
    // Statements must be finalized before the connection closes.
    m_hostByKey = {};
    m_insertHost = {};
    m_insertEntry = {};
    m_insertResult = {};
    m_entryById = {};
    m_finishEntry = {};
    m_retryEntry = {};
    m_leaseEntry = {};
    m_requeueEntry = {};
    m_startAttempt = {};
    m_hostDelta = {};
    m_crawlDelta = {};
    m_chunk = {};
    m_eligibleHosts = {};
    m_leased = {};
    sqlite3_close_v2(m_db);
}

std::unique_ptr<CrawlStore> CrawlStore::create(const QString &path, const QMap<QString, QString> &settings,
                                               StoreError *error, const StoreOptions &options) {
    StoreError local;
    StoreError &err = error ? *error : local;
    err = {};
    if (options.readOnly) {
        err = makeError(StoreError::Kind::ReadOnly,
                        QStringLiteral("cannot create crawl store %1 read-only").arg(path));
        return nullptr;
    }
    // O_EXCL: refusing an existing file is atomic, and a file we did not create is never deleted.
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
        if (QFileInfo::exists(path))
            err =
                makeError(StoreError::Kind::AlreadyExists,
                          QStringLiteral("%1 already exists: use --resume to continue that crawl, or choose "
                                         "a new file")
                              .arg(path));
        else
            err = makeError(StoreError::Kind::Io,
                            QStringLiteral("cannot create crawl store %1: %2").arg(path, file.errorString()));
        return nullptr;
    }
    file.close();
    auto store = openConnection(path, true, options, &err);
    if (store && !store->setSettings(settings)) {
        err = store->lastError();
        store.reset();
    }
    if (!store) {
        QFile::remove(path);
        QFile::remove(path + QStringLiteral("-wal"));
        QFile::remove(path + QStringLiteral("-shm"));
    }
    return store;
}

std::unique_ptr<CrawlStore> CrawlStore::open(const QString &path, StoreError *error,
                                             const StoreOptions &options) {
    StoreError local;
    StoreError &err = error ? *error : local;
    err = {};
    QFile file(path);
    if (!file.exists()) {
        err =
            makeError(StoreError::Kind::NotFound, QStringLiteral("crawl store %1 does not exist").arg(path));
        return nullptr;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        err = makeError(StoreError::Kind::Io,
                        QStringLiteral("cannot read crawl store %1: %2").arg(path, file.errorString()));
        return nullptr;
    }
    // SQLite's own message for a text file is "file is not a database" at the first query; say it plainly.
    const QByteArray header = file.read(16);
    file.close();
    if (header != QByteArray("SQLite format 3\0", 16)) {
        err = makeError(
            StoreError::Kind::NotACrawlStore,
            QStringLiteral("%1 is not a Crawlscope crawl store (not an SQLite database)").arg(path));
        return nullptr;
    }
    return openConnection(path, false, options, &err);
}

std::unique_ptr<CrawlStore> CrawlStore::openConnection(const QString &path, bool creating,
                                                       const StoreOptions &options, StoreError *error) {
    sqlite3 *db = nullptr;
    int flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
    flags |= options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
    const int rc = sqlite3_open_v2(QFile::encodeName(path).constData(), &db, flags, nullptr);
    std::unique_ptr<CrawlStore> store(new CrawlStore(path, db, options));
    if (rc != SQLITE_OK) {
        store->fail(rc, QStringLiteral("opening it"));
        *error = store->m_error;
        return nullptr;
    }
    // A connection that closes the file takes its exclusive lock for a moment (the WAL's last checkpoint):
    // the window's loader and summary reader open and close an opened crawl side by side, and one of them
    // then saw "in use by another process". A crawl that holds the lock is still refused, after the wait.
    if (options.busyWaitMs > 0)
        sqlite3_busy_timeout(db, options.busyWaitMs);
    if (!options.readOnly && sqlite3_db_readonly(db, "main") == 1) {
        *error =
            makeError(StoreError::Kind::ReadOnly,
                      QStringLiteral("crawl store %1 is read-only: a crawl cannot continue in it (export "
                                     "still works)")
                          .arg(path));
        return nullptr;
    }
    if (!store->configure() || !store->checkAndMigrate(creating) || !store->prepareStatements()) {
        *error = store->m_error;
        return nullptr;
    }
    return store;
}

bool CrawlStore::configure() {
    // Exclusive: one process owns a crawl (a second one gets Busy), and WAL needs no shared-memory file.
    // A read-only connection cannot hold WAL's index in exclusive mode without writing; it shares instead.
    if (!m_options.readOnly && !exec("PRAGMA locking_mode = EXCLUSIVE"))
        return false;
    return exec("PRAGMA foreign_keys = OFF");
}

bool CrawlStore::checkAndMigrate(bool creating) {
    SqlStatement pragma;
    auto readPragma = [&](const char *sql, qint64 *value) {
        int rc = pragma.prepare(m_db, sql);
        if (rc == SQLITE_OK)
            rc = pragma.step();
        if (rc != SQLITE_ROW)
            return fail(rc, QStringLiteral("reading its header"));
        *value = pragma.int64(0);
        pragma.reset(); // an unfinished statement would hold a read transaction open
        return true;
    };
    qint64 applicationId = 0;
    qint64 version = 0;
    if (!readPragma("PRAGMA application_id", &applicationId) || !readPragma("PRAGMA user_version", &version))
        return false;
    if (!creating) {
        if (applicationId != kApplicationId || version == 0) {
            m_error = makeError(
                StoreError::Kind::NotACrawlStore,
                QStringLiteral("%1 is an SQLite database but not a Crawlscope crawl store").arg(m_path));
            return false;
        }
        if (version > kSchemaVersion) {
            m_error = makeError(StoreError::Kind::TooNew,
                                QStringLiteral("crawl store %1 was written by a newer Crawlscope (schema %2, "
                                               "this build knows %3): update Crawlscope to open it")
                                    .arg(m_path)
                                    .arg(version)
                                    .arg(kSchemaVersion));
            return false;
        }
    }
    if (!m_options.readOnly) {
        SqlStatement mode;
        int rc = mode.prepare(m_db, "PRAGMA journal_mode = WAL");
        if (rc == SQLITE_OK)
            rc = mode.step();
        if (rc != SQLITE_ROW)
            return fail(rc, QStringLiteral("switching it to WAL mode"));
        const QString journalMode = mode.text(0);
        mode.reset();
        if (journalMode.compare(QStringLiteral("wal"), Qt::CaseInsensitive) != 0) {
            m_error = makeError(
                StoreError::Kind::Io,
                QStringLiteral("crawl store %1: WAL mode is not available on this file system").arg(m_path));
            return false;
        }
        if (!exec(m_options.sync == StoreOptions::Sync::Full ? "PRAGMA synchronous = FULL"
                                                             : "PRAGMA synchronous = NORMAL"))
            return false;
        if (m_options.maxBytes > 0) {
            const qint64 pages = std::max<qint64>(1, m_options.maxBytes / 4096);
            if (!exec(QStringLiteral("PRAGMA max_page_count = %1").arg(pages).toUtf8().constData()))
                return false;
        }
    }
    if (version < kSchemaVersion) {
        if (m_options.readOnly) {
            m_error = makeError(StoreError::Kind::ReadOnly,
                                QStringLiteral("crawl store %1 needs upgrading from schema %2 to %3, which "
                                               "cannot be done read-only")
                                    .arg(m_path)
                                    .arg(version)
                                    .arg(kSchemaVersion));
            return false;
        }
        if (!begin())
            return false;
        for (qint64 step = version; step < kSchemaVersion; ++step) {
            if (!exec(kMigrations[step]) ||
                !exec(QStringLiteral("PRAGMA user_version = %1").arg(step + 1).toUtf8().constData())) {
                rollback();
                return false;
            }
        }
        if (creating &&
            !exec(QStringLiteral("PRAGMA application_id = %1").arg(kApplicationId).toUtf8().constData())) {
            rollback();
            return false;
        }
        if (!commit())
            return false;
    }
    // A file with our id but without our tables was damaged or tampered with.
    SqlStatement tables;
    int rc = tables.prepare(m_db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
                                  "('settings', 'crawl', 'hosts', 'entries', 'results')");
    if (rc == SQLITE_OK)
        rc = tables.step();
    if (rc != SQLITE_ROW)
        return fail(rc, QStringLiteral("reading its schema"));
    SqlStatement crawlRow;
    if (tables.int64(0) == 5 && crawlRow.prepare(m_db, "SELECT lines FROM crawl WHERE id = 1") == SQLITE_OK) {
        rc = crawlRow.step();
        if (rc == SQLITE_ROW)
            return true;
        if (rc != SQLITE_DONE)
            return fail(rc, QStringLiteral("reading its counters"));
    }
    m_error = makeError(StoreError::Kind::Corrupt,
                        QStringLiteral("crawl store %1 is damaged: its tables are missing").arg(m_path));
    return false;
}

bool CrawlStore::prepareStatements() {
    const std::pair<SqlStatement *, NamedSql> all[] = {
        {&m_hostByKey, kHostByKey},         {&m_insertHost, kInsertHost}, {&m_insertEntry, kInsertEntry},
        {&m_insertResult, kInsertResult},   {&m_entryById, kEntryById},   {&m_finishEntry, kFinishEntry},
        {&m_retryEntry, kRetryEntry},       {&m_leaseEntry, kLeaseEntry}, {&m_requeueEntry, kRequeueEntry},
        {&m_hostDelta, kHostDelta},         {&m_crawlDelta, kCrawlDelta}, {&m_chunk, kChunk},
        {&m_eligibleHosts, kEligibleHosts}, {&m_leased, kLeased},         {&m_startAttempt, kStartAttempt}};
    for (const auto &[statement, named] : all) {
        if (const int rc = statement->prepare(m_db, named.sql); rc != SQLITE_OK)
            return fail(rc, QStringLiteral("preparing %1").arg(QLatin1String(named.name)));
    }
    return true;
}

bool CrawlStore::exec(const char *sql) {
    Q_ASSERT_X(QThread::currentThread() == m_thread, "CrawlStore", "used from a second thread");
    char *message = nullptr;
    const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, &message);
    sqlite3_free(message);
    if (rc != SQLITE_OK)
        return fail(rc, QStringLiteral("running %1").arg(QString::fromUtf8(sql).simplified().left(60)));
    return true;
}

bool CrawlStore::fail(int rc, const QString &what) {
    const QString detail =
        m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QString::fromUtf8(sqlite3_errstr(rc));
    using Kind = StoreError::Kind;
    switch (rc & 0xff) {
    case SQLITE_FULL:
        m_error =
            makeError(Kind::DiskFull, QStringLiteral("crawl store %1: the disk is full or the store reached "
                                                     "its size limit while %2; that change was not saved, "
                                                     "everything saved before it is intact")
                                          .arg(m_path, what));
        break;
    case SQLITE_READONLY:
        m_error =
            makeError(Kind::ReadOnly,
                      QStringLiteral("crawl store %1 cannot be written (read-only file, folder or disk) "
                                     "while %2: %3")
                          .arg(m_path, what, detail));
        break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        m_error =
            makeError(Kind::Corrupt,
                      QStringLiteral("crawl store %1 is damaged (%2 while %3)").arg(m_path, detail, what));
        break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        m_error = makeError(
            Kind::Busy, QStringLiteral("crawl store %1 is in use by another Crawlscope process").arg(m_path));
        break;
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
        m_error = makeError(
            Kind::Io, QStringLiteral("crawl store %1: I/O error while %2: %3").arg(m_path, what, detail));
        break;
    default:
        m_error = makeError(Kind::Other,
                            QStringLiteral("crawl store %1: error while %2: %3").arg(m_path, what, detail));
        break;
    }
    return false;
}

bool CrawlStore::begin() {
    return exec("BEGIN IMMEDIATE");
}

bool CrawlStore::commit() {
    if (exec("COMMIT"))
        return true;
    rollback();
    return false;
}

void CrawlStore::rollback() {
    m_lastHostKey.clear(); // the cached host may have been inserted by the transaction being undone
    // SQLite rolls some failures (FULL, IOERR) back itself; a second ROLLBACK would only add an error.
    if (!sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

bool CrawlStore::stepDone(SqlStatement &statement, const QString &what) {
    const int rc = statement.step();
    statement.reset();
    if (rc == SQLITE_DONE || rc == SQLITE_ROW)
        return true;
    return fail(rc, what);
}

QString CrawlStore::durability() {
    SqlStatement mode;
    SqlStatement sync;
    if (mode.prepare(m_db, "PRAGMA journal_mode") != SQLITE_OK || mode.step() != SQLITE_ROW ||
        sync.prepare(m_db, "PRAGMA synchronous") != SQLITE_OK || sync.step() != SQLITE_ROW)
        return {};
    static const char *const levels[] = {"OFF", "NORMAL", "FULL", "EXTRA"};
    const qint64 level = sync.int64(0);
    return QStringLiteral("journal_mode=%1 synchronous=%2")
        .arg(mode.text(0), level >= 0 && level < 4 ? QLatin1String(levels[level]) : QLatin1String("?"));
}

QMap<QString, QString> CrawlStore::settings() {
    QMap<QString, QString> values;
    SqlStatement query;
    if (int rc = query.prepare(m_db, "SELECT key, value FROM settings"); rc != SQLITE_OK) {
        fail(rc, QStringLiteral("reading settings"));
        return values;
    }
    int rc;
    while ((rc = query.step()) == SQLITE_ROW)
        values.insert(query.text(0), query.text(1));
    if (rc != SQLITE_DONE)
        fail(rc, QStringLiteral("reading settings"));
    return values;
}

bool CrawlStore::setSettings(const QMap<QString, QString> &values) {
    SqlStatement upsert;
    if (int rc = upsert.prepare(m_db, "INSERT INTO settings(key, value) VALUES (?1, ?2) "
                                      "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
        rc != SQLITE_OK)
        return fail(rc, QStringLiteral("saving settings"));
    if (!begin())
        return false;
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        upsert.bind(1, it.key());
        upsert.bind(2, it.value().isNull() ? QStringLiteral("") : it.value());
        if (!stepDone(upsert, QStringLiteral("saving settings"))) {
            rollback();
            return false;
        }
    }
    return commit();
}

qint64 CrawlStore::hostIdFor(const QString &hostKey, bool createIfMissing) {
    if (!m_lastHostKey.isEmpty() && hostKey == m_lastHostKey)
        return m_lastHostId;
    m_hostByKey.bind(1, hostKey);
    const int rc = m_hostByKey.step();
    qint64 id = 0;
    if (rc == SQLITE_ROW)
        id = m_hostByKey.int64(0);
    m_hostByKey.reset();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        fail(rc, QStringLiteral("looking up a host"));
        return -1;
    }
    if (id == 0) {
        if (!createIfMissing)
            return 0;
        m_insertHost.bind(1, hostKey);
        if (!stepDone(m_insertHost, QStringLiteral("adding a host")))
            return -1;
        id = sqlite3_last_insert_rowid(m_db);
    }
    m_lastHostKey = hostKey;
    m_lastHostId = id;
    return id;
}

bool CrawlStore::applyHostDeltas(const QHash<qint64, HostDelta> &deltas) {
    for (auto it = deltas.cbegin(); it != deltas.cend(); ++it) {
        const HostDelta &d = it.value();
        m_hostDelta.bind(1, it.key());
        m_hostDelta.bind(2, d.pending);
        m_hostDelta.bind(3, d.inFlight);
        m_hostDelta.bind(4, d.done);
        m_hostDelta.bind(5, d.ok);
        m_hostDelta.bind(6, d.failed);
        m_hostDelta.bind(7, d.retries);
        m_hostDelta.bind(8, d.http429);
        m_hostDelta.bind(9, d.pausedUntil);
        if (!stepDone(m_hostDelta, QStringLiteral("updating host tallies")))
            return false;
    }
    return true;
}

bool CrawlStore::applyCrawlDelta(const CrawlDelta &d) {
    const qint64 values[] = {d.lines, d.duplicates, d.invalid, d.pending, d.inFlight,
                             d.done,  d.ok,         d.failed,  d.retries};
    for (int i = 0; i < 9; ++i)
        m_crawlDelta.bind(i + 1, values[i]);
    return stepDone(m_crawlDelta, QStringLiteral("updating crawl counters"));
}

bool CrawlStore::appendInput(const QList<StoreInputLine> &lines, qint64 nowMs, AppendOutcome *outcome,
                             QList<CrawlResult> *invalidRows) {
    QList<CrawlResult> invalid;
    if (!begin())
        return false;
    AppendOutcome out;
    CrawlDelta crawlDelta;
    QHash<qint64, HostDelta> hostDeltas;
    const QString appending = QStringLiteral("saving input lines");
    for (const StoreInputLine &line : lines) {
        ++crawlDelta.lines;
        const bool valid = !line.normalizedUrl.isEmpty();
        qint64 hostId = 0;
        if (valid) {
            hostId = hostIdFor(line.hostKey, true);
            if (hostId < 0) {
                rollback();
                return false;
            }
        }
        m_insertEntry.bind(1, line.lineNumber);
        if (valid) {
            m_insertEntry.bind(2, line.normalizedUrl);
            m_insertEntry.bindNull(3);
            m_insertEntry.bind(4, hostId);
            m_insertEntry.bind(5, qint64(kQueued));
        } else {
            m_insertEntry.bindNull(2);
            m_insertEntry.bind(3, line.raw);
            m_insertEntry.bindNull(4);
            m_insertEntry.bind(5, qint64(kDone));
        }
        m_insertEntry.bind(6, nowMs);
        if (!stepDone(m_insertEntry, appending)) {
            rollback();
            return false;
        }
        if (sqlite3_changes(m_db) == 0) {
            ++out.duplicates;
            ++crawlDelta.duplicates;
            continue;
        }
        const qint64 entryId = sqlite3_last_insert_rowid(m_db);
        if (valid) {
            ++out.added;
            ++crawlDelta.pending;
            ++hostDeltas[hostId].pending;
            continue;
        }
        // Invalid lines are finished at once: the same row today's feeder emits.
        ++out.invalid;
        ++crawlDelta.invalid;
        ++crawlDelta.done;
        ++crawlDelta.failed;
        m_insertResult.bind(1, entryId);
        m_insertResult.bind(4, outcomeName(Outcome::InvalidUrl));
        m_insertResult.bind(5, qint64(0));
        m_insertResult.bind(6, qint64(0));
        m_insertResult.bind(7, qint64(0));
        m_insertResult.bind(9, qint64(-1));
        m_insertResult.bind(10, qint64(-1));
        const QString error = QStringLiteral("line %1: %2").arg(line.lineNumber).arg(line.invalidReason);
        m_insertResult.bind(11, error);
        m_insertResult.bind(13, nowMs);
        if (!stepDone(m_insertResult, appending)) {
            rollback();
            return false;
        }
        if (invalidRows) {
            CrawlResult row;
            row.id = quint64(entryId);
            row.lineNumber = line.lineNumber;
            row.url = line.raw;
            row.outcome = Outcome::InvalidUrl;
            row.error = error;
            row.finishedAt = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC);
            invalid.append(std::move(row));
        }
    }
    if (!applyHostDeltas(hostDeltas) || !applyCrawlDelta(crawlDelta)) {
        rollback();
        return false;
    }
    if (!commit())
        return false;
    if (outcome)
        *outcome = out;
    if (invalidRows)
        invalidRows->append(std::move(invalid));
    return true;
}

qint64 CrawlStore::lastInputLine() {
    SqlStatement query;
    int rc = query.prepare(m_db, "SELECT max(line) FROM entries");
    if (rc == SQLITE_OK)
        rc = query.step();
    if (rc == SQLITE_ROW)
        return query.isNull(0) ? 0 : query.int64(0);
    fail(rc, QStringLiteral("reading the input position"));
    return -1;
}

QList<PendingEntry> CrawlStore::nextChunkForHost(const QString &hostKey, int limit, qint64 nowMs) {
    QList<PendingEntry> chunk;
    const qint64 hostId = hostIdFor(hostKey, false);
    if (hostId <= 0)
        return chunk;
    m_chunk.bind(1, hostId);
    m_chunk.bind(2, nowMs);
    m_chunk.bind(3, qint64(limit));
    int rc;
    while ((rc = m_chunk.step()) == SQLITE_ROW) {
        PendingEntry entry;
        entry.id = m_chunk.int64(0);
        entry.lineNumber = m_chunk.int64(1);
        entry.url = m_chunk.text(2);
        entry.hostKey = hostKey;
        entry.attempts = int(m_chunk.int64(3));
        entry.nextAtMs = m_chunk.int64(4);
        chunk.append(entry);
    }
    m_chunk.reset();
    if (rc != SQLITE_DONE)
        fail(rc, QStringLiteral("reading queued URLs"));
    return chunk;
}

QList<EligibleHost> CrawlStore::hostsWithEligibleWork(qint64 nowMs, int limit) {
    QList<EligibleHost> hosts;
    m_eligibleHosts.bind(1, nowMs);
    m_eligibleHosts.bind(2, qint64(limit));
    int rc;
    while ((rc = m_eligibleHosts.step()) == SQLITE_ROW)
        hosts.append(EligibleHost{m_eligibleHosts.text(0), m_eligibleHosts.int64(1)});
    m_eligibleHosts.reset();
    if (rc != SQLITE_DONE)
        fail(rc, QStringLiteral("reading hosts with work"));
    return hosts;
}

qint64 CrawlStore::nextEligibleAtMs() {
    SqlStatement query;
    int rc = query.prepare(m_db, kNextEligible.sql);
    if (rc == SQLITE_OK)
        rc = query.step();
    if (rc == SQLITE_ROW)
        return query.int64(0);
    if (rc != SQLITE_DONE)
        fail(rc, QStringLiteral("reading the next eligible time"));
    return -1;
}

qint64 CrawlStore::markInFlight(const QList<qint64> &ids, const QString &owner, qint64 leaseUntilMs) {
    if (!begin())
        return -1;
    qint64 leased = 0;
    QHash<qint64, HostDelta> hostDeltas;
    for (qint64 id : ids) {
        m_leaseEntry.bind(1, id);
        m_leaseEntry.bind(2, owner);
        m_leaseEntry.bind(3, leaseUntilMs);
        const int rc = m_leaseEntry.step();
        const qint64 hostId = rc == SQLITE_ROW ? m_leaseEntry.int64(0) : 0;
        m_leaseEntry.reset();
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            fail(rc, QStringLiteral("leasing URLs"));
            rollback();
            return -1;
        }
        if (rc == SQLITE_ROW) {
            ++leased;
            HostDelta &d = hostDeltas[hostId];
            --d.pending;
            ++d.inFlight;
        }
    }
    CrawlDelta crawlDelta;
    crawlDelta.pending = -leased;
    crawlDelta.inFlight = leased;
    if (!applyHostDeltas(hostDeltas) || !applyCrawlDelta(crawlDelta)) {
        rollback();
        return -1;
    }
    return commit() ? leased : -1;
}

bool CrawlStore::recordResults(const ResultBatch &batch) {
    if (!begin())
        return false;
    const QString recording = QStringLiteral("saving results");
    QHash<qint64, HostDelta> hostDeltas;
    CrawlDelta crawlDelta;
    // The entry's host and state before this change, or false when it does not exist (or failed).
    auto lookUp = [&](qint64 id, qint64 *hostId, int *state) {
        m_entryById.bind(1, id);
        const int rc = m_entryById.step();
        if (rc == SQLITE_ROW) {
            *hostId = m_entryById.int64(0);
            *state = int(m_entryById.int64(1));
        }
        m_entryById.reset();
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            fail(rc, recording);
        return rc;
    };
    auto leavePending = [&](HostDelta &d, int state) {
        if (state == kInFlight) {
            --d.inFlight;
            --crawlDelta.inFlight;
        } else {
            --d.pending;
            --crawlDelta.pending;
        }
    };
    for (qint64 id : batch.started) {
        m_startAttempt.bind(1, id);
        if (!stepDone(m_startAttempt, recording)) {
            rollback();
            return false;
        }
    }
    for (const ResultBatch::Finished &finished : batch.finished) {
        qint64 hostId = 0;
        int state = 0;
        const int rc = lookUp(finished.entryId, &hostId, &state);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            rollback();
            return false;
        }
        if (rc == SQLITE_DONE || state == kDone)
            continue; // unknown or already final: an outcome is recorded once
        const CrawlResult &r = finished.result;
        m_finishEntry.bind(1, finished.entryId);
        if (!stepDone(m_finishEntry, recording)) {
            rollback();
            return false;
        }
        m_insertResult.bind(1, finished.entryId);
        m_insertResult.bind(2, r.finalUrl);
        m_insertResult.bind(3, qint64(r.status));
        m_insertResult.bind(4, outcomeName(r.outcome));
        m_insertResult.bind(5, qint64(r.attempts));
        m_insertResult.bind(6, qint64(r.redirects));
        m_insertResult.bind(7, r.bytes);
        m_insertResult.bind(8, r.contentType);
        m_insertResult.bind(9, r.latencyMs);
        m_insertResult.bind(10, r.ttfbMs);
        m_insertResult.bind(11, r.error);
        const qint64 started = msOrNull(r.startedAt);
        const qint64 ended = msOrNull(r.finishedAt);
        if (started != std::numeric_limits<qint64>::min())
            m_insertResult.bind(12, started);
        if (ended != std::numeric_limits<qint64>::min())
            m_insertResult.bind(13, ended);
        if (!r.redirectChain.isEmpty())
            m_insertResult.bind(14, r.redirectChain.join(QLatin1Char('\n')));
        if (r.accepted != CrawlResult::Accepted::Unknown)
            m_insertResult.bind(15, qint64(r.accepted == CrawlResult::Accepted::Yes ? 1 : 0));
        if (!r.rejectReason.isEmpty())
            m_insertResult.bind(16, r.rejectReason);
        if (!r.title.isEmpty())
            m_insertResult.bind(17, r.title);
        if (!stepDone(m_insertResult, recording)) {
            rollback();
            return false;
        }
        HostDelta &d = hostDeltas[hostId];
        leavePending(d, state);
        ++d.done;
        ++crawlDelta.done;
        if (r.outcome == Outcome::Ok) {
            ++d.ok;
            ++crawlDelta.ok;
        } else {
            ++d.failed;
            ++crawlDelta.failed;
        }
        if (r.status == 429)
            ++d.http429;
    }
    for (const ResultBatch::Retry &retry : batch.retries) {
        qint64 hostId = 0;
        int state = 0;
        const int rc = lookUp(retry.entryId, &hostId, &state);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            rollback();
            return false;
        }
        if (rc == SQLITE_DONE || state == kDone)
            continue;
        m_retryEntry.bind(1, retry.entryId);
        m_retryEntry.bind(2, retry.retryAtMs);
        if (!stepDone(m_retryEntry, recording)) {
            rollback();
            return false;
        }
        HostDelta &d = hostDeltas[hostId];
        leavePending(d, state);
        ++d.pending;
        ++crawlDelta.pending;
        ++d.retries;
        ++crawlDelta.retries;
        if (retry.status == 429)
            ++d.http429;
    }
    for (const ResultBatch::HostPause &pause : batch.pauses) {
        const qint64 hostId = hostIdFor(pause.hostKey, true);
        if (hostId < 0) {
            rollback();
            return false;
        }
        HostDelta &d = hostDeltas[hostId];
        d.pausedUntil = std::max(d.pausedUntil, pause.untilMs);
    }
    if (!applyHostDeltas(hostDeltas) || !applyCrawlDelta(crawlDelta)) {
        rollback();
        return false;
    }
    return commit();
}

qint64 CrawlStore::reclaimLeased(qint64 leaseDeadlineMs) {
    if (!begin())
        return -1;
    QList<std::pair<qint64, qint64>> leased; // entry, host: bounded by what was in flight
    m_leased.bind(1, leaseDeadlineMs);
    int rc;
    while ((rc = m_leased.step()) == SQLITE_ROW)
        leased.append({m_leased.int64(0), m_leased.int64(1)});
    m_leased.reset();
    if (rc != SQLITE_DONE) {
        fail(rc, QStringLiteral("reading leased URLs"));
        rollback();
        return -1;
    }
    QHash<qint64, HostDelta> hostDeltas;
    for (const auto &[entryId, hostId] : leased) {
        m_requeueEntry.bind(1, entryId);
        if (!stepDone(m_requeueEntry, QStringLiteral("requeueing URLs"))) {
            rollback();
            return -1;
        }
        HostDelta &d = hostDeltas[hostId];
        --d.inFlight;
        ++d.pending;
    }
    CrawlDelta crawlDelta;
    crawlDelta.inFlight = -leased.size();
    crawlDelta.pending = leased.size();
    if (!applyHostDeltas(hostDeltas) || !applyCrawlDelta(crawlDelta)) {
        rollback();
        return -1;
    }
    return commit() ? leased.size() : -1;
}

bool CrawlStore::releaseLeases(const QList<ReleasedLease> &leases) {
    if (leases.isEmpty())
        return true;
    SqlStatement release;
    int rc = release.prepare(m_db, "UPDATE entries SET state = 0, attempts = ?2, lease_owner = NULL, "
                                   "lease_until = NULL WHERE id = ?1 AND state = 2 RETURNING host_id");
    if (rc != SQLITE_OK)
        return fail(rc, QStringLiteral("giving back URLs"));
    if (!begin())
        return false;
    QHash<qint64, HostDelta> hostDeltas;
    qint64 released = 0;
    for (const ReleasedLease &lease : leases) {
        release.bind(1, lease.entryId);
        release.bind(2, qint64(lease.attempts));
        rc = release.step();
        const qint64 hostId = rc == SQLITE_ROW ? release.int64(0) : 0;
        release.reset();
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            fail(rc, QStringLiteral("giving back URLs"));
            rollback();
            return false;
        }
        if (rc == SQLITE_ROW) {
            ++released;
            HostDelta &d = hostDeltas[hostId];
            --d.inFlight;
            ++d.pending;
        }
    }
    CrawlDelta crawlDelta;
    crawlDelta.inFlight = -released;
    crawlDelta.pending = released;
    if (!applyHostDeltas(hostDeltas) || !applyCrawlDelta(crawlDelta)) {
        rollback();
        return false;
    }
    return commit();
}

qint64 CrawlStore::requeueFinished(const QList<qint64> &ids, qint64 nowMs) {
    SqlStatement requeue;
    int rc = requeue.prepare(m_db, "UPDATE entries SET state = 0, next_at = ?2 WHERE id = ?1 AND state = 3 "
                                   "AND host_id IS NOT NULL RETURNING host_id, "
                                   "(SELECT outcome FROM results WHERE entry_id = ?1)");
    if (rc != SQLITE_OK) {
        fail(rc, QStringLiteral("queueing URLs again"));
        return -1;
    }
    if (!begin())
        return -1;
    QHash<qint64, HostDelta> hostDeltas;
    CrawlDelta crawlDelta;
    qint64 queued = 0;
    for (qint64 id : ids) {
        requeue.bind(1, id);
        requeue.bind(2, nowMs);
        rc = requeue.step();
        const qint64 hostId = rc == SQLITE_ROW ? requeue.int64(0) : 0;
        const bool wasOk = rc == SQLITE_ROW && requeue.text(1) == outcomeName(Outcome::Ok);
        requeue.reset();
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            fail(rc, QStringLiteral("queueing URLs again"));
            rollback();
            return -1;
        }
        if (rc != SQLITE_ROW)
            continue;
        ++queued;
        HostDelta &d = hostDeltas[hostId];
        --d.done;
        ++d.pending;
        --crawlDelta.done;
        ++crawlDelta.pending;
        if (wasOk) {
            --d.ok;
            --crawlDelta.ok;
        } else {
            --d.failed;
            --crawlDelta.failed;
        }
    }
    if (!applyHostDeltas(hostDeltas) || !applyCrawlDelta(crawlDelta)) {
        rollback();
        return -1;
    }
    return commit() ? queued : -1;
}

qint64 CrawlStore::reclaimInFlight() {
    return reclaimLeased(std::numeric_limits<qint64>::max());
}

qint64 CrawlStore::reclaimExpiredLeases(qint64 nowMs) {
    return reclaimLeased(nowMs);
}

bool CrawlStore::setHostUserPaused(const QString &hostKey, bool paused) {
    return updateHost(hostKey, "UPDATE hosts SET user_paused = ?2 WHERE id = ?1", paused ? 1 : 0, 0);
}

bool CrawlStore::setHostPausedUntil(const QString &hostKey, qint64 untilMs) {
    return updateHost(hostKey, "UPDATE hosts SET paused_until = ?2 WHERE id = ?1", untilMs, 0);
}

bool CrawlStore::setHostOverrides(const QString &hostKey, int maxInFlight, qint64 startIntervalMs) {
    return updateHost(hostKey,
                      "UPDATE hosts SET max_in_flight = nullif(?2, 0), start_interval_ms = nullif(?3, -1) "
                      "WHERE id = ?1",
                      maxInFlight, startIntervalMs);
}

bool CrawlStore::updateHost(const QString &hostKey, const char *sql, qint64 first, qint64 second) {
    SqlStatement update;
    if (int rc = update.prepare(m_db, sql); rc != SQLITE_OK)
        return fail(rc, QStringLiteral("saving a host setting"));
    if (!begin())
        return false;
    const qint64 hostId = hostIdFor(hostKey, true);
    if (hostId < 0) {
        rollback();
        return false;
    }
    update.bind(1, hostId);
    update.bind(2, first);
    update.bind(3, second);
    QHash<qint64, HostDelta> recompute;
    recompute.insert(hostId, HostDelta{});
    if (!stepDone(update, QStringLiteral("saving a host setting")) || !applyHostDeltas(recompute)) {
        rollback();
        return false;
    }
    return commit();
}

std::optional<HostRecord> CrawlStore::hostRecord(const QString &hostKey) {
    SqlStatement query;
    int rc = query.prepare(m_db, kHostByName.sql);
    if (rc == SQLITE_OK) {
        query.bind(1, hostKey);
        rc = query.step();
    }
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            fail(rc, QStringLiteral("reading a host"));
        return std::nullopt;
    }
    return hostFrom(query);
}

QList<HostRecord> CrawlStore::hostsPage(const QString &afterHostKey, int limit) {
    QList<HostRecord> hosts;
    SqlStatement query;
    int rc = query.prepare(m_db, kHostsPage.sql);
    if (rc != SQLITE_OK) {
        fail(rc, QStringLiteral("reading hosts"));
        return hosts;
    }
    query.bind(1, afterHostKey.isNull() ? QStringLiteral("") : afterHostKey);
    query.bind(2, qint64(limit));
    while ((rc = query.step()) == SQLITE_ROW)
        hosts.append(hostFrom(query));
    if (rc != SQLITE_DONE)
        fail(rc, QStringLiteral("reading hosts"));
    return hosts;
}

QList<HostRecord> CrawlStore::busiestHosts(int limit) {
    QList<HostRecord> hosts;
    SqlStatement query;
    int rc = query.prepare(m_db, "SELECT host_key, pending, in_flight, done, ok, failed, retries, http429, "
                                 "paused_until, user_paused, max_in_flight, start_interval_ms, eligible_at "
                                 "FROM hosts ORDER BY done + pending + in_flight DESC, host_key LIMIT ?1");
    if (rc != SQLITE_OK) {
        fail(rc, QStringLiteral("reading hosts"));
        return hosts;
    }
    query.bind(1, qint64(std::max(0, limit)));
    while ((rc = query.step()) == SQLITE_ROW)
        hosts.append(hostFrom(query));
    if (rc != SQLITE_DONE)
        fail(rc, QStringLiteral("reading hosts"));
    return hosts;
}

qint64 CrawlStore::hostCount() {
    SqlStatement query;
    int rc = query.prepare(m_db, "SELECT count(*) FROM hosts");
    if (rc == SQLITE_OK && (rc = query.step()) == SQLITE_ROW)
        return query.int64(0);
    fail(rc, QStringLiteral("counting hosts"));
    return 0;
}

bool CrawlStore::forEachResultFact(const std::function<bool(const ResultFact &)> &fact) {
    SqlStatement query;
    int rc = query.prepare(
        m_db, "SELECT h.host_key, r.latency_ms, r.started_at, r.finished_at, r.accepted, r.outcome, "
              "r.attempts "
              "FROM results r JOIN entries e ON e.id = r.entry_id "
              "LEFT JOIN hosts h ON h.id = e.host_id WHERE e.state = 3 ORDER BY r.entry_id");
    if (rc != SQLITE_OK)
        return fail(rc, QStringLiteral("reading results"));
    ResultFact f;
    while ((rc = query.step()) == SQLITE_ROW) {
        f.hostKey = query.text(0);
        f.latencyMs = query.isNull(1) ? -1 : query.int64(1);
        f.startedAtMs = query.isNull(2) ? 0 : query.int64(2);
        f.finishedAtMs = query.isNull(3) ? 0 : query.int64(3);
        f.accepted = query.isNull(4) ? -1 : int(query.int64(4));
        f.outcome = outcomeFromName(query.text(5)).value_or(Outcome::Cancelled);
        f.attempts = int(query.int64(6));
        if (!fact(f))
            return true;
    }
    if (rc != SQLITE_DONE)
        return fail(rc, QStringLiteral("reading results"));
    return true;
}

bool CrawlStore::verifyIntegrity() {
    SqlStatement check;
    int rc = check.prepare(m_db, "PRAGMA quick_check");
    if (rc != SQLITE_OK)
        return fail(rc, QStringLiteral("checking it"));
    QStringList problems;
    while ((rc = check.step()) == SQLITE_ROW) {
        const QString line = check.text(0);
        if (line != QStringLiteral("ok"))
            problems.append(line);
    }
    if (rc != SQLITE_DONE)
        return fail(rc, QStringLiteral("checking it"));
    if (problems.isEmpty())
        return true;
    m_error = makeError(StoreError::Kind::Corrupt,
                        QStringLiteral("crawl store %1 is damaged (%2)").arg(m_path, problems.first()));
    return false;
}

StoreCounts CrawlStore::counts() {
    StoreCounts c;
    SqlStatement query;
    int rc = query.prepare(m_db, "SELECT lines, duplicates, invalid, pending, in_flight, done, ok, failed, "
                                 "retries FROM crawl WHERE id = 1");
    if (rc == SQLITE_OK)
        rc = query.step();
    if (rc != SQLITE_ROW) {
        fail(rc, QStringLiteral("reading counters"));
        return c;
    }
    c.lines = query.int64(0);
    c.duplicates = query.int64(1);
    c.invalid = query.int64(2);
    c.pending = query.int64(3);
    c.inFlight = query.int64(4);
    c.done = query.int64(5);
    c.ok = query.int64(6);
    c.failed = query.int64(7);
    c.retries = query.int64(8);
    return c;
}

EntryState CrawlStore::entryState(qint64 id) {
    m_entryById.bind(1, id);
    const int rc = m_entryById.step();
    const int state = rc == SQLITE_ROW ? int(m_entryById.int64(1)) : kDone;
    m_entryById.reset();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        fail(rc, QStringLiteral("reading an entry"));
    switch (state) {
    case kQueued:
        return EntryState::Queued;
    case kRetryWait:
        return EntryState::RetryWait;
    case kInFlight:
        return EntryState::InFlight;
    default:
        return EntryState::Done;
    }
}

bool CrawlStore::exportRows(const std::function<bool(const CrawlResult &)> &row) {
    SqlStatement query;
    int rc = query.prepare(m_db, (QByteArray(kRowSelect) + " ORDER BY e.id").constData());
    if (rc != SQLITE_OK)
        return fail(rc, QStringLiteral("exporting rows"));
    while ((rc = query.step()) == SQLITE_ROW) {
        if (!row(rowFrom(query)))
            return true;
    }
    if (rc != SQLITE_DONE)
        return fail(rc, QStringLiteral("exporting rows"));
    return true;
}

std::array<qint64, kOutcomeCount> CrawlStore::outcomeCounts() {
    std::array<qint64, kOutcomeCount> byOutcome{};
    SqlStatement query;
    int rc =
        query.prepare(m_db, "SELECT r.outcome, count(*) FROM results r JOIN entries e ON e.id = r.entry_id "
                            "WHERE e.state = 3 GROUP BY r.outcome");
    if (rc != SQLITE_OK) {
        fail(rc, QStringLiteral("counting outcomes"));
        return byOutcome;
    }
    while ((rc = query.step()) == SQLITE_ROW) {
        if (const std::optional<Outcome> outcome = outcomeFromName(query.text(0)))
            byOutcome[size_t(*outcome)] += query.int64(1);
    }
    if (rc != SQLITE_DONE)
        fail(rc, QStringLiteral("counting outcomes"));
    return byOutcome;
}

QList<CrawlResult> CrawlStore::rowsPage(qint64 afterId, int limit, RowFilter filter) {
    QList<CrawlResult> rows;
    SqlStatement query;
    const char *sql = filter == RowFilter::Finished     ? kFinishedRowsPage.sql
                      : filter == RowFilter::Unfinished ? kUnfinishedRowsPage.sql
                                                        : kRowsPage.sql;
    int rc = query.prepare(m_db, sql);
    if (rc != SQLITE_OK) {
        fail(rc, QStringLiteral("reading rows"));
        return rows;
    }
    query.bind(1, afterId);
    query.bind(2, qint64(limit));
    while ((rc = query.step()) == SQLITE_ROW)
        rows.append(rowFrom(query));
    if (rc != SQLITE_DONE)
        fail(rc, QStringLiteral("reading rows"));
    return rows;
}

QList<QueryPlan> CrawlStore::hotPathQueryPlans() {
    QList<QueryPlan> plans;
    for (const NamedSql &named : kHotPath) {
        QueryPlan plan;
        plan.name = QString::fromLatin1(named.name);
        plan.sql = QString::fromUtf8(named.sql);
        SqlStatement explain;
        const QByteArray sql = QByteArray("EXPLAIN QUERY PLAN ") + named.sql;
        if (int rc = explain.prepare(m_db, sql.constData()); rc != SQLITE_OK) {
            plan.steps.append(QStringLiteral("error: ") + QString::fromUtf8(sqlite3_errmsg(m_db)));
        } else {
            while (explain.step() == SQLITE_ROW)
                plan.steps.append(explain.text(3));
        }
        plans.append(plan);
    }
    return plans;
}

std::unique_ptr<StoreBackup> CrawlStore::startBackup(const QString &target, QString *error) {
    return StoreBackup::start(m_db, m_path, target, error, settings().value(journalkey::inputPath));
}

} // namespace crawl
