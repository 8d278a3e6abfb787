// Widgets and helpers of the window on their own: slider/spin box pairs, the limits panel, ring buffers,
// the charts fed by hand-made snapshots, the in-flight bar, the event-loop lag probe.
#include "charts/chartspanel.h"
#include "charts/ringbuffer.h"
#include "charts/timeserieschart.h"
#include "eventlooplagprobe.h"
#include "freshsettings.h"
#include "models/hostsmodel.h"
#include "widgets/inflightbardelegate.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QChart>
#include <QLineSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

class TestWidgets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void ringBuffer() {
        ui::RingBuffer<int> ring(3);
        QVERIFY(ring.isEmpty());
        for (int i = 1; i <= 5; ++i)
            ring.push(i);
        QCOMPARE(ring.size(), 3);
        QCOMPARE(ring.toList(), (QList<int>{3, 4, 5}));
        QCOMPARE(ring.at(0), 3);
        QCOMPARE(ring.last(), 5);
        ring.clear();
        QCOMPARE(ring.size(), 0);
    }

    void sliderSpinBox() {
        ui::SliderSpinBox box(0, 10'000, true);
        QSignalSpy changed(&box, &ui::SliderSpinBox::valueChanged);
        box.setValue(500);
        QCOMPARE(box.spinBox()->value(), 500);
        QCOMPARE(changed.size(), 1);
        // Moving the (logarithmic) slider to its ends reaches the range's ends.
        box.slider()->setValue(box.slider()->maximum());
        QCOMPARE(box.value(), 10'000);
        box.slider()->setValue(box.slider()->minimum());
        QCOMPARE(box.value(), 0);
        // The spin box drives the slider.
        box.spinBox()->setValue(1'000);
        QCOMPARE(box.value(), 1'000);
        QVERIFY(box.slider()->value() > box.slider()->minimum());
        QVERIFY(box.slider()->value() < box.slider()->maximum());
        box.setValue(20'000); // clamped
        QCOMPARE(box.value(), 10'000);
    }

    void limitsPanel() {
        ui::LimitsPanel panel;
        QSignalSpy limits(&panel, &ui::LimitsPanel::limitsEdited);
        QSignalSpy policy(&panel, &ui::LimitsPanel::fetchPolicyEdited);
        panel.perHostInFlight()->setValue(7);
        panel.interval()->setValue(250);
        panel.timeout()->setValue(5);
        QCOMPARE(limits.size(), 2);
        QCOMPARE(policy.size(), 1);
        crawl::CrawlLimits l;
        l.hostOverrides.insert(QStringLiteral("a:80"), crawl::HostOverride{1, 2000});
        panel.applyTo(&l);
        QCOMPARE(l.perHostInFlight, 7);
        QCOMPARE(l.intervalMs, 250);
        QCOMPARE(l.hostOverrides.size(), 1); // overrides are the window's, untouched
        crawl::FetchPolicy p;
        panel.applyTo(&p);
        QCOMPARE(p.totalTimeoutS, 5);
        QVERIFY(p.connectTimeoutS <= 5);
        // Every control explains itself.
        QVERIFY(!panel.perHostInFlight()->slider()->toolTip().isEmpty());
        QVERIFY(!panel.globalInFlight()->spinBox()->toolTip().isEmpty());

        // Remembered between runs.
        {
            QSettings settings;
            panel.saveSettings(settings);
        }
        ui::LimitsPanel other;
        QSignalSpy quiet(&other, &ui::LimitsPanel::limitsEdited);
        QSettings settings;
        other.loadSettings(settings);
        QCOMPARE(quiet.size(), 0);
        crawl::CrawlLimits loaded;
        other.applyTo(&loaded);
        QCOMPARE(loaded.perHostInFlight, 7);
        QCOMPARE(loaded.intervalMs, 250);
    }

    void chartsFromSnapshots() {
        ui::ChartsPanel charts;
        charts.resize(900, 250);
        const qint64 t0 = 1'700'000'000'000;
        for (int i = 0; i < 40; ++i) {
            crawl::CrawlSnapshot s;
            s.state = crawl::CrawlState::Running;
            s.elapsedMs = (i + 1) * 250;
            s.done = 10 * i;
            s.inFlight = 5 + i % 3;
            s.recentP50Ms = 20;
            s.recentP95Ms = 80;
            s.recentP99Ms = 120;
            for (int h = 0; h < 6; ++h) {
                crawl::HostSnapshot host;
                host.host = QStringLiteral("127.0.0.%1:80").arg(h + 1);
                host.inFlight = h; // host 6 is the busiest
                host.maxInFlight = 8;
                s.hosts.append(host);
            }
            charts.addSnapshot(s, t0 + (i + 1) * 250);
        }
        charts.flush();
        // Ten seconds of snapshots are ten closed one-second bins (the eleventh is still open).
        QCOMPARE(charts.inFlightChart()->segments(0).value(0).size(), 10);
        QCOMPARE(charts.inFlightChart()->lineName(1), QStringLiteral("127.0.0.6:80")); // full host names
        QCOMPARE(charts.latencyChart()->segments(2).value(0).size(), 10);
        QVERIFY(!charts.grab().isNull());
        charts.clear();
        QVERIFY(charts.inFlightChart()->segments(0).isEmpty());
        QCOMPARE(static_cast<QLineSeries *>(charts.inFlightChart()->chart()->series()[0])->count(), 0);
    }

    void inFlightBar() {
        ui::HostsModel model;
        crawl::HostSnapshot h;
        h.host = QStringLiteral("a:80");
        h.inFlight = 3;
        h.maxInFlight = 4;
        model.setHosts({h}, 0);
        QTableView view;
        view.setModel(&model);
        view.setItemDelegateForColumn(ui::HostsModel::InFlightColumn, new ui::InFlightBarDelegate(&view));
        view.resize(600, 120);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.grab().isNull()); // paints without asserting
    }

    void lagProbe() {
        ui::EventLoopLagProbe probe;
        probe.start();
        QVERIFY(QTest::qWaitFor([&] { return probe.samples() >= 20; }, 5000));
        QVERIFY(probe.p50Ms() >= 0);
        QVERIFY(probe.p99Ms() >= probe.p50Ms());
        QVERIFY(probe.maxMs() >= probe.p99Ms());
        probe.stop();
        probe.reset();
        QCOMPARE(probe.samples(), 0);
    }
};

QTEST_MAIN(TestWidgets)
#include "tst_widgets.moc"
