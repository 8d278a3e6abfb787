#pragma once

#include "model/fetchpolicy.h"
#include "model/outcome.h"

#include <QByteArray>
#include <QDateTime>
#include <QNetworkReply>
#include <QString>
#include <QUrl>

namespace crawl {

// Why the engine itself ended a request early (None: it ended on its own).
enum class AbortReason : quint8 { None, TooLarge, TotalDeadline, ConnectDeadline, Stopped };

// Everything known about one finished request (an attempt or a redirect hop), as plain values.
struct ResponseFacts {
    AbortReason abortReason = AbortReason::None;
    QNetworkReply::NetworkError networkError = QNetworkReply::NoError;
    QString networkErrorText;      // Qt's text for networkError (read only when there is an error)
    bool outOfDescriptors = false; // this process ran out of file descriptors: nothing was sent
    int status = 0;                // 0 when no status line arrived
    QByteArray reasonPhrase;
    QUrl url; // the hop that was requested: a relative Location resolves against it
    QByteArray location;
    qint64 bodyBytes = 0;       // decoded body bytes received
    qint64 declaredLength = -1; // Content-Length, -1 when absent
    QByteArray contentEncoding;
    bool chunked = false;         // Transfer-Encoding: chunked
    bool headersComplete = false; // Qt delivered the response head with its header lines
    QByteArray retryAfter;
    QDateTime nowUtc;    // only needed when retryAfter is set (an HTTP-date is relative to it)
    int attempts = 1;    // attempts started for this URL, this one included
    int redirects = 0;   // redirect hops already followed in this attempt
    qint64 spentMs = 0;  // since the URL's first request
    double random01 = 0; // the jitter draw for a backoff, in [0, 1)
};

// What to do next with the URL.
struct ResponseDecision {
    enum class Action : quint8 { Finish, Retry, FollowRedirect };
    Action action = Action::Finish;
    Outcome outcome = Outcome::Ok; // Finish: the terminal outcome; Retry: what this attempt ended with
    QString error;                 // why, for every outcome but ok
    qint64 retryInMs = 0;          // Retry: wait this long (holding no slot) before the next attempt
    qint64 pauseHostMs = -1;       // >= 0: the server asked its whole host to wait this long (Retry-After)
    QUrl redirectTo;               // FollowRedirect: the next hop (fragment dropped)
    QString warning;               // FollowRedirect: a hop the user should hear about (public -> private)
    bool attemptNotMade = false;   // Retry: nothing reached the server, so the attempt does not count
};

// The retry and outcome rules of docs/crawl semantics: a pure function, so every row is unit-tested
// without a socket. Allocates nothing on the plain `ok` path.
ResponseDecision decideResponse(const ResponseFacts &facts, const FetchPolicy &policy);

} // namespace crawl
