// Unit tests of the engine's pure parts: URL normalization, list reading, Retry-After, backoff,
// latency percentiles, CSV output and the command line.
#include "cli/commandline.h"
#include "input/urllistreader.h"
#include "input/urlnormalizer.h"
#include "output/csvwriter.h"
#include "policy/retryafter.h"
#include "policy/retrypolicy.h"
#include "stats/latencyhistogram.h"

#include <QBuffer>
#include <QTest>
#include <QTimeZone>

using namespace crawl;

namespace {
QList<InputLine> readAll(const QByteArray &text, bool *csv = nullptr) {
    QBuffer buffer;
    buffer.setData(text);
    buffer.open(QIODevice::ReadOnly);
    UrlListReader reader(&buffer);
    QList<InputLine> lines;
    while (auto line = reader.next())
        lines.append(*line);
    if (csv)
        *csv = reader.isCsv();
    return lines;
}
} // namespace

class TestUnits : public QObject {
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

    void readsPlainTextSkippingBlanksAndComments() {
        bool csv = true;
        const auto lines =
            readAll("\xEF\xBB\xBFhttp://a.test/1\n\n# comment\n   \r\nhttp://a.test/2\r\nbad line\n"
                    "http://a.test/3",
                    &csv);
        QVERIFY(!csv);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0].lineNumber, 1);
        QVERIFY(lines[0].normalized.ok()); // the BOM is not part of the URL
        QCOMPARE(lines[1].lineNumber, 5);
        QCOMPARE(lines[2].lineNumber, 6);
        QVERIFY(!lines[2].normalized.ok());
        QCOMPARE(lines[2].raw, QStringLiteral("bad line"));
        QCOMPARE(lines[3].normalized.text, QStringLiteral("http://a.test/3")); // no final newline
    }

    void readsCsvByUrlColumnAnyCase() {
        bool csv = false;
        const auto lines =
            readAll("id,URL,note\n1,http://a.test/x,\"has, comma\"\n2,\"http://a.test/y\",\"multi\nline\"\n"
                    "3,,empty\n4,http://a.test/z,ok\n",
                    &csv);
        QVERIFY(csv);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0].normalized.text, QStringLiteral("http://a.test/x"));
        QCOMPARE(lines[0].lineNumber, 2);
        QCOMPARE(lines[1].normalized.text, QStringLiteral("http://a.test/y"));
        QVERIFY(!lines[2].normalized.ok());
        QCOMPARE(lines[2].lineNumber, 5); // the quoted newline made record 2 two physical lines
        QCOMPARE(lines[3].normalized.text, QStringLiteral("http://a.test/z"));
    }

    void csvWithoutUrlColumnUsesTheFirst() {
        bool csv = false;
        const auto lines = readAll("address,title\nhttp://a.test/1,One\n", &csv);
        QVERIFY(csv);
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0].normalized.text, QStringLiteral("http://a.test/1"));
    }

    void overlongLineIsInvalidNotBuffered() {
        QByteArray text = "http://a.test/1\nhttp://a.test/";
        text.append(QByteArray(200 * 1024, 'x'));
        text.append("\nhttp://a.test/3\n");
        const auto lines = readAll(text);
        QCOMPARE(lines.size(), 3);
        QVERIFY(!lines[1].normalized.ok());
        QVERIFY(lines[1].normalized.error.contains(QLatin1String("longer than")));
        QCOMPARE(lines[1].lineNumber, 2);
        QCOMPARE(lines[2].lineNumber, 3);
    }

    void scanCountsValidDuplicatesInvalid() {
        QBuffer buffer;
        buffer.setData("http://a.test/1\nHTTP://A.TEST:80/1#x\nhttp://a.test/2\nftp://x\nnope\n");
        buffer.open(QIODevice::ReadOnly);
        const UrlListScan scan = scanUrlList(&buffer);
        QCOMPARE(scan.lines, 5);
        QCOMPARE(scan.valid, 2);
        QCOMPARE(scan.duplicates, 1);
        QCOMPARE(scan.invalid, 2);
        QCOMPARE(scan.firstInvalid.size(), 2);
        QCOMPARE(scan.firstInvalid[0].lineNumber, 4);
    }

    void deduplicatorGrowsAndRemembers() {
        UrlDeduplicator seen;
        for (int i = 0; i < 50'000; ++i)
            QVERIFY(seen.insert(QStringLiteral("http://a.test/%1").arg(i)));
        QCOMPARE(seen.size(), 50'000);
        for (int i = 0; i < 50'000; i += 997)
            QVERIFY(!seen.insert(QStringLiteral("http://a.test/%1").arg(i)));
        QVERIFY(seen.insert(QStringLiteral("http://a.test/new")));
        QCOMPARE(seen.size(), 50'001);
    }

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

    void retryableStatuses() {
        for (int status : {408, 429, 500, 502, 503, 504})
            QVERIFY2(isRetryableStatus(status), qPrintable(QString::number(status)));
        for (int status : {200, 301, 400, 401, 403, 404, 410, 501})
            QVERIFY2(!isRetryableStatus(status), qPrintable(QString::number(status)));
    }

    void backoffGrowsJittersAndCaps() {
        QCOMPARE(backoffDelayMs(1, 500, 30'000, 0.0), 250);   // half fixed ...
        QCOMPARE(backoffDelayMs(1, 500, 30'000, 1.0), 500);   // ... half random
        QCOMPARE(backoffDelayMs(3, 500, 30'000, 1.0), 2'000); // base x 2^(3-1)
        QCOMPARE(backoffDelayMs(20, 500, 30'000, 1.0), 30'000);
        QVERIFY(backoffDelayMs(2, 500, 30'000, 0.3) != backoffDelayMs(2, 500, 30'000, 0.7));
    }

    void histogramPercentiles() {
        LatencyHistogram h;
        QCOMPARE(h.percentileMs(0.5), -1);
        for (int ms = 1; ms <= 100; ++ms)
            h.add(qint64(ms) * 1000);
        const auto near = [](int got, int want) { return std::abs(got - want) <= std::max(1, want / 10); };
        QVERIFY2(near(h.percentileMs(0.50), 50), qPrintable(QString::number(h.percentileMs(0.50))));
        QVERIFY2(near(h.percentileMs(0.95), 95), qPrintable(QString::number(h.percentileMs(0.95))));
        QVERIFY2(near(h.percentileMs(0.99), 99), qPrintable(QString::number(h.percentileMs(0.99))));
        LatencyHistogram other;
        for (int i = 0; i < 900; ++i)
            other.add(2'000'000); // 2 s
        h.merge(other);
        QCOMPARE(h.count(), quint64(1000));
        QVERIFY(near(h.percentileMs(0.5), 2000));
    }

    void csvQuotesAndNeutralizesFormulas() {
        QCOMPARE(csvField(QStringLiteral("plain")), QByteArray("plain"));
        QCOMPARE(csvField(QStringLiteral("a,b")), QByteArray("\"a,b\""));
        QCOMPARE(csvField(QStringLiteral("say \"hi\"")), QByteArray("\"say \"\"hi\"\"\""));
        QCOMPARE(csvField(QStringLiteral("two\nlines")), QByteArray("\"two\nlines\""));
        QCOMPARE(csvField(QStringLiteral("=HYPERLINK(\"x\")")), QByteArray("\"'=HYPERLINK(\"\"x\"\")\""));
        QCOMPARE(csvField(QStringLiteral("+1")), QByteArray("'+1"));
        QCOMPARE(csvField(QStringLiteral("-1")), QByteArray("'-1"));
        QCOMPARE(csvField(QStringLiteral("@SUM(A1)")), QByteArray("'@SUM(A1)"));
        QCOMPARE(csvField(QStringLiteral("\tx")), QByteArray("'\tx"));
        QCOMPARE(csvField(QStringLiteral("caf\u00e9")), QByteArray("caf\xc3\xa9"));
    }

    void csvRowHasAllColumns() {
        CrawlResult r;
        r.url = QStringLiteral("http://a.test/");
        r.outcome = Outcome::HttpError;
        r.status = 404;
        r.error = QStringLiteral("HTTP 404 Not Found");
        r.finishedAt = QDateTime(QDate(2026, 11, 29), QTime(8, 1, 2, 345), QTimeZone::utc());
        const QByteArray row = resultCsvRow(r);
        QVERIFY(row.endsWith("\r\n"));
        QCOMPARE(row.count(','), resultCsvColumns().size() - 1);
        QVERIFY(row.contains(",http_error,"));
        QVERIFY(row.endsWith("2026-11-29T08:01:02.345Z,\r\n"));
        QCOMPARE(resultCsvHeader(),
                 QByteArray("url,final_url,host,status,outcome,attempts,redirects,bytes,"
                            "content_type,latency_ms,ttfb_ms,error,started_at,finished_at,warning\r\n"));
    }

    void writerReportsAFullDevice() {
        QFile full(QStringLiteral("/dev/full"));
        if (!full.exists())
            QSKIP("/dev/full is not available");
        QVERIFY(full.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
        ResultCsvWriter writer(&full);
        const bool ok = writer.writeHeader() && writer.flush();
        QVERIFY(!ok);
        QVERIFY2(writer.errorString().contains(QLatin1String("space"), Qt::CaseInsensitive),
                 qPrintable(writer.errorString()));
    }

    void commandLineDefaultsAndFlags() {
        const auto parsed = parseCommandLine(
            {QStringLiteral("crawlscope"), QStringLiteral("--headless"), QStringLiteral("--input"),
             QStringLiteral("list.txt"), QStringLiteral("--per-host"), QStringLiteral("8"),
             QStringLiteral("--host-limit"), QStringLiteral("slow.test=1/2000"),
             QStringLiteral("--host-limit"), QStringLiteral("127.0.0.2:8080=3"), QStringLiteral("--header"),
             QStringLiteral("X-Team: qa"), QStringLiteral("--jitter"), QStringLiteral("0.25")});
        QVERIFY2(parsed.ok, qPrintable(parsed.error));
        const CommandLineOptions &o = parsed.options;
        QCOMPARE(o.mode, CommandLineOptions::Mode::Headless);
        QCOMPARE(o.limits.globalInFlight, 16);
        QCOMPARE(o.limits.perHostInFlight, 8);
        QCOMPARE(o.limits.intervalMs, 500);
        QCOMPARE(o.limits.jitter, 0.25);
        QCOMPARE(o.policy.maxRetries, 3);
        QCOMPARE(o.policy.maxBodyBytes, qint64(10485760));
        QCOMPARE(o.limits.maxInFlightFor(QStringLiteral("slow.test:80")), 1);
        QCOMPARE(o.limits.maxInFlightFor(QStringLiteral("slow.test:443")), 1);
        QCOMPARE(o.limits.intervalMsFor(QStringLiteral("slow.test:443")), 2000);
        QCOMPARE(o.limits.maxInFlightFor(QStringLiteral("127.0.0.2:8080")), 3);
        QCOMPARE(o.limits.intervalMsFor(QStringLiteral("127.0.0.2:8080")), 500); // inherited
        QCOMPARE(o.limits.maxInFlightFor(QStringLiteral("other.test:80")), 8);
        QCOMPARE(o.policy.headers.size(), 1);
        QCOMPARE(o.policy.headers[0].first, QByteArray("X-Team"));
    }

    void commandLineErrorsNameTheFlag_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("not a number")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--per-host"), QStringLiteral("many")}
            << "--per-host";
        QTest::newRow("zero concurrency")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--concurrency"), QStringLiteral("0")}
            << "--concurrency";
        QTest::newRow("jitter above one")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--jitter"), QStringLiteral("2")}
            << "--jitter";
        QTest::newRow("bad host limit")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--host-limit"), QStringLiteral("example.com")}
            << "--host-limit";
        QTest::newRow("bad header") << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"),
                                                   QStringLiteral("x"), QStringLiteral("--header"),
                                                   QStringLiteral("no colon")}
                                    << "--header";
        QTest::newRow("headless without input") << QStringList{QStringLiteral("--headless")} << "--input";
        QTest::newRow("unknown flag") << QStringList{QStringLiteral("--frobnicate")} << "frobnicate";
    }
    void commandLineErrorsNameTheFlag() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        args.prepend(QStringLiteral("crawlscope"));
        const auto parsed = parseCommandLine(args);
        QVERIFY(!parsed.ok);
        QVERIFY2(parsed.error.contains(mentions), qPrintable(parsed.error));
    }

    void helpListsEveryFlagWithItsDefault() {
        const QString help = commandLineHelp();
        for (const char *flag : {"--concurrency N",
                                 "(default 16)",
                                 "--per-host N",
                                 "(default 2)",
                                 "--interval-ms MS",
                                 "(default 500)",
                                 "--max-rate R",
                                 "--host-limit HOST=N[/MS]",
                                 "--retries N",
                                 "--backoff-ms MS",
                                 "--max-retry-after S",
                                 "(default 60)",
                                 "--timeout S",
                                 "(default 30)",
                                 "--connect-timeout S",
                                 "(default 10)",
                                 "--idle-timeout S",
                                 "(default 15)",
                                 "--max-bytes N",
                                 "(default 10485760)",
                                 "--max-redirects N",
                                 "--user-agent TEXT",
                                 "--header",
                                 "--summary-json FILE",
                                 "--output",
                                 "--input"})
            QVERIFY2(help.contains(QLatin1String(flag)), flag);
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
