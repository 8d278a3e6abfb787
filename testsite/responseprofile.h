#pragma once

#include "compressedzeros.h"
#include "hosttolerance.h"
#include "responsebody.h"

#include <QByteArray>

namespace testsite {

// What one request asked the site to do, read from its query string (the parameters are listed in
// testsite.h). Unknown parameters are ignored; bad values fall back to the defaults.
struct ResponseProfile {
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
    qint64 zeros = -1; // gzip=N / deflate=N: a compressed body decoding to N zero bytes
    ContentCoding coding = ContentCoding::Gzip;
    ResponseBody::Framing framing = ResponseBody::Framing::Plain; // chunked=1|bad|truncated
    bool work =
        false; // work=N|A-B: like ms, but stays in flight for the whole delay even if the client closes
    int headerCount = 0;     // headers=N: N extra header lines
    qint64 headerBytes = 0;  // headerbytes=N: one extra header line with an N-byte value
    HostTolerance tolerance; // tolerance=K&tolms=BASE&tolstep=STEP: at most K served at once, 503 above
    bool soft404 = false;    // soft404=1: a 200 carrying a "Page not found" template
    QByteArray title;        // title=TEXT: the default page's title and heading
    bool hasTitle = false;

    static ResponseProfile fromQuery(const QByteArray &query);
    // "20M" = 20 MiB; suffixes k, m, g (any case) are powers of 1024; -1 if not a size.
    static qint64 parseByteSize(const QByteArray &value);
};

} // namespace testsite
