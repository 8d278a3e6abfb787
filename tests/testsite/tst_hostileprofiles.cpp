// The test site's hostile profiles and what it records about each request (headers, connections,
// requests the client gave up on), checked on the wire with a raw client and from the site's records.
#include "rawhttpclient.h"
#include "testsite.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTest>
#include <QUrl>

#include <cstring>
#include <memory>
#include <vector>
#include <zlib.h>

using rawhttp::Client;
using rawhttp::fetch;
using rawhttp::Response;
using testsite::HostRecord;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {

constexpr qint64 kMiB = 1024 * 1024;

// What an encoded body decodes to, by zlib itself (windowBits 15+16: gzip, 15: zlib format).
struct Inflated {
    bool ok = false; // a complete stream with nothing after it
    qint64 bytes = 0;
    bool allZero = true;
};

Inflated inflateAll(const QByteArray &encoded, bool gzip) {
    Inflated result;
    z_stream zs = {};
    if (inflateInit2(&zs, gzip ? 15 + 16 : 15) != Z_OK)
        return result;
    QByteArray out(int(kMiB), Qt::Uninitialized);
    const QByteArray zeros(int(kMiB), '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(encoded.constData()));
    zs.avail_in = uInt(encoded.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef *>(out.data());
        zs.avail_out = uInt(out.size());
        rc = inflate(&zs, Z_NO_FLUSH);
        const qint64 produced = out.size() - zs.avail_out;
        result.bytes += produced;
        if (result.allZero && std::memcmp(out.constData(), zeros.constData(), size_t(produced)) != 0)
            result.allZero = false;
    }
    result.ok = rc == Z_STREAM_END && zs.avail_in == 0;
    inflateEnd(&zs);
    return result;
}

// The head (up to the blank line) and what follows it.
QPair<QByteArray, QByteArray> splitHead(const QByteArray &raw) {
    const qsizetype end = raw.indexOf("\r\n\r\n");
    if (end < 0)
        return {raw, {}};
    return {raw.left(end + 4), raw.mid(end + 4)};
}

// Decodes a well-formed chunked body (no trailers); *ok false on any framing error.
QByteArray dechunk(const QByteArray &wire, bool *ok, int *chunks = nullptr) {
    QByteArray out;
    qsizetype pos = 0;
    int count = 0;
    *ok = false;
    for (;;) {
        const qsizetype eol = wire.indexOf("\r\n", pos);
        if (eol < 0)
            return out;
        bool hexOk = false;
        const qint64 size = wire.mid(pos, eol - pos).toLongLong(&hexOk, 16);
        if (!hexOk || size < 0)
            return out;
        pos = eol + 2;
        if (size == 0) {
            *ok = wire.mid(pos) == "\r\n";
            if (chunks)
                *chunks = count;
            return out;
        }
        if (wire.size() < pos + size + 2 || wire.mid(pos + size, 2) != "\r\n")
            return out;
        out.append(wire.mid(pos, size));
        pos += size + 2;
        ++count;
    }
}

QByteArray headerValue(const QByteArray &head, const QByteArray &name) {
    for (const QByteArray &line : head.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().compare(name, Qt::CaseInsensitive) == 0)
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

} // namespace

class TstHostileProfiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();

    void requestHeadersAreRecordedPerHost();
    void connectionsAreCounted();
    void clientCloseIsRecorded();
    void compressedZeros_data();
    void compressedZeros();
    void compressedZerosDecodeInQt();
    void chunkedBody();
    void chunkedBadSize();
    void chunkedTruncated();
    void manyHeaders();
    void oneHugeHeader();
    void workGoesOnAfterClientCloses();
    void msEndsWhenClientCloses();
    void destructionDuringAbandonedWork();
    void everyRequestIsCountedAroundMalformed();
    void qtResendsAfterMalformedAreVisible();

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
    // Two ports on one address: two origins, as a cross-origin redirect needs.
    for (QString *host : {&m_a, &m_b}) {
        QString error;
        *host = m_site->addHost(QHostAddress(QStringLiteral("127.0.0.2")), 0, &error);
        QVERIFY2(!host->isEmpty(), qPrintable(error));
    }
}

void TstHostileProfiles::cleanupTestCase() {
    m_site.reset();
}

void TstHostileProfiles::init() {
    // A reset keeps counting the connections still open, so wait until the previous test's clients are
    // closed on the site's side too (the site learns of a close asynchronously).
    QVERIFY(QTest::qWaitFor(
        [&] {
            return m_site->hostRecord(m_a).openConnections == 0 &&
                   m_site->hostRecord(m_b).openConnections == 0;
        },
        5000));
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

void TstHostileProfiles::compressedZeros_data() {
    QTest::addColumn<QByteArray>("query");
    QTest::addColumn<bool>("gzip");
    QTest::addColumn<qint64>("decoded");
    QTest::newRow("gzip 20M") << QByteArray("gzip=20M") << true << 20 * kMiB;
    QTest::newRow("gzip 200M") << QByteArray("gzip=200M") << true << 200 * kMiB;
    QTest::newRow("gzip 1G") << QByteArray("gzip=1G") << true << 1024 * kMiB;
    QTest::newRow("gzip 1 MiB + 1") << QByteArray("gzip=1048577") << true << kMiB + 1;
    QTest::newRow("gzip 0") << QByteArray("gzip=0") << true << qint64(0);
    QTest::newRow("deflate 20M") << QByteArray("deflate=20m") << false << 20 * kMiB;
    QTest::newRow("deflate 1000") << QByteArray("deflate=1000") << false << qint64(1000);
}

// Content-Encoding bombs: a small body on the wire, with an honest Content-Length, that zlib decodes
// (checksums and all) to exactly the asked number of zero bytes.
void TstHostileProfiles::compressedZeros() {
    QFETCH(QByteArray, query);
    QFETCH(bool, gzip);
    QFETCH(qint64, decoded);
    Client c;
    QVERIFY(c.connectTo(m_a));
    c.get("/bomb?" + query);
    QVERIFY(c.waitResponses(1, 20000));
    const Response &r = c.responses[0];
    QCOMPARE(r.status, 200);
    QCOMPARE(r.header("Content-Encoding"), gzip ? QByteArray("gzip") : QByteArray("deflate"));
    QCOMPARE(r.header("Connection"), QByteArray("keep-alive"));
    QCOMPARE(r.body.size(), r.header("Content-Length").toLongLong());
    QVERIFY2(r.body.size() <= decoded / 900 + 64, qPrintable(QString::number(r.body.size())));
    if (gzip) {
        QVERIFY(r.body.startsWith("\x1f\x8b\x08"));
        const auto *tail = reinterpret_cast<const uchar *>(r.body.constData() + r.body.size() - 4);
        const quint32 isize =
            quint32(tail[0]) | quint32(tail[1]) << 8 | quint32(tail[2]) << 16 | quint32(tail[3]) << 24;
        QCOMPARE(isize, quint32(quint64(decoded) & 0xffffffffu));
    }
    const Inflated inflated = inflateAll(r.body, gzip);
    QVERIFY(inflated.ok);
    QCOMPARE(inflated.bytes, decoded);
    QVERIFY(inflated.allZero);

    // The connection goes on.
    c.get("/after");
    QVERIFY(c.waitResponses(2));
    QCOMPARE(c.responses[1].status, 200);
    QVERIFY(waitIdle(m_a));
    QCOMPARE(m_site->requests(m_a).value(0).status, 200);
}

// Qt's own decoder takes the small ones (it refuses big ratios itself): the framing is what real clients
// expect, also inside a chunked body.
void TstHostileProfiles::compressedZerosDecodeInQt() {
    QNetworkAccessManager nam;
    for (const QByteArray &query :
         {QByteArray("gzip=300000"), QByteArray("deflate=300000"), QByteArray("gzip=300000&chunked=1")}) {
        QNetworkRequest request(
            QUrl(m_site->baseUrl(m_a) + QStringLiteral("/q?") + QString::fromLatin1(query)));
        std::unique_ptr<QNetworkReply> reply(nam.get(request));
        QVERIFY(QTest::qWaitFor([&] { return reply->isFinished(); }, 10000));
        QVERIFY2(reply->error() == QNetworkReply::NoError, qPrintable(reply->errorString()));
        const QByteArray body = reply->readAll();
        QCOMPARE(body.size(), 300000);
        QCOMPARE(body.count('\0'), 300000);
    }
}

// chunked=1: the normal body in 64 KiB chunks and a terminating chunk, on a kept-alive connection.
void TstHostileProfiles::chunkedBody() {
    Client c;
    QVERIFY(c.connectTo(m_a));
    c.get("/c?chunked=1&size=150000");
    QVERIFY(QTest::qWaitFor([&] { return c.raw.endsWith("\r\n0\r\n\r\n"); }, 5000));
    const auto [head, wire] = splitHead(c.raw);
    QCOMPARE(headerValue(head, "Transfer-Encoding"), QByteArray("chunked"));
    QVERIFY(headerValue(head, "Content-Length").isEmpty());
    QCOMPARE(headerValue(head, "Connection"), QByteArray("keep-alive"));
    QVERIFY(wire.startsWith("10000\r\ncrawlscope test body filler"));
    bool ok = false;
    int chunks = 0;
    const QByteArray body = dechunk(wire, &ok, &chunks);
    QVERIFY(ok);
    QCOMPARE(body.size(), 150000);
    QCOMPARE(chunks, 3);

    // A small page is one chunk; the connection still serves.
    c.raw.clear();
    c.get("/c?chunked=1");
    QVERIFY(QTest::qWaitFor([&] { return c.raw.endsWith("\r\n0\r\n\r\n"); }, 5000));
    const QByteArray page = dechunk(splitHead(c.raw).second, &ok, &chunks);
    QVERIFY(ok);
    QCOMPARE(chunks, 1);
    QVERIFY(page.contains("<title>Crawlscope test page /c?chunked=1</title>"));
    QVERIFY(!c.disconnected);
}

// chunked=bad: the first chunk-size line is "zz"; the rest is well formed; then the site closes.
void TstHostileProfiles::chunkedBadSize() {
    Client c;
    QVERIFY(c.connectTo(m_a));
    c.get("/c?chunked=bad&size=100");
    QVERIFY(c.waitDisconnected());
    const auto [head, wire] = splitHead(c.raw);
    QVERIFY(head.startsWith("HTTP/1.1 200 OK\r\n"));
    QCOMPARE(headerValue(head, "Transfer-Encoding"), QByteArray("chunked"));
    QCOMPARE(wire.size(), 4 + 100 + 2 + 5);
    QVERIFY(wire.startsWith("zz\r\ncrawlscope test body filler"));
    QVERIFY(wire.endsWith("\r\n0\r\n\r\n"));
    bool ok = true;
    dechunk(wire, &ok);
    QVERIFY(!ok);
    QVERIFY(waitIdle(m_a));
    QCOMPARE(m_site->requests(m_a).value(0).status, 200);
    QVERIFY(!m_site->requests(m_a).value(0).clientClosed);
}

// chunked=truncated: the last chunk carries half the bytes its size line announces, no terminating
// chunk, and the site closes the connection.
void TstHostileProfiles::chunkedTruncated() {
    Client c;
    QVERIFY(c.connectTo(m_a));
    c.get("/c?chunked=truncated&size=70000");
    QVERIFY(c.waitDisconnected());
    const QByteArray wire = splitHead(c.raw).second;
    const QByteArray second = "\r\n" + QByteArray::number(70000 - 65536, 16) + "\r\n";
    QVERIFY(wire.startsWith("10000\r\n"));
    const qsizetype at = wire.indexOf(second);
    QCOMPARE(at, 7 + 65536);
    QCOMPARE(wire.size() - (at + second.size()), (70000 - 65536) / 2);
    QVERIFY(!wire.endsWith("0\r\n\r\n"));
    bool ok = true;
    dechunk(wire, &ok);
    QVERIFY(!ok);
}

// headers=150: 150 extra header lines, then the body, and the kept-alive connection serves on.
void TstHostileProfiles::manyHeaders() {
    Client c;
    QVERIFY(c.connectTo(m_a));
    c.get("/h?headers=150&size=1000");
    QVERIFY(c.waitResponses(1));
    const Response &r = c.responses[0];
    QCOMPARE(r.status, 200);
    int fillers = 0;
    for (const auto &[name, value] : r.headers) {
        if (name.startsWith("X-Filler-")) {
            ++fillers;
            QCOMPARE(name, "X-Filler-" + QByteArray::number(fillers));
            QCOMPARE(value, "value " + QByteArray::number(fillers));
        }
    }
    QCOMPARE(fillers, 150);
    QCOMPARE(r.headers.size(), 150 + 5); // Server, Date, Content-Type, Content-Length, Connection
    QCOMPARE(r.header("Connection"), QByteArray("keep-alive"));
    QCOMPARE(r.body.size(), 1000);

    c.get("/h?headers=0");
    QVERIFY(c.waitResponses(2));
    QCOMPARE(c.responses[1].status, 200);
    QCOMPARE(c.responses[1].headers.size(), 5);
    QVERIFY(!c.disconnected);
}

// headerbytes=1M: one header line with a 1 MiB value on a kept-alive connection.
void TstHostileProfiles::oneHugeHeader() {
    Client c;
    QVERIFY(c.connectTo(m_a));
    c.get("/h?headerbytes=1M");
    QVERIFY(c.waitResponses(1, 10000));
    const Response &r = c.responses[0];
    QCOMPARE(r.status, 200);
    QCOMPARE(r.header("X-Big"), QByteArray(1024 * 1024, 'x'));
    QVERIFY(c.raw.contains("\r\nX-Big: " + QByteArray(1024 * 1024, 'x') + "\r\n"));
    QCOMPARE(r.header("Connection"), QByteArray("keep-alive"));
    QVERIFY(r.body.contains("<title>Crawlscope test page /h?headerbytes=1M</title>"));

    c.get("/h?headerbytes=100");
    QVERIFY(c.waitResponses(2));
    QCOMPARE(c.responses[1].header("X-Big"), QByteArray(100, 'x'));
    QVERIFY(!c.disconnected);
    QVERIFY(waitIdle(m_a));
    QCOMPARE(m_site->hostRecord(m_a).requests, 2);
}

// work=N: the client gives up at once, the site still counts the request in flight until its work is
// done, so two abandoned requests plus two new ones make four in flight on the host.
void TstHostileProfiles::workGoesOnAfterClientCloses() {
    std::vector<std::unique_ptr<Client>> gaveUp;
    for (int i = 0; i < 2; ++i) {
        gaveUp.push_back(std::make_unique<Client>());
        QVERIFY(gaveUp.back()->connectTo(m_a));
        gaveUp.back()->get("/slow?work=1500");
    }
    QVERIFY(QTest::qWaitFor([&] { return m_site->hostRecord(m_a).inFlight == 2; }, 5000));
    const qint64 closedAt = TestSite::nowNs();
    for (auto &c : gaveUp)
        c->socket.abort();
    QVERIFY(QTest::qWaitFor([&] { return m_site->hostRecord(m_a).openConnections == 0; }, 5000));
    QCOMPARE(m_site->hostRecord(m_a).inFlight, 2); // the connections are gone, the work is not

    std::vector<std::unique_ptr<Client>> next;
    for (int i = 0; i < 2; ++i) {
        next.push_back(std::make_unique<Client>());
        QVERIFY(next.back()->connectTo(m_a));
        next.back()->get("/next?ms=200");
    }
    for (auto &c : next)
        QVERIFY(c->waitResponses(1));
    QVERIFY(waitIdle(m_a));
    QCOMPARE(m_site->hostRecord(m_a).peakInFlight, 4);

    const QList<RequestRecord> recs = m_site->requests(m_a);
    QCOMPARE(recs.size(), 4);
    for (const RequestRecord &r : recs) {
        if (r.target.startsWith(QLatin1String("/slow"))) {
            QVERIFY(r.clientClosed);
            QCOMPARE(r.status, 0);
            QVERIFY2(r.endNs - r.startNs >= 1450 * 1000000LL,
                     qPrintable(QString::number(r.endNs - r.startNs)));
            QVERIFY(r.endNs > closedAt);
        } else {
            QVERIFY(!r.clientClosed);
            QCOMPARE(r.status, 200);
        }
    }

    // With the client still there, work=N answers like ms=N.
    Client patient;
    QVERIFY(patient.connectTo(m_a));
    patient.get("/slow?work=300");
    QVERIFY(patient.waitResponses(1));
    QCOMPARE(patient.responses[0].status, 200);
    QVERIFY(waitIdle(m_a));
    const RequestRecord last = m_site->requests(m_a).constLast();
    QVERIFY(!last.clientClosed);
    QVERIFY(last.endNs - last.startNs >= 290 * 1000000LL);
}

// The contrast: ms=N ends the request as soon as the site sees the client close.
void TstHostileProfiles::msEndsWhenClientCloses() {
    Client c;
    QVERIFY(c.connectTo(m_a));
    c.get("/slow?ms=5000");
    QVERIFY(QTest::qWaitFor([&] { return m_site->hostRecord(m_a).inFlight == 1; }, 5000));
    c.socket.abort();
    QVERIFY(QTest::qWaitFor([&] { return m_site->hostRecord(m_a).inFlight == 0; }, 3000));
    const RequestRecord r = m_site->requests(m_a).value(0);
    QVERIFY(r.clientClosed);
    QVERIFY(r.endNs - r.startNs < 3000 * 1000000LL);
}

// A site torn down while an abandoned request still works: no wait for the work, no crash.
void TstHostileProfiles::destructionDuringAbandonedWork() {
    auto site = std::make_unique<TestSite>();
    const QString host = site->addHost();
    QVERIFY(!host.isEmpty());
    Client c;
    QVERIFY(c.connectTo(host));
    c.get("/slow?work=60000");
    QVERIFY(QTest::qWaitFor([&] { return site->hostRecord(host).inFlight == 1; }, 5000));
    c.socket.abort();
    QVERIFY(QTest::qWaitFor([&] { return site->hostRecord(host).openConnections == 0; }, 5000));
    QElapsedTimer t;
    t.start();
    site.reset();
    QVERIFY(t.elapsed() < 5000);
}

// Pipelined behind a malformed answer, the requests the site never answers still count.
void TstHostileProfiles::everyRequestIsCountedAroundMalformed() {
    Client c;
    QVERIFY(c.connectTo(m_a));
    c.sendRaw("GET /m?malformed=1 HTTP/1.1\r\nHost: t\r\n\r\nGET /p1 HTTP/1.1\r\nHost: t\r\n\r\n"
              "GET /p2 HTTP/1.1\r\nHost: t\r\n\r\n");
    QVERIFY(c.waitDisconnected());
    QVERIFY(c.raw.startsWith("ICY 200 NOT-HTTP\r\n"));
    QVERIFY(waitIdle(m_a));
    const QList<RequestRecord> recs = m_site->requests(m_a);
    QCOMPARE(recs.size(), 3);
    QCOMPARE(m_site->hostRecord(m_a).requests, 3);
    QCOMPARE(recs[0].target, QStringLiteral("/m?malformed=1"));
    QCOMPARE(recs[2].target, QStringLiteral("/p2"));
    for (const RequestRecord &r : recs) {
        QCOMPARE(r.status, 0);
        QCOMPARE(r.connectionId, recs[0].connectionId);
        QVERIFY(r.endNs > 0);
    }
}

// Whatever a client re-sends after a malformed answer reaches the records: one request per connection,
// each one counted (Qt's HTTP stack re-sends on its own; the count is what an engine test compares).
void TstHostileProfiles::qtResendsAfterMalformedAreVisible() {
    QNetworkAccessManager nam;
    std::unique_ptr<QNetworkReply> reply(
        nam.get(QNetworkRequest(QUrl(m_site->baseUrl(m_a) + QStringLiteral("/m?malformed=1")))));
    QVERIFY(QTest::qWaitFor([&] { return reply->isFinished(); }, 10000));
    QVERIFY(reply->error() != QNetworkReply::NoError);
    QVERIFY(waitIdle(m_a));
    const HostRecord host = m_site->hostRecord(m_a);
    const QList<RequestRecord> recs = m_site->requests(m_a);
    QVERIFY(host.requests >= 1);
    QCOMPARE(qint64(recs.size()), host.requests);
    QCOMPARE(host.connections, host.requests);
    for (const RequestRecord &r : recs)
        QCOMPARE(r.target, QStringLiteral("/m?malformed=1"));
    qInfo("Qt sent %lld request(s) for one malformed answer", host.requests);
}

QTEST_GUILESS_MAIN(TstHostileProfiles)
#include "tst_hostileprofiles.moc"
