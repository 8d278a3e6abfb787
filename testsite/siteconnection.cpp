#include "siteconnection.h"

#include "compressedzeros.h"
#include "httpformat.h"
#include "observedhost.h"
#include "siterecorder.h"
#include "testsite.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTcpSocket>

#include <sys/socket.h>

namespace testsite {

namespace {

constexpr qsizetype kMaxHead = 64 * 1024;
constexpr qint64 kHighWater = 256 * 1024; // keep the socket's write buffer bounded for huge bodies
const QByteArray kHtml = QByteArrayLiteral("text/html; charset=utf-8");

} // namespace

SiteConnection::SiteConnection(SiteRecorder *recorder, ObservedHost *host, QTcpSocket *socket,
                               QObject *parent)
    : QObject(parent)
    , m_recorder(recorder)
    , m_host(host)
    , m_socket(socket)
    , m_id(recorder->nextConnectionId()) {
    m_socket->setParent(this);
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_local = m_socket->localAddress();
    m_localPort = m_socket->localPort();
    m_recorder->connectionOpened(m_host);
    connect(m_socket, &QTcpSocket::readyRead, this, [this] { onReadyRead(); });
    connect(m_socket, &QTcpSocket::bytesWritten, this, [this](qint64) { onBytesWritten(); });
    connect(m_socket, &QTcpSocket::disconnected, this, [this] { onDisconnected(); });
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket->state() != QAbstractSocket::ConnectedState)
            onDisconnected();
    });
    m_trickle.setTimerType(Qt::PreciseTimer);
    connect(&m_trickle, &QTimer::timeout, this, [this] { trickleTick(); });
    if (m_socket->bytesAvailable() > 0)
        QTimer::singleShot(0, this, [this] { onReadyRead(); });
}

void SiteConnection::shutdown() {
    if (m_closed) {
        if (m_working) { // a work=N request whose client left: the site stops, so does the work
            endAll(true);
            deleteLater();
        }
        return;
    }
    endAll(false);
    markClosed();
    m_socket->abort();
    deleteLater();
}

void SiteConnection::onReadyRead() {
    if (m_closed)
        return;
    m_in.append(m_socket->readAll());
    bool added = false;
    while (!m_stopParsing) {
        if (m_skipBody > 0) {
            const qint64 n = qMin<qint64>(m_skipBody, m_in.size());
            m_in.remove(0, n);
            m_skipBody -= n;
            if (m_skipBody > 0)
                break;
        }
        // Tolerate stray CRLFs between requests (RFC 9112 section 2.2).
        qsizetype lead = 0;
        while (lead < m_in.size() && (m_in[lead] == '\r' || m_in[lead] == '\n'))
            ++lead;
        if (lead > 0)
            m_in.remove(0, lead);
        if (m_in.isEmpty())
            break;
        qsizetype headEnd = m_in.indexOf("\r\n\r\n");
        qsizetype sepLen = 4;
        const qsizetype lfEnd = m_in.indexOf("\n\n");
        if (lfEnd >= 0 && (headEnd < 0 || lfEnd < headEnd)) {
            headEnd = lfEnd;
            sepLen = 2;
        }
        if (headEnd < 0) {
            if (m_in.size() > kMaxHead) {
                addBadRequest(431);
                added = true;
            }
            break;
        }
        if (headEnd > kMaxHead) {
            addBadRequest(431);
            added = true;
            break;
        }
        const qint64 startNs = TestSite::nowNs();
        const QByteArray head = m_in.left(headEnd);
        m_in.remove(0, headEnd + sepLen);
        parseHead(head, startNs);
        added = true;
    }
    if (added && !m_busy)
        processNext();
}

void SiteConnection::addBadRequest(int status) {
    IncomingRequest r;
    r.errorStatus = status;
    r.keepAlive = false;
    r.serial = ++m_serial;
    RequestRecord rec;
    rec.startNs = TestSite::nowNs();
    rec.connectionId = m_id;
    bool failing = false;
    r.ticket = m_recorder->begin(m_host, QByteArray(), std::move(rec), 0, &failing);
    m_queue.append(std::move(r));
    m_stopParsing = true;
    m_in.clear();
}

void SiteConnection::parseHead(const QByteArray &head, qint64 startNs) {
    IncomingRequest r;
    r.serial = ++m_serial;
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    QByteArray version;
    if (requestLine.size() == 3) {
        r.method = requestLine[0];
        r.target = requestLine[1];
        version = requestLine[2];
    }
    const bool http11 = version == "HTTP/1.1";
    const bool http10 = version == "HTTP/1.0";
    r.keepAlive = http11;
    QByteArray ua;
    qint64 contentLength = 0;
    bool chunked = false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray &line = lines[i];
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = line.left(colon).trimmed();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name.compare("user-agent", Qt::CaseInsensitive) == 0) {
            ua = value;
        } else if (name.compare("connection", Qt::CaseInsensitive) == 0) {
            const QByteArray v = value.toLower();
            if (v.contains("close"))
                r.keepAlive = false;
            else if (v.contains("keep-alive"))
                r.keepAlive = true;
        } else if (name.compare("content-length", Qt::CaseInsensitive) == 0) {
            contentLength = toNumber(value, -1);
            if (contentLength < 0)
                r.errorStatus = 400;
        } else if (name.compare("transfer-encoding", Qt::CaseInsensitive) == 0) {
            chunked = !value.isEmpty();
        }
    }
    if (r.method.isEmpty() || (!http11 && !http10) || !r.target.startsWith('/'))
        r.errorStatus = 400;
    else if (chunked)
        r.errorStatus = 501;
    if (r.errorStatus) {
        r.keepAlive = false;
        m_stopParsing = true;
    } else {
        m_skipBody = contentLength;
        if (!r.keepAlive)
            m_stopParsing = true; // nothing after a closing request is served
    }

    const qsizetype q = r.target.indexOf('?');
    r.path = q < 0 ? r.target : r.target.left(q);
    r.query = q < 0 ? QByteArray() : r.target.mid(q + 1);
    r.control =
        !r.errorStatus && m_recorder->controlEndpoints() && (r.path == "/__records" || r.path == "/__reset");
    if (!r.errorStatus && !r.control)
        r.profile = ResponseProfile::fromQuery(r.query);
    if (!r.errorStatus && !r.control && r.path == "/robots.txt") {
        r.robots = m_recorder->robots(m_host);
        if (r.robots && r.robots->failFirst > 0) { // counted per host like fail=K
            r.profile.fail = r.robots->failFirst;
            r.profile.failStatus = r.robots->failStatus;
        }
    }
    if (!r.control) {
        RequestRecord rec;
        rec.target = QString::fromLatin1(r.target);
        rec.startNs = startNs;
        rec.connectionId = m_id;
        rec.userAgent = ua;
        rec.method = r.method;
        rec.head = head;
        r.ticket = m_recorder->begin(m_host, r.target, std::move(rec), r.profile.fail, &r.failing);
    }
    m_queue.append(std::move(r));
}

void SiteConnection::processNext() {
    if (m_closed || m_busy || m_queue.isEmpty())
        return;
    m_busy = true;
    IncomingRequest &r = m_queue.front();
    const ResponseProfile &p = r.profile;
    int delay = p.msMin;
    if (p.msMax > p.msMin)
        delay = p.msMin + int(QRandomGenerator::global()->bounded(p.msMax - p.msMin + 1));
    if (p.tolerance.enabled() && !r.errorStatus && !r.control && !r.failing) {
        // Decided when the request comes up, as a server with K workers would.
        const int load = m_recorder->admitTolerant(m_host, p.tolerance, &r.ticket);
        r.overTolerance = load == 0;
        delay = r.overTolerance ? 0 : p.tolerance.latencyMs(load);
    }
    if (delay > 0 && !r.errorStatus && !r.control) {
        const quint64 serial = r.serial;
        m_working = p.work;
        QTimer::singleShot(delay, Qt::PreciseTimer, this, [this, serial] {
            if (m_queue.isEmpty() || m_queue.front().serial != serial)
                return;
            m_working = false;
            if (m_closed)
                finishAbandonedWork();
            else
                respond();
        });
    } else {
        respond();
    }
}

QByteArray SiteConnection::baseUrl() const {
    return "http://" + hostKey(m_local, m_localPort).toLatin1();
}

QByteArray SiteConnection::defaultPage(const IncomingRequest &r, int status) const {
    const QByteArray t = htmlEscape(r.target);
    QByteArray title =
        status == 200 ? "Crawlscope test page " + t : QByteArray::number(status) + ' ' + reasonPhrase(status);
    if (r.profile.soft404)
        title = "Page not found"; // the error template some sites serve with a 200
    else if (r.profile.hasTitle)
        title = htmlEscape(r.profile.title);
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title +
           "</title></head>\n<body><h1>" + title + "</h1><p>" + t + " served by " + m_host->name.toLatin1() +
           "</p></body></html>\n";
}

QList<QByteArray> SiteConnection::retryAfter(const ResponseProfile &p) const {
    if (p.hasRaraw)
        return {"Retry-After: " + p.raraw};
    if (p.hasRadate) {
        const QDateTime when = QDateTime::currentDateTimeUtc().addSecs(p.radate);
        return {"Retry-After: " + httpDate(when, p.rafmt.isEmpty() ? QByteArray("imf") : p.rafmt)};
    }
    if (!p.ra.isEmpty())
        return {"Retry-After: " + p.ra};
    return {};
}

QByteArray SiteConnection::contentType(const IncomingRequest &r) const {
    return r.profile.type.isEmpty() ? kHtml : r.profile.type;
}

void SiteConnection::writeHead(IncomingRequest &r, int status, const QList<QByteArray> &extra,
                               qint64 contentLength, bool keepAlive) {
    r.status = status;
    m_recorder->setStatus(r.ticket, status);
    QByteArray h;
    h.reserve(256);
    h.append("HTTP/1.1 ").append(QByteArray::number(status)).append(' ').append(reasonPhrase(status));
    h.append("\r\nServer: crawlscope-testsite\r\nDate: ")
        .append(httpDate(QDateTime::currentDateTimeUtc(), "imf"));
    for (const QByteArray &e : extra)
        h.append("\r\n").append(e);
    if (contentLength >= 0)
        h.append("\r\nContent-Length: ").append(QByteArray::number(contentLength));
    h.append(keepAlive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n");
    m_socket->write(h);
}

// headers=N and headerbytes=N: heads far bigger than any real one.
QList<QByteArray> SiteConnection::bulkyHeaders(const ResponseProfile &p) {
    QList<QByteArray> out;
    out.reserve(p.headerCount + 1);
    for (int i = 1; i <= p.headerCount; ++i) {
        const QByteArray n = QByteArray::number(i);
        out.append("X-Filler-" + n + ": value " + n);
    }
    if (p.headerBytes > 0)
        out.append("X-Big: " + QByteArray(p.headerBytes, 'x'));
    return out;
}

// A complete small response (status page or given body), then the next request or a close.
void SiteConnection::simpleResponse(IncomingRequest &r, int status, QList<QByteArray> extra,
                                    const QByteArray &body, const QByteArray &type, bool keepAlive) {
    const bool noBody = status == 204 || status == 304;
    if (!noBody)
        extra.append("Content-Type: " + type);
    writeHead(r, status, extra, noBody ? -1 : body.size(), keepAlive);
    if (!noBody && r.method != "HEAD")
        m_socket->write(body);
    m_after = keepAlive ? After::Next : After::Close;
    awaitFlush();
}

// The precedence between conflicting parameters is documented in testsite.h.
void SiteConnection::respond() {
    IncomingRequest &r = m_queue.front();
    if (r.control) {
        respondControl(r);
        return;
    }
    if (r.errorStatus) {
        simpleResponse(r, r.errorStatus, {}, defaultPage(r, r.errorStatus), kHtml, false);
        return;
    }
    const ResponseProfile &p = r.profile;
    if (p.hang)
        return; // ends when the client closes
    if (p.close) {
        closeNow(false);
        return;
    }
    if (p.malformed) {
        respondMalformed();
        return;
    }
    if (r.failing) {
        respondFailing(r);
        return;
    }
    if (r.overTolerance) {
        simpleResponse(r, 503, retryAfter(p), defaultPage(r, 503), kHtml, r.keepAlive);
        return;
    }
    if (r.robots) {
        respondRobots(r);
        return;
    }
    if (p.loop || p.redirect > 0 || p.hasTo || p.nolocation) {
        respondRedirect(r);
        return;
    }
    respondNormal(r);
}

void SiteConnection::respondControl(IncomingRequest &r) {
    QByteArray body;
    if (r.path == "/__reset") {
        m_recorder->reset();
        body = "{\"reset\":true}\n";
    } else {
        QString only;
        bool includeRequests = true;
        bool includeHeaders = false;
        for (const QByteArray &part : r.query.split('&')) {
            if (part.startsWith("host="))
                only = QString::fromUtf8(QByteArray::fromPercentEncoding(part.mid(5)));
            else if (part == "requests=0")
                includeRequests = false;
            else if (part == "headers=1")
                includeHeaders = true;
        }
        body = m_recorder->json(only, includeRequests, includeHeaders);
    }
    simpleResponse(r, 200, {}, body, "application/json", r.keepAlive);
}

// The host's robots profile (RobotsTxt): its text, its status, or a redirect.
void SiteConnection::respondRobots(IncomingRequest &r) {
    const RobotsTxt &robots = *r.robots;
    if (robots.kind == RobotsTxt::Kind::Redirect) {
        const QByteArray location =
            robots.location.startsWith('/') ? baseUrl() + robots.location : robots.location;
        simpleResponse(r, 301, {"Location: " + location}, defaultPage(r, 301), kHtml, r.keepAlive);
        return;
    }
    simpleResponse(r, robots.status, {}, robots.body, "text/plain; charset=utf-8", r.keepAlive);
}

void SiteConnection::respondMalformed() {
    m_socket->write("ICY 200 NOT-HTTP\r\nthis is not an HTTP response\r\n\r\n<html>garbage</html>\n");
    m_after = After::Close;
    awaitFlush();
}

void SiteConnection::respondFailing(IncomingRequest &r) {
    const int status = r.profile.failStatus;
    simpleResponse(r, status, retryAfter(r.profile), defaultPage(r, status), kHtml, r.keepAlive);
}

void SiteConnection::respondRedirect(IncomingRequest &r) {
    const ResponseProfile &p = r.profile;
    int status = 302;
    QList<QByteArray> extra;
    if (p.loop) {
        extra.append("Location: " + baseUrl() + r.target);
    } else if (p.redirect > 0) {
        QByteArray q;
        for (const QByteArray &part : r.query.split('&')) {
            if (!q.isEmpty())
                q.append('&');
            if (part == "redirect" || part.startsWith("redirect="))
                q.append("redirect=").append(QByteArray::number(p.redirect - 1));
            else
                q.append(part);
        }
        extra.append("Location: " + baseUrl() + r.path + '?' + q);
    } else {
        if (p.status >= 300 && p.status < 400)
            status = p.status;
        if (p.hasTo && !p.nolocation)
            extra.append("Location: " + p.to);
    }
    simpleResponse(r, status, extra, defaultPage(r, status), kHtml, r.keepAlive);
}

// status, size and type, with the body-shaping profiles (reset, lie, trickle) on top.
void SiteConnection::respondNormal(IncomingRequest &r) {
    const ResponseProfile &p = r.profile;
    const int status = p.status;
    QList<QByteArray> extra;
    if (status == 429 || status == 503)
        extra = retryAfter(p);
    const bool noBody = status == 204 || status == 304 || r.method == "HEAD";
    QByteArray page;
    qint64 bodySize = p.size;
    if (bodySize < 0) {
        page = defaultPage(r, status);
        bodySize = page.size();
    }
    if (p.reset) {
        respondReset(r, status, extra, page, bodySize);
        return;
    }
    if (p.lie >= 0) {
        respondLie(r, status, extra, page, bodySize);
        return;
    }
    if (p.trickle >= 0) {
        respondTrickle(r, status, extra);
        return;
    }
    if (status == 204 || status == 304) {
        writeHead(r, status, extra, -1, r.keepAlive);
        m_after = r.keepAlive ? After::Next : After::Close;
        awaitFlush();
        return;
    }
    respondBody(r, status, extra, page, bodySize, noBody);
}

// The normal answer's body: the page, size=N filler or compressed zeros, framed as asked.
void SiteConnection::respondBody(IncomingRequest &r, int status, QList<QByteArray> extra,
                                 const QByteArray &page, qint64 bodySize, bool noBody) {
    const ResponseProfile &p = r.profile;
    const bool compressed = p.zeros >= 0;
    ResponseBody body = compressed ? ResponseBody::ofSegments(compressedZeros(p.coding, p.zeros))
                                   : ResponseBody::ofPage(page, bodySize);
    extra.append("Content-Type: " + contentType(r));
    if (compressed)
        extra.append(p.coding == ContentCoding::Gzip ? "Content-Encoding: gzip"
                                                     : "Content-Encoding: deflate");
    extra += bulkyHeaders(p);
    const bool chunked = p.framing != ResponseBody::Framing::Plain;
    if (chunked)
        extra.append("Transfer-Encoding: chunked");
    writeHead(r, status, extra, chunked ? -1 : body.payloadSize(), r.keepAlive);
    if (noBody)
        body = ResponseBody::ofPage({}, 0);
    else
        body.setFraming(p.framing);
    // After a broken chunked body the connection cannot carry another response.
    const bool broken = !noBody && (p.framing == ResponseBody::Framing::BadChunkSize ||
                                    p.framing == ResponseBody::Framing::TruncatedChunk);
    m_after = r.keepAlive && !broken ? After::Next : After::Close;
    startBody(std::move(body));
    pump();
}

// Headers and half the body, then an RST.
void SiteConnection::respondReset(IncomingRequest &r, int status, QList<QByteArray> extra,
                                  const QByteArray &page, qint64 bodySize) {
    extra.append("Content-Type: " + contentType(r));
    writeHead(r, status, extra, bodySize, true);
    startBody(ResponseBody::ofPage(page, bodySize / 2));
    m_after = After::Reset;
    pump();
}

// Content-Length promises `lie` bytes more than are sent, then the connection closes.
void SiteConnection::respondLie(IncomingRequest &r, int status, QList<QByteArray> extra,
                                const QByteArray &page, qint64 bodySize) {
    extra.append("Content-Type: " + contentType(r));
    writeHead(r, status, extra, bodySize + r.profile.lie, true);
    startBody(ResponseBody::ofPage(page, bodySize));
    m_after = After::Close;
    pump();
}

void SiteConnection::respondTrickle(IncomingRequest &r, int status, QList<QByteArray> extra) {
    const ResponseProfile &p = r.profile;
    extra.append("Content-Type: " + contentType(r));
    writeHead(r, status, extra, p.trickle, r.keepAlive);
    m_trickleLeft = p.trickle;
    m_after = r.keepAlive ? After::Next : After::Close;
    if (m_trickleLeft == 0)
        awaitFlush();
    else
        m_trickle.start(p.every);
}

void SiteConnection::startBody(ResponseBody body) {
    m_body = std::move(body);
    m_pumping = true;
}

// Writes body slices while the socket's buffer is below the high-water mark; bytesWritten resumes.
void SiteConnection::pump() {
    while (!m_body.atEnd() && m_socket->bytesToWrite() < kHighWater)
        m_socket->write(m_body.next(kBodySlice));
    if (m_body.atEnd()) {
        m_pumping = false;
        m_body = ResponseBody();
        awaitFlush();
    }
}

void SiteConnection::trickleTick() {
    if (m_closed || m_trickleLeft <= 0) {
        m_trickle.stop();
        return;
    }
    m_socket->write(fillerBlock().constData(), 1);
    if (--m_trickleLeft == 0) {
        m_trickle.stop();
        awaitFlush();
    }
}

void SiteConnection::awaitFlush() {
    m_flushing = true;
    if (m_socket->bytesToWrite() == 0)
        QTimer::singleShot(0, this, [this] { onBytesWritten(); });
}

void SiteConnection::onBytesWritten() {
    if (m_closed)
        return;
    if (m_pumping) {
        pump();
        return;
    }
    if (!m_flushing || m_socket->bytesToWrite() > 0)
        return;
    m_flushing = false;
    switch (m_after) {
    case After::Next: {
        finishFront();
        m_busy = false;
        processNext();
        break;
    }
    case After::Close:
        closeNow(false);
        break;
    case After::Reset:
        // Give the client a moment to read the partial body before the RST discards it.
        QTimer::singleShot(20, this, [this] {
            if (!m_closed)
                closeNow(true);
        });
        break;
    }
}

void SiteConnection::finishFront() {
    if (m_queue.isEmpty())
        return;
    IncomingRequest r = m_queue.takeFirst();
    m_recorder->end(m_host, r.ticket, r.status, TestSite::nowNs(), false);
}

void SiteConnection::endAll(bool clientClosed) {
    const qint64 now = TestSite::nowNs();
    for (const IncomingRequest &r : std::as_const(m_queue))
        m_recorder->end(m_host, r.ticket, r.status, now, clientClosed);
    m_queue.clear();
}

// The one place a connection stops counting as open.
void SiteConnection::markClosed() {
    m_closed = true;
    m_trickle.stop();
    m_recorder->connectionClosed(m_host);
}

void SiteConnection::closeNow(bool reset) {
    if (m_closed)
        return;
    endAll(false);
    markClosed();
    if (reset) {
        const qintptr fd = m_socket->socketDescriptor();
        if (fd >= 0) {
            const struct linger lg = {1, 0};
            ::setsockopt(int(fd), SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        }
        m_socket->abort();
        deleteLater();
    } else {
        m_socket->disconnectFromHost();
        if (m_socket->state() == QAbstractSocket::UnconnectedState)
            deleteLater();
    }
}

void SiteConnection::onDisconnected() {
    if (m_closed) {
        if (!m_working)
            deleteLater();
        return;
    }
    if (m_working) {
        // work=N: the handler has not noticed; its request stays in flight until the work is done.
        IncomingRequest working = m_queue.takeFirst();
        endAll(true);
        m_queue.append(std::move(working));
        markClosed();
        return;
    }
    endAll(true);
    markClosed();
    deleteLater();
}

// The work of a request whose client already left is done: only now does it stop counting.
void SiteConnection::finishAbandonedWork() {
    endAll(true);
    deleteLater();
}

} // namespace testsite
