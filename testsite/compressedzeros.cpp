#include "compressedzeros.h"

#include <zlib.h>

namespace testsite {

namespace {

constexpr qint64 kUnitBytes = 1024 * 1024;

const QByteArray &zeros() {
    static const QByteArray z(kUnitBytes, '\0');
    return z;
}

// Raw deflate (no header) of `count` zeros from a fresh stream. Z_FULL_FLUSH ends on a byte boundary
// with no back-references into it, so copies of the output can follow each other; Z_FINISH writes
// the final block.
QByteArray rawDeflateZeros(qint64 count, int flush) {
    z_stream zs = {};
    if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        qFatal("deflateInit2 failed");
    QByteArray out(qsizetype(deflateBound(&zs, uLong(count)) + 64), Qt::Uninitialized);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(zeros().constData()));
    zs.avail_in = uInt(count);
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    const int rc = deflate(&zs, flush);
    if (rc != (flush == Z_FINISH ? Z_STREAM_END : Z_OK) || zs.avail_in != 0)
        qFatal("deflate of zeros failed: %d", rc);
    out.truncate(qsizetype(zs.total_out));
    deflateEnd(&zs);
    return out;
}

struct ZeroUnit {
    QByteArray deflated; // kUnitBytes zeros, full-flushed
    uLong crc = 0;
    uLong adler = 0;
};

const ZeroUnit &zeroUnit() {
    static const ZeroUnit unit = [] {
        ZeroUnit u;
        u.deflated = rawDeflateZeros(kUnitBytes, Z_FULL_FLUSH);
        const auto *data = reinterpret_cast<const Bytef *>(zeros().constData());
        u.crc = crc32(crc32(0, nullptr, 0), data, uInt(kUnitBytes));
        u.adler = adler32(adler32(0, nullptr, 0), data, uInt(kUnitBytes));
        return u;
    }();
    return unit;
}

void appendLittleEndian32(QByteArray &out, quint32 v) {
    for (int i = 0; i < 4; ++i)
        out.append(char((v >> (8 * i)) & 0xff));
}

void appendBigEndian32(QByteArray &out, quint32 v) {
    for (int i = 3; i >= 0; --i)
        out.append(char((v >> (8 * i)) & 0xff));
}

} // namespace

QList<BodySegment> compressedZeros(ContentCoding coding, qint64 decodedBytes) {
    decodedBytes = qMax<qint64>(0, decodedBytes);
    const ZeroUnit &unit = zeroUnit();
    const qint64 units = decodedBytes / kUnitBytes;
    const qint64 tailBytes = decodedBytes % kUnitBytes;

    uLong crc = crc32(0, nullptr, 0);
    uLong adler = adler32(0, nullptr, 0);
    for (qint64 i = 0; i < units; ++i) {
        crc = crc32_combine(crc, unit.crc, kUnitBytes);
        adler = adler32_combine(adler, unit.adler, kUnitBytes);
    }
    const auto *data = reinterpret_cast<const Bytef *>(zeros().constData());
    crc = crc32_combine(crc, crc32(crc32(0, nullptr, 0), data, uInt(tailBytes)), z_off_t(tailBytes));
    adler =
        adler32_combine(adler, adler32(adler32(0, nullptr, 0), data, uInt(tailBytes)), z_off_t(tailBytes));

    QByteArray header;
    QByteArray trailer;
    if (coding == ContentCoding::Gzip) {
        // Magic, deflate, no flags, no mtime, "maximum compression", OS Unix.
        header = QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03", 10);
        appendLittleEndian32(trailer, quint32(crc));
        appendLittleEndian32(trailer, quint32(quint64(decodedBytes) & 0xffffffffu)); // ISIZE: size mod 2^32
    } else {
        header = QByteArray("\x78\xda", 2); // deflate, 32 KiB window, level 9; 0x78da is a multiple of 31
        appendBigEndian32(trailer, quint32(adler));
    }
    return {
        {header, 1},
        {unit.deflated, units},
        {rawDeflateZeros(tailBytes, Z_FINISH), 1},
        {trailer, 1},
    };
}

} // namespace testsite
