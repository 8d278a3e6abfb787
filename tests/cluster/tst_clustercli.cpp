// The real crawlscope binary as a shared crawl: one coordinator (--cluster --input --crawl) and worker
// processes (--worker) on a redis-server and the loopback test site started here. What is asserted is what
// the *test site* saw (per-host peaks, start gaps, the pause after a 429) and the coordinator's CSV.
#include "../core/clitestsupport.h"
#include "cluster/clusterqueue.h"
#include "cluster/redisconnection.h"
#include "crawlscopeprocess.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <limits>
#include <memory>

using namespace crawl;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {

constexpr qint64 kMs = 1'000'000;

using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;
using Proc = CrawlscopeProcess;

// Requests of one host in start order.
QList<RequestRecord> startsOf(const TestSite &site, const QString &host) {
    QList<RequestRecord> records = site.requests(host);
    std::sort(records.begin(), records.end(),
              [](const RequestRecord &a, const RequestRecord &b) { return a.startNs < b.startNs; });
    return records;
}

// The most requests in flight at once among `records` (ended ones by endNs; open ones count as open).
int peakOf(const QList<RequestRecord> &records) {
    int peak = 0;
    for (const RequestRecord &r : records) {
        int open = 0;
        for (const RequestRecord &o : records)
            open += o.startNs <= r.startNs && (o.endNs == 0 || o.endNs > r.startNs) ? 1 : 0;
        peak = std::max(peak, open);
    }
    return peak;
}

} // namespace

class TestClusterCli : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;
    QList<Proc *> m_live;

    QString clusterUrl() const { return QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()); }

    std::unique_ptr<Proc> startWorker(const QString &crawl, int concurrency = 4) {
        return startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), crawl,
                                QStringLiteral("--concurrency"), QString::number(concurrency)});
    }
    std::unique_ptr<Proc> startCoordinator(const QString &crawl, const QByteArray &list, const QString &csv,
                                           const QStringList &limits) {
        const QString input = m_dir.filePath(crawl + QStringLiteral(".txt"));
        if (!clitest::writeFile(input, list))
            return nullptr;
        return startCrawlscope(QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), input,
                                           QStringLiteral("--cluster"), clusterUrl(),
                                           QStringLiteral("--crawl"), crawl, QStringLiteral("--output"), csv,
                                           QStringLiteral("--quiet"), QStringLiteral("--robots"),
                                           QStringLiteral("ignore")} +
                               limits);
    }
private Q_SLOTS:
    void initTestCase() {
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    // Three workers, two hosts at 2 in flight and 100 ms apart and a host at 1 whose first URL answers 429
    // with Retry-After: 2. The site never sees more than 2 at once on a host, never two starts closer than
    // 100 ms, and nothing on the 429 host for 2 s after the 429 was sent.
    void sharedLimitsHoldAcrossThreeWorkers() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString b = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        const QString c = site.addHost(QHostAddress(QStringLiteral("127.0.0.4")));
        // d is paced at 1 in flight, 100 ms apart, and also reached by redirects from e.
        const QString d = site.addHost(QHostAddress(QStringLiteral("127.0.0.5")));
        const QString e = site.addHost(QHostAddress(QStringLiteral("127.0.0.6")));
        QVERIFY(!a.isEmpty() && !b.isEmpty() && !c.isEmpty() && !d.isEmpty() && !e.isEmpty());
        QByteArray redirects;
        for (int i = 0; i < 6; ++i)
            redirects += site.baseUrl(e).toUtf8() + "/r" + QByteArray::number(i) + "?to=" +
                         QUrl::toPercentEncoding(site.baseUrl(d) + QStringLiteral("/t%1?ms=150").arg(i)) +
                         '\n';
        QByteArray list = site.urlList(a, 24, QStringLiteral("/a%1?ms=300")) +
                          site.urlList(b, 24, QStringLiteral("/b%1?ms=300")) +
                          (site.baseUrl(c) + QStringLiteral("/c-ra?fail=1&failstatus=429&ra=2\n")).toUtf8() +
                          site.urlList(c, 8, QStringLiteral("/c%1?ms=20")) + "not a url\n" + redirects +
                          site.urlList(d, 4, QStringLiteral("/d%1?ms=150"));
        const QString csv = m_dir.filePath(QStringLiteral("limits.csv"));
        auto coordinator = startCoordinator(
            QStringLiteral("limits"), list, csv,
            {QStringLiteral("--per-host"), QStringLiteral("2"), QStringLiteral("--interval-ms"),
             QStringLiteral("100"), QStringLiteral("--host-limit"), c + QStringLiteral("=1/100"),
             QStringLiteral("--host-limit"), d + QStringLiteral("=1/100"), QStringLiteral("--retries"),
             QStringLiteral("2"), QStringLiteral("--backoff-ms"), QStringLiteral("100")});
        QVERIFY(coordinator);
        std::vector<std::unique_ptr<Proc>> workers;
        for (int i = 0; i < 3; ++i)
            workers.push_back(startWorker(QStringLiteral("limits")));
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        for (auto &worker : workers) {
            QVERIFY2(waitFinished(*worker, 10000), worker->err.constData());
            QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());
        }

        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 24 + 24 + 1 + 8 + 1 + 6 + 4);
        QCOMPARE(rows.value(QStringLiteral("not a url")).value(clitest::OutcomeCol),
                 QStringLiteral("invalid_url"));
        const QStringList retried =
            rows.value(site.baseUrl(c) + QStringLiteral("/c-ra?fail=1&failstatus=429&ra=2"));
        QCOMPARE(retried.value(clitest::OutcomeCol), QStringLiteral("ok"));
        QCOMPARE(retried.value(clitest::Attempts), QStringLiteral("2"));

        for (const QString &host : {a, b}) {
            const QList<RequestRecord> starts = startsOf(site, host);
            if (qEnvironmentVariableIsSet("CLUSTER_TEST_GAPS")) {
                QString gaps;
                for (qsizetype i = 1; i < starts.size(); ++i)
                    gaps +=
                        QString::number((starts[i].startNs - starts[i - 1].startNs) / kMs) + QLatin1Char(' ');
                qInfo("%s gaps: %s", qPrintable(host), qPrintable(gaps));
            }
            QCOMPARE(starts.size(), 24);
            // Reached (three workers want more) and never exceeded, as the server counted.
            QCOMPARE(site.hostRecord(host).peakInFlight, 2);
            for (qsizetype i = 1; i < starts.size(); ++i)
                QVERIFY2(starts[i].startNs - starts[i - 1].startNs >= 100 * kMs,
                         qPrintable(QStringLiteral("%1: starts %2 ms apart")
                                        .arg(host)
                                        .arg((starts[i].startNs - starts[i - 1].startNs) / kMs)));
        }
        // Redirect hops onto d wait for d's own budget: 1 in flight, 100 ms apart, whoever sent them.
        const QList<RequestRecord> onD = startsOf(site, d);
        QCOMPARE(onD.size(), 10);
        QCOMPARE(site.hostRecord(d).peakInFlight, 1);
        for (qsizetype i = 1; i < onD.size(); ++i)
            QVERIFY2(onD[i].startNs - onD[i - 1].startNs >= 100 * kMs,
                     qPrintable(QStringLiteral("%1: starts %2 ms apart")
                                    .arg(d)
                                    .arg((onD[i].startNs - onD[i - 1].startNs) / kMs)));
        for (int i = 0; i < 6; ++i) {
            const QString from = site.baseUrl(e) + QStringLiteral("/r%1?to=").arg(i) +
                                 QString::fromUtf8(QUrl::toPercentEncoding(
                                     site.baseUrl(d) + QStringLiteral("/t%1?ms=150").arg(i)));
            const QStringList row = rows.value(from);
            QVERIFY2(row.value(clitest::OutcomeCol) == QStringLiteral("ok"), qPrintable(from));
            QCOMPARE(row.value(clitest::Redirects), QStringLiteral("1"));
            QVERIFY(row.value(clitest::FinalUrl).startsWith(site.baseUrl(d)));
        }
        const QList<RequestRecord> onC = startsOf(site, c);
        QCOMPARE(onC.size(), 10); // the 429, its retry, 8 others
        QCOMPARE(site.hostRecord(c).peakInFlight, 1);
        const auto tooMany =
            std::find_if(onC.cbegin(), onC.cend(), [](const RequestRecord &r) { return r.status == 429; });
        QVERIFY(tooMany != onC.cend());
        for (const RequestRecord &r : onC) {
            if (r.startNs > tooMany->startNs)
                QVERIFY2(r.startNs >= tooMany->endNs + 2000 * kMs,
                         qPrintable(QStringLiteral("%1 started %2 ms after the 429's Retry-After: 2")
                                        .arg(r.target)
                                        .arg((r.startNs - tooMany->endNs) / kMs)));
        }
    }

    // A worker killed with SIGKILL while it holds leases: they expire, the other workers fetch those URLs,
    // the CSV has one row per URL, and no URL is fetched again once its result was acknowledged.
    void killedWorkersLeasesCompleteElsewhere() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString b = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        const QByteArray list = site.urlList(a, 40, QStringLiteral("/a%1?ms=400")) +
                                site.urlList(b, 40, QStringLiteral("/b%1?ms=400"));
        const QString crawl = QStringLiteral("killed");
        const QString csv = m_dir.filePath(QStringLiteral("killed.csv"));
        auto coordinator = startCoordinator(crawl, list, csv,
                                            {QStringLiteral("--per-host"), QStringLiteral("3"),
                                             QStringLiteral("--interval-ms"), QStringLiteral("0")});
        QVERIFY(coordinator);
        // The doomed worker runs alone until its heartbeat says it holds leases (then it certainly does: it
        // is the only worker and the hosts have more URLs than slots), then the others join.
        auto doomed = startWorker(crawl);
        QVERIFY(doomed->process->waitForStarted());
        const QByteArray pidTag = '-' + QByteArray::number(doomed->process->processId()) + '-';
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QList<WorkerStatus> workers = queue.workers();
                return std::any_of(workers.cbegin(), workers.cend(), [&](const WorkerStatus &worker) {
                    return worker.id.toUtf8().contains(pidTag) && worker.inFlight > 0;
                });
            },
            30000));
        auto first = startWorker(crawl);
        auto second = startWorker(crawl);
        QVERIFY(first->process->waitForStarted() && second->process->waitForStarted());
        const qint64 killedAtNs = TestSite::nowNs();
        doomed->process->kill();
        QVERIFY(doomed->process->waitForFinished(10000));

        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY(waitFinished(*first, 10000) && waitFinished(*second, 10000));
        QCOMPARE(first->process->exitCode(), 0);
        QCOMPARE(second->process->exitCode(), 0);
        QVERIFY(queue.counts().expired >= 1);

        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 80);
        for (const QStringList &row : rows)
            QCOMPARE(row[clitest::OutcomeCol], QStringLiteral("ok"));
        // Fetched twice only if the first request was the dead worker's (started before the kill).
        QHash<QString, QList<RequestRecord>> byTarget;
        for (const RequestRecord &r : site.requests())
            byTarget[r.host + r.target].append(r);
        int refetched = 0;
        for (auto it = byTarget.cbegin(); it != byTarget.cend(); ++it) {
            QList<RequestRecord> records = it.value();
            QVERIFY2(records.size() <= 2, qPrintable(it.key()));
            if (records.size() == 2) {
                ++refetched;
                std::sort(records.begin(), records.end(), [](const RequestRecord &x, const RequestRecord &y) {
                    return x.startNs < y.startNs;
                });
                QVERIFY2(records[0].startNs < killedAtNs && records[1].startNs > killedAtNs,
                         qPrintable(it.key()));
            }
        }
        QCOMPARE(byTarget.size(), 80);
        QVERIFY(refetched >= 1);
        QVERIFY(refetched <= 4); // at most the dead worker's --concurrency
    }

    // A coordinator killed (SIGKILL) while it is still feeding its list (read from a pipe, half written):
    // its CSV is lost and the crawl waits with input_complete=0. `--resume NAME` with the whole list feeds
    // the rest, collects every row from the results stream (kept until the crawl is collected) and writes
    // one row per line; the site saw every URL exactly once (nothing acknowledged was fetched again).
    void resumedCoordinatorWritesOneRowPerLine() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QByteArray firstHalf = site.urlList(a, 20, QStringLiteral("/first%1?ms=50")) + "not a url\n";
        const QByteArray secondHalf = site.urlList(a, 20, QStringLiteral("/second%1?ms=50")) + "ftp://x/\n";
        const QString crawl = QStringLiteral("resumed");
        const QString csv = m_dir.filePath(QStringLiteral("resumed.csv"));
        auto coordinator =
            startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("-"),
                             QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), crawl,
                             QStringLiteral("--output"), csv, QStringLiteral("--robots"),
                             QStringLiteral("ignore"), QStringLiteral("--per-host"), QStringLiteral("2"),
                             QStringLiteral("--interval-ms"), QStringLiteral("0")});
        QVERIFY(coordinator->process->waitForStarted());
        coordinator->process->write(firstHalf);
        auto worker = startWorker(crawl);
        // Killed once results exist (some acknowledged, collected into a CSV that dies with it).
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         coordinator->pump();
                         worker->pump();
                         return queue.counts().done >= 5;
                     },
                     30000),
                 (coordinator->err + worker->err).constData());
        coordinator->process->kill();
        QVERIFY(coordinator->process->waitForFinished(10000));
        QCOMPARE(queue.settings().value(QStringLiteral("input_complete")), QStringLiteral("0"));

        const QString list = m_dir.filePath(QStringLiteral("resumed.txt"));
        QVERIFY(clitest::writeFile(list, firstHalf + secondHalf));
        auto resumed = startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--input"), list,
                                        QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--resume"),
                                        crawl, QStringLiteral("--output"), csv, QStringLiteral("--quiet"),
                                        QStringLiteral("--summary-json"),
                                        m_dir.filePath(QStringLiteral("resumed.json"))});
        QVERIFY2(waitFinished(*resumed, 60000), resumed->err.constData());
        QVERIFY2(resumed->process->exitCode() == 0, resumed->err.constData());
        QVERIFY2(resumed->err.contains("resuming crawl"), resumed->err.constData());
        QVERIFY(waitFinished(*worker, 15000));
        QCOMPARE(worker->process->exitCode(), 0);

        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 42); // 40 URLs and 2 invalid lines, each once
        int invalid = 0;
        for (const QStringList &row : rows) {
            if (row[clitest::OutcomeCol] == QLatin1String("invalid_url"))
                ++invalid;
            else
                QCOMPARE(row[clitest::OutcomeCol], QStringLiteral("ok"));
        }
        QCOMPARE(invalid, 2);
        // The summary counts the same rows (from the coordinator's side: the workers run elsewhere).
        const QJsonObject summary =
            QJsonDocument::fromJson(clitest::readFile(m_dir.filePath(QStringLiteral("resumed.json"))))
                .object();
        QCOMPARE(summary.value(QStringLiteral("done")).toInt(), 42);
        QCOMPARE(summary.value(QStringLiteral("ok")).toInt(), 40);
        QCOMPARE(summary.value(QStringLiteral("invalid")).toInt(), 2);
        QCOMPARE(summary.value(QStringLiteral("hosts")).toArray().size(), 1);
        QCOMPARE(summary.value(QStringLiteral("hosts"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("done"))
                     .toInt(),
                 40);
        QHash<QString, int> fetches;
        for (const RequestRecord &r : site.requests())
            ++fetches[r.target];
        QCOMPARE(fetches.size(), 40);
        for (auto it = fetches.cbegin(); it != fetches.cend(); ++it)
            QVERIFY2(it.value() == 1, qPrintable(it.key()));

        // Collected: a second resume has nothing to do and says so.
        const clitest::Run again =
            clitest::runCli({QStringLiteral("--headless"), QStringLiteral("--input"), list,
                             QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--resume"), crawl,
                             QStringLiteral("--output"), m_dir.filePath(QStringLiteral("again.csv"))});
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("nothing to resume"), again.err.constData());
    }

    // --jitter on the coordinator reaches every worker through the shared limits: the site sees gaps never
    // below the interval, and spread above it (interval 100 ms, jitter 1: up to twice the guarded interval).
    void jitterSpreadsStartsAcrossWorkers() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QString crawl = QStringLiteral("jitter");
        const QString csv = m_dir.filePath(QStringLiteral("jitter.csv"));
        auto coordinator = startCoordinator(crawl, site.urlList(a, 14, QStringLiteral("/j%1")), csv,
                                            {QStringLiteral("--per-host"), QStringLiteral("1"),
                                             QStringLiteral("--interval-ms"), QStringLiteral("100"),
                                             QStringLiteral("--jitter"), QStringLiteral("1")});
        QVERIFY(coordinator);
        auto first = startWorker(crawl);
        auto second = startWorker(crawl);
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY(waitFinished(*first, 10000) && waitFinished(*second, 10000));
        const QList<RequestRecord> starts = startsOf(site, a);
        QCOMPARE(starts.size(), 14);
        qint64 minGap = std::numeric_limits<qint64>::max();
        int spread = 0; // gaps well above the guarded 140 ms: about 2 in 3 with jitter 1, hardly any without
        for (qsizetype i = 1; i < starts.size(); ++i) {
            const qint64 gap = starts[i].startNs - starts[i - 1].startNs;
            minGap = std::min(minGap, gap);
            spread += gap >= 190 * kMs ? 1 : 0;
        }
        QVERIFY2(minGap >= 100 * kMs, qPrintable(QString::number(minGap / kMs)));
        QVERIFY2(spread >= 3, qPrintable(QString::number(spread)));
    }

    // redis-server stopped and started again (append-only file on) in the middle of a crawl: the workers and
    // the coordinator reconnect and the crawl finishes with one row per URL.
    void redisRestartMidCrawl() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString b = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        const QByteArray list = site.urlList(a, 30, QStringLiteral("/a%1?ms=150")) +
                                site.urlList(b, 30, QStringLiteral("/b%1?ms=150"));
        const QString crawl = QStringLiteral("restart");
        const QString csv = m_dir.filePath(QStringLiteral("restart.csv"));
        auto coordinator = startCoordinator(crawl, list, csv,
                                            {QStringLiteral("--per-host"), QStringLiteral("2"),
                                             QStringLiteral("--interval-ms"), QStringLiteral("0")});
        QVERIFY(coordinator);
        auto first = startWorker(crawl);
        auto second = startWorker(crawl);
        QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 15; }, 30000));
        m_server.stop();
        QTest::qWait(500); // Redis is really away for a while (not a stand-in for a signal)
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));

        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY2(waitFinished(*first, 15000), first->err.constData());
        QVERIFY2(waitFinished(*second, 15000), second->err.constData());
        QCOMPARE(first->process->exitCode(), 0);
        QCOMPARE(second->process->exitCode(), 0);
        int count = 0;
        clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 60);
    }

    // --cluster-set while the crawl runs: every worker says it has the new limits within about a second,
    // and the site sees the host go from 1 in flight to 3.
    void limitChangeReachesEveryWorker() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QByteArray list = site.urlList(a, 45, QStringLiteral("/a%1?ms=250"));
        const QString crawl = QStringLiteral("change");
        const QString csv = m_dir.filePath(QStringLiteral("change.csv"));
        auto coordinator = startCoordinator(crawl, list, csv,
                                            {QStringLiteral("--per-host"), QStringLiteral("1"),
                                             QStringLiteral("--interval-ms"), QStringLiteral("0")});
        QVERIFY(coordinator);
        std::vector<std::unique_ptr<Proc>> workers;
        for (int i = 0; i < 3; ++i)
            workers.push_back(startWorker(crawl));
        QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 5; }, 30000));

        const clitest::Run set = clitest::runCli(
            {QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"), crawl,
             QStringLiteral("--cluster-set"), QStringLiteral("--per-host"), QStringLiteral("3")});
        QVERIFY2(set.exitCode == 0, set.err.constData());
        const qint64 setAtNs = TestSite::nowNs();
        QElapsedTimer since;
        since.start();
        for (auto &worker : workers) {
            QVERIFY(QTest::qWaitFor(
                [&] {
                    worker->pump();
                    return worker->err.contains("shared limits changed");
                },
                5000));
        }
        // Polled every second by each worker; the margin covers a loaded machine.
        QVERIFY2(since.elapsed() <= 2500, qPrintable(QString::number(since.elapsed())));

        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QList<RequestRecord> before;
        QList<RequestRecord> after;
        for (const RequestRecord &r : startsOf(site, a))
            (r.startNs < setAtNs - 50 * kMs ? before : after).append(r);
        QVERIFY(!before.isEmpty());
        QCOMPARE(peakOf(before), 1);
        QCOMPARE(site.hostRecord(a).peakInFlight, 3);
        for (auto &worker : workers)
            QVERIFY(waitFinished(*worker, 10000));
    }

    // SIGTERM to a worker mid-request: it aborts its requests, hands its leases back at once (not after they
    // expire) and exits 130; another worker then finishes the crawl.
    void terminatedWorkerHandsItsLeasesBack() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QByteArray list = site.urlList(a, 8, QStringLiteral("/a%1?ms=2000"));
        const QString crawl = QStringLiteral("term");
        const QString csv = m_dir.filePath(QStringLiteral("term.csv"));
        auto coordinator = startCoordinator(crawl, list, csv,
                                            {QStringLiteral("--per-host"), QStringLiteral("4"),
                                             QStringLiteral("--interval-ms"), QStringLiteral("0")});
        QVERIFY(coordinator);
        auto leaving = startWorker(crawl);
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(a).inFlight == 4; }, 30000));
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QCOMPARE(queue.counts().leased, 4);
        leaving->process->terminate();
        QVERIFY(waitFinished(*leaving, 10000));
        QCOMPARE(leaving->process->exitStatus(), QProcess::NormalExit);
        QVERIFY2(leaving->process->exitCode() == 130, leaving->err.constData());
        // Handed back before the process ended: nothing is leased, nothing waits for an expiry.
        QCOMPARE(queue.counts().leased, 0);
        QCOMPARE(queue.counts().expired, 0);

        QElapsedTimer since;
        since.start();
        auto finisher = startWorker(crawl);
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        // Sooner than the 10 s a lease would have taken to expire: 2 rounds of 2 s.
        QVERIFY2(since.elapsed() < 9000, qPrintable(QString::number(since.elapsed())));
        QVERIFY(waitFinished(*finisher, 10000));
        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 8);
        for (const QStringList &row : rows)
            QCOMPARE(row[clitest::OutcomeCol], QStringLiteral("ok"));
    }

    // The workers judge each page with the crawl's acceptance checks and its scope, like a single-process
    // crawl does: an excluded line is never queued, a redirect out of scope is not followed. A coordinator
    // that would obey robots.txt (which workers do not read yet) is refused rather than silently ignored.
    void acceptanceAndScopeOnWorkers() {
        TestSite site;
        const QString host = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!host.isEmpty());
        const QString page = site.baseUrl(host) + QStringLiteral("/page");
        const QString soft404 = site.baseUrl(host) + QStringLiteral("/gone?soft404=1");
        const QString excluded = site.baseUrl(host) + QStringLiteral("/private/doc");
        const QString outward =
            site.baseUrl(host) + QStringLiteral("/r?to=") +
            QString::fromUtf8(QUrl::toPercentEncoding(site.baseUrl(host) + QStringLiteral("/private/x")));
        const QString csv = m_dir.filePath(QStringLiteral("accept.csv"));
        const QStringList lines{page, soft404, excluded, outward};
        auto coordinator = startCoordinator(QStringLiteral("accept"),
                                            (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8(), csv,
                                            {QStringLiteral("--soft-404"), QStringLiteral("reject"),
                                             QStringLiteral("--exclude"), QStringLiteral("/private/")});
        QVERIFY(coordinator);
        auto worker = startWorker(QStringLiteral("accept"));
        QVERIFY2(waitFinished(*coordinator, 30000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY2(waitFinished(*worker, 10000), worker->err.constData());
        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 4);
        QCOMPARE(rows.value(page).value(clitest::Accepted), QStringLiteral("yes"));
        QCOMPARE(rows.value(page).value(clitest::Title), QStringLiteral("Crawlscope test page /page"));
        const QStringList soft = rows.value(soft404);
        QCOMPARE(soft.value(clitest::OutcomeCol), QStringLiteral("ok"));
        QCOMPARE(soft.value(clitest::Accepted), QStringLiteral("no"));
        QVERIFY2(soft.value(clitest::RejectReason).contains(QLatin1String("soft 404")),
                 qPrintable(soft.value(clitest::RejectReason)));
        QCOMPARE(soft.value(clitest::Title), QStringLiteral("Page not found"));
        const QStringList out = rows.value(excluded);
        QCOMPARE(out.value(clitest::OutcomeCol), QStringLiteral("excluded"));
        QVERIFY2(out.value(clitest::Error).contains(QLatin1String("--exclude")),
                 qPrintable(out.value(clitest::Error)));
        const QStringList redirect = rows.value(outward);
        QCOMPARE(redirect.value(clitest::OutcomeCol), QStringLiteral("excluded"));
        QVERIFY2(redirect.value(clitest::Error).contains(QLatin1String("not followed")),
                 qPrintable(redirect.value(clitest::Error)));
        // At the server: the page, the soft 404 and the redirect itself; nothing under /private/.
        QCOMPARE(site.totalRequests(), 3);
        for (const RequestRecord &r : site.requests(host))
            QVERIFY2(!r.target.startsWith(QLatin1String("/private/")), qPrintable(r.target));
    }

    // robots.txt on workers (issue 15): obeyed by default, as in a local crawl. Three workers on two hosts
    // whose robots.txt disallow a path: robots.txt is requested once per host (the first worker fetches it,
    // the others wait and read it from Redis), no disallowed URL reaches the server, and the blocked rows
    // name the rule; a Crawl-delay spaces the starts. `--robots report` fetches them and marks the rows;
    // `--robots ignore` just fetches them.
    void robotsObeyedOnWorkers() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString b = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QVERIFY(site.setRobotsTxt(a, testsite::RobotsTxt::text("User-agent: *\nDisallow: /private\n")));
        QVERIFY(site.setRobotsTxt(
            b, testsite::RobotsTxt::text("# rules\nUser-agent: other\nDisallow: /\n\nUser-agent: *\n"
                                         "Allow: /secret/open\nDisallow: /secret\nCrawl-delay: 0.2\n")));
        QStringList lines;
        QStringList blocked;
        for (int i = 0; i < 12; ++i) {
            lines << site.baseUrl(a) + QStringLiteral("/page/%1").arg(i)
                  << site.baseUrl(b) + QStringLiteral("/p/%1").arg(i);
            if (i % 3 == 0) {
                blocked << site.baseUrl(a) + QStringLiteral("/private/%1").arg(i)
                        << site.baseUrl(b) + QStringLiteral("/secret/%1").arg(i);
            }
        }
        lines << site.baseUrl(b) + QStringLiteral("/secret/open/1");
        lines += blocked;
        const QByteArray list = (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
        const QString input = m_dir.filePath(QStringLiteral("robots.txt"));
        QVERIFY(clitest::writeFile(input, list));
        const auto isRobots = [](const RequestRecord &r) { return r.target == QLatin1String("/robots.txt"); };
        const auto isDisallowed = [](const RequestRecord &r) {
            return r.target.startsWith(QLatin1String("/private")) ||
                   (r.target.startsWith(QLatin1String("/secret")) &&
                    !r.target.startsWith(QLatin1String("/secret/open")));
        };

        // No --robots flag: obey. Two per host, so workers lease a host's URLs while its robots.txt is
        // fetched.
        const QString csv = m_dir.filePath(QStringLiteral("robots-obey.csv"));
        auto coordinator = startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             clusterUrl(), QStringLiteral("--crawl"), QStringLiteral("robots-obey"),
             QStringLiteral("--output"), csv, QStringLiteral("--quiet"), QStringLiteral("--per-host"),
             QStringLiteral("2"), QStringLiteral("--interval-ms"), QStringLiteral("20")});
        std::vector<std::unique_ptr<Proc>> workers;
        for (int i = 0; i < 3; ++i)
            workers.push_back(startWorker(QStringLiteral("robots-obey")));
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        for (auto &worker : workers) {
            QVERIFY2(waitFinished(*worker, 10000), worker->err.constData());
            QVERIFY2(worker->process->exitCode() == 0, worker->err.constData());
        }
        int count = 0;
        QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, lines.size());
        for (const QString &url : lines) {
            const QStringList row = rows.value(url);
            if (!blocked.contains(url)) {
                QVERIFY2(row.value(clitest::OutcomeCol) == QLatin1String("ok"), qPrintable(url));
                continue;
            }
            QCOMPARE(row.value(clitest::OutcomeCol), QStringLiteral("blocked_robots"));
            QCOMPARE(row.value(clitest::Error),
                     url.contains(QLatin1String("/private/"))
                         ? QStringLiteral("Disallow: /private (robots.txt line 2)")
                         : QStringLiteral("Disallow: /secret (robots.txt line 7)"));
        }
        for (const QString &host : {a, b}) {
            const QList<RequestRecord> requests = site.requests(host);
            QCOMPARE(std::count_if(requests.begin(), requests.end(), isRobots), 1);
            for (const RequestRecord &r : requests)
                QVERIFY2(!isDisallowed(r), qPrintable(r.target));
        }
        // b's Crawl-delay spaces every worker's starts there (the shared budget's interval), from its
        // robots.txt fetch on; a's interval stays 20 ms.
        const QList<RequestRecord> starts = startsOf(site, b);
        for (qsizetype i = 1; i < starts.size(); ++i)
            QVERIFY2(starts[i].startNs - starts[i - 1].startNs >= 200 * kMs,
                     qPrintable(QStringLiteral("%1 ms before %2")
                                    .arg((starts[i].startNs - starts[i - 1].startNs) / kMs)
                                    .arg(starts[i].target)));
        QCOMPARE(site.totalRequests(), qint64(2 + lines.size() - blocked.size()));

        // --robots report: robots.txt fetched once more per host (a new crawl), every URL fetched, the
        // disallowed ones marked.
        const QString reportCsv = m_dir.filePath(QStringLiteral("robots-report.csv"));
        coordinator = startCoordinator(QStringLiteral("robots-report"), list, reportCsv,
                                       {QStringLiteral("--robots"), QStringLiteral("report"),
                                        QStringLiteral("--interval-ms"), QStringLiteral("20")});
        auto worker = startWorker(QStringLiteral("robots-report"));
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY2(waitFinished(*worker, 10000), worker->err.constData());
        rows = clitest::rowsByUrl(reportCsv, &count);
        QCOMPARE(count, lines.size());
        for (const QString &url : blocked) {
            const QStringList row = rows.value(url);
            QCOMPARE(row.value(clitest::OutcomeCol), QStringLiteral("ok"));
            QVERIFY2(row.value(clitest::Warning)
                         .startsWith(QLatin1String("robots.txt would block it: Disallow: /")),
                     qPrintable(row.value(clitest::Warning)));
        }
        for (const QString &host : {a, b}) {
            const QList<RequestRecord> requests = site.requests(host);
            QCOMPARE(std::count_if(requests.begin(), requests.end(), isRobots), 2);
        }
        qint64 before = site.totalRequests();
        QCOMPARE(before, qint64(2 * 2 + lines.size() - blocked.size() + lines.size()));

        // --robots ignore: robots.txt not requested, the disallowed URLs fetched.
        const QString ignoreCsv = m_dir.filePath(QStringLiteral("robots-ignore.csv"));
        coordinator = startCoordinator(QStringLiteral("robots-ignore"), list, ignoreCsv,
                                       {QStringLiteral("--interval-ms"), QStringLiteral("20")});
        worker = startWorker(QStringLiteral("robots-ignore"));
        QVERIFY2(waitFinished(*coordinator, 60000), coordinator->err.constData());
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        QVERIFY2(waitFinished(*worker, 10000), worker->err.constData());
        rows = clitest::rowsByUrl(ignoreCsv, &count);
        QCOMPARE(count, lines.size());
        for (const QString &url : blocked)
            QCOMPARE(rows.value(url).value(clitest::OutcomeCol), QStringLiteral("ok"));
        QCOMPARE(site.totalRequests(), before + lines.size());
        for (const QString &host : {a, b}) {
            const QList<RequestRecord> requests = site.requests(host);
            QCOMPARE(std::count_if(requests.begin(), requests.end(), isRobots), 2);
        }
    }

    // The password never reaches the output, and rediss:// to a plain Redis port is refused with the reason.
    void passwordNeverPrintedAndTlsRefused() {
        const clitest::Run bad = clitest::runCli(
            {QStringLiteral("--headless"), QStringLiteral("--worker"), QStringLiteral("--cluster"),
             QStringLiteral("redis://user:s3cr3t-pw@127.0.0.1:%1/0").arg(m_server.port()),
             QStringLiteral("--crawl"), QStringLiteral("nosuchcrawl")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(!bad.err.contains("s3cr3t-pw") && !bad.out.contains("s3cr3t-pw"), bad.err.constData());
        QVERIFY2(bad.err.contains("***"), bad.err.constData());
        const clitest::Run tls = clitest::runCli(
            {QStringLiteral("--headless"), QStringLiteral("--worker"), QStringLiteral("--cluster"),
             QStringLiteral("rediss://:pw-in-url@127.0.0.1:%1/0").arg(m_server.port())});
        QCOMPARE(tls.exitCode, 2);
        QVERIFY2(tls.err.contains("TLS") && !tls.err.contains("pw-in-url"), tls.err.constData());
    }

    // A second coordinator on a name in use is refused: a crawl is never taken over.
    void existingCrawlNameRefused() {
        RedisConnection connection(m_server.url());
        QVERIFY(ClusterQueue(connection, QStringLiteral("taken")).createCrawl({}));
        const QString input = m_dir.filePath(QStringLiteral("taken.txt"));
        QVERIFY(clitest::writeFile(input, "http://127.0.0.2:1/x\n"));
        const clitest::Run run = clitest::runCli(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             clusterUrl(), QStringLiteral("--crawl"), QStringLiteral("taken"), QStringLiteral("--output"),
             m_dir.filePath(QStringLiteral("taken.csv")), QStringLiteral("--robots"),
             QStringLiteral("ignore")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("already exists"), run.err.constData());
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("taken.csv"))));
    }
};

QTEST_GUILESS_MAIN(TestClusterCli)
#include "tst_clustercli.moc"
