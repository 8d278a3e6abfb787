// The test site's hostile profiles and what it records about each request (headers, connections,
// requests the client gave up on), checked on the wire with a raw client and from the site's records.
#include "rawhttpclient.h"
#include "testsite.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QUrl>

#include <memory>

using rawhttp::Client;
using rawhttp::fetch;
using rawhttp::Response;
using testsite::HostRecord;
using testsite::RequestRecord;
using testsite::TestSite;

class TstHostileProfiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();

    void requestHeadersAreRecordedPerHost();
    void connectionsAreCounted();
    void clientCloseIsRecorded();

private:
    bool waitIdle(const QString &host) {
        return QTest::qWaitFor([&] { return m_site->hostRecord(host).inFlight == 0; }, 5000);
    }

    std::unique_ptr<TestSite> m_site;
    QString m_a;
    QString m_b;
};

void TstHostileProfiles::initTestCase() {
    m_site = std::make_unique<TestSite>();
    QString error;
    m_a = m_site->addHost(QHostAddress(QStringLiteral("127.0.0.2")), 0, &error);
    QVERIFY2(!m_a.isEmpty(), qPrintable(error));
    // Same address, another port: a different origin, as a cross-origin redirect needs.
    m_b = m_site->addHost(QHostAddress(QStringLiteral("127.0.0.2")), 0, &error);
    QVERIFY2(!m_b.isEmpty(), qPrintable(error));
}

void TstHostileProfiles::cleanupTestCase() {
    m_site.reset();
}

void TstHostileProfiles::init() {
    m_site->resetRecords();
}

// A redirect to another port of the site, then a request there: each host's records hold exactly the
// header lines that host received, so a test can prove credentials did not cross origins.
void TstHostileProfiles::requestHeadersAreRecordedPerHost() {
    const QByteArray landing = m_site->baseUrl(m_b).toLatin1() + "/landing";
    Client a;
    QVERIFY(a.connectTo(m_a));
    a.get(
        "/start?to=" + QUrl::toPercentEncoding(QString::fromLatin1(landing)),
        "Authorization: Bearer s3cret\r\nCookie: session=abc; theme=dark\r\nX-Repeat: 1\r\nX-Repeat: 2\r\n");
    QVERIFY(a.waitResponses(1));
    QCOMPARE(a.responses[0].status, 302);
    QCOMPARE(a.responses[0].header("Location"), landing);

    Client b;
    QVERIFY(b.connectTo(m_b));
    b.get("/landing");
    QVERIFY(b.waitResponses(1));
    QCOMPARE(b.responses[0].status, 200);
    QVERIFY(waitIdle(m_a) && waitIdle(m_b));

    const QList<RequestRecord> onA = m_site->requests(m_a);
    QCOMPARE(onA.size(), 1);
    QCOMPARE(onA[0].method, QByteArray("GET"));
    QCOMPARE(onA[0].header("authorization"), QByteArray("Bearer s3cret"));
    QCOMPARE(onA[0].header("Cookie"), QByteArray("session=abc; theme=dark"));
    QCOMPARE(onA[0].header("User-Agent"), QByteArray("tst_testsite/1.0"));
    QCOMPARE(onA[0].header("X-Repeat"), QByteArray("1")); // the first of repeated lines
    const QList<QPair<QByteArray, QByteArray>> expected = {
        {"Host", "test"},
        {"User-Agent", "tst_testsite/1.0"},
        {"Authorization", "Bearer s3cret"},
        {"Cookie", "session=abc; theme=dark"},
        {"X-Repeat", "1"},
        {"X-Repeat", "2"},
    };
    QCOMPARE(onA[0].headers(), expected);
    QVERIFY(onA[0].head.startsWith("GET /start?to="));

    const QList<RequestRecord> onB = m_site->requests(m_b);
    QCOMPARE(onB.size(), 1);
    QVERIFY(!onB[0].hasHeader("Authorization"));
    QVERIFY(!onB[0].hasHeader("cookie"));
    QVERIFY(onB[0].hasHeader("user-agent"));
    QCOMPARE(onB[0].header("Authorization"), QByteArray());

    // The JSON carries the header list only when asked.
    QVERIFY(!m_site->recordsJson(m_a).contains("s3cret"));
    const QJsonObject json = QJsonDocument::fromJson(m_site->recordsJson(m_a, true, true)).object();
    const QJsonObject rec = json.value(QStringLiteral("requests")).toArray().at(0).toObject();
    QCOMPARE(rec.value(QStringLiteral("method")).toString(), QStringLiteral("GET"));
    const QJsonArray headers = rec.value(QStringLiteral("headers")).toArray();
    QCOMPARE(headers.size(), 6);
    QCOMPARE(headers.at(2).toArray().at(0).toString(), QStringLiteral("Authorization"));
    QCOMPARE(headers.at(2).toArray().at(1).toString(), QStringLiteral("Bearer s3cret"));
}

// Open connections now and connections accepted since the reset, per host; the site itself never
// closes an idle kept-alive connection.
void TstHostileProfiles::connectionsAreCounted() {
    {
        Client first;
        Client second;
        QVERIFY(first.connectTo(m_a));
        QVERIFY(second.connectTo(m_a));
        QVERIFY(QTest::qWaitFor([&] { return m_site->hostRecord(m_a).openConnections == 2; }, 5000));
        QCOMPARE(m_site->hostRecord(m_a).connections, 2);
        QCOMPARE(m_site->hostRecord(m_b).openConnections, 0);

        first.get("/one");
        QVERIFY(first.waitResponses(1));
        QCOMPARE(first.responses[0].header("Connection"), QByteArray("keep-alive"));
        second.socket.disconnectFromHost();
        QVERIFY(QTest::qWaitFor([&] { return m_site->hostRecord(m_a).openConnections == 1; }, 5000));

        // Idle for a while: still open on both sides, and still serving.
        QTest::qWait(1500);
        QCOMPARE(m_site->hostRecord(m_a).openConnections, 1);
        QVERIFY(!first.disconnected);
        first.get("/two");
        QVERIFY(first.waitResponses(2));
        QCOMPARE(first.responses[1].status, 200);

        m_site->resetRecords(); // connections restarts from the ones still open
        QCOMPARE(m_site->hostRecord(m_a).connections, 1);
        QCOMPARE(m_site->hostRecord(m_a).openConnections, 1);
        const QJsonObject json = QJsonDocument::fromJson(m_site->recordsJson(m_a, false)).object();
        const QJsonObject host = json.value(QStringLiteral("hosts")).toArray().at(0).toObject();
        QCOMPARE(host.value(QStringLiteral("openConnections")).toInt(), 1);
        QCOMPARE(host.value(QStringLiteral("connections")).toInt(), 1);
    }
    QVERIFY(QTest::qWaitFor([&] { return m_site->hostRecord(m_a).openConnections == 0; }, 5000));
}

// A request the client abandoned ends when the server sees the close, and says so.
void TstHostileProfiles::clientCloseIsRecorded() {
    QCOMPARE(fetch(m_a, "/done").status, 200);
    Client c;
    QVERIFY(c.connectTo(m_a));
    c.get("/stuck?hang=1");
    QVERIFY(QTest::qWaitFor([&] { return m_site->hostRecord(m_a).inFlight == 1; }, 5000));
    c.socket.abort();
    QVERIFY(waitIdle(m_a));
    const QList<RequestRecord> recs = m_site->requests(m_a);
    QCOMPARE(recs.size(), 2);
    QVERIFY(!recs[0].clientClosed);
    QCOMPARE(recs[1].target, QStringLiteral("/stuck?hang=1"));
    QVERIFY(recs[1].clientClosed);
    QCOMPARE(recs[1].status, 0);
    QVERIFY(recs[1].endNs >= recs[1].startNs);
}

QTEST_GUILESS_MAIN(TstHostileProfiles)
#include "tst_hostileprofiles.moc"
