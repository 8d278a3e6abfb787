// Hostile TLS files given to the real crawlscope binary for rediss:// (CRAWLSCOPE_REDIS_CACERT / _CERT /
// _KEY): a key that belongs to another certificate, a FIFO, a file far too large to be a certificate. Each
// is refused with exit 2 and a message naming the variable and what is wrong with it, never a hang, a
// memory blow-up or a misleading "is this a plain Redis port?".
#include "../core/clitestsupport.h"
#include "cluster/redisurl.h"
#include "redistestserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace crawl;

namespace {

const QString kPassword = QStringLiteral("tls-files-pw-91c");

QString tlsFile(const char *name) {
    return QStringLiteral(CLUSTER_TLS_DATA "/") + QLatin1String(name);
}

} // namespace

class TestRedisTlsFiles : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString tlsUrl() const { return QStringLiteral("rediss://127.0.0.1:%1/0").arg(m_server.port()); }

    // The trusted files, with one variable replaced for this worker only.
    void useTrustedFiles() {
        qputenv(RedisUrl::kPasswordVariable, kPassword.toUtf8());
        qputenv(RedisTlsFiles::kCaVariable, tlsFile("ca.crt").toUtf8());
        qputenv(RedisTlsFiles::kCertificateVariable, tlsFile("client.crt").toUtf8());
        qputenv(RedisTlsFiles::kKeyVariable, tlsFile("client.key").toUtf8());
    }

    // A worker started with these files exits 2 within the timeout, saying every one of `mustSay`.
    void verifyWorkerRefused(const QStringList &mustSay, const QStringList &mustNotSay = {}) {
        QElapsedTimer since;
        since.start();
        const clitest::Run run = clitest::runCli({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                                  QStringLiteral("--cluster"), tlsUrl(),
                                                  QStringLiteral("--crawl"), QStringLiteral("anything")},
                                                 {}, 20'000);
        useTrustedFiles();
        QVERIFY2(run.finished, "the worker hung");
        const QString err = QString::fromUtf8(run.err);
        qInfo().noquote() << "refused as:" << err.trimmed();
        QCOMPARE(run.exitCode, 2);
        for (const QString &words : mustSay)
            QVERIFY2(err.contains(words), qPrintable(err));
        for (const QString &words : mustNotSay)
            QVERIFY2(!err.contains(words), qPrintable(err));
        QVERIFY2(!run.err.contains(kPassword.toUtf8()) && !run.out.contains(kPassword.toUtf8()),
                 qPrintable(err));
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
        useTrustedFiles();
    }

    // The trusted files work: the refusals below are about the one file changed.
    void trustedFilesReachTheServer() {
        verifyWorkerRefused({QStringLiteral("no crawl named \"anything\"")}, {QStringLiteral("TLS")});
    }

    // client.crt with server.key: Qt refuses the pair when it sets up the handshake, which then never
    // starts; it used to end after the connect timeout as "no TLS handshake ... is this a plain Redis port?".
    void keyOfAnotherCertificateIsNamed() {
        qputenv(RedisTlsFiles::kKeyVariable, tlsFile("server.key").toUtf8());
        verifyWorkerRefused({QStringLiteral("CRAWLSCOPE_REDIS_KEY"), QStringLiteral("client.crt")},
                            {QStringLiteral("plain Redis port")});
    }

    // A FIFO nobody writes to used to block open() for ever.
    void fifoIsRefused() {
        const QString fifo = m_dir.filePath(QStringLiteral("ca.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        qputenv(RedisTlsFiles::kCaVariable, fifo.toUtf8());
        verifyWorkerRefused(
            {QStringLiteral("CRAWLSCOPE_REDIS_CACERT"), QStringLiteral("not a regular file")});
    }

    // No certificate or key is 17 MB: such a file (or a device like /dev/zero) is not read into memory whole.
    void hugeFileIsRefused() {
        const QString huge = m_dir.filePath(QStringLiteral("huge.crt"));
        QFile file(huge);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(17 * 1024 * 1024)); // sparse: no disk used
        file.close();
        qputenv(RedisTlsFiles::kCertificateVariable, huge.toUtf8());
        verifyWorkerRefused({QStringLiteral("CRAWLSCOPE_REDIS_CERT"), QStringLiteral("larger than 16 MB")});
    }
};

QTEST_GUILESS_MAIN(TestRedisTlsFiles)
#include "tst_redistlsfiles.moc"
