// `crawlscope --cluster URL --resume NAME --input FILE` with the real binary and a real redis-server: the
// coordinator stores its list's fingerprint (size and sha256 of its edges, as a local --store crawl) when it
// creates the crawl, and a resume with a list edited to the same size is refused (exit 2, naming
// --input-changed ok), the unchanged list resumes (the file rewritten: its modification time is not
// compared), --input-changed ok goes on with the edited list, and a crawl created by an older coordinator
// (no fingerprint) falls back to its byte size and says so.
#include "../core/clitestsupport.h"
#include "cluster/clusterqueue.h"
#include "cluster/clustertypes.h"
#include "cluster/redisconnection.h"
#include "crawlscopeprocess.h"
#include "input/inputfingerprint.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace crawl;
using testsite::TestSite;

namespace {

using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;
using Proc = CrawlscopeProcess;

} // namespace

class TestClusterResumeList : public QObject {
    Q_OBJECT
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString clusterUrl() const { return QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()); }

    QStringList resumeArgs(const QString &crawl, const QString &list, const QString &csv) const {
        return {QStringLiteral("--headless"),
                QStringLiteral("--input"),
                list,
                QStringLiteral("--cluster"),
                clusterUrl(),
                QStringLiteral("--resume"),
                crawl,
                QStringLiteral("--output"),
                csv,
                QStringLiteral("--quiet")};
    }
    // A coordinator that created `crawl` from `list` and was then stopped (SIGTERM) with no worker running:
    // the crawl waits in Redis, uncollected.
    void createAndInterrupt(const QString &crawl, const QString &list) {
        auto coordinator =
            startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--input"), list,
                             QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), crawl,
                             QStringLiteral("--output"), m_dir.filePath(crawl + QStringLiteral("-0.csv")),
                             QStringLiteral("--robots"), QStringLiteral("ignore")});
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         coordinator->pump();
                         return queue.settings().value(QStringLiteral("input_complete")) ==
                                QLatin1String("1");
                     },
                     30000),
                 coordinator->err.constData());
        ::kill(pid_t(coordinator->process->processId()), SIGTERM);
        QVERIFY(waitFinished(*coordinator, 15000));
        QCOMPARE(coordinator->process->exitCode(), 130);
    }
    // The resume finishes with a worker: exit 0 and one row per line.
    void resumeToTheEnd(const QString &crawl, const QString &list, const QString &csv,
                        const QStringList &extra, QByteArray *err) {
        auto resumed = startCrawlscope(resumeArgs(crawl, list, csv) + extra);
        auto worker =
            startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                             QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), crawl});
        QVERIFY2(waitFinished(*resumed, 60000), resumed->err.constData());
        *err = resumed->err;
        QVERIFY2(resumed->process->exitCode() == 0, resumed->err.constData());
        QVERIFY2(waitFinished(*worker, 30000), worker->err.constData());
        QCOMPARE(worker->process->exitCode(), 0);
    }

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    void sameSizeEditRefusedUnchangedResumes() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QByteArray original = site.urlList(a, 5, QStringLiteral("/a%1"));
        QByteArray edited = original;
        edited.replace("/a3", "/b3"); // same size, another URL
        QCOMPARE(edited.size(), original.size());
        QVERIFY(edited != original);
        const QString list = m_dir.filePath(QStringLiteral("same.txt"));
        QVERIFY(clitest::writeFile(list, original));
        const QString crawl = QStringLiteral("same");
        createAndInterrupt(crawl, list);
        if (QTest::currentTestFailed())
            return;
        // The fingerprint a local --store crawl would record, in the crawl's settings.
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QString error;
        const std::optional<InputFingerprint> print = InputFingerprint::ofFile(list, &error);
        QVERIFY(print);
        const std::optional<InputFingerprint> stored =
            InputFingerprint::fromString(queue.settings().value(InputFingerprint::kSettingsKey));
        QVERIFY(stored);
        QCOMPARE(stored->edgesSha256, print->edgesSha256);
        QCOMPARE(stored->size, print->size);

        QVERIFY(clitest::writeFile(list, edited));
        const QString refusedCsv = m_dir.filePath(QStringLiteral("same-refused.csv"));
        const clitest::Run refused = clitest::runCli(resumeArgs(crawl, list, refusedCsv));
        QVERIFY(refused.finished);
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("is not the list crawl \"same\" was created with (content)") &&
                     refused.err.contains("--input-changed ok"),
                 refused.err.constData());
        QVERIFY(!QFile::exists(refusedCsv));
        QCOMPARE(queue.settings().value(QStringLiteral("input_complete")), QStringLiteral("1"));

        // The original lines again (a new file: another modification time, the same list).
        QVERIFY(clitest::writeFile(list, original));
        const QString csv = m_dir.filePath(QStringLiteral("same.csv"));
        QByteArray err;
        resumeToTheEnd(crawl, list, csv, {}, &err);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(err.contains("resuming crawl"), err.constData());
        bool ok = false;
        const QList<QStringList> rows = clitest::parseCsv(clitest::readFile(csv), &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), 1 + 5);
        for (qsizetype i = 1; i < rows.size(); ++i)
            QVERIFY2(!rows[i][clitest::Url].contains(QLatin1String("/b3")),
                     qPrintable(rows[i][clitest::Url]));
        QCOMPARE(site.requests(a).size(), 5);
    }

    void inputChangedOkGoesOn() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QByteArray original = site.urlList(a, 4, QStringLiteral("/c%1"));
        QByteArray edited = original;
        edited.replace("/c1", "/d1");
        const QString list = m_dir.filePath(QStringLiteral("changed.txt"));
        QVERIFY(clitest::writeFile(list, original));
        const QString crawl = QStringLiteral("changed");
        createAndInterrupt(crawl, list);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(clitest::writeFile(list, edited));
        const QString csv = m_dir.filePath(QStringLiteral("changed.csv"));
        QByteArray err;
        resumeToTheEnd(crawl, list, csv, {QStringLiteral("--input-changed"), QStringLiteral("ok")}, &err);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(err.contains("is not the list crawl \"changed\" was created with (content)") &&
                     err.contains("going on (--input-changed ok)"),
                 err.constData());
        const QByteArray rows = clitest::readFile(csv);
        QVERIFY2(rows.contains("/d1"), rows.constData()); // the edited line was read and crawled
    }

    // A crawl from a coordinator that stored only the list's size: the same size resumes (saying only the
    // size was compared), another size is refused.
    void olderCrawlFallsBackToSize() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QByteArray original = site.urlList(a, 3, QStringLiteral("/e%1"));
        const QString list = m_dir.filePath(QStringLiteral("older.txt"));
        QVERIFY(clitest::writeFile(list, original));
        const QString crawl = QStringLiteral("older");
        createAndInterrupt(crawl, list);
        if (QTest::currentTestFailed())
            return;
        RedisConnection connection(m_server.url());
        const RedisReply removed = connection.command(
            {"HDEL", clusterKeyPrefix(crawl) + "meta", "s_" + InputFingerprint::kSettingsKey.toUtf8()});
        QCOMPARE(removed.toInteger(), 1);

        QVERIFY(clitest::writeFile(list, original + "http://127.0.0.2:1/longer\n"));
        const clitest::Run refused =
            clitest::runCli(resumeArgs(crawl, list, m_dir.filePath(QStringLiteral("older-refused.csv"))));
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("only the size is compared") &&
                     refused.err.contains("--input-changed ok"),
                 refused.err.constData());

        QVERIFY(clitest::writeFile(list, original));
        QByteArray err;
        resumeToTheEnd(crawl, list, m_dir.filePath(QStringLiteral("older.csv")), {}, &err);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(err.contains("older coordinator") && err.contains("only the size is compared"),
                 err.constData());
    }
};

QTEST_GUILESS_MAIN(TestClusterResumeList)
#include "tst_clusterresumelist.moc"
