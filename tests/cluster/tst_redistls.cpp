// rediss:// against a real redis-server started by the test with TLS only (--port 0 --tls-port), its
// certificates from tests/cluster/data/tls (a private CA; see the README there): commands and scripts over
// TLS, AUTH with the password from the environment, the server's certificate checked (wrong CA, host name,
// expired), a client certificate required by the server, unreadable files, and the wrong scheme on either
// kind of port, each refused clearly and within the connect timeout. The password never appears in any error.
#include "cluster/redisconnection.h"
#include "cluster/redisscript.h"
#include "cluster/redisurl.h"
#include "redistestserver.h"

#include <QElapsedTimer>
#include <QTest>

using namespace crawl;

namespace {

const QString kPassword = QStringLiteral("tls-s3cret-\"otter\"");

QString tlsFile(const char *name) {
    return QStringLiteral(CLUSTER_TLS_DATA "/") + QLatin1String(name);
}

RedisTlsFiles trustedClient() {
    return {tlsFile("ca.crt"), tlsFile("client.crt"), tlsFile("client.key")};
}

// Variables set for one test, unset again when it ends (pass or fail).
class ScopedEnvironment {
public:
    void set(const char *name, const QString &value) {
        qputenv(name, value.toUtf8());
        m_names.append(name);
    }
    ~ScopedEnvironment() {
        for (const char *name : m_names)
            qunsetenv(name);
    }

private:
    QList<const char *> m_names;
};

} // namespace

class TestRedisTls : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_tls;   // TLS only, client certificates required, a password
    RedisTestServer m_plain; // plain TCP only

    RedisUrl tlsUrl(RedisTlsFiles files = trustedClient()) const {
        RedisUrl url = m_tls.url();
        url.tls = true;
        url.password = kPassword;
        url.tlsFiles = std::move(files);
        return url;
    }

    static RedisConnection::Options quick() {
        RedisConnection::Options options;
        options.connectTimeoutMs = 1500;
        options.reconnectDeadlineMs = 500;
        return options;
    }

    // connect() fails with a permanent error (not retried until the deadline), within the connect timeout,
    // naming what is wrong and never the password.
    static void verifyRefused(const RedisUrl &url, const QStringList &mustSay) {
        RedisConnection connection(url, quick());
        QElapsedTimer since;
        since.start();
        QVERIFY(!connection.connect());
        const qint64 elapsed = since.elapsed();
        const QString error = connection.lastError();
        qInfo().noquote() << "refused as:" << error;
        QVERIFY2(connection.lastFailureIsPermanent(), qPrintable(error));
        QVERIFY2(elapsed < quick().connectTimeoutMs + 1000, qPrintable(QString::number(elapsed)));
        for (const QString &words : mustSay)
            QVERIFY2(error.contains(words, Qt::CaseInsensitive), qPrintable(error));
        QVERIFY2(!error.contains(kPassword), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("***@")), qPrintable(error)); // the redacted URL
        QVERIFY(!connection.isConnected());
    }

private Q_SLOTS:
    void initTestCase() {
        m_tls.setTlsOnly(true);
        REDIS_TEST_SERVER_START(
            m_tls, {QStringLiteral("--requirepass"), kPassword, QStringLiteral("--tls-cert-file"),
                    tlsFile("server.crt"), QStringLiteral("--tls-key-file"), tlsFile("server.key"),
                    QStringLiteral("--tls-ca-cert-file"), tlsFile("ca.crt"),
                    QStringLiteral("--tls-auth-clients"), QStringLiteral("yes"),
                    // 127.0.0.2 too: an address the certificate does not name
                    // (hostNameIsChecked; "localhost" may not resolve on a bare machine).
                    QStringLiteral("--bind"), QStringLiteral("127.0.0.1"), QStringLiteral("127.0.0.2")});
        REDIS_TEST_SERVER_START(m_plain);
    }

    void pingAndScriptsOverTls() {
        RedisConnection connection(tlsUrl());
        QVERIFY2(connection.connect(), qPrintable(connection.lastError()));
        const RedisReply pong = connection.command({"PING"});
        QCOMPARE(pong.kind, RedisReply::Kind::Status);
        QCOMPARE(pong.text, QByteArray("PONG"));

        // EVAL with a reply tree (nested array, integer, bulk string, nil) parsed as on the plain path.
        const RedisReply tree =
            connection.command({"EVAL", "return {1, 'two', {ARGV[1]}, false}", "0", QByteArray(70000, 'x')});
        QCOMPARE(tree.kind, RedisReply::Kind::Array);
        QCOMPARE(tree.elements.size(), 4);
        QCOMPARE(tree.elements[0].integer, 1LL);
        QCOMPARE(tree.elements[1].text, QByteArray("two"));
        QCOMPARE(tree.elements[2].elements.value(0).text, QByteArray(70000, 'x')); // several TLS records
        QVERIFY(tree.elements[3].isNil());

        const RedisScript script(QByteArrayLiteral("return redis.call('INCRBY', KEYS[1], ARGV[1])"));
        QCOMPARE(connection.evalScript(script, {"tls-n"}, {"2"}).integer, 2LL); // NOSCRIPT -> EVAL
        const quint64 before = connection.roundTrips();
        QCOMPARE(connection.evalScript(script, {"tls-n"}, {"3"}).integer, 5LL);
        QCOMPARE(connection.roundTrips() - before, quint64(1));
        const RedisReply refused = connection.command({"NOSUCHCOMMAND"});
        QCOMPARE(refused.kind, RedisReply::Kind::ServerError);
    }

    // The way the command line reads it: password and files from the environment, SELECT over TLS too.
    void passwordAndFilesFromTheEnvironment() {
        ScopedEnvironment environment;
        environment.set(RedisUrl::kPasswordVariable, kPassword);
        environment.set(RedisTlsFiles::kCaVariable, tlsFile("ca.crt"));
        environment.set(RedisTlsFiles::kCertificateVariable, tlsFile("client.crt"));
        environment.set(RedisTlsFiles::kKeyVariable, tlsFile("client.key"));
        const RedisUrlParse parsed = parseRedisUrl(
            QStringLiteral("rediss://127.0.0.1:%1/2").arg(m_tls.port()), RedisUrlEnvironment::fromProcess());
        QVERIFY2(parsed.url, qPrintable(parsed.error));
        QCOMPARE(parsed.url->tlsFiles.certificate, tlsFile("client.crt"));
        RedisConnection connection(*parsed.url);
        QCOMPARE(connection.command({"SET", "where", "db2"}).text, QByteArray("OK"));
        RedisConnection db0(tlsUrl());
        QVERIFY(db0.command({"GET", "where"}).isNil());

        // The same files on a redis:// URL are not used (and not needed).
        const RedisUrlParse plain = parseRedisUrl(
            QStringLiteral("redis://127.0.0.1:%1/0").arg(m_plain.port()), RedisUrlEnvironment::fromProcess());
        QVERIFY(plain.url && plain.url->tlsFiles.certificate.isEmpty());
    }

    void wrongPasswordOverTlsIsRefusedWithoutPrintingIt() {
        RedisUrl url = tlsUrl();
        url.password = QStringLiteral("not-the-tls-password");
        RedisConnection connection(url, quick());
        QVERIFY(!connection.connect());
        QVERIFY(connection.lastFailureIsPermanent());
        QVERIFY2(connection.lastError().contains(QStringLiteral("AUTH")), qPrintable(connection.lastError()));
        QVERIFY(!connection.lastError().contains(QStringLiteral("not-the-tls-password")));
    }

    void certificateFromAnotherCaIsRefused() {
        RedisTlsFiles files = trustedClient();
        files.caCertificates = tlsFile("other-ca.crt");
        verifyRefused(tlsUrl(files),
                      {QStringLiteral("certificate"), QStringLiteral("CRAWLSCOPE_REDIS_CACERT")});
    }

    // On by default: without the private CA the system's CAs do not vouch for the server.
    void systemCasDoNotTrustAPrivateCa() {
        RedisTlsFiles files = trustedClient();
        files.caCertificates.clear();
        verifyRefused(tlsUrl(files), {QStringLiteral("certificate")});
    }

    // The server's certificate names 127.0.0.1 only; the same server at 127.0.0.2 is refused.
    void hostNameIsChecked() {
        RedisUrl url = tlsUrl();
        url.host = QStringLiteral("127.0.0.2");
        verifyRefused(url, {QStringLiteral("host name")});
    }

    // Right CA, right address, expired in 2001: refused, and the message says so.
    void expiredServerCertificateIsRefused() {
        RedisTestServer expired;
        expired.setTlsOnly(true);
        REDIS_TEST_SERVER_START(expired, {QStringLiteral("--tls-cert-file"), tlsFile("expired.crt"),
                                          QStringLiteral("--tls-key-file"), tlsFile("expired.key"),
                                          QStringLiteral("--tls-ca-cert-file"), tlsFile("ca.crt"),
                                          QStringLiteral("--tls-auth-clients"), QStringLiteral("no")});
        RedisUrl url = expired.url();
        url.tls = true;
        url.password = kPassword;
        url.tlsFiles = trustedClient();
        verifyRefused(url, {QStringLiteral("certificate is refused"), QStringLiteral("expired")});
    }

    void missingClientCertificateIsRefusedClearly() {
        RedisTlsFiles files = trustedClient();
        files.certificate.clear();
        files.privateKey.clear();
        verifyRefused(tlsUrl(files),
                      {QStringLiteral("client certificate"), QStringLiteral("CRAWLSCOPE_REDIS_CERT")});
    }

    void unreadableFilesAreNamed() {
        RedisTlsFiles files = trustedClient();
        files.caCertificates = tlsFile("no-such-ca.crt");
        verifyRefused(tlsUrl(files),
                      {QStringLiteral("CRAWLSCOPE_REDIS_CACERT"), QStringLiteral("no-such-ca.crt")});
        files = trustedClient();
        files.privateKey = tlsFile("README.md"); // readable, but no key in it
        verifyRefused(tlsUrl(files), {QStringLiteral("CRAWLSCOPE_REDIS_KEY"), QStringLiteral("private key")});

        RedisUrlEnvironment half;
        half.tlsFiles.certificate = tlsFile("client.crt");
        const RedisUrlParse parsed = parseRedisUrl(QStringLiteral("rediss://127.0.0.1:1/0"), half);
        QVERIFY(!parsed.url);
        QVERIFY2(parsed.error.contains(QStringLiteral("CRAWLSCOPE_REDIS_KEY")), qPrintable(parsed.error));
    }

    // A plain port reads the TLS hello as the start of a command and waits: the connect timeout ends it.
    void plainServerOnARedissUrlFailsWithinTheTimeout() {
        RedisUrl url = m_plain.url();
        url.tls = true;
        url.password = kPassword;
        url.tlsFiles = trustedClient();
        verifyRefused(url, {QStringLiteral("TLS"), QStringLiteral("redis://")});
    }

    void tlsServerOnARedisUrlFailsClearly() {
        RedisUrl url = m_tls.url();
        url.password = kPassword;
        verifyRefused(url, {QStringLiteral("TLS"), QStringLiteral("rediss://")});

        // No AUTH, SELECT or name to send at connect: the first command says it, at once, and an idempotent
        // one is not retried until the 30 s reconnect deadline (every attempt would hang up the same way).
        RedisConnection bare(m_tls.url());
        QElapsedTimer since;
        since.start();
        const RedisReply reply = bare.command({"PING"}, RedisConnection::Replay::AfterReconnect);
        QCOMPARE(reply.kind, RedisReply::Kind::ConnectionError);
        QVERIFY2(reply.text.contains("TLS takes rediss://"), reply.text.constData());
        QVERIFY2(since.elapsed() < 2000, qPrintable(QString::number(since.elapsed())));
        QVERIFY(bare.lastFailureIsPermanent());
    }

    void commandTimeoutOverTls() {
        RedisConnection::Options options;
        options.commandTimeoutMs = 200;
        RedisConnection connection(tlsUrl(), options);
        QElapsedTimer since;
        since.start();
        const RedisReply reply = connection.command({"BLPOP", "empty-tls-list", "2"});
        QCOMPARE(reply.kind, RedisReply::Kind::ConnectionError);
        QVERIFY2(reply.text.contains("no answer"), reply.text.constData());
        QVERIFY2(since.elapsed() < 1500, qPrintable(QString::number(since.elapsed())));
        QVERIFY(!connection.isConnected());
        QCOMPARE(connection.command({"PING"}).text, QByteArray("PONG")); // reopened on the next call
    }

    void reconnectsAfterTheServerDropsTheClient() {
        RedisConnection::Options options;
        options.clientName = "tls-victim";
        RedisConnection victim(tlsUrl(), options);
        QCOMPARE(victim.command({"PING"}).text, QByteArray("PONG"));
        RedisConnection admin(tlsUrl());
        QCOMPARE(admin.command({"CLIENT", "KILL", "USER", "default", "SKIPME", "yes"}).kind,
                 RedisReply::Kind::Integer);
        const RedisReply lost = victim.command({"INCR", "tls-once"});
        QCOMPARE(lost.kind, RedisReply::Kind::ConnectionError); // not replayed unless the caller says so
        QVERIFY2(lost.text.contains("closed the connection"), lost.text.constData());
        QVERIFY(admin.command({"GET", "tls-once"}).isNil());
        const RedisReply reply = victim.command({"PING"}, RedisConnection::Replay::AfterReconnect);
        QCOMPARE(reply.text, QByteArray("PONG"));
        QCOMPARE(victim.reconnects(), quint64(1));
        QVERIFY(admin.command({"CLIENT", "LIST"}).text.contains("name=tls-victim"));
    }
};

QTEST_GUILESS_MAIN(TestRedisTls)
#include "tst_redistls.moc"
