#pragma once

#include "crawlfiles/crawlfileinfo.h"
#include "jobs/workerthread.h"
#include "model/crawlresult.h"

#include <QList>
#include <QMutex>
#include <QObject>
#include <QWaitCondition>

namespace ui {

// File > Open Crawl: reads a crawl file's committed rows on a worker thread, a page at a time (the
// store's rowsPage, in entry order), and hands them over in batches, so neither the disk nor a big
// crawl stalls the window; only what the results model keeps is held. One job at a time; a newer one
// cancels the last. (Save Crawl As of an opened crawl: CrawlFileCopier.)
class CrawlFileLoader : public QObject {
    Q_OBJECT
public:
    // A page's rows are full CrawlResults (~1 KB each with their strings) until the views take them: the
    // pages read ahead are what an opened crawl holds beyond its rows, so they are kept small. The window
    // takes ~4,000 rows a turn; the reader reads a page in a few ms.
    static constexpr int kPageRows = 2'500;

    explicit CrawlFileLoader(QObject *parent = nullptr);
    ~CrawlFileLoader() override;

    // Pages read but not yet taken by the consumer: the reader waits beyond this, so a 1M-row file is
    // not queued to the window faster than the window can show it.
    static constexpr qint64 kPagesAhead = 2;

    void load(const QString &path);
    // The consumer took `rows` of the loaded rows (into its views): the reader may read further.
    void rowsConsumed(qint64 rows);
    void cancel();
    bool isRunning() const { return m_worker.isRunning(); }

Q_SIGNALS:
    void rowsLoaded(const QList<crawl::CrawlResult> &rows);
    void progress(qint64 rowsRead, qint64 rowsTotal);
    // After the last batch: the file as read (its counts, state), or an error.
    void loaded(const ui::CrawlFileInfo &info);
    void failed(const QString &path, const QString &error);

private:
    WorkerThread m_worker;
    quint64 m_job = 0;
    QMutex m_flowMutex; // guards the two counts below, shared with the reading thread
    QWaitCondition m_flowChanged;
    qint64 m_rowsPosted = 0;   // rows this load handed over
    qint64 m_rowsConsumed = 0; // of which the consumer has taken this many
};

} // namespace ui
