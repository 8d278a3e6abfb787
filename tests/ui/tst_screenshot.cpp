// Renders the main window in the middle of a demo crawl to a PNG (the README's screenshot).
// The path comes from CRAWLSCOPE_SCREENSHOT (default: crawlscope-screenshot.png in the working dir).
#include "charts/chartspanel.h"
#include "charts/timeserieschart.h"
#include "demosettings.h"
#include "demosite.h"
#include "engine/crawlengine.h"
#include "eventlooplagprobe.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/hostsmodel.h"
#include "models/resultsmodel.h"
#include "pages/thememenu.h"

#include <QDir>
#include <QEventLoop>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <functional>

namespace {

// Runs a real event loop until `condition` holds: unlike QTest::qWaitFor (which sleeps between
// rounds) this keeps the loop as responsive as the application's own, so the lag probe measures the
// window, not the test.
bool waitUntil(const std::function<bool()> &condition, int timeoutMs) {
    if (condition())
        return true;
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (condition())
            loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    poll.start();
    loop.exec();
    return condition();
}

} // namespace

class TestScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void demoCrawl() {
        testsite::DemoSite demo(0.25);
        QVERIFY2(demo.isListening(), qPrintable(demo.errorString()));

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.resize(1440, 900);
        // The demo's own settings, as crawlscope --demo uses them.
        const demo::DemoSettings settings = demo::demoSettings({});
        window.setLimits(settings.limits, settings.policy);
        QList<QPair<QString, QString>> profiles;
        for (const testsite::DemoSite::Profile &profile : demo.profiles())
            profiles.append({profile.host, profile.name});
        window.setHostLabels(demo::demoHostLabels(profiles));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        window.loadText(demo.urlList(), QStringLiteral("built-in demo"));
        QVERIFY(loaded.wait(10'000));
        ui::EventLoopLagProbe lag;
        lag.start();
        window.startCrawl();

        // Mid-crawl: enough history for the charts, some failures, still running.
        QElapsedTimer clock;
        clock.start();
        QVERIFY(waitUntil(
            [&] { return clock.elapsed() >= 12'000 && window.resultsModel()->failureCount() > 0; }, 60'000));
        lag.stop();
        qInfo("GUI event-loop lag during the demo crawl: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%lld ticks)",
              lag.p50Ms(), lag.p99Ms(), lag.maxMs(), qlonglong(lag.samples()));
        window.tabs()->setCurrentIndex(0);
        window.chartsPanel()->flush();
        QTest::qWait(0);

        // The Hosts table shows each charted host's line colour beside its name.
        const QStringList shown = window.chartsPanel()->shownHosts();
        QVERIFY(!shown.isEmpty());
        for (qsizetype i = 0; i < shown.size(); ++i) {
            const int row = window.hostsModel()->rowForHost(shown[i]);
            QVERIFY(row >= 0);
            const QModelIndex hostCell = window.hostsModel()->index(row, ui::HostsModel::HostColumn);
            QCOMPARE(hostCell.data(Qt::DecorationRole).value<QColor>(),
                     window.chartsPanel()->inFlightChart()->lineColor(int(i) + 1));
        }

        const QImage image = window.grab().toImage();
        QVERIFY(!image.isNull());
        QString path = qEnvironmentVariable("CRAWLSCOPE_SCREENSHOT");
        if (path.isEmpty())
            path = QDir::current().filePath(QStringLiteral("crawlscope-screenshot.png"));
        QVERIFY2(image.save(path), qPrintable(path));
        qInfo("screenshot: %s (%dx%d), %lld results so far", qPrintable(path), image.width(), image.height(),
              qlonglong(window.resultsModel()->rowCount()));

        // The other tabs next to it (for reviewing how they look): NAME-failures.png, NAME-results.png.
        window.tabs()->setCurrentIndex(1);
        window.failuresView()->selectRow(0);
        QTest::qWait(0);
        const QString stem = path.endsWith(QStringLiteral(".png")) ? path.chopped(4) : path;
        QVERIFY(window.grab().save(stem + QStringLiteral("-failures.png")));
        window.tabs()->setCurrentIndex(2);
        QTest::qWait(0);
        QVERIFY(window.grab().save(stem + QStringLiteral("-results.png")));
        // And the hosts and charts in the dark theme: NAME-dark.png.
        window.tabs()->setCurrentIndex(0);
        window.themeMenu()->setTheme(ui::WindowTheme::Dark);
        window.chartsPanel()->flush();
        QTest::qWait(0);
        QVERIFY(window.grab().save(stem + QStringLiteral("-dark.png")));
        window.themeMenu()->setTheme(ui::WindowTheme::System);
    }
};

QTEST_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
