#include "crawlfiles/crawlfileloader.h"

#include "store/crawlstore.h"

#include <algorithm>
#include <memory>

namespace ui {

CrawlFileLoader::CrawlFileLoader(QObject *parent)
    : QObject(parent) {}

CrawlFileLoader::~CrawlFileLoader() {
    cancel(); // here, not in the member's destructor: queued calls must find a whole loader
}

void CrawlFileLoader::cancel() {
    m_worker.cancel();
}

void CrawlFileLoader::rowsConsumed(qint64 rows) {
    QMutexLocker lock(&m_flowMutex);
    m_rowsConsumed = std::min(m_rowsConsumed + rows, m_rowsPosted);
    m_flowChanged.wakeAll();
}

void CrawlFileLoader::load(const QString &path) {
    const quint64 job = ++m_job; // calls a cancelled job posted before it ended are dropped
    m_worker.cancel();           // before the counts are reset under a reader still waiting on them
    {
        QMutexLocker lock(&m_flowMutex);
        m_rowsPosted = m_rowsConsumed = 0;
    }
    const bool started = m_worker.start(
        QStringLiteral("crawl file loader"), [this, path, job](const std::atomic_bool &cancelled) {
            const auto post = [this, job](auto call) {
                QMetaObject::invokeMethod(
                    this,
                    [this, job, call] {
                        if (job == m_job)
                            call();
                    },
                    Qt::QueuedConnection);
            };
            // Waits out the summary reader's connection closing beside it (CrawlStore::kReaderBusyWaitMs).
            const CrawlFileInfo info = CrawlFileInfo::read(path, crawl::CrawlStore::kReaderBusyWaitMs);
            crawl::StoreError error;
            crawl::StoreOptions options;
            options.readOnly = true;
            options.busyWaitMs = crawl::CrawlStore::kReaderBusyWaitMs;
            std::unique_ptr<crawl::CrawlStore> store =
                info.error.isEmpty() ? crawl::CrawlStore::open(path, &error, options) : nullptr;
            if (!store) {
                const QString message = info.error.isEmpty() ? error.message : info.error;
                post([this, path, message] {
                    m_worker.finish();
                    Q_EMIT failed(path, message);
                });
                return;
            }
            qint64 afterId = 0;
            qint64 read = 0;
            while (!cancelled.load()) {
                {
                    // Backpressure: at most kPagesAhead pages wait for the consumer; the wait is short so a
                    // cancel is noticed.
                    QMutexLocker lock(&m_flowMutex);
                    while (!cancelled.load() && m_rowsPosted - m_rowsConsumed >= kPagesAhead * kPageRows)
                        m_flowChanged.wait(&m_flowMutex, 50);
                }
                if (cancelled.load())
                    break;
                const QList<crawl::CrawlResult> page =
                    store->rowsPage(afterId, kPageRows, crawl::RowFilter::Finished);
                if (store->lastError().isError()) {
                    const QString message = store->lastError().message;
                    post([this, path, message] {
                        m_worker.finish();
                        Q_EMIT failed(path, message);
                    });
                    return;
                }
                if (page.isEmpty())
                    break;
                afterId = qint64(page.last().id);
                read += page.size();
                {
                    QMutexLocker lock(&m_flowMutex);
                    m_rowsPosted += page.size();
                }
                post([this, page, read, total = info.done] {
                    Q_EMIT rowsLoaded(page);
                    Q_EMIT progress(read, total);
                });
            }
            if (cancelled.load())
                return;
            post([this, info] {
                m_worker.finish();
                Q_EMIT loaded(info);
            });
        });
    if (!started) // no thread: say why, as the job would have
        QMetaObject::invokeMethod(
            this, [this, path] { Q_EMIT failed(path, WorkerThread::cannotStartReason()); },
            Qt::QueuedConnection);
}

} // namespace ui
