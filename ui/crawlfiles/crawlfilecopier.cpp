#include "crawlfiles/crawlfilecopier.h"

#include "store/crawlstore.h"
#include "store/storebackup.h"

#include <QDeadlineTimer>
#include <QThread>

#include <algorithm>

namespace ui {

CrawlFileCopier::CrawlFileCopier(QObject *parent)
    : QObject(parent) {}

CrawlFileCopier::~CrawlFileCopier() {
    abandon(); // here, not in the member's destructor: queued calls must find a whole copier
}

void CrawlFileCopier::setStep(int pagesPerStep, int pauseMs) {
    m_pagesPerStep = std::max(1, pagesPerStep);
    m_pauseMs = std::max(0, pauseMs);
}

void CrawlFileCopier::cancel() {
    if (m_stop)
        m_stop->store(true);
}

void CrawlFileCopier::abandon() {
    ++m_job; // what the stopped copy posted is dropped
    if (m_stop)
        m_stop->store(true);
    m_worker.cancel();
    m_stop.reset();
    m_source.clear();
    m_target.clear();
}

void CrawlFileCopier::copy(const QString &path, const QString &target) {
    if (m_worker.isRunning()) {
        // Starting over would throw away a copy the user is waiting for.
        const QString error = QStringLiteral("a copy of the crawl to %1 is still being saved").arg(m_target);
        QMetaObject::invokeMethod(
            this, [this, target, error] { Q_EMIT copied(false, target, error); }, Qt::QueuedConnection);
        return;
    }
    const quint64 job = ++m_job;
    m_source = path;
    m_target = target;
    m_stop = std::make_shared<std::atomic_bool>(false);
    const bool started = m_worker.start(
        QStringLiteral("crawl file copy"), [this, path, target, job, stop = m_stop, pages = m_pagesPerStep,
                                            pauseMs = m_pauseMs](const std::atomic_bool &cancelled) {
            const auto stopping = [&cancelled, &stop] { return cancelled.load() || stop->load(); };
            const auto post = [this, job](auto call) {
                QMetaObject::invokeMethod(
                    this,
                    [this, job, call] {
                        if (job == m_job)
                            call();
                    },
                    Qt::QueuedConnection);
            };
            // Posted last, after the copy's files are settled (renamed, or removed): the window may look at
            // once.
            const auto finish = [this, post, target](bool ok, const QString &error) {
                post([this, ok, target, error] {
                    m_worker.finish();
                    m_stop.reset();
                    m_source.clear();
                    m_target.clear();
                    Q_EMIT copied(ok, target, error);
                });
            };
            crawl::StoreError storeError;
            crawl::StoreOptions options;
            options.readOnly = true; // the crawl file is only read: it stays byte for byte as it was
            std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &storeError, options);
            if (!store) {
                finish(false, storeError.message);
                return;
            }
            QString error;
            std::unique_ptr<crawl::StoreBackup> backup = store->startBackup(target, &error);
            if (!backup) {
                finish(false, error);
                return;
            }
            int shownPercent = -1; // progress is posted when the percentage moves, not for every step
            crawl::StoreBackup::Step step = crawl::StoreBackup::Step::More;
            while (step == crawl::StoreBackup::Step::More) {
                if (stopping()) {
                    backup.reset(); // removes the partial copy; the target is untouched
                    finish(false, QStringLiteral("saving the copy was cancelled"));
                    return;
                }
                step = backup->step(pages);
                const qint64 done = backup->pagesCopied();
                const qint64 total = backup->pagesTotal();
                const int percent = total > 0 ? int(done * 100 / total) : 0;
                if (percent != shownPercent) {
                    shownPercent = percent;
                    post([this, done, total] { Q_EMIT progress(done, total); });
                }
                if (step == crawl::StoreBackup::Step::More && pauseMs > 0) {
                    const QDeadlineTimer pause(pauseMs);
                    while (!pause.hasExpired() && !stopping())
                        QThread::msleep(std::clamp<qint64>(pause.remainingTime(), 1, 5));
                }
            }
            const QString failure = backup->error();
            backup.reset();
            finish(step == crawl::StoreBackup::Step::Done, failure);
        });
    if (!started) { // no thread: nothing was written; say why, as the job would have
        m_stop.reset();
        m_source.clear();
        m_target.clear();
        QMetaObject::invokeMethod(
            this, [this, target] { Q_EMIT copied(false, target, WorkerThread::cannotStartReason()); },
            Qt::QueuedConnection);
    }
}

} // namespace ui
