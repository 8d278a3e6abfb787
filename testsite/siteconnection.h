#pragma once

#include "incomingrequest.h"
#include "responsebody.h"

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QTimer>

class QTcpSocket;

namespace testsite {

struct ObservedHost;
class SiteRecorder;

// One accepted connection of the test site, in the server thread. Requests are parsed as they arrive
// (recorded at once) and answered strictly in order; only the front of the queue is being answered.
class SiteConnection : public QObject {
public:
    SiteConnection(SiteRecorder *recorder, ObservedHost *host, QTcpSocket *socket, QObject *parent);

    // Server shutdown: end every open request and drop the connection.
    void shutdown();

private:
    // What happens once the response has been flushed.
    enum class After { Next, Close, Reset };

    // Reading and queueing.
    void onReadyRead();
    void addBadRequest(int status);
    void parseHead(const QByteArray &head, qint64 startNs);
    void processNext();

    // Answering the front request, one handler per profile, in precedence order.
    void respond();
    void respondControl(IncomingRequest &r);
    void respondMalformed();
    void respondFailing(IncomingRequest &r);
    void respondRedirect(IncomingRequest &r);
    void respondNormal(IncomingRequest &r);
    void respondRobots(IncomingRequest &r);
    void respondReset(IncomingRequest &r, int status, QList<QByteArray> extra, const QByteArray &page,
                      qint64 bodySize);
    void respondLie(IncomingRequest &r, int status, QList<QByteArray> extra, const QByteArray &page,
                    qint64 bodySize);
    void respondTrickle(IncomingRequest &r, int status, QList<QByteArray> extra);
    void respondBody(IncomingRequest &r, int status, QList<QByteArray> extra, const QByteArray &page,
                     qint64 bodySize, bool noBody);

    // Writing.
    QByteArray baseUrl() const;
    QByteArray defaultPage(const IncomingRequest &r, int status) const;
    QByteArray contentType(const IncomingRequest &r) const;
    void writeHead(IncomingRequest &r, int status, const QList<QByteArray> &extra, qint64 contentLength,
                   bool keepAlive);
    QList<QByteArray> retryAfter(const ResponseProfile &p) const;
    static QList<QByteArray> bulkyHeaders(const ResponseProfile &p);
    void simpleResponse(IncomingRequest &r, int status, QList<QByteArray> extra, const QByteArray &body,
                        const QByteArray &type, bool keepAlive);
    void startBody(ResponseBody body);
    void pump();
    void trickleTick();
    void awaitFlush();
    void onBytesWritten();

    // Ending.
    void finishFront();
    void endAll(bool clientClosed);
    void markClosed();
    void closeNow(bool reset);
    void onDisconnected();
    void finishAbandonedWork();

    SiteRecorder *m_recorder;
    ObservedHost *m_host;
    QTcpSocket *m_socket;
    quint64 m_id;
    QHostAddress m_local;
    quint16 m_localPort = 0;
    QByteArray m_in;
    qint64 m_skipBody = 0;
    QList<IncomingRequest> m_queue;
    quint64 m_serial = 0;
    bool m_busy = false;
    bool m_stopParsing = false;
    bool m_closed = false;
    bool m_flushing = false;
    bool m_pumping = false;
    bool m_working = false; // the front request is in its work=N delay
    After m_after = After::Next;
    ResponseBody m_body;
    qint64 m_trickleLeft = 0;
    QTimer m_trickle;
};

} // namespace testsite
