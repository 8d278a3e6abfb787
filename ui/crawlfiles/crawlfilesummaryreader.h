#pragma once

#include "jobs/workerthread.h"
#include "model/crawlsnapshot.h"

#include <QObject>
#include <QString>

namespace ui {

// File > Open Crawl: reads an opened crawl's hosts and summary (CrawlFileSummary) on a worker thread,
// beside CrawlFileLoader's rows, so the Hosts tab and the status bar show the crawl without running it.
// One read at a time; a newer one (or cancel()) drops the last.
class CrawlFileSummaryReader : public QObject {
    Q_OBJECT
public:
    explicit CrawlFileSummaryReader(QObject *parent = nullptr);
    ~CrawlFileSummaryReader() override;

    void read(const QString &path);
    void cancel();

Q_SIGNALS:
    // `snapshot.hosts` holds the busiest `hostsShown` of the crawl's `hostsTotal` hosts.
    void summaryRead(const QString &path, const crawl::CrawlSnapshot &snapshot, qint64 hostsShown,
                     qint64 hostsTotal);
    void failed(const QString &path, const QString &error);

private:
    WorkerThread m_worker;
    quint64 m_job = 0;
};

} // namespace ui
