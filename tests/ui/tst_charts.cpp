// The charts from known snapshot sequences: one-second binning (a steady crawl is a flat line), gaps where
// the crawl paused or went quiet, Stop's cancellations kept out of the failure line, nice axes, the hover
// readout, saving as PNG and SVG, the host picker and the Hosts table's matching swatches.
#include "charts/binsegments.h"
#include "charts/chartimage.h"
#include "charts/chartspanel.h"
#include "charts/distributioncharts.h"
#include "charts/niceaxis.h"
#include "charts/resultbreakdown.h"
#include "charts/snapshotbinner.h"
#include "charts/timeserieschart.h"
#include "models/hostsmodel.h"

#include <QBarSet>
#include <QChart>
#include <QDateTime>
#include <QFile>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QValueAxis>

namespace {

constexpr qint64 kT0 = 1'700'000'000'000; // a whole second

// A crawl that finishes `perSnapshot` URLs every 250 ms (± a little jitter, as the engine's timer has).
struct FakeCrawl {
    crawl::CrawlSnapshot s;
    qint64 now = kT0;
    int tick = 0;
    FakeCrawl() { s.state = crawl::CrawlState::Running; }
    crawl::CrawlSnapshot step(int finished, int failed = 0, int p50 = 20, int p95 = 80, int p99 = 150) {
        now += 250 + (tick++ % 2 ? 12 : -12);
        s.elapsedMs = now - kT0;
        s.done += finished;
        s.ok += finished - failed;
        s.failed += failed;
        s.inFlight = 4;
        s.recentP50Ms = finished ? p50 : -1;
        s.recentP95Ms = finished ? p95 : -1;
        s.recentP99Ms = finished ? p99 : -1;
        return s;
    }
};

QList<double> valuesOf(const ui::TimeSeriesChart::Segments &segments) {
    QList<double> out;
    for (const QList<QPointF> &segment : segments) {
        for (const QPointF &p : segment)
            out.append(p.y());
    }
    return out;
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void niceAxisKnownInputs_data() {
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<double>("niceMin");
        QTest::addColumn<double>("niceMax");
        QTest::addColumn<double>("step");
        QTest::addColumn<int>("ticks");
        QTest::addColumn<QString>("format");
        // The "3, 8, 13, 38" and "1, 1, 1, 0, 0".
        QTest::newRow("0..38") << 0.0 << 38.0 << 5 << 0.0 << 40.0 << 10.0 << 5 << QStringLiteral("%.0f");
        QTest::newRow("3..38") << 3.0 << 38.0 << 5 << 0.0 << 40.0 << 10.0 << 5 << QStringLiteral("%.0f");
        QTest::newRow("0..0.4") << 0.0 << 0.4 << 5 << 0.0 << 0.4 << 0.1 << 5 << QStringLiteral("%.1f");
        QTest::newRow("0..1") << 0.0 << 1.0 << 6 << 0.0 << 1.0 << 0.2 << 6 << QStringLiteral("%.1f");
        QTest::newRow("0..3 in-flight")
            << 0.0 << 3.0 << 6 << 0.0 << 3.0 << 1.0 << 4 << QStringLiteral("%.0f");
        QTest::newRow("0..96") << 0.0 << 96.0 << 6 << 0.0 << 100.0 << 20.0 << 6 << QStringLiteral("%.0f");
        QTest::newRow("0..1234") << 0.0 << 1234.0 << 5 << 0.0 << 1500.0 << 500.0 << 4
                                 << QStringLiteral("%.0f");
        QTest::newRow("0.01..0.07") << 0.01 << 0.07 << 5 << 0.0 << 0.08 << 0.02 << 5
                                    << QStringLiteral("%.2f");
        QTest::newRow("empty") << 0.0 << 0.0 << 5 << 0.0 << 1.0 << 0.5 << 3 << QStringLiteral("%.1f");
        QTest::newRow("negative") << -7.0 << 12.0 << 5 << -10.0 << 20.0 << 10.0 << 4
                                  << QStringLiteral("%.0f");
    }
    void niceAxisKnownInputs() {
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(int, maxTicks);
        const ui::NiceAxis axis = ui::niceAxis(min, max, maxTicks);
        QTEST(axis.min, "niceMin");
        QTEST(axis.max, "niceMax");
        QTEST(axis.step, "step");
        QTEST(axis.tickCount, "ticks");
        QTEST(axis.labelFormat, "format");
        QVERIFY(axis.tickCount <= maxTicks);
        // No two tick labels print alike.
        QStringList labels;
        for (int i = 0; i < axis.tickCount; ++i)
            labels.append(
                QString::asprintf(axis.labelFormat.toLatin1().constData(), axis.min + i * axis.step));
        QCOMPARE(QSet<QString>(labels.cbegin(), labels.cend()).size(), labels.size());
    }

    void niceTimeAxisOnRoundTimes() {
        // 20 s from 12 s past a minute: ticks every 5 s from :10 to :35.
        const qint64 minute = kT0 - kT0 % 60'000;
        ui::NiceTimeAxis axis = ui::niceTimeAxis(minute + 12'300, minute + 32'300, 6);
        QCOMPARE(axis.stepMs, 5000);
        QCOMPARE(axis.fromMs, minute + 10'000);
        QCOMPARE(axis.toMs, minute + 35'000);
        QCOMPARE(axis.tickCount, 6);
        QCOMPARE(axis.format, QStringLiteral("HH:mm:ss"));
        // Five minutes: every two minutes (every minute would be 7 ticks), labelled without seconds.
        const qint64 tenMinutes = kT0 - kT0 % 600'000;
        axis = ui::niceTimeAxis(tenMinutes + 1000, tenMinutes + 301'000, 6);
        QCOMPARE(axis.stepMs, 120'000);
        QCOMPARE(axis.fromMs, tenMinutes);
        QCOMPARE(axis.toMs, tenMinutes + 360'000);
        QCOMPARE(axis.tickCount, 4);
        QCOMPARE(axis.format, QStringLiteral("HH:mm"));
        axis = ui::niceTimeAxis(minute, minute, 6); // empty: one second
        QCOMPARE(axis.toMs - axis.fromMs, 1000);
    }

    void steadyCrawlIsAFlatLine() {
        // 8 URLs per 250 ms snapshot = 32/s. Per snapshot the old chart drew a comb; per second it is flat.
        ui::SnapshotBinner binner;
        FakeCrawl crawl;
        QList<ui::ChartBin> bins;
        for (int i = 0; i < 80; ++i)
            bins += binner.add(crawl.step(8), crawl.now);
        QVERIFY(bins.size() >= 18);
        for (const ui::ChartBin &bin : std::as_const(bins)) {
            QCOMPARE(bin.startMs % 1000, 0);
            QVERIFY2(bin.resultsPerSec > 30.0 && bin.resultsPerSec < 34.0,
                     qPrintable(QString::number(bin.resultsPerSec)));
            QCOMPARE(bin.p50Ms, 20);
            QCOMPARE(bin.p99Ms, 150);
            QCOMPARE(bin.inFlight, 4.0);
            QVERIFY(bin.active);
        }
        // The same through the panel: the throughput line lies between 30 and 34 everywhere.
        ui::ChartsPanel panel;
        FakeCrawl again;
        for (int i = 0; i < 80; ++i) {
            const crawl::CrawlSnapshot s = again.step(8);
            panel.addSnapshot(s, again.now);
        }
        panel.flush();
        const auto segments = panel.throughputChart()->segments(0);
        QCOMPARE(segments.size(), 1);
        const QList<double> values = valuesOf(segments);
        QVERIFY(values.size() >= 18);
        QVERIFY(*std::min_element(values.cbegin(), values.cend()) > 30.0);
        QVERIFY(*std::max_element(values.cbegin(), values.cend()) < 34.0);
        // The y axis ends at a round number above 32, not at 96.
        auto *axis =
            qobject_cast<QValueAxis *>(panel.throughputChart()->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(axis);
        QCOMPARE(axis->max(), 40.0);
        QCOMPARE(axis->labelFormat(), QStringLiteral("%.0f"));
    }

    void pausesAndSilencesAreGaps() {
        ui::ChartsPanel panel;
        FakeCrawl crawl;
        auto feed = [&](int snapshots, crawl::CrawlState state, int finished) {
            crawl.s.state = state;
            for (int i = 0; i < snapshots; ++i) {
                const crawl::CrawlSnapshot s = crawl.step(finished);
                panel.addSnapshot(s, crawl.now);
            }
        };
        feed(20, crawl::CrawlState::Running, 8); // 5 s running
        feed(20, crawl::CrawlState::Paused, 0);  // 5 s paused by the user
        feed(20, crawl::CrawlState::Running, 8); // 5 s running
        crawl.now += 4000;                       // 4 s with no snapshot at all
        feed(20, crawl::CrawlState::Running, 8);
        panel.flush();
        QCOMPARE(panel.throughputChart()->segments(0).size(), 3);
        QCOMPARE(panel.inFlightChart()->segments(0).size(), 3);
        QCOMPARE(panel.latencyChart()->segments(2).size(), 3);
        // No piece reaches into a gap: every point of the paused seconds is missing.
        const qint64 pauseFrom = kT0 + 6000, pauseTo = kT0 + 10000;
        for (const QList<QPointF> &segment : panel.throughputChart()->segments(0)) {
            for (const QPointF &p : segment)
                QVERIFY(p.x() < double(pauseFrom) || p.x() > double(pauseTo));
        }
        // A running crawl that finishes nothing for a while has no latency there, and says so with a gap.
        ui::ChartsPanel quiet;
        FakeCrawl slow;
        for (int i = 0; i < 40; ++i) {
            const crawl::CrawlSnapshot s = slow.step(i >= 12 && i < 28 ? 0 : 4);
            quiet.addSnapshot(s, slow.now);
        }
        quiet.flush();
        QCOMPARE(quiet.latencyChart()->segments(2).size(), 2);
        QCOMPARE(quiet.throughputChart()->segments(0).size(), 1); // zero results/s is a value, not a gap
    }

    void binSegmentsDrawLoneBinsAndSmooth() {
        QList<ui::ChartBin> bins;
        for (int i : {0, 1, 2, 4, 5, 6, 7, 9}) {
            ui::ChartBin bin;
            bin.startMs = kT0 + i * 1000;
            bin.active = true;
            bin.resultsPerSec = i;
            bins.append(bin);
        }
        const ui::BinValue rate = [](const ui::ChartBin &b) { return b.resultsPerSec; };
        const auto plain = ui::binSegments(bins, 1000, rate);
        QCOMPARE(plain.size(), 3);
        QCOMPARE(plain[0].size(), 3);
        QCOMPARE(plain[0][0], QPointF(double(kT0 + 500), 0));
        // A lone bin spans its second so it can be seen.
        QCOMPARE(plain[2], (QList<QPointF>{{double(kT0 + 9000), 9}, {double(kT0 + 10000), 9}}));
        const auto smooth = ui::binSegments(bins, 1000, rate, 2);
        QCOMPARE(smooth[1][0].y(), 4.0); // the first point of a piece never averages across the gap
        QCOMPARE(smooth[1][1].y(), 4.5);
    }

    void stopCancellationsAreNotFailures() {
        ui::ChartsPanel panel;
        FakeCrawl crawl;
        for (int i = 0; i < 40; ++i) {
            const crawl::CrawlSnapshot s = crawl.step(8, i % 4 == 0 ? 2 : 0); // 2 failures/s
            panel.addSnapshot(s, crawl.now);
        }
        // Stop: 850 queued URLs end as cancelled within one snapshot; then the crawl finishes.
        crawl.s.state = crawl::CrawlState::Stopping;
        crawl.s.byOutcome[size_t(crawl::Outcome::Cancelled)] += 850;
        crawl.s.failed += 850;
        crawl.s.done += 850;
        crawl.now += 250;
        panel.addSnapshot(crawl.s, crawl.now);
        crawl.s.state = crawl::CrawlState::Finished;
        crawl.now += 250;
        panel.addSnapshot(crawl.s, crawl.now);
        panel.flush();
        const QList<double> failures = valuesOf(panel.throughputChart()->segments(1));
        QVERIFY(!failures.isEmpty());
        QVERIFY2(*std::max_element(failures.cbegin(), failures.cend()) < 3.0,
                 qPrintable(QString::number(*std::max_element(failures.cbegin(), failures.cend()))));
        const QList<double> results = valuesOf(panel.throughputChart()->segments(0));
        QVERIFY(*std::max_element(results.cbegin(), results.cend()) < 40.0);
        auto *axis =
            qobject_cast<QValueAxis *>(panel.throughputChart()->chart()->axes(Qt::Vertical).value(0));
        QCOMPARE(axis->max(), 40.0); // the chart is not flattened by an 850/s spike
    }

    void hoverReadoutNamesEachLine() {
        ui::TimeSeriesChart chart(QStringLiteral("Latency"), QStringLiteral("ms"),
                                  ui::TimeSeriesChart::Scale::Logarithmic);
        chart.setValueUnit(QStringLiteral(" ms"));
        chart.setReadoutToleranceMs(1000);
        chart.addSeries(QStringLiteral("p99"), Qt::red);
        chart.addSeries(QStringLiteral("p50"), Qt::green);
        chart.addSeries({}, Qt::gray); // hidden lines say nothing
        chart.setSegments(
            0, QStringLiteral("p99"),
            {{{double(kT0 + 500), 150}, {double(kT0 + 1500), 180}}, {{double(kT0 + 8500), 300}}});
        chart.setSegments(1, QStringLiteral("p50"), {{{double(kT0 + 500), 20}, {double(kT0 + 1500), 22.5}}});
        chart.setSegments(2, {}, {{{double(kT0 + 1500), 99}}});
        const QString time = QDateTime::fromMSecsSinceEpoch(kT0 + 1400).toString(QStringLiteral("HH:mm:ss"));
        QCOMPARE(chart.readoutAt(kT0 + 1400), time + QStringLiteral("  p99 180 ms · p50 22.5 ms"));
        QCOMPARE(chart.readoutAt(kT0 + 5000), QString()); // in the gap: nothing is near
        // The mouse over the plot shows the readout in the chart.
        chart.resize(500, 300);
        chart.setTimeRange(kT0, kT0 + 10'000);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QPointF at = chart.chart()->mapToPosition(
            QPointF(double(kT0 + 1500), 100), static_cast<QLineSeries *>(chart.chart()->series()[0]));
        QTest::mouseMove(chart.viewport(), chart.mapFromScene(chart.chart()->mapToScene(at)));
        QTRY_VERIFY(std::any_of(chart.chart()->childItems().cbegin(), chart.chart()->childItems().cend(),
                                [](QGraphicsItem *item) {
                                    auto *text = dynamic_cast<QGraphicsSimpleTextItem *>(item);
                                    return text && text->isVisible() &&
                                           text->text().contains(QStringLiteral("p50 22.5 ms"));
                                }));
    }

    void saveAsPngAndSvg() {
        ui::ChartsPanel panel;
        panel.resize(900, 300);
        FakeCrawl crawl;
        for (int i = 0; i < 40; ++i) {
            const crawl::CrawlSnapshot s = crawl.step(8);
            panel.addSnapshot(s, crawl.now);
        }
        panel.flush();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString png = dir.filePath(QStringLiteral("throughput.png"));
        QString error;
        QVERIFY2(panel.throughputChart()->saveImage(png, &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), panel.throughputChart()->grab().size());
        const QString svg = dir.filePath(QStringLiteral("throughput.svg"));
        QVERIFY2(panel.throughputChart()->saveImage(svg, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("</svg>"));
        // A place that cannot be written: a clear error, and nothing half-written is left.
        const QString bad = dir.filePath(QStringLiteral("missing/dir/x.png"));
        QVERIFY(!panel.throughputChart()->saveImage(bad, &error));
        QVERIFY(error.contains(bad));
    }

    void hostPickerShowsTheBusiest() {
        ui::ChartsPanel panel;
        panel.resize(1200, 320);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        FakeCrawl crawl;
        const QString longName = QStringLiteral("a-rather-long-host-name.example.org:18291");
        for (int i = 0; i < 40; ++i) {
            crawl::CrawlSnapshot s = crawl.step(8);
            s.hosts.clear();
            for (int h = 1; h <= 9; ++h) {
                crawl::HostSnapshot host;
                host.host = h == 9 ? longName : QStringLiteral("127.0.0.%1:18291").arg(h);
                host.inFlight = h; // host 9 is the busiest
                s.hosts.append(host);
            }
            panel.addSnapshot(s, crawl.now);
        }
        panel.flush();
        const QStringList busiest5 = {longName, QStringLiteral("127.0.0.8:18291"),
                                      QStringLiteral("127.0.0.7:18291"), QStringLiteral("127.0.0.6:18291"),
                                      QStringLiteral("127.0.0.5:18291")};
        QCOMPARE(panel.shownHosts(), busiest5);
        // Full names in the legend (the old legend cut them from the left: "…3:18291").
        ui::TimeSeriesChart *chart = panel.inFlightChart();
        QCOMPARE(chart->lineName(1), longName);
        QCOMPARE(chart->lineName(2), QStringLiteral("127.0.0.8:18291"));
        QCOMPARE(chart->lineName(6), QString()); // unused lines are hidden
        int legendEntries = 0;
        for (QLegendMarker *marker : chart->chart()->legend()->markers()) {
            if (marker->isVisible())
                ++legendEntries;
        }
        QCOMPARE(legendEntries, 6); // all hosts + 5
        panel.setBusiestCount(3);
        QCOMPARE(panel.shownHosts(), busiest5.mid(0, 3));
        panel.setPickedHosts({QStringLiteral("127.0.0.1:18291")});
        QCOMPARE(panel.shownHosts(), QStringList{QStringLiteral("127.0.0.1:18291")});
        QCOMPARE(panel.hostPicker()->text(), QStringLiteral("Hosts: 1 chosen"));
        // The picker's menu lists every active host, busiest first, the shown ones checked.
        panel.hostPicker()->menu()->aboutToShow();
        const QList<QAction *> actions = panel.hostPicker()->menu()->actions();
        QStringList listed;
        for (QAction *action : actions) {
            if (action->text().contains(QStringLiteral("18291")))
                listed.append(action->text());
        }
        QCOMPARE(listed.size(), 9);
        QCOMPARE(listed.first(), longName);
        panel.setBusiestCount(5);

        // Each host's line colour is its swatch in the Hosts table.
        ui::HostsModel hosts;
        hosts.setHostPalette(panel.hostPalette());
        crawl::HostSnapshot h8;
        h8.host = QStringLiteral("127.0.0.8:18291");
        crawl::HostSnapshot h9;
        h9.host = longName;
        hosts.setHosts({h8, h9}, kT0);
        for (int row = 0; row < 2; ++row) {
            const QString host = hosts.host(row).host;
            const int line = int(panel.shownHosts().indexOf(host)) + 1;
            QVERIFY(line > 0);
            const auto *series = static_cast<QLineSeries *>(chart->chart()->series().at(line));
            QCOMPARE(hosts.index(row, ui::HostsModel::HostColumn).data(Qt::DecorationRole).value<QColor>(),
                     series->pen().color());
        }
        QCOMPARE(hosts.index(0, ui::HostsModel::StateColumn).data(Qt::DecorationRole), QVariant());

        // A picture to look at: CRAWLSCOPE_CHART_PNG=path writes the panel as the user sees it.
        const QString out = qEnvironmentVariable("CRAWLSCOPE_CHART_PNG");
        if (!out.isEmpty())
            QVERIFY(panel.grab().save(out));
    }

    void statusBreakdownAndHistogram() {
        QCOMPARE(ui::latencyBucketOf(0), 0);
        QCOMPARE(ui::latencyBucketOf(9), 0);
        QCOMPARE(ui::latencyBucketOf(10), 1);
        QCOMPARE(ui::latencyBucketOf(700), 6);
        QCOMPARE(ui::latencyBucketOf(60'000), ui::kLatencyBuckets - 1);
        QCOMPARE(ui::latencyBucketLabel(0), QStringLiteral("0–10"));
        QCOMPARE(ui::latencyBucketLabel(1), QStringLiteral("10–20"));
        QCOMPARE(ui::latencyBucketLabel(6), QStringLiteral("0.5–1 s"));
        QCOMPARE(ui::latencyBucketLabel(7), QStringLiteral("1–2 s"));
        QCOMPARE(ui::latencyBucketLabel(9), QStringLiteral("≥5 s"));

        quint64 nextId = 1;
        auto result = [&](const QString &host, crawl::Outcome outcome, int status, qint64 latencyMs) {
            crawl::CrawlResult r;
            r.id = nextId++;
            r.host = host;
            r.outcome = outcome;
            r.status = status;
            r.latencyMs = latencyMs;
            return r;
        };
        const QString a = QStringLiteral("a.example:80"), b = QStringLiteral("b.example:80");
        QList<crawl::CrawlResult> results;
        for (int i = 0; i < 3; ++i)
            results.append(result(a, crawl::Outcome::Ok, 200, 15));
        results.append(result(a, crawl::Outcome::HttpError, 404, 30));
        results.append(result(a, crawl::Outcome::HttpError, 301, 12)); // redirect limit
        results.append(result(b, crawl::Outcome::HttpError, 503, 600));
        results.append(result(b, crawl::Outcome::Timeout, 0, 10'000));
        results.append(result(b, crawl::Outcome::Cancelled, 0, -1));   // Stop: not counted
        results.append(result({}, crawl::Outcome::InvalidUrl, 0, -1)); // never requested: not counted
        QCOMPARE(ui::statusClassOf(results[5]), ui::StatusClass::Server5xx);
        QCOMPARE(ui::statusClassOf(results[6]), ui::StatusClass::Failed);
        QCOMPARE(ui::statusClassOf(results[7]), std::nullopt);

        ui::ChartsPanel panel;
        panel.resize(1000, 320);
        panel.addResults(results);
        // The 503 is retried and now succeeds: it counts once, as 2xx.
        crawl::CrawlResult retried = results[5];
        retried.outcome = crawl::Outcome::Ok;
        retried.status = 200;
        retried.latencyMs = 40;
        panel.removeResult(results[5]);
        panel.addResults({retried});
        panel.flush();

        const ui::DistributionCharts *charts = panel.distributionCharts();
        const QStringList rows = charts->statusRows();
        QCOMPARE(rows, (QStringList{QStringLiteral("all hosts"), a, b}));
        auto count = [&](ui::StatusClass cls, const QString &row) {
            return charts->statusSet(cls)->at(int(rows.size() - 1 - rows.indexOf(row))); // bottom-up
        };
        QCOMPARE(count(ui::StatusClass::Success2xx, QStringLiteral("all hosts")), 4.0);
        QCOMPARE(count(ui::StatusClass::Redirect3xx, a), 1.0);
        QCOMPARE(count(ui::StatusClass::Client4xx, a), 1.0);
        QCOMPARE(count(ui::StatusClass::Server5xx, QStringLiteral("all hosts")), 0.0);
        QCOMPARE(count(ui::StatusClass::Success2xx, b), 1.0);
        QCOMPARE(count(ui::StatusClass::Failed, b), 1.0);
        QCOMPARE(count(ui::StatusClass::Failed, a), 0.0);
        const QBarSet *histogram = charts->histogramSet();
        QCOMPARE(histogram->at(1), 4.0); // 15, 15, 15, 12 ms
        QCOMPARE(histogram->at(2), 2.0); // 30 ms, and 40 ms for the retry
        QCOMPARE(histogram->at(6), 0.0); // the retried URL's 600 ms is gone
        QCOMPARE(histogram->at(ui::kLatencyBuckets - 1), 1.0);
        double total = 0;
        for (int i = 0; i < histogram->count(); ++i)
            total += histogram->at(i);
        QCOMPARE(total, 7.0);

        const QString out = qEnvironmentVariable("CRAWLSCOPE_CHART_PNG");
        if (!out.isEmpty()) {
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            panel.pages()->setCurrentWidget(panel.distributionCharts());
            QVERIFY(
                panel.grab().save(QString(out).replace(QStringLiteral(".png"), QStringLiteral("-dist.png"))));
        }
        // The distribution charts save like the others.
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("status.png"));
        QString error;
        QVERIFY2(ui::saveChartImage(charts->statusView(), png, &error), qPrintable(error));
        QVERIFY(!QImage(png).isNull());
        panel.clear();
        QCOMPARE(charts->statusRows(), QStringList{QStringLiteral("all hosts")});
        QCOMPARE(charts->histogramSet()->at(1), 0.0);
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
