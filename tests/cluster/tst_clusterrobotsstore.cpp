// ClusterRobotsStore against a real redis-server on loopback: one worker takes an origin's lock and fetches
// robots.txt, the others are told to wait, then read what it stored; a failed fetch's attempt carries on to
// the next round; a lock given up or held by a dead worker frees the origin.
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterrobotsstore.h"
#include "cluster/clustertypes.h"
#include "cluster/redisconnection.h"
#include "redistestserver.h"

#include <QTest>

using namespace crawl;

class TestClusterRobotsStore : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;

private Q_SLOTS:
    void initTestCase() { REDIS_TEST_SERVER_START(m_server); }

    void firstWorkerFetchesOthersWaitThenRead() {
        RedisConnection one(m_server.url());
        RedisConnection two(m_server.url());
        ClusterRobotsStore first(one, QStringLiteral("fetch"));
        ClusterRobotsStore second(two, QStringLiteral("fetch"));
        const QString origin = QStringLiteral("http://127.0.0.2:8080");

        const ClusterRobotsLookup taken = first.lookup(origin, "w1", 60000);
        QVERIFY2(taken.error.isEmpty(), qPrintable(taken.error));
        QCOMPARE(taken.state, ClusterRobotsLookup::State::FetchIt);
        QCOMPARE(taken.attempt, 1);
        // The holder asking again (a replay) still holds it; anyone else waits, told for how long at most.
        QCOMPARE(first.lookup(origin, "w1", 60000).state, ClusterRobotsLookup::State::FetchIt);
        const ClusterRobotsLookup waiting = second.lookup(origin, "w2", 60000);
        QCOMPARE(waiting.state, ClusterRobotsLookup::State::Wait);
        QVERIFY2(waiting.remainingMs > 50000 && waiting.remainingMs <= 60000,
                 qPrintable(QString::number(waiting.remainingMs)));
        // Another crawl's rules are its own.
        ClusterRobotsStore other(two, QStringLiteral("other"));
        QCOMPARE(other.lookup(origin, "w2", 60000).state, ClusterRobotsLookup::State::FetchIt);

        ClusterRobotsEntry entry;
        entry.status = 200;
        entry.body = QByteArray("User-agent: *\nDisallow: /private\n\0binary", 40);
        QString error;
        QVERIFY2(first.store(origin, "w1", entry, 3'600'000, false, 3'600'000,
                             QStringLiteral("127.0.0.2:8080"), 0, &error),
                 qPrintable(error));
        const ClusterRobotsLookup known = second.lookup(origin, "w2", 60000);
        QCOMPARE(known.state, ClusterRobotsLookup::State::Known);
        QCOMPARE(known.entry.status, 200);
        QCOMPARE(known.entry.tooManyRedirects, false);
        QCOMPARE(known.entry.body, entry.body);
        QCOMPARE(known.entry.attempt, 1);
        QVERIFY2(known.remainingMs > 3'500'000 && known.remainingMs <= 3'600'000,
                 qPrintable(QString::number(known.remainingMs)));
        // The lock is gone with the store.
        QCOMPARE(two.command({"EXISTS",
                              clusterKeyPrefix(QStringLiteral("fetch")) + "robotslock:" + origin.toUtf8()})
                     .toInteger(),
                 0LL);
    }

    void failedFetchRetriedWithTheNextAttempt() {
        RedisConnection connection(m_server.url());
        ClusterRobotsStore store(connection, QStringLiteral("retry"));
        const QString origin = QStringLiteral("https://127.0.0.3:8443");
        QCOMPARE(store.lookup(origin, "w1", 60000).state, ClusterRobotsLookup::State::FetchIt);
        ClusterRobotsEntry failed;
        failed.status = 503;
        failed.attempt = 1;
        QString error;
        // Stored for the retry delay: the origin's URLs read "503, attempt 1" until then.
        QVERIFY2(
            store.store(origin, "w1", failed, 200, true, 60000, QStringLiteral("127.0.0.3:8443"), 0, &error),
            qPrintable(error));
        const ClusterRobotsLookup during = store.lookup(origin, "w2", 60000);
        QCOMPARE(during.state, ClusterRobotsLookup::State::Known);
        QCOMPARE(during.entry.status, 503);
        QVERIFY(during.remainingMs <= 200);
        // Then the next worker fetches again, as the second attempt.
        QVERIFY(QTest::qWaitFor(
            [&] { return store.lookup(origin, "w2", 60000).state != ClusterRobotsLookup::State::Known; },
            5000));
        const ClusterRobotsLookup again = store.lookup(origin, "w2", 60000);
        QCOMPARE(again.state, ClusterRobotsLookup::State::FetchIt);
        QCOMPARE(again.attempt, 2);
        ClusterRobotsEntry ok;
        ok.status = 404;
        ok.attempt = 2;
        QVERIFY2(
            store.store(origin, "w2", ok, 60000, false, 60000, QStringLiteral("127.0.0.9:80"), 0, &error),
            qPrintable(error));
        QCOMPARE(store.lookup(origin, "w3", 60000).entry.status, 404);
        // A success ends the round: a later fetch (after the cache lifetime) starts at attempt 1 again.
        QVERIFY(connection.command({"FLUSHDB"}).text == "OK");
        QCOMPARE(store.lookup(origin, "w3", 60000).attempt, 1);
    }

    void lockGivenUpOrExpiredFreesTheOrigin() {
        RedisConnection connection(m_server.url());
        ClusterRobotsStore store(connection, QStringLiteral("unlock"));
        const QString origin = QStringLiteral("http://127.0.0.4:80");
        QCOMPARE(store.lookup(origin, "w1", 60000).state, ClusterRobotsLookup::State::FetchIt);
        QString error;
        QVERIFY(store.unlock(origin, "w2", &error)); // not its lock: nothing happens
        QCOMPARE(store.lookup(origin, "w2", 60000).state, ClusterRobotsLookup::State::Wait);
        QVERIFY2(store.unlock(origin, "w1", &error), qPrintable(error));
        QCOMPARE(store.lookup(origin, "w2", 100).state, ClusterRobotsLookup::State::FetchIt);
        // w2 dies while fetching: its lock expires and w3 fetches.
        QCOMPARE(store.lookup(origin, "w3", 60000).state, ClusterRobotsLookup::State::Wait);
        QVERIFY(QTest::qWaitFor(
            [&] { return store.lookup(origin, "w3", 60000).state == ClusterRobotsLookup::State::FetchIt; },
            5000));
        // A store by a worker whose lock expired keeps the lock of the one fetching now.
        ClusterRobotsEntry entry;
        entry.status = 200;
        QVERIFY(
            store.store(origin, "w2", entry, 60000, false, 60000, QStringLiteral("127.0.0.9:80"), 0, &error));
        QCOMPARE(store.lookup(origin, "w4", 60000).state, ClusterRobotsLookup::State::Known);
        QCOMPARE(connection
                     .command({"GET",
                               clusterKeyPrefix(QStringLiteral("unlock")) + "robotslock:" + origin.toUtf8()})
                     .text,
                 QByteArray("w3"));
    }

    // Crawl-delay becomes the host's least start interval in the shared budget, from its last start on
    // (the robots fetch itself), until a store without one.
    void crawlDelayLengthensTheHostInterval() {
        RedisConnection connection(m_server.url());
        ClusterHostBudget budget(connection, QStringLiteral("delay"));
        ClusterRobotsStore store(connection, QStringLiteral("delay"));
        const QString host = QStringLiteral("127.0.0.5:80");
        QVERIFY2(budget.setLimits({10, 4, 100, 0, 0}), qPrintable(budget.lastError()));
        StartDecision d = budget.tryStart(host, "robots", 10'000, 1'000); // the robots.txt fetch
        QVERIFY(d.granted);
        QString error;
        ClusterRobotsEntry entry;
        entry.status = 200;
        entry.body = "User-agent: *\nCrawl-delay: 0.5\n";
        QVERIFY2(store.store(QStringLiteral("http://") + host, "w1", entry, 60000, false, 60000, host, 500,
                             &error),
                 qPrintable(error));
        d = budget.tryStart(host, "g1", 10'000, 1'100); // the interval alone would allow it
        QVERIFY(!d.granted);
        QCOMPARE(d.reason, StartDecision::Reason::Interval);
        QCOMPARE(d.atMs, 1'500);
        d = budget.tryStart(host, "g1", 10'000, 1'500);
        QVERIFY(d.granted);
        d = budget.tryStart(host, "g2", 10'000, 1'999);
        QVERIFY(!d.granted);
        QCOMPARE(d.atMs, 2'000);
        // A store without a delay (robots.txt changed, or --ignore-crawl-delay) removes it: the interval
        // alone spaces the starts again.
        QVERIFY2(
            store.store(QStringLiteral("http://") + host, "w1", entry, 60000, false, 60000, host, 0, &error),
            qPrintable(error));
        d = budget.tryStart(host, "g2", 10'000, 2'000);
        QVERIFY(d.granted);
        d = budget.tryStart(host, "g3", 10'000, 2'100);
        QVERIFY2(d.granted, qPrintable(QString::number(d.atMs)));
    }
};

QTEST_GUILESS_MAIN(TestClusterRobotsStore)
#include "tst_clusterrobotsstore.moc"
