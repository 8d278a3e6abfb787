// `--store CRAWL.db` on a --cluster coordinator, with the real binary, a real redis-server and the loopback
// test site: the coordinator writes every collected row into a crawl file of the local format (read back
// by `crawlscope --export` and by CrawlStore, as the window's File > Open Crawl does), the same rows as its
// CSV, with per-host tallies; an interrupted coordinator's file is reopened by `--resume NAME --store FILE`
// and ends with one row per line, nothing recorded twice.
#include "../core/clitestsupport.h"
#include "cluster/clusterqueue.h"
#include "cluster/redisconnection.h"
#include "crawlscopeprocess.h"
#include "redistestserver.h"
#include "store/crawlstore.h"
#include "testsite.h"

#include <QHash>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace crawl;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {

using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;
using Proc = CrawlscopeProcess;

// URL -> (outcome, status) of a CSV's rows; *count -1 when the file is not a well-formed CSV of ours.
QHash<QString, QString> rowsOf(const QByteArray &csv, int *count) {
    bool ok = false;
    const QList<QStringList> rows = clitest::parseCsv(csv, &ok);
    QHash<QString, QString> out;
    *count = -1;
    if (!ok || rows.isEmpty() || rows.first().join(QLatin1Char(',')) != clitest::kHeader)
        return out;
    for (qsizetype i = 1; i < rows.size(); ++i) {
        if (rows[i].size() != clitest::kColumns)
            return out;
        out.insert(rows[i][clitest::Url],
                   rows[i][clitest::OutcomeCol] + QLatin1Char('/') + rows[i][clitest::Status]);
    }
    *count = int(rows.size() - 1);
    return out;
}

} // namespace

class TestClusterStore : public QObject {
    Q_OBJECT
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString clusterUrl() const { return QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()); }

    std::unique_ptr<Proc> startWorker(const QString &crawl) {
        return startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), crawl,
                                QStringLiteral("--concurrency"), QStringLiteral("2")});
    }
    // `crawlscope --export` of the file: the same rows (URL, outcome, status) as the coordinator's CSV.
    void verifyExportMatches(const QString &db, const QString &csv, int expectedRows) {
        const QString exported = db + QStringLiteral(".export.csv");
        const clitest::Run run =
            clitest::runCli({QStringLiteral("--export"), db, QStringLiteral("--output"), exported});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        int csvCount = 0;
        int exportCount = 0;
        const QHash<QString, QString> fromCsv = rowsOf(clitest::readFile(csv), &csvCount);
        const QHash<QString, QString> fromExport = rowsOf(clitest::readFile(exported), &exportCount);
        QCOMPARE(csvCount, expectedRows);
        QCOMPARE(exportCount, expectedRows);
        QCOMPARE(fromExport, fromCsv);
    }

private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    void coordinatorWritesTheCrawlFile() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString b = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        const QByteArray urlsA = site.urlList(a, 5, QStringLiteral("/a%1"));
        const QByteArray list = urlsA + "not a url\n" +
                                site.urlList(b, 2, QStringLiteral("/b%1?status=404")) +
                                urlsA.left(urlsA.indexOf('\n') + 1) + // a duplicate line: no second row
                                site.baseUrl(b).toUtf8() + "/skip-me\n";
        const QString input = m_dir.filePath(QStringLiteral("stored.txt"));
        QVERIFY(clitest::writeFile(input, list));
        const QString csv = m_dir.filePath(QStringLiteral("stored.csv"));
        const QString db = m_dir.filePath(QStringLiteral("stored.db"));
        auto coordinator = startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             clusterUrl(), QStringLiteral("--crawl"), QStringLiteral("stored"), QStringLiteral("--output"),
             csv, QStringLiteral("--quiet"), QStringLiteral("--robots"), QStringLiteral("ignore"),
             QStringLiteral("--store"), db, QStringLiteral("--exclude"), QStringLiteral("skip-me")});
        auto worker = startWorker(QStringLiteral("stored"));
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY2(waitFinished(*worker, 30000), worker->err.constData());
        QCOMPARE(worker->process->exitCode(), 0);

        verifyExportMatches(db, csv, 9); // 7 URLs, the invalid line and the excluded one
        StoreError error;
        StoreOptions readOnly;
        readOnly.readOnly = true;
        const std::unique_ptr<CrawlStore> store = CrawlStore::open(db, &error, readOnly);
        QVERIFY2(store, qPrintable(error.message));
        const StoreCounts counts = store->counts();
        QCOMPARE(counts.lines, 10);
        QCOMPARE(counts.duplicates, 1);
        QCOMPARE(counts.rows(), 9);
        QCOMPARE(counts.done, 9);
        QCOMPARE(counts.pending + counts.inFlight, 0);
        const std::optional<HostRecord> hostA = store->hostRecord(a);
        QVERIFY(hostA);
        QCOMPARE(hostA->done, 5);
        QCOMPARE(hostA->ok, 5);
        const std::optional<HostRecord> hostB = store->hostRecord(b);
        QVERIFY(hostB);
        QCOMPARE(hostB->done, 3);
        QCOMPARE(hostB->ok, 0); // two 404s and the excluded line
        QCOMPARE(store->settings().value(QStringLiteral("cluster.crawl")), QStringLiteral("stored"));
    }

    // Interrupted (SIGTERM) after some rows: the file has them; `--resume NAME --store FILE` reopens it,
    // records the rest, and the file ends with one row per line, each URL fetched once.
    void resumeReopensTheCrawlFile() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QByteArray list = site.urlList(a, 12, QStringLiteral("/r%1?ms=200")) + "bad line\n";
        const QString input = m_dir.filePath(QStringLiteral("again.txt"));
        QVERIFY(clitest::writeFile(input, list));
        const QString db = m_dir.filePath(QStringLiteral("again.db"));
        const QString crawl = QStringLiteral("again");
        auto coordinator = startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             clusterUrl(), QStringLiteral("--crawl"), crawl, QStringLiteral("--output"),
             m_dir.filePath(QStringLiteral("again-0.csv")), QStringLiteral("--quiet"),
             QStringLiteral("--robots"), QStringLiteral("ignore"), QStringLiteral("--per-host"),
             QStringLiteral("1"), QStringLiteral("--store"), db});
        auto worker = startWorker(crawl);
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         coordinator->pump();
                         worker->pump();
                         return queue.counts().done >= 4;
                     },
                     30000),
                 (coordinator->err + worker->err).constData());
        ::kill(pid_t(coordinator->process->processId()), SIGTERM);
        QVERIFY(waitFinished(*coordinator, 15000));
        QCOMPARE(coordinator->process->exitCode(), 130);
        qint64 doneBefore = 0;
        {
            StoreError error;
            StoreOptions readOnly;
            readOnly.readOnly = true;
            const std::unique_ptr<CrawlStore> store = CrawlStore::open(db, &error, readOnly);
            QVERIFY2(store, qPrintable(error.message));
            doneBefore = store->counts().done;
            QVERIFY(doneBefore >= 1); // the invalid line, and the rows collected before the signal
            QVERIFY(doneBefore < 13);
        }

        const QString csv = m_dir.filePath(QStringLiteral("again.csv"));
        auto resumed = startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--input"), input,
                                        QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--resume"),
                                        crawl, QStringLiteral("--output"), csv, QStringLiteral("--quiet"),
                                        QStringLiteral("--store"), db});
        QVERIFY2(waitFinished(*resumed, 60000), resumed->err.constData());
        QVERIFY2(resumed->process->exitCode() == 0, resumed->err.constData());
        QVERIFY2(waitFinished(*worker, 30000), worker->err.constData());
        QCOMPARE(worker->process->exitCode(), 0);

        verifyExportMatches(db, csv, 13);
        StoreError error;
        const std::unique_ptr<CrawlStore> store = CrawlStore::open(db, &error);
        QVERIFY2(store, qPrintable(error.message));
        const StoreCounts counts = store->counts();
        QCOMPARE(counts.lines, 13); // the resume appended no line twice
        QCOMPARE(counts.done, 13);
        QCOMPARE(store->hostRecord(a)->done, 12);
        QHash<QString, int> fetches;
        for (const RequestRecord &r : site.requests())
            ++fetches[r.target];
        QCOMPARE(fetches.size(), 12);
        for (auto it = fetches.cbegin(); it != fetches.cend(); ++it)
            QVERIFY2(it.value() == 1, qPrintable(it.key()));
    }

    // The file is new: an existing one is refused before Redis is touched, and a crawl that could not be
    // created (its name in use) leaves no file behind.
    void existingFileRefusedAndNoFileForARefusedCrawl() {
        const QString input = m_dir.filePath(QStringLiteral("refused.txt"));
        QVERIFY(clitest::writeFile(input, "http://127.0.0.2:1/x\n"));
        const QString existing = m_dir.filePath(QStringLiteral("existing.db"));
        QVERIFY(clitest::writeFile(existing, "mine"));
        const QStringList base{QStringLiteral("--headless"),
                               QStringLiteral("--input"),
                               input,
                               QStringLiteral("--cluster"),
                               clusterUrl(),
                               QStringLiteral("--robots"),
                               QStringLiteral("ignore"),
                               QStringLiteral("--output"),
                               m_dir.filePath(QStringLiteral("refused.csv"))};
        const clitest::Run onExisting =
            clitest::runCli(base + QStringList{QStringLiteral("--crawl"), QStringLiteral("fresh"),
                                               QStringLiteral("--store"), existing});
        QCOMPARE(onExisting.exitCode, 2);
        QCOMPARE(clitest::readFile(existing), QByteArray("mine"));
        RedisConnection connection(m_server.url());
        QVERIFY(!ClusterQueue(connection, QStringLiteral("fresh")).crawlExists());

        ClusterQueue taken(connection, QStringLiteral("taken"));
        QVERIFY(taken.createCrawl({{QStringLiteral("input_complete"), QStringLiteral("0")}}));
        const QString db = m_dir.filePath(QStringLiteral("taken.db"));
        const clitest::Run onTaken =
            clitest::runCli(base + QStringList{QStringLiteral("--crawl"), QStringLiteral("taken"),
                                               QStringLiteral("--store"), db});
        QCOMPARE(onTaken.exitCode, 2);
        QVERIFY2(onTaken.err.contains("choose a new --crawl name"), onTaken.err.constData());
        QVERIFY(!QFile::exists(db));
        QVERIFY(!QFile::exists(db + QStringLiteral("-wal")));
    }
};

QTEST_GUILESS_MAIN(TestClusterStore)
#include "tst_clusterstore.moc"
