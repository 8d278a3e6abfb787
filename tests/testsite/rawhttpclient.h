#pragma once

// A minimal raw HTTP/1.1 client for the test site's tests: what the server put on the wire, unparsed
// by Qt's HTTP stack.
#include "headerfields.h"
#include "testsite.h"

#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QTcpSocket>
#include <QTest>

namespace rawhttp {

struct Response {
    QByteArray statusLine;
    int status = 0;
    testsite::HeaderFields headers;
    QByteArray body;
    qint64 bodyBytes = 0;
    qint64 headNs = 0; // when the head was parsed (client side)
    qint64 doneNs = 0;
    bool complete = false;

    QByteArray header(const QByteArray &name) const {
        const QByteArray *value = testsite::findHeader(headers, name);
        return value ? *value : QByteArray();
    }
    bool hasHeader(const QByteArray &name) const { return testsite::findHeader(headers, name) != nullptr; }
};

// A minimal HTTP/1.1 client on one QTcpSocket: sends raw requests, parses responses in order.
class Client {
public:
    ~Client() {
        socket.disconnect(); // no callbacks into a half-destroyed client
        socket.abort();
    }
    explicit Client(bool keepBodies = true)
        : m_keepBodies(keepBodies) {
        QObject::connect(&socket, &QTcpSocket::readyRead, &socket, [this] { onReadyRead(); });
        QObject::connect(&socket, &QTcpSocket::disconnected, &socket, [this] {
            onReadyRead();
            disconnected = true;
        });
        QObject::connect(&socket, &QTcpSocket::errorOccurred, &socket,
                         [this](QAbstractSocket::SocketError e) { error = e; });
    }

    bool connectTo(const QString &host) {
        const qsizetype colon = host.lastIndexOf(QLatin1Char(':'));
        socket.connectToHost(QHostAddress(host.left(colon)), quint16(host.mid(colon + 1).toUInt()));
        return QTest::qWaitFor(
                   [this] {
                       return socket.state() == QAbstractSocket::ConnectedState || disconnected ||
                              error != QAbstractSocket::UnknownSocketError;
                   },
                   5000) &&
               socket.state() == QAbstractSocket::ConnectedState;
    }

    void get(const QByteArray &target, const QByteArray &extraHeaders = {}) {
        sendRaw("GET " + target + " HTTP/1.1\r\nHost: test\r\nUser-Agent: tst_testsite/1.0\r\n" +
                extraHeaders + "\r\n");
    }
    void sendRaw(const QByteArray &bytes) { socket.write(bytes); }

    bool waitResponses(int n, int timeoutMs = 5000) {
        return QTest::qWaitFor([&] { return completeCount() >= n || disconnected; }, timeoutMs) &&
               completeCount() >= n;
    }
    bool waitDisconnected(int timeoutMs = 5000) {
        return QTest::qWaitFor([this] { return disconnected; }, timeoutMs);
    }
    int completeCount() const {
        int n = 0;
        for (const Response &r : responses)
            n += r.complete ? 1 : 0;
        return n;
    }

    QTcpSocket socket;
    QList<Response> responses;
    QByteArray raw; // everything received
    int reads = 0;
    bool disconnected = false;
    QAbstractSocket::SocketError error = QAbstractSocket::UnknownSocketError;

private:
    void onReadyRead() {
        if (!socket.isOpen() || socket.bytesAvailable() <= 0)
            return;
        const QByteArray data = socket.readAll();
        if (data.isEmpty())
            return;
        ++reads;
        if (m_keepBodies || responses.isEmpty())
            raw.append(data);
        m_buf.append(data);
        parse();
    }

    void parse() {
        for (;;) {
            if (m_inBody) {
                Response &r = responses.last();
                const qint64 n = qMin<qint64>(m_bodyLeft, m_buf.size());
                if (m_keepBodies)
                    r.body.append(m_buf.constData(), n);
                r.bodyBytes += n;
                m_buf.remove(0, n);
                m_bodyLeft -= n;
                if (m_bodyLeft > 0)
                    return;
                m_inBody = false;
                r.complete = true;
                r.doneNs = testsite::TestSite::nowNs();
            }
            const qsizetype end = m_buf.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            Response r;
            const QList<QByteArray> lines = m_buf.left(end).split('\n');
            m_buf.remove(0, end + 4);
            r.statusLine = lines.value(0).trimmed();
            r.status = r.statusLine.startsWith("HTTP/") ? r.statusLine.split(' ').value(1).toInt() : 0;
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                if (colon > 0)
                    r.headers.append({lines[i].left(colon).trimmed(), lines[i].mid(colon + 1).trimmed()});
            }
            r.headNs = testsite::TestSite::nowNs();
            m_bodyLeft = r.hasHeader("Content-Length") ? r.header("Content-Length").toLongLong() : 0;
            responses.append(r);
            m_inBody = true;
        }
    }

    bool m_keepBodies;
    QByteArray m_buf;
    bool m_inBody = false;
    qint64 m_bodyLeft = 0;
};

// One request on a fresh connection.
inline Response fetch(const QString &host, const QByteArray &target) {
    Client c;
    if (!c.connectTo(host))
        return {};
    c.get(target);
    c.waitResponses(1);
    return c.responses.value(0);
}

} // namespace rawhttp
