#include "clusterstorewriter.h"

#include "store/crawlstore.h"

#include <QDateTime>
#include <QFile>

namespace crawl {

namespace {

constexpr int kPage = 5000;

StoreOptions optionsFor(StoreOptions::Sync sync) {
    StoreOptions options;
    options.sync = sync;
    return options;
}

} // namespace

ClusterStoreWriter::ClusterStoreWriter(QString path, std::unique_ptr<CrawlStore> store)
    : m_path(std::move(path))
    , m_store(std::move(store)) {}

ClusterStoreWriter::~ClusterStoreWriter() = default;

std::unique_ptr<ClusterStoreWriter> ClusterStoreWriter::create(const QString &path,
                                                               const QMap<QString, QString> &settings,
                                                               StoreOptions::Sync sync, QString *error) {
    StoreError storeError;
    std::unique_ptr<CrawlStore> store = CrawlStore::create(path, settings, &storeError, optionsFor(sync));
    if (!store) {
        *error = storeError.message;
        return nullptr;
    }
    return std::unique_ptr<ClusterStoreWriter>(new ClusterStoreWriter(path, std::move(store)));
}

std::unique_ptr<ClusterStoreWriter> ClusterStoreWriter::open(const QString &path, StoreOptions::Sync sync,
                                                             QString *error) {
    StoreError storeError;
    std::unique_ptr<CrawlStore> store = CrawlStore::open(path, &storeError, optionsFor(sync));
    if (!store) {
        *error = storeError.message;
        return nullptr;
    }
    std::unique_ptr<ClusterStoreWriter> writer(new ClusterStoreWriter(path, std::move(store)));
    writer->m_lastLine = writer->m_store->lastInputLine();
    if (!writer->mapUnfinished()) {
        *error = writer->m_error;
        return nullptr;
    }
    return writer;
}

bool ClusterStoreWriter::mapUnfinished() {
    for (;;) {
        const QList<CrawlResult> page = m_store->rowsPage(m_lastId, kPage, RowFilter::Unfinished);
        if (m_store->lastError().isError()) {
            m_error = m_store->lastError().message;
            return false;
        }
        for (const CrawlResult &row : page)
            m_unfinished.insert(row.url, qint64(row.id));
        if (!page.isEmpty())
            m_lastId = qint64(page.last().id);
        if (page.size() < kPage)
            return true;
    }
}

bool ClusterStoreWriter::append(const QList<InputLine> &lines) {
    QList<StoreInputLine> fresh;
    for (const InputLine &line : lines) {
        if (line.lineNumber > m_lastLine)
            fresh.append(storeInputLine(line));
    }
    if (fresh.isEmpty())
        return true;
    if (!m_store->appendInput(fresh, QDateTime::currentMSecsSinceEpoch())) {
        m_error = m_store->lastError().message;
        return false;
    }
    m_lastLine = fresh.last().lineNumber;
    return mapUnfinished();
}

bool ClusterStoreWriter::record(const QList<CrawlResult> &rows) {
    ResultBatch batch;
    for (const CrawlResult &row : rows) {
        const auto it = m_unfinished.constFind(row.url);
        if (it != m_unfinished.cend())
            batch.finished.append({*it, row});
    }
    if (batch.isEmpty())
        return true;
    if (!m_store->recordResults(batch)) {
        m_error = m_store->lastError().message;
        return false;
    }
    for (const ResultBatch::Finished &finished : std::as_const(batch.finished))
        m_unfinished.remove(finished.result.url);
    return true;
}

bool ClusterStoreWriter::setSetting(const QString &key, const QString &value) {
    if (!m_store->setSettings({{key, value}})) {
        m_error = m_store->lastError().message;
        return false;
    }
    return true;
}

void ClusterStoreWriter::discard() {
    m_store.reset();
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        QFile::remove(m_path + QLatin1String(suffix));
}

} // namespace crawl
