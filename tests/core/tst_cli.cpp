// Runs the real crawlscope executable (headless) against a TestSite on loopback: exit codes, the CSV
// contract, input forms, the JSON summary, formula neutralization and a clean SIGINT.
#include "clitestsupport.h"
#include "loopbacksite.h"
#include "testsite.h"

#include <QFile>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <memory>
#include <signal.h>

using testsite::RequestRecord;
using testsite::TestSite;

using namespace clitest;

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(QStringLiteral(CRAWLSCOPE_BINARY)), CRAWLSCOPE_BINARY); }

    void completedCrawlExitsZeroWithCsvAndSummary() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList ok{site->url(0, QStringLiteral("/a")), site->url(0, QStringLiteral("/b?ms=50")),
                             site->url(0, QStringLiteral("/c?size=3000"))};
        const QString notFound = site->url(0, QStringLiteral("/missing?status=404"));
        QByteArray list = "# seeds\n\n";
        for (const QString &u : ok)
            list += u.toUtf8() + '\n';
        list += notFound.toUtf8() + "\n";
        list += "not a url\n";                    // line 7
        list += ok.first().toUtf8() + "#again\n"; // a duplicate after normalization
        const QString input = dir.filePath(QStringLiteral("list.txt"));
        const QString output = dir.filePath(QStringLiteral("out.csv"));
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        QVERIFY(writeFile(input, list));

        const Run run =
            runCli(quickFlags() + QStringList{QStringLiteral("--input"), input, QStringLiteral("--output"),
                                              output, QStringLiteral("--summary-json"), summary});
        QVERIFY2(run.finished, run.err.constData());
        QCOMPARE(run.exitStatus, QProcess::NormalExit);
        QVERIFY2(run.exitCode == 0, run.err.constData());

        const QByteArray csv = readFile(output);
        PARSE_RESULT_CSV(csv, rows);
        QCOMPARE(rows.size(), 5); // 4 distinct valid URLs + 1 bad line; the duplicate counted, not repeated
        for (const QString &u : ok) {
            const QStringList *row = rowFor(rows, u);
            QVERIFY2(row, qPrintable(u));
            QCOMPARE(row->at(OutcomeCol), QStringLiteral("ok"));
            QCOMPARE(row->at(Status), QStringLiteral("200"));
            QCOMPARE(row->at(Host), site->hosts[0]);
        }
        QCOMPARE(rowFor(rows, QStringLiteral("/c?size=3000").prepend(site->server.baseUrl(site->hosts[0])))
                     ->at(Bytes),
                 QStringLiteral("3000"));
        const QStringList *missing = rowFor(rows, notFound);
        QVERIFY(missing);
        QCOMPARE(missing->at(OutcomeCol), QStringLiteral("http_error"));
        QCOMPARE(missing->at(Status), QStringLiteral("404"));
        const QStringList *bad = rowFor(rows, QStringLiteral("not a url"));
        QVERIFY(bad);
        QCOMPARE(bad->at(OutcomeCol), QStringLiteral("invalid_url"));
        QVERIFY2(bad->at(Error).contains(QStringLiteral("line 7")), qPrintable(bad->at(Error)));
        QCOMPARE(site->server.totalRequests(), qint64(4));

        QJsonParseError jsonError;
        const QJsonObject json = QJsonDocument::fromJson(readFile(summary), &jsonError).object();
        QVERIFY2(jsonError.error == QJsonParseError::NoError, qPrintable(jsonError.errorString()));
        QCOMPARE(json.value(QStringLiteral("done")).toInt(), 5);
        QCOMPARE(json.value(QStringLiteral("ok")).toInt(), 3);
        QCOMPARE(json.value(QStringLiteral("invalid")).toInt(), 1);
        QCOMPARE(json.value(QStringLiteral("duplicates")).toInt(), 1);
        QCOMPARE(json.value(QStringLiteral("stopped_by_user")).toBool(), false);
        QCOMPARE(
            json.value(QStringLiteral("outcomes")).toObject().value(QStringLiteral("http_error")).toInt(), 1);
    }

    void badFlagExitsTwoNamingIt_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("named");
        QTest::newRow("not a number") << QStringList{QStringLiteral("--per-host"), QStringLiteral("abc")}
                                      << QStringLiteral("--per-host");
        QTest::newRow("unknown flag")
            << QStringList{QStringLiteral("--frobnicate")} << QStringLiteral("frobnicate");
        QTest::newRow("bad host limit")
            << QStringList{QStringLiteral("--host-limit"), QStringLiteral("nonsense")}
            << QStringLiteral("--host-limit");
        QTest::newRow("bad header") << QStringList{QStringLiteral("--header"), QStringLiteral("no colon")}
                                    << QStringLiteral("--header");
    }
    void badFlagExitsTwoNamingIt() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, named);
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(input, "http://127.0.0.1:1/\n"));
        const Run run =
            runCli(QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), input} + arguments);
        QVERIFY(run.finished);
        QCOMPARE(run.exitStatus, QProcess::NormalExit);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(QString::fromUtf8(run.err).contains(named), run.err.constData());
        QVERIFY2(run.out.isEmpty(), run.out.constData()); // no crawl, no CSV
    }

    void unreadableInputExitsTwo() {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no-such-list.txt"));
        const Run run = runCli(quickFlags() + QStringList{QStringLiteral("--input"), missing});
        QVERIFY(run.finished);
        QCOMPARE(run.exitStatus, QProcess::NormalExit);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(QString::fromUtf8(run.err).contains(QStringLiteral("no-such-list.txt")),
                 run.err.constData());
    }

    void stdinInputToStdout() {
        MAKE_SITE(site, 1);
        QStringList urls;
        QByteArray list;
        for (int i = 0; i < 5; ++i) {
            urls << site->url(0, QStringLiteral("/in%1").arg(i));
            list += urls.last().toUtf8() + "\r\n";
        }
        const Run run = runCli(quickFlags() + QStringList{QStringLiteral("--input"), QStringLiteral("-"),
                                                          QStringLiteral("--output"), QStringLiteral("-")},
                               list);
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        PARSE_RESULT_CSV(run.out, rows);
        QCOMPARE(rows.size(), 5);
        for (const QString &u : std::as_const(urls)) {
            const QStringList *row = rowFor(rows, u);
            QVERIFY2(row, qPrintable(u));
            QCOMPARE(row->at(OutcomeCol), QStringLiteral("ok"));
        }
        QCOMPARE(site->server.totalRequests(), qint64(5));
    }

    void csvInputUsesUrlColumn() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("list.csv"));
        QByteArray csv = "\xEF\xBB\xBFname,URL,note\r\n";
        QStringList urls;
        for (int i = 0; i < 4; ++i) {
            urls << site->url(0, QStringLiteral("/col%1").arg(i));
            csv += "page " + QByteArray::number(i) + ',' + urls.last().toUtf8() + ",\"a, quoted note\"\r\n";
        }
        QVERIFY(writeFile(input, csv));
        const Run run = runCli(quickFlags() + QStringList{QStringLiteral("--input"), input,
                                                          QStringLiteral("--output"), QStringLiteral("-")});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        PARSE_RESULT_CSV(run.out, rows);
        QCOMPARE(rows.size(), 4);
        for (const QString &u : std::as_const(urls)) {
            const QStringList *row = rowFor(rows, u);
            QVERIFY2(row, qPrintable(u + QLatin1Char('\n') + QString::fromUtf8(run.out)));
            QCOMPARE(row->at(OutcomeCol), QStringLiteral("ok"));
        }
        QCOMPARE(site->server.totalRequests(), qint64(4));
    }

    void serverControlledCellsAreNeutralized() {
        MAKE_SITE(site, 1);
        const QString formula = QStringLiteral("=HYPERLINK(\"http://evil.invalid\",\"x\")");
        const QString url = site->url(0, QStringLiteral("/typed?type=") +
                                             QString::fromLatin1(QUrl::toPercentEncoding(formula)));
        const QString plusType =
            site->url(0, QStringLiteral("/plus?type=") +
                             QString::fromLatin1(QUrl::toPercentEncoding(QStringLiteral("+1"))));
        const Run run = runCli(quickFlags() + QStringList{QStringLiteral("--input"), QStringLiteral("-"),
                                                          QStringLiteral("--output"), QStringLiteral("-")},
                               url.toUtf8() + '\n' + plusType.toUtf8() + '\n');
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        PARSE_RESULT_CSV(run.out, rows);
        QCOMPARE(rows.size(), 2);
        const QStringList *row = rowFor(rows, url);
        QVERIFY(row);
        // The server's Content-Type reaches the cell, but never as something a spreadsheet would run.
        QCOMPARE(row->at(ContentType), QLatin1Char('\'') + formula);
        const QStringList *plus = rowFor(rows, plusType);
        QVERIFY(plus);
        QCOMPARE(plus->at(ContentType), QStringLiteral("'+1"));
        for (const QStringList &r : std::as_const(rows)) {
            for (const QString &cell : r) {
                QVERIFY2(cell.isEmpty() || !QStringLiteral("=+-@\t\r").contains(cell.at(0)),
                         qPrintable(cell));
            }
        }
    }

    void sigintLeavesCompleteCsv() {
        MAKE_SITE(site, 2);
        QStringList hangs;
        QStringList slow;
        QByteArray list;
        for (int i = 0; i < 4; ++i) {
            hangs << site->url(0, QStringLiteral("/hang%1?hang=1").arg(i));
            list += hangs.last().toUtf8() + '\n';
        }
        for (int i = 0; i < 20; ++i) {
            slow << site->url(1, QStringLiteral("/slow%1?ms=300").arg(i));
            list += slow.last().toUtf8() + '\n';
        }
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(input, list));

        QProcess process;
        QByteArray out;
        QByteArray err;
        connect(&process, &QProcess::readyReadStandardOutput, this,
                [&] { out += process.readAllStandardOutput(); });
        connect(&process, &QProcess::readyReadStandardError, this,
                [&] { err += process.readAllStandardError(); });
        process.start(QStringLiteral(CRAWLSCOPE_BINARY),
                      QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), input,
                                  QStringLiteral("--output"), QStringLiteral("-"),
                                  QStringLiteral("--per-host"), QStringLiteral("2"),
                                  QStringLiteral("--interval-ms"), QStringLiteral("0"),
                                  QStringLiteral("--timeout"), QStringLiteral("30"),
                                  QStringLiteral("--idle-timeout"), QStringLiteral("30")});
        QVERIFY(process.waitForStarted(10'000));
        process.closeWriteChannel();
        // Mid-crawl: some slow rows written, a progress line on stderr, the hangs held by the server.
        QVERIFY2(QTest::qWaitFor([&] { return out.count('\n') >= 3 && err.contains("in-flight"); }, 15'000),
                 err.constData());
        QCOMPARE(site->server.hostRecord(site->hosts[0]).inFlight, 2);
        QCOMPARE(process.state(), QProcess::Running);
        QCOMPARE(::kill(pid_t(process.processId()), SIGINT), 0);
        QVERIFY(process.waitForFinished(10'000));
        out += process.readAllStandardOutput();
        err += process.readAllStandardError();

        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 130, err.constData());
        QVERIFY(err.contains("interrupted"));
        PARSE_RESULT_CSV(out, rows);
        QCOMPARE(rows.size(), hangs.size() + slow.size());
        for (const QString &u : std::as_const(hangs)) {
            const QStringList *row = rowFor(rows, u);
            QVERIFY2(row, qPrintable(u));
            QCOMPARE(row->at(OutcomeCol), QStringLiteral("cancelled"));
            QVERIFY(!row->at(Error).isEmpty());
        }
        int ok = 0;
        int cancelled = 0;
        for (const QString &u : std::as_const(slow)) {
            const QStringList *row = rowFor(rows, u);
            QVERIFY2(row, qPrintable(u));
            if (row->at(OutcomeCol) == QLatin1String("ok"))
                ++ok;
            else if (row->at(OutcomeCol) == QLatin1String("cancelled"))
                ++cancelled;
        }
        QCOMPARE(ok + cancelled, int(slow.size()));
        QVERIFY(ok >= 2);
        QVERIFY(cancelled >= 1);
        const QList<RequestRecord> onSlow = site->server.requests(site->hosts[1]);
        const auto answered = std::count_if(onSlow.cbegin(), onSlow.cend(), [](const RequestRecord &r) {
            // robots.txt (obeyed by default) is answered too, but is no row
            return r.status == 200 && r.target != QLatin1String("/robots.txt");
        });
        QCOMPARE(qsizetype(ok), qsizetype(answered));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
