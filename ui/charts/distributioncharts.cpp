#include "charts/distributioncharts.h"

#include "charts/chartimage.h"
#include "charts/chartpalette.h"
#include "charts/niceaxis.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QMenu>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

QChart *makeChart(const QString &title, const QFont &base) {
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTitle(title);
    QFont titleFont = base;
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setMargins(QMargins(4, 2, 4, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QFont smallFont(const QFont &base) {
    QFont small = base;
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
    return small;
}

void setNiceRange(QValueAxis *axis, double max) {
    const NiceAxis nice = niceAxis(0, std::max(1.0, max), 6);
    // Counts are whole numbers: never a step below one.
    const NiceAxis whole =
        nice.step < 1 ? niceAxis(0, std::max(1.0, std::ceil(max)), int(std::ceil(max)) + 1) : nice;
    axis->setLabelFormat(QStringLiteral("%.0f"));
    axis->setTickCount(whole.tickCount);
    if (!qFuzzyCompare(axis->max(), whole.max))
        axis->setRange(0, whole.max);
}

} // namespace

DistributionCharts::DistributionCharts(QWidget *parent)
    : QWidget(parent)
    , m_histogramView(new QChartView(this))
    , m_statusView(new QChartView(this))
    , m_histogram(new QBarSet(tr("URLs")))
    , m_histogramAxis(new QValueAxis)
    , m_rows(new QBarCategoryAxis)
    , m_statusAxis(new QValueAxis) {
    const QFont small = smallFont(font());

    QChart *histogram = makeChart(tr("Response time (finished URLs)"), font());
    histogram->legend()->hide();
    auto *bars = new QBarSeries;
    m_histogram->setColor(QColor(0x1f, 0x5f, 0xa8));
    m_histogram->setBorderColor(QColor(0x1f, 0x5f, 0xa8));
    bars->append(m_histogram);
    bars->setBarWidth(0.9);
    histogram->addSeries(bars);
    auto *buckets = new QBarCategoryAxis;
    QStringList labels;
    for (int i = 0; i < kLatencyBuckets; ++i) {
        labels.append(latencyBucketLabel(i));
        m_histogram->append(0);
    }
    buckets->append(labels);
    buckets->setLabelsFont(small);
    buckets->setTitleText(tr("response time, ms"));
    buckets->setTitleFont(small);
    m_histogramAxis->setLabelsFont(small);
    m_histogramAxis->setTitleText(tr("URLs"));
    m_histogramAxis->setTitleFont(small);
    histogram->addAxis(buckets, Qt::AlignBottom);
    histogram->addAxis(m_histogramAxis, Qt::AlignLeft);
    bars->attachAxis(buckets);
    bars->attachAxis(m_histogramAxis);
    m_histogramView->setChart(histogram);
    m_histogramView->setRenderHint(QPainter::Antialiasing);
    m_histogramView->setToolTip(tr("How long each finished URL's last request took, start to end of body"));

    QChart *status = makeChart(tr("Status classes"), font());
    status->legend()->setFont(small);
    auto *stacked = new QHorizontalStackedBarSeries;
    const std::array<QPair<QString, QColor>, size_t(StatusClass::Count)> classes = {{
        {tr("2xx"), QColor(0x59, 0xa1, 0x4f)},
        {tr("3xx"), QColor(0x4e, 0x79, 0xa7)},
        {tr("4xx"), QColor(0xf2, 0x8e, 0x2b)},
        {tr("5xx"), QColor(0xe1, 0x57, 0x59)},
        {tr("failed (no status)"), QColor(0x55, 0x55, 0x55)},
    }};
    for (size_t i = 0; i < classes.size(); ++i) {
        m_status[i] = new QBarSet(classes[i].first);
        m_status[i]->setColor(classes[i].second);
        m_status[i]->setBorderColor(classes[i].second);
        stacked->append(m_status[i]);
    }
    stacked->setBarWidth(0.7);
    status->addSeries(stacked);
    m_rows->setLabelsFont(small);
    m_statusAxis->setLabelsFont(small);
    m_statusAxis->setTitleText(tr("URLs"));
    m_statusAxis->setTitleFont(small);
    status->addAxis(m_rows, Qt::AlignLeft);
    status->addAxis(m_statusAxis, Qt::AlignBottom);
    stacked->attachAxis(m_rows);
    stacked->attachAxis(m_statusAxis);
    m_statusView->setChart(status);
    m_statusView->setRenderHint(QPainter::Antialiasing);
    applyChartPalette(m_histogramView->chart(), palette());
    applyChartPalette(m_statusView->chart(), palette());
    m_statusView->setToolTip(
        tr("Finished URLs by final status, overall and for the hosts with the most results; "
           "cancelled URLs are not counted"));

    for (QChartView *view : {m_histogramView, m_statusView}) {
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, view, [view](const QPoint &pos) {
            QMenu menu(view);
            menu.addAction(tr("Save Chart as PNG/SVG…"), view, [view] { saveChartWithDialog(view); });
            menu.exec(view->mapToGlobal(pos));
        });
    }

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_histogramView, 3); // ten labelled buckets need the room
    layout->addWidget(m_statusView, 2);
    setBreakdown(ResultBreakdown{});
}

QStringList DistributionCharts::statusRows() const {
    QStringList rows = m_rows->categories();
    std::reverse(rows.begin(), rows.end()); // the category axis counts from the bottom
    return rows;
}

void DistributionCharts::setBreakdown(const ResultBreakdown &breakdown) {
    double top = 0;
    for (int i = 0; i < kLatencyBuckets; ++i) {
        const auto value = double(breakdown.latency()[size_t(i)]);
        if (m_histogram->at(i) != value)
            m_histogram->replace(i, value);
        top = std::max(top, value);
    }
    setNiceRange(m_histogramAxis, top);

    // Rows from the top: all hosts, then the busiest; the axis lists them bottom-up.
    const QStringList hosts = breakdown.busiestHosts(kHostRows);
    QList<ResultBreakdown::ClassCounts> counts{breakdown.overall()};
    QStringList rows{tr("all hosts")};
    for (const QString &host : hosts) {
        counts.append(breakdown.host(host));
        rows.append(host);
    }
    std::reverse(rows.begin(), rows.end());
    std::reverse(counts.begin(), counts.end());
    if (m_rows->categories() != rows) {
        m_rows->clear();
        m_rows->append(rows);
    }
    double widest = 0;
    for (size_t c = 0; c < m_status.size(); ++c) {
        QList<qreal> values;
        for (const ResultBreakdown::ClassCounts &row : std::as_const(counts))
            values.append(double(row[c]));
        if (m_status[c]->count() != values.size()) {
            m_status[c]->remove(0, m_status[c]->count());
            m_status[c]->append(values);
        } else {
            for (int i = 0; i < values.size(); ++i) {
                if (m_status[c]->at(i) != values[i])
                    m_status[c]->replace(i, values[i]);
            }
        }
    }
    for (const ResultBreakdown::ClassCounts &row : std::as_const(counts)) {
        qint64 total = 0;
        for (const qint64 c : row)
            total += c;
        widest = std::max(widest, double(total));
    }
    setNiceRange(m_statusAxis, widest);
}

void DistributionCharts::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyChartPalette(m_histogramView->chart(), palette());
        applyChartPalette(m_statusView->chart(), palette());
    }
}

} // namespace ui
