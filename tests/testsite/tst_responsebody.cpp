// The test site's pure pieces, without sockets: body framing and byte-size parameters.
#include "responsebody.h"
#include "responseprofile.h"

#include <QTest>

using testsite::BodySegment;
using testsite::ResponseBody;
using testsite::ResponseProfile;

namespace {

QByteArray drain(ResponseBody &body, qint64 maxPayload, int *calls = nullptr) {
    QByteArray out;
    int n = 0;
    while (!body.atEnd() && n < 1000000) {
        out += body.next(maxPayload);
        ++n;
    }
    if (calls)
        *calls = n;
    return out;
}

} // namespace

class TstResponseBody : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void plainPageAndFiller();
    void segmentsAcrossBoundaries();
    void chunkedFraming();
    void brokenChunkedFraming();
    void emptyBodies();
    void byteSizes_data();
    void byteSizes();
    void hostileParameters();
};

void TstResponseBody::plainPageAndFiller() {
    ResponseBody page = ResponseBody::ofPage("0123456789", 4);
    QCOMPARE(page.payloadSize(), 4);
    QCOMPARE(drain(page, 3), QByteArray("0123"));

    ResponseBody filler = ResponseBody::ofPage({}, 150000);
    int calls = 0;
    const QByteArray bytes = drain(filler, 1 << 30, &calls);
    QCOMPARE(bytes.size(), 150000);
    QCOMPARE(calls, 3); // slices of at most 64 KiB
    QVERIFY(bytes.startsWith("crawlscope test body filler"));
}

void TstResponseBody::segmentsAcrossBoundaries() {
    ResponseBody body = ResponseBody::ofSegments({{"ab", 3}, {"", 5}, {"c", 1}, {"zz", 0}});
    QCOMPARE(body.payloadSize(), 7);
    QCOMPARE(body.next(4), QByteArray("abab"));
    QCOMPARE(body.next(4), QByteArray("abc"));
    QVERIFY(body.atEnd());
    QCOMPARE(body.next(4), QByteArray());
}

void TstResponseBody::chunkedFraming() {
    ResponseBody body = ResponseBody::ofPage("hello world!", 12);
    body.setFraming(ResponseBody::Framing::Chunked);
    QCOMPARE(drain(body, 5), QByteArray("5\r\nhello\r\n5\r\n worl\r\n2\r\nd!\r\n0\r\n\r\n"));

    ResponseBody big = ResponseBody::ofPage({}, 70000);
    big.setFraming(ResponseBody::Framing::Chunked);
    const QByteArray wire = drain(big, 1 << 30);
    QVERIFY(wire.startsWith("10000\r\n"));
    QVERIFY(wire.contains("\r\n1170\r\n")); // 70000 - 65536 = 0x1170
    QVERIFY(wire.endsWith("\r\n0\r\n\r\n"));
}

void TstResponseBody::brokenChunkedFraming() {
    ResponseBody bad = ResponseBody::ofPage("hello world!", 12);
    bad.setFraming(ResponseBody::Framing::BadChunkSize);
    QCOMPARE(drain(bad, 5), QByteArray("zz\r\nhello\r\n5\r\n worl\r\n2\r\nd!\r\n0\r\n\r\n"));

    ResponseBody cut = ResponseBody::ofPage("hello world!", 12);
    cut.setFraming(ResponseBody::Framing::TruncatedChunk);
    QCOMPARE(drain(cut, 5), QByteArray("5\r\nhello\r\n5\r\n worl\r\n2\r\nd"));

    ResponseBody single = ResponseBody::ofPage("abcd", 4);
    single.setFraming(ResponseBody::Framing::TruncatedChunk);
    QCOMPARE(drain(single, 100), QByteArray("4\r\nab"));
}

void TstResponseBody::emptyBodies() {
    ResponseBody plain = ResponseBody::ofPage("x", 0);
    QVERIFY(plain.atEnd());
    ResponseBody chunked = ResponseBody::ofPage("x", 0);
    chunked.setFraming(ResponseBody::Framing::Chunked);
    QCOMPARE(drain(chunked, 10), QByteArray("0\r\n\r\n"));
    ResponseBody bad = ResponseBody::ofPage("x", 0);
    bad.setFraming(ResponseBody::Framing::BadChunkSize);
    QCOMPARE(drain(bad, 10), QByteArray("zz\r\n\r\n0\r\n\r\n"));
    ResponseBody cut = ResponseBody::ofPage("x", 0);
    cut.setFraming(ResponseBody::Framing::TruncatedChunk);
    QCOMPARE(drain(cut, 10), QByteArray());
    QVERIFY(cut.atEnd());
}

void TstResponseBody::byteSizes_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("plain") << QByteArray("1000") << qint64(1000);
    QTest::newRow("zero") << QByteArray("0") << qint64(0);
    QTest::newRow("k") << QByteArray("5k") << qint64(5 * 1024);
    QTest::newRow("M") << QByteArray("20M") << qint64(20 * 1024 * 1024);
    QTest::newRow("m") << QByteArray("200m") << qint64(200 * 1024 * 1024);
    QTest::newRow("G") << QByteArray("1G") << qint64(1024) * 1024 * 1024;
    QTest::newRow("empty") << QByteArray() << qint64(-1);
    QTest::newRow("suffix only") << QByteArray("M") << qint64(-1);
    QTest::newRow("negative") << QByteArray("-5") << qint64(-1);
    QTest::newRow("unknown suffix") << QByteArray("12q") << qint64(-1);
    QTest::newRow("overflow") << QByteArray("99999999999999G") << qint64(-1);
}

void TstResponseBody::byteSizes() {
    QFETCH(QByteArray, text);
    QFETCH(qint64, bytes);
    QCOMPARE(ResponseProfile::parseByteSize(text), bytes);
}

void TstResponseBody::hostileParameters() {
    const ResponseProfile p =
        ResponseProfile::fromQuery("gzip=1G&chunked=truncated&headers=150&headerbytes=1M&work=100-200");
    QCOMPARE(p.zeros, qint64(1024) * 1024 * 1024);
    QVERIFY(p.coding == testsite::ContentCoding::Gzip);
    QVERIFY(p.framing == ResponseBody::Framing::TruncatedChunk);
    QCOMPARE(p.headerCount, 150);
    QCOMPARE(p.headerBytes, qint64(1024 * 1024));
    QVERIFY(p.work);
    QCOMPARE(p.msMin, 100);
    QCOMPARE(p.msMax, 200);

    const ResponseProfile q = ResponseProfile::fromQuery("deflate=3&chunked=0&gzip=junk&headers=-1");
    QCOMPARE(q.zeros, qint64(-1)); // the later, bad gzip value wins and means none
    QVERIFY(q.framing == ResponseBody::Framing::Plain);
    QCOMPARE(q.headerCount, 0);
    QVERIFY(!q.work);
    QCOMPARE(ResponseProfile::fromQuery("chunked=bad").framing, ResponseBody::Framing::BadChunkSize);
    QCOMPARE(ResponseProfile::fromQuery("gzip=999999G").zeros, qint64(64) * 1024 * 1024 * 1024);
}

QTEST_GUILESS_MAIN(TstResponseBody)
#include "tst_responsebody.moc"
