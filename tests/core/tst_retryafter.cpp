// Retry-After (RFC 9110 10.2.3): delta-seconds and the three HTTP-date forms; malformed means absent.
#include "policy/retryafter.h"

#include <QTest>
#include <QTimeZone>

using namespace crawl;

class TestRetryAfter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void retryAfterForms_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<qint64>("expectedMs");
        // now = 1994-11-06 08:49:30 UTC
        QTest::newRow("seconds") << QByteArray("120") << qint64(120'000);
        QTest::newRow("zero") << QByteArray("0") << qint64(0);
        QTest::newRow("imf-fixdate") << QByteArray("Sun, 06 Nov 1994 08:49:37 GMT") << qint64(7'000);
        QTest::newRow("rfc850") << QByteArray("Sunday, 06-Nov-94 08:49:37 GMT") << qint64(7'000);
        QTest::newRow("asctime") << QByteArray("Sun Nov  6 08:49:37 1994") << qint64(7'000);
        QTest::newRow("date in the past is zero") << QByteArray("Sun, 06 Nov 1994 08:00:00 GMT") << qint64(0);
        QTest::newRow("whitespace around") << QByteArray("  5 ") << qint64(5'000);
    }

    void retryAfterForms() {
        QFETCH(QByteArray, value);
        QFETCH(qint64, expectedMs);
        const QDateTime now(QDate(1994, 11, 6), QTime(8, 49, 30), QTimeZone::utc());
        const auto parsed = parseRetryAfter(value, now);
        QVERIFY(parsed.has_value());
        QCOMPARE(*parsed, expectedMs);
    }

    void retryAfterMalformedIsAbsent_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("empty") << QByteArray("");
        QTest::newRow("negative") << QByteArray("-5");
        QTest::newRow("fraction") << QByteArray("1.5");
        QTest::newRow("words") << QByteArray("soon");
        QTest::newRow("bad month") << QByteArray("Sun, 06 Foo 1994 08:49:37 GMT");
        QTest::newRow("not GMT") << QByteArray("Sun, 06 Nov 1994 08:49:37 PST");
        QTest::newRow("invalid day") << QByteArray("Sun, 31 Feb 1994 08:49:37 GMT");
    }

    void retryAfterMalformedIsAbsent() {
        QFETCH(QByteArray, value);
        QVERIFY(!parseRetryAfter(value, QDateTime::currentDateTimeUtc()).has_value());
    }

    void rfc850TwoDigitYearIsNotFarFuture() {
        const QDateTime now(QDate(2026, 11, 29), QTime(0, 0), QTimeZone::utc());
        QCOMPARE(parseHttpDate("Monday, 01-Jan-80 00:00:00 GMT", now).date().year(), 2080 - 100);
        QCOMPARE(parseHttpDate("Friday, 01-Jan-27 00:00:00 GMT", now).date().year(), 2027);
    }
};

QTEST_GUILESS_MAIN(TestRetryAfter)
#include "tst_retryafter.moc"
