// Issue 11: the results views page their rows from disk instead of holding every row in memory. RowArena on
// its own (round trip in any order with bounded memory, replacements, pinning, a snapshot that outlives a
// clear, a disk that fills up, a file that cannot be read back); ResultSorter over held sort keys (the
// order of rows in memory, for every such column); then the real results table: its rows leave memory, a
// click on a number column's header sorts them holding one word a row (same order as in memory, rows
// streamed in placed as in memory), and a third click returns to arrival order and lets the words go.
#include "jobs/csvexporter.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "models/resultsorter.h"
#include "models/resultstore.h"
#include "models/rowarena.h"
#include "spillfiles.h"
#include "syntheticresults.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <numeric>
#include <random>
#include <sys/resource.h>

namespace {

// A row whose every field says which row it is.
ui::ResultRow rowFor(qsizetype i, int generation = 0) {
    ui::ResultRow row;
    row.finishedAtMs = 1'700'000'000'000 + i;
    row.textRef = quint64(i) * 3 + quint64(generation);
    row.bytes = i * 7;
    row.status = quint64(200 + i % 300);
    row.id32 = quint32(i);
    row.line32 = quint32(i + 1);
    row.latencyMs = qint32(i % 1000) + generation;
    row.hostId = quint32(i % 50);
    row.extraIndex = generation;
    return row;
}

bool sameRow(const ui::ResultRow &a, const ui::ResultRow &b) {
    return a.finishedAtMs == b.finishedAtMs && a.textRef == b.textRef && a.bytes == b.bytes &&
           a.status == b.status && a.id32 == b.id32 && a.line32 == b.line32 && a.latencyMs == b.latencyMs &&
           a.hostId == b.hostId && a.extraIndex == b.extraIndex;
}

// What the arena may hold in memory however many rows it has: the chunk being filled, the read cache and
// the block table.
qint64 memoryBound(qsizetype rows) {
    return qint64((ui::RowArena::kChunkRows + ui::RowArena::kCacheBlocks * ui::RowArena::kBlockRows) *
                  sizeof(ui::ResultRow)) +
           rows / qint64(ui::RowArena::kBlockRows) * 4 + 64 * 1024;
}

void fill(ui::ResultsModel *model, int count) {
    for (int first = 0; first < count; first += 1000) {
        QList<crawl::CrawlResult> results;
        for (int i = first; i < std::min(count, first + 1000); ++i) {
            crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
            r.latencyMs = (qint64(i) * 7919) % 5000; // many rows share a latency: ties keep arrival order
            results.append(r);
        }
        model->addResults(results);
    }
}

std::vector<quint64> idsInViewOrder(const QAbstractItemModel *model) {
    std::vector<quint64> ids;
    for (int row = 0; row < model->rowCount(); ++row)
        ids.push_back(model->index(row, 0).data(ui::ResultsModel::IdRole).toULongLong());
    return ids;
}

void clickHeader(QTableView *view, int column) {
    QHeaderView *header = view->horizontalHeader();
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                    header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, at);
}

} // namespace

class TestRowSpill : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void arenaRoundTrip() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ui::RowArena arena;
        QVERIFY(arena.setSpillDirectory(dir.path()));
        QVERIFY(arena.isSpilling());
        // The file has no name: nothing is left in the directory, even while it is in use.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);

        const qsizetype count = 200'000;
        for (qsizetype i = 0; i < count; ++i)
            arena.append(rowFor(i));
        QCOMPARE(arena.size(), count);
        const qint64 all = count * qint64(sizeof(ui::ResultRow));
        QVERIFY2(arena.spilledBytes() > all - qint64(ui::RowArena::kChunkRows * sizeof(ui::ResultRow)),
                 qPrintable(QString::number(arena.spilledBytes())));
        QVERIFY2(arena.residentBytes() < memoryBound(count),
                 qPrintable(QString::number(arena.residentBytes())));

        // Random order: most reads miss the cache and read a block back.
        QRandomGenerator random(7);
        for (int n = 0; n < 50'000; ++n) {
            const qsizetype i = qsizetype(random.bounded(int(count)));
            QVERIFY2(sameRow(arena.at(i), rowFor(i)), qPrintable(QString::number(i)));
        }
        for (qsizetype i = 0; i < count; ++i)
            QVERIFY2(sameRow(arena.at(i), rowFor(i)), qPrintable(QString::number(i)));
        for (qsizetype i = count - 1; i >= 0; i -= 5)
            QVERIFY2(sameRow(arena.at(i), rowFor(i)), qPrintable(QString::number(i)));
        QVERIFY2(arena.residentBytes() < memoryBound(count),
                 qPrintable(QString::number(arena.residentBytes())));
        // A run copied out across chunk boundaries, with a replaced row in a written chunk.
        arena.replace(5000, rowFor(5000, 4));
        std::vector<ui::ResultRow> run(10'000);
        arena.copyRows(3000, qsizetype(run.size()), run.data());
        for (qsizetype k = 0; k < qsizetype(run.size()); ++k)
            QVERIFY2(sameRow(run[size_t(k)], rowFor(3000 + k, 3000 + k == 5000 ? 4 : 0)),
                     qPrintable(QString::number(k)));
        arena.replace(5000, rowFor(5000));
        QCOMPARE(arena.unreadableRows(), 0);

        // Pinned (a sort): every row in memory; twice pinned, once unpinned: still in memory.
        arena.pin();
        QVERIFY(arena.residentBytes() >= all);
        for (qsizetype i = 0; i < count; i += 3)
            QVERIFY(sameRow(arena.at(i), rowFor(i)));
        arena.pin();
        arena.unpin();
        QVERIFY(arena.residentBytes() >= all);
        // Rows appended while pinned are written out too (at once), and leave memory with the pin.
        const qint64 writtenBefore = arena.spilledBytes();
        for (qsizetype i = count; i < count + 10'000; ++i)
            arena.append(rowFor(i));
        QVERIFY(arena.spilledBytes() >=
                writtenBefore + 2 * qint64(ui::RowArena::kChunkRows * sizeof(ui::ResultRow)));
        // A snapshot of pinned rows reads them from the file rather than copying them all.
        {
            const ui::RowArena snapshot(arena);
            QVERIFY2(snapshot.residentBytes() < memoryBound(count + 10'000),
                     qPrintable(QString::number(snapshot.residentBytes())));
            for (qsizetype i = 1; i < count + 10'000; i += 997)
                QVERIFY2(sameRow(snapshot.at(i), rowFor(i)), qPrintable(QString::number(i)));
        }
        arena.unpin();
        QVERIFY2(arena.residentBytes() < memoryBound(count + 10'000),
                 qPrintable(QString::number(arena.residentBytes())));
        for (qsizetype i = 0; i < count + 10'000; i += 7)
            QVERIFY2(sameRow(arena.at(i), rowFor(i)), qPrintable(QString::number(i)));

        arena.clear();
        QCOMPARE(arena.size(), 0);
        QCOMPARE(arena.spilledBytes(), 0);
        arena.append(rowFor(5));
        QVERIFY(sameRow(arena.at(0), rowFor(5)));
    }

    // A retried URL replaces its row: in memory, in a chunk already written, while pinned; a snapshot keeps
    // the rows as they were when it was taken.
    void replacementsInEveryState() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ui::RowArena arena;
        QVERIFY(arena.setSpillDirectory(dir.path()));
        const qsizetype count = 3 * qsizetype(ui::RowArena::kChunkRows) + 100;
        for (qsizetype i = 0; i < count; ++i)
            arena.append(rowFor(i));
        const qsizetype spilled = 10;        // in the first chunk, long written
        const qsizetype filling = count - 5; // in the chunk still being filled
        arena.replace(spilled, rowFor(spilled, 1));
        arena.replace(filling, rowFor(filling, 1));
        QVERIFY(sameRow(arena.at(spilled), rowFor(spilled, 1)));
        QVERIFY(sameRow(arena.at(filling), rowFor(filling, 1)));
        QVERIFY(sameRow(arena.at(spilled + 1), rowFor(spilled + 1)));

        const ui::RowArena before(arena);
        arena.replace(spilled, rowFor(spilled, 2));
        arena.pin();
        arena.replace(spilled + 2, rowFor(spilled + 2, 2));
        arena.unpin();
        QVERIFY(sameRow(arena.at(spilled), rowFor(spilled, 2)));
        QVERIFY(sameRow(arena.at(spilled + 2), rowFor(spilled + 2, 2)));
        QVERIFY(sameRow(before.at(spilled), rowFor(spilled, 1)));
        QVERIFY(sameRow(before.at(spilled + 2), rowFor(spilled + 2)));
        QVERIFY(sameRow(before.at(filling), rowFor(filling, 1)));

        // The chunk being filled is written later with its replacement in place.
        for (qsizetype i = count; i < count + qsizetype(ui::RowArena::kChunkRows); ++i)
            arena.append(rowFor(i));
        QVERIFY(sameRow(arena.at(filling), rowFor(filling, 1)));
    }

    // CSV export reads a copy on a worker thread while the window clears the store for a new crawl: in
    // store order (by blocks) and at random (a sorted export), it reads the old rows.
    void snapshotOutlivesClear() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ui::RowArena arena;
        QVERIFY(arena.setSpillDirectory(dir.path()));
        const qsizetype count = 50'000;
        for (qsizetype i = 0; i < count; ++i)
            arena.append(rowFor(i));
        const ui::RowArena snapshot(arena);
        QVERIFY2(snapshot.residentBytes() < memoryBound(count),
                 qPrintable(QString::number(snapshot.residentBytes())));
        arena.clear();
        for (qsizetype i = 0; i < count; ++i)
            arena.append(rowFor(count - i, 3));
        QVERIFY(arena.isSpilling());
        for (qsizetype i = 0; i < count; ++i)
            QVERIFY2(sameRow(snapshot.at(i), rowFor(i)), qPrintable(QString::number(i)));
        QRandomGenerator random(3);
        for (int n = 0; n < 20'000; ++n) {
            const qsizetype i = qsizetype(random.bounded(int(count)));
            QVERIFY2(sameRow(snapshot.at(i), rowFor(i)), qPrintable(QString::number(i)));
        }
        QCOMPARE(snapshot.unreadableRows(), 0);
    }

    void unusableDirectoryKeepsRowsInMemory() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile file(dir.filePath(QStringLiteral("plain-file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        ui::RowArena arena;
        // A directory below a regular file cannot exist: a clear reason, and rows stay in memory.
        QVERIFY(!arena.setSpillDirectory(dir.filePath(QStringLiteral("plain-file/sub"))));
        QVERIFY(!arena.isSpilling());
        QVERIFY(!arena.spillError().isEmpty());
        for (qsizetype i = 0; i < 20'000; ++i)
            arena.append(rowFor(i));
        QCOMPARE(arena.spilledBytes(), 0);
        for (qsizetype i = 0; i < 20'000; ++i)
            QVERIFY(sameRow(arena.at(i), rowFor(i)));
    }

    void fullDiskKeepsLaterRowsInMemory() {
        // A file size limit stands in for a full disk: the first chunk is written, the next write fails.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of a signal
        rlimit limited = old;
        const size_t chunkBytes = ui::RowArena::kChunkRows * sizeof(ui::ResultRow);
        limited.rlim_cur = rlim_t(chunkBytes + chunkBytes / 2);
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &limited), 0);

        ui::RowArena arena;
        QVERIFY(arena.setSpillDirectory(dir.path()));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("rows stay in memory")));
        const qsizetype count = 5 * qsizetype(ui::RowArena::kChunkRows);
        for (qsizetype i = 0; i < count; ++i)
            arena.append(rowFor(i));
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previousHandler);

        QVERIFY(!arena.isSpilling());
        QVERIFY2(arena.spillError().contains(QStringLiteral("cannot write the rows file")),
                 qPrintable(arena.spillError()));
        QCOMPARE(arena.spilledBytes(), qint64(chunkBytes)); // what was written stays readable from the file
        for (qsizetype i = 0; i < count; ++i)
            QVERIFY2(sameRow(arena.at(i), rowFor(i)), qPrintable(QString::number(i)));
    }

    // A rows file that cannot be read back: blank rows counted, a reason given, and the CSV export refuses
    // to pass them off as the data (no partial file left).
    void unreadableRowsFailTheExport() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("spill"));
        ui::ResultStore store;
        QVERIFY(store.setSpillDirectory(folder));
        for (int i = 0; i < 20'000; ++i)
            store.append(testsite::makeSyntheticResult(quint64(i)));
        QVERIFY(store.rows().spilledBytes() > 0);
        QCOMPARE(uitest::truncateSpillFiles(folder, uitest::SpillFileKind::Rows), 1);

        ui::CsvExporter exporter;
        QSignalSpy finished(&exporter, &ui::CsvExporter::finished);
        const QString path = dir.filePath(QStringLiteral("out.csv"));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("cannot read the rows file")));
        QVERIFY(exporter.start(path, store));
        QVERIFY(finished.wait(60'000));
        const QString error = finished.last().at(3).toString();
        QVERIFY2(!finished.last().at(0).toBool(), "an export of blank rows reported success");
        QVERIFY2(error.contains(QLatin1String("could not be read back")), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("rows file")), qPrintable(error));
        QVERIFY2(!QFileInfo::exists(path), "a partial CSV was left behind");

        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("cannot read the rows file")));
        QCOMPARE(store.row(5).id32, 0u); // blank, not garbage
        QVERIFY(store.rows().unreadableRows() > 0);
        QVERIFY2(store.spillError().contains(QLatin1String("rows file")), qPrintable(store.spillError()));
    }

    // Every column a sort orders by one word: the held words give exactly the order of the rows themselves
    // (interned hosts, content types and reasons by their texts; ties in the given order), and rowLess
    // agrees; words stay right for rows appended and replaced while held.
    void heldKeysSortAsTheRows() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ui::ResultStore spilled;
        QVERIFY(spilled.setSpillDirectory(dir.path()));
        ui::ResultStore inMemory;
        QRandomGenerator random(5);
        auto resultFor = [&random](int i) {
            crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
            r.host = QStringLiteral("h%1.example").arg(random.bounded(40)); // ids not in text order
            r.contentType = i % 3 ? QStringLiteral("text/html") : QStringLiteral("application/pdf");
            r.rejectReason = i % 7 ? QString() : QStringLiteral("title missing %1").arg(i % 4);
            r.accepted = crawl::CrawlResult::Accepted(i % 3);
            r.lineNumber = i % 11 == 0 ? 5'000'000'000 + i : i; // some beyond 32 bits
            r.latencyMs = random.bounded(300) - 1;
            r.attempts = random.bounded(4);
            return r;
        };
        const int count = 30'000;
        for (int i = 0; i < count; ++i) {
            const crawl::CrawlResult r = resultFor(i);
            spilled.append(r);
            inMemory.append(r);
        }
        std::vector<int> rows(static_cast<size_t>(count));
        std::iota(rows.begin(), rows.end(), 0);
        std::shuffle(rows.begin(), rows.end(), std::mt19937(9));
        for (int column = 0; column < ui::ResultsModel::ColumnCount; ++column) {
            if (!ui::ResultSorter::sortsByKey(column))
                continue;
            spilled.holdSortKeys(column, &ui::ResultSorter::columnKey);
            QVERIFY(spilled.sortKeys(column));
            // Held while rows change: a replaced row and new ones (new hosts, content types and reasons
            // interned meanwhile) carry their words.
            crawl::CrawlResult changed = resultFor(count + column);
            changed.host = QStringLiteral("a-new-host-%1.example").arg(column);
            spilled.replace(17, changed);
            inMemory.replace(17, changed);
            for (int n = 0; n < 300; ++n) {
                crawl::CrawlResult added = resultFor(int(spilled.size()));
                added.host = QStringLiteral("added-%1.example").arg(random.bounded(1000));
                added.contentType = QStringLiteral("type/%1").arg(random.bounded(50));
                added.rejectReason = QStringLiteral("reason %1").arg(random.bounded(9));
                spilled.append(added);
                inMemory.append(added);
                rows.push_back(int(spilled.size()) - 1);
            }
            QCOMPARE(qsizetype(spilled.sortKeys(column)->size()), spilled.size());
            for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                const ui::ResultSorter held(spilled, ui::ResultsModel::Column(column), order);
                const ui::ResultSorter reference(inMemory, ui::ResultsModel::Column(column), order);
                QCOMPARE(held.sorted(rows), reference.sorted(rows));
                for (int n = 0; n < 2000; ++n) {
                    const int x = random.bounded(int(spilled.size()));
                    const int y = random.bounded(int(spilled.size()));
                    QCOMPARE(held.rowLess(x, y), reference.rowLess(x, y));
                }
            }
            spilled.releaseSortKeys(column);
            QVERIFY(!spilled.sortKeys(column));
        }
        QVERIFY(!spilled.rows().isPinned());
        QCOMPARE(spilled.memoryUse().sortKeys, 0);
    }

    // The real table over spilled rows: at rest they are on disk; a click on Latency sorts them holding
    // one word a row (the rows stay on disk) exactly as the same rows in memory sort; a second click
    // reverses; rows streamed in land where they land in memory; a third click goes back to arrival order
    // and lets the words go.
    void headerClicksSortSpilledRowsAsInMemory() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ui::ResultsModel spilled;
        QVERIFY(spilled.spillTo(dir.path()));
        ui::ResultsModel inMemory;
        const int count = 60'000;
        fill(&spilled, count);
        fill(&inMemory, count);
        QVERIFY2(spilled.store().memoryUse().rows < memoryBound(count),
                 qPrintable(QString::number(spilled.store().memoryUse().rows)));

        ui::ResultFilterSortModel proxy;
        proxy.setResultsModel(&spilled);
        QTableView view;
        view.setModel(&proxy);
        view.setSortingEnabled(true);
        view.horizontalHeader()->setSortIndicatorClearable(true);
        view.horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        ui::ResultFilterSortModel reference;
        reference.setResultsModel(&inMemory);

        clickHeader(&view, ui::ResultsModel::LatencyColumn);
        QTRY_VERIFY_WITH_TIMEOUT(!proxy.isSorting() && proxy.sortColumn() == ui::ResultsModel::LatencyColumn,
                                 20'000);
        QVERIFY(!spilled.store().rows().isPinned());
        QVERIFY2(spilled.store().memoryUse().rows < memoryBound(count),
                 qPrintable(QString::number(spilled.store().memoryUse().rows)));
        QVERIFY(spilled.store().memoryUse().sortKeys >= qint64(count) * 8);
        reference.sort(ui::ResultsModel::LatencyColumn, proxy.sortOrder());
        QTRY_VERIFY_WITH_TIMEOUT(!reference.isSorting(), 20'000);
        QCOMPARE(idsInViewOrder(&proxy), idsInViewOrder(&reference));

        clickHeader(&view, ui::ResultsModel::LatencyColumn);
        QTRY_VERIFY_WITH_TIMEOUT(!proxy.isSorting() && proxy.sortOrder() == Qt::DescendingOrder, 20'000);
        reference.sort(ui::ResultsModel::LatencyColumn, Qt::DescendingOrder);
        QTRY_VERIFY_WITH_TIMEOUT(!reference.isSorting(), 20'000);
        QCOMPARE(idsInViewOrder(&proxy), idsInViewOrder(&reference));
        // Rows that arrive meanwhile go to their place in the held order, as in memory.
        QList<crawl::CrawlResult> more;
        for (int i = count; i < count + 500; ++i) {
            crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
            r.latencyMs = (qint64(i) * 7919) % 5000;
            more.append(r);
        }
        spilled.addResults(more);
        inMemory.addResults(more);
        QCOMPARE(idsInViewOrder(&proxy), idsInViewOrder(&reference));

        clickHeader(&view, ui::ResultsModel::LatencyColumn);
        QTRY_COMPARE(proxy.sortColumn(), -1);
        QCOMPARE(view.horizontalHeader()->sortIndicatorSection(), -1);
        const std::vector<quint64> ids = idsInViewOrder(&proxy);
        for (size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(ids[i], quint64(i)); // arrival order
        QVERIFY2(spilled.store().memoryUse().rows < memoryBound(count + 500),
                 qPrintable(QString::number(spilled.store().memoryUse().rows)));
        QCOMPARE(spilled.store().memoryUse().sortKeys, 0);
    }
};

QTEST_MAIN(TestRowSpill)
#include "tst_rowspill.moc"
