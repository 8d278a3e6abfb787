#include "robotstxt.h"

namespace testsite {

RobotsTxt RobotsTxt::huge(qint64 totalBytes, const QByteArray &head, const QByteArray &tail) {
    RobotsTxt r;
    r.body.reserve(qsizetype(totalBytes + tail.size()));
    r.body = head;
    const QByteArray filler = "# filler line to make the file large, as some sites' files are\n";
    while (r.body.size() + filler.size() + tail.size() <= totalBytes)
        r.body += filler;
    r.body += tail;
    return r;
}

} // namespace testsite
