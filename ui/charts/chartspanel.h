#pragma once

#include "charts/chartbin.h"
#include "charts/chartmarker.h"
#include "charts/hostpalette.h"
#include "charts/resultbreakdown.h"
#include "charts/ringbuffer.h"
#include "charts/snapshotbinner.h"
#include "model/crawlsnapshot.h"

#include <QHash>
#include <QStringList>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QTabWidget;
class QToolButton;

namespace ui {

class DistributionCharts;
class TimeSeriesChart;

// "Over time": three live charts: in flight (all hosts, and chosen hosts on their own), latency
// percentiles, results and failures per second. "Distribution": response times and status classes of the
// finished URLs. Snapshots are binned into one-second windows kept in a ring buffer;
// a timer redraws at a few hertz over the last `windowSeconds`. Paused and idle windows are gaps.
class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxHostLines = 10;
    static constexpr int kMaxMarkers = 100;

    explicit ChartsPanel(QWidget *parent = nullptr);

    void addSnapshot(const crawl::CrawlSnapshot &snapshot, qint64 nowMs);
    // Finished URLs for the distribution charts; a retried URL's earlier result is removed first.
    void addResults(const QList<crawl::CrawlResult> &results);
    void removeResult(const crawl::CrawlResult &result);
    void clear();
    void setWindowSeconds(int seconds);
    void setSmoothing(bool on);
    // The in-flight chart shows the `count` busiest hosts of the window, unless hosts were picked.
    void setBusiestCount(int count);
    void setPickedHosts(const QStringList &hosts); // empty: back to the busiest
    QStringList shownHosts() const { return m_shown; }
    // A moment to mark on the three time charts (a breaker trip or recovery); the newest kMaxMarkers stay.
    void addMarker(const ChartMarker &marker);
    const QList<ChartMarker> &markers() const { return m_markers; }
    // Labels shown beside host names in the legend and the host picker ("127.0.0.3:4242 · slow").
    void setHostLabels(const QHash<QString, QString> &labels);
    QString hostTitle(const QString &host) const;
    void flush(); // redraw now (the timer calls it; tests and screenshots may too)

    // The colours of the host lines; the Hosts table shows the same colour beside each host.
    HostPalette *hostPalette() { return &m_palette; }
    TimeSeriesChart *inFlightChart() const { return m_inFlight; }
    TimeSeriesChart *latencyChart() const { return m_latency; }
    TimeSeriesChart *throughputChart() const { return m_throughput; }
    QToolButton *hostPicker() const { return m_hostPicker; }
    DistributionCharts *distributionCharts() const { return m_distribution; }
    QTabWidget *pages() const { return m_pages; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    QList<ChartBin> visibleBins() const;
    QStringList hostsByActivity(const QList<ChartBin> &bins) const;
    void fillHostMenu();
    void updatePickerText();

    TimeSeriesChart *m_inFlight;
    TimeSeriesChart *m_latency;
    TimeSeriesChart *m_throughput;
    DistributionCharts *m_distribution;
    QTabWidget *m_pages;
    QToolButton *m_hostPicker;
    QCheckBox *m_smooth;
    QTimer m_timer;
    int m_windowSeconds = 300;
    int m_busiestCount = 5;
    bool m_dirty = false;
    qint64 m_firstMs = 0;
    qint64 m_lastMs = 0;

    SnapshotBinner m_binner;
    RingBuffer<ChartBin> m_bins;
    HostPalette m_palette;
    ResultBreakdown m_breakdown;
    bool m_breakdownDirty = false;
    QStringList m_picked; // chosen by the user; empty: the busiest
    QStringList m_shown;  // drawn at the last flush
    QList<ChartMarker> m_markers;
    QHash<QString, QString> m_hostLabels;
};

} // namespace ui
