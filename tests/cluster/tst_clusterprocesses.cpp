// Worker *processes* on one crawl against a real redis-server: one of them is killed with SIGKILL while it
// certainly holds a lease. Its URL comes back after the lease time and completes on another process; every
// URL ends with exactly one result, and the per-host limit held across processes the whole time.
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterqueue.h"
#include "cluster/redisconnection.h"
#include "input/urlnormalizer.h"
#include "redistestserver.h"

#include <QProcess>
#include <QSet>
#include <QTest>

#include <memory>

using namespace crawl;

class TestClusterProcesses : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;

private Q_SLOTS:
    void initTestCase() { REDIS_TEST_SERVER_START(m_server); }

    void killedWorkersLeaseCompletesOnAnotherProcess() {
        constexpr int kUrls = 150;
        const QString crawl = QStringLiteral("processes");
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, crawl).setLimits({16, 2, 0, 0, 0}));
        QList<ClusterUrl> urls;
        for (int i = 0; i < kUrls; ++i) {
            const NormalizedUrl url = normalizeUrl(QStringLiteral("http://h%1.test/p/%2").arg(i % 2).arg(i));
            urls.append({url.text, url.text, url.hostKey, i + 1});
        }
        QCOMPARE(queue.enqueue(urls, "all").added, kUrls);

        const auto startWorker = [&](const QString &owner, int hangAfter) {
            auto process = std::make_unique<QProcess>();
            process->start(QStringLiteral(CLUSTER_TEST_WORKER),
                           {QStringLiteral("--port"), QString::number(m_server.port()),
                            QStringLiteral("--crawl"), crawl, QStringLiteral("--owner"), owner,
                            QStringLiteral("--ttl-ms"), QStringLiteral("600"), QStringLiteral("--hold-ms"),
                            QStringLiteral("15"), QStringLiteral("--hang-after"),
                            QString::number(hangAfter)});
            return process;
        };
        std::unique_ptr<QProcess> doomed = startWorker(QStringLiteral("doomed"), 10);
        std::unique_ptr<QProcess> first = startWorker(QStringLiteral("p1"), -1);
        std::unique_ptr<QProcess> second = startWorker(QStringLiteral("p2"), -1);
        QVERIFY(doomed->waitForStarted() && first->waitForStarted() && second->waitForStarted());

        // The doomed worker says which lease it holds, then is killed from outside (SIGKILL).
        QByteArray said;
        QVERIFY(QTest::qWaitFor(
            [&] {
                said += doomed->readAllStandardOutput();
                return said.contains('\n') || doomed->state() == QProcess::NotRunning;
            },
            60000));
        const QList<QByteArray> words = said.trimmed().split(' ');
        QVERIFY2(words.size() == 3 && words[0] == "hanging", said.constData());
        const QByteArray heldLease = words[1];
        const qint64 heldUrl = words[2].toLongLong();
        doomed->kill();
        QVERIFY(doomed->waitForFinished(10000));
        QCOMPARE(doomed->exitStatus(), QProcess::CrashExit);

        QVERIFY2(first->waitForFinished(120000), "worker p1 did not finish");
        QVERIFY2(second->waitForFinished(120000), "worker p2 did not finish");
        QCOMPARE(first->exitCode(), 0);
        QCOMPARE(second->exitCode(), 0);

        const ClusterCounts counts = queue.counts();
        QCOMPARE(counts.done, kUrls);
        QVERIFY(counts.expired >= 1);
        QSet<qint64> seen;
        int fromDoomed = 0;
        int peakHostInFlight = 0;
        QByteArray after;
        for (;;) {
            const QList<ClusterResultRecord> page = queue.readResults(after, 100);
            if (page.isEmpty())
                break;
            for (const ClusterResultRecord &record : page) {
                const qint64 id = record.fields.value("id").toLongLong();
                QVERIFY2(!seen.contains(id), qPrintable(QStringLiteral("URL %1 has two results").arg(id)));
                seen.insert(id);
                if (record.fields.value("owner") == "doomed")
                    ++fromDoomed;
                peakHostInFlight = std::max(peakHostInFlight, record.fields.value("host_inflight").toInt());
                if (id == heldUrl) {
                    QVERIFY(record.fields.value("owner") != "doomed");
                    QCOMPARE(record.fields.value("attempts"), QByteArray("2"));
                }
            }
            after = page.last().streamId;
        }
        QCOMPARE(seen.size(), kUrls);
        // Per host 2, three processes on two hosts: reached (pigeonhole: there was contention), never
        // exceeded.
        QCOMPARE(peakHostInFlight, 2);
        QCOMPARE(fromDoomed, 10); // what it acknowledged before it hung, nothing after
        QCOMPARE(queue.acknowledge("doomed", heldLease, {{"outcome", "ok"}}).refusal,
                 QStringLiteral("expired"));
    }
};

QTEST_GUILESS_MAIN(TestClusterProcesses)
#include "tst_clusterprocesses.moc"
