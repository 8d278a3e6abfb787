#pragma once

// A real redis-server for one test: loopback only, its own port and temporary folder, append-only file on
// (fsync on every write, so a restart loses nothing the test saw acknowledged). Readiness is awaited on the
// server's own log line, not guessed with a sleep.
#include "cluster/redisurl.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>
#include <QTcpServer>
#include <QTemporaryDir>

#include <csignal>
#include <sys/prctl.h>

class RedisTestServer {
public:
    RedisTestServer() = default;
    ~RedisTestServer() { stop(); }
    RedisTestServer(const RedisTestServer &) = delete;
    RedisTestServer &operator=(const RedisTestServer &) = delete;

    static QString executable() { return QStandardPaths::findExecutable(QStringLiteral("redis-server")); }

    // Starts (or restarts, on the same port and data folder) the server. extraArgs e.g. {"--requirepass",
    // "x"}.
    bool start(QString *error, const QStringList &extraArgs = {}) {
        if (executable().isEmpty()) {
            *error = QStringLiteral("redis-server not installed");
            return false;
        }
        if (!m_dir.isValid()) {
            *error = QStringLiteral("cannot create a temporary folder");
            return false;
        }
        if (!extraArgs.isEmpty())
            m_extraArgs = extraArgs;
        const bool firstStart = m_port == 0;
        for (int attempt = 0; attempt < 5; ++attempt) {
            if (firstStart)
                m_port = freeLoopbackPort();
            if (launch(error))
                return true;
            if (!firstStart)
                return false; // a restart must keep its port: clients reconnect to it
        }
        return false;
    }

    // SIGTERM: Redis flushes its append-only file and exits (what a service manager does on restart).
    void stop() {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    // SIGKILL: no shutdown at all. With appendfsync always, every write Redis answered is on disk.
    void kill() {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.kill();
        m_process.waitForFinished(10000);
    }

    // TLS only: the port() speaks TLS and there is no plain port (--port 0 --tls-port). The certificate
    // options go in start()'s extraArgs. Call before start().
    void setTlsOnly(bool tlsOnly) { m_tlsOnly = tlsOnly; }

    bool isRunning() const { return m_process.state() == QProcess::Running; }
    qint64 pid() const { return m_process.processId(); }
    quint16 port() const { return m_port; }
    QString dataDir() const { return m_dir.path(); }
    QString log() const { return QString::fromUtf8(m_log); }

    crawl::RedisUrl url(int db = 0) const {
        crawl::RedisUrl url;
        url.host = QStringLiteral("127.0.0.1");
        url.port = m_port;
        url.db = db;
        return url;
    }

private:
    static quint16 freeLoopbackPort() {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }

    bool launch(QString *error) {
        m_log.clear();
        QStringList args{QStringLiteral("--port"),        QString::number(m_port),
                         QStringLiteral("--bind"),        QStringLiteral("127.0.0.1"),
                         QStringLiteral("--dir"),         m_dir.path(),
                         QStringLiteral("--appendonly"),  QStringLiteral("yes"),
                         QStringLiteral("--appendfsync"), QStringLiteral("always"),
                         QStringLiteral("--save"),        QString(),
                         QStringLiteral("--daemonize"),   QStringLiteral("no"),
                         QStringLiteral("--logfile"),     QString()};
        if (m_tlsOnly)
            args << QStringLiteral("--port") << QStringLiteral("0") << QStringLiteral("--tls-port")
                 << QString::number(m_port);
        args << m_extraArgs;
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        // A crashed or killed test must not leave its server running: it dies with the test process.
        m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        m_process.start(executable(), args);
        if (!m_process.waitForStarted(10000)) {
            *error = QStringLiteral("redis-server did not start: %1").arg(m_process.errorString());
            return false;
        }
        QElapsedTimer since;
        since.start();
        while (since.elapsed() < 20000) {
            if (m_log.contains("Ready to accept connections"))
                return true;
            if (m_process.state() == QProcess::NotRunning)
                break;
            m_process.waitForReadyRead(500);
            m_log += m_process.readAll();
        }
        stop();
        *error = QStringLiteral("redis-server on port %1 did not become ready:\n%2").arg(m_port).arg(log());
        return false;
    }

    QTemporaryDir m_dir;
    QProcess m_process;
    QByteArray m_log;
    QStringList m_extraArgs;
    quint16 m_port = 0;
    bool m_tlsOnly = false;
};

// For a test's initTestCase(): skips (with the reason) only when redis-server is not installed.
#define REDIS_TEST_SERVER_START(server, ...)                                                                 \
    do {                                                                                                     \
        if (RedisTestServer::executable().isEmpty())                                                         \
            QSKIP("redis-server is not installed (Debian: apt-get install redis-server); cluster tests "     \
                  "need a "                                                                                  \
                  "real server");                                                                            \
        QString startError;                                                                                  \
        QVERIFY2((server).start(&startError __VA_OPT__(, ) __VA_ARGS__), qPrintable(startError));            \
    } while (false)
