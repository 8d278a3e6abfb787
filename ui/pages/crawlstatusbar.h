#pragma once

#include "model/crawlsnapshot.h"
#include "status/throughputmeter.h"

#include <QObject>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace ui {

// The permanent widgets of the window's status bar: crawl state, progress, smoothed rate, in flight,
// failures, elapsed time, ETA, and the progress of a background job (reading a list, exporting).
class CrawlStatusBar : public QObject {
    Q_OBJECT
public:
    explicit CrawlStatusBar(QStatusBar *bar);

    void addSnapshot(const crawl::CrawlSnapshot &snapshot, qint64 nowMs); // feeds the smoothed rate
    void update(const crawl::CrawlSnapshot &snapshot);
    void clear(); // a new crawl

    // A background job's progress: busy when `total` is 0.
    void showTask(const QString &format, qint64 done, qint64 total);
    void hideTask();

private:
    QStatusBar *m_bar;
    QLabel *m_stateLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_rateLabel = nullptr;
    QLabel *m_inFlightLabel = nullptr;
    QLabel *m_failuresLabel = nullptr;
    QLabel *m_elapsedLabel = nullptr;
    QLabel *m_etaLabel = nullptr;
    QProgressBar *m_taskProgress = nullptr;
    ThroughputMeter m_throughput;
};

} // namespace ui
