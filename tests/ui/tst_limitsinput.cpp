// The Limits panel driven the way a user drives it (typing into a spin box and pressing Enter or
// leaving it, the arrow keys, the mouse wheel) while a crawl runs: the engine, the settings and, above
// all, the test server must follow, not only when the slider is dragged.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QWheelEvent>

#include <algorithm>

namespace {

// Select the number in the box (Ctrl+A), type `text`, then commit it the way the user chose.
enum class Commit { Enter, FocusOut };
void typeInto(QSpinBox *spin, const QString &text, Commit commit, QWidget *focusAfter) {
    spin->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY(spin->hasFocus());
    QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(spin, text);
    if (commit == Commit::Enter) {
        QTest::keyClick(spin, Qt::Key_Return);
    } else {
        focusAfter->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(!spin->hasFocus());
    }
}

// One notch of a mouse wheel over the box (positive: up).
void wheel(QSpinBox *spin, int notches) {
    const QPointF pos(spin->width() / 2.0, spin->height() / 2.0);
    QWheelEvent event(pos, spin->mapToGlobal(pos), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(spin, &event);
}

// The window shown and active, its confirmations off, as a user's would be when typing into it.
bool showActive(ui::MainWindow &window) {
    window.setConfirmationsEnabled(false);
    window.show();
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
}

int savedLimit(const QString &key) {
    return QSettings().value(QStringLiteral("limits/") + key, -1).toInt();
}

// Waits for the server to start `count` more requests on `host` and returns its peak in flight meanwhile
// (after the requests started under an older, higher limit have drained).
int peakOverNext(testsite::TestSite &site, const QString &host, int count, int drainTo) {
    if (!QTest::qWaitFor([&] { return site.hostRecord(host).inFlight <= drainTo; }, 10'000))
        return -1;
    site.resetRecords();
    const qint64 before = site.hostRecord(host).requests;
    if (!QTest::qWaitFor([&] { return site.hostRecord(host).requests >= before + count; }, 20'000))
        return -2;
    return site.hostRecord(host).peakInFlight;
}

} // namespace

class TestLimitsInput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }
    void init() { uitest::clearSettings(); }

    void perHostByKeysArrowsAndWheel() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        const QByteArray list = site.urlList(host, 400, QStringLiteral("/p%1?ms=250"));

        ui::MainWindow window;
        QVERIFY(showActive(window));
        ui::LimitsPanel *panel = window.limitsPanel();
        panel->interval()->setValue(0);
        panel->perHostInFlight()->setValue(2);
        QSpinBox *spin = panel->perHostInFlight()->spinBox();

        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        window.loadText(list, QStringLiteral("keys"));
        QVERIFY(loaded.wait(10'000));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(host).peakInFlight >= 2; }, 10'000));
        QCOMPARE(site.hostRecord(host).peakInFlight, 2);

        // Typed 2 -> 4 and Enter: the server sees 4 at once, and it is remembered.
        typeInto(spin, QStringLiteral("4"), Commit::Enter, nullptr);
        QCOMPARE(spin->value(), 4);
        QCOMPARE(window.engine()->limits().perHostInFlight, 4);
        QCOMPARE(savedLimit(QStringLiteral("perHostInFlight")), 4);
        QCOMPARE(peakOverNext(site, host, 12, 4), 4);

        // Arrow Down twice: 2.
        spin->setFocus(Qt::MouseFocusReason);
        QTest::keyClick(spin, Qt::Key_Down);
        QTest::keyClick(spin, Qt::Key_Down);
        QCOMPARE(spin->value(), 2);
        QCOMPARE(window.engine()->limits().perHostInFlight, 2);
        QCOMPARE(savedLimit(QStringLiteral("perHostInFlight")), 2);
        QCOMPARE(peakOverNext(site, host, 8, 2), 2);

        // One wheel notch up: 3.
        wheel(spin, 1);
        QCOMPARE(spin->value(), 3);
        QCOMPARE(window.engine()->limits().perHostInFlight, 3);
        QCOMPARE(savedLimit(QStringLiteral("perHostInFlight")), 3);
        QCOMPARE(peakOverNext(site, host, 9, 3), 3);

        // Typed and left with Tab (focus-out) instead of Enter: 1.
        typeInto(spin, QStringLiteral("1"), Commit::FocusOut, panel->interval()->spinBox());
        QCOMPARE(window.engine()->limits().perHostInFlight, 1);
        QCOMPARE(savedLimit(QStringLiteral("perHostInFlight")), 1);
        QCOMPARE(peakOverNext(site, host, 3, 1), 1);

        window.stopCrawl();
        QVERIFY(finished.wait(10'000));
    }

    void intervalTypedPacesTheServer() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        const QByteArray list = site.urlList(host, 200, QStringLiteral("/i%1"));

        ui::MainWindow window;
        QVERIFY(showActive(window));
        ui::LimitsPanel *panel = window.limitsPanel();
        panel->perHostInFlight()->setValue(1);
        panel->interval()->setValue(900);
        window.loadText(list, QStringLiteral("interval"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(host).requests >= 1; }, 10'000));

        typeInto(panel->interval()->spinBox(), QStringLiteral("100"), Commit::Enter, nullptr);
        QCOMPARE(window.engine()->limits().intervalMs, 100);
        QCOMPARE(savedLimit(QStringLiteral("intervalMs")), 100);

        // Start-to-start gaps at the server: well under the old 900 ms, never under the new 100 ms.
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(host).requests >= 3; }, 5'000));
        site.resetRecords();
        QVERIFY(QTest::qWaitFor([&] { return site.requests(host).size() >= 8; }, 10'000));
        const QList<testsite::RequestRecord> requests = site.requests(host);
        std::vector<qint64> gapsMs;
        for (qsizetype i = 1; i < requests.size(); ++i)
            gapsMs.push_back((requests[i].startNs - requests[i - 1].startNs) / 1'000'000);
        std::sort(gapsMs.begin(), gapsMs.end());
        QVERIFY2(gapsMs.front() >= 95, qPrintable(QString::number(gapsMs.front())));
        QVERIFY2(gapsMs[gapsMs.size() / 2] < 500, qPrintable(QString::number(gapsMs[gapsMs.size() / 2])));

        window.stopCrawl();
        QVERIFY(finished.wait(10'000));
    }

    void timeoutTypedEndsAHangingRequest() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        ui::MainWindow window;
        QVERIFY(showActive(window));
        ui::LimitsPanel *panel = window.limitsPanel();
        panel->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        panel->timeout()->setValue(30);

        typeInto(panel->timeout()->spinBox(), QStringLiteral("2"), Commit::Enter, nullptr);
        QCOMPARE(window.engine()->fetchPolicy().totalTimeoutS, 2);
        QCOMPARE(savedLimit(QStringLiteral("totalTimeoutS")), 2);

        window.loadText((site.baseUrl(host) + QStringLiteral("/stuck?hang=1\n")).toUtf8(),
                        QStringLiteral("timeout"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(15'000));
        // The server saw the client give up after about 2 s, not 30.
        const QList<testsite::RequestRecord> requests = site.requests(host);
        QCOMPARE(requests.size(), 1);
        QTRY_VERIFY(site.requests(host).first().endNs > 0);
        const qint64 heldMs = (site.requests(host).first().endNs - requests.first().startNs) / 1'000'000;
        QVERIFY2(heldMs >= 1'500 && heldMs < 6'000, qPrintable(QString::number(heldMs)));
    }
};

QTEST_MAIN(TestLimitsInput)
#include "tst_limitsinput.moc"
