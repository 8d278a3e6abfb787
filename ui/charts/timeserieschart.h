#pragma once

#include <QChartView>
#include <QList>
#include <QPointF>

class QDateTimeAxis;
class QLineSeries;
class QAbstractAxis;
class QLogValueAxis;
class QValueAxis;

namespace ui {

// A chart of a few lines over wall-clock time. It holds no history itself: the owner keeps ring
// buffers and calls setPoints() a few times a second, which is one replace() per series (append() would
// re-lay out the path for every point). Animations are off.
class TimeSeriesChart : public QChartView {
    Q_OBJECT
public:
    enum class Scale { Linear, Logarithmic };
    TimeSeriesChart(const QString &title, const QString &valueLabel, Scale scale = Scale::Linear,
                    QWidget *parent = nullptr);

    int addSeries(const QString &name, const QColor &color, qreal width = 2.0);
    int seriesCount() const { return int(m_series.size()); }
    // x: epoch milliseconds. An empty name hides the series from the legend.
    void setPoints(int series, const QString &name, const QList<QPointF> &points);
    void setTimeRange(qint64 fromMs, qint64 toMs);
    void setValueFloor(double max) { m_valueFloor = max; } // the y axis never shrinks below this
    double valueMax() const;

private:
    QList<QLineSeries *> m_series;
    QDateTimeAxis *m_timeAxis;
    QValueAxis *m_valueAxis = nullptr;  // linear scale
    QLogValueAxis *m_logAxis = nullptr; // logarithmic scale (latencies span 1 ms to seconds)
    QAbstractAxis *m_yAxis;
    double m_valueFloor = 1.0;
};

} // namespace ui
