#include "policy/responsedecision.h"

#include "model/cancelreason.h"
#include "policy/redirectsafety.h"
#include "policy/retryafter.h"
#include "policy/retrypolicy.h"

#include <algorithm>

namespace crawl {

namespace {

bool isTransportError(QNetworkReply::NetworkError error) {
    return (error >= QNetworkReply::ConnectionRefusedError && error <= QNetworkReply::UnknownNetworkError) ||
           error == QNetworkReply::ProtocolFailure;
}

QString describeTransportError(QNetworkReply::NetworkError error, const QString &qtText) {
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("connection refused");
    case QNetworkReply::RemoteHostClosedError:
        return QStringLiteral("connection closed by the server before the response was complete");
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("host not found (DNS)");
    case QNetworkReply::TimeoutError:
        return QStringLiteral("connection timed out");
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
        return QStringLiteral("network unavailable");
    case QNetworkReply::ProtocolFailure:
        return QStringLiteral("malformed HTTP response (%1)").arg(qtText);
    default:
        return qtText;
    }
}

bool isIdentityEncoding(const QByteArray &contentEncoding) {
    const QByteArray encoding = contentEncoding.trimmed().toLower();
    return encoding.isEmpty() || encoding == "identity";
}

QString statusText(const ResponseFacts &facts) {
    const QString reason = QString::fromLatin1(facts.reasonPhrase);
    return reason.isEmpty() ? QStringLiteral("HTTP %1").arg(facts.status)
                            : QStringLiteral("HTTP %1 %2").arg(facts.status).arg(reason);
}

QString describeSeconds(qint64 ms) {
    // parseRetryAfter saturates absurd values; say so rather than print a 16-digit number.
    return ms >= qint64(1) << 50 ? QStringLiteral("longer than any cap")
                                 : QStringLiteral("%1 s").arg((ms + 999) / 1000);
}

// Qt 6.4 keeps the status line of a head over its limits (100 header lines, or a line too long) but
// drops every header, Content-Length included, so on a kept-alive connection the body never ends and a
// timeout fires: a status with no head is the server's malformed answer, not a timeout.
bool unreadableHead(const ResponseFacts &facts) {
    return facts.status > 0 && !facts.headersComplete;
}

QString unreadableHeadText(const ResponseFacts &facts) {
    return QStringLiteral("HTTP %1 with a response head that could not be read (more than 100 header lines "
                          "or a header line too long)")
        .arg(facts.status);
}

ResponseDecision finishWith(Outcome outcome, QString error) {
    ResponseDecision d;
    d.action = ResponseDecision::Action::Finish;
    d.outcome = outcome;
    d.error = std::move(error);
    return d;
}

// The attempt failed in a way worth another try: retry if attempts and the URL's time allow.
// `retryAfterMs` >= 0 is the server's (capped) wish; the wait is the larger of it and the backoff.
ResponseDecision retryOrFinish(const ResponseFacts &facts, const FetchPolicy &policy, Outcome outcome,
                               QString error, qint64 retryAfterMs) {
    const int maxAttempts = 1 + std::max(0, policy.maxRetries);
    if (facts.attempts >= maxAttempts) {
        if (maxAttempts > 1)
            error = QStringLiteral("%1 (after %2 attempts)").arg(error).arg(facts.attempts);
        return finishWith(outcome, std::move(error));
    }
    // Retry-After is a floor, never a shortcut: "0", a past date or a zero cap still back off.
    const qint64 waitMs = std::max(retryAfterMs, backoffDelayMs(facts.attempts, policy.backoffBaseMs,
                                                                policy.backoffCapMs, facts.random01));
    if (facts.spentMs + waitMs > qint64(policy.maxUrlTimeS) * 1000) {
        return finishWith(
            outcome,
            QStringLiteral("%1 (gave up: %2 s per URL exceeded)").arg(error).arg(policy.maxUrlTimeS));
    }
    ResponseDecision d;
    d.action = ResponseDecision::Action::Retry;
    d.outcome = outcome;
    d.error = std::move(error);
    d.retryInMs = waitMs;
    return d;
}

ResponseDecision decideRedirect(const ResponseFacts &facts, const FetchPolicy &policy) {
    if (facts.location.isEmpty()) {
        return finishWith(Outcome::HttpError,
                          QStringLiteral("%1 redirect without a Location header").arg(statusText(facts)));
    }
    QUrl target = facts.url.resolved(QUrl::fromEncoded(facts.location.trimmed()));
    const QString scheme = target.scheme().toLower();
    if (!target.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) ||
        target.host().isEmpty()) {
        return finishWith(Outcome::HttpError, QStringLiteral("HTTP %1 redirect to an unsupported URL: %2")
                                                  .arg(facts.status)
                                                  .arg(target.toString(QUrl::FullyEncoded)));
    }
    if (facts.redirects >= policy.maxRedirects) {
        return finishWith(Outcome::HttpError, QStringLiteral("more than %1 redirects (next: %2)")
                                                  .arg(policy.maxRedirects)
                                                  .arg(target.toString(QUrl::FullyEncoded)));
    }
    target.setFragment(QString());
    QString warning;
    if (isPrivateHost(target.host()) && !isPrivateHost(facts.url.host())) {
        warning = QStringLiteral("redirect from public host %1 to private address %2")
                      .arg(facts.url.host(), target.host());
        if (policy.refusePrivateRedirects)
            return finishWith(Outcome::HttpError,
                              QStringLiteral("HTTP %1 %2 refused (--no-private-redirects): %3")
                                  .arg(facts.status)
                                  .arg(warning, target.toString(QUrl::FullyEncoded)));
    }
    ResponseDecision d;
    d.warning = std::move(warning);
    d.action = ResponseDecision::Action::FollowRedirect;
    d.redirectTo = std::move(target);
    return d;
}

ResponseDecision decideStatus(const ResponseFacts &facts, const FetchPolicy &policy) {
    const int status = facts.status;
    if (status >= 300 && status < 400 && status != 304)
        return decideRedirect(facts, policy);
    if (status >= 200 && status < 300) {
        // Qt 6.4 can report a connection reset mid-body as success; a body shorter than its declared
        // length is a transport failure (only checkable when the body was not content-encoded).
        if (facts.declaredLength >= 0 && facts.bodyBytes < facts.declaredLength &&
            isIdentityEncoding(facts.contentEncoding)) {
            return retryOrFinish(facts, policy, Outcome::NetworkError,
                                 QStringLiteral("connection closed after %1 of %2 body bytes")
                                     .arg(facts.bodyBytes)
                                     .arg(facts.declaredLength),
                                 -1);
        }
        // Qt 6.4 reads a malformed chunk size as 0, the last chunk: an empty chunked body ends "ok".
        if (facts.chunked && facts.bodyBytes == 0 && status != 204)
            return retryOrFinish(
                facts, policy, Outcome::NetworkError,
                QStringLiteral("chunked body ended before its first chunk (malformed chunk size?)"), -1);
        return {}; // ok
    }
    QString error = statusText(facts);
    if (!isRetryableStatus(status))
        return finishWith(Outcome::HttpError, std::move(error));
    qint64 retryAfterMs = -1;
    if (status == 429 || status == 503) {
        if (const auto parsed = parseRetryAfter(facts.retryAfter, facts.nowUtc)) {
            const qint64 capMs = qint64(std::max(0, policy.maxRetryAfterS)) * 1000;
            retryAfterMs = std::min<qint64>(*parsed, capMs);
            if (*parsed > capMs) // the user should see that the server wanted longer
                error = QStringLiteral("%1 (server asked to wait %2, capped to %3 s)")
                            .arg(error)
                            .arg(describeSeconds(*parsed))
                            .arg(policy.maxRetryAfterS);
        }
    }
    ResponseDecision d = retryOrFinish(facts, policy, Outcome::HttpError, std::move(error), retryAfterMs);
    // The server asked this host to wait: every URL on it waits, other hosts go on.
    d.pauseHostMs = retryAfterMs;
    return d;
}

} // namespace

ResponseDecision decideResponse(const ResponseFacts &facts, const FetchPolicy &policy) {
    switch (facts.abortReason) {
    case AbortReason::Stopped:
        return finishWith(Outcome::Cancelled, stoppedBeforeFinishText());
    case AbortReason::TooLarge:
        return finishWith(Outcome::TooLarge,
                          isIdentityEncoding(facts.contentEncoding)
                              ? QStringLiteral("body larger than the %1-byte limit").arg(policy.maxBodyBytes)
                              : QStringLiteral("body larger than the %1-byte limit once decoded (%2)")
                                    .arg(policy.maxBodyBytes)
                                    .arg(QString::fromLatin1(facts.contentEncoding.trimmed())));
    case AbortReason::TotalDeadline:
        if (unreadableHead(facts))
            return finishWith(Outcome::NetworkError, unreadableHeadText(facts));
        return retryOrFinish(
            facts, policy, Outcome::Timeout,
            QStringLiteral("no complete response within %1 s (total timeout)").arg(policy.totalTimeoutS), -1);
    case AbortReason::ConnectDeadline:
        return retryOrFinish(facts, policy, Outcome::Timeout,
                             QStringLiteral("could not connect within %1 s").arg(policy.connectTimeoutS), -1);
    case AbortReason::None:
        break;
    }

    if (facts.outOfDescriptors) {
        // Our shortage, not the server's fault: wait briefly (fewer in flight by then) and try again
        // without spending an attempt; only the time per URL bounds it.
        const qint64 waitMs = 100 + qint64(facts.random01 * 400);
        const QString error = QStringLiteral("out of file descriptors (%1)").arg(facts.networkErrorText);
        if (facts.spentMs + waitMs > qint64(policy.maxUrlTimeS) * 1000)
            return finishWith(
                Outcome::NetworkError,
                QStringLiteral("%1 (gave up: %2 s per URL exceeded)").arg(error).arg(policy.maxUrlTimeS));
        ResponseDecision d;
        d.action = ResponseDecision::Action::Retry;
        d.outcome = Outcome::NetworkError;
        d.error = error;
        d.retryInMs = waitMs;
        d.attemptNotMade = true;
        return d;
    }
    const QNetworkReply::NetworkError error = facts.networkError;
    if (error == QNetworkReply::OperationCanceledError) {
        if (unreadableHead(facts))
            return finishWith(Outcome::NetworkError, unreadableHeadText(facts));
        // Nobody here aborted it: QNAM's transfer (inactivity) timeout did.
        return retryOrFinish(facts, policy, Outcome::Timeout,
                             QStringLiteral("no data for %1 s (inactivity timeout)").arg(policy.idleTimeoutS),
                             -1);
    }
    if (error == QNetworkReply::SslHandshakeFailedError) {
        return finishWith(Outcome::NetworkError,
                          QStringLiteral("TLS handshake failed: %1").arg(facts.networkErrorText));
    }
    if (isTransportError(error)) {
        return retryOrFinish(facts, policy,
                             error == QNetworkReply::TimeoutError ? Outcome::Timeout : Outcome::NetworkError,
                             describeTransportError(error, facts.networkErrorText), -1);
    }
    if (facts.status == 0) {
        return finishWith(Outcome::NetworkError, error == QNetworkReply::NoError
                                                     ? QStringLiteral("no HTTP response")
                                                     : facts.networkErrorText);
    }
    return decideStatus(facts, policy);
}

} // namespace crawl
