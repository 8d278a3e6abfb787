#pragma once

#include "model/breakersettings.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace crawl {

// How each URL is fetched: attempts, backoff, time and size limits, headers. Fixed for a crawl except
// where CrawlEngine::setFetchPolicy says otherwise (changes apply to attempts that start afterwards).
struct FetchPolicy {
    int maxRetries = 3;        // attempts = 1 + maxRetries
    int backoffBaseMs = 500;   // base x 2^(attempt-1), jittered
    int backoffCapMs = 30'000; // largest computed backoff
    int maxRetryAfterS = 60;   // a server's Retry-After is honoured up to this
    int maxUrlTimeS = 600;     // no new attempt starts after this much time on one URL
    int totalTimeoutS = 30;    // per attempt (per request hop), start to end of body
    int connectTimeoutS = 10;  // from starting to connect to the request being sent
    int idleTimeoutS = 15;     // no bytes for this long ends the attempt
    qint64 maxBodyBytes = 10 * 1024 * 1024;
    int maxRedirects = 10;
    QString userAgent;                            // empty = defaultUserAgent()
    QList<QPair<QByteArray, QByteArray>> headers; // extra request headers
    // Credential headers (see isCredentialHeader) go only to the input URL's origin unless this is set.
    bool sendCredentialsCrossOrigin = false;
    // A redirect from a public host to a private or loopback address fails instead of being followed
    // (it is always recorded in the result's warning).
    bool refusePrivateRedirects = false;
    // Trips a host whose recent attempts mostly fail (see HostBreaker); on by default.
    BreakerSettings breaker;

    static QString defaultUserAgent();
    // Combines the redirect safety of two sources, one of which may be a crawl file from anyone (a resume):
    // credentials cross origins only if both allow it, private redirects are refused if either refuses.
    void keepStricterRedirectSafety(const FetchPolicy &other) {
        sendCredentialsCrossOrigin = sendCredentialsCrossOrigin && other.sendCredentialsCrossOrigin;
        refusePrivateRedirects = refusePrivateRedirects || other.refusePrivateRedirects;
    }
    bool operator==(const FetchPolicy &) const = default;
};

} // namespace crawl
