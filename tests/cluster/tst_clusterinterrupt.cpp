// Ctrl-C while Redis is away: the real coordinator and worker stop within seconds (a call blocked in its
// reconnect loop stops waiting: RedisConnection::interruptWaits), and the coordinator writes the rows it
// had collected, each input line at most once. Before, both waited for Redis to come back (30 s per call,
// several calls per tick) and a Redis that never came back lost every collected row.
#include "../core/clitestsupport.h"
#include "crawlscopeprocess.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QElapsedTimer>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace crawl;
using testsite::TestSite;

class TestClusterInterrupt : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString clusterUrl() const { return QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()); }

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    void interruptWhileRedisIsGoneWritesWhatWasCollected() {
        TestSite site;
        const QString host = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!host.isEmpty());
        const QString input = m_dir.filePath(QStringLiteral("gone.txt"));
        QVERIFY(clitest::writeFile(input, site.urlList(host, 200, QStringLiteral("/g%1?ms=100"))));
        const QString csv = m_dir.filePath(QStringLiteral("gone.csv"));
        auto coordinator = clustertest::startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             clusterUrl(), QStringLiteral("--crawl"), QStringLiteral("gone"), QStringLiteral("--output"), csv,
             QStringLiteral("--quiet"), QStringLiteral("--robots"), QStringLiteral("ignore"),
             QStringLiteral("--per-host"), QStringLiteral("4")});
        auto worker = clustertest::startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                                    QStringLiteral("--cluster"), clusterUrl(),
                                                    QStringLiteral("--crawl"), QStringLiteral("gone")});
        QVERIFY(QTest::qWaitFor([&] { return site.requests(host).size() >= 20; }, 30'000));

        // Gone for good: nothing answers on its port any more. Whatever either process is doing when the
        // signal comes (a call already in its reconnect loop, or the calls of its exit path), it must not
        // wait.
        m_server.kill();
        QElapsedTimer since;
        since.start();
        ::kill(pid_t(coordinator->process->processId()), SIGINT);
        ::kill(pid_t(worker->process->processId()), SIGINT);
        QVERIFY2(clustertest::waitFinished(*coordinator, 15'000), coordinator->err.constData());
        QVERIFY2(clustertest::waitFinished(*worker, 15'000), worker->err.constData());
        QVERIFY2(since.elapsed() < 10'000, qPrintable(QString::number(since.elapsed())));
        QCOMPARE(coordinator->process->exitCode(), 130);
        QCOMPARE(worker->process->exitCode(), 130);

        // The rows collected before Redis went: each a line of the list, once, fetched.
        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QVERIFY2(count > 0, coordinator->err.constData());
        QCOMPARE(rows.size(), count);
        QVERIFY(count <= 200);
        QSet<QString> served;
        for (const testsite::RequestRecord &r : site.requests(host))
            served.insert(r.target);
        for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
            QCOMPARE(it.value().value(clitest::OutcomeCol), QStringLiteral("ok"));
            QVERIFY(served.contains(QUrl(it.key()).path() + QStringLiteral("?ms=100")));
        }
    }
};

QTEST_GUILESS_MAIN(TestClusterInterrupt)
#include "tst_clusterinterrupt.moc"
