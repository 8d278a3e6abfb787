// Issue 11's command-line leftovers, run as a real process: --resume refuses a list file that changed
// since the crawl started (the unread lines would be read by line number from the other file), unless
// --input-changed ok; a temporary journal left by a crawl killed with SIGKILL is deleted by the next one.
#include "clitestsupport.h"
#include "frontier/temporaryjournals.h"
#include "input/inputfingerprint.h"
#include "testsite.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace clitest;

class TestCliResumeInput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fingerprintNamesWhatChanged() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(path, numberedLines("http://127.0.0.1:1/p", 10'000)));
        QString error;
        const auto then = crawl::InputFingerprint::ofFile(path, &error);
        QVERIFY2(then, qPrintable(error));
        const auto parsed = crawl::InputFingerprint::fromString(then->toString());
        QVERIFY(parsed);
        QVERIFY(crawl::InputFingerprint::differences(*then, *parsed).isEmpty());
        QVERIFY(!crawl::InputFingerprint::fromString(QStringLiteral("size=1;mtime=x;sha256=00")));

        // Same size, same time, one byte changed in the middle of the head: the content differs.
        QByteArray bytes = readFile(path);
        bytes[100] = bytes[100] == '1' ? '2' : '1';
        QVERIFY(writeFile(path, bytes));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::fromMSecsSinceEpoch(then->modifiedMs),
                                 QFileDevice::FileModificationTime));
        file.close();
        const auto now = crawl::InputFingerprint::ofFile(path, &error);
        QVERIFY(now);
        QCOMPARE(crawl::InputFingerprint::differences(*then, *now), QStringLiteral("content"));
        QVERIFY(!crawl::InputFingerprint::ofFile(dir.filePath(QStringLiteral("missing")), &error));
        QVERIFY(error.contains(QStringLiteral("missing")));
    }

    void resumeRefusesChangedInput() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString store = dir.filePath(QStringLiteral("crawl.db"));
        QVERIFY(writeFile(list, site.urlList(host, 5, QStringLiteral("/p%1"))));
        Run run =
            runCli(quickFlags() + QStringList{QStringLiteral("--quiet"), QStringLiteral("--input"), list,
                                              QStringLiteral("--store"), store, QStringLiteral("--output"),
                                              dir.filePath(QStringLiteral("first.csv"))});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());

        // Unchanged: the resume goes ahead.
        const QStringList resume{QStringLiteral("--headless"), QStringLiteral("--quiet"),
                                 QStringLiteral("--resume"),   store,
                                 QStringLiteral("--output"),   dir.filePath(QStringLiteral("again.csv"))};
        run = runCli(resume);
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());

        // An edited list (a line appended): refused with exit 2, the file named, the way out named.
        QFile file(list);
        QVERIFY(file.open(QIODevice::Append));
        file.write((site.baseUrl(host) + QStringLiteral("/extra\n")).toUtf8());
        file.close();
        const qint64 requestsBefore = site.totalRequests();
        run = runCli(resume);
        QVERIFY(run.finished);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("changed since the crawl started") && run.err.contains(list.toUtf8()) &&
                     run.err.contains("--input-changed ok"),
                 run.err.constData());
        QCOMPARE(site.totalRequests(), requestsBefore); // refused before anything was fetched

        // Accepted when the user says so.
        run = runCli(resume + QStringList{QStringLiteral("--input-changed"), QStringLiteral("ok")});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        QVERIFY(run.err.contains("continuing as asked"));

        // The flag belongs to --resume only, and takes refuse or ok.
        run = runCli({QStringLiteral("--headless"), QStringLiteral("--input"), list,
                      QStringLiteral("--input-changed"), QStringLiteral("ok")});
        QCOMPARE(run.exitCode, 2);
        run = runCli(resume + QStringList{QStringLiteral("--input-changed"), QStringLiteral("maybe")});
        QCOMPARE(run.exitCode, 2);
    }

    void staleTemporaryJournalIsDeleted() {
        // A crawl without --store journals into $TMPDIR/crawlscope-<uid>/journal-<pid>-XXXXXX; kill -9
        // leaves that folder behind, and the next crawl deletes it (its owner is gone).
        QTemporaryDir tmp;
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        const QString list = tmp.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(list, site.urlList(host, 20, QStringLiteral("/slow%1?ms=5000"))));
        const QString folder = tmp.filePath(QStringLiteral("crawlscope-%1").arg(::getuid()));

        QProcess victim;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp.path());
        victim.setProcessEnvironment(env);
        victim.start(QStringLiteral(CRAWLSCOPE_BINARY),
                     quickFlags() + QStringList{QStringLiteral("--quiet"), QStringLiteral("--input"), list,
                                                QStringLiteral("--output"),
                                                tmp.filePath(QStringLiteral("a.csv"))});
        QVERIFY(victim.waitForStarted(10'000));
        QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 4; }, 20'000));
        const QStringList left = QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(left.size(), 1);
        QCOMPARE(crawl::temporaryjournals::ownerPid(left.first()), std::optional<qint64>(victim.processId()));
        QCOMPARE(QFileInfo(folder).permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
                 QFileDevice::Permissions());
        victim.kill(); // SIGKILL: nothing of the process cleans up
        QVERIFY(victim.waitForFinished(10'000));
        QVERIFY(QDir(folder).exists(left.first()));

        // A folder that is not a journal's is never touched.
        QVERIFY(QDir(folder).mkdir(QStringLiteral("keep-me")));
        QProcess next;
        next.setProcessEnvironment(env);
        next.start(QStringLiteral(CRAWLSCOPE_BINARY),
                   quickFlags() + QStringList{QStringLiteral("--quiet"), QStringLiteral("--input"), list,
                                              QStringLiteral("--output"),
                                              tmp.filePath(QStringLiteral("b.csv")),
                                              QStringLiteral("--timeout"), QStringLiteral("1")});
        QVERIFY(next.waitForStarted(10'000));
        QVERIFY(next.waitForFinished(60'000));
        QVERIFY(!QDir(folder).exists(left.first()));
        QVERIFY(QDir(folder).exists(QStringLiteral("keep-me")));
        // Its own temporary journal is gone at exit too.
        QCOMPARE(QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("keep-me")});
    }

    void ownerPidParsesOnlyOurNames() {
        using crawl::temporaryjournals::ownerPid;
        QCOMPARE(ownerPid(QStringLiteral("journal-1234-aB3xYz")), std::optional<qint64>(1234));
        QVERIFY(!ownerPid(QStringLiteral("journal-1234-aB3xY")));
        QVERIFY(!ownerPid(QStringLiteral("journal--aB3xYz")));
        QVERIFY(!ownerPid(QStringLiteral("crawlscope-aB3xYz")));
        QVERIFY(!ownerPid(QStringLiteral("journal-1234-aB3xYz/..")));
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("journal-11-aaaaaa")));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("journal-22-bbbbbb")));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("other")));
        const int removed =
            crawl::temporaryjournals::removeStale(dir.path(), [](qint64 pid) { return pid == 22; });
        QCOMPARE(removed, 1);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot),
                 (QStringList{QStringLiteral("journal-22-bbbbbb"), QStringLiteral("other")}));
    }
};

QTEST_GUILESS_MAIN(TestCliResumeInput)
#include "tst_cli_resumeinput.moc"
