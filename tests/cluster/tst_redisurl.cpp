// The pure parts of the cluster client: Redis URL parsing and redaction, the reconnect backoff, crawl names
// and the dead-worker rule. No server.
#include "cluster/clustertypes.h"
#include "cluster/redisconnection.h"
#include "cluster/redisscript.h"
#include "cluster/redisurl.h"

#include <QTest>

using namespace crawl;

class TestRedisUrl : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesForms_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<int>("db");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<bool>("tls");
        QTest::newRow("host only") << "redis://cache.example"
                                   << "cache.example" << 6379 << 0 << ""
                                   << "" << false;
        QTest::newRow("port and db") << "redis://10.0.0.5:6380/3"
                                     << "10.0.0.5" << 6380 << 3 << ""
                                     << "" << false;
        QTest::newRow("trailing slash") << "redis://h:1/"
                                        << "h" << 1 << 0 << ""
                                        << "" << false;
        QTest::newRow("password only") << "redis://:s3cret@h:6379/0"
                                       << "h" << 6379 << 0 << ""
                                       << "s3cret" << false;
        QTest::newRow("user and password") << "redis://crawler:pa%40ss@h/2"
                                           << "h" << 6379 << 2 << "crawler"
                                           << "pa@ss" << false;
        QTest::newRow("tls") << "rediss://h:6390/1"
                             << "h" << 6390 << 1 << ""
                             << "" << true;
        QTest::newRow("ipv6") << "redis://[::1]:7000/0"
                              << "::1" << 7000 << 0 << ""
                              << "" << false;
        QTest::newRow("upper-case scheme, spaces") << "  REDIS://H:7/0 "
                                                   << "h" << 7 << 0 << ""
                                                   << "" << false;
    }

    void parsesForms() {
        QFETCH(QString, text);
        const RedisUrlParse parsed = parseRedisUrl(text);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        QVERIFY(parsed.url.has_value());
        QTEST(parsed.url->host, "host");
        QTEST(int(parsed.url->port), "port");
        QTEST(parsed.url->db, "db");
        QTEST(parsed.url->user, "user");
        QTEST(parsed.url->password, "password");
        QTEST(parsed.url->tls, "tls");
    }

    void refusesWithoutLeakingThePassword_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reasonPart");
        QTest::newRow("empty") << ""
                               << "empty";
        QTest::newRow("http") << "http://:hunter2@h:6379/0"
                              << "unsupported scheme";
        QTest::newRow("no host") << "redis://:hunter2@:6379/0"
                                 << "";
        QTest::newRow("db not a number") << "redis://:hunter2@h:6379/x"
                                         << "database";
        QTest::newRow("db with sign") << "redis://:hunter2@h:6379/+1"
                                      << "database";
        QTest::newRow("db path deeper") << "redis://:hunter2@h:6379/1/2"
                                        << "database";
        QTest::newRow("port zero") << "redis://:hunter2@h:0/0"
                                   << "port 0";
        QTest::newRow("port too big") << "redis://:hunter2@h:70000/0"
                                      << "";
        QTest::newRow("query") << "redis://:hunter2@h:6379/0?timeout=1"
                               << "no query";
        QTest::newRow("user without password") << "redis://bob@h:6379/0"
                                               << "no password";
    }

    void refusesWithoutLeakingThePassword() {
        QFETCH(QString, text);
        QFETCH(QString, reasonPart);
        const RedisUrlParse parsed = parseRedisUrl(text);
        QVERIFY(!parsed.url.has_value());
        QVERIFY(!parsed.error.isEmpty());
        QVERIFY2(parsed.error.contains(reasonPart), qPrintable(parsed.error));
        QVERIFY2(!parsed.error.contains(QStringLiteral("hunter2")), qPrintable(parsed.error));
    }

    void passwordFromEnvironmentOnlyWhenTheUrlHasNone() {
        const auto fromEnv = parseRedisUrl(QStringLiteral("redis://h:1/0"), QStringLiteral("envpw"));
        QVERIFY(fromEnv.url);
        QCOMPARE(fromEnv.url->password, QStringLiteral("envpw"));
        const auto userFromUrl = parseRedisUrl(QStringLiteral("redis://bob@h:1/0"), QStringLiteral("envpw"));
        QVERIFY2(userFromUrl.url, qPrintable(userFromUrl.error));
        QCOMPARE(userFromUrl.url->user, QStringLiteral("bob"));
        QCOMPARE(userFromUrl.url->password, QStringLiteral("envpw"));
        const auto urlWins = parseRedisUrl(QStringLiteral("redis://:urlpw@h:1/0"), QStringLiteral("envpw"));
        QVERIFY(urlWins.url);
        QCOMPARE(urlWins.url->password, QStringLiteral("urlpw"));
        const auto emptyEnv = parseRedisUrl(QStringLiteral("redis://h:1/0"), QString());
        QVERIFY(emptyEnv.url);
        QVERIFY(emptyEnv.url->password.isEmpty());
    }

    // The TLS files from the environment: kept for rediss:// only, a certificate only with its key.
    void tlsFilesFromTheEnvironment() {
        RedisUrlEnvironment environment;
        environment.password = QStringLiteral("envpw");
        environment.tlsFiles = {QStringLiteral("/ca.pem"), QStringLiteral("/me.pem"),
                                QStringLiteral("/me.key")};
        const auto tls = parseRedisUrl(QStringLiteral("rediss://h:1/0"), environment);
        QVERIFY2(tls.url, qPrintable(tls.error));
        QCOMPARE(tls.url->password, QStringLiteral("envpw"));
        QCOMPARE(tls.url->tlsFiles.caCertificates, QStringLiteral("/ca.pem"));
        QCOMPARE(tls.url->tlsFiles.certificate, QStringLiteral("/me.pem"));
        QCOMPARE(tls.url->tlsFiles.privateKey, QStringLiteral("/me.key"));
        QVERIFY(!tls.url->redacted().contains(QStringLiteral("pem"))); // the URL is the URL, no files
        const auto plain = parseRedisUrl(QStringLiteral("redis://h:1/0"), environment);
        QVERIFY(plain.url);
        QVERIFY(plain.url->tlsFiles.caCertificates.isEmpty() && plain.url->tlsFiles.certificate.isEmpty());

        environment.tlsFiles.privateKey.clear();
        const auto noKey = parseRedisUrl(QStringLiteral("rediss://h:1/0"), environment);
        QVERIFY(!noKey.url);
        QVERIFY2(noKey.error.contains(QStringLiteral("CRAWLSCOPE_REDIS_KEY")), qPrintable(noKey.error));
        environment.tlsFiles.certificate.clear();
        environment.tlsFiles.privateKey = QStringLiteral("/me.key");
        QVERIFY(!parseRedisUrl(QStringLiteral("rediss://h:1/0"), environment).url);
        environment.tlsFiles.privateKey.clear(); // the CA alone is enough (a server with tls-auth-clients no)
        QVERIFY(parseRedisUrl(QStringLiteral("rediss://h:1/0"), environment).url);
    }

    void redactedNeverShowsThePassword() {
        const auto parsed = parseRedisUrl(QStringLiteral("rediss://crawler:hunter2@redis.lan:6390/4"));
        QVERIFY(parsed.url);
        QCOMPARE(parsed.url->redacted(), QStringLiteral("rediss://crawler:***@redis.lan:6390/4"));
        const auto noAuth = parseRedisUrl(QStringLiteral("redis://[::1]:7000"));
        QVERIFY(noAuth.url);
        QCOMPARE(noAuth.url->redacted(), QStringLiteral("redis://[::1]:7000/0"));
        const auto envOnly = parseRedisUrl(QStringLiteral("redis://h:1/0"), QStringLiteral("hunter2"));
        QVERIFY(envOnly.url);
        QCOMPARE(envOnly.url->redacted(), QStringLiteral("redis://:***@h:1/0"));
    }

    void backoffDoublesUpToTheCap() {
        QCOMPARE(RedisConnection::backoffDelayMs(1, 50, 2000), 50);
        QCOMPARE(RedisConnection::backoffDelayMs(2, 50, 2000), 100);
        QCOMPARE(RedisConnection::backoffDelayMs(5, 50, 2000), 800);
        QCOMPARE(RedisConnection::backoffDelayMs(7, 50, 2000), 2000);
        QCOMPARE(RedisConnection::backoffDelayMs(1000, 50, 2000), 2000);
        QCOMPARE(RedisConnection::backoffDelayMs(1, 0, 2000), 1);
    }

    void crawlNamesBecomeKeyPrefixes() {
        QVERIFY(isValidCrawlName(QStringLiteral("shop-audit_2026.11")));
        QString why;
        QVERIFY(!isValidCrawlName(QString(), &why));
        QVERIFY(!why.isEmpty());
        QVERIFY(!isValidCrawlName(QStringLiteral("a}b"), &why));
        QVERIFY(!isValidCrawlName(QStringLiteral("has space")));
        QVERIFY(!isValidCrawlName(QString(65, QLatin1Char('a'))));
        QCOMPARE(clusterKeyPrefix(QStringLiteral("c1")), QByteArray("crawlscope:{c1}:"));
    }

    void deadWorkerIsOneWithoutRecentHeartbeat() {
        WorkerStatus worker;
        worker.lastHeartbeatMs = 10'000;
        QVERIFY(!isWorkerDead(worker, 12'000, 5'000));
        QVERIFY(!isWorkerDead(worker, 15'000, 5'000));
        QVERIFY(isWorkerDead(worker, 15'001, 5'000));
    }

    void scriptNameIsItsSha1() {
        // Known value: SHA1("return 1"), the name Redis gives that script.
        QCOMPARE(RedisScript(QByteArrayLiteral("return 1")).sha1(),
                 QByteArray("e0e1f9fabfc9d4800c877a703b823ac0578ff8db"));
    }
};

QTEST_GUILESS_MAIN(TestRedisUrl)
#include "tst_redisurl.moc"
