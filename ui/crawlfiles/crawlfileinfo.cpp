#include "crawlfiles/crawlfileinfo.h"

#include "frontier/crawljournal.h"
#include "store/crawlstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <memory>

namespace ui {

CrawlFileInfo CrawlFileInfo::read(const QString &path, int busyWaitMs) {
    CrawlFileInfo info;
    info.path = path;
    info.sizeBytes = QFileInfo(path).size() + QFileInfo(path + QStringLiteral("-wal")).size();
    crawl::StoreError error;
    crawl::StoreOptions options;
    options.readOnly = true;
    options.busyWaitMs = busyWaitMs;
    std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &error, options);
    if (!store) {
        info.busy = error.kind == crawl::StoreError::Kind::Busy;
        info.error = error.message;
        info.listName = QFileInfo(path).fileName();
        return info;
    }
    const QMap<QString, QString> settings = store->settings();
    const crawl::StoreCounts counts = store->counts();
    if (store->lastError().isError()) {
        info.busy = store->lastError().kind == crawl::StoreError::Kind::Busy;
        info.error = store->lastError().message;
    }
    info.listName = settings.value(kListName);
    if (info.listName.isEmpty())
        info.listName = QFileInfo(settings.value(crawl::journalkey::inputPath)).fileName();
    info.startedAt = QDateTime::fromString(settings.value(crawl::journalkey::createdAt), Qt::ISODate);
    info.done = counts.done;
    info.total = counts.rows();
    info.unfinished = counts.pending + counts.inFlight;
    info.inputComplete = settings.value(crawl::journalkey::inputComplete) == QLatin1String("1");
    info.ownerPid = settings.value(kOwnerPid).toLongLong();
    info.state = settings.value(kState);
    return info;
}

QList<CrawlFileInfo> CrawlFileInfo::scan(const QString &folder) {
    QList<CrawlFileInfo> files;
    const QFileInfoList entries =
        QDir(folder).entryInfoList({QStringLiteral("*.crawl")}, QDir::Files, QDir::Time);
    for (const QFileInfo &entry : entries)
        files.append(read(entry.absoluteFilePath()));
    return files;
}

bool CrawlFileInfo::wasInterrupted(const CrawlFileInfo &info, const std::function<bool(qint64)> &isAlive) {
    if (info.busy || !info.error.isEmpty() || info.state != kRunning || !info.isUnfinished())
        return false;
    return info.ownerPid <= 0 || !isAlive(info.ownerPid);
}

bool CrawlFileInfo::writeSettings(const QString &path, const QMap<QString, QString> &values, QString *error) {
    crawl::StoreError storeError;
    std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &storeError);
    if (!store) {
        *error = storeError.message;
        return false;
    }
    if (!store->setSettings(values)) {
        *error = store->lastError().message;
        return false;
    }
    return true;
}

bool CrawlFileInfo::remove(const QString &path, QString *error) {
    {
        // Opening it for writing takes the crawl's exclusive lock: a crawl another process runs is
        // refused here instead of being deleted under it.
        crawl::StoreError storeError;
        std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &storeError);
        if (!store && storeError.kind == crawl::StoreError::Kind::Busy) {
            *error = storeError.message;
            return false;
        }
    }
    QFile::remove(path + QStringLiteral("-wal"));
    QFile::remove(path + QStringLiteral("-shm"));
    if (QFile::exists(path) && !QFile::remove(path)) {
        *error = QStringLiteral("cannot delete %1").arg(QDir::toNativeSeparators(path));
        return false;
    }
    return true;
}

} // namespace ui
