// A sort chosen by clicking a results header holds while a crawl streams rows in: every later batch
// lands in sorted position, the header keeps its indicator, the selected row stays selected.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

namespace {

void clickHeader(QTableView *view, int column) {
    QHeaderView *header = view->horizontalHeader();
    view->scrollTo(view->model()->index(0, column));
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                    header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, at);
}

// The latencies the view shows, top to bottom, and whether they are in the wanted order.
QString orderProblem(QTableView *view, Qt::SortOrder order) {
    const QAbstractItemModel *model = view->model();
    int previous = order == Qt::AscendingOrder ? INT_MIN : INT_MAX;
    for (int row = 0; row < model->rowCount(); ++row) {
        const int latency =
            model->index(row, ui::ResultsModel::LatencyColumn).data(ui::ResultsModel::SortRole).toInt();
        if (order == Qt::AscendingOrder ? latency < previous : latency > previous)
            return QStringLiteral("row %1 of %2: %3 ms after %4 ms")
                .arg(row)
                .arg(model->rowCount())
                .arg(latency)
                .arg(previous);
        previous = latency;
    }
    return {};
}

} // namespace

class TestSortStreaming : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void headerSortHoldsWhileRowsArrive() {
        testsite::TestSite site;
        const QString a = site.addHost();
        const QString b = site.addHost();
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QByteArray list;
        for (int i = 0; i < 150; ++i) {
            list += (site.baseUrl(a) + QStringLiteral("/a%1?ms=0-120\n").arg(i)).toUtf8();
            list += (site.baseUrl(b) + QStringLiteral("/b%1?ms=0-120\n").arg(i)).toUtf8();
        }
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.limitsPanel()->perHostInFlight()->setValue(3);
        window.limitsPanel()->interval()->setValue(0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tabs()->setCurrentIndex(2);
        QTableView *view = window.resultsView();
        QAbstractItemModel *model = view->model();

        window.loadText(list, QStringLiteral("sort"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(QTest::qWaitFor([&] { return model->rowCount() >= 20; }, 15'000));

        // The title shows the progress while the crawl runs (the task bar's view of it).
        QVERIFY(QTest::qWaitFor(
            [&] {
                return QRegularExpression(QStringLiteral("^\\d+% — sort — Crawlscope$"))
                    .match(window.windowTitle())
                    .hasMatch();
            },
            5'000));

        // No sort chosen yet: arrival order.
        auto *arrival = qobject_cast<ui::ResultFilterSortModel *>(model);
        QVERIFY(arrival);
        for (int row = 0; row < model->rowCount(); ++row)
            QCOMPARE(arrival->sourceRow(row), row);
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), -1);

        // First click: ascending. More batches arrive and the order holds.
        clickHeader(view, ui::ResultsModel::LatencyColumn);
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), int(ui::ResultsModel::LatencyColumn));
        QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
        int seen = model->rowCount();
        QVERIFY(QTest::qWaitFor([&] { return model->rowCount() >= seen + 30; }, 15'000));
        QString problem = orderProblem(view, Qt::AscendingOrder);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), int(ui::ResultsModel::LatencyColumn));

        // Second click: descending ("slowest first"); select the slowest row so far.
        clickHeader(view, ui::ResultsModel::LatencyColumn);
        QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        problem = orderProblem(view, Qt::DescendingOrder);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const int selectedRow = 3;
        view->selectionModel()->setCurrentIndex(model->index(selectedRow, ui::ResultsModel::UrlColumn),
                                                QItemSelectionModel::ClearAndSelect |
                                                    QItemSelectionModel::Rows);
        const QString selectedUrl = view->currentIndex().data().toString();
        seen = model->rowCount();
        QVERIFY(QTest::qWaitFor([&] { return model->rowCount() >= seen + 30; }, 15'000));
        problem = orderProblem(view, Qt::DescendingOrder);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // The selection followed its row.
        QCOMPARE(view->currentIndex().data().toString(), selectedUrl);
        QVERIFY(view->selectionModel()->isRowSelected(view->currentIndex().row(), {}));

        QVERIFY(finished.wait(60'000));
        QCOMPARE(model->rowCount(), 300);
        problem = orderProblem(view, Qt::DescendingOrder);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), int(ui::ResultsModel::LatencyColumn));
        QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(view->currentIndex().data().toString(), selectedUrl);
        QCOMPARE(window.windowTitle(), QStringLiteral("sort — Crawlscope"));

        // A filter change keeps the sort too.
        auto *proxy = qobject_cast<ui::ResultFilterSortModel *>(model);
        QVERIFY(proxy);
        proxy->setTextFilter(QStringLiteral("/a"));
        QCOMPARE(model->rowCount(), 150);
        problem = orderProblem(view, Qt::DescendingOrder);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
};

QTEST_MAIN(TestSortStreaming)
#include "tst_sortstreaming.moc"
