// The charts cost the window nothing while nobody can see them: the redraw timer skips a hidden panel, and
// the panel catches up the moment it is shown.
#include "charts/chartspanel.h"
#include "charts/timeserieschart.h"
#include "model/crawlsnapshot.h"

#include <QTest>

namespace {

constexpr qint64 kT0 = 1'700'000'000'000;

// Eight seconds of a steady crawl, a snapshot every 250 ms: seven closed one-second bins.
void feed(ui::ChartsPanel &panel) {
    crawl::CrawlSnapshot s;
    s.state = crawl::CrawlState::Running;
    for (int i = 1; i <= 32; ++i) {
        s.elapsedMs = i * 250;
        s.done += 10;
        s.ok += 10;
        s.inFlight = 4;
        s.recentP50Ms = 20;
        s.recentP95Ms = 80;
        s.recentP99Ms = 150;
        panel.addSnapshot(s, kT0 + s.elapsedMs);
    }
}

} // namespace

class TestChartsVisibility : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hiddenPanelIsNotRedrawnUntilShown() {
        ui::ChartsPanel panel;
        panel.resize(1200, 320);
        feed(panel);
        // Absence of a redraw can only be seen by letting the 3 Hz timer fire a few times.
        QTest::qWait(1'100);
        QVERIFY(panel.throughputChart()->segments(0).isEmpty());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        // Shown: drawn at once, not at the next tick.
        QVERIFY(!panel.throughputChart()->segments(0).isEmpty());

        // Visible: new snapshots reach the chart through the timer alone.
        const qsizetype pointsBefore = panel.throughputChart()->segments(0).constFirst().size();
        crawl::CrawlSnapshot s;
        s.state = crawl::CrawlState::Running;
        s.done = 320;
        s.ok = 320;
        for (int i = 33; i <= 44; ++i) {
            s.elapsedMs = i * 250;
            s.done += 10;
            s.ok += 10;
            panel.addSnapshot(s, kT0 + s.elapsedMs);
        }
        QTRY_VERIFY_WITH_TIMEOUT(panel.throughputChart()->segments(0).constLast().size() > pointsBefore ||
                                     panel.throughputChart()->segments(0).size() > 1,
                                 5'000);
    }
};

QTEST_MAIN(TestChartsVisibility)
#include "tst_chartsvisibility.moc"
