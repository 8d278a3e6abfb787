// Odd inputs to the command line, as a real process: a crawl that fetched nothing (only invalid lines)
// prints no made-up latency in its summary.
#include "clitestsupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace clitest;

class TestCliHostile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Nothing fetched: the latency percentiles do not exist, and "-1 ms" would read as a measurement.
    void summaryOfNothingFetchedHasNoLatency() {
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("invalid.txt"));
        QVERIFY(writeFile(list, "ftp://example.invalid/\nnot a url\n"));
        const Run run =
            runCli({QStringLiteral("--headless"), QStringLiteral("--quiet"), QStringLiteral("--input"), list,
                    QStringLiteral("--output"), dir.filePath(QStringLiteral("out.csv"))});
        QVERIFY(run.finished);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("invalid_url 2") && run.err.contains("no latency (nothing was fetched)") &&
                     !run.err.contains("-1 ms"),
                 run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliHostile)
#include "tst_cli_hostile.moc"
