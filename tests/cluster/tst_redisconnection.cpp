// RedisConnection against a real redis-server started by the test on loopback: AUTH (from the URL or the
// environment variable), SELECT, command timeouts, reconnect with backoff after the server drops the client
// or restarts, and EVALSHA falling back to EVAL when the server forgot the script.
#include "cluster/redisconnection.h"
#include "redistestserver.h"

#include <QElapsedTimer>
#include <QTest>

#include <thread>

using namespace crawl;

namespace {
const QString kPassword = QStringLiteral("s3cret-\"pass word\"");
}

class TestRedisConnection : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;

    RedisUrl authedUrl(int db = 0) const {
        RedisUrl url = m_server.url(db);
        url.password = kPassword;
        return url;
    }

private Q_SLOTS:
    void initTestCase() { REDIS_TEST_SERVER_START(m_server, {QStringLiteral("--requirepass"), kPassword}); }

    void authenticatesAndSelectsTheDatabase() {
        RedisConnection db3(authedUrl(3));
        QVERIFY2(db3.connect(), qPrintable(db3.lastError()));
        QCOMPARE(db3.command({"SET", "k", "in-three"}).text, QByteArray("OK"));
        RedisConnection db0(authedUrl(0));
        QVERIFY(db0.command({"GET", "k"}).isNil());
        QCOMPARE(db3.command({"GET", "k"}).text, QByteArray("in-three"));
    }

    void passwordFromTheEnvironmentVariableWorks() {
        const RedisUrlParse parsed =
            parseRedisUrl(QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()), kPassword);
        QVERIFY(parsed.url);
        RedisConnection connection(*parsed.url);
        const RedisReply pong = connection.command({"PING"});
        QCOMPARE(pong.kind, RedisReply::Kind::Status);
        QCOMPARE(pong.text, QByteArray("PONG"));
    }

    void wrongPasswordFailsAtOnceWithoutPrintingIt() {
        RedisUrl url = m_server.url();
        url.password = QStringLiteral("not-the-password");
        RedisConnection connection(url);
        QElapsedTimer since;
        since.start();
        QVERIFY(!connection.connect());
        QVERIFY2(since.elapsed() < 2000, "a refused password is not retried until the deadline");
        QVERIFY2(connection.lastError().contains(QStringLiteral("AUTH")), qPrintable(connection.lastError()));
        QVERIFY(!connection.lastError().contains(QStringLiteral("not-the-password")));
        QVERIFY(connection.lastError().contains(QStringLiteral(":***@")));
        const RedisReply reply = connection.command({"PING"});
        QCOMPARE(reply.kind, RedisReply::Kind::ConnectionError);
    }

    void missingPasswordIsReportedByTheServer() {
        RedisConnection connection(m_server.url());
        const RedisReply reply = connection.command({"GET", "k"});
        QCOMPARE(reply.kind, RedisReply::Kind::ServerError);
        QVERIFY2(reply.text.startsWith("NOAUTH"), reply.text.constData());
    }

    void commandTimeoutGivesAClearError() {
        RedisConnection::Options options;
        options.commandTimeoutMs = 200;
        RedisConnection connection(authedUrl(), options);
        QElapsedTimer since;
        since.start();
        // BLPOP on an empty list blocks for 2 s on the server: longer than the 200 ms timeout.
        const RedisReply reply = connection.command({"BLPOP", "empty-list", "2"});
        QCOMPARE(reply.kind, RedisReply::Kind::ConnectionError);
        QVERIFY2(reply.text.contains("no answer"), reply.text.constData());
        QVERIFY2(since.elapsed() < 1500, qPrintable(QString::number(since.elapsed())));
        QVERIFY(!connection.isConnected());
        QCOMPARE(connection.command({"PING"}).text, QByteArray("PONG")); // reopened on the next call
    }

    void reconnectsAfterTheServerDropsTheClient() {
        RedisConnection::Options options;
        options.clientName = "victim";
        RedisConnection victim(authedUrl(), options);
        QCOMPARE(victim.command({"PING"}).text, QByteArray("PONG"));
        RedisConnection admin(authedUrl());
        QCOMPARE(admin.command({"CLIENT", "KILL", "USER", "default", "SKIPME", "yes"}).kind,
                 RedisReply::Kind::Integer);
        // The victim does not know yet. An idempotent command is replayed on a fresh connection.
        const RedisReply reply = victim.command({"PING"}, RedisConnection::Replay::AfterReconnect);
        QCOMPARE(reply.text, QByteArray("PONG"));
        QCOMPARE(victim.reconnects(), quint64(1));
        QVERIFY(admin.command({"CLIENT", "LIST"}).text.contains("name=victim"));
    }

    void notReplayedUnlessTheCallerSaysSo() {
        RedisConnection victim(authedUrl());
        QCOMPARE(victim.command({"PING"}).text, QByteArray("PONG"));
        RedisConnection admin(authedUrl());
        admin.command({"CLIENT", "KILL", "USER", "default", "SKIPME", "yes"});
        const RedisReply lost = victim.command({"INCR", "counter-once"});
        QCOMPARE(lost.kind, RedisReply::Kind::ConnectionError);
        QVERIFY(admin.command({"GET", "counter-once"}).isNil());
        QCOMPARE(victim.command({"INCR", "counter-once"}).integer, 1LL);
    }

    void evalShaReloadsAForgottenScript() {
        RedisConnection connection(authedUrl());
        const RedisScript script(QByteArrayLiteral("return redis.call('INCRBY', KEYS[1], ARGV[1])"));
        QCOMPARE(connection.command({"SCRIPT", "LOAD", script.source()}).text, script.sha1());
        QCOMPARE(connection.evalScript(script, {"n"}, {"2"}).integer, 2LL);
        const quint64 before = connection.roundTrips();
        QCOMPARE(connection.evalScript(script, {"n"}, {"3"}).integer, 5LL);
        QCOMPARE(connection.roundTrips() - before, quint64(1)); // a known script costs one round trip
        QCOMPARE(connection.command({"SCRIPT", "FLUSH"}).text, QByteArray("OK"));
        QCOMPARE(connection.evalScript(script, {"n"}, {"4"}).integer, 9LL); // NOSCRIPT -> EVAL
        QCOMPARE(connection.command({"SCRIPT", "EXISTS", script.sha1()}).elements.value(0).integer, 1LL);
        const RedisReply broken = connection.evalScript(RedisScript("return redis.call('NOPE')"), {}, {});
        QCOMPARE(broken.kind, RedisReply::Kind::ServerError);
    }

    void unreachableServerGivesUpAtTheDeadline() {
        RedisUrl url = authedUrl();
        url.port = 1; // nothing listens on loopback port 1
        RedisConnection::Options options;
        options.reconnectDeadlineMs = 400;
        options.backoffInitialMs = 20;
        RedisConnection connection(url, options);
        QElapsedTimer since;
        since.start();
        const RedisReply reply = connection.command({"PING"});
        QCOMPARE(reply.kind, RedisReply::Kind::ConnectionError);
        QVERIFY2(since.elapsed() >= 400 && since.elapsed() < 3000,
                 qPrintable(QString::number(since.elapsed())));
        QVERIFY2(reply.text.contains("cannot connect to redis://:***@127.0.0.1:1/0"), reply.text.constData());
        QVERIFY(!reply.text.contains(kPassword.toUtf8()));
    }

    // Last: it restarts the server. A call made while the server is down waits (backoff) and completes once
    // it is back; the data written before the restart is still there (append-only file).
    void survivesAServerRestart() {
        RedisConnection connection(authedUrl());
        QCOMPARE(connection.command({"SET", "durable", "yes"}).text, QByteArray("OK"));
        m_server.stop();
        QVERIFY(!m_server.isRunning());
        RedisReply reply;
        std::thread caller([&] {
            reply = connection.command({"GET", "durable"}, RedisConnection::Replay::AfterReconnect);
        });
        QString error;
        const bool restarted = m_server.start(&error);
        caller.join();
        QVERIFY2(restarted, qPrintable(error));
        QCOMPARE(reply.text, QByteArray("yes"));
        QVERIFY(connection.reconnects() >= 1);
    }
};

QTEST_GUILESS_MAIN(TestRedisConnection)
#include "tst_redisconnection.moc"
