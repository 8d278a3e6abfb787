// ResultSorter on its own: every column in both directions against a plain stable sort of the same rows,
// and the cases its integer keys have to get right (long shared URL prefixes, ties, rows without errors).
#include "models/resultsmodel.h"
#include "models/resultsorter.h"
#include "models/resultstore.h"
#include "models/slicedsorter.h"
#include "models/slicedurlsorter.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>

using crawl::CrawlResult;
using crawl::Outcome;
using Column = ui::ResultsModel::Column;

namespace {

CrawlResult makeResult(quint64 id, const QString &url) {
    CrawlResult r;
    r.id = id;
    r.lineNumber = qint64(id) + 1;
    r.url = url;
    r.finalUrl = url;
    r.host = QStringLiteral("127.0.0.1:8080");
    r.status = 200;
    r.attempts = 1;
    r.latencyMs = 42;
    r.startedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000 + qint64(id), Qt::UTC);
    r.finishedAt = r.startedAt.addMSecs(42);
    return r;
}

template <typename T> int threeWay(T x, T y) {
    return (x > y) - (x < y);
}

// What each column means, compared the slow and obvious way.
int compareRows(const ui::ResultStore &store, Column column, int x, int y) {
    const ui::ResultStore::Row &a = store.row(x);
    const ui::ResultStore::Row &b = store.row(y);
    switch (column) {
    case ui::ResultsModel::LineColumn:
        return threeWay(store.lineNumber(x), store.lineNumber(y));
    case ui::ResultsModel::UrlColumn:
        return store.urlUtf8(x).compare(store.urlUtf8(y));
    case ui::ResultsModel::HostColumn:
        return store.host(x).compare(store.host(y));
    case ui::ResultsModel::OutcomeColumn:
        return threeWay(a.outcome, b.outcome);
    case ui::ResultsModel::StatusColumn:
        return threeWay(a.status, b.status);
    case ui::ResultsModel::AttemptsColumn:
        return threeWay(a.attempts, b.attempts);
    case ui::ResultsModel::LatencyColumn:
        return threeWay(a.latencyMs, b.latencyMs);
    case ui::ResultsModel::BytesColumn:
        return threeWay(a.bytes, b.bytes);
    case ui::ResultsModel::ContentTypeColumn:
        return store.contentType(x).compare(store.contentType(y));
    case ui::ResultsModel::ErrorColumn: // rows without any stored text first, then by the error text
        if (const int c = threeWay(a.extraIndex >= 0, b.extraIndex >= 0))
            return c;
        return store.error(x).compare(store.error(y));
    case ui::ResultsModel::FinishedColumn:
        return threeWay(a.finishedAtMs, b.finishedAtMs);
    case ui::ResultsModel::AcceptedColumn:
        return threeWay(int(store.accepted(x)), int(store.accepted(y)));
    case ui::ResultsModel::RejectReasonColumn:
        return store.rejectReason(x).compare(store.rejectReason(y));
    case ui::ResultsModel::TitleColumn:
        return store.titleUtf8(x).compare(store.titleUtf8(y));
    case ui::ResultsModel::ColumnCount:
        break;
    }
    return 0;
}

std::vector<int> referenceSort(const ui::ResultStore &store, Column column, Qt::SortOrder order,
                               std::vector<int> rows) {
    std::stable_sort(rows.begin(), rows.end(), [&](int x, int y) {
        const int c = compareRows(store, column, x, y);
        return order == Qt::DescendingOrder ? c > 0 : c < 0;
    });
    return rows;
}

std::vector<int> sortedBy(const ui::ResultStore &store, Column column, Qt::SortOrder order,
                          const std::vector<int> &rows) {
    return ui::ResultSorter(store, column, order).sorted(rows);
}

} // namespace

class TestResultSorter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesReference_data() {
        QTest::addColumn<int>("column");
        QTest::addColumn<bool>("descending");
        for (int column = 0; column < ui::ResultsModel::ColumnCount; ++column) {
            QTest::addRow("col%d-asc", column) << column << false;
            QTest::addRow("col%d-desc", column) << column << true;
        }
    }

    void matchesReference() {
        // Long shared prefixes, many equal keys, URL lengths around the 16-byte key words, negative
        // numbers, rows given in an order of their own (as a filtered proxy holds them).
        QFETCH(int, column);
        QFETCH(bool, descending);
        ui::ResultStore store;
        quint32 seed = 12345;
        auto next = [&seed] { return seed = seed * 1103515245u + 12345u; };
        const Outcome outcomes[] = {Outcome::Ok, Outcome::HttpError, Outcome::Timeout, Outcome::NetworkError};
        for (int i = 0; i < 3000; ++i) {
            const QString path = QString(int(next() % 40), QLatin1Char('a' + int(next() % 3)));
            CrawlResult r =
                makeResult(quint64(i), QStringLiteral("https://host%1.example.com/").arg(next() % 5) + path +
                                           QStringLiteral("?n=%1").arg(next() % 50));
            r.lineNumber = qint64(next() % 500);
            r.host = QStringLiteral("host%1:443").arg(next() % 7);
            r.outcome = outcomes[next() % 4];
            r.status = next() % 2 ? 200 : 404;
            r.attempts = int(next() % 4);
            r.latencyMs = qint64(next() % 100) - 1;
            r.bytes = qint64(next() % 3) * 1000 - 1;
            r.contentType = next() % 3 ? QStringLiteral("text/html") : QStringLiteral("image/png");
            if (r.outcome != Outcome::Ok)
                r.error = QStringLiteral("e%1").arg(next() % 30);
            else if (next() % 5 == 0)
                r.finalUrl = r.url + QStringLiteral("/moved"); // stored text, but no error
            r.finishedAt = r.startedAt.addMSecs(qint64(next() % 1000) - 500);
            r.accepted = CrawlResult::Accepted(next() % 3);
            if (r.accepted == CrawlResult::Accepted::No)
                r.rejectReason = QStringLiteral("status %1 not in 200-299").arg(next() % 5);
            // Titles around and beyond the 16-byte key, many sharing it.
            if (next() % 4)
                r.title = QStringLiteral("Product page nr ") + QString(int(next() % 6), QLatin1Char('x')) +
                          QString::number(next() % 4);
            store.append(r);
        }
        std::vector<int> rows;
        for (int row = 0; row < store.size(); ++row) {
            if (next() % 4)
                rows.push_back(row);
        }
        std::reverse(rows.begin(), rows.end());

        const auto col = Column(column);
        const Qt::SortOrder order = descending ? Qt::DescendingOrder : Qt::AscendingOrder;
        const std::vector<int> want = referenceSort(store, col, order, rows);
        const std::vector<int> got = sortedBy(store, col, order, rows);
        QCOMPARE(got.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            if (got[i] != want[i])
                QFAIL(qPrintable(
                    QStringLiteral("position %1: row %2, want row %3").arg(i).arg(got[i]).arg(want[i])));
        }

        // rowLess (placing streamed rows into a sorted list) agrees with the reference for row pairs.
        const ui::ResultSorter sorter(store, col, order);
        for (size_t i = 0; i + 1 < rows.size(); i += 3) {
            const int x = rows[i];
            const int y = rows[(i * 7 + 1) % rows.size()];
            const int c = compareRows(store, col, x, y);
            QCOMPARE(sorter.rowLess(x, y), descending ? c > 0 : c < 0);
        }

        // SlicedSorter (the same order in bounded steps) gives exactly this order whatever its chunk size:
        // chunks of 2 and 7 rows make many uneven merge passes, 1000 a few, 5000 none.
        // A URL sort of these few rows copies their URLs; with copyUrlRows 0 it sweeps the store as for a
        // million rows (runs of up to chunkRows sorted at once, longer ones in heap-sort slices).
        for (const int chunkRows : {2, 7, 1000, 5000, -2, -7, -1000}) {
            ui::SlicedSorter sliced(store, col, order, rows, std::abs(chunkRows),
                                    chunkRows < 0 ? 0 : ui::SlicedUrlSorter::kCopyRows);
            int steps = 0;
            while (!sliced.step(0)) // a zero budget: one chunk or one merge stride per step
                ++steps;
            QVERIFY(sliced.isDone());
            QCOMPARE(sliced.progressPercent(), 100);
            if (std::abs(chunkRows) < int(rows.size()))
                QVERIFY2(steps > 0, qPrintable(QString::number(chunkRows)));
            const std::vector<int> slicedRows = sliced.take();
            if (slicedRows != want)
                QFAIL(qPrintable(QStringLiteral("chunks of %1 rows: another order").arg(chunkRows)));
        }
    }

    void slicedSortReportsProgressAndHandlesTinyInputs() {
        ui::ResultStore store;
        for (int i = 0; i < 100; ++i)
            store.append(makeResult(quint64(i), QStringLiteral("https://h/%1").arg(99 - i)));
        std::vector<int> rows(100);
        std::iota(rows.begin(), rows.end(), 0);
        ui::SlicedSorter sliced(store, ui::ResultsModel::UrlColumn, Qt::AscendingOrder, rows, 8,
                                /*copyUrlRows=*/0);
        QCOMPARE(sliced.progressPercent(), 0);
        std::vector<int> seen;
        while (!sliced.step(0))
            seen.push_back(sliced.progressPercent());
        QVERIFY(std::is_sorted(seen.cbegin(), seen.cend()));
        // At least a step per phase: the index, the shared prefix, a sweep, the sort, the ties.
        QVERIFY2(
            seen.size() >= 4 && seen.back() > 50 && seen.back() < 100,
            qPrintable(
                QStringLiteral("%1 steps, last %2").arg(seen.size()).arg(seen.empty() ? -1 : seen.back())));
        QCOMPARE(sliced.take(),
                 ui::ResultSorter(store, ui::ResultsModel::UrlColumn, Qt::AscendingOrder).sorted(rows));

        for (const std::vector<int> &tiny : {std::vector<int>{}, std::vector<int>{42}}) {
            ui::SlicedSorter none(store, ui::ResultsModel::UrlColumn, Qt::DescendingOrder, tiny);
            QVERIFY(none.isDone());
            QCOMPARE(none.take(), tiny);
        }
    }

    // A retried row replaced while a sliced sort by content type runs (ResultFilterSortModel lets that happen
    // and places the replaced rows again afterwards) interns a content type nobody has ranked yet: the sort
    // orders every row by the value it had when the sort started (its merges would otherwise compare runs
    // sorted by the old value with the new one, and leave rows never replaced out of order).
    void replacementDuringASlicedSortKeepsTheOrderItStartedWith() {
        ui::ResultStore store;
        for (int i = 0; i < 400; ++i) {
            CrawlResult r = makeResult(quint64(i), QStringLiteral("https://h/%1").arg(i));
            r.contentType = QStringLiteral("type/%1").arg((i * 7) % 5);
            store.append(r);
        }
        std::vector<int> rows(400);
        std::iota(rows.begin(), rows.end(), 0);
        const std::vector<int> before =
            ui::ResultSorter(store, ui::ResultsModel::ContentTypeColumn, Qt::AscendingOrder).sorted(rows);
        ui::SlicedSorter sliced(store, ui::ResultsModel::ContentTypeColumn, Qt::AscendingOrder, rows, 50);
        QVERIFY(!sliced.step(0)); // the first chunk only
        for (const int row : {10, 120, 399}) {
            CrawlResult r = store.result(row);
            r.contentType = QStringLiteral("type/%1-new").arg(row); // would sort among the others
            store.replace(row, r);
        }
        while (!sliced.step(0)) {
        }
        QCOMPARE(sliced.take(), before);
    }

    void urlsThatDifferOnlyFarIn() {
        // Rows 0-4 share 75 bytes but row 5 makes the common prefix short, so their keys tie for three
        // refinement rounds before the difference shows. Equal URLs keep the given order.
        ui::ResultStore store;
        const QString prefix = QStringLiteral("http://127.0.0.1:8080/") + QString(38, QLatin1Char('x'));
        const QStringList tails = {QStringLiteral("0123456789abcdefZ"), QStringLiteral("0123456789abcdefA"),
                                   QStringLiteral("0123456789abcdefZ"), QStringLiteral("0123456789abcde"),
                                   QStringLiteral("0123456789abcdefA")};
        for (int i = 0; i < tails.size(); ++i)
            store.append(makeResult(quint64(i), prefix + tails[i]));
        store.append(makeResult(5, QStringLiteral("http://127.0.0.1:8080/a")));
        const std::vector<int> rows{0, 1, 2, 3, 4, 5};
        QCOMPARE(sortedBy(store, ui::ResultsModel::UrlColumn, Qt::AscendingOrder, rows),
                 (std::vector<int>{5, 3, 1, 4, 0, 2}));
        QCOMPARE(sortedBy(store, ui::ResultsModel::UrlColumn, Qt::DescendingOrder, rows),
                 (std::vector<int>{0, 2, 1, 4, 3, 5}));
        QCOMPARE(sortedBy(store, ui::ResultsModel::UrlColumn, Qt::AscendingOrder, {4, 2, 0}),
                 (std::vector<int>{4, 2, 0}));
    }

    void errorsSortAfterRowsWithout() {
        ui::ResultStore store;
        CrawlResult ok = makeResult(0, QStringLiteral("http://a/0"));
        CrawlResult b = makeResult(1, QStringLiteral("http://a/1"));
        b.outcome = Outcome::Timeout;
        b.error = QStringLiteral("b: timed out");
        CrawlResult a = makeResult(2, QStringLiteral("http://a/2"));
        a.outcome = Outcome::HttpError;
        a.error = QStringLiteral("a: 404");
        store.append(ok);
        store.append(b);
        store.append(a);
        QCOMPARE(sortedBy(store, ui::ResultsModel::ErrorColumn, Qt::AscendingOrder, {0, 1, 2}),
                 (std::vector<int>{0, 2, 1}));
        QCOMPARE(sortedBy(store, ui::ResultsModel::ErrorColumn, Qt::DescendingOrder, {0, 1, 2}),
                 (std::vector<int>{1, 2, 0}));
    }

    void urlSortOfSpilledTextsMatchesReference() {
        // Issue 11: a URL sort of an opened crawl's million rows must not bring every spilled URL back into
        // memory. URLs under a few long shared prefixes (ties for several 8- and 16-byte key words), exact
        // duplicates, URLs that end where a key word ends and are the start of others, non-ASCII bytes;
        // in chunks of texts on disk, given in a shuffled order of their own.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ui::ResultStore store;
        QVERIFY(store.setSpillDirectory(dir.path()));
        QRandomGenerator random(7);
        const QStringList prefixes = {QStringLiteral("https://shop.example.com/catalog/winter-sale/items/"),
                                      QStringLiteral("https://shop.example.com/catalog/winter-sale/"),
                                      QStringLiteral("https://shop.example.com/c/"),
                                      QStringLiteral("https://www.example.org/\u00e9t\u00e9/"),
                                      QStringLiteral("http://127.0.0.1:8080/")};
        const int total = 30'000;
        for (int i = 0; i < total; ++i) {
            QString url = prefixes[random.bounded(int(prefixes.size()))];
            const int kind = random.bounded(10);
            if (kind == 0)
                url += QStringLiteral("p/%1").arg(random.bounded(50)); // many duplicates
            else if (kind == 1)
                url += QString(random.bounded(20), QLatin1Char('x')); // ends anywhere, prefixes of others
            else
                url += QStringLiteral("p/%1/%2")
                           .arg(random.bounded(100'000))
                           .arg(QString(random.bounded(30), u'q'));
            CrawlResult r = makeResult(quint64(i), url);
            r.title = QStringLiteral("Title %1").arg(i);
            store.append(r);
        }
        QVERIFY(store.texts().spilledBytes() > qint64(4 * ui::TextArena::kChunkBytes));
        QVERIFY(!store.texts().isPinned());
        std::vector<int> rows;
        for (int row = 0; row < total; ++row) {
            if (random.bounded(5) != 0)
                rows.push_back(row);
        }
        std::shuffle(rows.begin(), rows.end(), std::mt19937(3));
        // The reference compares copies of the texts (views of spilled texts do not outlive a few reads).
        std::vector<QByteArray> urls(static_cast<size_t>(total));
        for (int row = 0; row < total; ++row)
            QVERIFY(store.readUrlUtf8(row, &urls[size_t(row)]));
        QVERIFY(!store.texts().isPinned());

        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            const auto reference = [&](std::vector<int> given) {
                std::stable_sort(given.begin(), given.end(), [&](int x, int y) {
                    const int c = urls[size_t(x)].compare(urls[size_t(y)]);
                    return order == Qt::DescendingOrder ? c > 0 : c < 0;
                });
                return given;
            };
            const std::vector<int> want = reference(rows);
            for (const int chunkRows : {7, 1000, 16'384}) {
                ui::SlicedSorter sliced(store, ui::ResultsModel::UrlColumn, order, rows, chunkRows);
                const qint64 resident = store.texts().residentBytes();
                int steps = 0;
                while (!sliced.step(0)) {
                    ++steps;
                    QVERIFY(!store.texts().isPinned());
                    // The sweeps read through a chunk buffer of their own: not even the read cache grows.
                    QCOMPARE(store.texts().residentBytes(), resident);
                }
                QVERIFY(steps > 10);
                if (sliced.take() != want)
                    QFAIL(qPrintable(QStringLiteral("chunks of %1 rows: another order").arg(chunkRows)));
            }
            // The same rows through both of SlicedUrlSorter's ways: sweeps of the store (what a million
            // rows take; runs sorted at once or in heap-sort slices) and copies of the URLs (a filter's
            // few thousand); the given rows owned or borrowed, shuffled or in store order.
            std::vector<int> ascending = rows;
            std::sort(ascending.begin(), ascending.end());
            const std::vector<int> wantAscending = reference(ascending);
            for (const size_t copyRows : {size_t(0), ui::SlicedUrlSorter::kCopyRows}) {
                for (const int chunkRows : {7, 16'384}) {
                    for (const bool borrowed : {false, true}) {
                        for (const std::vector<int> *given : {&rows, &ascending}) {
                            ui::SlicedUrlSorter sliced =
                                borrowed ? ui::SlicedUrlSorter(store, order, given, chunkRows, copyRows)
                                         : ui::SlicedUrlSorter(store, order, *given, chunkRows, copyRows);
                            const qint64 resident = store.texts().residentBytes();
                            int steps = 0;
                            size_t held = 0;
                            while (!sliced.step(0)) {
                                ++steps;
                                QCOMPARE(store.texts().residentBytes(), resident);
                                held = std::max(held, sliced.heldBytes());
                            }
                            QVERIFY(steps > 10);
                            if (copyRows == 0) {
                                // Issue 11: 8-byte keys sorted in place (no merge buffer), no index by
                                // store row, a chunk buffer, the tie ranges (well under a byte a row here);
                                // the given rows when owned and not in store order. The merge sort before
                                // held 12-byte keys, a merge buffer of up to half of them and 4 bytes per
                                // store row.
                                const size_t bound =
                                    9 * given->size() + ui::TextArena::kChunkBytes +
                                    (borrowed || given == &ascending ? 0 : 4 * given->size());
                                QVERIFY2(held <= bound,
                                         qPrintable(QStringLiteral("%1 > %2").arg(held).arg(bound)));
                            }
                            if (sliced.take() != (given == &rows ? want : wantAscending))
                                QFAIL(qPrintable(
                                    QStringLiteral("copy %1, chunks %2, borrowed %3: another order")
                                        .arg(copyRows)
                                        .arg(chunkRows)
                                        .arg(borrowed)));
                        }
                    }
                }
            }

            // A few thousand rows (a filter's result) are sorted at once from copies of their texts, and
            // rowLess reads the texts of rows it has not copied: the texts stay on disk.
            const std::vector<int> few(rows.begin(), rows.begin() + 3000);
            const ui::ResultSorter sorter(store, ui::ResultsModel::UrlColumn, order);
            QVERIFY(!store.texts().isPinned());
            QCOMPARE(sorter.sorted(few), reference(few));
            QVERIFY(!store.texts().isPinned());
            for (size_t i = 0; i + 1 < rows.size(); i += 97) {
                const int x = rows[i];
                const int y = rows[(i * 31 + 5) % rows.size()];
                const int c = urls[size_t(x)].compare(urls[size_t(y)]);
                QCOMPARE(sorter.rowLess(x, y), order == Qt::DescendingOrder ? c > 0 : c < 0);
            }
        }
    }

    void noRows() {
        ui::ResultStore store;
        QVERIFY(sortedBy(store, ui::ResultsModel::UrlColumn, Qt::AscendingOrder, {}).empty());
        QVERIFY(sortedBy(store, ui::ResultsModel::HostColumn, Qt::DescendingOrder, {}).empty());
    }
};

QTEST_MAIN(TestResultSorter)
#include "tst_resultsorter.moc"
