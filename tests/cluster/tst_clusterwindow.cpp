// The window attached to a shared crawl (File > Attach to Cluster…): a real redis-server, a real
// coordinator and real worker processes (the crawlscope binary) against the loopback test site, and the
// window driven through its widgets. What is asserted is what the user sees (workers page, results table,
// dialog errors) and what the test site saw (the per-host peak after the window changed the limit).
#include "../core/clitestsupport.h"
#include "../ui/freshsettings.h"
#include "attachbydialog.h"
#include "cluster/clusterattachdialog.h"
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterqueue.h"
#include "cluster/clustersession.h"
#include "cluster/clusterwatcher.h"
#include "cluster/clusterwatchsnapshot.h"
#include "cluster/clusterworkersmodel.h"
#include "cluster/clusterworkerspage.h"
#include "cluster/redisconnection.h"
#include "crawlscopeprocess.h"
#include "engine/crawlengine.h"
#include "mainwindow.h"
#include "models/hostsmodel.h"
#include "models/resultsmodel.h"
#include "pages/mainactions.h"
#include "redistestserver.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace crawl;
using clustertest::attachByDialog;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {

using clustertest::CrawlscopeProcess;
using clustertest::startCrawlscope;
using clustertest::waitFinished;
using Proc = CrawlscopeProcess;

// Every text a user can read in `root` and its children (labels, fields, combo boxes, titles, tool tips).
QStringList visibleTexts(QWidget *root) {
    QStringList out{root->windowTitle(), root->toolTip()};
    for (QLabel *label : root->findChildren<QLabel *>())
        out << label->text() << label->toolTip();
    for (QLineEdit *edit : root->findChildren<QLineEdit *>())
        out << edit->text() << edit->placeholderText();
    for (QComboBox *box : root->findChildren<QComboBox *>()) {
        out << box->currentText();
        for (int i = 0; i < box->count(); ++i)
            out << box->itemText(i);
    }
    if (auto *window = qobject_cast<QMainWindow *>(root))
        out << window->statusBar()->currentMessage();
    return out;
}

bool anyContains(const QStringList &texts, const QString &secret) {
    for (const QString &text : texts)
        if (text.contains(secret))
            return true;
    return false;
}

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

class TestClusterWindow : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;

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
    // The crawl exists in Redis (the coordinator has created it and stored its limits).
    bool waitForCrawl(const QString &crawl) {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        return QTest::qWaitFor([&] { return queue.crawlExists() && queue.counts().enqueued > 0; }, 20'000);
    }
    static int rowOfPid(const ui::ClusterWorkersModel *model, qint64 pid) {
        const QString marker = QLatin1Char('-') + QString::number(pid) + QLatin1Char('-');
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->workers()[row].status.id.contains(marker))
                return row;
        return -1;
    }

private Q_SLOTS:
    void initTestCase() {
        uitest::useFreshSettings();
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    // Pure parts: a worker's machine from its id; dead after the lease lifetime without a heartbeat.
    void workerViews() {
        QCOMPARE(clusterWorkerHost(QStringLiteral("build-box-2-4242-9f3a")), QStringLiteral("build-box-2"));
        QCOMPARE(clusterWorkerHost(QStringLiteral("odd")), QStringLiteral("odd"));
        const QList<ClusterWorkerView> views =
            clusterWorkerViews({WorkerStatus{QStringLiteral("a-1-x"), 3, 2.5, 100'000},
                                WorkerStatus{QStringLiteral("b-2-y"), 4, 1.0, 89'000}},
                               100'000 + 500, kClusterWorkerDeadAfterMs);
        QCOMPARE(views.size(), 2);
        QVERIFY(!views[0].dead);
        QCOMPARE(views[0].heartbeatAgeMs, 500);
        QVERIFY(views[1].dead);
        QCOMPARE(views[1].status.inFlight, 0); // a dead worker's last report is not shown as live work
    }

    // The shared crawl's counts and budgets in the local snapshot's shape: progress, a paused host's
    // countdown on this machine's clock, the guard taken off the interval.
    void snapshotShape() {
        ClusterWatchSnapshot s;
        s.serverNowMs = 1'000'000;
        s.localMinusServerMs = 250;
        s.inputComplete = true;
        s.counts.enqueued = 10;
        s.counts.done = 4;
        s.counts.queued = 5;
        s.counts.leased = 1;
        s.limits.perHostInFlight = 2;
        s.limits.intervalMs = 140;
        ClusterHostRow paused{QStringLiteral("a:80"), {}};
        paused.status.pausedUntilMs = 1'003'000;
        paused.status.queued = 5;
        ClusterHostRow busy{QStringLiteral("b:80"), {}};
        busy.status.inFlight = 2;
        s.hosts = {busy, paused};
        const CrawlSnapshot c = toCrawlSnapshot(s, 40);
        QCOMPARE(c.state, CrawlState::Running);
        QCOMPARE(c.total, 10);
        QCOMPARE(c.done, 4);
        QCOMPARE(c.inFlight, 1);
        QCOMPARE(c.limits.intervalMs, 100);
        QCOMPARE(c.hosts.size(), 2);
        QCOMPARE(c.hosts[0].host, QStringLiteral("a:80"));
        QCOMPARE(c.hosts[0].state, HostState::BackingOff);
        QCOMPARE(c.hosts[0].stateUntilMs, 1'003'250);
        QCOMPARE(c.hosts[1].state, HostState::Busy);
        QVERIFY(!c.hosts[0].overridden);
        QCOMPARE(c.hosts[0].maxInFlight, 2);
        s.counts.done = 10;
        s.counts.queued = 0;
        s.counts.leased = 0;
        QCOMPARE(toCrawlSnapshot(s, 40).state, CrawlState::Finished);
        // A host's own limits replace the crawl's for it alone; the coordinator's input rows count as lines.
        s.hosts[1].overrideInFlight = 1; // a:80
        s.hosts[1].overrideIntervalMs = 540;
        s.hosts[0].overrideInFlight = 6; // b:80: its interval stays the crawl's
        s.counts.inputRows = 2;
        const CrawlSnapshot o = toCrawlSnapshot(s, 40);
        QVERIFY(o.hosts[0].overridden && o.hosts[1].overridden);
        QCOMPARE(o.hosts[0].maxInFlight, 1);
        QCOMPARE(o.hosts[0].intervalMs, 500);
        QCOMPARE(o.hosts[1].maxInFlight, 6);
        QCOMPARE(o.hosts[1].intervalMs, 100);
        QCOMPARE(o.total, 12);
        QCOMPARE(o.done, 12);
        QCOMPARE(o.state, CrawlState::Finished);
    }

    // The coordinator's trim keeps what a watching window has not read yet; a reader that stopped
    // refreshing its mark no longer holds the stream.
    void trimKeepsWhatALiveReaderHasNotRead() {
        RedisConnection connection(m_server.url());
        const QString name = QStringLiteral("trimreader");
        ClusterQueue queue(connection, name);
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, name).setLimits({10, 10, 0, 0, 0}));
        QList<ClusterUrl> urls;
        for (int i = 1; i <= 4; ++i)
            urls.append({QStringLiteral("http://h.test/%1").arg(i), QStringLiteral("http://h.test/%1").arg(i),
                         QStringLiteral("h.test:80"), i});
        QCOMPARE(queue.enqueue(urls, "b").added, 4);
        QList<QByteArray> ids;
        for (int i = 1; i <= 4; ++i) {
            const QByteArray lease = "T:" + QByteArray::number(i);
            QVERIFY(queue.lease("T", lease, 10'000).lease);
            const AckResult ack = queue.acknowledge("T", lease, {{"outcome", "ok"}, {"status", "200"}});
            QVERIFY(ack.accepted);
            ids.append(ack.streamId);
        }
        // The window has read the first row; the coordinator has written three.
        QVERIFY(queue.markReader("window-1", ids[0], 30'000));
        QCOMPARE(queue.trimResults(ids[2]), 1);
        QList<ClusterResultRecord> left = queue.readResults({}, 10);
        QCOMPARE(left.size(), 3);
        QCOMPARE(left.first().streamId, ids[1]);
        // A reader that has read nothing yet holds everything there is.
        QVERIFY(queue.markReader("window-2", {}, 30'000));
        QCOMPARE(queue.trimResults(ids[3]), 0);
        QVERIFY(queue.dropReader("window-2"));
        // Marks that expired are dropped by the trim and hold nothing.
        QVERIFY(queue.markReader("window-1", ids[0], 1));
        QTest::qWait(20);
        QCOMPARE(queue.trimResults(ids[3]), 3);
        QCOMPARE(queue.readResults({}, 10).size(), 0);
        QCOMPARE(connection.command({"HLEN", clusterKeyPrefix(name) + "readers"}).toInteger(), 0);
    }

    // Rows lost to this reader: the stream is a suffix of every row added, so a gap exists only when its
    // first row comes after the last one read.
    void rowsTrimmedUnreadCountsOnlyAGap() {
        QVERIFY(ClusterWatcher::streamIdLess("5-1", "5-2"));
        QVERIFY(ClusterWatcher::streamIdLess("9-9", "10-0")); // numbers, not text
        QVERIFY(!ClusterWatcher::streamIdLess("10-0", "10-0"));
        // Attached after a trim: 10 added, 4 left, none read -> 6 missed.
        QCOMPARE(ClusterWatcher::rowsTrimmedUnread(10, 4, 0, "7-0", {}), 6);
        // Still holds the last row read: nothing missed, whatever the counts say.
        QCOMPARE(ClusterWatcher::rowsTrimmedUnread(10, 4, 0, "7-0", "7-0"), 0);
        QCOMPARE(ClusterWatcher::rowsTrimmedUnread(10, 4, 3, "7-0", "8-0"), 0);
        // Read 3, then the mark expired and the next 5 were trimmed: 2 left after them.
        QCOMPARE(ClusterWatcher::rowsTrimmedUnread(10, 2, 3, "9-0", "3-0"), 5);
        // Everything read, then trimmed (the coordinator's normal trim): nothing missed.
        QCOMPARE(ClusterWatcher::rowsTrimmedUnread(10, 0, 10, {}, "9-0"), 0);
        // Everything trimmed before any read.
        QCOMPARE(ClusterWatcher::rowsTrimmedUnread(10, 0, 0, {}, {}), 10);
        QCOMPARE(ClusterWatcher::rowsTrimmedUnread(0, 0, 0, {}, {}), 0);
    }

    // A window attached after the coordinator trimmed rows says how many it will never show.
    void attachAfterATrimSaysWhatWasMissed() {
        RedisConnection connection(m_server.url());
        const QString name = QStringLiteral("trimmedbefore");
        ClusterQueue queue(connection, name);
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, name).setLimits({10, 10, 0, 0, 0}));
        QList<ClusterUrl> urls;
        for (int i = 1; i <= 4; ++i)
            urls.append({QStringLiteral("http://h.test/%1").arg(i), QStringLiteral("http://h.test/%1").arg(i),
                         QStringLiteral("h.test:80"), i});
        QCOMPARE(queue.enqueue(urls, "b").added, 4);
        QList<QByteArray> ids;
        for (int i = 1; i <= 4; ++i) {
            const QByteArray lease = "T:" + QByteArray::number(i);
            QVERIFY(queue.lease("T", lease, 10'000).lease);
            const AckResult ack = queue.acknowledge("T", lease, {{"outcome", "ok"}, {"status", "200"}});
            QVERIFY(ack.accepted);
            ids.append(ack.streamId);
        }
        QCOMPARE(queue.trimResults(ids[2]), 3); // no reader yet: the coordinator committed three
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        QSignalSpy missed(window.clusterSession(), &ui::ClusterSession::rowsMissed);
        window.attachToCluster(m_server.url(), name);
        QVERIFY(missed.wait(10'000));
        QCOMPARE(missed.last().at(0).toLongLong(), 3);
        QVERIFY2(window.statusBar()->currentMessage().contains(
                     QStringLiteral("3 rows were written before this window read them")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(QTest::qWaitFor([&] { return window.resultsView()->model()->rowCount() == 1; }, 10'000));
        // Said once: the reads of two more polls find no new gap.
        QSignalSpy snapshots(window.clusterSession(), &ui::ClusterSession::clusterSnapshot);
        QVERIFY(QTest::qWaitFor([&] { return snapshots.size() >= 2; }, 10'000));
        QCOMPARE(missed.size(), 1);
        window.detachFromCluster();
    }

    // A Redis that stops answering (SIGSTOP: a hung server, a blackholed link) does not keep the window
    // from closing; the watcher's thread ends on its own once the call in hand gives up.
    void closingWithAHungRedisIsPrompt() {
        RedisTestServer redis;
        REDIS_TEST_SERVER_START(redis);
        auto session = std::make_unique<ui::ClusterSession>();
        QSignalSpy snapshots(session.get(), &ui::ClusterSession::clusterSnapshot);
        session->attach(redis.url(), QStringLiteral("nosuchcrawl"));
        QVERIFY(snapshots.wait(10'000));
        ::kill(pid_t(redis.pid()), SIGSTOP);
        // The next poll (every second) is now stuck on the frozen server.
        QTest::qWait(1'500);
        QElapsedTimer closing;
        closing.start();
        session.reset();
        const qint64 tookMs = closing.elapsed();
        ::kill(pid_t(redis.pid()), SIGCONT);
        qInfo("the session took %lld ms to close", tookMs);
        QVERIFY2(tookMs < 1'000, "closing the window waited on a hung Redis");
        // Nothing leaks: the abandoned watcher finishes its call and deletes itself and its thread.
        QVERIFY(QTest::qWaitFor([] { return ClusterWatcher::liveCount() == 0; }, 15'000));
    }

    // The window's own host overrides (a local crawl's, or a resumed crawl file's) are not the shared
    // crawl's: the first host limit set while attached must not push them to every worker. Detached, the
    // window has its own back.
    void attachDoesNotShareStaleLocalOverrides() {
        const QString name = QStringLiteral("stale");
        RedisConnection connection(m_server.url());
        QVERIFY(ClusterQueue(connection, name).createCrawl({}));
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        CrawlLimits local;
        local.hostOverrides.insert(QStringLiteral("stale.test:80"), HostOverride{64, 0});
        window.setLimits(local, FetchPolicy{});
        window.attachToCluster(m_server.url(), name);
        QVERIFY(QTest::qWaitFor([&] { return window.clusterSession()->lastSnapshot().connected; }, 10'000));
        QSignalSpy written(window.clusterSession(), &ui::ClusterSession::limitsWritten);
        window.setHostOverride(QStringLiteral("h.test:80"), HostOverride{1, 1000});
        QVERIFY(written.wait(5'000));
        QVERIFY(written.last().at(0).toBool());
        const QByteArray prefix = clusterKeyPrefix(name);
        QCOMPARE(connection.command({"HGET", prefix + "host:h.test:80", "o_inflight"}).text, QByteArray("1"));
        QVERIFY2(connection.command({"HGET", prefix + "host:stale.test:80", "o_inflight"}).text.isEmpty(),
                 "a host override the user never set for the shared crawl reached every worker");
        window.detachFromCluster();
        const QHash<QString, HostOverride> back = window.engine()->limits().hostOverrides;
        QVERIFY(back.contains(QStringLiteral("stale.test:80")));
        QCOMPARE(back.value(QStringLiteral("stale.test:80")).maxInFlight, 64);
        QVERIFY(!back.contains(QStringLiteral("h.test:80"))); // the shared crawl's stays there
    }

    // Redis stopped under an attached window: it says "disconnected, retrying" and comes back by itself
    // once Redis is back; the window never waits for it.
    void redisGoingAwayIsShownAndRecovered() {
        RedisTestServer server;
        REDIS_TEST_SERVER_START(server);
        {
            RedisConnection connection(server.url());
            QVERIFY(ClusterQueue(connection, QStringLiteral("restarting")).createCrawl({}));
        }
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(attachByDialog(window, QStringLiteral("redis://127.0.0.1:%1/0").arg(server.port()),
                               QStringLiteral("restarting")));
        QLabel *status = window.workersPage()->statusLabel();
        QVERIFY(QTest::qWaitFor([&] { return status->text().contains(QStringLiteral("0 of 0")); }, 10'000));
        server.stop();
        QVERIFY2(
            QTest::qWaitFor([&] { return status->text().contains(QStringLiteral("disconnected, retrying")); },
                            10'000),
            qPrintable(status->text()));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("disconnected, retrying")));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QVERIFY2(QTest::qWaitFor([&] { return status->text().contains(QStringLiteral("0 of 0")); }, 15'000),
                 qPrintable(status->text()));
        window.detachFromCluster();
    }

    // A host's own limits chosen in the window while attached become that host's shared override (as
    // --host-limit stores it, the interval with its guard); removed, the host follows the crawl's limits.
    void hostOverrideIsShared() {
        const QString name = QStringLiteral("overrides");
        RedisConnection connection(m_server.url());
        QVERIFY(ClusterQueue(connection, name).createCrawl({}));
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(attachByDialog(window, clusterUrl(), name));
        QVERIFY(QTest::qWaitFor([&] { return window.clusterSession()->lastSnapshot().connected; }, 10'000));
        const QByteArray hostKey = clusterKeyPrefix(name) + "host:h.test:80";
        const auto field = [&](const char *key) { return connection.command({"HGET", hostKey, key}).text; };
        QSignalSpy written(window.clusterSession(), &ui::ClusterSession::limitsWritten);
        window.setHostOverride(QStringLiteral("h.test:80"), HostOverride{2, 100});
        QVERIFY(written.wait(5'000));
        QVERIFY(written.last().at(0).toBool());
        QCOMPARE(field("o_inflight"), QByteArray("2"));
        QCOMPARE(field("o_interval"), QByteArray("140"));
        window.setHostOverride(QStringLiteral("h.test:80"), std::nullopt);
        QVERIFY(written.wait(5'000));
        QVERIFY(field("o_inflight").isEmpty());
        QVERIFY(field("o_interval").isEmpty());
        window.detachFromCluster();
    }

    // Attached through the dialog before two real workers start: the workers page lists both alive, and
    // the Results table gets exactly the rows the coordinator's CSV gets (the window's reader mark keeps
    // the coordinator from trimming rows the window has not read).
    void attachShowsWorkersAndEveryResult() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString b = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        const QByteArray list = site.urlList(a, 30, QStringLiteral("/a%1?ms=60")) +
                                site.urlList(b, 30, QStringLiteral("/b%1?ms=60")) +
                                (site.baseUrl(b) + QStringLiteral("/gone?status=404\n")).toUtf8();
        const QString csv = m_dir.filePath(QStringLiteral("watched.csv"));
        auto coordinator = startCoordinator(QStringLiteral("watched"), list, csv,
                                            {QStringLiteral("--per-host"), QStringLiteral("2")});
        QVERIFY(coordinator);
        QVERIFY(waitForCrawl(QStringLiteral("watched")));

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(attachByDialog(window, clusterUrl(), QStringLiteral("watched")));
        QVERIFY(window.findChild<QAction *>(QStringLiteral("detachCluster"))->isEnabled());
        QVERIFY(window.tabs()->indexOf(window.workersPage()) >= 0);

        auto w1 = startWorker(QStringLiteral("watched"));
        auto w2 = startWorker(QStringLiteral("watched"));
        ui::ClusterWorkersModel *workers = window.workersPage()->model();
        QVERIFY2(
            QTest::qWaitFor([&] { return workers->rowCount() == 2 && workers->aliveCount() == 2; }, 20'000),
            qPrintable(window.workersPage()->statusLabel()->text()));
        QVERIFY(rowOfPid(workers, w1->process->processId()) >= 0);
        QVERIFY(rowOfPid(workers, w2->process->processId()) >= 0);
        QCOMPARE(workers->data(workers->index(0, ui::ClusterWorkersModel::State)).toString(),
                 QStringLiteral("alive"));
        // Attached: no local crawl may start meanwhile.
        QVERIFY(!window.findChild<ui::MainActions *>()->start->isEnabled());

        QVERIFY2(waitFinished(*coordinator, 90'000), coordinator->err.constData());
        QCOMPARE(coordinator->process->exitCode(), 0);
        bool ok = false;
        const QList<QStringList> rows = clitest::parseCsv(clitest::readFile(csv), &ok);
        QVERIFY(ok);
        const int csvRows = int(rows.size()) - 1;
        QCOMPARE(csvRows, 61);
        QVERIFY2(QTest::qWaitFor([&] { return window.resultsModel()->rowCount() == csvRows; }, 15'000),
                 qPrintable(QString::number(window.resultsModel()->rowCount())));
        QCOMPARE(window.resultsModel()->failureCount(), 1); // the 404
        QTest::qWait(600); // a late repeat would show up here: one row per URL, still
        QCOMPARE(window.resultsModel()->rowCount(), csvRows);

        QVERIFY(waitFinished(*w1, 30'000));
        QVERIFY(waitFinished(*w2, 30'000));
        window.detachFromCluster();
        QVERIFY(!window.clusterSession()->isAttached());
        QVERIFY(window.tabs()->indexOf(window.workersPage()) < 0);
    }

    // Invalid input lines reach the attached window as they reach a local crawl's: rows with outcome
    // invalid_url, their line number and reason, in Results and Failures, counted in the progress; each
    // one once, the same row as the coordinator's CSV.
    void invalidLinesShownInAttachedWindow() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QByteArray list = site.urlList(a, 4, QStringLiteral("/v%1")) + "not a url\n" +
                                site.urlList(a, 2, QStringLiteral("/w%1")) + "http://bad host/x\n";
        const QString csv = m_dir.filePath(QStringLiteral("invalid.csv"));
        auto coordinator = startCoordinator(QStringLiteral("invalid"), list, csv,
                                            {QStringLiteral("--per-host"), QStringLiteral("2")});
        QVERIFY(coordinator);
        QVERIFY(waitForCrawl(QStringLiteral("invalid")));
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(attachByDialog(window, clusterUrl(), QStringLiteral("invalid")));
        auto worker = startWorker(QStringLiteral("invalid"));
        QVERIFY2(waitFinished(*coordinator, 60'000), coordinator->err.constData());
        QCOMPARE(coordinator->process->exitCode(), 0);
        int count = 0;
        const QHash<QString, QStringList> csvRows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 8);
        ui::ResultsModel *results = window.resultsModel();
        QVERIFY2(QTest::qWaitFor([&] { return results->rowCount() == count; }, 15'000),
                 qPrintable(QString::number(results->rowCount())));
        QCOMPARE(results->outcomeCount(Outcome::InvalidUrl), 2);
        const QList<QPair<QString, qint64>> invalid{{QStringLiteral("not a url"), 5},
                                                    {QStringLiteral("http://bad host/x"), 8}};
        for (const auto &[line, number] : invalid) {
            const QStringList csvRow = csvRows.value(line);
            QCOMPARE(csvRow.value(clitest::OutcomeCol), QStringLiteral("invalid_url"));
            bool found = false;
            for (int row = 0; row < results->rowCount(); ++row) {
                const CrawlResult r = results->result(row);
                if (r.url != line)
                    continue;
                found = true;
                QCOMPARE(r.outcome, Outcome::InvalidUrl);
                QCOMPARE(r.error, csvRow.value(clitest::Error));
                QVERIFY(!r.error.isEmpty());
                QCOMPARE(r.lineNumber, number); // the Line column, as a local crawl's row
            }
            QVERIFY2(found, qPrintable(line));
        }
        // The Failures tab lists them, as a local crawl's does.
        QAbstractItemModel *failures = window.failuresView()->model();
        QVERIFY(QTest::qWaitFor([&] { return failures->rowCount() == 2; }, 5'000));
        for (int row = 0; row < failures->rowCount(); ++row)
            QCOMPARE(failures->data(failures->index(row, ui::ResultsModel::OutcomeColumn)).toString(),
                     QStringLiteral("invalid_url"));
        // Every line counted, the invalid ones too: 8 of 8.
        QVERIFY(QTest::qWaitFor(
            [&] {
                const CrawlSnapshot s = toCrawlSnapshot(window.clusterSession()->lastSnapshot(), 0);
                return s.total == 8 && s.done == 8;
            },
            5'000));
        QTest::qWait(600); // a repeat would show up here: each line once
        QCOMPARE(results->rowCount(), count);
        QVERIFY(waitFinished(*worker, 30'000));
        window.detachFromCluster();
    }

    // The Hosts tab shows each host's own limits where an override applies (--cluster-set's --host-limit,
    // the window's own per-host limit) with the override mark, and the crawl's limits elsewhere.
    void hostsTableShowsEachHostsLimit() {
        const QString a = QStringLiteral("a.test:80");
        const QString b = QStringLiteral("b.test:80");
        const QString c = QStringLiteral("c.test:80");
        QByteArray list;
        for (const QString &host : {a, b, c})
            for (int i = 0; i < 3; ++i)
                list += "http://" + host.toUtf8() + "/p" + QByteArray::number(i) + '\n';
        const QString csv = m_dir.filePath(QStringLiteral("overridden.csv"));
        auto coordinator = startCoordinator(QStringLiteral("overridden"), list, csv,
                                            {QStringLiteral("--per-host"), QStringLiteral("2"),
                                             QStringLiteral("--interval-ms"), QStringLiteral("100")});
        QVERIFY(coordinator);
        QVERIFY(waitForCrawl(QStringLiteral("overridden")));
        // No worker: the hosts stay queued while the window looks. An override set by --cluster-set.
        const clitest::Run set =
            clitest::runCli({QStringLiteral("--cluster"), clusterUrl(), QStringLiteral("--crawl"),
                             QStringLiteral("overridden"), QStringLiteral("--cluster-set"),
                             QStringLiteral("--host-limit"), a + QStringLiteral("=1/300")});
        QVERIFY2(set.exitCode == 0, set.err.constData());

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(attachByDialog(window, clusterUrl(), QStringLiteral("overridden")));
        ui::HostsModel *hosts = window.hostsModel();
        const auto hostRow = [&](const QString &host) {
            const int row = hosts->rowForHost(host);
            return row >= 0 ? hosts->host(row) : HostSnapshot{};
        };
        const auto inFlightText = [&](const QString &host) {
            return hosts->data(hosts->index(hosts->rowForHost(host), ui::HostsModel::InFlightColumn))
                .toString();
        };
        QVERIFY(
            QTest::qWaitFor([&] { return hosts->rowForHost(c) >= 0 && hosts->rowForHost(a) >= 0; }, 10'000));
        QVERIFY(hostRow(a).overridden);
        QCOMPARE(hostRow(a).maxInFlight, 1);
        QCOMPARE(hostRow(a).intervalMs, 300);
        QCOMPARE(inFlightText(a), QStringLiteral("0 / 1"));
        QVERIFY(hosts->data(hosts->index(hosts->rowForHost(a), ui::HostsModel::HostColumn))
                    .toString()
                    .contains(QStringLiteral("override")));
        for (const QString &host : {b, c}) {
            QVERIFY(!hostRow(host).overridden);
            QCOMPARE(hostRow(host).maxInFlight, 2);
            QCOMPARE(hostRow(host).intervalMs, 100);
            QCOMPARE(inFlightText(host), QStringLiteral("0 / 2"));
            QVERIFY(!hosts->data(hosts->index(hosts->rowForHost(host), ui::HostsModel::HostColumn))
                         .toString()
                         .contains(QStringLiteral("override")));
        }

        // The window's own per-host limit for b: shown for b only, a keeps its own, c the crawl's.
        QSignalSpy written(window.clusterSession(), &ui::ClusterSession::limitsWritten);
        window.setHostOverride(b, HostOverride{3, 250});
        QVERIFY(written.wait(5'000));
        QVERIFY(written.last().at(0).toBool());
        QVERIFY(QTest::qWaitFor([&] { return hostRow(b).maxInFlight == 3; }, 5'000));
        QVERIFY(hostRow(b).overridden);
        QCOMPARE(hostRow(b).intervalMs, 250);
        QCOMPARE(inFlightText(b), QStringLiteral("0 / 3"));
        QCOMPARE(hostRow(a).maxInFlight, 1);
        QVERIFY(!hostRow(c).overridden);
        QCOMPARE(hostRow(c).maxInFlight, 2);
        window.detachFromCluster();
        coordinator->process->terminate();
        QVERIFY(waitFinished(*coordinator, 20'000));
    }

    // SIGKILL one of two workers: the workers page calls it dead within the lease lifetime (plus a poll),
    // the other stays alive.
    void killedWorkerShowsDead() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QString csv = m_dir.filePath(QStringLiteral("killed.csv"));
        auto coordinator =
            startCoordinator(QStringLiteral("killed"), site.urlList(a, 80, QStringLiteral("/k%1?ms=300")),
                             csv, {QStringLiteral("--per-host"), QStringLiteral("2")});
        QVERIFY(coordinator);
        QVERIFY(waitForCrawl(QStringLiteral("killed")));
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(attachByDialog(window, clusterUrl(), QStringLiteral("killed")));
        auto w1 = startWorker(QStringLiteral("killed"));
        auto w2 = startWorker(QStringLiteral("killed"));
        ui::ClusterWorkersModel *workers = window.workersPage()->model();
        QVERIFY(
            QTest::qWaitFor([&] { return workers->rowCount() == 2 && workers->aliveCount() == 2; }, 20'000));
        const qint64 killedPid = w1->process->processId();
        const qint64 alivePid = w2->process->processId();
        QElapsedTimer since;
        since.start();
        w1->process->kill(); // SIGKILL: no goodbye, the heartbeats just stop
        QVERIFY(w1->process->waitForFinished(5000));
        const auto isDead = [&](qint64 pid) {
            const int row = rowOfPid(workers, pid);
            return row >= 0 && workers->workers()[row].dead;
        };
        QVERIFY(QTest::qWaitFor([&] { return isDead(killedPid); }, int(kClusterWorkerDeadAfterMs) + 5'000));
        QVERIFY2(since.elapsed() >= kClusterWorkerDeadAfterMs - 1'500, "dead before the timeout");
        const int row = rowOfPid(workers, killedPid);
        QCOMPARE(workers->data(workers->index(row, ui::ClusterWorkersModel::State)).toString(),
                 QStringLiteral("dead"));
        QVERIFY(!isDead(alivePid));
        QCOMPARE(workers->aliveCount(), 1);
        QVERIFY(window.workersPage()->statusLabel()->text().contains(QStringLiteral("1 of 2")));
        window.detachFromCluster();
        w2->process->terminate();
        coordinator->process->terminate();
        QVERIFY(waitFinished(*w2, 20'000));
        QVERIFY(waitFinished(*coordinator, 20'000));
    }

    // The per-host limit typed into the Limits panel while attached becomes the shared limit: the test
    // site sees 1 in flight before and 3 after, whichever worker sends the request.
    void limitsPanelSteersEveryWorker() {
        TestSite site;
        const QString a = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!a.isEmpty());
        const QString csv = m_dir.filePath(QStringLiteral("steered.csv"));
        auto coordinator = startCoordinator(
            QStringLiteral("steered"), site.urlList(a, 40, QStringLiteral("/s%1?ms=400")), csv,
            {QStringLiteral("--per-host"), QStringLiteral("1"), QStringLiteral("--interval-ms"),
             QStringLiteral("0")}); // unpaced: only the in-flight limit bounds the host
        QVERIFY(coordinator);
        QVERIFY(waitForCrawl(QStringLiteral("steered")));
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(attachByDialog(window, clusterUrl(), QStringLiteral("steered")));
        ui::LimitsPanel *panel = window.limitsPanel();
        // The panel shows the shared limits once the first snapshot is in.
        QVERIFY(QTest::qWaitFor([&] { return window.clusterSession()->lastSnapshot().connected; }, 10'000));
        QCOMPARE(panel->perHostInFlight()->value(), 1);
        QCOMPARE(panel->interval()->value(), 0);
        auto w1 = startWorker(QStringLiteral("steered"));
        auto w2 = startWorker(QStringLiteral("steered"));
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(a).requests >= 3; }, 20'000));
        QCOMPARE(site.hostRecord(a).peakInFlight, 1);

        QSignalSpy written(window.clusterSession(), &ui::ClusterSession::limitsWritten);
        QSpinBox *spin = panel->perHostInFlight()->spinBox();
        window.activateWindow();
        spin->setFocus(Qt::MouseFocusReason);
        QTRY_VERIFY(spin->hasFocus());
        QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(spin, QStringLiteral("3"));
        QTest::keyClick(spin, Qt::Key_Return);
        QVERIFY(written.wait(5'000));
        QVERIFY(written.first().at(0).toBool());
        const qint64 changedNs = TestSite::nowNs();
        {
            RedisConnection connection(m_server.url());
            QCOMPARE(ClusterHostBudget(connection, QStringLiteral("steered")).limits()->perHostInFlight, 3);
        }
        QVERIFY2(waitFinished(*coordinator, 90'000), coordinator->err.constData());
        QCOMPARE(coordinator->process->exitCode(), 0);
        QList<RequestRecord> before, after;
        for (const RequestRecord &r : site.requests(a))
            (r.startNs < changedNs ? before : after).append(r);
        QCOMPARE(peakOf(before), 1);
        QCOMPARE(peakOf(after), 3); // reached, never exceeded, by two workers together
        window.detachFromCluster();
        QVERIFY(waitFinished(*w1, 30'000));
        QVERIFY(waitFinished(*w2, 30'000));
    }

    // Wrong password, closed port, unknown crawl, rediss://: a clear error in the dialog, the dialog stays
    // open, nothing attached, and the password appears nowhere in the dialog or the window.
    void dialogErrorsNeverShowThePassword() {
        RedisTestServer guarded;
        REDIS_TEST_SERVER_START(guarded, {QStringLiteral("--requirepass"), QStringLiteral("right-horse-9")});
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        ui::ClusterAttachDialog *dialog = window.showAttachToCluster();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QSignalSpy answered(dialog, &ui::ClusterAttachDialog::probeFinished);
        const auto tryAttach = [&](const QString &url, const QString &crawl) {
            answered.clear();
            dialog->urlEdit()->clear();
            QTest::keyClicks(dialog->urlEdit(), url);
            dialog->crawlBox()->lineEdit()->clear();
            QTest::keyClicks(dialog->crawlBox()->lineEdit(), crawl);
            QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
            return answered.wait(15'000) || !answered.isEmpty();
        };
        const QString secret = QStringLiteral("wrong-zebra-7");

        QVERIFY(tryAttach(QStringLiteral("redis://:%1@127.0.0.1:%2/0").arg(secret).arg(guarded.port()),
                          QStringLiteral("any")));
        QVERIFY2(dialog->errorLabel()->text().contains(QStringLiteral("refused")) ||
                     dialog->errorLabel()->text().contains(QStringLiteral("WRONGPASS")),
                 qPrintable(dialog->errorLabel()->text()));
        QVERIFY(dialog->isVisible());
        QVERIFY(!window.clusterSession()->isAttached());
        QVERIFY(!anyContains(visibleTexts(dialog) + visibleTexts(&window), secret));
        QVERIFY(dialog->urlEdit()->text().contains(QStringLiteral(":***@")));

        // No password in the URL, a wrong one in the environment: refused, and not shown either.
        qputenv(RedisUrl::kPasswordVariable, "env-wrong-otter-3");
        QVERIFY(
            tryAttach(QStringLiteral("redis://127.0.0.1:%1/0").arg(guarded.port()), QStringLiteral("any")));
        qunsetenv(RedisUrl::kPasswordVariable);
        QVERIFY(!dialog->errorLabel()->text().isEmpty());
        QVERIFY(
            !anyContains(visibleTexts(dialog) + visibleTexts(&window), QStringLiteral("env-wrong-otter-3")));

        // The right password, a crawl that is not there: named as unknown.
        QVERIFY(tryAttach(QStringLiteral("redis://:right-horse-9@127.0.0.1:%1/0").arg(guarded.port()),
                          QStringLiteral("nosuchcrawl")));
        QVERIFY2(dialog->errorLabel()->text().contains(QStringLiteral("no crawl named \"nosuchcrawl\"")),
                 qPrintable(dialog->errorLabel()->text()));
        QVERIFY(!anyContains(visibleTexts(dialog) + visibleTexts(&window), QStringLiteral("right-horse-9")));

        // A closed port.
        quint16 closed = 0;
        {
            QTcpServer probe; // a port nobody listens on once it is closed
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            closed = probe.serverPort();
        }
        QVERIFY(tryAttach(QStringLiteral("redis://:%1@127.0.0.1:%2/0").arg(secret).arg(closed),
                          QStringLiteral("any")));
        QVERIFY2(dialog->errorLabel()->text().contains(QStringLiteral("cannot connect")),
                 qPrintable(dialog->errorLabel()->text()));
        QVERIFY(!anyContains(visibleTexts(dialog) + visibleTexts(&window), secret));

        // rediss:// to a plain Redis port is refused with the reason (no TLS there).
        QVERIFY(tryAttach(QStringLiteral("rediss://:%1@127.0.0.1:%2/0").arg(secret).arg(guarded.port()),
                          QStringLiteral("any")));
        QVERIFY(dialog->errorLabel()->text().contains(QStringLiteral("TLS")));
        QVERIFY(!anyContains(visibleTexts(dialog) + visibleTexts(&window), secret));
        QVERIFY(!window.clusterSession()->isAttached());
        dialog->reject();
    }
};

QTEST_MAIN(TestClusterWindow)
#include "tst_clusterwindow.moc"
