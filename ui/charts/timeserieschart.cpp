#include "charts/timeserieschart.h"

#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGraphicsLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

// 1, 2, 5 x 10^n at or above `value`.
double niceCeiling(double value) {
    if (value <= 0)
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
    for (const double step : {1.0, 2.0, 5.0, 10.0}) {
        if (step * magnitude >= value)
            return step * magnitude;
    }
    return 10 * magnitude;
}

} // namespace

TimeSeriesChart::TimeSeriesChart(const QString &title, const QString &valueLabel, Scale scale,
                                 QWidget *parent)
    : QChartView(parent)
    , m_timeAxis(new QDateTimeAxis) {
    if (scale == Scale::Logarithmic) {
        m_logAxis = new QLogValueAxis;
        m_logAxis->setBase(10);
        m_logAxis->setLabelFormat(QStringLiteral("%g"));
        m_logAxis->setMinorTickCount(0);
        m_yAxis = m_logAxis;
    } else {
        m_valueAxis = new QValueAxis;
        m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
        m_valueAxis->setTickCount(5);
        m_yAxis = m_valueAxis;
    }
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTitle(title);
    QFont titleFont = font();
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setMargins(QMargins(4, 2, 4, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
    chart->legend()->setFont(small);

    m_timeAxis->setFormat(QStringLiteral("HH:mm:ss"));
    m_timeAxis->setTickCount(4);
    m_timeAxis->setLabelsFont(small);
    m_yAxis->setLabelsFont(small);
    m_yAxis->setTitleText(valueLabel);
    m_yAxis->setTitleFont(small);
    m_yAxis->setRange(m_logAxis ? 1.0 : 0.0, m_valueFloor);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(now - 60'000), QDateTime::fromMSecsSinceEpoch(now));
    chart->addAxis(m_timeAxis, Qt::AlignBottom);
    chart->addAxis(m_yAxis, Qt::AlignLeft);

    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(220, 160);
}

int TimeSeriesChart::addSeries(const QString &name, const QColor &color, qreal width) {
    auto *series = new QLineSeries;
    series->setName(name);
    QPen pen(color);
    pen.setWidthF(width);
    series->setPen(pen);
    chart()->addSeries(series);
    series->attachAxis(m_timeAxis);
    series->attachAxis(m_yAxis);
    m_series.append(series);
    return int(m_series.size()) - 1;
}

void TimeSeriesChart::setPoints(int index, const QString &name, const QList<QPointF> &points) {
    QLineSeries *series = m_series.value(index);
    if (!series)
        return;
    if (series->name() != name)
        series->setName(name);
    const bool visible = !name.isEmpty();
    series->setVisible(visible);
    const auto markers = chart()->legend()->markers(series);
    for (QLegendMarker *marker : markers)
        marker->setVisible(visible);
    series->replace(points);
}

double TimeSeriesChart::valueMax() const {
    double max = 0;
    const qint64 from = m_timeAxis->min().toMSecsSinceEpoch();
    for (const QLineSeries *series : m_series) {
        if (!series->isVisible())
            continue;
        const QList<QPointF> points = series->points();
        for (const QPointF &p : points) {
            if (p.x() >= double(from))
                max = std::max(max, p.y());
        }
    }
    return max;
}

void TimeSeriesChart::setTimeRange(qint64 fromMs, qint64 toMs) {
    m_timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(fromMs), QDateTime::fromMSecsSinceEpoch(toMs));
    if (m_logAxis) {
        // Whole decades: 1 ms to the next power of ten above the largest value.
        const double top = std::pow(10.0, std::ceil(std::log10(std::max({m_valueFloor, valueMax(), 10.0}))));
        if (!qFuzzyCompare(m_logAxis->max(), top))
            m_logAxis->setRange(1, top);
        return;
    }
    const double top = niceCeiling(std::max(m_valueFloor, valueMax() * 1.1));
    if (!qFuzzyCompare(m_valueAxis->max(), top))
        m_valueAxis->setRange(0, top);
}

} // namespace ui
