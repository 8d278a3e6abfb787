#pragma once

#include "charts/ringbuffer.h"
#include "model/crawlsnapshot.h"

#include <QHash>
#include <QPointF>
#include <QTimer>
#include <QWidget>

namespace ui {

class TimeSeriesChart;

// The three live charts: in flight (total and the busiest hosts), latency percentiles, throughput and
// errors per second. Snapshots go into bounded ring buffers; a timer redraws at a few hertz over the
// last `windowSeconds`.
class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget *parent = nullptr);

    void addSnapshot(const crawl::CrawlSnapshot &snapshot, qint64 nowMs);
    void clear();
    void setWindowSeconds(int seconds);
    void flush(); // redraw now (the timer calls it; tests and screenshots may too)

    TimeSeriesChart *inFlightChart() const { return m_inFlight; }
    TimeSeriesChart *latencyChart() const { return m_latency; }
    TimeSeriesChart *throughputChart() const { return m_throughput; }

private:
    struct HostTrack {
        RingBuffer<QPointF> points;
        double weight = 0; // moving average of in-flight: picks the busiest hosts
        qint64 lastSeenMs = 0;
    };
    static constexpr int kBusiestHosts = 3;
    static constexpr int kTrackedHosts = 16;

    TimeSeriesChart *m_inFlight;
    TimeSeriesChart *m_latency;
    TimeSeriesChart *m_throughput;
    QTimer m_timer;
    int m_windowSeconds = 300;
    bool m_dirty = false;
    qint64 m_firstMs = 0;
    qint64 m_lastMs = 0;

    RingBuffer<QPointF> m_totalInFlight;
    RingBuffer<QPointF> m_p50, m_p95, m_p99;
    RingBuffer<QPointF> m_throughputPoints, m_errorPoints;
    QHash<QString, HostTrack> m_hosts;
    QStringList m_busiest;
};

} // namespace ui
