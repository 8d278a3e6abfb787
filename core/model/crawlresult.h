#pragma once

#include "model/outcome.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace crawl {

// The terminal record of one input line; immutable once emitted by the engine.
struct CrawlResult {
    quint64 id = 0;        // engine-assigned, unique within a crawl (input order for valid URLs)
    qint64 lineNumber = 0; // 1-based line in the input list (0 for URLs added later, e.g. requeued)
    QString url;           // normalized input URL (the raw line for invalid_url)
    QString finalUrl;      // URL of the last hop that answered (empty when nothing answered)
    QString host;          // "host:port" of the input URL (empty for invalid_url)
    int status = 0;        // HTTP status of the last response, 0 when none
    Outcome outcome = Outcome::Cancelled;
    int attempts = 0;  // requests made for the input URL, not counting redirect hops
    int redirects = 0; // redirect hops followed in the last attempt
    qint64 bytes = 0;  // body bytes received (decoded) in the last response
    QString contentType;
    qint64 latencyMs = -1;     // last request: start to end of body; -1 when nothing was sent
    qint64 ttfbMs = -1;        // last request: start to response headers; -1 when no headers arrived
    QString error;             // human-readable reason for every non-ok outcome
    QDateTime startedAt;       // first request of the first attempt (UTC); invalid when never started
    QDateTime finishedAt;      // when the outcome was decided (UTC)
    QStringList redirectChain; // every hop's URL in the last attempt, first to last (for details views)
    QString warning;           // something the user should know even when ok (e.g. a private redirect)
    // Acceptance (separate from the outcome: a 200 can be rejected). Unknown when no response was checked.
    enum class Accepted : quint8 { Unknown, Yes, No };
    Accepted accepted = Accepted::Unknown;
    QString rejectReason; // the failed checks, human-readable; also a soft 404 reported but not rejected
    QString title; // the HTML title of the last response, trimmed (server text: formula-safe on output)
};

} // namespace crawl

Q_DECLARE_METATYPE(crawl::CrawlResult)
