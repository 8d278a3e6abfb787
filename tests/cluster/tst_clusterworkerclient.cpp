// ClusterWorkerClient on its own thread against a real redis-server: leases come by queued signals, held
// leases are renewed on time (they outlive their lease time), a lease taken away is reported as lost, a
// limit change made on another connection reaches the worker within about a second, and the heartbeat shows
// the worker's in-flight count and rate.
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterqueue.h"
#include "cluster/clusterworkerclient.h"
#include "cluster/redisconnection.h"
#include "input/urlnormalizer.h"
#include "redistestserver.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

using namespace crawl;

namespace {
QString crawlName() {
    return QString::fromLatin1(QTest::currentTestFunction());
}
const QList<QPair<QByteArray, QByteArray>> kOkResult{{"outcome", "ok"}};
} // namespace

class TestClusterWorkerClient : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QThread *m_thread = nullptr;
    ClusterWorkerClient *m_client = nullptr;
    std::unique_ptr<RedisConnection> m_admin;

    // A crawl with `urls` URLs on two hosts, and a started client on its own thread.
    void startClient(int urls, qint64 leaseTtlMs) {
        m_admin = std::make_unique<RedisConnection>(m_server.url());
        ClusterQueue queue(*m_admin, crawlName());
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(*m_admin, crawlName()).setLimits({16, 4, 0, 0, 0}));
        QList<ClusterUrl> list;
        for (int i = 0; i < urls; ++i) {
            const NormalizedUrl url = normalizeUrl(QStringLiteral("http://h%1.test/%2").arg(i % 2).arg(i));
            list.append({url.text, url.text, url.hostKey, i + 1});
        }
        QCOMPARE(queue.enqueue(list, "all").added, urls);

        ClusterWorkerClient::Settings settings;
        settings.url = m_server.url();
        settings.crawlName = crawlName();
        settings.workerId = ClusterWorkerClient::makeWorkerId();
        settings.leaseTtlMs = leaseTtlMs;
        settings.heartbeatIntervalMs = 200;
        m_thread = new QThread;
        m_client = new ClusterWorkerClient(settings);
        m_client->moveToThread(m_thread);
        connect(m_thread, &QThread::finished, m_client, &QObject::deleteLater);
        m_thread->start();
        QSignalSpy started(m_client, &ClusterWorkerClient::started);
        QMetaObject::invokeMethod(m_client, &ClusterWorkerClient::start, Qt::QueuedConnection);
        QVERIFY(started.wait(10000));
    }

    QList<ClusterLease> lease(int count) {
        QSignalSpy leased(m_client, &ClusterWorkerClient::leased);
        QMetaObject::invokeMethod(
            m_client, [this, count] { m_client->requestLeases(count); }, Qt::QueuedConnection);
        if (!leased.wait(10000))
            return {};
        return leased.at(0).at(0).value<QList<ClusterLease>>();
    }

    qint64 leaseExpiry(const QByteArray &leaseId) {
        return m_admin->command({"ZSCORE", clusterKeyPrefix(crawlName()) + "leases", leaseId}).toInteger(-1);
    }

private Q_SLOTS:
    void initTestCase() { REDIS_TEST_SERVER_START(m_server); }

    void cleanup() {
        if (m_thread) {
            m_thread->quit();
            m_thread->wait();
            delete m_thread;
        }
        m_thread = nullptr;
        m_client = nullptr;
        m_admin.reset();
    }

    void aMissingCrawlIsAProblemNotAnEmptyQueue() {
        ClusterWorkerClient::Settings settings;
        settings.url = m_server.url();
        settings.crawlName = QStringLiteral("never-created");
        settings.workerId = ClusterWorkerClient::makeWorkerId();
        m_thread = new QThread;
        m_client = new ClusterWorkerClient(settings);
        m_client->moveToThread(m_thread);
        connect(m_thread, &QThread::finished, m_client, &QObject::deleteLater);
        m_thread->start();
        QSignalSpy problem(m_client, &ClusterWorkerClient::problem);
        QSignalSpy started(m_client, &ClusterWorkerClient::started);
        QMetaObject::invokeMethod(m_client, &ClusterWorkerClient::start, Qt::QueuedConnection);
        QVERIFY(problem.wait(10000));
        QVERIFY2(problem.at(0).at(0).toString().contains(QStringLiteral("no crawl named \"never-created\"")),
                 qPrintable(problem.at(0).at(0).toString()));
        QCOMPARE(started.size(), 0);
    }

    void heldLeasesAreRenewedAndOutliveTheirLeaseTime() {
        startClient(4, 600);
        const QList<ClusterLease> leases = lease(2);
        QCOMPARE(leases.size(), 2);
        QVERIFY(leases[0].host != leases[1].host);
        const qint64 firstExpiry = leases[0].expiresMs;
        // Several renewals (every 200 ms) carry the lease well past its first expiry.
        QVERIFY(QTest::qWaitFor([&] { return leaseExpiry(leases[0].leaseId) > firstExpiry + 1000; }, 10000));
        QCOMPARE(ClusterQueue(*m_admin, crawlName()).expireLeases(), 0);

        QSignalSpy acknowledged(m_client, &ClusterWorkerClient::acknowledged);
        const QByteArray leaseId = leases[0].leaseId;
        QMetaObject::invokeMethod(
            m_client, [this, leaseId] { m_client->acknowledge(leaseId, kOkResult); }, Qt::QueuedConnection);
        QVERIFY(acknowledged.wait(10000));
        QCOMPARE(acknowledged.at(0).at(0).toByteArray(), leaseId);
        QVERIFY(acknowledged.at(0).at(1).toBool());
        QCOMPARE(ClusterQueue(*m_admin, crawlName()).counts().done, 1);
    }

    void askAgainIsAHintWithinBounds() {
        startClient(6, 30000);
        QVERIFY(ClusterHostBudget(*m_admin, crawlName()).setLimits({16, 1, 0, 0, 0}));
        QSignalSpy leased(m_client, &ClusterWorkerClient::leased);
        QMetaObject::invokeMethod(
            m_client, [this] { m_client->requestLeases(5); }, Qt::QueuedConnection);
        QVERIFY(leased.wait(10000));
        QCOMPARE(leased.at(0).at(0).value<QList<ClusterLease>>().size(), 2); // one per host
        // Both hosts are busy until a lease ends (at the latest in 30 s): ask again within the poll bound.
        QCOMPARE(leased.at(0).at(1).toLongLong(), ClusterWorkerClient::kMaxPollMs);
    }

    void aLeaseTakenAwayIsReportedLost() {
        startClient(2, 600);
        const QList<ClusterLease> leases = lease(1);
        QCOMPARE(leases.size(), 1);
        QSignalSpy lost(m_client, &ClusterWorkerClient::leaseLost);
        // As if this worker had been cut off past its lease time: the lease expires and is reclaimed.
        m_admin->command({"ZADD", clusterKeyPrefix(crawlName()) + "leases", "1", leases[0].leaseId});
        QCOMPARE(ClusterQueue(*m_admin, crawlName()).expireLeases(), 1);
        QVERIFY(lost.wait(10000));
        QCOMPARE(lost.at(0).at(0).toByteArray(), leases[0].leaseId);
        QCOMPARE(lost.at(0).at(1).toString(), QStringLiteral("expired"));
    }

    void aLimitChangeReachesTheWorkerWithinASecond() {
        startClient(1, 30000);
        QSignalSpy changed(m_client, &ClusterWorkerClient::limitsChanged);
        QElapsedTimer since;
        since.start();
        QVERIFY(ClusterHostBudget(*m_admin, crawlName()).setLimits({16, 1, 250, 0, 0}));
        QVERIFY(changed.wait(5000));
        QVERIFY2(since.elapsed() <= 1500, qPrintable(QString::number(since.elapsed())));
        const auto limits = changed.at(0).at(0).value<ClusterLimits>();
        QCOMPARE(limits.perHostInFlight, 1);
        QCOMPARE(limits.intervalMs, 250);
    }

    void heartbeatShowsInFlightAndRate() {
        startClient(6, 30000);
        const QList<ClusterLease> leases = lease(4);
        QCOMPARE(leases.size(), 4);
        QSignalSpy acknowledged(m_client, &ClusterWorkerClient::acknowledged);
        for (const QByteArray &leaseId : {leases[0].leaseId, leases[1].leaseId}) {
            QMetaObject::invokeMethod(
                m_client, [this, leaseId] { m_client->acknowledge(leaseId, kOkResult); },
                Qt::QueuedConnection);
        }
        QVERIFY(QTest::qWaitFor([&] { return acknowledged.size() == 2; }, 10000));
        ClusterQueue queue(*m_admin, crawlName());
        WorkerStatus seen;
        qint64 now = 0;
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QList<WorkerStatus> workers = queue.workers(&now);
                if (workers.size() != 1)
                    return false;
                seen = workers[0];
                return seen.inFlight == 2 && seen.requestsPerSecond > 0;
            },
            10000));
        QVERIFY(!isWorkerDead(seen, now, 2000));
    }
};

QTEST_GUILESS_MAIN(TestClusterWorkerClient)
#include "tst_clusterworkerclient.moc"
