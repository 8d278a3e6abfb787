#pragma once

#include "crawlfiles/crawlfileinfo.h"
#include "jobs/workerthread.h"
#include "model/crawlresult.h"

#include <QList>
#include <QObject>

namespace ui {

// File > Open Crawl: reads a crawl file's committed rows on a worker thread, a page at a time (the
// store's rowsPage, in entry order), and hands them over in batches, so neither the disk nor a big
// crawl stalls the window; only what the results model keeps is held. Also copies a crawl file that no
// engine has open (Save Crawl As of an opened crawl). One job at a time; a newer one cancels the last.
class CrawlFileLoader : public QObject {
    Q_OBJECT
public:
    static constexpr int kPageRows = 5'000;

    explicit CrawlFileLoader(QObject *parent = nullptr);
    ~CrawlFileLoader() override;

    void load(const QString &path);
    void copy(const QString &path, const QString &target);
    void cancel();
    bool isRunning() const { return m_worker.isRunning(); }

Q_SIGNALS:
    void rowsLoaded(const QList<crawl::CrawlResult> &rows);
    void progress(qint64 rowsRead, qint64 rowsTotal);
    // After the last batch: the file as read (its counts, state), or an error.
    void loaded(const ui::CrawlFileInfo &info);
    void failed(const QString &path, const QString &error);
    void copied(bool ok, const QString &target, const QString &error);

private:
    WorkerThread m_worker;
    quint64 m_job = 0;
};

} // namespace ui
