// Credential headers of a shared crawl, with the real crawlscope binary, a real redis-server and the
// loopback test site: the coordinator stores only the names of its Authorization / Cookie headers in Redis,
// a worker not given them refuses to start (naming them), a worker given them sends them to the crawl's
// hosts, and a redirect to another host does not carry them. The secret is looked for in every Redis key
// (during and after the crawl) and in the server's append-only file, which holds everything ever written.
#include "../core/clitestsupport.h"
#include "cluster/clusterqueue.h"
#include "cluster/redisconnection.h"
#include "crawlscopeprocess.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <functional>
#include <memory>

using namespace crawl;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {

constexpr char kToken[] = "Bearer TOPSECRET-7f3a";
constexpr char kCookie[] = "sid=COOKIESECRET-91c";

using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;
using Proc = CrawlscopeProcess;

// Every key of the database and every value in it, whatever its type: strings, hashes, lists, sets, sorted
// sets and streams, read back in full. Empty (and *ok false) when Redis did not answer.
QByteArray everythingIn(RedisConnection &connection, bool *ok) {
    *ok = false;
    QByteArray all;
    QByteArray cursor = "0";
    do {
        const RedisReply page = connection.command({"SCAN", cursor, "COUNT", "1000"});
        if (page.kind != RedisReply::Kind::Array || page.elements.size() != 2)
            return {};
        cursor = page.elements[0].text;
        for (const RedisReply &key : page.elements[1].elements) {
            all += key.text + '\n';
            const QByteArray type = connection.command({"TYPE", key.text}).text;
            QList<QByteArray> read;
            if (type == "string")
                read = {"GET", key.text};
            else if (type == "hash")
                read = {"HGETALL", key.text};
            else if (type == "list")
                read = {"LRANGE", key.text, "0", "-1"};
            else if (type == "set")
                read = {"SMEMBERS", key.text};
            else if (type == "zset")
                read = {"ZRANGE", key.text, "0", "-1", "WITHSCORES"};
            else if (type == "stream")
                read = {"XRANGE", key.text, "-", "+"};
            else
                continue; // gone between SCAN and TYPE
            const std::function<void(const RedisReply &)> flatten = [&](const RedisReply &reply) {
                all += reply.text + '\n';
                for (const RedisReply &element : reply.elements)
                    flatten(element);
            };
            const RedisReply value = connection.command(read);
            if (value.isError())
                return {};
            flatten(value);
        }
    } while (cursor != "0");
    *ok = true;
    return all;
}

// Every file the server wrote (append-only file, manifests, any RDB).
QByteArray serverFiles(const QString &dir) {
    QByteArray all;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        all += clitest::readFile(it.next());
    return all;
}

} // namespace

class TestClusterSecrets : public QObject {
    Q_OBJECT
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString clusterUrl() const { return QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()); }

    static void verifyNoSecret(const QByteArray &bytes, const char *where) {
        QVERIFY2(!bytes.contains("TOPSECRET"), where);
        QVERIFY2(!bytes.contains("COOKIESECRET"), where);
    }

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    void credentialHeadersStayOutOfRedis() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString b = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        // Paced (1 at a time, 100 ms apart) so Redis can be read while the crawl runs.
        QByteArray list = site.urlList(a, 8, QStringLiteral("/p%1?ms=200"));
        list += site.baseUrl(a).toUtf8() +
                "/jump?to=" + QUrl::toPercentEncoding(site.baseUrl(b) + QStringLiteral("/landed")) + '\n';
        const QString input = m_dir.filePath(QStringLiteral("secrets.txt"));
        QVERIFY(clitest::writeFile(input, list));
        const QString csv = m_dir.filePath(QStringLiteral("secrets.csv"));
        const QString crawl = QStringLiteral("secrets");
        const QStringList credentials{
            QStringLiteral("--header"), QStringLiteral("Authorization: %1").arg(QLatin1String(kToken)),
            QStringLiteral("--header"), QStringLiteral("Cookie: %1").arg(QLatin1String(kCookie))};
        auto coordinator = startCrawlscope(
            QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), input,
                        QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), crawl,
                        QStringLiteral("--output"), csv, QStringLiteral("--quiet"),
                        QStringLiteral("--robots"), QStringLiteral("ignore"), QStringLiteral("--per-host"),
                        QStringLiteral("1"), QStringLiteral("--interval-ms"), QStringLiteral("100"),
                        QStringLiteral("--header"), QStringLiteral("X-Trace: visible")} +
            credentials);
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         coordinator->pump();
                         return coordinator->err.contains("coordinating crawl");
                     },
                     30000),
                 coordinator->err.constData());
        QVERIFY2(coordinator->err.contains("--header \"Authorization: ...\" --header \"Cookie: ...\""),
                 coordinator->err.constData());
        // Only the names are stored; the other header is stored as before (the workers send it).
        const QMap<QString, QString> settings = queue.settings();
        QCOMPARE(settings.value(QStringLiteral("cli.withheld_headers")),
                 QStringLiteral("Authorization\nCookie"));
        QVERIFY(settings.value(QStringLiteral("cli.arguments")).contains(QStringLiteral("X-Trace: visible")));

        // A worker without the credentials refuses, naming both, and fetches nothing.
        auto bare =
            startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                             QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), crawl});
        QVERIFY(waitFinished(*bare, 30000));
        QCOMPARE(bare->process->exitCode(), 2);
        QVERIFY2(bare->err.contains("this crawl needs --header Authorization and --header Cookie on every "
                                    "worker"),
                 bare->err.constData());
        QCOMPARE(site.requests().size(), 0);
        // One given only the cookie still lacks the token.
        auto half = startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                     QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"),
                                     crawl, QStringLiteral("--header"),
                                     QStringLiteral("Cookie: %1").arg(QLatin1String(kCookie))});
        QVERIFY(waitFinished(*half, 30000));
        QCOMPARE(half->process->exitCode(), 2);
        QVERIFY2(half->err.contains("--header Authorization on every worker") &&
                     !half->err.contains("--header Cookie"),
                 half->err.constData());
        QCOMPARE(site.requests().size(), 0);

        auto worker =
            startCrawlscope(QStringList{QStringLiteral("--headless"), QStringLiteral("--worker"),
                                        QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"),
                                        crawl, QStringLiteral("--concurrency"), QStringLiteral("2")} +
                            credentials);
        // While it runs (results in the stream, URLs queued and leased), nothing in Redis holds the secret.
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         worker->pump();
                         return site.requests().size() >= 3;
                     },
                     30000),
                 worker->err.constData());
        bool ok = false;
        const QByteArray during = everythingIn(connection, &ok);
        QVERIFY(ok);
        QVERIFY2(during.contains("Authorization") && during.contains("/p0"), "the scan saw the crawl's keys");
        verifyNoSecret(during, "a Redis key or value holds the secret while the crawl runs");

        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY2(waitFinished(*worker, 30000), worker->err.constData());
        QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());

        const QByteArray after = everythingIn(connection, &ok);
        QVERIFY(ok);
        verifyNoSecret(after, "a Redis key or value holds the secret after the crawl");
        verifyNoSecret(serverFiles(m_server.dataDir()), "Redis's append-only file holds the secret");
        verifyNoSecret(coordinator->err + worker->err + bare->err + half->err,
                       "a process printed the secret");
        verifyNoSecret(clitest::readFile(csv), "the CSV holds the secret");

        // The crawl's host got the worker's credentials on every request; the redirect's other host got
        // neither (the crawl did not allow it), but the stored non-credential header reached both.
        const QList<RequestRecord> onA = site.requests(a);
        QCOMPARE(onA.size(), 9);
        for (const RequestRecord &r : onA) {
            QCOMPARE(r.header("Authorization"), QByteArray(kToken));
            QCOMPARE(r.header("Cookie"), QByteArray(kCookie));
            QCOMPARE(r.header("X-Trace"), QByteArray("visible"));
        }
        const QList<RequestRecord> onB = site.requests(b);
        QCOMPARE(onB.size(), 1);
        QCOMPARE(onB.first().target, QStringLiteral("/landed"));
        QVERIFY(!onB.first().hasHeader("Authorization"));
        QVERIFY(!onB.first().hasHeader("Cookie"));
        QCOMPARE(onB.first().header("X-Trace"), QByteArray("visible"));
    }

    // A worker's own --header replaces the stored header of that name (it is the value for this machine),
    // and a crawl without credential headers needs nothing from its workers.
    void workerHeaderReplacesStoredOne() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QString input = m_dir.filePath(QStringLiteral("plain.txt"));
        QVERIFY(clitest::writeFile(input, site.urlList(a, 3, QStringLiteral("/q%1"))));
        const QString csv = m_dir.filePath(QStringLiteral("plain.csv"));
        auto coordinator = startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             clusterUrl(), QStringLiteral("--crawl"), QStringLiteral("plain"), QStringLiteral("--output"),
             csv, QStringLiteral("--quiet"), QStringLiteral("--robots"), QStringLiteral("ignore"),
             QStringLiteral("--header"), QStringLiteral("X-Trace: stored")});
        auto worker = startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                       QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"),
                                       QStringLiteral("plain"), QStringLiteral("--header"),
                                       QStringLiteral("x-trace: mine")});
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY2(waitFinished(*worker, 30000), worker->err.constData());
        QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());
        const QList<RequestRecord> requests = site.requests(a);
        QCOMPARE(requests.size(), 3);
        for (const RequestRecord &r : requests) {
            int traces = 0;
            for (const auto &header : r.headers())
                traces += header.first.compare("X-Trace", Qt::CaseInsensitive) == 0 ? 1 : 0;
            QCOMPARE(traces, 1);
            QCOMPARE(r.header("X-Trace"), QByteArray("mine"));
        }
    }
};

QTEST_GUILESS_MAIN(TestClusterSecrets)
#include "tst_clustersecrets.moc"
