#include "responseprofile.h"

#include "httpformat.h"

#include <QList>

#include <utility>

namespace testsite {

namespace {

constexpr qint64 kMaxZeros = qint64(64) * 1024 * 1024 * 1024; // 64 GiB of zeros is about 64 MB compressed
constexpr qint64 kMaxHeaderCount = 100000;
constexpr qint64 kMaxHeaderBytes = 64 * 1024 * 1024;

} // namespace

ResponseProfile ResponseProfile::fromQuery(const QByteArray &query) {
    ResponseProfile p;
    if (query.isEmpty())
        return p;
    for (const QByteArray &part : query.split('&')) {
        const qsizetype eq = part.indexOf('=');
        const QByteArray key = eq < 0 ? part : part.left(eq);
        const QByteArray value = eq < 0 ? QByteArray() : QByteArray::fromPercentEncoding(part.mid(eq + 1));
        if (p.tolerance.parse(key, value))
            continue;
        if (key == "ms" || key == "work") {
            p.work = p.work || key == "work";
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
        } else if (key == "gzip" || key == "deflate") {
            p.zeros = qMin(parseByteSize(value), kMaxZeros);
            p.coding = key == "gzip" ? ContentCoding::Gzip : ContentCoding::Deflate;
        } else if (key == "headers") {
            p.headerCount = int(qMin<qint64>(toNumber(value, 0), kMaxHeaderCount));
        } else if (key == "headerbytes") {
            p.headerBytes = qBound<qint64>(0, parseByteSize(value), kMaxHeaderBytes);
        } else if (key == "soft404") {
            p.soft404 = value != "0";
        } else if (key == "title") {
            p.title = value;
            p.hasTitle = true;
        } else if (key == "chunked") {
            if (value == "bad")
                p.framing = ResponseBody::Framing::BadChunkSize;
            else if (value == "truncated")
                p.framing = ResponseBody::Framing::TruncatedChunk;
            else if (value != "0")
                p.framing = ResponseBody::Framing::Chunked;
        }
    }
    return p;
}

qint64 ResponseProfile::parseByteSize(const QByteArray &value) {
    if (value.isEmpty())
        return -1;
    qint64 unit = 1;
    QByteArray digits = value;
    switch (value.back()) {
    case 'k':
    case 'K':
        unit = 1024;
        break;
    case 'm':
    case 'M':
        unit = 1024 * 1024;
        break;
    case 'g':
    case 'G':
        unit = 1024 * 1024 * 1024;
        break;
    default:
        break;
    }
    if (unit > 1)
        digits.chop(1);
    const qint64 n = toNumber(digits, -1);
    if (n < 0 || n > (qint64(1) << 50) / unit)
        return -1;
    return n * unit;
}

} // namespace testsite
