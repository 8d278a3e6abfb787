// How the window starts: limit flags typed on the command line win over the saved limits for a list the
// window opens; the demo crawls with its own limits without touching the saved ones; the Limits panel's
// Reset goes back to the defaults. Asserted at the test server and in the settings.
#include "demosettings.h"
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "runwindow.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

void saveLimits(int perHost, int intervalMs, double jitter) {
    QSettings settings;
    settings.setValue(QStringLiteral("limits/perHostInFlight"), perHost);
    settings.setValue(QStringLiteral("limits/intervalMs"), intervalMs);
    settings.setValue(QStringLiteral("limits/jitter"), jitter);
    settings.sync();
}

QByteArray slowList(const testsite::TestSite &site, const QString &host, int count, int ms) {
    return site.urlList(host, count, QStringLiteral("/s%1?ms=") + QString::number(ms));
}

} // namespace

class TestWindowStart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }
    void init() { uitest::clearSettings(); }

    void commandLineFlagsWinForAnOpenedList() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("list.txt"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(slowList(site, host, 40, 300));
        file.close();

        saveLimits(7, 0, 0.2);
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        QCOMPARE(window.limitsPanel()->perHostInFlight()->value(), 7);

        // crawlscope --per-host 3 --timeout 4 list.txt (the other values parsed are the defaults).
        ui::WindowStart start;
        start.fileToOpen = path;
        start.limitFlags = {QStringLiteral("per-host"), QStringLiteral("timeout")};
        start.flagLimits.perHostInFlight = 3;
        start.flagPolicy.totalTimeoutS = 4;
        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        ui::applyWindowStart(window, start);
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(window.limitsPanel()->perHostInFlight()->value(), 3);
        QCOMPARE(window.engine()->limits().perHostInFlight, 3);
        QCOMPARE(window.engine()->fetchPolicy().totalTimeoutS, 4);
        // What was not typed stays as saved; what was typed is not saved over the user's limits.
        QCOMPARE(window.engine()->limits().intervalMs, 0);
        QCOMPARE(window.engine()->limits().jitter, 0.2);
        QCOMPARE(QSettings().value(QStringLiteral("limits/perHostInFlight")).toInt(), 7);

        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(host).requests >= 12; }, 15'000));
        QCOMPARE(site.hostRecord(host).peakInFlight, 3);
        window.stopCrawl();
        QVERIFY(finished.wait(10'000));
    }

    void demoCrawlsWithItsOwnLimits() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        saveLimits(1, 0, 0);
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        const demo::DemoSettings demoLimits = demo::demoSettings({});
        ui::WindowStart start;
        start.crawl =
            ui::WindowStart::Crawl{slowList(site, host, 60, 400 + 100 * demoLimits.limits.perHostInFlight),
                                   QStringLiteral("built-in demo"), demoLimits.limits, demoLimits.policy};
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        ui::applyWindowStart(window, start);
        QCOMPARE(window.engine()->limits().perHostInFlight, demoLimits.limits.perHostInFlight);
        QVERIFY(demoLimits.limits.perHostInFlight > 1);
        // The server sees the demo's per-host limit (its requests take longer than its interval × limit), not
        // the saved 1.
        QVERIFY(QTest::qWaitFor(
            [&] { return site.hostRecord(host).peakInFlight >= demoLimits.limits.perHostInFlight; }, 15'000));
        QCOMPARE(site.hostRecord(host).peakInFlight, demoLimits.limits.perHostInFlight);
        QCOMPARE(QSettings().value(QStringLiteral("limits/perHostInFlight")).toInt(), 1);
        window.stopCrawl();
        QVERIFY(finished.wait(10'000));
        window.close();
        QCOMPARE(QSettings().value(QStringLiteral("limits/perHostInFlight")).toInt(), 1);
    }

    void resetGoesBackToTheDefaults() {
        saveLimits(7, 900, 0.5);
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.engine()->limits().perHostInFlight, 7);
        auto *reset = window.limitsPanel()->findChild<QPushButton *>(QStringLiteral("resetLimits"));
        QVERIFY(reset);
        QTest::mouseClick(reset, Qt::LeftButton);
        const crawl::CrawlLimits defaults;
        QCOMPARE(window.limitsPanel()->perHostInFlight()->value(), defaults.perHostInFlight);
        QCOMPARE(window.engine()->limits().perHostInFlight, defaults.perHostInFlight);
        QCOMPARE(window.engine()->limits().intervalMs, defaults.intervalMs);
        QCOMPARE(window.engine()->limits().jitter, defaults.jitter);
        QCOMPARE(window.engine()->fetchPolicy().totalTimeoutS, crawl::FetchPolicy{}.totalTimeoutS);
        QCOMPARE(QSettings().value(QStringLiteral("limits/perHostInFlight")).toInt(),
                 defaults.perHostInFlight);
        QCOMPARE(QSettings().value(QStringLiteral("limits/intervalMs")).toInt(), defaults.intervalMs);
    }
};

QTEST_MAIN(TestWindowStart)
#include "tst_windowstart.moc"
