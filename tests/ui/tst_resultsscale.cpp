// A million results through the results model, its filter proxies and a table view: batched inserts,
// filter and sort on demand, memory. Prints the numbers (the benchmark program measures the real GUI).
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "syntheticresults.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QTableView>
#include <QTest>

namespace {} // namespace

class TestResultsScale : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void millionRows() {
        const int total = qEnvironmentVariableIntValue("CRAWLSCOPE_SCALE_ROWS") > 0
                              ? qEnvironmentVariableIntValue("CRAWLSCOPE_SCALE_ROWS")
                              : 1'000'000;
        const int batch = 1000;
        ui::ResultsModel model;
        ui::ResultFilterSortModel all;
        all.setResultsModel(&model);
        ui::ResultFilterSortModel failures;
        failures.setResultsModel(&model);
        failures.setFailuresOnly(true);
        QTableView view;
        view.setModel(&all);
        view.verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        view.verticalHeader()->setDefaultSectionSize(22);
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        const qint64 rssBefore = testsite::residentKiB();
        QElapsedTimer clock;
        qint64 makeNs = 0;
        qint64 insertNs = 0;
        qint64 worstBatchNs = 0;
        for (int first = 0; first < total; first += batch) {
            clock.start();
            QList<crawl::CrawlResult> results;
            results.reserve(batch);
            for (int i = first; i < std::min(total, first + batch); ++i)
                results.append(testsite::makeSyntheticResult(quint64(i)));
            makeNs += clock.nsecsElapsed();
            clock.start();
            model.addResults(results);
            const qint64 ns = clock.nsecsElapsed();
            insertNs += ns;
            worstBatchNs = std::max(worstBatchNs, ns);
            if (first % 100'000 == 0)
                QCoreApplication::processEvents(); // let the view repaint as it would between batches
        }
        QCOMPARE(model.rowCount(), total);
        QCOMPARE(all.rowCount(), total);
        QCOMPARE(failures.rowCount(), total / 20);
        const qint64 rssAfter = testsite::residentKiB();
        qInfo("insert %d rows in batches of %d: %.0f ms in the model+proxies+view (worst batch %.1f ms); "
              "building the values took %.0f ms",
              total, batch, insertNs / 1e6, worstBatchNs / 1e6, makeNs / 1e6);
        qInfo("store: %.1f MB (%.0f bytes/row); process RSS grew %.1f MB", model.store().memoryBytes() / 1e6,
              double(model.store().memoryBytes()) / total, (rssAfter - rssBefore) / 1024.0);

        clock.start();
        view.scrollToBottom();
        QCoreApplication::processEvents();
        view.scrollTo(all.index(total / 2, 0));
        QCoreApplication::processEvents();
        qInfo("scroll to bottom and middle with repaint: %.1f ms", clock.nsecsElapsed() / 1e6);

        clock.start();
        all.setTextFilter(QStringLiteral("item/12345"));
        const qint64 filterNs = clock.nsecsElapsed();
        QVERIFY(all.rowCount() > 0);
        qInfo("text filter over %d rows: %.0f ms (%d match)", total, filterNs / 1e6, all.rowCount());
        clock.start();
        all.setTextFilter({});
        all.setOutcomeMask(1u << unsigned(crawl::Outcome::HttpError));
        qInfo("outcome filter: %.0f ms (%d rows)", clock.nsecsElapsed() / 1e6, all.rowCount());
        all.setOutcomeMask(~0u);

        // A million rows sort in slices across turns of the event loop (the table keeps its order until
        // the new one is complete).
        const auto sortAndWait = [&all](ui::ResultsModel::Column column, Qt::SortOrder order) {
            all.sort(column, order);
            return QTest::qWaitFor([&all] { return !all.isSorting(); }, 60'000);
        };
        clock.start();
        QVERIFY(sortAndWait(ui::ResultsModel::LatencyColumn, Qt::DescendingOrder));
        qInfo("sort by latency on demand: %.0f ms", clock.nsecsElapsed() / 1e6);
        QCOMPARE(all.index(0, ui::ResultsModel::LatencyColumn).data(ui::ResultsModel::SortRole).toInt(), 399);
        clock.start();
        QVERIFY(sortAndWait(ui::ResultsModel::UrlColumn, Qt::AscendingOrder));
        qInfo("sort by URL on demand: %.0f ms", clock.nsecsElapsed() / 1e6);

        // The sort holds while more rows stream in: each batch lands in place with one block copy.
        QVERIFY(sortAndWait(ui::ResultsModel::LatencyColumn, Qt::DescendingOrder));
        qint64 worstSortedBatchNs = 0;
        qint64 sortedInsertNs = 0;
        const int moreBatches = 20;
        for (int b = 0; b < moreBatches; ++b) {
            QList<crawl::CrawlResult> results;
            for (int i = 0; i < batch; ++i)
                results.append(testsite::makeSyntheticResult(quint64(total + b * batch + i)));
            clock.start();
            model.addResults(results);
            const qint64 ns = clock.nsecsElapsed();
            sortedInsertNs += ns;
            worstSortedBatchNs = std::max(worstSortedBatchNs, ns);
            QCoreApplication::processEvents();
        }
        qInfo(
            "%d more batches of %d into the latency sort of %d rows: %.1f ms each on average, worst %.1f ms",
            moreBatches, batch, total, sortedInsertNs / 1e6 / moreBatches, worstSortedBatchNs / 1e6);
        QCOMPARE(all.rowCount(), total + moreBatches * batch);
        int previous = INT_MAX;
        for (int row = 0; row < all.rowCount(); row += 97) {
            const int latency =
                all.index(row, ui::ResultsModel::LatencyColumn).data(ui::ResultsModel::SortRole).toInt();
            QVERIFY(latency <= previous);
            previous = latency;
        }
    }
};

QTEST_MAIN(TestResultsScale)
#include "tst_resultsscale.moc"
