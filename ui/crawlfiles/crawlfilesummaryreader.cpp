#include "crawlfiles/crawlfilesummaryreader.h"

#include "crawlfiles/crawlfilesummary.h"
#include "frontier/crawljournal.h"
#include "store/crawlstore.h"
#include "store/storedcrawlconfig.h"

#include <QDateTime>

#include <memory>

namespace ui {

CrawlFileSummaryReader::CrawlFileSummaryReader(QObject *parent)
    : QObject(parent) {}

CrawlFileSummaryReader::~CrawlFileSummaryReader() {
    cancel(); // here, not in the member's destructor: queued calls must find a whole reader
}

void CrawlFileSummaryReader::cancel() {
    ++m_job;
    m_worker.cancel();
}

void CrawlFileSummaryReader::read(const QString &path) {
    const quint64 job = ++m_job; // calls a cancelled job posted before it ended are dropped
    const bool started = m_worker.start(
        QStringLiteral("crawl file summary"), [this, path, job](const std::atomic_bool &cancelled) {
            const auto post = [this, job](auto call) {
                QMetaObject::invokeMethod(
                    this,
                    [this, job, call] {
                        if (job != m_job)
                            return;
                        m_worker.finish();
                        call();
                    },
                    Qt::QueuedConnection);
            };
            const auto failWith = [&](const QString &message) {
                post([this, path, message] { Q_EMIT failed(path, message); });
            };
            crawl::StoreError error;
            crawl::StoreOptions options;
            options.readOnly = true;
            options.busyWaitMs = crawl::CrawlStore::kReaderBusyWaitMs; // the loader opens it beside us
            std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &error, options);
            if (!store)
                return failWith(error.message);
            const QMap<QString, QString> settings = store->settings();
            const auto config = crawl::StoredCrawlConfig::fromSettings(settings);
            CrawlFileSummary summary;
            summary.setCounts(store->counts(), store->outcomeCounts(),
                              settings.value(crawl::journalkey::inputComplete) == QLatin1String("1"));
            const QList<crawl::HostRecord> hosts = store->busiestHosts(CrawlFileSummary::kMaxHosts);
            summary.setHosts(hosts, store->hostCount(), config ? config->limits : crawl::CrawlLimits{},
                             QDateTime::currentMSecsSinceEpoch());
            if (store->lastError().isError())
                return failWith(store->lastError().message);
            store->forEachResultFact([&](const crawl::ResultFact &fact) {
                summary.addResult(fact);
                return !cancelled.load();
            });
            if (cancelled.load())
                return;
            if (store->lastError().isError())
                return failWith(store->lastError().message);
            post([this, path, snapshot = summary.snapshot(), shown = summary.hostsShown(),
                  total = summary.hostsTotal()] { Q_EMIT summaryRead(path, snapshot, shown, total); });
        });
    if (!started) // no thread: say why, as the job would have
        QMetaObject::invokeMethod(
            this, [this, path] { Q_EMIT failed(path, WorkerThread::cannotStartReason()); },
            Qt::QueuedConnection);
}

} // namespace ui
