#include "responsebody.h"

#include "httpformat.h"

namespace testsite {

ResponseBody ResponseBody::ofPage(const QByteArray &page, qint64 bytes) {
    ResponseBody b;
    b.m_page = page;
    b.m_size = qMax<qint64>(0, bytes);
    return b;
}

ResponseBody ResponseBody::ofSegments(const QList<BodySegment> &segments) {
    ResponseBody b;
    b.m_fromSegments = true;
    for (const BodySegment &s : segments) {
        if (!s.bytes.isEmpty() && s.repeat > 0) {
            b.m_segments.append(s);
            b.m_size += s.bytes.size() * s.repeat;
        }
    }
    return b;
}

bool ResponseBody::atEnd() const {
    return m_done || (m_framing == Framing::Plain && m_sent == m_size);
}

QByteArray ResponseBody::takePayload(qint64 n) {
    const qint64 offset = m_sent;
    m_sent += n;
    if (!m_fromSegments) {
        // Views, not copies: the caller writes them at once (the socket copies), and both outlive that.
        if (!m_page.isEmpty())
            return QByteArray::fromRawData(m_page.constData() + offset, n);
        return QByteArray::fromRawData(fillerBlock().constData(), n);
    }
    QByteArray out;
    out.reserve(n);
    while (out.size() < n && m_segment < m_segments.size()) {
        const BodySegment &s = m_segments[m_segment];
        const qint64 take = qMin<qint64>(n - out.size(), s.bytes.size() - m_segmentOffset);
        out.append(s.bytes.constData() + m_segmentOffset, take);
        m_segmentOffset += take;
        if (m_segmentOffset == s.bytes.size()) {
            m_segmentOffset = 0;
            if (++m_repeatsDone == s.repeat) {
                m_repeatsDone = 0;
                ++m_segment;
            }
        }
    }
    return out;
}

QByteArray ResponseBody::next(qint64 maxPayload) {
    if (atEnd())
        return {};
    const qint64 n = qMin(m_size - m_sent, qMin(maxPayload, kBodySlice)); // filler slices are that long
    const QByteArray payload = takePayload(n);
    if (m_framing == Framing::Plain)
        return payload;

    const bool last = m_sent == m_size;
    QByteArray out;
    if (n > 0) {
        const QByteArray sizeLine =
            m_framing == Framing::BadChunkSize && m_firstChunk ? QByteArray("zz") : QByteArray::number(n, 16);
        m_firstChunk = false;
        if (last && m_framing == Framing::TruncatedChunk) {
            m_done = true;
            return sizeLine + "\r\n" + payload.left(n / 2);
        }
        out = sizeLine + "\r\n" + payload + "\r\n";
    }
    if (last) {
        m_done = true;
        if (m_framing == Framing::BadChunkSize && m_firstChunk)
            out += "zz\r\n\r\n"; // an empty body still gets its bad size line
        if (m_framing != Framing::TruncatedChunk)
            out += "0\r\n\r\n";
    }
    return out;
}

} // namespace testsite
