// Issue 11 in the window: the results arrive exactly as from a crawl (CrawlEngine::resultsReady), their
// rows and texts leave memory for the spill files, and what the user reads still shows them whole: a failure
// far back in the list clicked shows its full error in the details pane, the filter box finds rows by URL,
// and scrolling the results to a row read from disk shows its URL.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "syntheticresults.h"

#include <QLineEdit>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>

namespace {

// A failure's error, unique per row and longer than anything a cell shows.
QString longError(quint64 id) {
    return QStringLiteral("HTTP 404 Not Found; marker-%1; ").arg(id) + QString(600, QLatin1Char('x')) +
           QStringLiteral(" end-%1").arg(id);
}

int proxyRowForId(QAbstractItemModel *model, quint64 id) {
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data(ui::ResultsModel::IdRole).toULongLong() == id)
            return row;
    }
    return -1;
}

} // namespace

class TestWindowPaging : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void spilledRowsReadWhole() {
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // A list loaded (never crawled) puts the crawl views in place of the empty state.
        window.loadText("http://127.0.0.1:9/never-fetched\n", QStringLiteral("paging"));
        QTRY_VERIFY(window.tabs()->isVisible());
        const ui::ResultsModel *model = window.resultsModel();
        QVERIFY2(model->store().texts().isSpilling(), qPrintable(model->store().texts().spillError()));

        const int total = 40'000;
        for (int first = 0; first < total; first += 1000) {
            QList<crawl::CrawlResult> results;
            for (int i = first; i < first + 1000; ++i) {
                crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
                if (!r.error.isEmpty())
                    r.error = longError(r.id);
                results.append(r);
            }
            Q_EMIT window.engine()->resultsReady(results);
            QCoreApplication::processEvents();
        }
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), total, 30'000);
        const ui::ResultStore::MemoryUse use = model->store().memoryUse();
        QVERIFY2(model->store().texts().spilledBytes() > 3'000'000,
                 qPrintable(QString::number(model->store().texts().spilledBytes())));
        QVERIFY2(use.texts < 6'000'000, qPrintable(QString::number(use.texts)));
        // The rows too: 40,000 of them are 2.4 MB; all but the chunk being filled are in the rows file,
        // and what is in memory is that chunk and the read cache.
        QVERIFY2(model->store().rows().spilledBytes() >= 9 * 4096 * 64,
                 qPrintable(QString::number(model->store().rows().spilledBytes())));
        QVERIFY2(use.rows < 4096 * 64 + 4 * 1024 * 1024 + 64 * 1024, qPrintable(QString::number(use.rows)));

        // A failure from the start of the list (its texts long written out), clicked in the Failures tab.
        window.tabs()->setCurrentIndex(1);
        QTableView *failures = window.failuresView();
        QTRY_VERIFY(failures->isVisible());
        const quint64 id = 40; // every 20th row failed
        const int row = proxyRowForId(failures->model(), id);
        QVERIFY(row >= 0);
        const QModelIndex cell = failures->model()->index(row, ui::ResultsModel::UrlColumn);
        failures->scrollTo(cell);
        QTest::mouseClick(failures->viewport(), Qt::LeftButton, Qt::NoModifier,
                          failures->visualRect(cell).center());
        QTextBrowser *details = window.failureDetails();
        QTRY_VERIFY2(details->toPlainText().contains(longError(id)), qPrintable(details->toPlainText()));
        QVERIFY(details->toPlainText().contains(testsite::makeSyntheticResult(id).url));

        // The results tab: the filter box finds rows by a piece of their URL.
        window.tabs()->setCurrentIndex(2);
        QTableView *results = window.resultsView();
        QTRY_VERIFY(results->isVisible());
        auto *filter = window.findChild<QLineEdit *>(QStringLiteral("resultsFilter"));
        QVERIFY(filter);
        filter->setFocus();
        QTest::keyClicks(filter, QStringLiteral("item/3777"));
        // item/3777 and item/37770..37779: eleven rows, whose URLs all come back from the file.
        QTRY_COMPARE(results->model()->rowCount(), 11);
        for (int r = 0; r < 11; ++r) {
            QVERIFY(results->model()
                        ->index(r, ui::ResultsModel::UrlColumn)
                        .data()
                        .toString()
                        .contains(QStringLiteral("/catalog/item/3777")));
        }
        filter->clear();
        QTRY_COMPARE(results->model()->rowCount(), total);

        // Scrolled to a row in the middle: the cell painted there holds that row's URL.
        const QModelIndex middle = results->model()->index(23'456, ui::ResultsModel::UrlColumn);
        results->scrollTo(middle, QAbstractItemView::PositionAtCenter);
        const QModelIndex shown = results->indexAt(results->visualRect(middle).center());
        QCOMPARE(shown.row(), 23'456);
        QTRY_COMPARE(shown.data().toString(), testsite::makeSyntheticResult(23'456).url);
    }
};

QTEST_MAIN(TestWindowPaging)
#include "tst_windowpaging.moc"
