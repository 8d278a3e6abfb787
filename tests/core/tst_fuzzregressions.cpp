// Inputs the fuzzers in fuzz/ found, kept as ordinary unit tests so the fix cannot quietly regress in
// a build without the fuzzers.
#include "policy/retryafter.h"

#include <QTest>
#include <QTimeZone>

using namespace crawl;

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // fuzz_retryafter: delta-seconds is 1*DIGIT, so leading zeros are allowed; 13 or more digits with
    // leading zeros were taken as "beyond any cap" and made the crawl wait the longest allowed time.
    void retryAfterLeadingZerosAreSeconds_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<qint64>("expectedMs");
        QTest::newRow("28 zeros") << QByteArray("0000000000000000000000000000") << qint64(0);
        QTest::newRow("5 after 12 zeros") << QByteArray("0000000000005") << qint64(5'000);
        QTest::newRow("12 significant digits")
            << QByteArray("000999999999999") << qint64(999'999'999'999'000);
    }
    void retryAfterLeadingZerosAreSeconds() {
        QFETCH(QByteArray, value);
        QFETCH(qint64, expectedMs);
        const QDateTime now(QDate(2121, 12, 17), QTime(9, 40, 13, 962), QTimeZone::utc());
        const auto parsed = parseRetryAfter(value, now);
        QVERIFY(parsed.has_value());
        QCOMPARE(*parsed, expectedMs);
    }
    void retryAfterBeyondTwelveSignificantDigitsIsStillHuge() {
        const auto parsed = parseRetryAfter("0001000000000000", QDateTime::currentDateTimeUtc());
        QVERIFY(parsed.has_value());
        QVERIFY(*parsed >= 1'000'000'000'000'000);
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzzregressions.moc"
