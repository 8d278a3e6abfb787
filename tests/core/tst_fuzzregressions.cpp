// Inputs the fuzzers in fuzz/ found, kept as ordinary unit tests so the fix cannot quietly regress in
// a build without the fuzzers.
#include "input/urlnormalizer.h"
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

    // fuzz_urlnormalizer: Qt decodes an IPv6 zone ID byte-wise, so a zone with percent-encoded or
    // non-ASCII bytes became another host ("%25a%2Fb" -> "a/b") and the canonical text changed each
    // time it was normalized again. Such zones are refused; interface names still work.
    void ipv6ZoneIdsOtherThanInterfaceNamesAreRefused_data() {
        QTest::addColumn<QString>("line");
        QTest::newRow("fuzzer input") << QString::fromUtf8("http://[::%2\xef\xbf\xbd"
                                                           "1]:81");
        QTest::newRow("encoded non-ASCII") << QStringLiteral("http://[::%252%EF%BF%BD1]:81/");
        QTest::newRow("encoded slash") << QStringLiteral("http://[fe80::1%25a%2Fb]/");
        QTest::newRow("encoded e-acute") << QStringLiteral("http://[fe80::1%25%C3%A9]/");
    }
    void ipv6ZoneIdsOtherThanInterfaceNamesAreRefused() {
        QFETCH(QString, line);
        const NormalizedUrl n = normalizeUrl(line);
        QVERIFY2(!n.ok(), qPrintable(n.text));
        QCOMPARE(n.error, QStringLiteral("unsupported IPv6 zone identifier"));
    }
    void ipv6InterfaceZoneIsKeptAndStable() {
        const NormalizedUrl n = normalizeUrl(QStringLiteral("http://[fe80::1%25eth0]:8080/x"));
        QVERIFY2(n.ok(), qPrintable(n.error));
        QCOMPARE(n.text, QStringLiteral("http://[fe80::1%25eth0]:8080/x"));
        QCOMPARE(n.hostKey, QStringLiteral("[fe80::1%25eth0]:8080"));
        QCOMPARE(normalizeUrl(n.text).text, n.text);
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzzregressions.moc"
