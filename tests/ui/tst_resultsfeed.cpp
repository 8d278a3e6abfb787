// ResultsFeed: engine results reach the models in chunks, one per turn of the event loop, in arrival
// order; a sorted and a filtered view of the model stay right however the rows were cut into chunks.
#include "model/outcome.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsfeed.h"
#include "models/resultsmodel.h"

#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using crawl::CrawlResult;
using crawl::Outcome;

namespace {

// Row `id`: every 7th a 404, latencies that repeat (ties), three hosts.
CrawlResult makeResult(quint64 id) {
    CrawlResult r;
    r.id = id;
    r.lineNumber = qint64(id) + 1;
    r.host = QStringLiteral("127.0.0.%1:8080").arg(id % 3 + 1);
    r.url = QStringLiteral("http://%1/p%2").arg(r.host).arg(id);
    r.finalUrl = r.url;
    const bool failed = id % 7 == 3;
    r.outcome = failed ? Outcome::HttpError : Outcome::Ok;
    r.status = failed ? 404 : 200;
    r.attempts = 1;
    r.bytes = 100 + qint64(id % 13);
    r.latencyMs = qint64((id * 7919) % 500);
    if (failed)
        r.error = QStringLiteral("HTTP 404 Not Found");
    r.startedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000 + qint64(id), Qt::UTC);
    r.finishedAt = r.startedAt.addMSecs(r.latencyMs);
    return r;
}

QList<CrawlResult> makeResults(quint64 from, int count) {
    QList<CrawlResult> results;
    for (int i = 0; i < count; ++i)
        results.append(makeResult(from + quint64(i)));
    return results;
}

// Descending latency, ties in arrival order: what the Latency header's second click shows.
bool sortedByLatencyDescending(const ui::ResultFilterSortModel &proxy) {
    const ui::ResultStore &store = proxy.resultsModel()->store();
    const std::vector<int> &rows = proxy.sourceRows();
    for (size_t i = 1; i < rows.size(); ++i) {
        const qint32 a = store.row(rows[i - 1]).latencyMs;
        const qint32 b = store.row(rows[i]).latencyMs;
        if (b > a || (a == b && rows[i] < rows[i - 1]))
            return false;
    }
    return true;
}

} // namespace

class TestResultsFeed : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chunksStaySortedAndCounted() {
        // 20,000 rows arrive in engine-sized batches while a sorted results view and a failures view
        // watch the model; the feed cuts them into chunks, one per turn of the event loop.
        ui::ResultsModel model;
        ui::ResultFilterSortModel results;
        results.setResultsModel(&model);
        results.sort(ui::ResultsModel::LatencyColumn, Qt::DescendingOrder);
        ui::ResultFilterSortModel failures;
        failures.setResultsModel(&model);
        failures.setFailuresOnly(true);

        ui::ResultsFeed feed;
        feed.setCoalesceMs(10);
        feed.setBudgetMs(1);
        int chunks = 0;
        qint64 delivered = 0;
        bool otherEventRan = false;
        bool otherEventRanBetweenChunks = false;
        bool inOrder = true;
        bool withinSize = true;
        bool viewsRight = true;
        connect(&feed, &ui::ResultsFeed::chunkReady, this, [&](const QList<CrawlResult> &chunk) {
            // The size the feed chose for this chunk is still what it would choose now: it re-measures
            // only after the receiver returns.
            withinSize = withinSize && chunk.size() <= feed.nextChunkRows();
            for (const CrawlResult &r : chunk)
                inOrder = inOrder && r.id == quint64(delivered++);
            model.addResults(chunk);
            viewsRight = viewsRight && sortedByLatencyDescending(results) &&
                         results.rowCount() == model.rowCount() &&
                         failures.rowCount() == model.failureCount();
            if (++chunks == 1) // an event queued now must run before the next chunk
                QTimer::singleShot(0, this, [&] { otherEventRan = true; });
            else if (chunks == 2)
                otherEventRanBetweenChunks = otherEventRan;
        });

        const int total = 20'000;
        for (int from = 0; from < total; from += 500)
            feed.append(makeResults(quint64(from), 500));
        QCOMPARE(chunks, 0); // nothing is inserted inside append(): the engine's signal returns at once
        QVERIFY(QTest::qWaitFor([&] { return delivered == total; }, 30'000));

        QVERIFY(chunks > 1);
        QVERIFY(otherEventRanBetweenChunks);
        QVERIFY(inOrder);
        QVERIFY(withinSize);
        QVERIFY(viewsRight);
        QCOMPARE(feed.pendingCount(), 0);
        QCOMPARE(model.rowCount(), total);
        QCOMPARE(results.rowCount(), total);
        QVERIFY(sortedByLatencyDescending(results));
        qint64 expectedFailures = 0;
        for (quint64 id = 0; id < quint64(total); ++id)
            expectedFailures += id % 7 == 3;
        QCOMPARE(model.failureCount(), expectedFailures);
        QCOMPARE(failures.rowCount(), int(expectedFailures));
        QCOMPARE(model.outcomeCount(Outcome::HttpError), expectedFailures);
        for (int row = 0; row < failures.rowCount(); ++row)
            QCOMPARE(model.store().outcome(failures.sourceRow(row)), Outcome::HttpError);
    }

    void aFewResultsWaitForCompany() {
        ui::ResultsFeed feed;
        feed.setCoalesceMs(50);
        QSignalSpy spy(&feed, &ui::ResultsFeed::chunkReady);
        feed.append(makeResults(0, 3));
        feed.append(makeResults(3, 2));
        QCOMPARE(spy.count(), 0);
        QVERIFY(spy.wait(5'000));
        QCOMPARE(spy.count(), 1); // both batches in one insert
        QCOMPARE(spy.at(0).at(0).value<QList<CrawlResult>>().size(), 5);
    }

    void aBurstDoesNotWaitForTheTimer() {
        // A chunk's worth pending starts the inserts on the next turn, whatever the coalescing delay:
        // a fast burst must not pile up.
        ui::ResultsFeed feed;
        feed.setCoalesceMs(600'000);
        QSignalSpy spy(&feed, &ui::ResultsFeed::chunkReady);
        feed.append(makeResults(0, int(feed.nextChunkRows())));
        QVERIFY(spy.wait(5'000));
        QCOMPARE(feed.pendingCount(), 0);
    }

    void aCrawlFilesPagesDoNotWaitForCompany() {
        // An opened crawl's pages (appendNow) are taken on the next turn even when they are less than a
        // chunk's worth: the loader reads the next page only once the views took this one, so waiting for
        // company would leave both idle (it made a 1,000,000-row file take ~26 s to open on an idle machine).
        ui::ResultsFeed feed;
        feed.setCoalesceMs(600'000);
        QSignalSpy spy(&feed, &ui::ResultsFeed::chunkReady);
        QSignalSpy drained(&feed, &ui::ResultsFeed::drained);
        feed.appendNow(makeResults(0, 10));
        QVERIFY(int(feed.nextChunkRows()) > 10);
        QVERIFY(spy.wait(5'000));
        QCOMPARE(spy.at(0).at(0).value<QList<CrawlResult>>().size(), 10);
        QCOMPARE(drained.count(), 1);
        // A page appended while a live result waits for company takes it along at once.
        feed.append(makeResults(10, 2));
        feed.appendNow(makeResults(12, 3));
        QVERIFY(spy.wait(5'000));
        QCOMPARE(spy.at(1).at(0).value<QList<CrawlResult>>().size(), 5);
        QCOMPARE(feed.pendingCount(), 0);
    }

    void flushAllAndClear() {
        ui::ResultsFeed feed;
        feed.setCoalesceMs(600'000);
        qint64 delivered = 0;
        connect(&feed, &ui::ResultsFeed::chunkReady, this,
                [&delivered](const QList<CrawlResult> &chunk) { delivered += chunk.size(); });
        feed.append(makeResults(0, 10));
        feed.flushAll(); // export, retry and "finished" need every result in the views now
        QCOMPARE(delivered, 10);
        feed.append(makeResults(10, 5000)); // more than a chunk: released on the next turn...
        feed.clear();                       // ...unless a new crawl drops them first
        QCOMPARE(feed.pendingCount(), 0);
        for (int turn = 0; turn < 5; ++turn) // the turns a released chunk would have come on
            QCoreApplication::processEvents();
        QCOMPARE(delivered, 10);
    }

    void drainedOnlyWhenEverythingIsDelivered() {
        // An opened crawl file is announced on drained(): by then every row must be in the views.
        ui::ResultsFeed feed;
        feed.setCoalesceMs(10);
        feed.setBudgetMs(0.5);
        qint64 delivered = 0;
        qint64 deliveredAtDrain = -1;
        int drains = 0;
        connect(&feed, &ui::ResultsFeed::chunkReady, this,
                [&delivered](const QList<CrawlResult> &chunk) { delivered += chunk.size(); });
        connect(&feed, &ui::ResultsFeed::drained, this, [&] {
            ++drains;
            deliveredAtDrain = delivered;
        });
        feed.append(makeResults(0, 20'000)); // several chunks, one per turn
        QVERIFY(QTest::qWaitFor([&] { return drains > 0; }, 10'000));
        QCOMPARE(deliveredAtDrain, 20'000);
        QCOMPARE(drains, 1);
        QVERIFY(delivered == 20'000 && feed.pendingCount() == 0);
    }

    void aBacklogThatNeverEmptiesHoldsOnlyTheBacklog() {
        // An opened crawl file: its loader posts a page whenever fewer than two wait, so the backlog never
        // empties while 200,000 results pass through. The list holding it must stay near the backlog's
        // size, not grow with what went through (the old compaction waited for 65,536 released results).
        constexpr int kPage = 1'000;
        constexpr int kPages = 200;
        ui::ResultsFeed feed;
        feed.setCoalesceMs(10);
        feed.setBudgetMs(0.5);
        int posted = 0;
        qint64 delivered = 0;
        qsizetype mostHeld = 0;
        connect(&feed, &ui::ResultsFeed::chunkReady, this, [&](const QList<CrawlResult> &chunk) {
            QCOMPARE(chunk.first().id, quint64(delivered)); // in order across the compactions
            delivered += chunk.size();
            mostHeld = std::max(mostHeld, feed.heldCapacity());
            while (posted < kPages && feed.pendingCount() < 2 * kPage)
                feed.append(makeResults(quint64(posted++) * kPage, kPage));
        });
        feed.append(makeResults(0, kPage));
        feed.append(makeResults(kPage, kPage));
        posted = 2;
        QVERIFY(QTest::qWaitFor([&] { return delivered == qint64(kPages) * kPage; }, 60'000));
        QCOMPARE(feed.pendingCount(), 0);
        QVERIFY2(mostHeld <= 16'384, qPrintable(QString::number(mostHeld)));
        QVERIFY(feed.heldCapacity() <= 16'384); // the emptied list gave its block back
    }
};

QTEST_MAIN(TestResultsFeed)
#include "tst_resultsfeed.moc"
