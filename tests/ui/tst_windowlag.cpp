// The window with every view open while the engine runs flat out against the local test site:
// measures the GUI event-loop lag (EventLoopLagProbe) and prints it with the crawl rate. The benchmark
// program owns the official numbers; this keeps a regression visible in the test run.
#include "engine/crawlengine.h"
#include "eventlooplagprobe.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/resultsmodel.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>

class TestWindowLag : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void fullSpeed() {
        const int urls = qEnvironmentVariableIntValue("CRAWLSCOPE_LAG_URLS") > 0
                             ? qEnvironmentVariableIntValue("CRAWLSCOPE_LAG_URLS")
                             : 20'000;
        testsite::TestSite site;
        QStringList hosts;
        for (int i = 0; i < 4; ++i) {
            const QString host = site.addHost();
            QVERIFY(!host.isEmpty());
            hosts.append(host);
        }
        site.setMaxRequestRecords(1000);
        QByteArray list;
        list.reserve(urls * 48);
        for (int i = 0; i < urls; ++i) {
            const QString &host = hosts[i % hosts.size()];
            list += (site.baseUrl(host) + QStringLiteral("/p%1").arg(i) +
                     (i % 50 == 0 ? QStringLiteral("?status=404") : QString()) + QLatin1Char('\n'))
                        .toUtf8();
        }

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.resize(1440, 900);
        window.limitsPanel()->globalInFlight()->setValue(64);
        window.limitsPanel()->perHostInFlight()->setValue(16);
        window.limitsPanel()->interval()->setValue(0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.loadText(list, QStringLiteral("lag"));
        window.tabs()->setCurrentIndex(2); // the results table, the busiest view

        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        ui::EventLoopLagProbe lag;
        lag.start();
        QElapsedTimer clock;
        clock.start();
        window.startCrawl();
        // A real event loop (QTest::qWaitFor sleeps between rounds and would distort the probe).
        QEventLoop loop;
        connect(window.engine(), &crawl::CrawlEngine::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(120'000, &loop, &QEventLoop::quit);
        loop.exec();
        lag.stop();
        const double seconds = clock.elapsed() / 1000.0;
        {
            QElapsedTimer paint;
            paint.start();
            for (int i = 0; i < 10; ++i)
                window.resultsView()->viewport()->repaint();
            qInfo("results viewport repaint: %.2f ms", paint.nsecsElapsed() / 1e7);
            paint.start();
            for (int i = 0; i < 10; ++i)
                window.repaint();
            qInfo("window repaint: %.2f ms", paint.nsecsElapsed() / 1e7);
        }
        QCOMPARE(finished.size(), 1);
        QCOMPARE(window.resultsModel()->rowCount(), urls);
        qInfo("%d URLs in %.1f s (%.0f URLs/s) with all views open; GUI lag p50 %.2f ms, p99 %.2f ms, "
              "max %.2f ms over %lld ticks",
              urls, seconds, urls / seconds, lag.p50Ms(), lag.p99Ms(), lag.maxMs(), qlonglong(lag.samples()));
    }
};

QTEST_MAIN(TestWindowLag)
#include "tst_windowlag.moc"
