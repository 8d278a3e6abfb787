// The window's own conveniences, driven as a user does: breaker trips and recoveries as non-modal
// notices (status bar, Events tab, a marker on the charts' time axis) and "Resume Tripped Host" from the
// hosts' context menu; View > Theme (dark and light palettes, charts readable in both, remembered);
// File > Open Recent (newest first, missing files greyed and removable); the empty window's first steps;
// dropping a list file; the demo's host labels beside the addresses.
#include "charts/chartspanel.h"
#include "charts/timeserieschart.h"
#include "demosettings.h"
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/hostsmodel.h"
#include "pages/emptystate.h"
#include "pages/eventspage.h"
#include "pages/recentmenu.h"
#include "pages/thememenu.h"
#include "runwindow.h"
#include "settings/recentlists.h"
#include "settings/windowtheme.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDropEvent>
#include <QFile>
#include <QLegend>
#include <QLegendMarker>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace {

// Opens `menu` as a click on its menu bar entry or parent does, and clicks the entry `text`.
bool chooseFromMenu(QMenu *menu, const QString &text) {
    menu->popup(QPoint(10, 10));
    if (!QTest::qWaitFor([menu] { return menu->isVisible(); }, 2'000))
        return false;
    const QList<QAction *> actions = menu->actions();
    for (QAction *action : actions) {
        if (action->text() == text || action->text().startsWith(text)) {
            if (!action->isEnabled()) {
                menu->close();
                return false;
            }
            QTest::mouseClick(menu, Qt::LeftButton, Qt::NoModifier, menu->actionGeometry(action).center());
            if (menu->isVisible())
                menu->close();
            return true;
        }
    }
    menu->close();
    return false;
}

QMenu *menuBarMenu(QMainWindow &window, const QString &title) {
    const QList<QAction *> actions = window.menuBar()->actions();
    for (QAction *action : actions) {
        if (action->text().remove(QLatin1Char('&')) == title)
            return action->menu();
    }
    return nullptr;
}

bool writeFile(const QString &path, const QByteArray &data) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

} // namespace

class TestWindowExtras : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }
    void init() { uitest::clearSettings(); }

    void breakerTripsAreNotifiedAndMarked() {
        testsite::TestSite site;
        const QString dead = site.addHost();
        const QString fine = site.addHost();
        QVERIFY(!dead.isEmpty() && !fine.isEmpty());
        QByteArray list = site.urlList(dead, 30, QStringLiteral("/d%1?status=503"));
        list += site.urlList(fine, 10, QStringLiteral("/f%1"));

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        crawl::CrawlLimits limits = window.engine()->limits();
        limits.intervalMs = 0;
        crawl::FetchPolicy policy = window.engine()->fetchPolicy();
        policy.maxRetries = 0;
        policy.breaker.window = 4;
        policy.breaker.threshold = 0.75;
        policy.breaker.cooldownMs = 60'000; // stays tripped until the user resumes it
        window.setLimits(limits, policy);
        window.loadText(list, QStringLiteral("breaker"));
        QSignalSpy events(window.engine(), &crawl::CrawlEngine::hostBreakerChanged);
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        window.startCrawl();
        QVERIFY(events.wait(15'000));
        const qint64 after = QDateTime::currentMSecsSinceEpoch();

        // The status bar says it at once; the Events tab keeps it; its tab shows the count.
        QVERIFY2(window.statusBar()->currentMessage().contains(dead) &&
                     window.statusBar()->currentMessage().contains(QStringLiteral("tripped")),
                 qPrintable(window.statusBar()->currentMessage()));
        QListWidget *eventsList = window.eventsPage()->list();
        QCOMPARE(eventsList->count(), 1);
        QVERIFY(eventsList->item(0)->text().contains(dead));
        QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(window.eventsPage())),
                 QStringLiteral("E&vents (1)"));

        // A marker at that moment on each time chart, drawn inside the plot.
        ui::ChartsPanel *charts = window.chartsPanel();
        QCOMPARE(charts->markers().size(), 1);
        QVERIFY(charts->markers().first().atMs >= before && charts->markers().first().atMs <= after);
        charts->flush();
        for (ui::TimeSeriesChart *chart :
             {charts->inFlightChart(), charts->latencyChart(), charts->throughputChart()}) {
            QCOMPARE(chart->markers().size(), 1);
            const QList<qreal> drawn = chart->drawnMarkerPositions();
            QCOMPARE(drawn.size(), 1);
            const QRectF plot = chart->chart()->plotArea();
            QVERIFY2(drawn.first() >= plot.left() - 1 && drawn.first() <= plot.right() + 1,
                     qPrintable(QStringLiteral("%1 outside %2-%3")
                                    .arg(drawn.first())
                                    .arg(plot.left())
                                    .arg(plot.right())));
        }

        // Resume Tripped Host from the hosts' context menu: a second notice, a second marker.
        window.tabs()->setCurrentWidget(window.tabs()->widget(0));
        QTableView *hosts = window.hostsView();
        QTRY_VERIFY(hosts->model()->rowCount() == 2);
        int row = -1;
        QTRY_VERIFY([&] {
            for (int r = 0; r < hosts->model()->rowCount(); ++r) {
                const QModelIndex index = hosts->model()->index(r, ui::HostsModel::HostColumn);
                if (index.data(ui::HostsModel::HostKeyRole).toString() == dead &&
                    crawl::BreakerState(index.data(ui::HostsModel::BreakerStateRole).toInt()) !=
                        crawl::BreakerState::Closed)
                    row = r;
            }
            return row >= 0;
        }());
        const QRect rect = hosts->visualRect(hosts->model()->index(row, ui::HostsModel::HostColumn));
        QTimer::singleShot(0, hosts, [] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            QVERIFY(menu);
            const QList<QAction *> actions = menu->actions();
            for (QAction *action : actions) {
                if (action->text() == QStringLiteral("Resume Tripped Host")) {
                    QVERIFY(action->isEnabled());
                    QTest::mouseClick(menu, Qt::LeftButton, Qt::NoModifier,
                                      menu->actionGeometry(action).center());
                    return;
                }
            }
            menu->close();
        });
        QContextMenuEvent event(QContextMenuEvent::Mouse, rect.center(),
                                hosts->viewport()->mapToGlobal(rect.center()));
        QApplication::sendEvent(hosts->viewport(), &event);
        QTRY_VERIFY(eventsList->count() >= 2);
        QVERIFY2(eventsList->item(1)->text().contains(QStringLiteral("resumed by user")),
                 qPrintable(eventsList->item(1)->text()));
        QTRY_VERIFY(charts->markers().size() >= 2);
        window.stopCrawl();
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        if (crawl::isActive(window.engine()->state()))
            QVERIFY(finished.wait(10'000));
    }

    void darkAndLightThemes() {
        const QPalette original = QApplication::palette();
        {
            ui::MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QMenu *view = menuBarMenu(window, QStringLiteral("View"));
            QVERIFY(view);
            QVERIFY(window.themeMenu()->actionFor(ui::WindowTheme::System)->isChecked());
            QVERIFY(chooseFromMenu(window.themeMenu(), QStringLiteral("&Dark")));
            QVERIFY(ui::isDarkPalette(QApplication::palette()));
            QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("dark"));
            // The charts follow: dark plot, light labels that can be read on it.
            QChart *chart = window.chartsPanel()->latencyChart()->chart();
            QTRY_VERIFY(chart->backgroundBrush().color().lightnessF() < 0.3);
            const QList<QAbstractAxis *> axes = chart->axes();
            for (QAbstractAxis *axis : axes)
                QVERIFY(ui::contrastRatio(axis->labelsBrush().color(), chart->backgroundBrush().color()) >=
                        4.5);
            QVERIFY(ui::contrastRatio(chart->legend()->labelColor(), chart->backgroundBrush().color()) >=
                    4.5);

            QVERIFY(chooseFromMenu(window.themeMenu(), QStringLiteral("&Light")));
            QVERIFY(!ui::isDarkPalette(QApplication::palette()));
            QTRY_VERIFY(chart->backgroundBrush().color().lightnessF() > 0.8);
            for (QAbstractAxis *axis : axes)
                QVERIFY(ui::contrastRatio(axis->labelsBrush().color(), chart->backgroundBrush().color()) >=
                        4.5);
            QVERIFY(chooseFromMenu(window.themeMenu(), QStringLiteral("&Dark")));
        }
        // Remembered: the next window starts dark.
        QApplication::setPalette(original);
        ui::MainWindow again;
        QVERIFY(again.themeMenu()->actionFor(ui::WindowTheme::Dark)->isChecked());
        QVERIFY(ui::isDarkPalette(QApplication::palette()));
        QVERIFY(chooseFromMenu(again.themeMenu(), QStringLiteral("&System")));
        QCOMPARE(QApplication::palette(), original);
    }

    void recentListsAndDrop() {
        ui::RecentLists recent;
        for (int i = 0; i < 12; ++i)
            recent.add(QStringLiteral("/tmp/list%1.txt").arg(i));
        recent.add(QStringLiteral("/tmp/list5.txt"));
        QCOMPARE(recent.paths().size(), ui::RecentLists::kMax);
        QCOMPARE(recent.paths().first(), QStringLiteral("/tmp/list5.txt"));
        QCOMPARE(recent.paths().count(QStringLiteral("/tmp/list5.txt")), 1);

        QTemporaryDir dir;
        const QString first = dir.filePath(QStringLiteral("first.txt"));
        const QString second = dir.filePath(QStringLiteral("second.txt"));
        const QString dropped = dir.filePath(QStringLiteral("dropped.txt"));
        QVERIFY(writeFile(first, "http://127.0.0.1:9/a\n"));
        QVERIFY(writeFile(second, "http://127.0.0.1:9/b\nhttp://127.0.0.1:9/c\n"));
        QVERIFY(writeFile(dropped, "http://127.0.0.1:9/x\nhttp://127.0.0.1:9/y\nhttp://127.0.0.1:9/z\n"));

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        window.loadFile(first);
        QVERIFY(loaded.wait(5'000));
        window.loadFile(second);
        QVERIFY(loaded.wait(5'000));

        // Newest first; choosing one opens it.
        QMenu *recentMenu = window.recentMenu();
        QVERIFY(chooseFromMenu(recentMenu, QStringLiteral("&2 first.txt")));
        QVERIFY(loaded.wait(5'000));
        QCOMPARE(loaded.last().first().value<crawl::UrlListScan>().valid, 1);
        QCOMPARE(QSettings().value(QStringLiteral("recent/lists")).toStringList().first(),
                 QFileInfo(first).absoluteFilePath());

        // A file deleted since: greyed out, then removed on request.
        QVERIFY(QFile::remove(second));
        QVERIFY(!chooseFromMenu(recentMenu, QStringLiteral("&2 second.txt"))); // disabled
        bool greyed = false;
        const QList<QAction *> actions = recentMenu->actions();
        for (QAction *action : actions)
            greyed = greyed || (action->text().contains(QStringLiteral("second.txt")) &&
                                action->text().endsWith(QStringLiteral("(missing)")) && !action->isEnabled());
        QVERIFY(greyed);
        QVERIFY(chooseFromMenu(recentMenu, QStringLiteral("Remove Missing Files")));
        QCOMPARE(QSettings().value(QStringLiteral("recent/lists")).toStringList(),
                 QStringList{QFileInfo(first).absoluteFilePath()});

        // A list file dropped on the window opens like File > Open.
        auto *mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(dropped)});
        const QPoint at(window.width() / 2, window.height() / 2);
        QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(loaded.wait(5'000));
        QCOMPARE(loaded.last().first().value<crawl::UrlListScan>().valid, 3);
        QVERIFY(window.windowTitle().contains(QStringLiteral("dropped.txt")));
        delete mime;
    }

    void emptyStateFirstSteps() {
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *empty = window.findChild<ui::EmptyState *>(QStringLiteral("emptyState"));
        QVERIFY(empty && empty->isVisible());
        QVERIFY(!window.resultsView()->isVisible());
        QVERIFY(!empty->demoButton()->isVisible()); // no demo to offer
        int demoRuns = 0;
        window.setDemoLauncher([&demoRuns] { ++demoRuns; });
        QVERIFY(empty->demoButton()->isVisible());
        QTest::mouseClick(empty->demoButton(), Qt::LeftButton);
        QCOMPARE(demoRuns, 1);

        // Paste URLs from the empty window: the list loads and the crawl views replace the empty state.
        QApplication::clipboard()->setText(QStringLiteral("http://127.0.0.1:9/p\nhttp://127.0.0.1:9/q\n"));
        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        auto *paste = empty->findChild<QPushButton *>(QStringLiteral("emptyPaste"));
        QVERIFY(paste);
        QTest::mouseClick(paste, Qt::LeftButton);
        QVERIFY(loaded.wait(5'000));
        QCOMPARE(loaded.first().first().value<crawl::UrlListScan>().valid, 2);
        QVERIFY(!empty->isVisible());
        QVERIFY(window.chartsPanel()->isVisible());
    }

    void demoHostsShowTheirPersonality() {
        QCOMPARE(demo::demoHostLabels({{QStringLiteral("127.0.0.4:4000"), QStringLiteral("slow")},
                                       {QStringLiteral("127.0.0.6:4001"), QStringLiteral("rate-limited")}})
                     .value(QStringLiteral("127.0.0.6:4001")),
                 QStringLiteral("rate-limited"));

        testsite::TestSite site;
        const QString slow = site.addHost();
        QVERIFY(!slow.isEmpty());
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // What the app hands the window for --demo: a list, its limits and the hosts' labels.
        ui::WindowStart start;
        crawl::CrawlLimits limits;
        limits.intervalMs = 0;
        start.crawl = ui::WindowStart::Crawl{site.urlList(slow, 6, QStringLiteral("/s%1?ms=200")),
                                             QStringLiteral("labelled"), limits, crawl::FetchPolicy{},
                                             demo::demoHostLabels({{slow, QStringLiteral("slow")}})};
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        ui::applyWindowStart(window, start);
        QTableView *hosts = window.hostsView();
        QTRY_COMPARE(hosts->model()->rowCount(), 1);
        QCOMPARE(hosts->model()->index(0, ui::HostsModel::HostColumn).data().toString(),
                 QStringLiteral("%1  · slow").arg(slow));
        QVERIFY(finished.wait(20'000));
        // The chart's legend names the host with its label too.
        ui::ChartsPanel *charts = window.chartsPanel();
        charts->flush();
        QStringList legend;
        for (int line = 0; line < charts->inFlightChart()->seriesCount(); ++line)
            legend.append(charts->inFlightChart()->lineName(line));
        QVERIFY2(legend.contains(QStringLiteral("%1 · slow").arg(slow)),
                 qPrintable(legend.join(QLatin1Char('|'))));
    }
};

QTEST_MAIN(TestWindowExtras)
#include "tst_windowextras.moc"
