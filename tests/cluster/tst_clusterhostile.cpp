// The cluster commands given hostile input, as real processes: a crawl name Redis would refuse is a usage
// error before any connection, and a coordinator whose crawl disappears from Redis (restarted without its
// data, or deleted) says so and ends instead of waiting for rows no worker can deliver.
#include "../core/clitestsupport.h"
#include "cluster/redisconnection.h"
#include "redistestserver.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace crawl;

class TestClusterHostile : public QObject {
    Q_OBJECT
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString clusterUrl() const { return m_server.url().redacted(); }

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    void badCrawlNameIsUsageError_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("space") << QStringLiteral("a b");
        QTest::newRow("unicode") << QStringLiteral("crawl-\u00fcn\u00ef");
        QTest::newRow("brace") << QStringLiteral("a}b");
        QTest::newRow("empty") << QString();
        QTest::newRow("too long") << QString(65, QLatin1Char('a'));
    }

    // Nothing listens on the port: a connection attempt would take its 30 s reconnect deadline and end
    // in "cannot reach Redis". The name is refused first, naming --crawl, for every cluster command.
    void badCrawlNameIsUsageError() {
        QFETCH(QString, name);
        quint16 deadPort = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            deadPort = probe.serverPort();
        }
        const QString url = QStringLiteral("redis://127.0.0.1:%1/0").arg(deadPort);
        const QString input = m_dir.filePath(QStringLiteral("names.txt"));
        QVERIFY(clitest::writeFile(input, "http://127.0.0.2:1/x\n"));
        const QString output = m_dir.filePath(QStringLiteral("names.csv"));
        const QList<QStringList> commands{
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--output"),
             output, QStringLiteral("--robots"), QStringLiteral("ignore")},
            {QStringLiteral("--headless"), QStringLiteral("--worker")},
            {QStringLiteral("--cluster-set"), QStringLiteral("--per-host"), QStringLiteral("2")}};
        for (const QStringList &command : commands) {
            QElapsedTimer took;
            took.start();
            const clitest::Run run = clitest::runCli(
                command + QStringList{QStringLiteral("--cluster"), url, QStringLiteral("--crawl"), name});
            QVERIFY2(run.finished, qPrintable(command.join(QLatin1Char(' '))));
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains("--crawl") && !run.err.contains("cannot reach Redis"),
                     run.err.constData());
            QVERIFY2(took.elapsed() < 10'000, "the name must be refused before Redis is contacted");
            QVERIFY(!QFile::exists(output));
        }
    }

    // --cluster-set with a flag it does not apply (a user agent, an output file) or with no limit at all
    // is a usage error, not "limits version N" and exit 0 with nothing the user asked for changed.
    void clusterSetRefusesFlagsItDoesNotApply() {
        const QStringList base{QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"),
                               QStringLiteral("c1"), QStringLiteral("--cluster-set")};
        const QList<QPair<QStringList, QByteArray>> cases{
            {{QStringLiteral("--user-agent"), QStringLiteral("Other/1.0")},
             "--user-agent is not a shared limit"},
            {{QStringLiteral("--per-host"), QStringLiteral("2"), QStringLiteral("--output"),
              m_dir.filePath(QStringLiteral("set.csv"))},
             "--output is not a shared limit"},
            {{}, "needs a limit to change"}};
        for (const auto &[extra, expected] : cases) {
            const clitest::Run run = clitest::runCli(base + extra);
            QVERIFY(run.finished);
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(expected), run.err.constData());
        }
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("set.csv"))));
    }

    // The crawl's keys vanish while the coordinator waits for rows (no worker runs, so it would wait for
    // ever): it ends with exit 1 within a few seconds, says why, and keeps the rows it had (the invalid
    // line's row, written at once).
    void coordinatorEndsWhenItsCrawlVanishes() {
        const QString input = m_dir.filePath(QStringLiteral("vanish.txt"));
        QVERIFY(clitest::writeFile(input, "http://127.0.0.2:1/a\nhttp://127.0.0.2:1/b\nftp://x/\n"));
        const QString output = m_dir.filePath(QStringLiteral("vanish.csv"));
        QProcess coordinator;
        coordinator.start(QStringLiteral(CRAWLSCOPE_BINARY),
                          {QStringLiteral("--headless"), QStringLiteral("--input"), input,
                           QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"),
                           QStringLiteral("vanishing"), QStringLiteral("--output"), output,
                           QStringLiteral("--robots"), QStringLiteral("ignore")});
        QVERIFY(coordinator.waitForStarted(10'000));
        QByteArray err;
        QVERIFY(QTest::qWaitFor(
            [&] {
                err += coordinator.readAllStandardError();
                return err.contains("0 waiting to retry"); // a progress line: fed, and waiting for rows
            },
            20'000));
        QCOMPARE(coordinator.state(), QProcess::Running);

        RedisConnection connection(m_server.url());
        QVERIFY(connection.connect());
        QVERIFY(!connection.command({QByteArrayLiteral("FLUSHDB")}).isError());

        QVERIFY2(coordinator.waitForFinished(15'000), "the coordinator waited for a crawl that is gone");
        err += coordinator.readAllStandardError();
        QCOMPARE(coordinator.exitStatus(), QProcess::NormalExit);
        QCOMPARE(coordinator.exitCode(), 1);
        QVERIFY2(err.contains("is gone from Redis"), err.constData());
        bool ok = false;
        const QList<QStringList> rows = clitest::parseCsv(clitest::readFile(output), &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), 2); // the header and the invalid line's row
        QCOMPARE(rows[1][clitest::OutcomeCol], QStringLiteral("invalid_url"));
    }
};

QTEST_GUILESS_MAIN(TestClusterHostile)
#include "tst_clusterhostile.moc"
