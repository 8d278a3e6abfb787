#pragma once

#include "responseprofile.h"
#include "robotstxt.h"
#include "siterecorder.h"

#include <QByteArray>

#include <optional>

namespace testsite {

// One request head as parsed on a connection, waiting in its queue to be answered.
struct IncomingRequest {
    QByteArray method;
    QByteArray target;
    QByteArray path;
    QByteArray query;
    bool keepAlive = true;
    bool control = false;       // /__records or /__reset, neither recorded nor counted
    int errorStatus = 0;        // the request itself was unacceptable: answer this and close
    bool failing = false;       // a hit within fail=K
    bool overTolerance = false; // tolerance=K and K were being served when it came up: 503 at once
    ResponseProfile profile;
    std::optional<RobotsTxt> robots; // GET /robots.txt on a host with a robots profile
    SiteRecorder::Ticket ticket;
    int status = 0; // status sent so far
    quint64 serial = 0;
};

} // namespace testsite
