// robots.txt, scope and acceptance flags (issue 13) through the real crawlscope executable against the
// loopback test site: robots.txt obeyed by default, the new CSV columns filled, excluded lines never
// requested, the JSON summary's raw vs accepted counts, and hostile flags refused with exit code 2.
#include "clitestsupport.h"
#include "loopbacksite.h"
#include "testsite.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using testsite::RequestRecord;
using testsite::RobotsTxt;

using namespace clitest;

namespace {

// quickFlags() without its "--robots ignore": these tests are about the default.
QStringList flagsObeyingRobots() {
    QStringList flags = quickFlags();
    const qsizetype at = flags.indexOf(QStringLiteral("--robots"));
    if (at >= 0)
        flags.remove(at, 2);
    return flags;
}

int countTarget(const QList<RequestRecord> &records, const QString &target) {
    return int(std::count_if(records.cbegin(), records.cend(),
                             [&](const RequestRecord &r) { return r.target == target; }));
}

} // namespace

class TestCliQuality : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(QStringLiteral(CRAWLSCOPE_BINARY)), CRAWLSCOPE_BINARY); }

    void robotsObeyedByDefaultAndAcceptanceColumnsWritten() {
        MAKE_SITE(site, 1);
        QVERIFY(site->server.setRobotsTxt(site->hosts[0], RobotsTxt::text("User-agent: *\n"
                                                                          "Disallow: /private\n")));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString page = site->url(0, QStringLiteral("/page"));
        const QString blocked = site->url(0, QStringLiteral("/private/1"));
        const QString soft404 = site->url(0, QStringLiteral("/gone?soft404=1"));
        const QString notFound = site->url(0, QStringLiteral("/missing?status=404"));
        const QString formula = site->url(0, QStringLiteral("/f?title=%3DSUM(A1)"));
        const QString input = dir.filePath(QStringLiteral("list.txt"));
        const QString output = dir.filePath(QStringLiteral("out.csv"));
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        QVERIFY(
            writeFile(input, (QStringList{page, blocked, soft404, notFound, formula}.join(QLatin1Char('\n')) +
                              QLatin1Char('\n'))
                                 .toUtf8()));

        const Run run = runCli(flagsObeyingRobots() + QStringList{QStringLiteral("--input"), input,
                                                                  QStringLiteral("--output"), output,
                                                                  QStringLiteral("--summary-json"), summary});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        const QByteArray csv = readFile(output);
        PARSE_RESULT_CSV(csv, rows);
        QCOMPARE(rows.size(), 5);

        const QStringList *blockedRow = rowFor(rows, blocked);
        QVERIFY(blockedRow);
        QCOMPARE(blockedRow->at(OutcomeCol), QStringLiteral("blocked_robots"));
        QCOMPARE(blockedRow->at(Error), QStringLiteral("Disallow: /private (robots.txt line 2)"));
        QCOMPARE(blockedRow->at(Accepted), QString()); // nothing fetched, nothing to accept

        const QStringList *pageRow = rowFor(rows, page);
        QCOMPARE(pageRow->at(OutcomeCol), QStringLiteral("ok"));
        QCOMPARE(pageRow->at(Accepted), QStringLiteral("yes"));
        QCOMPARE(pageRow->at(RejectReason), QString());
        QCOMPARE(pageRow->at(Title), QStringLiteral("Crawlscope test page /page"));

        const QStringList *softRow = rowFor(rows, soft404);
        QCOMPARE(softRow->at(OutcomeCol), QStringLiteral("ok"));
        QCOMPARE(softRow->at(Accepted), QStringLiteral("yes")); // reported only, by default
        QVERIFY2(softRow->at(RejectReason).contains(QLatin1String("soft 404")),
                 qPrintable(softRow->at(RejectReason)));
        QCOMPARE(softRow->at(Title), QStringLiteral("Page not found"));

        const QStringList *missingRow = rowFor(rows, notFound);
        QCOMPARE(missingRow->at(Accepted), QStringLiteral("no"));
        QCOMPARE(missingRow->at(RejectReason), QStringLiteral("status 404 not in 200-299"));

        // A title is server text: it reaches the spreadsheet neutralized.
        QCOMPARE(rowFor(rows, formula)->at(Title), QStringLiteral("'=SUM(A1)"));

        // The server saw robots.txt once and never the disallowed path.
        const QList<RequestRecord> seen = site->requests(0);
        QCOMPARE(countTarget(seen, QStringLiteral("/robots.txt")), 1);
        QCOMPARE(countTarget(seen, QStringLiteral("/private/1")), 0);
        QCOMPARE(seen.size(), 5);

        QJsonParseError jsonError;
        const QJsonObject json = QJsonDocument::fromJson(readFile(summary), &jsonError).object();
        QVERIFY2(jsonError.error == QJsonParseError::NoError, qPrintable(jsonError.errorString()));
        QCOMPARE(json.value(QStringLiteral("responses")).toInt(), 5); // robots.txt included: a raw response
        QCOMPARE(json.value(QStringLiteral("ok")).toInt(), 3);
        QCOMPARE(json.value(QStringLiteral("accepted")).toInt(), 3);
        QCOMPARE(json.value(QStringLiteral("rejected")).toInt(), 1);
        QCOMPARE(
            json.value(QStringLiteral("outcomes")).toObject().value(QStringLiteral("blocked_robots")).toInt(),
            1);
    }

    void acceptanceFlagsRejectAndScopeFlagsExclude() {
        MAKE_SITE(site, 2);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString page = site->url(0, QStringLiteral("/page"));
        const QString soft404 = site->url(0, QStringLiteral("/gone?soft404=1"));
        const QString json = site->url(0, QStringLiteral("/data?type=application/json&size=300"));
        const QString excluded = site->url(0, QStringLiteral("/archive/1"));
        const QString otherHost = site->url(1, QStringLiteral("/x"));
        const QString input = dir.filePath(QStringLiteral("list.txt"));
        const QString output = dir.filePath(QStringLiteral("out.csv"));
        const QString hosts = dir.filePath(QStringLiteral("hosts.txt"));
        QVERIFY(writeFile(
            input, (QStringList{page, soft404, json, excluded, otherHost}.join(QLatin1Char('\n'))).toUtf8()));
        QVERIFY(writeFile(hosts, "# the only host we may crawl\n" + site->hosts[0].toUtf8() + "\n"));

        const Run run = runCli(
            quickFlags() + QStringList{QStringLiteral("--input"), input, QStringLiteral("--output"), output,
                                       QStringLiteral("--exclude"), QStringLiteral("/archive/"),
                                       QStringLiteral("--allow-hosts"), hosts, QStringLiteral("--soft-404"),
                                       QStringLiteral("reject"), QStringLiteral("--expect-type"),
                                       QStringLiteral("text/html"), QStringLiteral("--expect-title")});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        const QByteArray csv = readFile(output);
        PARSE_RESULT_CSV(csv, rows);
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rowFor(rows, page)->at(Accepted), QStringLiteral("yes"));
        QCOMPARE(rowFor(rows, soft404)->at(Accepted), QStringLiteral("no"));
        QCOMPARE(rowFor(rows, soft404)->at(RejectReason),
                 QStringLiteral("soft 404: title \"Page not found\""));
        QCOMPARE(rowFor(rows, json)->at(Accepted), QStringLiteral("no"));
        QVERIFY2(rowFor(rows, json)->at(RejectReason).contains(QLatin1String("content type")),
                 qPrintable(rowFor(rows, json)->at(RejectReason)));
        QCOMPARE(rowFor(rows, excluded)->at(OutcomeCol), QStringLiteral("excluded"));
        QCOMPARE(rowFor(rows, excluded)->at(Error), QStringLiteral("out of scope: --exclude \"/archive/\""));
        QCOMPARE(rowFor(rows, otherHost)->at(OutcomeCol), QStringLiteral("excluded"));
        QVERIFY2(rowFor(rows, otherHost)->at(Error).contains(QLatin1String("--allow-hosts")),
                 qPrintable(rowFor(rows, otherHost)->at(Error)));
        QCOMPARE(site->requests(1).size(), 0);
        QCOMPARE(countTarget(site->requests(0), QStringLiteral("/archive/1")), 0);
    }

    void hostileFlagsAreRefused_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("bad include regex")
            << QStringList{QStringLiteral("--include"), QStringLiteral("(")} << QStringLiteral("--include");
        QTest::newRow("bad exclude regex")
            << QStringList{QStringLiteral("--exclude"), QStringLiteral("a[")} << QStringLiteral("--exclude");
        QTest::newRow("unreadable allow-hosts")
            << QStringList{QStringLiteral("--allow-hosts"), QStringLiteral("/nonexistent/hosts.txt")}
            << QStringLiteral("--allow-hosts");
        QTest::newRow("robots mode") << QStringList{QStringLiteral("--robots"), QStringLiteral("sometimes")}
                                     << QStringLiteral("--robots");
        QTest::newRow("robots agent")
            << QStringList{QStringLiteral("--robots-agent"), QStringLiteral("bad agent/1")}
            << QStringLiteral("--robots-agent");
        QTest::newRow("status list") << QStringList{QStringLiteral("--expect-status"), QStringLiteral("2x0")}
                                     << QStringLiteral("--expect-status");
        QTest::newRow("expect regex") << QStringList{QStringLiteral("--expect-regex"), QStringLiteral("*x")}
                                      << QStringLiteral("--expect-regex");
        QTest::newRow("soft-404 mode") << QStringList{QStringLiteral("--soft-404"), QStringLiteral("maybe")}
                                       << QStringLiteral("--soft-404");
        QTest::newRow("min-bytes") << QStringList{QStringLiteral("--min-bytes"), QStringLiteral("-1")}
                                   << QStringLiteral("--min-bytes");
    }
    void hostileFlagsAreRefused() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("list.txt"));
        const QString output = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(writeFile(input, site->url(0, QStringLiteral("/a")).toUtf8() + '\n'));
        const Run run = runCli(
            quickFlags() + QStringList{QStringLiteral("--input"), input, QStringLiteral("--output"), output} +
            arguments);
        QVERIFY(run.finished);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(mentions.toUtf8()), run.err.constData());
        QVERIFY(!QFile::exists(output));           // refused before any output was touched
        QCOMPARE(site->server.totalRequests(), 0); // and before any request
    }
};

QTEST_GUILESS_MAIN(TestCliQuality)
#include "tst_cli_quality.moc"
