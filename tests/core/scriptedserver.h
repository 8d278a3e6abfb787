#pragma once
// A tiny HTTP/1.1 server for engine tests that need what the shared TestSite does not do: it records
// every request head (target, headers) and answers with whatever the test's handler returns, after an
// optional delay. It also accepts absolute-form targets, so it can stand in as an HTTP proxy (a test
// then names any host without resolving it). Runs in the test's thread; loopback only.

#include "headerfields.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QList>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <functional>

namespace crawl::testing {

struct ScriptedRequest {
    QByteArray target; // as sent: "/path?q" or "http://host/path?q" (via a proxy)
    testsite::HeaderFields headers;
    qint64 startMs = 0; // server clock (ms since the server started)
    QByteArray header(const QByteArray &name) const {
        const QByteArray *value = testsite::findHeader(headers, name);
        return value ? *value : QByteArray();
    }
    bool hasHeader(const QByteArray &name) const { return testsite::findHeader(headers, name) != nullptr; }
};

struct ScriptedResponse {
    QByteArray raw; // status line, headers and body, written as is
    int delayMs = 0;
};

inline ScriptedResponse okResponse(const QByteArray &body = "ok") {
    return {"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                QByteArray::number(body.size()) + "\r\n\r\n" + body,
            0};
}

inline ScriptedResponse redirectResponse(const QByteArray &location) {
    return {"HTTP/1.1 302 Found\r\nLocation: " + location + "\r\nContent-Length: 0\r\n\r\n", 0};
}

class ScriptedServer : public QObject {
public:
    using Handler = std::function<ScriptedResponse(const ScriptedRequest &)>;

    explicit ScriptedServer(Handler handler,
                            const QHostAddress &address = QHostAddress(QStringLiteral("127.0.0.2")))
        : m_handler(std::move(handler)) {
        m_clock.start();
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection())
                serve(socket);
        });
        m_server.listen(address, 0);
    }

    bool listening() const { return m_server.isListening(); }
    QByteArray base() const {
        return "http://" + m_server.serverAddress().toString().toLatin1() + ':' +
               QByteArray::number(m_server.serverPort());
    }
    QHostAddress address() const { return m_server.serverAddress(); }
    quint16 port() const { return m_server.serverPort(); }

    QList<ScriptedRequest> requests;
    int inFlight = 0;
    int peakInFlight = 0;

private:
    void serve(QTcpSocket *socket) {
        socket->setParent(this);
        QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        QObject::connect(socket, &QTcpSocket::readyRead, this, [this, socket] { readFrom(socket); });
    }

    void readFrom(QTcpSocket *socket) {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        qsizetype end;
        while ((end = buffer.indexOf("\r\n\r\n")) >= 0) {
            const QByteArray head = buffer.left(end);
            buffer.remove(0, end + 4);
            ScriptedRequest request;
            request.startMs = m_clock.elapsed();
            const QList<QByteArray> lines = head.split('\n');
            const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
            request.target = requestLine.value(1);
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QByteArray line = lines[i].trimmed();
                const qsizetype colon = line.indexOf(':');
                if (colon > 0)
                    request.headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
            }
            requests.append(request);
            ++inFlight;
            peakInFlight = std::max(peakInFlight, inFlight);
            const ScriptedResponse response = m_handler(request);
            QPointer<QTcpSocket> guard(socket);
            QTimer::singleShot(response.delayMs, this, [this, guard, raw = response.raw] {
                --inFlight;
                if (guard)
                    guard->write(raw);
            });
        }
    }

    Handler m_handler;
    QTcpServer m_server;
    QElapsedTimer m_clock;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

} // namespace crawl::testing
