#pragma once

#include <QByteArray>
#include <QList>

namespace testsite {

// A run of identical bytes in a body: `bytes` repeated `repeat` times. Lets a body that decodes to a
// gigabyte cost a few kilobytes.
struct BodySegment {
    QByteArray bytes;
    qint64 repeat = 1;
};

// The payload of one response and how it is framed on the wire, handed out in slices so a huge body
// never sits in memory. No sockets here: the connection writes whatever next() returns.
class ResponseBody {
public:
    enum class Framing {
        Plain,          // the payload as is (Content-Length, or close-delimited)
        Chunked,        // Transfer-Encoding: chunked, one chunk per slice, then "0\r\n\r\n"
        BadChunkSize,   // as Chunked, but the first chunk-size line is "zz"
        TruncatedChunk, // as Chunked, but the last chunk sends half of what its size line announces and
                        // there is no terminating chunk (the connection must close after it)
    };

    ResponseBody() = default;
    // The first `bytes` bytes of `page`; filler text (the size=N body) when `page` is empty.
    static ResponseBody ofPage(const QByteArray &page, qint64 bytes);
    static ResponseBody ofSegments(const QList<BodySegment> &segments);

    void setFraming(Framing framing) { m_framing = framing; }
    Framing framing() const { return m_framing; }
    qint64 payloadSize() const { return m_size; }

    bool atEnd() const;
    // The next bytes for the wire: at most min(maxPayload, kBodySlice) payload bytes, plus chunk framing.
    QByteArray next(qint64 maxPayload);

private:
    QByteArray takePayload(qint64 n);

    QByteArray m_page;
    QList<BodySegment> m_segments;
    bool m_fromSegments = false;
    qsizetype m_segment = 0;    // current segment
    qint64 m_repeatsDone = 0;   // of the current segment
    qint64 m_segmentOffset = 0; // into the current repeat
    qint64 m_size = 0;
    qint64 m_sent = 0;
    Framing m_framing = Framing::Plain;
    bool m_firstChunk = true;
    bool m_done = false;
};

} // namespace testsite
