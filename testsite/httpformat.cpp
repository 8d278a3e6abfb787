#include "httpformat.h"

#include <QDate>
#include <QTime>

namespace testsite {

const QByteArray &fillerBlock() {
    static const QByteArray block = [] {
        const QByteArray line =
            QByteArrayLiteral("crawlscope test body filler 0123456789 abcdefghijklmnopqrstu\n");
        QByteArray b;
        b.reserve(kBodySlice);
        while (b.size() < kBodySlice)
            b.append(line);
        b.truncate(kBodySlice);
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

void appendJsonString(QByteArray &out, const QByteArray &utf8) {
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

qint64 toNumber(const QByteArray &v, qint64 fallback) {
    bool ok = false;
    const qint64 n = v.toLongLong(&ok);
    return ok && n >= 0 ? n : fallback;
}

} // namespace testsite
