#pragma once

#include "responsebody.h"

#include <QList>

namespace testsite {

enum class ContentCoding {
    Gzip,    // RFC 1952
    Deflate, // HTTP's "deflate": the zlib format of RFC 1950
};

// A body in `coding` that decodes to `decodedBytes` zero bytes (a compression bomb), as segments: one
// deflate unit for each MiB of zeros, repeated, so 1 GiB costs about 1 MB on the wire and 1 KB in memory.
// The unit is compressed once per process; the tail (under 1 MiB) per call.
QList<BodySegment> compressedZeros(ContentCoding coding, qint64 decodedBytes);

} // namespace testsite
