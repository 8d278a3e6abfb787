// A shared crawl over rediss:// with the real crawlscope binary: a TLS-only redis-server that requires a
// password and client certificates (started here with the committed test certificates, data/tls), a
// coordinator and two workers given the password and the certificate files by environment variables, the
// loopback test site as the target. Every input line ends as one row. The same commands refuse, with exit 2
// and a clear reason, a server certificate from another CA, a missing client certificate and a redis:// URL
// on the TLS port; the password is never printed.
#include "../core/clitestsupport.h"
#include "cluster/redisconnection.h"
#include "cluster/redisurl.h"
#include "crawlscopeprocess.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QElapsedTimer>
#include <QHash>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

using namespace crawl;
using testsite::TestSite;

namespace {

const QString kPassword = QStringLiteral("cluster-tls-pw-5e1");

QString tlsFile(const char *name) {
    return QStringLiteral(CLUSTER_TLS_DATA "/") + QLatin1String(name);
}

using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;

// One variable changed for one block (the processes started meanwhile inherit it), restored after.
class ScopedVariable {
public:
    ScopedVariable(const char *name, const std::optional<QString> &value)
        : m_name(name)
        , m_old(qEnvironmentVariableIsSet(name) ? std::optional(qgetenv(name)) : std::nullopt) {
        if (value)
            qputenv(name, value->toUtf8());
        else
            qunsetenv(name);
    }
    ~ScopedVariable() {
        if (m_old)
            qputenv(m_name, *m_old);
        else
            qunsetenv(m_name);
    }

private:
    const char *m_name;
    std::optional<QByteArray> m_old;
};

} // namespace

class TestClusterTls : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString tlsUrl() const { return QStringLiteral("rediss://127.0.0.1:%1/0").arg(m_server.port()); }

    // A worker refusing to start: exit 2, within the connect timeout and a margin, saying `because`.
    static void verifyWorkerRefused(const QString &url, const QByteArray &because) {
        QElapsedTimer since;
        since.start();
        const clitest::Run run = clitest::runCli({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                                  QStringLiteral("--cluster"), url, QStringLiteral("--crawl"),
                                                  QStringLiteral("anything")});
        QVERIFY2(run.finished, run.err.constData());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(since.elapsed() < 15000, qPrintable(QString::number(since.elapsed())));
        QVERIFY2(run.err.contains(because), run.err.constData());
        QVERIFY2(!run.err.contains(kPassword.toUtf8()) && !run.out.contains(kPassword.toUtf8()),
                 run.err.constData());
    }

private Q_SLOTS:
    void initTestCase() {
        m_server.setTlsOnly(true);
        REDIS_TEST_SERVER_START(m_server, {QStringLiteral("--requirepass"), kPassword,
                                           QStringLiteral("--tls-cert-file"), tlsFile("server.crt"),
                                           QStringLiteral("--tls-key-file"), tlsFile("server.key"),
                                           QStringLiteral("--tls-ca-cert-file"), tlsFile("ca.crt"),
                                           QStringLiteral("--tls-auth-clients"), QStringLiteral("yes")});
        QVERIFY(m_dir.isValid());
        // Inherited by every crawlscope process this test starts: nothing secret on a command line.
        qputenv(RedisUrl::kPasswordVariable, kPassword.toUtf8());
        qputenv(RedisTlsFiles::kCaVariable, tlsFile("ca.crt").toUtf8());
        qputenv(RedisTlsFiles::kCertificateVariable, tlsFile("client.crt").toUtf8());
        qputenv(RedisTlsFiles::kKeyVariable, tlsFile("client.key").toUtf8());
    }

    void crawlOverTlsWritesOneRowPerLine() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString b = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        const QByteArray list = site.urlList(a, 15, QStringLiteral("/a%1?ms=50")) +
                                site.urlList(b, 15, QStringLiteral("/b%1?ms=50")) + "not a url\n" +
                                (site.baseUrl(b) + QStringLiteral("/missing?status=404\n")).toUtf8();
        const QString input = m_dir.filePath(QStringLiteral("tls.txt"));
        QVERIFY(clitest::writeFile(input, list));
        const QString csv = m_dir.filePath(QStringLiteral("tls.csv"));
        auto coordinator = startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             tlsUrl(), QStringLiteral("--crawl"), QStringLiteral("tls"), QStringLiteral("--output"), csv,
             QStringLiteral("--quiet"), QStringLiteral("--robots"), QStringLiteral("ignore"),
             QStringLiteral("--per-host"), QStringLiteral("2")});
        std::vector<std::unique_ptr<CrawlscopeProcess>> workers;
        for (int i = 0; i < 2; ++i)
            workers.push_back(startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                               QStringLiteral("--cluster"), tlsUrl(),
                                               QStringLiteral("--crawl"), QStringLiteral("tls"),
                                               QStringLiteral("--concurrency"), QStringLiteral("3")}));
        QVERIFY2(waitFinished(*coordinator, 90000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QByteArray printed = coordinator->err;
        for (auto &worker : workers) {
            QVERIFY2(waitFinished(*worker, 15000), worker->err.constData());
            QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());
            printed += worker->err;
        }
        QVERIFY2(!printed.contains(kPassword.toUtf8()), printed.constData());

        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 15 + 15 + 1 + 1);
        QCOMPARE(rows.value(QStringLiteral("not a url")).value(clitest::OutcomeCol),
                 QStringLiteral("invalid_url"));
        QCOMPARE(
            rows.value(site.baseUrl(b) + QStringLiteral("/missing?status=404")).value(clitest::OutcomeCol),
            QStringLiteral("http_error"));
        for (int i = 0; i < 15; ++i) {
            QCOMPARE(
                rows.value(site.baseUrl(a) + QStringLiteral("/a%1?ms=50").arg(i)).value(clitest::OutcomeCol),
                QStringLiteral("ok"));
            QCOMPARE(
                rows.value(site.baseUrl(b) + QStringLiteral("/b%1?ms=50").arg(i)).value(clitest::OutcomeCol),
                QStringLiteral("ok"));
        }
        // Each URL fetched once, and the shared per-host limit held (the budget lives in the TLS Redis).
        QCOMPARE(site.requests(a).size(), 15);
        QCOMPARE(site.requests(b).size(), 16);
        QVERIFY(site.hostRecord(a).peakInFlight <= 2);
        QVERIFY(site.hostRecord(b).peakInFlight <= 2);
    }

    void wrongCaRefusedWithExitTwo() {
        const ScopedVariable ca(RedisTlsFiles::kCaVariable, tlsFile("other-ca.crt"));
        verifyWorkerRefused(tlsUrl(), "certificate is refused");
        // The coordinator too, and it creates nothing.
        const QString input = m_dir.filePath(QStringLiteral("refused.txt"));
        QVERIFY(clitest::writeFile(input, "http://127.0.0.2:1/x\n"));
        const clitest::Run run = clitest::runCli(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             tlsUrl(), QStringLiteral("--crawl"), QStringLiteral("refused"), QStringLiteral("--output"),
             m_dir.filePath(QStringLiteral("refused.csv"))});
        QVERIFY2(run.finished, run.err.constData());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("certificate is refused") && run.err.contains("CRAWLSCOPE_REDIS_CACERT"),
                 run.err.constData());
        QVERIFY(!run.err.contains(kPassword.toUtf8()));
    }

    void missingClientCertificateRefusedWithExitTwo() {
        const ScopedVariable certificate(RedisTlsFiles::kCertificateVariable, std::nullopt);
        const ScopedVariable key(RedisTlsFiles::kKeyVariable, std::nullopt);
        verifyWorkerRefused(tlsUrl(), "wants a client certificate");
    }

    void keyWithoutCertificateRefusedWithExitTwo() {
        const ScopedVariable certificate(RedisTlsFiles::kCertificateVariable, std::nullopt);
        verifyWorkerRefused(tlsUrl(), "CRAWLSCOPE_REDIS_CERT");
    }

    void plainSchemeOnTheTlsPortRefusedWithExitTwo() {
        verifyWorkerRefused(QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()), "rediss://");
        // Without a password and without --crawl (a worker looking for any crawl) just the same.
        const ScopedVariable password(RedisUrl::kPasswordVariable, std::nullopt);
        QElapsedTimer since;
        since.start();
        const clitest::Run run = clitest::runCli(
            {QStringLiteral("--headless"), QStringLiteral("--worker"), QStringLiteral("--cluster"),
             QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port())});
        QVERIFY2(run.finished, run.err.constData());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(since.elapsed() < 15000, qPrintable(QString::number(since.elapsed())));
        QVERIFY2(run.err.contains("TLS takes rediss://"), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestClusterTls)
#include "tst_clustertls.moc"
