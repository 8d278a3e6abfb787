#include "testsite.h"

#include <QDateTime>
#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QPointer>
#include <QRandomGenerator>
#include <QSet>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <map>
#include <sys/socket.h>

namespace testsite {

namespace {

constexpr qsizetype kMaxHead = 64 * 1024;
constexpr qint64 kChunk = 64 * 1024;
constexpr qint64 kHighWater = 256 * 1024; // keep the socket's write buffer bounded for huge bodies

// Filler for size=N bodies: built once, written in slices, so a 50 MB body costs no 50 MB buffer.
const QByteArray &fillBlock() {
    static const QByteArray block = [] {
        const QByteArray line =
            QByteArrayLiteral("crawlscope test body filler 0123456789 abcdefghijklmnopqrstu\n");
        QByteArray b;
        b.reserve(kChunk);
        while (b.size() < kChunk)
            b.append(line);
        b.truncate(kChunk);
        return b;
    }();
    return block;
}

QByteArray reasonPhrase(int status) {
    switch (status) {
    case 200:
        return QByteArrayLiteral("OK");
    case 201:
        return QByteArrayLiteral("Created");
    case 204:
        return QByteArrayLiteral("No Content");
    case 206:
        return QByteArrayLiteral("Partial Content");
    case 301:
        return QByteArrayLiteral("Moved Permanently");
    case 302:
        return QByteArrayLiteral("Found");
    case 303:
        return QByteArrayLiteral("See Other");
    case 304:
        return QByteArrayLiteral("Not Modified");
    case 307:
        return QByteArrayLiteral("Temporary Redirect");
    case 308:
        return QByteArrayLiteral("Permanent Redirect");
    case 400:
        return QByteArrayLiteral("Bad Request");
    case 401:
        return QByteArrayLiteral("Unauthorized");
    case 403:
        return QByteArrayLiteral("Forbidden");
    case 404:
        return QByteArrayLiteral("Not Found");
    case 408:
        return QByteArrayLiteral("Request Timeout");
    case 410:
        return QByteArrayLiteral("Gone");
    case 429:
        return QByteArrayLiteral("Too Many Requests");
    case 431:
        return QByteArrayLiteral("Request Header Fields Too Large");
    case 500:
        return QByteArrayLiteral("Internal Server Error");
    case 501:
        return QByteArrayLiteral("Not Implemented");
    case 502:
        return QByteArrayLiteral("Bad Gateway");
    case 503:
        return QByteArrayLiteral("Service Unavailable");
    case 504:
        return QByteArrayLiteral("Gateway Timeout");
    default:
        return QByteArrayLiteral("Status");
    }
}

QByteArray twoDigits(int v) {
    return QByteArray::number(v).rightJustified(2, '0');
}

// Formatted by hand: QDateTime/QLocale formatting would follow the process locale.
QByteArray httpDate(const QDateTime &utc, const QByteArray &format) {
    static const char *const shortDays[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    static const char *const longDays[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                           "Friday", "Saturday", "Sunday"};
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const QDate date = utc.date();
    const QTime time = utc.time();
    const int dow = date.dayOfWeek() - 1;
    const QByteArray hms =
        twoDigits(time.hour()) + ':' + twoDigits(time.minute()) + ':' + twoDigits(time.second());
    const QByteArray month = months[date.month() - 1];
    if (format == "rfc850") {
        return QByteArray(longDays[dow]) + ", " + twoDigits(date.day()) + '-' + month + '-' +
               twoDigits(date.year() % 100) + ' ' + hms + " GMT";
    }
    if (format == "asctime") {
        return QByteArray(shortDays[dow]) + ' ' + month + ' ' +
               QByteArray::number(date.day()).rightJustified(2, ' ') + ' ' + hms + ' ' +
               QByteArray::number(date.year());
    }
    return QByteArray(shortDays[dow]) + ", " + twoDigits(date.day()) + ' ' + month + ' ' +
           QByteArray::number(date.year()) + ' ' + hms + " GMT";
}

QByteArray htmlEscape(const QByteArray &in) {
    QByteArray out;
    out.reserve(in.size());
    for (const char c : in) {
        switch (c) {
        case '&':
            out.append("&amp;");
            break;
        case '<':
            out.append("&lt;");
            break;
        case '>':
            out.append("&gt;");
            break;
        case '"':
            out.append("&quot;");
            break;
        default:
            out.append(c);
        }
    }
    return out;
}

void jsonString(QByteArray &out, const QByteArray &utf8) {
    out.append('"');
    for (const char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out.append('\\').append(ch);
        } else if (c < 0x20) {
            static const char hex[] = "0123456789abcdef";
            out.append("\\u00").append(hex[c >> 4]).append(hex[c & 0xf]);
        } else {
            out.append(ch);
        }
    }
    out.append('"');
}

QString hostKey(const QHostAddress &address, quint16 port) {
    const QString a = address.protocol() == QAbstractSocket::IPv6Protocol
                          ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
                          : address.toString();
    return a + QLatin1Char(':') + QString::number(port);
}

// The query-string profile of one request.
struct Params {
    int msMin = 0;
    int msMax = 0;
    int status = 200;
    int fail = 0;
    int failStatus = 503;
    QByteArray ra;
    qint64 radate = 0;
    bool hasRadate = false;
    QByteArray rafmt;
    QByteArray raraw;
    bool hasRaraw = false;
    qint64 size = -1;
    QByteArray type;
    bool hang = false;
    bool close = false;
    bool malformed = false;
    bool reset = false;
    bool loop = false;
    bool nolocation = false;
    qint64 trickle = -1;
    int every = 1000;
    qint64 lie = -1;
    int redirect = -1;
    QByteArray to;
    bool hasTo = false;
};

qint64 toNumber(const QByteArray &v, qint64 fallback) {
    bool ok = false;
    const qint64 n = v.toLongLong(&ok);
    return ok && n >= 0 ? n : fallback;
}

Params parseParams(const QByteArray &query) {
    Params p;
    if (query.isEmpty())
        return p;
    for (const QByteArray &part : query.split('&')) {
        const qsizetype eq = part.indexOf('=');
        const QByteArray key = eq < 0 ? part : part.left(eq);
        const QByteArray value = eq < 0 ? QByteArray() : QByteArray::fromPercentEncoding(part.mid(eq + 1));
        if (key == "ms") {
            const qsizetype dash = value.indexOf('-');
            if (dash > 0) {
                p.msMin = int(qMin<qint64>(toNumber(value.left(dash), 0), 3600000));
                p.msMax = int(qMin<qint64>(toNumber(value.mid(dash + 1), p.msMin), 3600000));
                if (p.msMax < p.msMin)
                    std::swap(p.msMin, p.msMax);
            } else {
                p.msMin = p.msMax = int(qMin<qint64>(toNumber(value, 0), 3600000));
            }
        } else if (key == "status") {
            const qint64 s = toNumber(value, 200);
            p.status = s >= 200 && s <= 599 ? int(s) : 200;
        } else if (key == "fail") {
            p.fail = int(qMin<qint64>(toNumber(value, 0), 1000000));
        } else if (key == "failstatus") {
            const qint64 s = toNumber(value, 503);
            p.failStatus = s >= 200 && s <= 599 ? int(s) : 503;
        } else if (key == "ra") {
            p.ra = value;
        } else if (key == "radate") {
            bool ok = false;
            const qint64 s = value.toLongLong(&ok); // negative = a date in the past
            if (ok) {
                p.radate = s;
                p.hasRadate = true;
            }
        } else if (key == "rafmt") {
            p.rafmt = value;
        } else if (key == "raraw") {
            p.raraw = value;
            p.raraw.replace('\r', "").replace('\n', "");
            p.hasRaraw = true;
        } else if (key == "size") {
            p.size = toNumber(value, -1);
        } else if (key == "type") {
            p.type = value;
            p.type.replace('\r', "").replace('\n', "");
        } else if (key == "hang") {
            p.hang = value != "0";
        } else if (key == "close") {
            p.close = value != "0";
        } else if (key == "malformed") {
            p.malformed = value != "0";
        } else if (key == "reset") {
            p.reset = value != "0";
        } else if (key == "loop") {
            p.loop = value != "0";
        } else if (key == "nolocation") {
            p.nolocation = value != "0";
        } else if (key == "trickle") {
            p.trickle = toNumber(value, -1);
        } else if (key == "every") {
            p.every = int(qBound(qint64(1), toNumber(value, 1000), qint64(3600000)));
        } else if (key == "lie") {
            p.lie = toNumber(value, -1);
        } else if (key == "redirect") {
            p.redirect = int(qMin<qint64>(toNumber(value, -1), 1000000));
        } else if (key == "to") {
            p.to = value;
            p.to.replace('\r', "").replace('\n', "");
            p.hasTo = true;
        }
    }
    return p;
}

struct HostState {
    QString name;
    HostRecord record;
    QHash<QByteArray, int> failHits; // target -> hits since the last reset
};

// Records and counters shared by the server thread (writer) and callers (readers).
struct SiteState {
    mutable QMutex mutex;
    QStringList hostNames;
    std::map<QString, std::unique_ptr<HostState>> hosts;
    QList<RequestRecord> records;
    quint64 generation = 1;
    qint64 maxRecords = -1;
    std::atomic<quint64> nextConnectionId{1};
    std::atomic<bool> controlEndpoints{false};

    struct Handle {
        quint64 generation = 0;
        qsizetype index = -1;
        bool counted = false;
    };

    // Returns the handle and whether this hit falls within `fail=K`.
    Handle begin(HostState *host, const QByteArray &target, quint64 connectionId, const QByteArray &ua,
                 qint64 startNs, int fail, bool *failing) {
        QMutexLocker lock(&mutex);
        Handle h;
        h.counted = true;
        h.generation = generation;
        HostRecord &r = host->record;
        ++r.requests;
        ++r.inFlight;
        r.peakInFlight = qMax(r.peakInFlight, r.inFlight);
        if (fail > 0) {
            const int hit = ++host->failHits[target];
            *failing = hit <= fail;
        } else {
            *failing = false;
        }
        if (maxRecords < 0 || records.size() < maxRecords) {
            RequestRecord rec;
            rec.host = host->name;
            rec.target = QString::fromLatin1(target);
            rec.startNs = startNs;
            rec.connectionId = connectionId;
            rec.userAgent = ua;
            h.index = records.size();
            records.append(std::move(rec));
        }
        return h;
    }

    void setStatus(const Handle &h, int status) {
        if (!h.counted)
            return;
        QMutexLocker lock(&mutex);
        if (h.generation == generation && h.index >= 0)
            records[h.index].status = status;
    }

    void end(HostState *host, const Handle &h, int status, qint64 endNs) {
        if (!h.counted)
            return;
        QMutexLocker lock(&mutex);
        host->record.inFlight = qMax(0, host->record.inFlight - 1);
        if (h.generation == generation && h.index >= 0) {
            records[h.index].endNs = endNs;
            records[h.index].status = status;
        }
    }

    void reset() {
        QMutexLocker lock(&mutex);
        ++generation;
        records.clear();
        for (auto &[name, host] : hosts) {
            host->record.requests = 0;
            host->record.peakInFlight = host->record.inFlight;
            host->failHits.clear();
        }
    }

    QByteArray json(const QString &only, bool includeRequests) const {
        QMutexLocker lock(&mutex);
        QByteArray out;
        out.reserve(256 + (includeRequests ? records.size() * 200 : 0));
        out.append("{\"hosts\":[");
        bool first = true;
        for (const QString &name : hostNames) {
            if (!only.isEmpty() && name != only)
                continue;
            const HostRecord &r = hosts.at(name)->record;
            if (!first)
                out.append(',');
            first = false;
            out.append("{\"host\":");
            jsonString(out, r.host.toUtf8());
            out.append(",\"inFlight\":").append(QByteArray::number(r.inFlight));
            out.append(",\"peakInFlight\":").append(QByteArray::number(r.peakInFlight));
            out.append(",\"requests\":").append(QByteArray::number(r.requests)).append('}');
        }
        out.append(']');
        if (includeRequests) {
            out.append(",\"requests\":[");
            first = true;
            for (const RequestRecord &rec : records) {
                if (!only.isEmpty() && rec.host != only)
                    continue;
                if (!first)
                    out.append(',');
                first = false;
                out.append("\n{\"host\":");
                jsonString(out, rec.host.toUtf8());
                out.append(",\"target\":");
                jsonString(out, rec.target.toUtf8());
                out.append(",\"startNs\":").append(QByteArray::number(rec.startNs));
                out.append(",\"endNs\":").append(QByteArray::number(rec.endNs));
                out.append(",\"status\":").append(QByteArray::number(rec.status));
                out.append(",\"connectionId\":").append(QByteArray::number(rec.connectionId));
                out.append(",\"userAgent\":");
                jsonString(out, rec.userAgent);
                out.append('}');
            }
            out.append(']');
        }
        out.append("}\n");
        return out;
    }
};

// One accepted connection. Requests are parsed as they arrive (recorded at once) and answered strictly
// in order; only the front of the queue is being answered.
class Connection : public QObject {
public:
    Connection(SiteState *state, HostState *host, QTcpSocket *socket, QObject *parent)
        : QObject(parent)
        , m_state(state)
        , m_host(host)
        , m_socket(socket)
        , m_id(state->nextConnectionId.fetch_add(1)) {
        m_socket->setParent(this);
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_local = m_socket->localAddress();
        m_localPort = m_socket->localPort();
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

    // Server shutdown: end every open request and drop the connection.
    void shutdown() {
        if (m_closed)
            return;
        endAll();
        m_closed = true;
        m_trickle.stop();
        m_socket->abort();
        deleteLater();
    }

private:
    enum class After { Next, Close, Reset };

    struct Request {
        QByteArray method;
        QByteArray target;
        QByteArray path;
        QByteArray query;
        bool keepAlive = true;
        bool control = false;
        int errorStatus = 0; // the request itself was unacceptable: answer this and close
        bool failing = false;
        Params params;
        SiteState::Handle handle;
        int status = 0;
        quint64 serial = 0;
    };

    void onReadyRead() {
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

    void addBadRequest(int status) {
        Request r;
        r.errorStatus = status;
        r.keepAlive = false;
        r.serial = ++m_serial;
        bool failing = false;
        r.handle = m_state->begin(m_host, QByteArray(), m_id, QByteArray(), TestSite::nowNs(), 0, &failing);
        m_queue.append(std::move(r));
        m_stopParsing = true;
        m_in.clear();
    }

    void parseHead(const QByteArray &head, qint64 startNs) {
        Request r;
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
        r.control = !r.errorStatus && m_state->controlEndpoints.load(std::memory_order_relaxed) &&
                    (r.path == "/__records" || r.path == "/__reset");
        if (!r.errorStatus && !r.control)
            r.params = parseParams(r.query);
        if (!r.control) {
            r.handle = m_state->begin(m_host, r.target, m_id, ua, startNs, r.params.fail, &r.failing);
        }
        m_queue.append(std::move(r));
    }

    void processNext() {
        if (m_closed || m_busy || m_queue.isEmpty())
            return;
        m_busy = true;
        Request &r = m_queue.front();
        const Params &p = r.params;
        int delay = p.msMin;
        if (p.msMax > p.msMin)
            delay = p.msMin + int(QRandomGenerator::global()->bounded(p.msMax - p.msMin + 1));
        if (delay > 0 && !r.errorStatus && !r.control) {
            const quint64 serial = r.serial;
            QTimer::singleShot(delay, Qt::PreciseTimer, this, [this, serial] {
                if (!m_closed && !m_queue.isEmpty() && m_queue.front().serial == serial)
                    respond();
            });
        } else {
            respond();
        }
    }

    QByteArray baseUrl() const { return "http://" + hostKey(m_local, m_localPort).toLatin1(); }

    QByteArray defaultPage(const Request &r, int status) const {
        const QByteArray t = htmlEscape(r.target);
        QByteArray title = status == 200 ? "Crawlscope test page " + t
                                         : QByteArray::number(status) + ' ' + reasonPhrase(status);
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title +
               "</title></head>\n<body><h1>" + title + "</h1><p>" + t + " served by " +
               m_host->name.toLatin1() + "</p></body></html>\n";
    }

    void writeHead(Request &r, int status, const QList<QByteArray> &extra, qint64 contentLength,
                   bool keepAlive) {
        r.status = status;
        m_state->setStatus(r.handle, status);
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

    QList<QByteArray> retryAfter(const Params &p) const {
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

    // A complete small response (status page or given body), then `after`.
    void simpleResponse(Request &r, int status, QList<QByteArray> extra, const QByteArray &body,
                        const QByteArray &type, bool keepAlive) {
        const bool noBody = status == 204 || status == 304;
        if (!noBody)
            extra.append("Content-Type: " + type);
        writeHead(r, status, extra, noBody ? -1 : body.size(), keepAlive);
        if (!noBody && r.method != "HEAD")
            m_socket->write(body);
        m_after = keepAlive ? After::Next : After::Close;
        awaitFlush();
    }

    void respond() {
        Request &r = m_queue.front();
        if (r.control) {
            QByteArray body;
            if (r.path == "/__reset") {
                m_state->reset();
                body = "{\"reset\":true}\n";
            } else {
                QString only;
                bool includeRequests = true;
                for (const QByteArray &part : r.query.split('&')) {
                    if (part.startsWith("host="))
                        only = QString::fromUtf8(QByteArray::fromPercentEncoding(part.mid(5)));
                    else if (part == "requests=0")
                        includeRequests = false;
                }
                body = m_state->json(only, includeRequests);
            }
            simpleResponse(r, 200, {}, body, "application/json", r.keepAlive);
            return;
        }
        if (r.errorStatus) {
            simpleResponse(r, r.errorStatus, {}, defaultPage(r, r.errorStatus), "text/html; charset=utf-8",
                           false);
            return;
        }
        const Params &p = r.params;
        const QByteArray html = "text/html; charset=utf-8";
        const QByteArray type = p.type.isEmpty() ? html : p.type;
        if (p.hang)
            return; // ends when the client closes
        if (p.close) {
            closeNow(false);
            return;
        }
        if (p.malformed) {
            m_socket->write("ICY 200 NOT-HTTP\r\nthis is not an HTTP response\r\n\r\n<html>garbage</html>\n");
            m_after = After::Close;
            awaitFlush();
            return;
        }
        if (r.failing) {
            const int status = p.failStatus;
            QList<QByteArray> extra = retryAfter(p);
            simpleResponse(r, status, extra, defaultPage(r, status), html, r.keepAlive);
            return;
        }
        if (p.loop || p.redirect > 0 || p.hasTo || p.nolocation) {
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
            simpleResponse(r, status, extra, defaultPage(r, status), html, r.keepAlive);
            return;
        }
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
            extra.append("Content-Type: " + type);
            writeHead(r, status, extra, bodySize, true);
            startBody(page, bodySize / 2);
            m_after = After::Reset;
            pump();
            return;
        }
        if (p.lie >= 0) {
            extra.append("Content-Type: " + type);
            writeHead(r, status, extra, bodySize + p.lie, true);
            startBody(page, bodySize);
            m_after = After::Close;
            pump();
            return;
        }
        if (p.trickle >= 0) {
            extra.append("Content-Type: " + type);
            writeHead(r, status, extra, p.trickle, r.keepAlive);
            m_trickleLeft = p.trickle;
            m_after = r.keepAlive ? After::Next : After::Close;
            if (m_trickleLeft == 0) {
                awaitFlush();
            } else {
                m_trickle.start(p.every);
            }
            return;
        }
        if (status == 204 || status == 304) {
            writeHead(r, status, extra, -1, r.keepAlive);
            m_after = r.keepAlive ? After::Next : After::Close;
            awaitFlush();
            return;
        }
        extra.append("Content-Type: " + type);
        writeHead(r, status, extra, bodySize, r.keepAlive);
        startBody(page, noBody ? 0 : bodySize);
        m_after = r.keepAlive ? After::Next : After::Close;
        pump();
    }

    void startBody(const QByteArray &page, qint64 bytes) {
        m_page = page;
        m_bodyOffset = 0;
        m_bodyLeft = bytes;
        m_pumping = true;
    }

    // Writes body slices while the socket's buffer is below the high-water mark; bytesWritten resumes.
    void pump() {
        while (m_bodyLeft > 0 && m_socket->bytesToWrite() < kHighWater) {
            const qint64 n = qMin(m_bodyLeft, kChunk);
            if (!m_page.isEmpty())
                m_socket->write(m_page.constData() + m_bodyOffset, n);
            else
                m_socket->write(fillBlock().constData(), n);
            m_bodyOffset += n;
            m_bodyLeft -= n;
        }
        if (m_bodyLeft == 0) {
            m_pumping = false;
            m_page.clear();
            awaitFlush();
        }
    }

    void trickleTick() {
        if (m_closed || m_trickleLeft <= 0) {
            m_trickle.stop();
            return;
        }
        m_socket->write(fillBlock().constData(), 1);
        if (--m_trickleLeft == 0) {
            m_trickle.stop();
            awaitFlush();
        }
    }

    void awaitFlush() {
        m_flushing = true;
        if (m_socket->bytesToWrite() == 0)
            QTimer::singleShot(0, this, [this] { onBytesWritten(); });
    }

    void onBytesWritten() {
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

    void finishFront() {
        if (m_queue.isEmpty())
            return;
        Request r = m_queue.takeFirst();
        m_state->end(m_host, r.handle, r.status, TestSite::nowNs());
    }

    void endAll() {
        const qint64 now = TestSite::nowNs();
        for (const Request &r : std::as_const(m_queue))
            m_state->end(m_host, r.handle, r.status, now);
        m_queue.clear();
    }

    void closeNow(bool reset) {
        if (m_closed)
            return;
        endAll();
        m_closed = true;
        m_trickle.stop();
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

    void onDisconnected() {
        if (!m_closed) {
            endAll();
            m_closed = true;
            m_trickle.stop();
        }
        deleteLater();
    }

    SiteState *m_state;
    HostState *m_host;
    QTcpSocket *m_socket;
    quint64 m_id;
    QHostAddress m_local;
    quint16 m_localPort = 0;
    QByteArray m_in;
    qint64 m_skipBody = 0;
    QList<Request> m_queue;
    quint64 m_serial = 0;
    bool m_busy = false;
    bool m_stopParsing = false;
    bool m_closed = false;
    bool m_flushing = false;
    bool m_pumping = false;
    After m_after = After::Next;
    QByteArray m_page;
    qint64 m_bodyOffset = 0;
    qint64 m_bodyLeft = 0;
    qint64 m_trickleLeft = 0;
    QTimer m_trickle;
};

// Lives in the server thread: the listening sockets and their connections.
class Server : public QObject {
public:
    explicit Server(SiteState *state)
        : m_state(state) {}
    ~Server() override {
        // Before QObject's own teardown, while m_connections is still alive for their destroyed().
        const QSet<Connection *> open = m_connections;
        qDeleteAll(open);
    }

    QString listen(const QHostAddress &address, quint16 port, QString *error) {
        auto *server = new QTcpServer(this);
        server->setListenBacklogSize(1024);
        if (!server->listen(address, port)) {
            if (error)
                *error = server->errorString();
            delete server;
            return {};
        }
        const QString name = hostKey(address, server->serverPort());
        HostState *host = nullptr;
        {
            QMutexLocker lock(&m_state->mutex);
            auto state = std::make_unique<HostState>();
            state->name = name;
            state->record.host = name;
            host = state.get();
            m_state->hosts[name] = std::move(state);
            m_state->hostNames.append(name);
        }
        connect(server, &QTcpServer::newConnection, this, [this, server, host] {
            while (QTcpSocket *socket = server->nextPendingConnection()) {
                auto *c = new Connection(m_state, host, socket, this);
                m_connections.insert(c);
                connect(c, &QObject::destroyed, this, [this, c] { m_connections.remove(c); });
            }
        });
        return name;
    }

    void shutdown() {
        for (QTcpServer *s : findChildren<QTcpServer *>(Qt::FindDirectChildrenOnly))
            s->close();
        const QSet<Connection *> open = m_connections;
        for (Connection *c : open)
            c->shutdown();
    }

private:
    SiteState *m_state;
    QSet<Connection *> m_connections;
};

} // namespace

class TestSite::Private {
public:
    SiteState state;
    QThread thread;
    Server *server = nullptr;

    template <typename F> void runInServer(F &&f) {
        if (QThread::currentThread() == &thread)
            f();
        else
            QMetaObject::invokeMethod(server, std::forward<F>(f), Qt::BlockingQueuedConnection);
    }
};

TestSite::TestSite(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>()) {
    d->thread.setObjectName(QStringLiteral("testsite"));
    d->server = new Server(&d->state);
    d->server->moveToThread(&d->thread);
    d->thread.start();
}

TestSite::~TestSite() {
    Server *server = d->server;
    d->runInServer([server] {
        server->shutdown();
        // Connections and listeners are children of the server: delete them here, in their thread.
        delete server;
    });
    d->server = nullptr;
    d->thread.quit();
    d->thread.wait();
}

QString TestSite::addHost(const QHostAddress &address, quint16 port, QString *error) {
    QString result;
    QString err;
    Server *server = d->server;
    d->runInServer([&] { result = server->listen(address, port, &err); });
    if (result.isEmpty() && error)
        *error = err;
    return result;
}

QStringList TestSite::hosts() const {
    QMutexLocker lock(&d->state.mutex);
    return d->state.hostNames;
}

QString TestSite::baseUrl(const QString &host) const {
    return QStringLiteral("http://") + host;
}

HostRecord TestSite::hostRecord(const QString &host) const {
    QMutexLocker lock(&d->state.mutex);
    const auto it = d->state.hosts.find(host);
    if (it == d->state.hosts.end()) {
        HostRecord r;
        r.host = host;
        return r;
    }
    return it->second->record;
}

QList<RequestRecord> TestSite::requests(const QString &host) const {
    QMutexLocker lock(&d->state.mutex);
    if (host.isEmpty())
        return d->state.records;
    QList<RequestRecord> out;
    for (const RequestRecord &r : std::as_const(d->state.records)) {
        if (r.host == host)
            out.append(r);
    }
    return out;
}

qint64 TestSite::totalRequests() const {
    QMutexLocker lock(&d->state.mutex);
    qint64 n = 0;
    for (const auto &[name, host] : d->state.hosts)
        n += host->record.requests;
    return n;
}

void TestSite::resetRecords() {
    d->state.reset();
}

qint64 TestSite::nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QByteArray TestSite::recordsJson(const QString &host, bool includeRequests) const {
    return d->state.json(host, includeRequests);
}

void TestSite::setControlEndpoints(bool enabled) {
    d->state.controlEndpoints.store(enabled);
}

void TestSite::setMaxRequestRecords(qint64 maxRecords) {
    QMutexLocker lock(&d->state.mutex);
    d->state.maxRecords = maxRecords;
}

} // namespace testsite
