// Redirects that could leak or reach what they should not (issue 9 items 5 and 8): credential headers
// stay with the input URL's origin, and a hop from a public host to a private address is recorded or
// refused. Asserted on the request heads the servers received.
#include "crawlfixture.h"
#include "policy/redirectsafety.h"
#include "scriptedserver.h"

#include <QNetworkProxy>
#include <QScopeGuard>
#include <QTest>

using namespace crawl;
using namespace crawl::testing;

namespace {

FetchPolicy policyWithSecrets() {
    FetchPolicy policy = quickPolicy();
    policy.headers = {{"Authorization", "Bearer s3cret"},
                      {"Cookie", "session=abc"},
                      {"X-Api-Key", "k-123"},
                      {"Accept", "text/html"}};
    return policy;
}

} // namespace

class TestRedirectSafety : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void credentialHeaders_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<bool>("credential");
        QTest::newRow("Authorization") << QByteArray("Authorization") << true;
        QTest::newRow("authorization") << QByteArray("authorization") << true;
        QTest::newRow("Proxy-Authorization") << QByteArray("Proxy-Authorization") << true;
        QTest::newRow("Cookie") << QByteArray("Cookie") << true;
        QTest::newRow("X-Api-Key") << QByteArray("X-Api-Key") << true;
        QTest::newRow("X-Auth-Token") << QByteArray("X-Auth-Token") << true;
        QTest::newRow("X-Session-Id") << QByteArray("X-Session-Id") << true;
        QTest::newRow("Accept") << QByteArray("Accept") << false;
        QTest::newRow("Accept-Language") << QByteArray("Accept-Language") << false;
        QTest::newRow("Keep-Alive") << QByteArray("Keep-Alive") << false;
        QTest::newRow("If-None-Match") << QByteArray("If-None-Match") << false;
    }
    void credentialHeaders() {
        QFETCH(QByteArray, name);
        QFETCH(bool, credential);
        QCOMPARE(isCredentialHeader(name), credential);
    }

    void privateHosts_data() {
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("isPrivate");
        for (const char *h :
             {"127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
              "100.64.0.1", "169.254.169.254", "0.0.0.0", "::1", "[::1]", "fd00::1", "fe80::1",
              "::ffff:127.0.0.1", "localhost", "LOCALHOST.", "api.localhost"})
            QTest::newRow(h) << QString::fromLatin1(h) << true;
        for (const char *h : {"8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2001:db8::1",
                              "example.com", "localhost.example.com", "bücher.de"})
            QTest::newRow(h) << QString::fromUtf8(h) << false;
    }
    void privateHosts() {
        QFETCH(QString, host);
        QFETCH(bool, isPrivate);
        QCOMPARE(isPrivateHost(host), isPrivate);
    }

    // A -> B (another host): B must not see the user's credentials; A -> A keeps them.
    void credentialsStayWithTheirOrigin_data() {
        QTest::addColumn<bool>("sendCrossOrigin");
        QTest::newRow("default: dropped") << false;
        QTest::newRow("--send-credentials-cross-origin") << true;
    }
    void credentialsStayWithTheirOrigin() {
        QFETCH(bool, sendCrossOrigin);
        ScriptedServer other([](const ScriptedRequest &) { return okResponse(); },
                             QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(other.listening());
        ScriptedServer origin(
            [&other](const ScriptedRequest &request) {
                if (request.target == "/away")
                    return redirectResponse(other.base() + "/landed");
                if (request.target == "/stay")
                    return redirectResponse("/stayed");
                return okResponse();
            },
            QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(origin.listening());

        Crawl crawl;
        FetchPolicy policy = policyWithSecrets();
        policy.sendCredentialsCrossOrigin = sendCrossOrigin;
        crawl.engine.setLimits(limitsOf(4, 2, 0));
        crawl.engine.setFetchPolicy(policy);
        const QString away = QString::fromLatin1(origin.base() + "/away");
        const QString stay = QString::fromLatin1(origin.base() + "/stay");
        START(crawl, (QStringList{away, stay}));
        QVERIFY(crawl.waitFinished(10'000));
        QCOMPARE(crawl.count(Outcome::Ok), 2);

        QCOMPARE(origin.requests.size(), 3); // /away, /stay, /stayed
        for (const ScriptedRequest &request : std::as_const(origin.requests)) {
            QCOMPARE(request.header("Authorization"), QByteArray("Bearer s3cret"));
            QCOMPARE(request.header("Cookie"), QByteArray("session=abc"));
            QCOMPARE(request.header("X-Api-Key"), QByteArray("k-123"));
        }
        QCOMPARE(other.requests.size(), 1);
        const ScriptedRequest &landed = other.requests.first();
        QCOMPARE(landed.header("Accept"), QByteArray("text/html"));
        for (const char *name : {"Authorization", "Cookie", "X-Api-Key"})
            QVERIFY2(landed.hasHeader(name) == sendCrossOrigin,
                     qPrintable(QStringLiteral("%1 %2 to the other host")
                                    .arg(QLatin1String(name), landed.hasHeader(name)
                                                                  ? QStringLiteral("was sent")
                                                                  : QStringLiteral("was not sent"))));
    }

    // A public name redirecting to 127.0.0.3: followed and recorded by default, refused on request.
    // The public name is never resolved: every request goes to a loopback server acting as HTTP proxy.
    void publicToPrivateRedirect_data() {
        QTest::addColumn<bool>("refuse");
        QTest::newRow("recorded") << false;
        QTest::newRow("--no-private-redirects") << true;
    }
    void publicToPrivateRedirect() {
        QFETCH(bool, refuse);
        ScriptedServer inside([](const ScriptedRequest &) { return okResponse(); },
                              QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(inside.listening());
        ScriptedServer proxy([&inside](const ScriptedRequest &request) {
            if (request.target.startsWith("http://public.test/"))
                return redirectResponse(inside.base() + "/inside");
            return okResponse();
        });
        QVERIFY(proxy.listening());
        QNetworkProxy::setApplicationProxy(
            QNetworkProxy(QNetworkProxy::HttpProxy, proxy.address().toString(), proxy.port()));
        const auto restore = qScopeGuard([] { QNetworkProxy::setApplicationProxy(QNetworkProxy::NoProxy); });

        Crawl crawl;
        FetchPolicy policy = quickPolicy();
        policy.refusePrivateRedirects = refuse;
        crawl.engine.setFetchPolicy(policy);
        const QString url = QStringLiteral("http://public.test/go");
        START(crawl, QStringList{url});
        QVERIFY(crawl.waitFinished(10'000));
        const CrawlResult r = crawl.result(url);
        if (refuse) {
            QCOMPARE(r.outcome, Outcome::HttpError);
            QVERIFY2(r.error.contains(QStringLiteral("--no-private-redirects")) &&
                         r.error.contains(QStringLiteral("127.0.0.3")),
                     qPrintable(r.error));
            QCOMPARE(proxy.requests.size(), 1);
            QCOMPARE(inside.requests.size(), 0);
        } else {
            QCOMPARE(r.outcome, Outcome::Ok);
            QVERIFY2(
                r.warning.contains(QStringLiteral("public host public.test to private address 127.0.0.3")),
                qPrintable(r.warning));
            // Qt connects to a loopback target directly, bypassing the proxy.
            QCOMPARE(proxy.requests.size() + inside.requests.size(), 2);
        }
    }

    // Loopback to loopback (what every local test does) is not worth a warning.
    void privateToPrivateRedirectIsQuiet() {
        ScriptedServer site([](const ScriptedRequest &request) {
            return request.target == "/a" ? redirectResponse("/b") : okResponse();
        });
        Crawl crawl;
        FetchPolicy policy = quickPolicy();
        policy.refusePrivateRedirects = true;
        crawl.engine.setFetchPolicy(policy);
        const QString url = QString::fromLatin1(site.base() + "/a");
        START(crawl, QStringList{url});
        QVERIFY(crawl.waitFinished(10'000));
        const CrawlResult r = crawl.result(url);
        QCOMPARE(r.outcome, Outcome::Ok);
        QVERIFY(r.warning.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRedirectSafety)
#include "tst_redirectsafety.moc"
