#include "jobs/listloader.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QIODevice>
#include <QPointer>
#include <QThread>

namespace ui {

ListLoader::ListLoader(QObject *parent)
    : QObject(parent) {}

ListLoader::~ListLoader() {
    cancel();
}

void ListLoader::cancel() {
    if (!m_thread)
        return;
    m_cancel->store(true);
    finishThread();
}

void ListLoader::finishThread() {
    if (!m_thread)
        return;
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
}

void ListLoader::load(const crawl::InputSource &source) {
    cancel();
    const quint64 job = ++m_job;
    auto cancelFlag = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancelFlag;
    const qint64 total = source.kind == crawl::InputSource::Kind::Text   ? source.text.size()
                         : source.kind == crawl::InputSource::Kind::File ? QFileInfo(source.path).size()
                                                                         : 0;
    // The worker reports back by queued calls on `this`; the destructor cancels and joins first, so
    // `this` outlives every call the worker posts.
    m_thread = QThread::create([this, source, job, total, cancelFlag] {
        QString error;
        std::unique_ptr<QIODevice> device = source.open(&error);
        if (!device) {
            QMetaObject::invokeMethod(
                this,
                [this, source, job, error] {
                    if (job != m_job)
                        return;
                    finishThread();
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
            return !cancelFlag->load();
        });
        if (cancelFlag->load())
            return;
        QMetaObject::invokeMethod(
            this,
            [this, source, job, scan] {
                if (job != m_job)
                    return;
                finishThread();
                if (!scan.readError.isEmpty())
                    Q_EMIT failed(source, scan.readError);
                else
                    Q_EMIT loaded(source, scan);
            },
            Qt::QueuedConnection);
    });
    m_thread->setObjectName(QStringLiteral("list loader"));
    m_thread->start();
}

} // namespace ui
