// The circuit breaker through the real crawlscope executable: its flags, the stderr lines on a trip and a
// give-up, `skipped` rows in the CSV and the counts in the summary JSON, against a dead test-site host.
#include "clitestsupport.h"
#include "loopbacksite.h"
#include "testsite.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace clitest;

class TestCliBreaker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(QStringLiteral(CRAWLSCOPE_BINARY)), CRAWLSCOPE_BINARY); }

    void deadHostTripsIsGivenUpAndEveryRowIsWritten() {
        MAKE_SITE(site, 2);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QByteArray list;
        for (int i = 0; i < 20; ++i)
            list += site->url(0, QStringLiteral("/dead%1?status=503\n").arg(i)).toUtf8();
        for (int i = 0; i < 10; ++i)
            list += site->url(1, QStringLiteral("/ok%1\n").arg(i)).toUtf8();
        const QString input = dir.filePath(QStringLiteral("list.txt"));
        const QString output = dir.filePath(QStringLiteral("out.csv"));
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        QVERIFY(writeFile(input, list));

        const Run run = runCli(
            quickFlags() + QStringList{QStringLiteral("--input"), input, QStringLiteral("--output"), output,
                                       QStringLiteral("--summary-json"), summary, QStringLiteral("--quiet"),
                                       QStringLiteral("--breaker-window"), QStringLiteral("5"),
                                       QStringLiteral("--breaker-threshold"), QStringLiteral("0.8"),
                                       QStringLiteral("--breaker-cooldown"), QStringLiteral("1"),
                                       QStringLiteral("--breaker-give-up"), QStringLiteral("1")});
        QVERIFY2(run.finished, run.err.constData());
        QCOMPARE(run.exitStatus, QProcess::NormalExit);
        QVERIFY2(run.exitCode == 0, run.err.constData());

        // The events on stderr, even with --quiet.
        const QString err = QString::fromUtf8(run.err);
        const QString dead = site->hosts[0];
        QVERIFY2(err.contains(
                     QStringLiteral("host %1 tripped: 5 of the last 5 attempts failed: server errors (5xx); "
                                    "probe at ")
                         .arg(dead)),
                 run.err.constData());
        QVERIFY2(err.contains(QStringLiteral("host %1 given up: ").arg(dead)), run.err.constData());

        // Every line has its row; the dead host's unstarted URLs as skipped, saying why.
        PARSE_RESULT_CSV(readFile(output), rows);
        QCOMPARE(rows.size(), 30);
        int skipped = 0;
        for (const QStringList &row : std::as_const(rows)) {
            if (row.at(Host) == dead) {
                QVERIFY2(row.at(OutcomeCol) == QLatin1String("skipped") ||
                             row.at(OutcomeCol) == QLatin1String("http_error"),
                         qPrintable(row.join(QLatin1Char('|'))));
                if (row.at(OutcomeCol) == QLatin1String("skipped")) {
                    ++skipped;
                    QVERIFY2(row.at(Error).contains(QStringLiteral("circuit breaker")),
                             qPrintable(row.at(Error)));
                }
            } else {
                QCOMPARE(row.at(OutcomeCol), QStringLiteral("ok"));
            }
        }
        // Tripped after 5 answers (at most 4 more were in flight), then given up before any probe.
        const qint64 deadRequests = site->server.hostRecord(dead).requests;
        QVERIFY2(deadRequests >= 5 && deadRequests <= 9, qPrintable(QString::number(deadRequests)));
        QCOMPARE(skipped, 20 - int(deadRequests));

        const QJsonObject json = QJsonDocument::fromJson(readFile(summary)).object();
        const QJsonObject breaker = json.value(QStringLiteral("breaker")).toObject();
        QCOMPARE(breaker.value(QStringLiteral("trips")).toInt(), 1);
        QCOMPARE(breaker.value(QStringLiteral("hosts_given_up")).toInt(), 1);
        QCOMPARE(breaker.value(QStringLiteral("recoveries")).toInt(), 0);
        QCOMPARE(json.value(QStringLiteral("outcomes")).toObject().value(QStringLiteral("skipped")).toInt(),
                 skipped);
    }

    void noBreakerTriesEveryUrl() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QByteArray list;
        for (int i = 0; i < 12; ++i)
            list += site->url(0, QStringLiteral("/dead%1?status=503\n").arg(i)).toUtf8();
        const QString input = dir.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(input, list));
        const Run run =
            runCli(quickFlags() + QStringList{QStringLiteral("--input"), input, QStringLiteral("--quiet"),
                                              QStringLiteral("--breaker-window"), QStringLiteral("3"),
                                              QStringLiteral("--no-breaker")});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        QVERIFY2(!run.err.contains("tripped"), run.err.constData());
        PARSE_RESULT_CSV(run.out, rows);
        QCOMPARE(rows.size(), 12);
        QCOMPARE(site->server.hostRecord(site->hosts[0]).requests, qint64(12));
    }
};

QTEST_GUILESS_MAIN(TestCliBreaker)
#include "tst_cli_breaker.moc"
