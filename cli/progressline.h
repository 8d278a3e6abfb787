#pragma once

#include "model/crawlsnapshot.h"

#include <QObject>
#include <QString>
#include <QTimer>

namespace crawl {

// The progress line on standard error: about once a second while the crawl runs, and once at the end,
// from the latest snapshot the engine published. Silent with --quiet.
class ProgressLine : public QObject {
    Q_OBJECT
public:
    explicit ProgressLine(bool quiet, QObject *parent = nullptr);

    void start();
    void update(const CrawlSnapshot &snapshot) { m_latest = snapshot; }
    void finish(const CrawlSnapshot &last); // stops the timer, prints the final line

    // "[1m05s] 120/400 (30.0%)  12.5/s  in-flight 8  queued 272  failed 3  retries 1  ETA 22s"
    static QString format(const CrawlSnapshot &snapshot);

private:
    bool m_quiet;
    CrawlSnapshot m_latest;
    QTimer m_timer;
};

} // namespace crawl
