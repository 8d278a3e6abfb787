// A URL that robots.txt blocks costs its host nothing in a shared crawl, as in a local one (which decides
// robots before it takes a slot): the real coordinator and a worker on a redis-server and the loopback test
// site, asserting the gaps between the starts the *site* saw.
#include "../core/clitestsupport.h"
#include "crawlscopeprocess.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace crawl;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {
constexpr qint64 kMs = 1'000'000;
} // namespace

class TestClusterRobotsPacing : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString clusterUrl() const { return QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()); }

    struct SharedRun {
        QString input;
        QStringList lines;
        QStringList blocked;
        QHash<QString, QStringList> rows;
        QList<RequestRecord> pageStarts; // the allowed URLs' starts the site saw, in order
        QByteArray workerErr;
    };

    // A coordinator and a worker on one host whose list alternates allowed and disallowed URLs; every line
    // has its row, the blocked ones were never requested.
    void runAlternating(TestSite &site, const QString &name, const QStringList &limits, SharedRun *run) {
        const QString host = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!host.isEmpty());
        QVERIFY(site.setRobotsTxt(host, testsite::RobotsTxt::text("User-agent: *\nDisallow: /private\n")));
        for (int i = 0; i < 6; ++i) {
            run->lines << site.baseUrl(host) + QStringLiteral("/page/%1").arg(i);
            run->blocked << site.baseUrl(host) + QStringLiteral("/private/%1").arg(i);
            run->lines << run->blocked.last();
        }
        run->input = m_dir.filePath(name + QStringLiteral(".txt"));
        QVERIFY(clitest::writeFile(run->input,
                                   (run->lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8()));

        const QString csv = m_dir.filePath(name + QStringLiteral(".csv"));
        auto coordinator = clustertest::startCrawlscope(
            QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), run->input,
                        QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), name,
                        QStringLiteral("--output"), csv, QStringLiteral("--quiet")} +
            limits);
        auto worker = clustertest::startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                                    QStringLiteral("--cluster"), clusterUrl(),
                                                    QStringLiteral("--crawl"), name});
        QVERIFY2(clustertest::waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY2(clustertest::waitFinished(*worker, 10000), worker->err.constData());
        QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());
        run->workerErr = worker->err;

        int count = 0;
        run->rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, run->lines.size());
        for (const QString &url : std::as_const(run->lines)) {
            const QString outcome = run->rows.value(url).value(clitest::OutcomeCol);
            QVERIFY2(outcome ==
                         (run->blocked.contains(url) ? QLatin1String("blocked_robots") : QLatin1String("ok")),
                     qPrintable(url + QStringLiteral(": ") + outcome));
        }
        for (const RequestRecord &r : site.requests(host)) {
            QVERIFY2(!r.target.startsWith(QLatin1String("/private")), qPrintable(r.target));
            if (r.target.startsWith(QLatin1String("/page/")))
                run->pageStarts.append(r);
        }
        std::sort(run->pageStarts.begin(), run->pageStarts.end(),
                  [](const RequestRecord &a, const RequestRecord &b) { return a.startNs < b.startNs; });
        QCOMPARE(run->pageStarts.size(), run->lines.size() - run->blocked.size());
    }

    // Every gap at least `spacingMs`; the whole span under 1.5 x the gaps at `guardedMs` each. With each
    // blocked start spent every gap would be at least twice the spacing. A lease that comes back late (a
    // loaded machine) still goes back with its start spent, so the bound is on the span, not on each gap.
    static void checkSpacing(const SharedRun &run, qint64 spacingMs, qint64 guardedMs) {
        const QList<RequestRecord> &starts = run.pageStarts;
        for (qsizetype i = 1; i < starts.size(); ++i) {
            const qint64 gapMs = (starts[i].startNs - starts[i - 1].startNs) / kMs;
            QVERIFY2(gapMs >= spacingMs,
                     qPrintable(QStringLiteral("%1 ms before %2").arg(gapMs).arg(starts[i].target)));
        }
        const qint64 spanMs = (starts.last().startNs - starts.first().startNs) / kMs;
        QStringList gaps;
        for (qsizetype i = 1; i < starts.size(); ++i)
            gaps << QString::number((starts[i].startNs - starts[i - 1].startNs) / kMs);
        QVERIFY2(spanMs < (starts.size() - 1) * guardedMs * 3 / 2,
                 qPrintable(QStringLiteral("%1 ms for %2 gaps (%3); worker: %4")
                                .arg(spanMs)
                                .arg(starts.size() - 1)
                                .arg(gaps.join(u' '), QString::fromUtf8(run.workerErr))));
    }

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    // One host, 500 ms apart: the allowed URLs start about one interval apart (not two: the blocked one
    // between them gave its start back), and the blocked rows say what a local crawl of the same list says.
    void blockedUrlDoesNotDelayItsHost() {
        constexpr qint64 intervalMs = 500;
        TestSite site; // it outlives the shared run: the local crawl below asks it too
        SharedRun run;
        runAlternating(site, QStringLiteral("alternating"),
                       {QStringLiteral("--per-host"), QStringLiteral("1"), QStringLiteral("--interval-ms"),
                        QString::number(intervalMs)},
                       &run);
        if (QTest::currentTestFailed())
            return;
        // The stored interval is 540 ms (the 40 ms guard).
        checkSpacing(run, intervalMs, intervalMs + 40);
        if (QTest::currentTestFailed())
            return;
        // A local crawl of the same list: the same outcome and the same rule for every blocked line.
        const QString localCsv = m_dir.filePath(QStringLiteral("local.csv"));
        const clitest::Run local = clitest::runCli(
            {QStringLiteral("--headless"), QStringLiteral("--input"), run.input, QStringLiteral("--output"),
             localCsv, QStringLiteral("--interval-ms"), QStringLiteral("20"), QStringLiteral("--quiet")});
        QVERIFY2(local.finished && local.exitCode == 0, local.err.constData());
        int localCount = 0;
        const QHash<QString, QStringList> localRows = clitest::rowsByUrl(localCsv, &localCount);
        QCOMPARE(localCount, run.lines.size());
        for (const QString &url : std::as_const(run.blocked)) {
            QCOMPARE(run.rows.value(url).value(clitest::OutcomeCol),
                     localRows.value(url).value(clitest::OutcomeCol));
            QCOMPARE(run.rows.value(url).value(clitest::Error), localRows.value(url).value(clitest::Error));
            QCOMPARE(run.rows.value(url).value(clitest::Status), localRows.value(url).value(clitest::Status));
        }
    }

    // The crawl-wide start rate (--max-rate 2: a start every 500 ms over every worker), no host interval: a
    // blocked URL gives its rate slot back too, as a local crawl never spends one on it.
    void blockedUrlDoesNotSpendARateSlot() {
        TestSite site;
        SharedRun run;
        runAlternating(site, QStringLiteral("ratecap"),
                       {QStringLiteral("--per-host"), QStringLiteral("1"), QStringLiteral("--interval-ms"),
                        QStringLiteral("0"), QStringLiteral("--max-rate"), QStringLiteral("2")},
                       &run);
        if (QTest::currentTestFailed())
            return;
        // The rate cap has no guard: the grants are 500 ms apart at Redis, their sends a little less or more
        // at the site (the margin the other rate-cap tests allow).
        checkSpacing(run, 450, 500);
    }
};

QTEST_GUILESS_MAIN(TestClusterRobotsPacing)
#include "tst_clusterrobotspacing.moc"
