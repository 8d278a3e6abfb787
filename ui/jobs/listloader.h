#pragma once

#include "input/inputsource.h"
#include "input/urllistreader.h"
#include "jobs/workerthread.h"

#include <QObject>

namespace ui {

// Reads a URL list once on a worker thread (scanUrlList) for the summary shown after loading: valid,
// duplicates, invalid lines. The crawl itself streams the list again in the engine, so a big file never
// sits in the GUI's memory. A newer load() or the destructor cancels the running scan.
class ListLoader : public QObject {
    Q_OBJECT
public:
    explicit ListLoader(QObject *parent = nullptr);
    ~ListLoader() override;

    void load(const crawl::InputSource &source);
    void cancel();
    bool isRunning() const { return m_worker.isRunning(); }

Q_SIGNALS:
    void progress(qint64 bytesRead, qint64 bytesTotal); // total 0 when unknown
    void loaded(const crawl::InputSource &source, const crawl::UrlListScan &scan);
    void failed(const crawl::InputSource &source, const QString &error);

private:
    WorkerThread m_worker;
    quint64 m_job = 0;
};

} // namespace ui
