// The Failures tab as a user reads it: the Error column on screen taking the room left, cut on the
// right with the full text in its tooltip; no "first byte -1 ms" for a refused connection; the details
// pane never shows a row the filter hid; Ctrl+E exports the table on show as shown.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "output/csvwriter.h"
#include "testsite.h"
#include "widgets/elidingdelegate.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QAction>
#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

namespace {

int rowEndingWith(QAbstractItemModel *model, const QString &suffix) {
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, ui::ResultsModel::UrlColumn).data().toString().endsWith(suffix))
            return row;
    }
    return -1;
}

void clickRow(QTableView *view, int row) {
    const QRect rect = view->visualRect(view->model()->index(row, ui::ResultsModel::UrlColumn));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
}

} // namespace

class TestFailuresView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void readErrorsDetailsAndExportTheView() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        // A port nothing listens on: the connection is refused.
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 refusedPort = closed.serverPort();
        closed.close();
        const QString refused = QStringLiteral("http://127.0.0.1:%1/refused").arg(refusedPort);
        const QString base = site.baseUrl(host);
        QByteArray list;
        for (const char *path : {"/missing?status=404", "/gone?status=410", "/busy?status=503", "/fine"})
            list += (base + QLatin1String(path) + QLatin1Char('\n')).toUtf8();
        list += (refused + QLatin1Char('\n')).toUtf8();

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.limitsPanel()->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        window.limitsPanel()->interval()->setValue(0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tabs()->setCurrentIndex(1);
        window.loadText(list, QStringLiteral("failures"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(20'000));
        QTableView *view = window.failuresView();
        QAbstractItemModel *model = view->model();
        QTRY_COMPARE(model->rowCount(), 4);

        // The Error column is on screen, wide, cut on the right, whole in the tooltip.
        QHeaderView *header = view->horizontalHeader();
        QCOMPARE(header->sectionResizeMode(ui::ResultsModel::ErrorColumn), QHeaderView::Stretch);
        const int errorLeft = view->columnViewportPosition(ui::ResultsModel::ErrorColumn);
        const int errorWidth = view->columnWidth(ui::ResultsModel::ErrorColumn);
        QVERIFY2(errorLeft >= 0 && errorLeft + errorWidth <= view->viewport()->width() && errorWidth >= 200,
                 qPrintable(QStringLiteral("error column at %1 + %2 of %3")
                                .arg(errorLeft)
                                .arg(errorWidth)
                                .arg(view->viewport()->width())));
        auto *delegate =
            qobject_cast<ui::ElidingDelegate *>(view->itemDelegateForColumn(ui::ResultsModel::ErrorColumn));
        QVERIFY(delegate);
        QCOMPARE(delegate->elideMode(), Qt::ElideRight);
        const int refusedRow = rowEndingWith(model, QStringLiteral("/refused"));
        QVERIFY(refusedRow >= 0);
        const QString error = model->index(refusedRow, ui::ResultsModel::ErrorColumn).data().toString();
        QVERIFY(!error.isEmpty());
        QVERIFY(model->index(refusedRow, ui::ResultsModel::ErrorColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(error));

        // A refused connection had no first byte: "—", never "-1 ms".
        clickRow(view, refusedRow);
        QTextBrowser *details = window.failureDetails();
        QTRY_VERIFY(details->toPlainText().contains(QStringLiteral("/refused")));
        QVERIFY2(!details->toPlainText().contains(QStringLiteral("-1 ms")),
                 qPrintable(details->toPlainText()));

        // The filter hides the row on show: the details go with it.
        auto *filter = window.findChild<QLineEdit *>(QStringLiteral("failuresFilter"));
        QVERIFY(filter);
        filter->setFocus();
        QTest::keyClicks(filter, QStringLiteral("status=4"));
        QTRY_COMPARE(model->rowCount(), 2);
        QTRY_VERIFY2(details->toPlainText().isEmpty(), qPrintable(details->toPlainText()));

        // Ctrl+E exports what the table shows (filtered, in its order), not every row.
        QAction *exportView = window.findChild<QAction *>(QStringLiteral("exportView"));
        QVERIFY(exportView);
        QCOMPARE(exportView->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        QVERIFY(window.findChild<QAction *>(QStringLiteral("exportAll")));
        view->sortByColumn(ui::ResultsModel::UrlColumn, Qt::DescendingOrder);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("view.csv"));
        QSignalSpy exported(&window, &ui::MainWindow::exportFinished);
        QVERIFY(window.exportCurrentView(path));
        QVERIFY(exported.wait(10'000));
        QVERIFY(exported.first().at(0).toBool());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray expected = crawl::resultCsvHeader();
        auto *proxy = qobject_cast<ui::ResultFilterSortModel *>(model);
        for (int row = 0; row < model->rowCount(); ++row)
            expected += crawl::resultCsvRow(window.resultsModel()->result(proxy->sourceRow(row)));
        QCOMPARE(file.readAll(), expected);
        QVERIFY(model->index(0, ui::ResultsModel::UrlColumn)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral("/missing?status=404")));

        // The outcome filter: several at once, each with its count.
        filter->clear();
        QTRY_COMPARE(model->rowCount(), 4);
        auto *outcomes = window.findChild<QToolButton *>(QStringLiteral("failuresOutcome"));
        QVERIFY(outcomes && outcomes->menu());
        QMenu *menu = outcomes->menu();
        auto actionFor = [menu](const QString &name) -> QAction * {
            const QList<QAction *> actions = menu->actions();
            for (QAction *a : actions) {
                if (a->text().startsWith(name + QLatin1Char(' ')))
                    return a;
            }
            return nullptr;
        };
        menu->popup(outcomes->mapToGlobal(QPoint(0, outcomes->height())));
        QTRY_VERIFY(menu->isVisible());
        QAction *httpError = actionFor(QStringLiteral("http_error"));
        QVERIFY(httpError);
        QCOMPARE(httpError->text(), QStringLiteral("http_error (3)"));
        QCOMPARE(actionFor(QStringLiteral("network_error"))->text(), QStringLiteral("network_error (1)"));
        QTest::mouseClick(menu, Qt::LeftButton, Qt::NoModifier, menu->actionGeometry(httpError).center());
        QCOMPARE(model->rowCount(), 1);
        QVERIFY(model->index(0, ui::ResultsModel::UrlColumn)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral("/refused")));
        // Every failure outcome but the one just unticked (every outcome but ok and http_error).
        QCOMPARE(outcomes->text(), QStringLiteral("%1 outcomes").arg(crawl::kOutcomeCount - 2));
    }
};

QTEST_MAIN(TestFailuresView)
#include "tst_failuresview.moc"
