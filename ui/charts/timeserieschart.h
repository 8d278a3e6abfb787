#pragma once

#include "charts/chartmarker.h"

#include <QChartView>
#include <QList>
#include <QPointF>

class QDateTimeAxis;
class QGraphicsLineItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QAbstractAxis;
class QLogValueAxis;
class QValueAxis;

namespace ui {

// A chart of a few lines over wall-clock time. It holds no history itself: the owner keeps ring
// buffers and calls setSegments() a few times a second, which is one replace() per drawn piece (append()
// would re-lay out the path for every point). A line is a list of segments: where there was no data the
// line stops instead of bridging the gap with a diagonal. Animations are off.
class TimeSeriesChart : public QChartView {
    Q_OBJECT
public:
    using Segments = QList<QList<QPointF>>;
    enum class Scale { Linear, Logarithmic };
    TimeSeriesChart(const QString &title, const QString &valueLabel, Scale scale = Scale::Linear,
                    QWidget *parent = nullptr);

    // Lines are drawn in the order they are added: add the one that may be hidden last.
    int addSeries(const QString &name, const QColor &color, qreal width = 2.0,
                  Qt::PenStyle style = Qt::SolidLine);
    int seriesCount() const { return int(m_lines.size()); }
    // x: epoch milliseconds. An empty name hides the line and its legend entry.
    void setSegments(int line, const QString &name, const Segments &segments);
    void setPoints(int line, const QString &name, const QList<QPointF> &points) {
        setSegments(line, name, points.isEmpty() ? Segments{} : Segments{points});
    }
    void setColor(int line, const QColor &color);
    // The time axis covers [from, to] widened to round clock times, with at most `maxTicks` ticks
    // (0: as many as this chart's width holds). Charts side by side pass the same count to stay aligned.
    void setTimeRange(qint64 fromMs, qint64 toMs, int maxTicks = 0);
    int ticksForWidth() const;                                // about one "12:04:30" label per 75 px of plot
    void setValueFloor(double max) { m_valueFloor = max; }    // the y axis never shrinks below this
    void setValueUnit(const QString &unit) { m_unit = unit; } // appended to values in the readout
    // How far from a point the readout still shows its value (a bin's width).
    void setReadoutToleranceMs(qint64 ms) { m_toleranceMs = ms; }
    double valueMax() const;

    QString lineName(int line) const;
    QColor lineColor(int line) const;
    Segments segments(int line) const;
    // "12:04:31  p50 20 ms · p95 80 ms": each shown line's value nearest to `ms`, empty if none is close.
    QString readoutAt(qint64 ms) const;
    // Vertical lines across the plot at these moments (those outside the time range are not drawn).
    void setMarkers(const QList<ChartMarker> &markers);
    const QList<ChartMarker> &markers() const { return m_markers; }
    // The x position in the view of each marker drawn now (for tests and screenshots).
    QList<qreal> drawnMarkerPositions() const;
    // PNG (or anything QImage writes) by suffix; ".svg" as a vector drawing. False with a reason.
    bool saveImage(const QString &path, QString *error = nullptr);

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct Line {
        QString name;
        QPen pen;
        Segments data;
        QList<QLineSeries *> pieces; // pieces[0] carries the legend entry
    };
    void ensurePieces(int line, qsizetype count);
    void attach(QLineSeries *series);
    void showReadout(const QPointF &viewPos);
    void placeMarkers();
    void applyPalette();

    QList<Line> m_lines;
    QDateTimeAxis *m_timeAxis;
    QValueAxis *m_valueAxis = nullptr;  // linear scale
    QLogValueAxis *m_logAxis = nullptr; // logarithmic scale (latencies span 1 ms to seconds)
    QAbstractAxis *m_yAxis;
    QGraphicsSimpleTextItem *m_readout = nullptr;
    QGraphicsLineItem *m_cursor = nullptr;
    double m_valueFloor = 1.0;
    QString m_unit;
    qint64 m_toleranceMs = 1000;
    QList<ChartMarker> m_markers;
    QList<QGraphicsLineItem *> m_markerItems; // pooled: one per marker
};

} // namespace ui
