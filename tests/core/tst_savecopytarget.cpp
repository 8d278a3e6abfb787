// Save Crawl As targets (SaveCopyTarget): the pure refusal over resolved paths, the resolution (links
// followed, absent files in a linked folder), and the store's one copy (StoreBackup), from a live crawl's
// connection and from an opened crawl's read-only one, refusing the crawl's own SQLite files and its input
// list and leaving a user's own "<target>.partial" alone.
#include "frontier/crawljournal.h"
#include "store/crawlstore.h"
#include "store/savecopytarget.h"
#include "store/storebackup.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace crawl;

namespace {

QByteArray contents(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

bool writeFile(const QString &path, const QByteArray &data) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

SaveCopyTarget paths(const QString &target, bool exists = false, bool isFile = false) {
    SaveCopyTarget p;
    p.source = QStringLiteral("/data/run.crawl");
    p.inputList = QStringLiteral("/data/urls.txt");
    p.target = target;
    p.targetExists = exists;
    p.targetIsFile = isFile;
    return p;
}

} // namespace

Q_DECLARE_METATYPE(crawl::SaveCopyTarget)

class TestSaveCopyTarget : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void refusal_data() {
        QTest::addColumn<SaveCopyTarget>("paths");
        QTest::addColumn<QString>("reason"); // a word the message must hold; empty: accepted
        QTest::newRow("new file") << paths(QStringLiteral("/data/copy.crawl")) << QString();
        QTest::newRow("existing file") << paths(QStringLiteral("/data/old.crawl"), true, true) << QString();
        QTest::newRow("folder") << paths(QStringLiteral("/data"), true, false)
                                << QStringLiteral("not a regular file");
        QTest::newRow("itself") << paths(QStringLiteral("/data/run.crawl"), true, true)
                                << QStringLiteral("itself");
        QTest::newRow("wal") << paths(QStringLiteral("/data/run.crawl-wal"), true, true)
                             << QStringLiteral("SQLite");
        QTest::newRow("shm") << paths(QStringLiteral("/data/run.crawl-shm"), true, true)
                             << QStringLiteral("SQLite");
        QTest::newRow("journal, absent")
            << paths(QStringLiteral("/data/run.crawl-journal")) << QStringLiteral("SQLite");
        QTest::newRow("input list") << paths(QStringLiteral("/data/urls.txt"), true, true)
                                    << QStringLiteral("list");
        QTest::newRow("another crawl's wal")
            << paths(QStringLiteral("/data/other.crawl-wal"), true, true) << QString();
        QTest::newRow("no target") << paths(QString()) << QStringLiteral("no file");
        SaveCopyTarget noList = paths(QString());
        noList.inputList.clear();
        noList.target = QStringLiteral("/data/copy.crawl");
        QTest::newRow("unknown input list") << noList << QString();
    }

    void refusal() {
        QFETCH(SaveCopyTarget, paths);
        QFETCH(QString, reason);
        const QString message = SaveCopyTarget::refusal(paths, QStringLiteral("SHOWN"));
        if (reason.isEmpty()) {
            QVERIFY2(message.isEmpty(), qPrintable(message));
        } else {
            QVERIFY2(message.contains(reason), qPrintable(message));
            QVERIFY2(paths.target.isEmpty() || message.contains(QLatin1String("SHOWN")), qPrintable(message));
        }
    }

    // A link to the crawl, or a linked folder holding its journal, is still the crawl.
    void resolveFollowsLinks() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString source = dir.filePath(QStringLiteral("run.crawl"));
        QVERIFY(writeFile(source, "crawl"));
        QVERIFY(QFile::link(source, dir.filePath(QStringLiteral("alias.crawl"))));
        QVERIFY(QFile::link(dir.path(), dir.filePath(QStringLiteral("folder-link"))));
        const QString list = dir.filePath(QStringLiteral("urls.txt"));
        QVERIFY(writeFile(list, "http://127.0.0.1/\n"));

        const auto refusalFor = [&](const QString &target) {
            return SaveCopyTarget::refusal(SaveCopyTarget::resolve(source, target, list), target);
        };
        QVERIFY(refusalFor(dir.filePath(QStringLiteral("alias.crawl"))).contains(QLatin1String("itself")));
        QVERIFY(refusalFor(dir.filePath(QStringLiteral("folder-link/run.crawl-journal")))
                    .contains(QLatin1String("SQLite")));
        QVERIFY(
            refusalFor(dir.filePath(QStringLiteral("folder-link/urls.txt"))).contains(QLatin1String("list")));
        QCOMPARE(refusalFor(dir.filePath(QStringLiteral("folder-link/copy.crawl"))), QString());
    }

    void partialFilesAreNewAndLeaveTheUsersAlone() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("copy.crawl"));
        QVERIFY(writeFile(target + QStringLiteral(".partial"), "the user's own file"));
        QString error;
        const QString first = SaveCopyTarget::createPartialFile(target, &error);
        const QString second = SaveCopyTarget::createPartialFile(target, &error);
        QVERIFY2(!first.isEmpty() && !second.isEmpty(), qPrintable(error));
        QVERIFY(first != second);
        QCOMPARE(QFileInfo(first).size(), 0);
        QCOMPARE(QFileInfo(first).absolutePath(), QFileInfo(target).absolutePath()); // renamed, not copied
        QCOMPARE(contents(target + QStringLiteral(".partial")), QByteArray("the user's own file"));

        QVERIFY(SaveCopyTarget::createPartialFile(dir.filePath(QStringLiteral("missing/copy.crawl")), &error)
                    .isEmpty());
        QVERIFY2(error.contains(QLatin1String("missing")), qPrintable(error));
    }

    // Both copy paths of a real store (the live crawl's connection, an opened crawl's read-only one): the
    // live -wal, the input list refused, their bytes untouched; an existing "<target>.partial" survives a
    // successful copy.
    void storeCopiesRefuseItsOwnFiles() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString list = dir.filePath(QStringLiteral("urls.txt"));
        QVERIFY(writeFile(list, "http://127.0.0.1:1/a\n"));
        const QString path = dir.filePath(QStringLiteral("live.crawl"));
        StoreError storeError;
        std::unique_ptr<CrawlStore> store =
            CrawlStore::create(path, {{journalkey::inputPath, list}}, &storeError);
        QVERIFY2(store, qPrintable(storeError.message));
        QVERIFY(store->setSettings({{QStringLiteral("test.key"), QStringLiteral("a write into the wal")}}));
        const QString wal = path + QStringLiteral("-wal");
        QVERIFY2(QFileInfo(wal).isFile(), "the store is expected to run in WAL mode");

        const auto copyAll = [](CrawlStore &source, const QString &target) -> QString {
            QString message;
            std::unique_ptr<StoreBackup> backup = source.startBackup(target, &message);
            if (!backup)
                return message;
            StoreBackup::Step step = StoreBackup::Step::More;
            for (int i = 0; i < 10'000 && step == StoreBackup::Step::More; ++i)
                step = backup->step(16);
            return step == StoreBackup::Step::Done ? QString()
                                                   : QStringLiteral("not done: ") + backup->error();
        };
        const auto refusals = [&](CrawlStore &source) {
            const bool walThere = QFileInfo::exists(wal);
            const QByteArray walBefore = contents(wal);
            QString message = copyAll(source, wal);
            QVERIFY2(message.contains(QLatin1String("SQLite")), qPrintable(message));
            QCOMPARE(QFileInfo::exists(wal), walThere);
            QCOMPARE(contents(wal), walBefore);
            message = copyAll(source, list);
            QVERIFY2(message.contains(QLatin1String("list")), qPrintable(message));
            QCOMPARE(contents(list), QByteArray("http://127.0.0.1:1/a\n"));
        };

        refusals(*store);
        if (QTest::currentTestFailed())
            return;
        const QString live = dir.filePath(QStringLiteral("live-copy.crawl"));
        QVERIFY(writeFile(live + QStringLiteral(".partial"), "keep me"));
        QString message = copyAll(*store, live);
        QVERIFY2(message.isEmpty(), qPrintable(message));

        // The crawl as Open Crawl reads it (closed, opened read-only): the same refusals.
        store.reset();
        StoreOptions readOnly;
        readOnly.readOnly = true;
        std::unique_ptr<CrawlStore> opened = CrawlStore::open(path, &storeError, readOnly);
        QVERIFY2(opened, qPrintable(storeError.message));
        refusals(*opened);
        if (QTest::currentTestFailed())
            return;
        const QString copy = dir.filePath(QStringLiteral("opened-copy.crawl"));
        QVERIFY(writeFile(copy + QStringLiteral(".partial"), "keep me too"));
        message = copyAll(*opened, copy);
        QVERIFY2(message.isEmpty(), qPrintable(message));
        opened.reset();

        for (const QString &target : {live, copy}) {
            std::unique_ptr<CrawlStore> reopened = CrawlStore::open(target, &storeError, readOnly);
            QVERIFY2(reopened, qPrintable(storeError.message));
            QCOMPARE(reopened->settings().value(QStringLiteral("test.key")),
                     QStringLiteral("a write into the wal"));
        }
        QCOMPARE(contents(live + QStringLiteral(".partial")), QByteArray("keep me"));
        QCOMPARE(contents(copy + QStringLiteral(".partial")), QByteArray("keep me too"));
        QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("*.partial-*")}, QDir::Files | QDir::Hidden),
                 QStringList());
    }
};

QTEST_GUILESS_MAIN(TestSaveCopyTarget)
#include "tst_savecopytarget.moc"
