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

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    // One host, 500 ms apart, its list alternating allowed and disallowed URLs: the allowed URLs start about
    // one interval apart (not two: the blocked one between them gave its start back), every line has its
    // row, and the blocked rows say what a local crawl of the same list says.
    void blockedUrlDoesNotDelayItsHost() {
        TestSite site;
        const QString host = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!host.isEmpty());
        QVERIFY(site.setRobotsTxt(host, testsite::RobotsTxt::text("User-agent: *\nDisallow: /private\n")));
        QStringList lines;
        QStringList blocked;
        for (int i = 0; i < 6; ++i) {
            lines << site.baseUrl(host) + QStringLiteral("/page/%1").arg(i);
            blocked << site.baseUrl(host) + QStringLiteral("/private/%1").arg(i);
            lines << blocked.last();
        }
        const QString input = m_dir.filePath(QStringLiteral("alternating.txt"));
        QVERIFY(clitest::writeFile(input, (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8()));

        constexpr qint64 intervalMs = 500;
        const QString csv = m_dir.filePath(QStringLiteral("shared.csv"));
        auto coordinator = clustertest::startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             clusterUrl(), QStringLiteral("--crawl"), QStringLiteral("alternating"),
             QStringLiteral("--output"), csv, QStringLiteral("--quiet"), QStringLiteral("--per-host"),
             QStringLiteral("1"), QStringLiteral("--interval-ms"), QString::number(intervalMs)});
        auto worker = clustertest::startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--worker"), QStringLiteral("--cluster"),
             clusterUrl(), QStringLiteral("--crawl"), QStringLiteral("alternating")});
        QVERIFY2(clustertest::waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY2(clustertest::waitFinished(*worker, 10000), worker->err.constData());
        QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());

        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, lines.size());
        for (const QString &url : lines) {
            const QString outcome = rows.value(url).value(clitest::OutcomeCol);
            QVERIFY2(outcome ==
                         (blocked.contains(url) ? QLatin1String("blocked_robots") : QLatin1String("ok")),
                     qPrintable(url + QStringLiteral(": ") + outcome));
        }

        QList<RequestRecord> starts;
        for (const RequestRecord &r : site.requests(host)) {
            QVERIFY2(!r.target.startsWith(QLatin1String("/private")), qPrintable(r.target));
            if (r.target.startsWith(QLatin1String("/page/")))
                starts.append(r);
        }
        std::sort(starts.begin(), starts.end(),
                  [](const RequestRecord &a, const RequestRecord &b) { return a.startNs < b.startNs; });
        QCOMPARE(starts.size(), lines.size() - blocked.size());
        // The stored interval is 540 ms (the 40 ms guard); with each blocked start spent every gap would be
        // >= 1080 ms. A lease that comes back late (a loaded machine) still goes back with its start spent,
        // so the bound is on the whole span: 5 gaps of at most 810 ms on average.
        for (qsizetype i = 1; i < starts.size(); ++i) {
            const qint64 gapMs = (starts[i].startNs - starts[i - 1].startNs) / kMs;
            QVERIFY2(gapMs >= intervalMs,
                     qPrintable(QStringLiteral("%1 ms before %2").arg(gapMs).arg(starts[i].target)));
        }
        const qint64 spanMs = (starts.last().startNs - starts.first().startNs) / kMs;
        QVERIFY2(spanMs < (starts.size() - 1) * (intervalMs + 40) * 3 / 2,
                 qPrintable(QStringLiteral("%1 ms for %2 gaps; worker: %3")
                                .arg(spanMs)
                                .arg(starts.size() - 1)
                                .arg(QString::fromUtf8(worker->err))));

        // A local crawl of the same list: the same outcome and the same rule for every blocked line.
        const QString localCsv = m_dir.filePath(QStringLiteral("local.csv"));
        const clitest::Run local = clitest::runCli(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--output"),
             localCsv, QStringLiteral("--interval-ms"), QStringLiteral("20"), QStringLiteral("--quiet")});
        QVERIFY2(local.finished && local.exitCode == 0, local.err.constData());
        int localCount = 0;
        const QHash<QString, QStringList> localRows = clitest::rowsByUrl(localCsv, &localCount);
        QCOMPARE(localCount, count);
        for (const QString &url : blocked) {
            QCOMPARE(rows.value(url).value(clitest::OutcomeCol),
                     localRows.value(url).value(clitest::OutcomeCol));
            QCOMPARE(rows.value(url).value(clitest::Error), localRows.value(url).value(clitest::Error));
            QCOMPARE(rows.value(url).value(clitest::Status), localRows.value(url).value(clitest::Status));
        }
    }
};

QTEST_GUILESS_MAIN(TestClusterRobotsPacing)
#include "tst_clusterrobotspacing.moc"
