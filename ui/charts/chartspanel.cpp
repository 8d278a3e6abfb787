#include "charts/chartspanel.h"

#include "charts/binsegments.h"
#include "charts/distributioncharts.h"
#include "charts/timeserieschart.h"

#include <QActionGroup>
#include <QChart>
#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHash>
#include <QLegend>
#include <QMenu>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ui {

namespace {
constexpr qsizetype kBins = 1200; // 20 minutes of one-second bins
constexpr int kRedrawMs = 333;
constexpr int kSmoothBins = 5;
const QColor kTotalColor(0x1f, 0x5f, 0xa8);
const QColor kFailureColor(0xc0, 0x39, 0x2b);
const QColor kRawOkColor(0x8a, 0x8a, 0x8a);
const QColor kAcceptedColor(0x2e, 0x9d, 0x4f);

// Latency is drawn on a log axis: sub-millisecond values sit on its 1 ms floor.
std::optional<double> latency(int ms) {
    return ms >= 0 ? std::optional<double>(std::max(ms, 1)) : std::nullopt;
}
} // namespace

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent)
    , m_inFlight(new TimeSeriesChart(tr("In flight"), tr("requests"), TimeSeriesChart::Scale::Linear, this))
    , m_latency(
          new TimeSeriesChart(tr("Latency"), tr("ms (log scale)"), TimeSeriesChart::Scale::Logarithmic, this))
    , m_throughput(
          new TimeSeriesChart(tr("Throughput"), tr("per second"), TimeSeriesChart::Scale::Linear, this))
    , m_distribution(new DistributionCharts(this))
    , m_pages(new QTabWidget(this))
    , m_hostPicker(new QToolButton(this))
    , m_smooth(new QCheckBox(tr("Smooth"), this))
    , m_bins(kBins) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *controls = new QWidget(this);
    auto *controlsLayout = new QHBoxLayout(controls);
    controlsLayout->setContentsMargins(4, 0, 4, 0);
    m_hostPicker->setObjectName(QStringLiteral("chartHostPicker"));
    m_hostPicker->setPopupMode(QToolButton::InstantPopup);
    m_hostPicker->setToolTip(tr("Which hosts the in-flight chart draws on their own"));
    auto *menu = new QMenu(m_hostPicker);
    connect(menu, &QMenu::aboutToShow, this, &ChartsPanel::fillHostMenu);
    m_hostPicker->setMenu(menu);
    m_smooth->setObjectName(QStringLiteral("chartSmooth"));
    m_smooth->setToolTip(tr("Draw each point as the mean of the last %1 seconds").arg(kSmoothBins));
    connect(m_smooth, &QCheckBox::toggled, this, &ChartsPanel::setSmoothing);
    controlsLayout->addWidget(m_hostPicker);
    controlsLayout->addWidget(m_smooth);
    auto *overTime = new QWidget(this);
    auto *charts = new QHBoxLayout(overTime);
    charts->setContentsMargins(0, 0, 0, 0);
    charts->setSpacing(4);
    charts->addWidget(m_inFlight, 5); // its legend of host names sits beside it
    charts->addWidget(m_latency, 3);
    charts->addWidget(m_throughput, 3);
    m_pages->setDocumentMode(true);
    m_pages->addTab(overTime, tr("Over Time"));
    m_pages->addTab(m_distribution, tr("Distribution"));
    m_pages->setCornerWidget(controls, Qt::TopRightCorner);
    // The picker and smoothing only apply to the lines over time.
    connect(m_pages, &QTabWidget::currentChanged, this,
            [this, overTime, controls](int) { controls->setEnabled(m_pages->currentWidget() == overTime); });
    layout->addWidget(m_pages, 1);

    m_inFlight->setToolTip(
        tr("Requests in flight, mean per second: all hosts, and chosen hosts on their own"));
    m_latency->setToolTip(tr("Latency percentiles of the requests that ended in each second"));
    m_throughput->setToolTip(tr("Results and failures per second; URLs cancelled by Stop are not failures. "
                                "Raw ok/s counts every ok result, accepted/s only those that passed the "
                                "acceptance checks (Crawl > Crawl Rules)"));

    // A legend row below the chart has room for three or four host names; a column beside it for all.
    m_inFlight->chart()->legend()->setAlignment(Qt::AlignRight);
    m_inFlight->addSeries(tr("all hosts"), kTotalColor, 2.5);
    for (int i = 0; i < kMaxHostLines; ++i)
        m_inFlight->addSeries({}, Qt::gray, 1.5);
    // Widest at the back, thinnest in front, each with its own dash: where they meet all stay visible.
    m_latency->addSeries(tr("p99"), QColor(0xe1, 0x57, 0x59), 3.5, Qt::SolidLine);
    m_latency->addSeries(tr("p95"), QColor(0xf2, 0x8e, 0x2b), 2.0, Qt::DashLine);
    m_latency->addSeries(tr("p50"), QColor(0x1b, 0x6e, 0x3a), 1.5, Qt::SolidLine);
    m_latency->setValueFloor(10);
    m_latency->setValueUnit(tr(" ms"));
    m_throughput->addSeries(tr("results/s"), kTotalColor, 2.0);
    m_throughput->addSeries(tr("failures/s"), kFailureColor, 2.0, Qt::DashLine);
    // Raw against accepted (issue 13): a burst of 200s is not success when most are error templates.
    m_throughput->addSeries(tr("raw ok/s"), kRawOkColor, 1.5, Qt::DotLine);
    m_throughput->addSeries(tr("accepted/s"), kAcceptedColor, 2.0);
    for (TimeSeriesChart *chart : {m_inFlight, m_latency, m_throughput})
        chart->setReadoutToleranceMs(m_binner.binMs());

    updatePickerText();
    m_timer.setInterval(kRedrawMs);
    // A hidden panel (its dock closed, the window minimized) draws nothing; it catches up when shown.
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (isVisible())
            flush();
    });
    m_timer.start();
    m_dirty = true;
    flush();
}

void ChartsPanel::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    flush();
}

void ChartsPanel::setWindowSeconds(int seconds) {
    m_windowSeconds = std::max(10, seconds);
    m_dirty = true;
}

void ChartsPanel::setSmoothing(bool on) {
    if (m_smooth->isChecked() != on)
        m_smooth->setChecked(on); // comes back here through toggled()
    m_dirty = true;
    flush();
}

void ChartsPanel::setBusiestCount(int count) {
    m_busiestCount = std::clamp(count, 0, kMaxHostLines);
    m_picked.clear();
    updatePickerText();
    m_dirty = true;
    flush();
}

void ChartsPanel::setPickedHosts(const QStringList &hosts) {
    m_picked = hosts.mid(0, kMaxHostLines);
    updatePickerText();
    m_dirty = true;
    flush();
}

void ChartsPanel::updatePickerText() {
    m_hostPicker->setText(m_picked.isEmpty() ? tr("Hosts: busiest %1").arg(m_busiestCount)
                                             : tr("Hosts: %n chosen", nullptr, int(m_picked.size())));
}

void ChartsPanel::addResults(const QList<crawl::CrawlResult> &results) {
    if (results.isEmpty())
        return;
    for (const crawl::CrawlResult &result : results)
        m_breakdown.add(result);
    m_breakdownDirty = true;
    m_dirty = true;
}

void ChartsPanel::removeResult(const crawl::CrawlResult &result) {
    m_breakdown.remove(result);
    m_breakdownDirty = true;
    m_dirty = true;
}

void ChartsPanel::clear() {
    m_breakdown.clear();
    m_breakdownDirty = true;
    m_binner.clear();
    m_bins.clear();
    m_palette.clear();
    m_shown.clear();
    m_firstMs = m_lastMs = 0;
    m_markers.clear();
    m_dirty = true;
    flush();
}

void ChartsPanel::addMarker(const ChartMarker &marker) {
    m_markers.append(marker);
    if (m_markers.size() > kMaxMarkers)
        m_markers.remove(0, m_markers.size() - kMaxMarkers);
    m_dirty = true;
}

void ChartsPanel::setHostLabels(const QHash<QString, QString> &labels) {
    m_hostLabels = labels;
    m_dirty = true;
}

QString ChartsPanel::hostTitle(const QString &host) const {
    const QString label = m_hostLabels.value(host);
    return label.isEmpty() ? host : tr("%1 · %2").arg(host, label);
}

void ChartsPanel::addSnapshot(const crawl::CrawlSnapshot &snapshot, qint64 nowMs) {
    if (m_firstMs == 0)
        m_firstMs = nowMs;
    m_lastMs = std::max(m_lastMs, nowMs);
    for (const ChartBin &bin : m_binner.add(snapshot, nowMs))
        m_bins.push(bin);
    // No later snapshot closes the last second of a finished crawl.
    if (snapshot.state == crawl::CrawlState::Finished || snapshot.state == crawl::CrawlState::Idle) {
        if (const std::optional<ChartBin> last = m_binner.finish())
            m_bins.push(*last);
    }
    m_dirty = true;
}

QList<ChartBin> ChartsPanel::visibleBins() const {
    const qint64 from = m_lastMs - qint64(m_windowSeconds) * 1000 - m_binner.binMs();
    QList<ChartBin> out;
    for (qsizetype i = 0; i < m_bins.size(); ++i) {
        if (m_bins.at(i).startMs >= from)
            out.append(m_bins.at(i));
    }
    return out;
}

QStringList ChartsPanel::hostsByActivity(const QList<ChartBin> &bins) const {
    QHash<QString, double> activity;
    for (const ChartBin &bin : bins) {
        for (auto it = bin.hostInFlight.cbegin(); it != bin.hostInFlight.cend(); ++it)
            activity[it.key()] += it.value();
    }
    QList<QPair<double, QString>> ranked;
    for (auto it = activity.cbegin(); it != activity.cend(); ++it)
        ranked.append({it.value(), it.key()});
    std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    QStringList hosts;
    for (const auto &entry : std::as_const(ranked))
        hosts.append(entry.second);
    return hosts;
}

void ChartsPanel::fillHostMenu() {
    QMenu *menu = m_hostPicker->menu();
    menu->clear(); // deletes the actions, not their group
    qDeleteAll(menu->findChildren<QActionGroup *>(Qt::FindDirectChildrenOnly));
    auto *group = new QActionGroup(menu);
    for (const int n : {3, 5, 10}) {
        QAction *action = menu->addAction(tr("Busiest %1").arg(n), this, [this, n] { setBusiestCount(n); });
        action->setCheckable(true);
        action->setChecked(m_picked.isEmpty() && m_busiestCount == n);
        group->addAction(action);
    }
    menu->addSeparator();
    const QStringList hosts = hostsByActivity(visibleBins());
    for (const QString &host : hosts) {
        QPixmap swatch(12, 12);
        swatch.fill(m_palette.colorFor(host));
        QAction *action = menu->addAction(QIcon(swatch), hostTitle(host));
        action->setCheckable(true);
        action->setChecked(m_shown.contains(host));
        connect(action, &QAction::toggled, this, [this, host](bool on) {
            QStringList picked = m_picked.isEmpty() ? m_shown : m_picked;
            picked.removeAll(host);
            if (on)
                picked.append(host);
            setPickedHosts(picked);
        });
    }
    if (hosts.isEmpty())
        menu->addAction(tr("No host has had requests in flight yet"))->setEnabled(false);
}

void ChartsPanel::flush() {
    if (!m_dirty)
        return;
    m_dirty = false;
    if (m_breakdownDirty) {
        m_breakdownDirty = false;
        m_distribution->setBreakdown(m_breakdown);
    }
    const QList<ChartBin> bins = visibleBins();
    const qint64 binMs = m_binner.binMs();
    const int smooth = m_smooth->isChecked() ? kSmoothBins : 1;
    auto segments = [&](const BinValue &value) { return binSegments(bins, binMs, value, smooth); };

    m_inFlight->setSegments(0, tr("all hosts"), segments([](const ChartBin &b) { return b.inFlight; }));
    m_shown = m_picked.isEmpty() ? hostsByActivity(bins).mid(0, m_busiestCount) : m_picked;
    for (int i = 0; i < kMaxHostLines; ++i) {
        if (i >= m_shown.size()) {
            m_inFlight->setSegments(i + 1, {}, {});
            continue;
        }
        const QString host = m_shown[i];
        m_inFlight->setColor(i + 1, m_palette.colorFor(host));
        // Full names (the legend cuts a long one at its end): the host is what tells two lines apart.
        m_inFlight->setSegments(i + 1, hostTitle(host),
                                segments([host](const ChartBin &b) { return b.hostInFlight.value(host); }));
    }
    m_latency->setSegments(0, tr("p99"), segments([](const ChartBin &b) { return latency(b.p99Ms); }));
    m_latency->setSegments(1, tr("p95"), segments([](const ChartBin &b) { return latency(b.p95Ms); }));
    m_latency->setSegments(2, tr("p50"), segments([](const ChartBin &b) { return latency(b.p50Ms); }));
    m_throughput->setSegments(0, tr("results/s"),
                              segments([](const ChartBin &b) { return b.resultsPerSec; }));
    m_throughput->setSegments(1, tr("failures/s"),
                              segments([](const ChartBin &b) { return b.failuresPerSec; }));
    m_throughput->setSegments(2, tr("raw ok/s"), segments([](const ChartBin &b) { return b.okPerSec; }));
    m_throughput->setSegments(3, tr("accepted/s"),
                              segments([](const ChartBin &b) { return b.acceptedPerSec; }));

    // The last `window` seconds; a young crawl fills the width from its start (at least 20 s shown).
    const qint64 last = m_lastMs > 0 ? m_lastMs : QDateTime::currentMSecsSinceEpoch();
    const qint64 first = m_firstMs > 0 ? m_firstMs : last;
    const qint64 from = std::max(last - qint64(m_windowSeconds) * 1000, first - binMs);
    const qint64 to = std::max(last, from + 20'000);
    // One time axis for all three, as many ticks as the narrowest holds: a moment lines up across them.
    int ticks = 6;
    for (const TimeSeriesChart *chart : {m_inFlight, m_latency, m_throughput})
        ticks = std::min(ticks, chart->ticksForWidth());
    for (TimeSeriesChart *chart : {m_inFlight, m_latency, m_throughput}) {
        chart->setTimeRange(from, to, ticks);
        chart->setMarkers(m_markers);
    }
}

} // namespace ui
