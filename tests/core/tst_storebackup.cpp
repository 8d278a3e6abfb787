// Save Crawl As of a live crawl (StoreBackup): the copy is made a few pages at a time on the store's own
// connection while results keep committing between the steps, and holds exactly the rows the store had
// when it completed; a cancelled or refused copy leaves no file and never touches an existing target.
#include "input/urlnormalizer.h"
#include "store/crawlstore.h"
#include "store/storebackup.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace crawl;

namespace {

constexpr qint64 kNow = 1'800'000'000'000;

QList<StoreInputLine> inputLines(int count, const QString &host) {
    QList<StoreInputLine> lines;
    for (int i = 1; i <= count; ++i) {
        const QString url = QStringLiteral("http://%1/page/%2?padding=%3")
                                .arg(host)
                                .arg(i)
                                .arg(QString(200, QLatin1Char('x')));
        lines.append(storeInputLine(InputLine{i, url, normalizeUrl(url)}));
    }
    return lines;
}

// Finishes `count` due entries of `host` with ok results, in one commit.
int finishSome(CrawlStore &store, const QString &hostKey, int count) {
    const QList<PendingEntry> chunk = store.nextChunkForHost(hostKey, count, kNow);
    QList<qint64> ids;
    for (const PendingEntry &e : chunk)
        ids.append(e.id);
    if (store.markInFlight(ids, QStringLiteral("test"), kNow + 60'000) != ids.size())
        return -1;
    ResultBatch batch;
    for (const PendingEntry &e : chunk) {
        CrawlResult r;
        r.status = 200;
        r.outcome = Outcome::Ok;
        r.attempts = 1;
        r.latencyMs = 10;
        r.title = QString(300, QLatin1Char('t')); // rows big enough to span many pages
        batch.started.append(e.id);
        batch.finished.append({e.id, r});
    }
    return store.recordResults(batch) ? int(chunk.size()) : -1;
}

QList<CrawlResult> finishedRows(const QString &path) {
    StoreError error;
    StoreOptions options;
    options.readOnly = true;
    std::unique_ptr<CrawlStore> store = CrawlStore::open(path, &error, options);
    if (!store) {
        qWarning("%s", qPrintable(error.message));
        return {};
    }
    return store->rowsPage(0, 100'000, RowFilter::Finished);
}

// The copy's temporary files beside `target` ("<target>.partial-XXXXXX" and its SQLite side files).
QStringList partialFiles(const QString &target) {
    const QFileInfo info(target);
    return info.dir().entryList({info.fileName() + QStringLiteral(".partial-*")}, QDir::Files | QDir::Hidden);
}

} // namespace

class TestStoreBackup : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void copiesStepwiseWhileResultsCommit() {
        QTemporaryDir dir;
        StoreError error;
        std::unique_ptr<CrawlStore> store =
            CrawlStore::create(dir.filePath(QStringLiteral("live.crawl")), {}, &error);
        QVERIFY2(store, qPrintable(error.message));
        const QString host = QStringLiteral("a.example");
        QVERIFY(store->appendInput(inputLines(2'000, host), kNow));
        QCOMPARE(finishSome(*store, host + QStringLiteral(":80"), 500), 500);

        const QString target = dir.filePath(QStringLiteral("copy.crawl"));
        QString message;
        std::unique_ptr<StoreBackup> backup = store->startBackup(target, &message);
        QVERIFY2(backup, qPrintable(message));
        int steps = 0;
        int committedDuring = 0;
        StoreBackup::Step step = StoreBackup::Step::More;
        while (step == StoreBackup::Step::More) {
            step = backup->step(8);
            ++steps;
            // Only the partial file until the copy is complete.
            QCOMPARE(QFile::exists(target), step == StoreBackup::Step::Done);
            if (step == StoreBackup::Step::More && steps % 3 == 0) {
                const int n = finishSome(*store, host + QStringLiteral(":80"), 20);
                QVERIFY(n >= 0);
                committedDuring += n;
            }
            QVERIFY(steps < 100'000);
        }
        QCOMPARE(step, StoreBackup::Step::Done);
        QVERIFY2(steps > 10, qPrintable(QString::number(steps))); // really step-wise
        QVERIFY(committedDuring > 0);
        QCOMPARE(backup->pagesCopied(), backup->pagesTotal());
        QCOMPARE(partialFiles(target), QStringList());

        // The copy holds what the store held when the copy completed: every row, the ones committed
        // during the copy included.
        const QList<CrawlResult> copied = finishedRows(target);
        const QList<CrawlResult> source = store->rowsPage(0, 100'000, RowFilter::Finished);
        QCOMPARE(copied.size(), 500 + committedDuring);
        QCOMPARE(copied.size(), source.size());
        for (qsizetype i = 0; i < copied.size(); ++i) {
            QCOMPARE(copied[i].url, source[i].url);
            QCOMPARE(copied[i].title, source[i].title);
        }
    }

    void cancelLeavesNoFileAndKeepsTheTarget() {
        QTemporaryDir dir;
        StoreError error;
        std::unique_ptr<CrawlStore> store =
            CrawlStore::create(dir.filePath(QStringLiteral("live.crawl")), {}, &error);
        QVERIFY2(store, qPrintable(error.message));
        QVERIFY(store->appendInput(inputLines(1'000, QStringLiteral("b.example")), kNow));
        const QString target = dir.filePath(QStringLiteral("existing.crawl"));
        {
            QFile file(target);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("the user's older copy");
        }
        QString message;
        std::unique_ptr<StoreBackup> backup = store->startBackup(target, &message);
        QVERIFY2(backup, qPrintable(message));
        QCOMPARE(backup->step(2), StoreBackup::Step::More);
        QVERIFY(!partialFiles(target).isEmpty()); // the copy and its SQLite journal
        backup.reset();                           // cancelled
        QCOMPARE(partialFiles(target), QStringList());
        QFile file(target);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("the user's older copy"));
    }

    void refusesDevicesAndItself() {
        QTemporaryDir dir;
        StoreError error;
        const QString path = dir.filePath(QStringLiteral("live.crawl"));
        std::unique_ptr<CrawlStore> store = CrawlStore::create(path, {}, &error);
        QVERIFY2(store, qPrintable(error.message));
        QString message;
        QVERIFY(!store->startBackup(QStringLiteral("/dev/null"), &message));
        QVERIFY2(message.contains(QLatin1String("not a regular file")), qPrintable(message));
        message.clear();
        QVERIFY(!store->startBackup(path, &message));
        QVERIFY2(message.contains(QLatin1String("itself")), qPrintable(message));
        QVERIFY(!store->startBackup(dir.path(), &message)); // a folder
    }
};

QTEST_GUILESS_MAIN(TestStoreBackup)
#include "tst_storebackup.moc"
