// The durable crawl store on real SQLite files: round trip, dedup, chunks per host, leases, migration,
// refusal of foreign and damaged files, full and read-only disks, index use on the hot path, and SIGKILL
// at random moments (a child process: this binary re-run with --crash-child).
#include "input/urlnormalizer.h"
#include "output/csvwriter.h"
#include "store/crawlstore.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <future>
#include <signal.h>
#include <sqlite3.h>
#include <thread>
#include <unistd.h>

using namespace crawl;

namespace {

constexpr qint64 kNow =
    1'800'000'000'000; // a fixed "now" in ms: eligibility is decided by the caller's clock

StoreInputLine inputLine(qint64 lineNumber, const QString &text) {
    return storeInputLine(InputLine{lineNumber, text, normalizeUrl(text)});
}

QList<StoreInputLine> inputLines(const QStringList &texts, qint64 firstLine = 1) {
    QList<StoreInputLine> lines;
    for (const QString &text : texts)
        lines.append(inputLine(firstLine++, text));
    return lines;
}

QList<CrawlResult> exported(CrawlStore &store) {
    QList<CrawlResult> rows;
    const bool ok = store.exportRows([&](const CrawlResult &r) {
        rows.append(r);
        return true;
    });
    if (!ok)
        qWarning("export failed: %s", qPrintable(store.lastError().message));
    return rows;
}

QList<qint64> ids(const QList<PendingEntry> &entries) {
    QList<qint64> out;
    for (const PendingEntry &e : entries)
        out.append(e.id);
    return out;
}

CrawlResult okResult(int status = 200) {
    CrawlResult r;
    r.status = status;
    r.outcome = status < 300 ? Outcome::Ok : Outcome::HttpError;
    r.attempts = 1;
    r.bytes = 1234;
    r.contentType = QStringLiteral("text/html");
    r.latencyMs = 42;
    r.ttfbMs = 7;
    r.startedAt = QDateTime::fromMSecsSinceEpoch(kNow, Qt::UTC);
    r.finishedAt = QDateTime::fromMSecsSinceEpoch(kNow + 42, Qt::UTC);
    if (status >= 300)
        r.error = QStringLiteral("HTTP %1").arg(status);
    return r;
}

// Runs raw SQL on a file with the C API (to build old or foreign files by hand).
bool rawExec(const QString &path, const QByteArray &sql) {
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(QFile::encodeName(path).constData(), &db) == SQLITE_OK;
    if (ok) {
        char *message = nullptr;
        ok = sqlite3_exec(db, sql.constData(), nullptr, nullptr, &message) == SQLITE_OK;
        if (!ok)
            qWarning("sql: %s", message);
        sqlite3_free(message);
    }
    sqlite3_close(db);
    return ok;
}

// --crash-child PATH: append, lease and finish batches in a loop; after each committed result batch print
// "ack <done>" (the store's acknowledgement) and carry on until killed.
constexpr int kCrashBatch = 50;
int runCrashChild(const QString &path) {
    StoreError error;
    auto store = CrawlStore::open(path, &error);
    if (!store) {
        fprintf(stderr, "child: %s\n", qPrintable(error.message));
        return 3;
    }
    qint64 done = 0;
    for (int batch = 0;; ++batch) {
        QStringList urls;
        for (int j = 0; j < kCrashBatch; ++j)
            urls.append(QStringLiteral("http://h%1.test/b%2/u%3").arg(j % 7).arg(batch).arg(j));
        if (!store->appendInput(inputLines(urls, qint64(batch) * kCrashBatch + 1), kNow))
            return 4;
        ResultBatch results;
        for (const EligibleHost &host : store->hostsWithEligibleWork(kNow, 100)) {
            const QList<PendingEntry> chunk = store->nextChunkForHost(host.hostKey, 1000, kNow);
            if (store->markInFlight(ids(chunk), QStringLiteral("child"), kNow + 60'000) != chunk.size())
                return 5;
            for (const PendingEntry &e : chunk)
                results.finished.append({e.id, okResult()});
        }
        if (!store->recordResults(results))
            return 6;
        done += results.finished.size();
        const QByteArray ack = "ack " + QByteArray::number(done) + "\n";
        if (::write(STDOUT_FILENO, ack.constData(), size_t(ack.size())) != ack.size())
            return 7;
    }
}

} // namespace

class TestCrawlStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void createRefusesAnExistingFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawl.db"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("precious");
        }
        StoreError error;
        QVERIFY(!CrawlStore::create(path, {}, &error));
        QCOMPARE(error.kind, StoreError::Kind::AlreadyExists);
        QVERIFY2(error.message.contains(QStringLiteral("--resume")), qPrintable(error.message));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("precious")); // untouched

        const QString second = dir.filePath(QStringLiteral("second.db"));
        QVERIFY(CrawlStore::create(second, {}, &error));
        QVERIFY(!CrawlStore::create(second, {}, &error)); // a real store is not overwritten either
        QCOMPARE(error.kind, StoreError::Kind::AlreadyExists);
    }

    void roundTripKeepsSettingsInputAndResults() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawl.db"));
        const QMap<QString, QString> settings{{QStringLiteral("input"), QStringLiteral("urls.txt")},
                                              {QStringLiteral("limits.perHost"), QStringLiteral("2")}};
        {
            StoreError error;
            auto store = CrawlStore::create(path, settings, &error);
            QVERIFY2(store, qPrintable(error.message));
            AppendOutcome appended;
            QVERIFY(store->appendInput(
                inputLines({QStringLiteral("http://a.test/1"), QStringLiteral("not a url"),
                            QStringLiteral("https://b.test/x#frag"), QStringLiteral("http://a.test/2")}),
                kNow, &appended));
            QCOMPARE(appended.added, 3);
            QCOMPARE(appended.invalid, 1);
            const QList<PendingEntry> a = store->nextChunkForHost(QStringLiteral("a.test:80"), 10, kNow);
            const QList<PendingEntry> b = store->nextChunkForHost(QStringLiteral("b.test:443"), 10, kNow);
            QCOMPARE(a.size(), 2);
            QCOMPARE(b.size(), 1);
            QCOMPARE(b.first().url, QStringLiteral("https://b.test/x"));
            QCOMPARE(store->markInFlight(ids(a) + ids(b), QStringLiteral("w1"), kNow + 1000), 3);
            ResultBatch batch;
            CrawlResult redirected = okResult();
            redirected.finalUrl = QStringLiteral("http://a.test/final");
            redirected.redirects = 1;
            redirected.redirectChain = {QStringLiteral("http://a.test/1"),
                                        QStringLiteral("http://a.test/final")};
            batch.started = ids(a) + ids(b);
            batch.finished.append({a.at(0).id, redirected});
            batch.finished.append({a.at(1).id, okResult(404)});
            QVERIFY(store->recordResults(batch));
            // b.test stays in flight: it comes out as cancelled, with its started attempt.
        }
        StoreError error;
        auto store = CrawlStore::open(path, &error);
        QVERIFY2(store, qPrintable(error.message));
        QCOMPARE(store->settings(), settings);
        const StoreCounts c = store->counts();
        QCOMPARE(c.lines, 4);
        QCOMPARE(c.invalid, 1);
        QCOMPARE(c.done, 3);
        QCOMPARE(c.ok, 1);
        QCOMPARE(c.failed, 2);
        QCOMPARE(c.inFlight, 1);
        QCOMPARE(c.pending, 0);

        const QList<CrawlResult> rows = exported(*store);
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows.at(0).lineNumber, 1);
        QCOMPARE(rows.at(0).url, QStringLiteral("http://a.test/1"));
        QCOMPARE(rows.at(0).host, QStringLiteral("a.test:80"));
        QCOMPARE(rows.at(0).finalUrl, QStringLiteral("http://a.test/final"));
        QCOMPARE(rows.at(0).redirectChain.size(), 2);
        QCOMPARE(rows.at(0).startedAt, QDateTime::fromMSecsSinceEpoch(kNow, Qt::UTC));
        QCOMPARE(resultCsvRow(rows.at(0)), resultCsvRow([&] {
                     CrawlResult expected = okResult();
                     expected.url = QStringLiteral("http://a.test/1");
                     expected.host = QStringLiteral("a.test:80");
                     expected.finalUrl = QStringLiteral("http://a.test/final");
                     expected.redirects = 1;
                     return expected;
                 }()));
        QCOMPARE(rows.at(1).outcome, Outcome::InvalidUrl);
        QCOMPARE(rows.at(1).url, QStringLiteral("not a url"));
        QVERIFY2(rows.at(1).error.startsWith(QStringLiteral("line 2: ")), qPrintable(rows.at(1).error));
        QCOMPARE(rows.at(2).outcome, Outcome::Cancelled);
        QCOMPARE(rows.at(2).attempts, 1);
        QCOMPARE(rows.at(3).outcome, Outcome::HttpError);
        QCOMPARE(rows.at(3).status, 404);
        QCOMPARE(rows.at(3).latencyMs, 42);

        // Paged views see the same rows, page by page.
        const QList<CrawlResult> firstPage = store->rowsPage(0, 2);
        QCOMPARE(firstPage.size(), 2);
        QCOMPARE(firstPage.at(1).url, QStringLiteral("not a url"));
        const QList<CrawlResult> secondPage = store->rowsPage(qint64(firstPage.last().id), 10);
        QCOMPARE(secondPage.size(), 2);
        QCOMPARE(resultCsvRow(secondPage.at(1)), resultCsvRow(rows.at(3)));
        QCOMPARE(store->hostsPage({}, 1).size(), 1);
        QCOMPARE(store->hostsPage({}, 1).first().hostKey, QStringLiteral("a.test:80"));
        QCOMPARE(store->hostsPage(QStringLiteral("a.test:80"), 10).size(), 1);
        QCOMPARE(store->hostsPage(QStringLiteral("a.test:80"), 10).first().hostKey,
                 QStringLiteral("b.test:443"));

        const HostRecord host = store->hostRecord(QStringLiteral("a.test:80")).value();
        QCOMPARE(host.done, 2);
        QCOMPARE(host.ok, 1);
        QCOMPARE(host.failed, 1);
        QCOMPARE(host.pending, 0);
        QCOMPARE(host.eligibleAtMs, -1);
    }

    void walWithNormalOrFullSync() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawl.db"));
        {
            auto store = CrawlStore::create(path, {}, nullptr);
            QVERIFY(store);
            QCOMPARE(store->durability(), QStringLiteral("journal_mode=wal synchronous=NORMAL"));
        }
        StoreOptions full;
        full.sync = StoreOptions::Sync::Full;
        auto store = CrawlStore::open(path, nullptr, full);
        QVERIFY(store);
        QCOMPARE(store->durability(), QStringLiteral("journal_mode=wal synchronous=FULL"));
    }

    void duplicatesAreCountedNotRepeated() {
        QTemporaryDir dir;
        auto store = CrawlStore::create(dir.filePath(QStringLiteral("crawl.db")), {}, nullptr);
        QVERIFY(store);
        AppendOutcome first;
        QVERIFY(store->appendInput(
            inputLines({QStringLiteral("http://a.test/p"), QStringLiteral("HTTP://A.test:80/p#x"),
                        QStringLiteral("http://a.test/q")}),
            kNow, &first));
        QCOMPARE(first.added, 2);
        QCOMPARE(first.duplicates, 1);
        AppendOutcome second; // across batches the store, not memory, deduplicates
        QVERIFY(store->appendInput(
            inputLines({QStringLiteral("http://a.test/q"), QStringLiteral("http://a.test/r")}, 4), kNow,
            &second));
        QCOMPARE(second.added, 1);
        QCOMPARE(second.duplicates, 1);
        const StoreCounts c = store->counts();
        QCOMPARE(c.lines, 5);
        QCOMPARE(c.duplicates, 2);
        QCOMPARE(c.pending, 3);
        QCOMPARE(c.rows(), 3);
        const QList<CrawlResult> rows = exported(*store);
        QCOMPARE(rows.size(), 3); // as today's CSV: a duplicate is crawled once, at its first line
        QCOMPARE(rows.at(0).lineNumber, 1);
        QCOMPARE(rows.at(1).lineNumber, 3);
        QCOMPARE(rows.at(2).lineNumber, 5);
        QCOMPARE(store->hostRecord(QStringLiteral("a.test:80"))->pending, 3);
    }

    void chunksComePerHostAndPausesHoldOnlyTheirHost() {
        QTemporaryDir dir;
        auto store = CrawlStore::create(dir.filePath(QStringLiteral("crawl.db")), {}, nullptr);
        QVERIFY(store);
        // A host-sorted list: 30 URLs on slow.test first, then one on each of two other hosts.
        QStringList urls;
        for (int i = 0; i < 30; ++i)
            urls.append(QStringLiteral("http://slow.test/%1").arg(i));
        urls.append(QStringLiteral("http://b.test/1"));
        urls.append(QStringLiteral("http://c.test/1"));
        QVERIFY(store->appendInput(inputLines(urls), kNow));

        QList<EligibleHost> hosts = store->hostsWithEligibleWork(kNow, 10);
        QCOMPARE(hosts.size(), 3); // every host can start at once, whatever the file's order
        const QList<PendingEntry> chunk = store->nextChunkForHost(QStringLiteral("slow.test:80"), 8, kNow);
        QCOMPARE(chunk.size(), 8);
        for (int i = 0; i < chunk.size(); ++i) {
            QCOMPARE(chunk.at(i).hostKey, QStringLiteral("slow.test:80"));
            QCOMPARE(chunk.at(i).lineNumber, i + 1); // oldest first
        }
        QVERIFY(store->nextChunkForHost(QStringLiteral("unknown.test:80"), 8, kNow).isEmpty());
        QVERIFY(store->nextChunkForHost(QStringLiteral("slow.test:80"), 8, kNow - 1).isEmpty()); // not yet

        // Leased entries are not handed out again.
        QCOMPARE(store->markInFlight(ids(chunk), QStringLiteral("w"), kNow + 1000), 8);
        QCOMPARE(store->markInFlight(ids(chunk), QStringLiteral("w"), kNow + 1000), 0);
        QCOMPARE(store->nextChunkForHost(QStringLiteral("slow.test:80"), 100, kNow).size(), 22);

        // A 429 with Retry-After: the retry waits, and the whole host pauses; the other hosts go on.
        ResultBatch batch;
        batch.retries.append({chunk.at(0).id, kNow + 5000, 429});
        batch.pauses.append({QStringLiteral("slow.test:80"), kNow + 5000});
        batch.finished.append({chunk.at(1).id, okResult()});
        QVERIFY(store->recordResults(batch));
        hosts = store->hostsWithEligibleWork(kNow, 10);
        QCOMPARE(hosts.size(), 2);
        for (const EligibleHost &h : hosts)
            QVERIFY(h.hostKey != QStringLiteral("slow.test:80"));
        QCOMPARE(store->nextEligibleAtMs(), kNow); // b and c
        const HostRecord slow = store->hostRecord(QStringLiteral("slow.test:80")).value();
        QCOMPARE(slow.eligibleAtMs, kNow + 5000);
        QCOMPARE(slow.pausedUntilMs, kNow + 5000);
        QCOMPARE(slow.http429, 1);
        QCOMPARE(slow.retries, 1);
        QCOMPARE(slow.pending, 23);
        QCOMPARE(slow.inFlight, 6);
        QCOMPARE(store->entryState(chunk.at(0).id), EntryState::RetryWait);
        hosts = store->hostsWithEligibleWork(kNow + 5000, 10);
        QCOMPARE(hosts.size(), 3);
        QCOMPARE(hosts.last().hostKey, QStringLiteral("slow.test:80")); // soonest first
        const QList<PendingEntry> later =
            store->nextChunkForHost(QStringLiteral("slow.test:80"), 1, kNow + 5000);
        QCOMPARE(later.size(), 1);

        // A user pause takes the host out until it is lifted; overrides are kept.
        QVERIFY(store->setHostUserPaused(QStringLiteral("b.test:80"), true));
        QVERIFY(store->setHostOverrides(QStringLiteral("b.test:80"), 1, 2000));
        QCOMPARE(store->hostsWithEligibleWork(kNow, 10).size(), 1);
        QVERIFY(store->setHostUserPaused(QStringLiteral("b.test:80"), false));
        QCOMPARE(store->hostsWithEligibleWork(kNow, 10).size(), 2);
        const HostRecord b = store->hostRecord(QStringLiteral("b.test:80")).value();
        QCOMPARE(b.maxInFlight, 1);
        QCOMPARE(b.startIntervalMs, 2000);

        // A host with nothing left leaves the eligible set.
        const QList<PendingEntry> c = store->nextChunkForHost(QStringLiteral("c.test:80"), 10, kNow);
        QCOMPARE(store->markInFlight(ids(c), QStringLiteral("w"), kNow + 1000), 1);
        QCOMPARE(store->hostsWithEligibleWork(kNow, 10).size(), 1);
    }

    void leasesAreReclaimedWithTheirAttemptCounted() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawl.db"));
        {
            auto store = CrawlStore::create(path, {}, nullptr);
            QVERIFY(store);
            QVERIFY(store->appendInput(
                inputLines({QStringLiteral("http://a.test/1"), QStringLiteral("http://a.test/2"),
                            QStringLiteral("http://a.test/3")}),
                kNow));
            const QList<PendingEntry> chunk = store->nextChunkForHost(QStringLiteral("a.test:80"), 3, kNow);
            QCOMPARE(store->markInFlight({chunk.at(0).id}, QStringLiteral("w1"), kNow + 1000), 1);
            QCOMPARE(store->markInFlight({chunk.at(1).id}, QStringLiteral("w2"), kNow + 9000), 1);
            // An expired lease (a dead worker) is reclaimed; a live one is not.
            QCOMPARE(store->reclaimExpiredLeases(kNow + 2000), 1);
            QCOMPARE(store->entryState(chunk.at(0).id), EntryState::Queued);
            QCOMPARE(store->entryState(chunk.at(1).id), EntryState::InFlight);
            QCOMPARE(store->markInFlight({chunk.at(0).id}, QStringLiteral("w1"), kNow + 9000), 1);
            // The first entry's attempts started under both leases; the second was leased, never started.
            ResultBatch started;
            started.started = {chunk.at(0).id, chunk.at(0).id};
            QVERIFY(store->recordResults(started));
        } // "crash": two entries in flight
        auto store = CrawlStore::open(path, nullptr);
        QVERIFY(store);
        QCOMPARE(store->counts().inFlight, 2);
        QCOMPARE(store->reclaimInFlight(), 2);
        const StoreCounts c = store->counts();
        QCOMPARE(c.inFlight, 0);
        QCOMPARE(c.pending, 3);
        const QList<PendingEntry> again = store->nextChunkForHost(QStringLiteral("a.test:80"), 3, kNow);
        QCOMPARE(again.size(), 3);
        QCOMPARE(again.at(0).attempts, 2); // started twice
        QCOMPARE(again.at(1).attempts, 0); // leased, never started: its retry budget is whole
        QCOMPARE(again.at(2).attempts, 0);
        QCOMPARE(store->hostRecord(QStringLiteral("a.test:80"))->inFlight, 0);
        QCOMPARE(store->hostRecord(QStringLiteral("a.test:80"))->pending, 3);
    }

    void migratesAVersion1File() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v1.db"));
        // Schema version 1 exactly as it shipped (frozen here on purpose: never update it to match the code).
        QVERIFY(rawExec(path, R"sql(
PRAGMA application_id = 1129538423;
PRAGMA journal_mode = WAL;
BEGIN;
CREATE TABLE settings(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE crawl(id INTEGER PRIMARY KEY CHECK (id = 1), lines INTEGER NOT NULL DEFAULT 0,
    duplicates INTEGER NOT NULL DEFAULT 0, invalid INTEGER NOT NULL DEFAULT 0, pending INTEGER NOT NULL DEFAULT 0,
    in_flight INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0, ok INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0, retries INTEGER NOT NULL DEFAULT 0);
CREATE TABLE hosts(id INTEGER PRIMARY KEY, host_key TEXT NOT NULL UNIQUE,
    pending INTEGER NOT NULL DEFAULT 0, in_flight INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0,
    ok INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0, retries INTEGER NOT NULL DEFAULT 0,
    http429 INTEGER NOT NULL DEFAULT 0, paused_until INTEGER NOT NULL DEFAULT 0,
    user_paused INTEGER NOT NULL DEFAULT 0, max_in_flight INTEGER, start_interval_ms INTEGER);
CREATE TABLE entries(id INTEGER PRIMARY KEY, line INTEGER NOT NULL, url TEXT UNIQUE, raw TEXT,
    host_id INTEGER REFERENCES hosts(id), state INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL DEFAULT 0, lease_owner TEXT, lease_until INTEGER);
CREATE INDEX entries_pending ON entries(host_id, next_at) WHERE state < 2;
CREATE INDEX entries_leased ON entries(lease_until) WHERE state = 2;
CREATE TABLE results(entry_id INTEGER PRIMARY KEY REFERENCES entries(id), final_url TEXT, status INTEGER,
    outcome TEXT NOT NULL, attempts INTEGER, redirects INTEGER, bytes INTEGER, content_type TEXT,
    latency_ms INTEGER, ttfb_ms INTEGER, error TEXT, started_at INTEGER, finished_at INTEGER,
    redirect_chain TEXT);
INSERT INTO settings VALUES ('input', 'old.txt');
INSERT INTO crawl(id, lines, pending, done, ok) VALUES (1, 3, 2, 1, 1);
INSERT INTO hosts(id, host_key, pending, done, ok, paused_until) VALUES (1, 'a.test:80', 1, 1, 1, 0);
INSERT INTO hosts(id, host_key, pending, paused_until) VALUES (2, 'b.test:80', 1, 1800000009000);
INSERT INTO entries(id, line, url, host_id, state, attempts, next_at)
    VALUES (1, 1, 'http://a.test/1', 1, 3, 1, 0), (2, 2, 'http://a.test/2', 1, 1, 1, 1800000003000),
           (3, 3, 'http://b.test/1', 2, 0, 0, 0);
INSERT INTO results(entry_id, status, outcome, attempts, redirects, bytes, latency_ms, ttfb_ms)
    VALUES (1, 200, 'ok', 1, 0, 10, 5, 2);
PRAGMA user_version = 1;
COMMIT;
)sql"));
        StoreError error;
        auto store = CrawlStore::open(path, &error);
        QVERIFY2(store, qPrintable(error.message));
        QCOMPARE(store->settings().value(QStringLiteral("input")), QStringLiteral("old.txt"));
        // eligible_at was backfilled: a.test's retry is due at +3 s, b.test is paused until +9 s.
        QVERIFY(store->hostsWithEligibleWork(kNow + 2999, 10).isEmpty());
        QCOMPARE(store->hostsWithEligibleWork(kNow + 3000, 10).size(), 1);
        const QList<EligibleHost> both = store->hostsWithEligibleWork(kNow + 9000, 10);
        QCOMPARE(both.size(), 2);
        QCOMPARE(both.at(1).hostKey, QStringLiteral("b.test:80"));
        const QList<CrawlResult> rows = exported(*store);
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows.at(0).outcome, Outcome::Ok);
        QCOMPARE(rows.at(0).bytes, 10);
        // Schema 3's acceptance columns: rows written before it have no verdict; new rows keep theirs.
        QCOMPARE(rows.at(0).accepted, CrawlResult::Accepted::Unknown);
        QVERIFY(rows.at(0).title.isNull() || rows.at(0).title.isEmpty());
        const QList<PendingEntry> pendingB =
            store->nextChunkForHost(QStringLiteral("b.test:80"), 10, kNow + 9000);
        QCOMPARE(pendingB.size(), 1);
        QCOMPARE(store->markInFlight(ids(pendingB), QStringLiteral("w1"), kNow + 10'000), 1);
        ResultBatch batch;
        CrawlResult soft404 = okResult();
        soft404.accepted = CrawlResult::Accepted::No;
        soft404.rejectReason = QStringLiteral("soft 404: title \"Page not found\"");
        soft404.title = QStringLiteral("Page not found");
        batch.finished.append({pendingB.at(0).id, soft404});
        QVERIFY(store->recordResults(batch));
        const QList<CrawlResult> after = exported(*store);
        QCOMPARE(after.at(2).accepted, CrawlResult::Accepted::No);
        QCOMPARE(after.at(2).rejectReason, soft404.rejectReason);
        QCOMPARE(after.at(2).title, soft404.title);
        store.reset();

        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
        sqlite3_stmt *stmt = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr), SQLITE_OK);
        QCOMPARE(sqlite3_step(stmt), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(stmt, 0), CrawlStore::kSchemaVersion);
        sqlite3_finalize(stmt);
        sqlite3_close(db);
    }

    void refusesMissingForeignDamagedAndNewerFiles() {
        QTemporaryDir dir;
        StoreError error;
        const QString missing = dir.filePath(QStringLiteral("missing.db"));
        QVERIFY(!CrawlStore::open(missing, &error));
        QCOMPARE(error.kind, StoreError::Kind::NotFound);
        QVERIFY(!QFile::exists(missing)); // opening never creates

        const QString empty = dir.filePath(QStringLiteral("empty.db"));
        QVERIFY(QFile(empty).open(QIODevice::WriteOnly));
        QVERIFY(!CrawlStore::open(empty, &error));
        QCOMPARE(error.kind, StoreError::Kind::NotACrawlStore);

        const QString text = dir.filePath(QStringLiteral("urls.txt"));
        {
            QFile f(text);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("http://a.test/\n");
        }
        QVERIFY(!CrawlStore::open(text, &error));
        QCOMPARE(error.kind, StoreError::Kind::NotACrawlStore);
        QVERIFY2(error.message.contains(QStringLiteral("not an SQLite database")), qPrintable(error.message));

        const QString foreign = dir.filePath(QStringLiteral("other.sqlite"));
        QVERIFY(rawExec(foreign, "CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES ('mine');"));
        const QByteArray before = [&] {
            QFile f(foreign);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QVERIFY(!CrawlStore::open(foreign, &error));
        QCOMPARE(error.kind, StoreError::Kind::NotACrawlStore);
        QVERIFY2(error.message.contains(QStringLiteral("not a Crawlscope crawl store")),
                 qPrintable(error.message));
        QFile f(foreign);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before); // not switched to WAL, not migrated: left exactly as it was
        f.close();

        const QString newer = dir.filePath(QStringLiteral("newer.db"));
        QVERIFY(CrawlStore::create(newer, {}, nullptr));
        QVERIFY(rawExec(newer, "PRAGMA user_version = 99"));
        QVERIFY(!CrawlStore::open(newer, &error));
        QCOMPARE(error.kind, StoreError::Kind::TooNew);

        const QString damaged = dir.filePath(QStringLiteral("damaged.db"));
        {
            auto store = CrawlStore::create(damaged, {}, nullptr);
            QVERIFY(store);
            QVERIFY(store->appendInput(inputLines({QStringLiteral("http://a.test/1")}), kNow));
        }
        QVERIFY(!QFile::exists(damaged + QStringLiteral("-wal"))); // checkpointed at close
        {
            // Overwrite page 1 after the 100-byte header: the schema table's b-tree page.
            QFile file(damaged);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.seek(100));
            file.write(QByteArray(3000, '\x5a'));
        }
        QVERIFY(!CrawlStore::open(damaged, &error));
        QCOMPARE(error.kind, StoreError::Kind::Corrupt);
        QVERIFY2(error.message.contains(QStringLiteral("damaged")), qPrintable(error.message));
    }

    void damageDeepInTheFileIsReportedNotIgnored() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawl.db"));
        {
            auto store = CrawlStore::create(path, {}, nullptr);
            QVERIFY(store);
            QStringList urls;
            for (int i = 0; i < 3000; ++i)
                urls.append(QStringLiteral("http://h%1.test/some/longer/path/%2").arg(i % 50).arg(i));
            QVERIFY(store->appendInput(inputLines(urls), kNow));
            QVERIFY(store->verifyIntegrity());
        }
        const qint64 size = QFileInfo(path).size();
        QVERIFY(size > 40 * 4096);
        {
            QFile file(path); // garbage over pages in the middle: table and index pages, not the header
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.seek((size / 4096 / 2) * 4096));
            file.write(QByteArray(8 * 4096, '\x5a'));
        }
        StoreError error;
        auto store = CrawlStore::open(path, &error);
        if (!store) { // the damage may already show in what open reads
            QCOMPARE(error.kind, StoreError::Kind::Corrupt);
            return;
        }
        QVERIFY(!store->verifyIntegrity());
        QCOMPARE(store->lastError().kind, StoreError::Kind::Corrupt);
        QVERIFY2(store->lastError().message.contains(QStringLiteral("damaged")),
                 qPrintable(store->lastError().message));
        QVERIFY(!store->exportRows([](const CrawlResult &) { return true; }));
        QCOMPARE(store->lastError().kind, StoreError::Kind::Corrupt);
    }

    void aFullDiskLosesNothingCommitted() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawl.db"));
        StoreOptions tiny;
        tiny.maxBytes = 160 * 1024; // SQLITE_FULL as a full disk would give it
        StoreCounts committed;
        qint64 batches = 0;
        {
            StoreError error;
            auto store = CrawlStore::create(path, {}, &error, tiny);
            QVERIFY2(store, qPrintable(error.message));
            // Ten entries in flight before the disk fills up: their results will not fit.
            QStringList first;
            for (int i = 0; i < 10; ++i)
                first.append(QStringLiteral("http://first.test/%1").arg(i));
            QVERIFY(store->appendInput(inputLines(first), kNow));
            const QList<PendingEntry> chunk =
                store->nextChunkForHost(QStringLiteral("first.test:80"), 10, kNow);
            QCOMPARE(chunk.size(), 10);
            QCOMPARE(store->markInFlight(ids(chunk), QStringLiteral("w"), kNow + 1000), 10);
            for (batches = 1;; ++batches) {
                QStringList urls;
                for (int i = 0; i < 100; ++i)
                    urls.append(QStringLiteral("http://h%1.test/batch%2/a-fairly-long-path-%3")
                                    .arg(i % 13)
                                    .arg(batches)
                                    .arg(i));
                const StoreCounts before = store->counts();
                if (!store->appendInput(inputLines(urls, batches * 100 - 89), kNow)) {
                    QCOMPARE(store->lastError().kind, StoreError::Kind::DiskFull);
                    QVERIFY2(store->lastError().message.contains(QStringLiteral("intact")),
                             qPrintable(store->lastError().message));
                    const StoreCounts after = store->counts(); // the failed batch left no trace
                    QCOMPARE(after.lines, before.lines);
                    QCOMPARE(after.pending, before.pending);
                    committed = after;
                    break;
                }
                QVERIFY(batches < 1000);
            }
            QVERIFY(batches >= 3);
            --batches; // the one that failed
            // Results fail the same way: the whole batch is rolled back, the entries stay in flight.
            committed = store->counts();
            ResultBatch batch;
            for (const PendingEntry &e : chunk) {
                CrawlResult r = okResult(500);
                r.error = QString(20'000, QLatin1Char('x')); // 10 x 20 kB cannot fit
                batch.finished.append({e.id, r});
            }
            QVERIFY(!store->recordResults(batch));
            QCOMPARE(store->lastError().kind, StoreError::Kind::DiskFull);
            QCOMPARE(store->counts().done, committed.done);
            QCOMPARE(store->counts().inFlight, 10);
            QCOMPARE(store->entryState(chunk.first().id), EntryState::InFlight);
        }
        StoreError error;
        auto store = CrawlStore::open(path, &error); // no limit now: the disk "has room again"
        QVERIFY2(store, qPrintable(error.message));
        QCOMPARE(store->counts().lines, 10 + batches * 100);
        QCOMPARE(store->counts().pending, committed.pending);
        QCOMPARE(store->counts().inFlight, 10);
        QCOMPARE(store->counts().done, 0);
        QCOMPARE(exported(*store).size(), 10 + batches * 100);
        QVERIFY(
            store->appendInput(inputLines({QStringLiteral("http://after.test/")}, batches * 100 + 11), kNow));
    }

    void readOnlyStoresRefuseWritesClearly() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawl.db"));
        {
            auto store = CrawlStore::create(path, {}, nullptr);
            QVERIFY(store);
            QVERIFY(store->appendInput(inputLines({QStringLiteral("http://a.test/1")}), kNow));
        }
        StoreOptions readOnly;
        readOnly.readOnly = true;
        StoreError error;
        {
            auto store = CrawlStore::open(path, &error, readOnly);
            QVERIFY2(store, qPrintable(error.message));
            QCOMPARE(exported(*store).size(), 1); // export works
            QVERIFY(!store->appendInput(inputLines({QStringLiteral("http://a.test/2")}, 2), kNow));
            QCOMPARE(store->lastError().kind, StoreError::Kind::ReadOnly);
            QCOMPARE(store->counts().lines, 1);
        }
        // A write-protected file (root ignores permissions, so this part needs an ordinary user).
        if (::geteuid() == 0)
            QSKIP("running as root: file permissions do not stop writes");
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner));
        QVERIFY(!CrawlStore::open(path, &error));
        QCOMPARE(error.kind, StoreError::Kind::ReadOnly);
        QVERIFY2(error.message.contains(QStringLiteral("read-only")), qPrintable(error.message));
    }

    void aSecondProcessIsRefusedWhileACrawlHasTheStore() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawl.db"));
        auto first = CrawlStore::create(path, {}, nullptr);
        QVERIFY(first);
        StoreError error;
        QVERIFY(!CrawlStore::open(path, &error));
        QCOMPARE(error.kind, StoreError::Kind::Busy);
        QVERIFY(first->appendInput(inputLines({QStringLiteral("http://a.test/1")}), kNow)); // unharmed
    }

    void aReaderWaitsOutAMomentaryLock() {
        // The window's loader and summary reader open an opened crawl side by side; closing its connection,
        // one holds the file's exclusive lock for a moment. The other must wait that out, not report the
        // file "in use by another process" (the opened crawl then lost its hosts or its rows).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawl.db"));
        {
            auto store = CrawlStore::create(path, {}, nullptr);
            QVERIFY(store);
            QVERIFY(store->appendInput(inputLines({QStringLiteral("http://a.test/1")}), kNow));
        }
        std::promise<void> locked;
        std::thread holder([&] {
            auto store = CrawlStore::open(path, nullptr); // a writer: the exclusive lock
            locked.set_value();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }); // closes here, well within the reader's wait
        locked.get_future().wait();
        StoreOptions readOnly;
        readOnly.readOnly = true;
        readOnly.busyWaitMs = CrawlStore::kReaderBusyWaitMs;
        StoreError error;
        auto reader = CrawlStore::open(path, &error, readOnly);
        holder.join();
        QVERIFY2(reader, qPrintable(error.message));
        QCOMPARE(reader->counts().lines, 1);
        QVERIFY(!reader->lastError().isError());

        // A lock that is kept (a crawl running on the file) is still refused once the wait is over.
        reader.reset();
        auto crawl = CrawlStore::open(path, nullptr);
        QVERIFY(crawl);
        QCOMPARE(crawl->counts().lines, 1);
        error = {};
        QVERIFY(!CrawlStore::open(path, &error, readOnly));
        QCOMPARE(error.kind, StoreError::Kind::Busy);
    }

    void hotPathQueriesUseIndexes() {
        QTemporaryDir dir;
        auto store = CrawlStore::create(dir.filePath(QStringLiteral("crawl.db")), {}, nullptr);
        QVERIFY(store);
        const QList<QueryPlan> plans = store->hotPathQueryPlans();
        QVERIFY(plans.size() >= 18);
        for (const QueryPlan &plan : plans) {
            const QString text = plan.name + QStringLiteral(": ") + plan.steps.join(QStringLiteral(" | "));
            for (const QString &step : plan.steps) {
                QVERIFY2(!step.startsWith(QStringLiteral("error")), qPrintable(text));
                // A SCAN of any table is a full pass over it; a temp b-tree is a sort of everything matched.
                QVERIFY2(!step.startsWith(QStringLiteral("SCAN")), qPrintable(text));
                QVERIFY2(!step.contains(QStringLiteral("TEMP B-TREE")), qPrintable(text));
            }
            const auto uses = [&](const char *index) {
                return plan.steps.join(QLatin1Char(' ')).contains(QLatin1String(index));
            };
            if (plan.name == QStringLiteral("nextChunkForHost"))
                QVERIFY2(uses("entries_pending"), qPrintable(text));
            if (plan.name == QStringLiteral("hostsWithEligibleWork") ||
                plan.name == QStringLiteral("nextEligibleAt"))
                QVERIFY2(uses("hosts_eligible"), qPrintable(text));
            if (plan.name == QStringLiteral("leasedUntil"))
                QVERIFY2(uses("entries_leased"), qPrintable(text));
            if (plan.name == QStringLiteral("hostDelta"))
                QVERIFY2(uses("entries_pending"), qPrintable(text)); // the eligible_at recompute
        }
    }

    void sigkillKeepsEveryAcknowledgedBatchAndNoHalfBatch() {
        for (int round = 0; round < 6; ++round) {
            QTemporaryDir dir;
            const QString path = dir.filePath(QStringLiteral("crawl.db"));
            QVERIFY(CrawlStore::create(path, {}, nullptr));
            QProcess child;
            child.setProgram(QCoreApplication::applicationFilePath());
            child.setArguments({QStringLiteral("--crash-child"), path});
            child.setProcessChannelMode(QProcess::SeparateChannels);
            QByteArray out;
            connect(&child, &QProcess::readyReadStandardOutput, &child,
                    [&] { out += child.readAllStandardOutput(); });
            child.start();
            QVERIFY(child.waitForStarted());
            // Kill after a random number of acknowledgements, while the child is in the middle of more work.
            const int killAfter = 1 + int(QRandomGenerator::global()->bounded(40));
            QVERIFY2(QTest::qWaitFor(
                         [&] { return out.count('\n') >= killAfter || child.state() != QProcess::Running; },
                         30'000),
                     child.readAllStandardError().constData());
            QCOMPARE(child.state(), QProcess::Running);
            QCOMPARE(::kill(pid_t(child.processId()), SIGKILL), 0);
            QVERIFY(child.waitForFinished(10'000));
            out += child.readAllStandardOutput();
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);

            qint64 acknowledged = 0;
            const QList<QByteArray> lines = out.split('\n');
            for (const QByteArray &line : lines) // the last piece may be half a line: it is not an ack
                if (line.startsWith("ack ") && &line != &lines.last())
                    acknowledged = line.mid(4).toLongLong();
            QVERIFY(acknowledged >= killAfter * kCrashBatch);

            StoreError error;
            auto store = CrawlStore::open(path, &error);
            QVERIFY2(store, qPrintable(error.message));
            const StoreCounts c = store->counts();
            const QString state =
                QStringLiteral("round %1: acked %2, lines %3 done %4 pending %5 in flight %6")
                    .arg(round)
                    .arg(acknowledged)
                    .arg(c.lines)
                    .arg(c.done)
                    .arg(c.pending)
                    .arg(c.inFlight);
            QVERIFY2(c.done >= acknowledged, qPrintable(state)); // nothing acknowledged was lost
            QVERIFY2(c.done <= acknowledged + kCrashBatch, qPrintable(state)); // at most one unprinted commit
            QVERIFY2(c.done % kCrashBatch == 0 && c.lines % kCrashBatch == 0,
                     qPrintable(state)); // no half batch
            QVERIFY2(c.lines == c.done + c.pending + c.inFlight, qPrintable(state));
            QVERIFY2(c.inFlight <= kCrashBatch,
                     qPrintable(state)); // leased per host chunk, only the last batch
            QCOMPARE(store->reclaimInFlight(), c.inFlight);
            QCOMPARE(store->counts().pending, c.lines - c.done);
            // The rows agree with the counters: every finished row has its result, the rest are pending.
            qint64 finished = 0;
            qint64 rows = 0;
            QVERIFY(store->exportRows([&](const CrawlResult &r) {
                ++rows;
                if (r.outcome == Outcome::Ok)
                    ++finished;
                return true;
            }));
            QCOMPARE(rows, c.lines);
            QCOMPARE(finished, c.done);
            // Host tallies moved in the same transactions as the entries: they add up to the crawl's.
            HostRecord sum;
            for (int h = 0; h < 7; ++h) {
                const std::optional<HostRecord> host =
                    store->hostRecord(QStringLiteral("h%1.test:80").arg(h));
                QVERIFY(host);
                sum.pending += host->pending;
                sum.inFlight += host->inFlight;
                sum.done += host->done;
                sum.ok += host->ok;
            }
            QCOMPARE(sum.pending, c.lines - c.done);
            QCOMPARE(sum.inFlight, 0);
            QCOMPARE(sum.done, c.done);
            QCOMPARE(sum.ok, c.done);
        }
    }
};

int main(int argc, char **argv) {
    if (argc == 3 && qstrcmp(argv[1], "--crash-child") == 0)
        return runCrashChild(QString::fromLocal8Bit(argv[2]));
    QCoreApplication app(argc, argv);
    TestCrawlStore test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_crawlstore.moc"
