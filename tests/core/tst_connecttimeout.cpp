// The connect timeout, against a loopback listener whose accept queue is full: the kernel drops further
// SYNs, so a connect hangs exactly like one to an unreachable host — without leaving 127.0.0.0/8.
#include "engine/crawlengine.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace crawl;

namespace {
class FullBacklogListener {
public:
    FullBacklogListener() {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (::bind(m_listener, reinterpret_cast<sockaddr *>(&address), length) != 0 ||
            ::listen(m_listener, 0) != 0)
            return;
        ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&address), &length);
        m_port = ntohs(address.sin_port);
        // Fill the accept queue (never accepted) so later handshakes get no answer.
        for (int i = 0; i < 3; ++i) {
            const int client = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            ::connect(client, reinterpret_cast<sockaddr *>(&address), sizeof address);
            m_clients.push_back(client);
        }
    }
    ~FullBacklogListener() {
        for (int fd : m_clients)
            ::close(fd);
        ::close(m_listener);
    }
    // A non-blocking connect becomes writable once its handshake completed (the queue then holds it).
    bool waitUntilQueueFull() const {
        std::vector<pollfd> fds;
        for (int fd : m_clients)
            fds.push_back({fd, POLLOUT, 0});
        for (int round = 0; round < 20; ++round) {
            if (::poll(fds.data(), fds.size(), 100) < 0)
                return false;
            int writable = 0;
            for (pollfd &p : fds)
                writable += (p.revents & POLLOUT) ? 1 : 0;
            if (writable >= 1) // Linux queues backlog + 1 connections; the rest stay in SYN_SENT
                return true;
        }
        return false;
    }
    quint16 port() const { return m_port; }

private:
    int m_listener = -1;
    quint16 m_port = 0;
    std::vector<int> m_clients;
};
} // namespace

class TestConnectTimeout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void connectTimeoutEndsTheAttempt() {
        FullBacklogListener listener;
        QVERIFY(listener.port() != 0);
        // Wait until the kernel has completed the filler handshakes, so the engine's is the one left hanging.
        QVERIFY(listener.waitUntilQueueFull());

        CrawlEngine engine;
        FetchPolicy policy;
        policy.maxRetries = 0;
        policy.connectTimeoutS = 1;
        policy.idleTimeoutS = 30;
        policy.totalTimeoutS = 30;
        engine.setFetchPolicy(policy);
        QList<CrawlResult> results;
        connect(&engine, &CrawlEngine::resultsReady, this,
                [&](const QList<CrawlResult> &batch) { results += batch; });
        QSignalSpy finished(&engine, &CrawlEngine::finished);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(engine.start(
            InputSource::fromText(QStringLiteral("http://127.0.0.1:%1/x\n").arg(listener.port()).toUtf8())));
        QVERIFY(finished.wait(15'000));
        const qint64 elapsed = clock.elapsed();
        QCOMPARE(results.size(), 1);
        QCOMPARE(results[0].outcome, Outcome::Timeout);
        QVERIFY2(results[0].error.contains(QLatin1String("could not connect within 1 s")),
                 qPrintable(results[0].error));
        // Ends near the connect timeout, not at the idle (30 s) or total (30 s) timeout.
        QVERIFY2(elapsed >= 900 && elapsed < 5'000, qPrintable(QString::number(elapsed)));
    }
};

QTEST_GUILESS_MAIN(TestConnectTimeout)
#include "tst_connecttimeout.moc"
