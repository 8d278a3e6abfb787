// URL normalization: canonical form, host keys, and the reasons a line is not a crawlable URL.
#include "input/urlnormalizer.h"

#include <QTest>

using namespace crawl;

class TestUrlNormalizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void normalize_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("canonical");
        QTest::addColumn<QString>("hostKey");
        QTest::newRow("lowercases scheme and host") << "HTTP://Example.COM/Path"
                                                    << "http://example.com/Path"
                                                    << "example.com:80";
        QTest::newRow("drops default port and fragment") << "  https://a.b:443/x?q=1#frag  "
                                                         << "https://a.b/x?q=1"
                                                         << "a.b:443";
        QTest::newRow("keeps other ports") << "http://127.0.0.2:8080"
                                           << "http://127.0.0.2:8080/"
                                           << "127.0.0.2:8080";
        QTest::newRow("ipv6") << "http://[::1]:81/a"
                              << "http://[::1]:81/a"
                              << "[::1]:81";
    }

    void normalize() {
        QFETCH(QString, input);
        QFETCH(QString, canonical);
        QFETCH(QString, hostKey);
        const NormalizedUrl n = normalizeUrl(input);
        QVERIFY2(n.ok(), qPrintable(n.error));
        QCOMPARE(n.text, canonical);
        QCOMPARE(n.hostKey, hostKey);
    }

    void rejectsBadLines_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no scheme") << "example.com/page"
                                   << "no scheme";
        QTest::newRow("ftp") << "ftp://example.com/file"
                             << "unsupported scheme";
        QTest::newRow("mailto-like") << "mailto:someone@example.com"
                                     << "no scheme";
        QTest::newRow("no host") << "http:///path"
                                 << "no host";
        QTest::newRow("empty host with port") << "http://:80/x"
                                              << "no host";
        QTest::newRow("port too big") << "http://example.com:99999/"
                                      << "port";
        QTest::newRow("port not a number") << "http://example.com:abc/"
                                           << "port";
        QTest::newRow("spaces") << "not a url"
                                << "whitespace";
    }

    void rejectsBadLines() {
        QFETCH(QString, input);
        QFETCH(QString, reason);
        const NormalizedUrl n = normalizeUrl(input);
        QVERIFY(!n.ok());
        QVERIFY2(n.error.contains(reason), qPrintable(n.error));
    }

    void invalidUrlReasonDoesNotQuoteThePassword() {
        // QUrl's own message repeats the source and its userinfo; the reason must not.
        const NormalizedUrl n = normalizeUrl(QStringLiteral("http://user:s3cret@exa^mple.com/"));
        QVERIFY(!n.ok());
        QVERIFY2(!n.error.contains(QLatin1String("s3cret")), qPrintable(n.error));
        QVERIFY2(n.error.startsWith(QLatin1String("not a valid URL")), qPrintable(n.error));
    }

    void keepsTheCredentialsForTheServer() {
        const NormalizedUrl n = normalizeUrl(QStringLiteral("http://user:secret@host.test/"));
        QVERIFY2(n.ok(), qPrintable(n.error));
        QCOMPARE(n.url.password(), QStringLiteral("secret"));
        QCOMPARE(n.hostKey, QStringLiteral("host.test:80"));
    }
};

QTEST_GUILESS_MAIN(TestUrlNormalizer)
#include "tst_urlnormalizer.moc"
