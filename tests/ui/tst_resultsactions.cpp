// The Results and Failures tables as an auditor uses them: filter by HTTP status (a class or an exact
// code) and by host, several at once, each choice with its count; the details pane follows the filter;
// the context menu and its shortcuts copy URLs and rows and open http(s) URLs (only those) in the
// browser; the export choices are in the same menu.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "output/csvwriter.h"
#include "pages/resultspage.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDesktopServices>
#include <QFile>
#include <QMenu>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
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

// Opens a filter button's menu as a click does and clicks the entry whose text starts with `prefix`.
// Returns the entry's text as shown ("404 (2)"), or an empty string if there was none.
QString clickMenuEntry(QToolButton *button, const QString &prefix) {
    QMenu *menu = button->menu();
    menu->popup(button->mapToGlobal(QPoint(0, button->height())));
    if (!QTest::qWaitFor([menu] { return menu->isVisible(); }, 2'000))
        return {};
    const QList<QAction *> actions = menu->actions();
    for (QAction *action : actions) {
        if (action->text().trimmed().startsWith(prefix)) {
            const QString text = action->text().trimmed();
            QTest::mouseClick(menu, Qt::LeftButton, Qt::NoModifier, menu->actionGeometry(action).center());
            if (menu->isVisible())
                menu->close();
            return text;
        }
    }
    menu->close();
    return {};
}

// Right-clicks the table's row and chooses `entry` from the menu that opens; returns the entries shown.
QStringList chooseFromContextMenu(QTableView *view, int row, const QString &entry) {
    const QRect rect = view->visualRect(view->model()->index(row, ui::ResultsModel::UrlColumn));
    QStringList shown;
    QTimer::singleShot(0, view, [&shown, entry] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (!menu)
            return;
        const QList<QAction *> actions = menu->actions();
        QAction *chosen = nullptr;
        for (QAction *action : actions) {
            shown.append(action->text());
            if (action->text() == entry)
                chosen = action;
        }
        if (chosen && chosen->isEnabled())
            QTest::mouseClick(menu, Qt::LeftButton, Qt::NoModifier, menu->actionGeometry(chosen).center());
        else
            menu->close();
    });
    QContextMenuEvent event(QContextMenuEvent::Mouse, rect.center(),
                            view->viewport()->mapToGlobal(rect.center()));
    QApplication::sendEvent(view->viewport(), &event);
    return shown;
}

// Stands in for the desktop's browser: QDesktopServices hands it what it would open.
class BrowserStandIn : public QObject {
    Q_OBJECT
public:
    QList<QUrl> opened;
public Q_SLOTS:
    void openUrl(const QUrl &url) { opened.append(url); }
};

} // namespace

class TestResultsActions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void filterCopyOpenExport() {
        testsite::TestSite site;
        const QString a = site.addHost();
        const QString b = site.addHost();
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QByteArray list;
        for (const char *path : {"/ok1", "/ok2", "/nf?status=404", "/gone?status=410", "/err?status=503"})
            list += (site.baseUrl(a) + QLatin1String(path) + QLatin1Char('\n')).toUtf8();
        for (const char *path : {"/b1", "/b2?status=404"})
            list += (site.baseUrl(b) + QLatin1String(path) + QLatin1Char('\n')).toUtf8();
        list += "javascript:alert(1)\n"; // an input line no browser must ever be handed

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.limitsPanel()->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        window.limitsPanel()->interval()->setValue(0);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.tabs()->setCurrentWidget(window.resultsPage());
        window.loadText(list, QStringLiteral("actions"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(20'000));
        QTableView *view = window.resultsView();
        QAbstractItemModel *model = view->model();
        QTRY_COMPARE(model->rowCount(), 8);

        // Status: an exact code, then a whole class; each choice shows its count.
        auto *status = window.findChild<QToolButton *>(QStringLiteral("resultsStatus"));
        QVERIFY(status);
        QCOMPARE(clickMenuEntry(status, QStringLiteral("404 ")), QStringLiteral("404 (2)"));
        QCOMPARE(model->rowCount(), 6);
        QCOMPARE(clickMenuEntry(status, QStringLiteral("2xx")), QStringLiteral("2xx (3)"));
        QCOMPARE(model->rowCount(), 3); // 410, 503 and the invalid line (no response)
        QCOMPARE(status->text(), QStringLiteral("Some statuses"));
        QVERIFY(clickMenuEntry(status, QStringLiteral("4xx")).startsWith(QStringLiteral("4xx (3) · some")));
        QCOMPARE(clickMenuEntry(status, QStringLiteral("Show All")), QStringLiteral("Show All"));
        QCOMPARE(model->rowCount(), 8);
        QCOMPARE(status->text(), QStringLiteral("All statuses"));

        // Hosts: untick host a; b's rows and the host-less invalid line remain.
        auto *hosts = window.findChild<QToolButton *>(QStringLiteral("resultsHost"));
        QVERIFY(hosts);
        QCOMPARE(clickMenuEntry(hosts, a), QStringLiteral("%1 (5)").arg(a));
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(clickMenuEntry(hosts, QStringLiteral("(no host)")), QStringLiteral("(no host) (1)"));
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(hosts->text(), b);

        // The view exported as shown: only b's rows.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("b.csv"));
        QSignalSpy exported(&window, &ui::MainWindow::exportFinished);
        QVERIFY(window.exportCurrentView(path));
        QVERIFY(exported.wait(10'000));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray csv = file.readAll();
        QCOMPARE(csv.count('\n'), 3); // the header and two rows
        QVERIFY(!csv.contains(a.toUtf8()));
        QCOMPARE(clickMenuEntry(hosts, QStringLiteral("Show All")), QStringLiteral("Show All"));
        QCOMPARE(model->rowCount(), 8);

        // Copy URL (Ctrl+C on the table) and Copy Row (from the context menu), as the user sees them.
        view->setFocus(Qt::MouseFocusReason);
        const int nf = rowEndingWith(model, QStringLiteral("/nf?status=404"));
        clickRow(view, nf);
        QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), site.baseUrl(a) + QStringLiteral("/nf?status=404\n"));
        const QStringList entries = chooseFromContextMenu(view, nf, QStringLiteral("Copy Row"));
        for (const QString &expected :
             {QStringLiteral("Copy URL"), QStringLiteral("Copy Row"), QStringLiteral("Open in Browser"),
              QStringLiteral("&Export Current View…"), QStringLiteral("Export &All…")})
            QVERIFY2(entries.contains(expected), qPrintable(entries.join(QLatin1Char('|'))));
        const QString row = QApplication::clipboard()->text();
        QVERIFY2(row.endsWith(QLatin1Char('\n')) && row.count(QLatin1Char('\n')) == 1, qPrintable(row));
        const QStringList cells = row.chopped(1).split(QLatin1Char('\t'));
        QVERIFY2(cells.contains(site.baseUrl(a) + QStringLiteral("/nf?status=404")), qPrintable(row));
        QVERIFY2(cells.contains(QStringLiteral("404")), qPrintable(row));
        QVERIFY2(cells.contains(QStringLiteral("http_error")), qPrintable(row));

        // Open in Browser: the http URL goes to the desktop; the javascript: line never does.
        BrowserStandIn browser;
        for (const char *scheme : {"http", "https", "javascript", "file"})
            QDesktopServices::setUrlHandler(QString::fromLatin1(scheme), &browser, "openUrl");
        // (The offscreen platform does not give the focus back after a popup closes, as a desktop does.)
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        view->setFocus(Qt::PopupFocusReason);
        QTRY_VERIFY(view->hasFocus());
        QTest::keyClick(view, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(browser.opened, QList<QUrl>{QUrl(site.baseUrl(a) + QStringLiteral("/nf?status=404"))});
        const int js = rowEndingWith(model, QStringLiteral("alert(1)"));
        QVERIFY(js >= 0);
        clickRow(view, js);
        QTest::keyClick(view, Qt::Key_Return, Qt::ControlModifier);
        chooseFromContextMenu(view, js, QStringLiteral("Open in Browser"));
        QCOMPARE(browser.opened.size(), 1);
        for (const char *scheme : {"http", "https", "javascript", "file"})
            QDesktopServices::unsetUrlHandler(QString::fromLatin1(scheme));
    }

    void failureDetailsFollowTheHostFilter() {
        testsite::TestSite site;
        const QString a = site.addHost();
        const QString b = site.addHost();
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        const QByteArray list = (site.baseUrl(a) + QStringLiteral("/x?status=404\n") + site.baseUrl(b) +
                                 QStringLiteral("/y?status=500\n"))
                                    .toUtf8();
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.limitsPanel()->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tabs()->setCurrentWidget(window.failuresPage());
        window.loadText(list, QStringLiteral("details"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(20'000));
        QTableView *view = window.failuresView();
        QTRY_COMPARE(view->model()->rowCount(), 2);
        clickRow(view, rowEndingWith(view->model(), QStringLiteral("/y?status=500")));
        QTRY_VERIFY(window.failureDetails()->toPlainText().contains(QStringLiteral("/y?status=500")));
        auto *hosts = window.findChild<QToolButton *>(QStringLiteral("failuresHost"));
        QCOMPARE(clickMenuEntry(hosts, b), QStringLiteral("%1 (1)").arg(b));
        QCOMPARE(view->model()->rowCount(), 1);
        QTRY_VERIFY2(window.failureDetails()->toPlainText().isEmpty(),
                     qPrintable(window.failureDetails()->toPlainText()));
        // The status filter of the Failures table counts failures only.
        auto *status = window.findChild<QToolButton *>(QStringLiteral("failuresStatus"));
        QCOMPARE(clickMenuEntry(status, QStringLiteral("5xx")), QStringLiteral("5xx (1)"));
        QCOMPARE(view->model()->rowCount(), 1); // b's 500 was already hidden by the host filter
    }
};

QTEST_MAIN(TestResultsActions)
#include "tst_resultsactions.moc"
