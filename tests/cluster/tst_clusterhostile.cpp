// The cluster commands given hostile input, as real processes: a crawl name Redis would refuse is a usage
// error before any connection, and a coordinator whose crawl disappears from Redis (restarted without its
// data, or deleted) says so and ends instead of waiting for rows no worker can deliver. An unreachable Redis
// is said at once (the coordinator gives up after a bounded budget, a worker keeps trying), signals before
// the connection end cleanly, a worker on a crawl that never appears exits 2, and flags a worker would
// silently ignore are refused.
#include "../core/clitestsupport.h"
#include "cluster/redisconnection.h"
#include "redistestserver.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace crawl;

namespace {

// A loopback port nothing listens on (bound, then closed).
quint16 closedPort() {
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

// Reads a running process's stderr until `text` appears or `timeoutMs` passes.
bool waitForStderr(QProcess &process, QByteArray &err, const QByteArray &text, int timeoutMs) {
    return QTest::qWaitFor(
        [&] {
            err += process.readAllStandardError();
            return err.contains(text);
        },
        timeoutMs);
}

} // namespace

class TestClusterHostile : public QObject {
    Q_OBJECT
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString clusterUrl() const { return m_server.url().redacted(); }
    QString clusterUrl(int db) const {
        return QStringLiteral("redis://127.0.0.1:%1/%2").arg(m_server.port()).arg(db);
    }

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
            {{}, "needs a limit to change: --concurrency"},
            {{},
             "--no-adaptive, --breaker / --no-breaker and --breaker-window, -threshold, -cooldown, "
             "-give-up"}};
        for (const auto &[extra, expected] : cases) {
            const clitest::Run run = clitest::runCli(base + extra);
            QVERIFY(run.finished);
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(expected), run.err.constData());
        }
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("set.csv"))));
    }

    // Nothing listens on the Redis port: the coordinator says so at once (not after a silent 30 s), keeps
    // trying for its connect budget, then exits 1 without creating the CSV.
    void coordinatorSaysAtOnceThatRedisIsUnreachable() {
        const quint16 port = closedPort();
        QVERIFY(port != 0);
        const QString input = m_dir.filePath(QStringLiteral("closed.txt"));
        QVERIFY(clitest::writeFile(input, "http://127.0.0.2:1/a\n"));
        const QString output = m_dir.filePath(QStringLiteral("closed.csv"));
        QProcess coordinator;
        QElapsedTimer took;
        took.start();
        coordinator.start(QStringLiteral(CRAWLSCOPE_BINARY),
                          {QStringLiteral("--headless"), QStringLiteral("--input"), input,
                           QStringLiteral("--cluster"), QStringLiteral("redis://127.0.0.1:%1/0").arg(port),
                           QStringLiteral("--crawl"), QStringLiteral("closed"), QStringLiteral("--output"),
                           output, QStringLiteral("--robots"), QStringLiteral("ignore")});
        QVERIFY(coordinator.waitForStarted(10'000));
        QByteArray err;
        QVERIFY2(waitForStderr(coordinator, err, "retrying", 5'000), err.constData());
        QVERIFY2(
            err.contains(QStringLiteral("cannot reach Redis at redis://127.0.0.1:%1/0").arg(port).toUtf8()),
            err.constData());
        QVERIFY2(took.elapsed() < 5'000, "said within the first seconds");
        QCOMPARE(coordinator.state(), QProcess::Running); // still trying
        QVERIFY2(coordinator.waitForFinished(30'000), "the connect budget is bounded");
        err += coordinator.readAllStandardError();
        QCOMPARE(coordinator.exitStatus(), QProcess::NormalExit);
        QCOMPARE(coordinator.exitCode(), 1);
        QVERIFY2(err.contains("giving up"), err.constData());
        QCOMPARE(err.count("retrying"), 1); // said once, not once per attempt
        QVERIFY(!QFile::exists(output));
    }

    // SIGTERM while the coordinator cannot reach Redis ends it like SIGTERM later: a message and exit 130
    // (not death by the signal, 143), and no CSV (no crawl was created; an existing file stays).
    void coordinatorSigtermBeforeConnectingIsClean() {
        const quint16 port = closedPort();
        QVERIFY(port != 0);
        const QString input = m_dir.filePath(QStringLiteral("term.txt"));
        QVERIFY(clitest::writeFile(input, "http://127.0.0.2:1/a\n"));
        const QString output = m_dir.filePath(QStringLiteral("term.csv"));
        QVERIFY(clitest::writeFile(output, "the user's file\n"));
        QProcess coordinator;
        coordinator.start(QStringLiteral(CRAWLSCOPE_BINARY),
                          {QStringLiteral("--headless"), QStringLiteral("--input"), input,
                           QStringLiteral("--cluster"), QStringLiteral("redis://127.0.0.1:%1/0").arg(port),
                           QStringLiteral("--crawl"), QStringLiteral("term"), QStringLiteral("--output"),
                           output, QStringLiteral("--robots"), QStringLiteral("ignore")});
        QVERIFY(coordinator.waitForStarted(10'000));
        QByteArray err;
        QVERIFY2(waitForStderr(coordinator, err, "retrying", 5'000), err.constData());
        ::kill(pid_t(coordinator.processId()), SIGTERM);
        QVERIFY(coordinator.waitForFinished(10'000));
        err += coordinator.readAllStandardError();
        QCOMPARE(coordinator.exitStatus(), QProcess::NormalExit);
        QCOMPARE(coordinator.exitCode(), 130);
        QVERIFY2(err.contains("interrupted before the crawl was created"), err.constData());
        QCOMPARE(clitest::readFile(output), QByteArray("the user's file\n"));
    }

    // A worker outlives a Redis that is not there yet: it says so at once, then at most once per 10 s while
    // it retries; SIGTERM ends it with 130.
    void workerKeepsTryingAndSaysSo() {
        const quint16 port = closedPort();
        QVERIFY(port != 0);
        QProcess worker;
        worker.start(QStringLiteral(CRAWLSCOPE_BINARY),
                     {QStringLiteral("--headless"), QStringLiteral("--worker"), QStringLiteral("--cluster"),
                      QStringLiteral("redis://127.0.0.1:%1/0").arg(port), QStringLiteral("--crawl"),
                      QStringLiteral("c1")});
        QVERIFY(worker.waitForStarted(10'000));
        QByteArray err;
        QVERIFY2(waitForStderr(worker, err, "cannot reach Redis", 5'000), err.constData());
        QVERIFY2(err.contains("retrying"), err.constData());
        // Several attempts later (one a second) it still runs and has not repeated itself.
        QVERIFY(!QTest::qWaitFor([&] { return worker.state() != QProcess::Running; }, 3'500));
        err += worker.readAllStandardError();
        QCOMPARE(err.count("cannot reach Redis"), 1);
        ::kill(pid_t(worker.processId()), SIGTERM);
        QVERIFY(worker.waitForFinished(10'000));
        QCOMPARE(worker.exitStatus(), QProcess::NormalExit);
        QCOMPARE(worker.exitCode(), 130);
    }

    // --crawl NAME that no coordinator creates: after a short grace (coordinator and workers are often
    // started together) the worker ends with exit 2 and says which name, as docs/cluster.md says.
    void workerOnMissingCrawlExitsTwo() {
        const clitest::Run run = clitest::runCli({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                                  QStringLiteral("--cluster"), clusterUrl(),
                                                  QStringLiteral("--crawl"), QStringLiteral("never-made")},
                                                 {}, 30'000);
        QVERIFY(run.finished);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("waiting up to"), run.err.constData());
        QVERIFY2(run.err.contains("no crawl named \"never-made\" in"), run.err.constData());
    }

    // Without --crawl and with no unfinished crawl: the worker waits, says so once, and works for the
    // first crawl that appears (its coordinator then finishes with that worker's row).
    void workerWithoutCrawlWaitsForOne() {
        const QString url = clusterUrl(5); // a database of its own: no other test's crawls
        QProcess worker;
        worker.start(
            QStringLiteral(CRAWLSCOPE_BINARY),
            {QStringLiteral("--headless"), QStringLiteral("--worker"), QStringLiteral("--cluster"), url});
        QVERIFY(worker.waitForStarted(10'000));
        QByteArray err;
        QVERIFY2(waitForStderr(worker, err, "waiting for one", 10'000), err.constData());
        QVERIFY(!QTest::qWaitFor([&] { return worker.state() != QProcess::Running; }, 1'500));

        const QString input = m_dir.filePath(QStringLiteral("any.txt"));
        QVERIFY(clitest::writeFile(input, "http://127.0.0.2:1/refused\n"));
        const QString output = m_dir.filePath(QStringLiteral("any.csv"));
        const clitest::Run coordinator = clitest::runCli(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"), url,
             QStringLiteral("--crawl"), QStringLiteral("late"), QStringLiteral("--output"), output,
             QStringLiteral("--robots"), QStringLiteral("ignore"), QStringLiteral("--retries"),
             QStringLiteral("0"), QStringLiteral("--quiet")},
            {}, 60'000);
        QVERIFY(coordinator.finished);
        QVERIFY2(coordinator.exitCode == 0, coordinator.err.constData());
        QVERIFY(worker.waitForFinished(20'000));
        err += worker.readAllStandardError();
        QCOMPARE(worker.exitCode(), 0);
        QCOMPARE(err.count("waiting for one"), 1);
        QVERIFY2(err.contains("on crawl \"late\""), err.constData());
        bool ok = false;
        const QList<QStringList> rows = clitest::parseCsv(clitest::readFile(output), &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[1][clitest::OutcomeCol], QStringLiteral("network_error"));
    }

    // Flags that mean nothing for a worker are refused with the reason, before Redis is contacted,
    // instead of being accepted and silently ignored.
    void workerRefusesFlagsItWouldIgnore() {
        const QString output = m_dir.filePath(QStringLiteral("worker.csv"));
        const QList<QPair<QStringList, QByteArray>> cases{
            {{QStringLiteral("--output"), output}, "--output is not written by a --worker"},
            {{QStringLiteral("--per-host"), QStringLiteral("2")}, "--cluster-set"},
            {{QStringLiteral("--timeout"), QStringLiteral("3")}, "give it to the coordinator"},
            {{QStringLiteral("--quiet")}, "--quiet does not apply"}};
        for (const auto &[extra, expected] : cases) {
            const clitest::Run run =
                clitest::runCli(QStringList{QStringLiteral("--headless"), QStringLiteral("--worker"),
                                            QStringLiteral("--cluster"), clusterUrl()} +
                                extra);
            QVERIFY(run.finished);
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(expected), run.err.constData());
        }
        QVERIFY(!QFile::exists(output));
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
