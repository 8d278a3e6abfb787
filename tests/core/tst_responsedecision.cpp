// The retry and outcome rules (docs: crawl semantics, "Retries" and "Exactly one outcome") as a pure
// function: one row per rule, no socket.
#include "policy/responsedecision.h"

#include <QTest>
#include <QTimeZone>

using namespace crawl;
using Action = ResponseDecision::Action;

namespace {

const QDateTime kNow(QDate(2026, 11, 30), QTime(12, 0, 0), QTimeZone::utc());

FetchPolicy testPolicy() {
    FetchPolicy policy;
    policy.maxRetries = 3;
    policy.backoffBaseMs = 1000;
    policy.backoffCapMs = 30'000;
    policy.maxRetryAfterS = 60;
    policy.maxUrlTimeS = 600;
    policy.maxRedirects = 2;
    policy.maxBodyBytes = 1000;
    return policy;
}

ResponseFacts statusFacts(int status) {
    ResponseFacts facts;
    facts.status = status;
    facts.url = QUrl(QStringLiteral("http://a.example/p/q?x=1"));
    facts.nowUtc = kNow;
    facts.attempts = 1;
    facts.random01 = 0.0; // backoff at the low end of its jitter: base x 2^(attempt-1) / 2
    facts.headersComplete = status > 0;
    return facts;
}

ResponseFacts errorFacts(QNetworkReply::NetworkError error) {
    ResponseFacts facts = statusFacts(0);
    facts.networkError = error;
    facts.networkErrorText = QStringLiteral("Qt says no");
    return facts;
}

ResponseFacts abortFacts(AbortReason reason) {
    ResponseFacts facts = statusFacts(0);
    facts.abortReason = reason;
    facts.networkError = QNetworkReply::OperationCanceledError;
    return facts;
}

ResponseFacts retryAfterFacts(int status, const char *retryAfter) {
    ResponseFacts facts = statusFacts(status);
    facts.retryAfter = retryAfter;
    return facts;
}

} // namespace

Q_DECLARE_METATYPE(ResponseFacts)
Q_DECLARE_METATYPE(Action)
Q_DECLARE_METATYPE(Outcome)

class TestResponseDecision : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every row: what came back on the first of 4 allowed attempts, and what must happen next.
    void firstAttempt_data() {
        QTest::addColumn<ResponseFacts>("facts");
        QTest::addColumn<Action>("action");
        QTest::addColumn<Outcome>("outcome");
        QTest::addColumn<qint64>("retryInMs");   // checked for Retry only
        QTest::addColumn<qint64>("pauseHostMs"); // -1: the host is not paused
        QTest::addColumn<QString>("errorPart");  // the error names the cause

        // Success.
        QTest::newRow("200") << statusFacts(200) << Action::Finish << Outcome::Ok << 0LL << -1LL << QString();
        QTest::newRow("204") << statusFacts(204) << Action::Finish << Outcome::Ok << 0LL << -1LL << QString();

        // Network errors and timeouts retry with backoff base x 2^0 (low end of the jitter: 500 ms).
        QTest::newRow("refused") << errorFacts(QNetworkReply::ConnectionRefusedError) << Action::Retry
                                 << Outcome::NetworkError << 500LL << -1LL << QStringLiteral("refused");
        QTest::newRow("reset") << errorFacts(QNetworkReply::RemoteHostClosedError) << Action::Retry
                               << Outcome::NetworkError << 500LL << -1LL << QStringLiteral("closed");
        QTest::newRow("unreachable") << errorFacts(QNetworkReply::HostNotFoundError) << Action::Retry
                                     << Outcome::NetworkError << 500LL << -1LL << QStringLiteral("DNS");
        QTest::newRow("malformed") << errorFacts(QNetworkReply::ProtocolFailure) << Action::Retry
                                   << Outcome::NetworkError << 500LL << -1LL << QStringLiteral("malformed");
        QTest::newRow("socket timeout") << errorFacts(QNetworkReply::TimeoutError) << Action::Retry
                                        << Outcome::Timeout << 500LL << -1LL << QStringLiteral("timed out");
        QTest::newRow("inactivity") << errorFacts(QNetworkReply::OperationCanceledError) << Action::Retry
                                    << Outcome::Timeout << 500LL << -1LL << QStringLiteral("inactivity");
        QTest::newRow("connect deadline") << abortFacts(AbortReason::ConnectDeadline) << Action::Retry
                                          << Outcome::Timeout << 500LL << -1LL << QStringLiteral("connect");
        QTest::newRow("total deadline") << abortFacts(AbortReason::TotalDeadline) << Action::Retry
                                        << Outcome::Timeout << 500LL << -1LL << QStringLiteral("total");
        ResponseFacts shortBody = statusFacts(200);
        shortBody.declaredLength = 100;
        shortBody.bodyBytes = 40;
        QTest::newRow("2xx body short of Content-Length")
            << shortBody << Action::Retry << Outcome::NetworkError << 500LL << -1LL
            << QStringLiteral("40 of 100");
        ResponseFacts shortEncoded = shortBody;
        shortEncoded.contentEncoding = "gzip";
        QTest::newRow("2xx encoded body: length not comparable")
            << shortEncoded << Action::Finish << Outcome::Ok << 0LL << -1LL << QString();

        ResponseFacts emptyChunked = statusFacts(200);
        emptyChunked.chunked = true;
        QTest::newRow("2xx chunked, no chunk (malformed size)")
            << emptyChunked << Action::Retry << Outcome::NetworkError << 500LL << -1LL
            << QStringLiteral("chunk");
        ResponseFacts stalledHead = statusFacts(200);
        stalledHead.headersComplete = false;
        stalledHead.networkError = QNetworkReply::OperationCanceledError;
        QTest::newRow("status line but no head, then inactivity")
            << stalledHead << Action::Finish << Outcome::NetworkError << 0LL << -1LL
            << QStringLiteral("header lines");
        ResponseFacts bomb = abortFacts(AbortReason::TooLarge);
        bomb.status = 200;
        bomb.contentEncoding = "gzip";
        QTest::newRow("decoded body over the cap") << bomb << Action::Finish << Outcome::TooLarge << 0LL
                                                   << -1LL << QStringLiteral("once decoded (gzip)");

        // Retryable statuses.
        for (int status : {408, 429, 500, 502, 503, 504})
            QTest::addRow("%d", status) << statusFacts(status) << Action::Retry << Outcome::HttpError << 500LL
                                        << -1LL << QString::number(status);

        // Never retried.
        for (int status : {400, 401, 403, 404, 410, 304, 501})
            QTest::addRow("%d", status) << statusFacts(status) << Action::Finish << Outcome::HttpError << 0LL
                                        << -1LL << QString::number(status);
        QTest::newRow("TLS handshake") << errorFacts(QNetworkReply::SslHandshakeFailedError) << Action::Finish
                                       << Outcome::NetworkError << 0LL << -1LL << QStringLiteral("TLS");
        QTest::newRow("body over the cap") << abortFacts(AbortReason::TooLarge) << Action::Finish
                                           << Outcome::TooLarge << 0LL << -1LL << QStringLiteral("1000-byte");
        QTest::newRow("stopped") << abortFacts(AbortReason::Stopped) << Action::Finish << Outcome::Cancelled
                                 << 0LL << -1LL << QStringLiteral("stopped");
        QTest::newRow("no status, no error") << statusFacts(0) << Action::Finish << Outcome::NetworkError
                                             << 0LL << -1LL << QStringLiteral("no HTTP response");

        // Retry-After on 429/503 pauses the whole host.
        QTest::newRow("429 Retry-After 7") << retryAfterFacts(429, "7") << Action::Retry << Outcome::HttpError
                                           << 7000LL << 7000LL << QStringLiteral("429");
        QTest::newRow("503 IMF-fixdate +20 s")
            << retryAfterFacts(503, "Mon, 30 Nov 2026 12:00:20 GMT") << Action::Retry << Outcome::HttpError
            << 20'000LL << 20'000LL << QStringLiteral("503");
        QTest::newRow("503 RFC 850 +20 s")
            << retryAfterFacts(503, "Monday, 30-Nov-26 12:00:20 GMT") << Action::Retry << Outcome::HttpError
            << 20'000LL << 20'000LL << QStringLiteral("503");
        QTest::newRow("503 asctime +20 s")
            << retryAfterFacts(503, "Mon Nov 30 12:00:20 2026") << Action::Retry << Outcome::HttpError
            << 20'000LL << 20'000LL << QStringLiteral("503");
        QTest::newRow("429 Retry-After over the cap, named in the error")
            << retryAfterFacts(429, "3600") << Action::Retry << Outcome::HttpError << 60'000LL << 60'000LL
            << QStringLiteral("server asked to wait 3600 s, capped to 60 s");
        // Retry-After is a floor: a zero or past wait still backs off (the larger of the two).
        QTest::newRow("503 Retry-After 0") << retryAfterFacts(503, "0") << Action::Retry << Outcome::HttpError
                                           << 500LL << 0LL << QStringLiteral("503");
        QTest::newRow("503 Retry-After in the past")
            << retryAfterFacts(503, "Mon, 30 Nov 2026 11:00:00 GMT") << Action::Retry << Outcome::HttpError
            << 500LL << 0LL << QStringLiteral("503");
        QTest::newRow("429 malformed Retry-After = absent")
            << retryAfterFacts(429, "soon") << Action::Retry << Outcome::HttpError << 500LL << -1LL
            << QStringLiteral("429");
        QTest::newRow("500 Retry-After is not honoured")
            << retryAfterFacts(500, "7") << Action::Retry << Outcome::HttpError << 500LL << -1LL
            << QStringLiteral("500");

        // Redirects.
        ResponseFacts relative = statusFacts(302);
        relative.location = "../r?y=2#frag";
        QTest::newRow("302 relative")
            << relative << Action::FollowRedirect << Outcome::Ok << 0LL << -1LL << QString();
        ResponseFacts noLocation = statusFacts(301);
        QTest::newRow("301 without Location") << noLocation << Action::Finish << Outcome::HttpError << 0LL
                                              << -1LL << QStringLiteral("without a Location");
        ResponseFacts ftp = statusFacts(307);
        ftp.location = "ftp://b.example/";
        QTest::newRow("307 to ftp") << ftp << Action::Finish << Outcome::HttpError << 0LL << -1LL
                                    << QStringLiteral("unsupported URL");
        ResponseFacts tooMany = statusFacts(308);
        tooMany.location = "http://b.example/";
        tooMany.redirects = 2;
        QTest::newRow("308 past the redirect limit") << tooMany << Action::Finish << Outcome::HttpError << 0LL
                                                     << -1LL << QStringLiteral("more than 2 redirects");
    }
    void firstAttempt() {
        QFETCH(ResponseFacts, facts);
        QFETCH(Action, action);
        QFETCH(Outcome, outcome);
        QFETCH(qint64, retryInMs);
        QFETCH(qint64, pauseHostMs);
        QFETCH(QString, errorPart);

        const ResponseDecision d = decideResponse(facts, testPolicy());
        QCOMPARE(d.action, action);
        if (action != Action::FollowRedirect)
            QCOMPARE(d.outcome, outcome);
        if (action == Action::Retry)
            QCOMPARE(d.retryInMs, retryInMs);
        QCOMPARE(d.pauseHostMs, pauseHostMs);
        if (outcome == Outcome::Ok)
            QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        else
            QVERIFY2(d.error.contains(errorPart), qPrintable(d.error));
    }

    void redirectResolvesAndDropsFragment() {
        ResponseFacts facts = statusFacts(302);
        facts.location = "../r?y=2#frag";
        const ResponseDecision d = decideResponse(facts, testPolicy());
        QCOMPARE(d.redirectTo, QUrl(QStringLiteral("http://a.example/r?y=2")));
    }

    // Backoff: base x 2^(attempt-1), jittered into [raw/2, raw], capped.
    void backoffGrowsAndIsCapped_data() {
        QTest::addColumn<int>("attempts");
        QTest::addColumn<double>("random01");
        QTest::addColumn<qint64>("retryInMs");
        QTest::newRow("1st, low") << 1 << 0.0 << 500LL;
        QTest::newRow("1st, high") << 1 << 0.999999 << 1000LL;
        QTest::newRow("2nd, low") << 2 << 0.0 << 1000LL;
        QTest::newRow("3rd, middle") << 3 << 0.5 << 3000LL;
    }
    void backoffGrowsAndIsCapped() {
        QFETCH(int, attempts);
        QFETCH(double, random01);
        QFETCH(qint64, retryInMs);
        ResponseFacts facts = statusFacts(503);
        facts.attempts = attempts;
        facts.random01 = random01;
        const ResponseDecision d = decideResponse(facts, testPolicy());
        QCOMPARE(d.action, Action::Retry);
        QCOMPARE(d.retryInMs, retryInMs);

        FetchPolicy capped = testPolicy();
        capped.backoffCapMs = 700;
        capped.maxRetries = 10;
        facts.attempts = 9; // raw 256 s, capped to 0.7 s
        facts.random01 = 0.999999;
        QCOMPARE(decideResponse(facts, capped).retryInMs, 700);
    }

    void zeroRetryAfterCapStillBacksOff() {
        FetchPolicy policy = testPolicy();
        policy.maxRetryAfterS = 0;
        const ResponseDecision d = decideResponse(retryAfterFacts(429, "30"), policy);
        QCOMPARE(d.action, Action::Retry);
        QCOMPARE(d.retryInMs, 500);
        QCOMPARE(d.pauseHostMs, 0);
        QVERIFY2(d.error.contains(QStringLiteral("server asked to wait 30 s, capped to 0 s")),
                 qPrintable(d.error));
    }

    void backoffLongerThanRetryAfterWins() {
        ResponseFacts facts = retryAfterFacts(503, "1");
        facts.attempts = 3; // backoff 4 s x [0.5, 1]
        const ResponseDecision d = decideResponse(facts, testPolicy());
        QCOMPARE(d.retryInMs, 2000);
        QCOMPARE(d.pauseHostMs, 1000);
    }

    // Our own shortage of descriptors: retried soon, and not counted as an attempt (nothing was sent).
    void outOfDescriptorsIsRetriedWithoutAnAttempt() {
        ResponseFacts facts = errorFacts(QNetworkReply::UnknownNetworkError);
        facts.outOfDescriptors = true;
        facts.attempts = 4; // even when the attempts are used up
        const ResponseDecision d = decideResponse(facts, testPolicy());
        QCOMPARE(d.action, Action::Retry);
        QVERIFY(d.attemptNotMade);
        QVERIFY(d.retryInMs >= 100 && d.retryInMs <= 500);
        QVERIFY2(d.error.contains(QStringLiteral("file descriptors")), qPrintable(d.error));

        facts.spentMs = 600'000; // only the time per URL bounds it
        QCOMPARE(decideResponse(facts, testPolicy()).action, Action::Finish);
    }

    void attemptsAreBounded() {
        ResponseFacts facts = statusFacts(503);
        facts.attempts = 4; // 1 + maxRetries
        const ResponseDecision d = decideResponse(facts, testPolicy());
        QCOMPARE(d.action, Action::Finish);
        QCOMPARE(d.outcome, Outcome::HttpError);
        QVERIFY2(d.error.contains(QStringLiteral("after 4 attempts")), qPrintable(d.error));

        FetchPolicy once = testPolicy();
        once.maxRetries = 0;
        facts.attempts = 1;
        const ResponseDecision single = decideResponse(facts, once);
        QCOMPARE(single.action, Action::Finish);
        QVERIFY2(!single.error.contains(QStringLiteral("attempts")), qPrintable(single.error));
    }

    void timePerUrlIsBounded() {
        ResponseFacts facts = errorFacts(QNetworkReply::ConnectionRefusedError);
        facts.spentMs = 599'800; // the 500 ms backoff would pass the 600 s per URL
        const ResponseDecision d = decideResponse(facts, testPolicy());
        QCOMPARE(d.action, Action::Finish);
        QCOMPARE(d.outcome, Outcome::NetworkError);
        QVERIFY2(d.error.contains(QStringLiteral("600 s per URL")), qPrintable(d.error));
    }

    // A 429 on the last attempt still tells the host to wait (other URLs on it may be retrying).
    void lastAttemptRetryAfterStillPausesHost() {
        ResponseFacts facts = retryAfterFacts(429, "5");
        facts.attempts = 4;
        const ResponseDecision d = decideResponse(facts, testPolicy());
        QCOMPARE(d.action, Action::Finish);
        QCOMPARE(d.pauseHostMs, 5000);
    }
};

QTEST_GUILESS_MAIN(TestResponseDecision)
#include "tst_responsedecision.moc"
