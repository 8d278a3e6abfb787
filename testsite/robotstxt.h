#pragma once

#include <QByteArray>

namespace testsite {

// What one host of the site answers for GET /robots.txt (TestSite::setRobotsTxt). Without one, a host
// serves /robots.txt like any other path (its default HTML page: no rules). The request is recorded and
// counted like every other: it is a request the server sees.
struct RobotsTxt {
    enum class Kind {
        Body,     // `status` (default 200) with `body` as text/plain
        Redirect, // 301 to `location` (absolute, or a path on the same host)
    };
    Kind kind = Kind::Body;
    int status = 200;
    QByteArray body;
    QByteArray location;
    int failFirst = 0; // the first N fetches answer `failStatus` (e.g. a 503 that later recovers)
    int failStatus = 503;

    static RobotsTxt text(const QByteArray &body) {
        RobotsTxt r;
        r.body = body;
        return r;
    }
    static RobotsTxt withStatus(int status) {
        RobotsTxt r;
        r.status = status;
        r.body = "status " + QByteArray::number(status) + '\n';
        return r;
    }
    static RobotsTxt redirectTo(const QByteArray &location) {
        RobotsTxt r;
        r.kind = Kind::Redirect;
        r.location = location;
        return r;
    }
    // A file of `totalBytes`: `head`, then comment lines, then `tail` (which lands past RFC 9309's 500 KiB
    // parsing minimum when totalBytes is large enough).
    static RobotsTxt huge(qint64 totalBytes, const QByteArray &head, const QByteArray &tail);
};

} // namespace testsite
