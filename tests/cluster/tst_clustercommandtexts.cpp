// What the cluster commands print, the user acts on:
// - The coordinator's "start workers with: crawlscope ..." line is a command the user copies: run as printed
//   (with the password in CRAWLSCOPE_REDIS_PASSWORD, as the docs say), it must start a worker that joins the
//   crawl. The password, given in the environment or in the URL, never appears in it; in particular not as
//   the "***" of a redacted URL, which a copied command would send as the password (WRONGPASS).
// - `--cluster-set --adaptive` (or --max-rate) confirms the limits the crawl has now, that one included.
#include "../core/clitestsupport.h"
#include "cluster/redisurl.h"
#include "crawlscopeprocess.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace crawl;
using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;
using testsite::TestSite;

namespace {
const QString kPassword = QStringLiteral("hint-pw-7d2");
} // namespace

class TestClusterCommandTexts : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    // Runs a coordinator on `clusterUrl`, then the worker command it prints, and checks the crawl ends.
    void verifyPrintedWorkerCommandWorks(const QString &clusterUrl, const QString &crawl) {
        TestSite site;
        const QString host = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!host.isEmpty());
        const QString input = m_dir.filePath(crawl + QStringLiteral(".txt"));
        QVERIFY(clitest::writeFile(input, site.urlList(host, 3, QStringLiteral("/h%1"))));
        const QString csv = m_dir.filePath(crawl + QStringLiteral(".csv"));
        auto coordinator = startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             clusterUrl, QStringLiteral("--crawl"), crawl, QStringLiteral("--output"), csv,
             QStringLiteral("--quiet"), QStringLiteral("--robots"), QStringLiteral("ignore")});
        static const QRegularExpression hintLine(QStringLiteral("start workers with: crawlscope ([^\\n]*)"));
        QRegularExpressionMatch hint;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         coordinator->pump();
                         hint = hintLine.match(QString::fromUtf8(coordinator->err));
                         return hint.hasMatch() || coordinator->process->state() == QProcess::NotRunning;
                     },
                     20000),
                 coordinator->err.constData());
        QVERIFY2(hint.hasMatch(), coordinator->err.constData());
        const QString command = hint.captured(1);
        QVERIFY2(!command.contains(kPassword) && !command.contains(QStringLiteral("***")),
                 qPrintable(command));

        // The command as printed (crawl names and URLs here need no shell quoting), up to any explanation.
        QStringList arguments = command.section(QStringLiteral(" ("), 0, 0).split(QLatin1Char(' '));
        auto worker = startCrawlscope(arguments);
        QVERIFY2(waitFinished(*worker, 60000), worker->err.constData());
        QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());
        QVERIFY2(waitFinished(*coordinator, 30000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        int rows = 0;
        clitest::rowsByUrl(csv, &rows);
        QCOMPARE(rows, 3);
        QVERIFY(!coordinator->err.contains(kPassword.toUtf8()) && !worker->err.contains(kPassword.toUtf8()));
    }

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server, {QStringLiteral("--requirepass"), kPassword});
        QVERIFY(m_dir.isValid());
        qputenv(RedisUrl::kPasswordVariable, kPassword.toUtf8()); // inherited by every process started
    }

    void passwordFromTheEnvironment() {
        verifyPrintedWorkerCommandWorks(QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()),
                                        QStringLiteral("hint-env"));
    }

    void clusterSetConfirmsAdaptiveAndMaxRate() {
        const QString url = QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port());
        const QString input = m_dir.filePath(QStringLiteral("set.txt"));
        QVERIFY(clitest::writeFile(input, "http://127.0.0.2:9/never\n")); // no worker: never fetched
        auto coordinator = startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"), url,
             QStringLiteral("--crawl"), QStringLiteral("set-texts"), QStringLiteral("--output"),
             m_dir.filePath(QStringLiteral("set.csv")), QStringLiteral("--quiet")});
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         coordinator->pump();
                         return coordinator->err.contains("start workers with");
                     },
                     20000),
                 coordinator->err.constData());
        const auto set = [&](const QStringList &flags) {
            return clitest::runCli(QStringList{QStringLiteral("--cluster"), url, QStringLiteral("--crawl"),
                                               QStringLiteral("set-texts"), QStringLiteral("--cluster-set")} +
                                   flags);
        };
        const clitest::Run before = set({QStringLiteral("--per-host"), QStringLiteral("2")});
        QCOMPARE(before.exitCode, 0);
        QVERIFY2(!before.err.contains("adaptive") && !before.err.contains("starts/s"),
                 before.err.constData());
        const clitest::Run adaptive = set({QStringLiteral("--adaptive")});
        QCOMPARE(adaptive.exitCode, 0);
        QVERIFY2(adaptive.err.contains("adaptive pace per host"), adaptive.err.constData());
        // Another limit changed later: adaptive stays on, and says so.
        const clitest::Run rate = set({QStringLiteral("--max-rate"), QStringLiteral("2.5")});
        QCOMPARE(rate.exitCode, 0);
        QVERIFY2(rate.err.contains("at most 2.5 starts/s") && rate.err.contains("adaptive pace per host"),
                 rate.err.constData());
    }

    void passwordInTheUrl() {
        verifyPrintedWorkerCommandWorks(
            QStringLiteral("redis://:%1@127.0.0.1:%2/0").arg(kPassword).arg(m_server.port()),
            QStringLiteral("hint-url"));
    }
};

QTEST_GUILESS_MAIN(TestClusterCommandTexts)
#include "tst_clustercommandtexts.moc"
