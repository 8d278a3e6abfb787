// The result CSV: RFC 4180 quoting, formula neutralization, columns, write errors.
#include "output/csvwriter.h"

#include <QFile>
#include <QTest>
#include <QTimeZone>

using namespace crawl;

class TestCsvWriter : public QObject {
    Q_OBJECT
private Q_SLOTS:
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
        QVERIFY2(row.endsWith("2026-11-29T08:01:02.345Z,,,,\r\n"),
                 row.toPercentEncoding().constData()); // no verdict
        QCOMPARE(resultCsvHeader(),
                 QByteArray("url,final_url,host,status,outcome,attempts,redirects,bytes,"
                            "content_type,latency_ms,ttfb_ms,error,started_at,finished_at,warning,"
                            "accepted,reject_reason,title\r\n"));
    }

    // The acceptance columns come last, in the issue's order; the title is server text and is neutralized.
    void acceptanceColumnsAreLastAndFormulaSafe() {
        CrawlResult r;
        r.url = QStringLiteral("http://a.test/");
        r.outcome = Outcome::Ok;
        r.status = 200;
        r.accepted = CrawlResult::Accepted::No;
        r.rejectReason = QStringLiteral("soft 404: title \"Not found, sorry\"");
        r.title = QStringLiteral("=HYPERLINK(\"http://evil.test\")");
        const QByteArray row = resultCsvRow(r);
        QVERIFY2(row.endsWith(",no,\"soft 404: title \"\"Not found, "
                              "sorry\"\"\",\"'=HYPERLINK(\"\"http://evil.test\"\")\"\r\n"),
                 row.constData());
        r.accepted = CrawlResult::Accepted::Yes;
        r.rejectReason.clear();
        r.title = QStringLiteral("Home");
        QVERIFY2(resultCsvRow(r).endsWith(",yes,,Home\r\n"), resultCsvRow(r).constData());
    }

    void rowRedactsUrlPasswords() {
        CrawlResult r;
        r.url = QStringLiteral("http://user:secret@a.test/");
        r.finalUrl = QStringLiteral("http://user:secret@b.test/next");
        r.error = QStringLiteral("redirect to http://other:pw@c.test/ refused");
        const QByteArray row = resultCsvRow(r);
        QVERIFY2(!row.contains("secret") && !row.contains(":pw@"), row.constData());
        QVERIFY(row.startsWith("http://user:***@a.test/,http://user:***@b.test/next,"));
        QVERIFY(row.contains("http://other:***@c.test/"));
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
};

QTEST_GUILESS_MAIN(TestCsvWriter)
#include "tst_csvwriter.moc"
