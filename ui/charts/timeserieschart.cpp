#include "charts/timeserieschart.h"

#include "charts/chartimage.h"
#include "charts/chartpalette.h"
#include "charts/niceaxis.h"

#include <QChart>
#include <QContextMenuEvent>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

// More pieces than this (a very choppy crawl) and the oldest gaps are bridged: the chart stays cheap.
constexpr qsizetype kMaxPieces = 64;

QString formatValue(double value) {
    const bool whole = std::abs(value - std::round(value)) < 0.05 || std::abs(value) >= 100;
    return QString::number(value, 'f', whole ? 0 : 1);
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
        const NiceAxis axis = niceAxis(0, m_valueFloor, 6);
        m_valueAxis->setLabelFormat(axis.labelFormat);
        m_valueAxis->setTickCount(axis.tickCount);
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

    m_cursor = new QGraphicsLineItem(chart);
    m_cursor->setPen(QPen(QColor(0x80, 0x80, 0x80), 1, Qt::DashLine));
    m_cursor->setZValue(20);
    m_cursor->hide();
    m_readout = new QGraphicsSimpleTextItem(chart);
    m_readout->setFont(small);
    m_readout->setZValue(21);
    m_readout->hide();

    setChart(chart);
    // Markers follow the time axis and the plot area (a resize, a new range).
    connect(chart, &QChart::plotAreaChanged, this, &TimeSeriesChart::placeMarkers);
    connect(m_timeAxis, &QDateTimeAxis::rangeChanged, this, &TimeSeriesChart::placeMarkers);
    applyPalette();
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(220, 160);
    setMouseTracking(true);
    viewport()->setMouseTracking(true); // the readout follows the mouse without a button held
}

void TimeSeriesChart::attach(QLineSeries *series) {
    chart()->addSeries(series);
    series->attachAxis(m_timeAxis);
    series->attachAxis(m_yAxis);
}

int TimeSeriesChart::addSeries(const QString &name, const QColor &color, qreal width, Qt::PenStyle style) {
    Line line;
    line.name = name;
    line.pen = QPen(color, width, style, Qt::FlatCap, Qt::RoundJoin);
    auto *first = new QLineSeries;
    first->setName(name);
    first->setPen(line.pen);
    line.pieces.append(first);
    m_lines.append(line);
    attach(first);
    return int(m_lines.size()) - 1;
}

void TimeSeriesChart::ensurePieces(int index, qsizetype count) {
    if (m_lines[index].pieces.size() >= count)
        return;
    // Series are drawn in the order they were added: to keep each line at its place in the stack, every
    // series is taken out and put back in line order (rare: only when a line needs more pieces).
    const bool last = index == m_lines.size() - 1;
    if (!last) {
        for (const Line &line : std::as_const(m_lines)) {
            for (QLineSeries *piece : line.pieces)
                chart()->removeSeries(piece);
        }
    }
    Line &grown = m_lines[index];
    const qsizetype target = std::min(kMaxPieces, count + 4);
    while (grown.pieces.size() < target) {
        auto *piece = new QLineSeries;
        piece->setPen(grown.pen);
        grown.pieces.append(piece);
        if (last)
            attach(piece);
    }
    if (!last) {
        for (const Line &line : std::as_const(m_lines)) {
            for (QLineSeries *piece : line.pieces)
                attach(piece);
        }
    }
    for (const Line &line : std::as_const(m_lines)) {
        for (qsizetype i = 0; i < line.pieces.size(); ++i) {
            const auto markers = chart()->legend()->markers(line.pieces[i]);
            for (QLegendMarker *marker : markers)
                marker->setVisible(i == 0 && !line.name.isEmpty());
        }
    }
}

void TimeSeriesChart::setSegments(int index, const QString &name, const Segments &segments) {
    if (index < 0 || index >= m_lines.size())
        return;
    Segments data = segments;
    data.removeIf([](const QList<QPointF> &segment) { return segment.isEmpty(); });
    if (data.size() > kMaxPieces) {
        const qsizetype merged = data.size() - kMaxPieces + 1;
        QList<QPointF> oldest;
        for (qsizetype i = 0; i < merged; ++i)
            oldest += data[i];
        data.remove(0, merged);
        data.prepend(oldest);
    }
    ensurePieces(index, data.size());
    Line &line = m_lines[index];
    line.name = name;
    line.data = data;
    const bool visible = !name.isEmpty();
    for (qsizetype i = 0; i < line.pieces.size(); ++i) {
        QLineSeries *piece = line.pieces[i];
        if (i == 0 && piece->name() != name)
            piece->setName(name);
        piece->setVisible(visible);
        const auto markers = chart()->legend()->markers(piece);
        for (QLegendMarker *marker : markers)
            marker->setVisible(visible && i == 0);
        piece->replace(i < data.size() ? data[i] : QList<QPointF>{});
    }
}

void TimeSeriesChart::setColor(int index, const QColor &color) {
    if (index < 0 || index >= m_lines.size() || m_lines[index].pen.color() == color)
        return;
    Line &line = m_lines[index];
    line.pen.setColor(color);
    for (QLineSeries *piece : std::as_const(line.pieces))
        piece->setPen(line.pen);
}

QString TimeSeriesChart::lineName(int line) const {
    return line >= 0 && line < m_lines.size() ? m_lines[line].name : QString();
}

QColor TimeSeriesChart::lineColor(int line) const {
    return line >= 0 && line < m_lines.size() ? m_lines[line].pen.color() : QColor();
}

TimeSeriesChart::Segments TimeSeriesChart::segments(int line) const {
    return line >= 0 && line < m_lines.size() ? m_lines[line].data : Segments{};
}

double TimeSeriesChart::valueMax() const {
    double max = 0;
    const double from = double(m_timeAxis->min().toMSecsSinceEpoch());
    for (const Line &line : m_lines) {
        if (line.name.isEmpty())
            continue;
        for (const QList<QPointF> &segment : line.data) {
            for (const QPointF &p : segment) {
                if (p.x() >= from)
                    max = std::max(max, p.y());
            }
        }
    }
    return max;
}

int TimeSeriesChart::ticksForWidth() const {
    // A narrow chart gets fewer ticks rather than cut labels.
    const qreal plotWidth = chart()->plotArea().width() > 0 ? chart()->plotArea().width() : width() * 0.8;
    return std::clamp(int(plotWidth / 75) + 1, 2, 6);
}

void TimeSeriesChart::setTimeRange(qint64 fromMs, qint64 toMs, int maxTicks) {
    // Ticks on round clock times ("12:04:30", not "12:04:19, 12:04:25, 12:04:32").
    const NiceTimeAxis time = niceTimeAxis(fromMs, toMs, maxTicks > 0 ? maxTicks : ticksForWidth());
    if (m_timeAxis->format() != time.format)
        m_timeAxis->setFormat(time.format);
    if (m_timeAxis->tickCount() != time.tickCount)
        m_timeAxis->setTickCount(time.tickCount);
    m_timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(time.fromMs),
                         QDateTime::fromMSecsSinceEpoch(time.toMs));
    if (m_logAxis) {
        // Whole decades: 1 ms to the next power of ten above the largest value.
        const double top = std::pow(10.0, std::ceil(std::log10(std::max({m_valueFloor, valueMax(), 10.0}))));
        if (!qFuzzyCompare(m_logAxis->max(), top))
            m_logAxis->setRange(1, top);
        return;
    }
    // A little headroom so the top line never runs along the frame.
    const NiceAxis axis = niceAxis(0, std::max(m_valueFloor, valueMax() * 1.05), 6);
    if (m_valueAxis->labelFormat() != axis.labelFormat)
        m_valueAxis->setLabelFormat(axis.labelFormat);
    if (m_valueAxis->tickCount() != axis.tickCount)
        m_valueAxis->setTickCount(axis.tickCount);
    if (!qFuzzyCompare(m_valueAxis->max(), axis.max) || !qFuzzyCompare(1 + m_valueAxis->min(), 1 + axis.min))
        m_valueAxis->setRange(axis.min, axis.max);
}

QString TimeSeriesChart::readoutAt(qint64 ms) const {
    QStringList parts;
    for (const Line &line : m_lines) {
        if (line.name.isEmpty())
            continue;
        const QPointF *nearest = nullptr;
        for (const QList<QPointF> &segment : line.data) {
            for (const QPointF &p : segment) {
                if (std::abs(p.x() - double(ms)) <= double(m_toleranceMs) &&
                    (!nearest || std::abs(p.x() - double(ms)) < std::abs(nearest->x() - double(ms))))
                    nearest = &p;
            }
        }
        if (nearest)
            parts.append(QStringLiteral("%1 %2%3").arg(line.name, formatValue(nearest->y()), m_unit));
    }
    if (parts.isEmpty())
        return {};
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss")) + QStringLiteral("  ") +
           parts.join(QStringLiteral(" · "));
}

void TimeSeriesChart::showReadout(const QPointF &viewPos) {
    const QPointF chartPos = chart()->mapFromScene(mapToScene(viewPos.toPoint()));
    const QRectF plot = chart()->plotArea();
    if (m_lines.isEmpty() || !plot.contains(chartPos)) {
        m_readout->hide();
        m_cursor->hide();
        return;
    }
    const qint64 ms = qint64(chart()->mapToValue(chartPos, m_lines[0].pieces[0]).x());
    const QString text = readoutAt(ms);
    m_cursor->setLine(chartPos.x(), plot.top(), chartPos.x(), plot.bottom());
    m_cursor->show();
    if (text.isEmpty()) {
        m_readout->hide();
        return;
    }
    m_readout->setText(text);
    // Beside the cursor, flipped to its left near the right edge.
    const QRectF box = m_readout->boundingRect();
    double x = chartPos.x() + 6;
    if (x + box.width() > plot.right())
        x = std::max(plot.left(), chartPos.x() - 6 - box.width());
    m_readout->setPos(x, plot.top() + 2);
    m_readout->show();
}

void TimeSeriesChart::mouseMoveEvent(QMouseEvent *event) {
    QChartView::mouseMoveEvent(event);
    showReadout(event->position());
}

void TimeSeriesChart::leaveEvent(QEvent *event) {
    m_readout->hide();
    m_cursor->hide();
    QChartView::leaveEvent(event);
}

void TimeSeriesChart::resizeEvent(QResizeEvent *event) {
    m_readout->hide();
    m_cursor->hide();
    QChartView::resizeEvent(event);
}

void TimeSeriesChart::changeEvent(QEvent *event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void TimeSeriesChart::applyPalette() {
    applyChartPalette(chart(), palette());
    m_readout->setBrush(palette().color(QPalette::Text));
}

void TimeSeriesChart::setMarkers(const QList<ChartMarker> &markers) {
    if (markers == m_markers)
        return;
    m_markers = markers;
    while (m_markerItems.size() < m_markers.size()) {
        auto *item = new QGraphicsLineItem(chart());
        item->setZValue(15); // over the lines, under the readout
        m_markerItems.append(item);
    }
    for (qsizetype i = 0; i < m_markerItems.size(); ++i) {
        if (i < m_markers.size()) {
            m_markerItems[i]->setPen(QPen(m_markers[i].color, 1.5, Qt::DashDotLine));
            m_markerItems[i]->setToolTip(m_markers[i].label);
        }
    }
    placeMarkers();
}

void TimeSeriesChart::placeMarkers() {
    const QRectF plot = chart()->plotArea();
    const qint64 from = m_timeAxis->min().toMSecsSinceEpoch();
    const qint64 to = m_timeAxis->max().toMSecsSinceEpoch();
    for (qsizetype i = 0; i < m_markerItems.size(); ++i) {
        QGraphicsLineItem *item = m_markerItems[i];
        if (i >= m_markers.size() || m_markers[i].atMs < from || m_markers[i].atMs > to || to <= from) {
            item->hide();
            continue;
        }
        const qreal x = plot.left() + plot.width() * qreal(m_markers[i].atMs - from) / qreal(to - from);
        item->setLine(x, plot.top(), x, plot.bottom());
        item->show();
    }
}

QList<qreal> TimeSeriesChart::drawnMarkerPositions() const {
    QList<qreal> positions;
    for (const QGraphicsLineItem *item : m_markerItems) {
        if (item->isVisible())
            positions.append(mapFromScene(item->mapToScene(item->line().p1())).x());
    }
    return positions;
}

void TimeSeriesChart::contextMenuEvent(QContextMenuEvent *event) {
    QMenu menu(this);
    menu.addAction(tr("Save Chart as PNG/SVG…"), this, [this] {
        m_readout->hide();
        m_cursor->hide();
        saveChartWithDialog(this);
    });
    menu.exec(event->globalPos());
}

bool TimeSeriesChart::saveImage(const QString &path, QString *error) {
    m_readout->hide();
    m_cursor->hide();
    return saveChartImage(this, path, error);
}

} // namespace ui
