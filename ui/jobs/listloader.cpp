#include "jobs/listloader.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QIODevice>
#include <QPointer>

namespace ui {

ListLoader::ListLoader(QObject *parent)
    : QObject(parent) {}

ListLoader::~ListLoader() {
    cancel(); // here, not in the member's destructor: queued calls must find a whole ListLoader
}

void ListLoader::cancel() {
    m_worker.cancel();
}

void ListLoader::load(const crawl::InputSource &source) {
    const quint64 job = ++m_job; // calls a cancelled scan posted before it ended are dropped
    const qint64 total = source.kind == crawl::InputSource::Kind::Text   ? source.text.size()
                         : source.kind == crawl::InputSource::Kind::File ? QFileInfo(source.path).size()
                                                                         : 0;
    const bool started = m_worker.start(
        QStringLiteral("list loader"), [this, source, job, total](const std::atomic_bool &cancelled) {
            QString error;
            std::unique_ptr<QIODevice> device = source.open(&error);
            if (!device) {
                QMetaObject::invokeMethod(
                    this,
                    [this, source, job, error] {
                        if (job != m_job)
                            return;
                        m_worker.finish();
                        Q_EMIT failed(source, error);
                    },
                    Qt::QueuedConnection);
                return;
            }
            QElapsedTimer sinceReport;
            sinceReport.start();
            const crawl::UrlListScan scan = crawl::scanUrlList(device.get(), 20, [&](qint64 bytes) {
                if (sinceReport.elapsed() >= 50) {
                    sinceReport.restart();
                    QMetaObject::invokeMethod(
                        this,
                        [this, job, bytes, total] {
                            if (job == m_job)
                                Q_EMIT progress(bytes, total);
                        },
                        Qt::QueuedConnection);
                }
                return !cancelled.load();
            });
            if (cancelled.load())
                return;
            QMetaObject::invokeMethod(
                this,
                [this, source, job, scan] {
                    if (job != m_job)
                        return;
                    m_worker.finish();
                    if (!scan.readError.isEmpty())
                        Q_EMIT failed(source, scan.readError);
                    else
                        Q_EMIT loaded(source, scan);
                },
                Qt::QueuedConnection);
        });
    if (!started) // no thread: say why, as the job would have
        QMetaObject::invokeMethod(
            this, [this, source] { Q_EMIT failed(source, WorkerThread::cannotStartReason()); },
            Qt::QueuedConnection);
}

} // namespace ui
