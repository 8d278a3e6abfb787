// The Hosts tab's context menu in a window attached to a shared crawl: Pause, Resume, Skip Remaining URLs
// and Resume Tripped Host act for every worker, through Redis (ClusterHostBudget::hostAction). First the
// script against redis-server with explicit times, then the real window, coordinator and worker against the
// loopback test site, asserting what the site saw and what the coordinator's CSV holds.
#include "../core/clitestsupport.h"
#include "../ui/freshsettings.h"
#include "attachbydialog.h"
#include "cluster/clusterattachdialog.h"
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterqueue.h"
#include "cluster/clustersession.h"
#include "cluster/redisconnection.h"
#include "crawlscopeprocess.h"
#include "input/urlnormalizer.h"
#include "mainwindow.h"
#include "model/cancelreason.h"
#include "models/hostsmodel.h"
#include "redistestserver.h"
#include "testsite.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace crawl;
using clustertest::attachByDialog;
using testsite::RequestRecord;
using testsite::TestSite;

namespace {

using clustertest::startCrawlscope;
using clustertest::waitFinished;

ClusterUrl clusterUrl(const QString &text, qint64 line) {
    const NormalizedUrl normalized = normalizeUrl(text);
    return {text, normalized.text, normalized.hostKey, line};
}

const QList<QPair<QByteArray, QByteArray>> kOkResult{{"outcome", "ok"}, {"status", "200"}};
constexpr int kServerError = 3; // AttemptHealth::ServerError

// Right-clicks `host`'s row in the Hosts table and clicks the menu entry whose text starts with `entry`.
// False when the row or the entry is missing, or the entry is disabled.
bool chooseFromHostMenu(QTableView *hosts, const QString &host, const QString &entry) {
    int row = -1;
    for (int r = 0; r < hosts->model()->rowCount(); ++r) {
        if (hosts->model()
                ->index(r, ui::HostsModel::HostColumn)
                .data(ui::HostsModel::HostKeyRole)
                .toString() == host)
            row = r;
    }
    if (row < 0)
        return false;
    bool clicked = false;
    QTimer::singleShot(0, hosts, [&clicked, entry] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (!menu)
            return;
        const QList<QAction *> actions = menu->actions();
        for (QAction *action : actions) {
            if (action->text().startsWith(entry) && action->isEnabled()) {
                clicked = true;
                QTest::mouseClick(menu, Qt::LeftButton, Qt::NoModifier,
                                  menu->actionGeometry(action).center());
                return;
            }
        }
        menu->close();
    });
    const QRect rect = hosts->visualRect(hosts->model()->index(row, ui::HostsModel::HostColumn));
    QContextMenuEvent event(QContextMenuEvent::Mouse, rect.center(),
                            hosts->viewport()->mapToGlobal(rect.center()));
    QApplication::sendEvent(hosts->viewport(), &event);
    return clicked;
}

qsizetype startsAfter(const QList<RequestRecord> &records, qint64 ns) {
    return std::count_if(records.cbegin(), records.cend(),
                         [ns](const RequestRecord &r) { return r.startNs > ns; });
}

} // namespace

class TestClusterHostActions : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;
    QTemporaryDir m_dir;

    QString redisUrl() const { return QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()); }

private Q_SLOTS:
    void initTestCase() {
        uitest::useFreshSettings();
        REDIS_TEST_SERVER_START(m_server);
        QVERIFY(m_dir.isValid());
    }

    // The script alone: pause holds the host for every worker until resumed; skip hands its URLs out as
    // user skips (no slot, no attempt), retries waiting included; reset closes a tripped or given-up breaker.
    void scriptPausesSkipsAndResets() {
        RedisConnection connection(m_server.url());
        const QString crawl = QStringLiteral("actions");
        ClusterQueue queue(connection, crawl);
        QVERIFY(queue.createCrawl({}));
        ClusterHostBudget budget(connection, crawl);
        QVERIFY(budget.setLimits({10, 1, 0, 0, 0}));
        QList<ClusterUrl> urls;
        for (int i = 0; i < 4; ++i)
            urls << clusterUrl(QStringLiteral("http://p.test/%1").arg(i), i + 1);
        queue.enqueue(urls, "b", 0);
        const QString host = QStringLiteral("p.test:80");
        const auto rowOf = [&](qint64 now) {
            QByteArray cursor = "0";
            for (const ClusterHostRow &row : queue.hostsPage("0", 100, &cursor, now))
                if (row.host == host)
                    return row;
            return ClusterHostRow{};
        };

        QCOMPARE(budget.hostAction(QStringLiteral("nowhere.test:80"), HostAction::Pause, 1'000), false);
        QCOMPARE(budget.hostAction(host, HostAction::Pause, 1'000), true);
        QVERIFY(rowOf(1'000).status.pausedByUser);
        QVERIFY(!queue.lease("A", "A:1", 5'000, 1'010).lease);
        QVERIFY(!queue.lease("B", "B:1", 5'000, 9'000).lease); // however long it waits
        QCOMPARE(budget.tryStart(host, "hop", 5'000, 9'000).reason, StartDecision::Reason::PausedByUser);
        QCOMPARE(budget.hostAction(host, HostAction::Resume, 9'010), true);
        QVERIFY(!rowOf(9'010).status.pausedByUser);
        const LeaseResult first = queue.lease("A", "A:2", 5'000, 9'020);
        QVERIFY(first.lease && !first.lease->skippedByUser);
        QCOMPARE(first.lease->attempts, 1);
        // The first URL fails and waits for its retry; then the host is skipped: it ends unfetched too.
        QVERIFY(queue.retryLater("A", "A:2", 60'000, 9'100).renewed);
        QCOMPARE(budget.hostAction(host, HostAction::Skip, 9'200), true);
        QVERIFY(rowOf(9'200).status.skippedByUser);
        int skips = 0;
        for (int i = 0; i < 4; ++i) {
            const LeaseResult skip = queue.lease("A", "S:" + QByteArray::number(i), 5'000, 9'300 + 20 * i);
            QVERIFY2(skip.lease, qPrintable(QString::number(i)));
            QVERIFY(skip.lease->skippedByUser && !skip.lease->givenUp);
            QCOMPARE(skip.lease->attempts, skip.lease->url == urls[0].url ? 1 : 0); // as made, none added
            QVERIFY(queue
                        .acknowledge("A", skip.lease->leaseId, {{"outcome", "cancelled"}}, 9'310 + 20 * i,
                                     ClusterQueue::RequestSent::No)
                        .accepted);
            ++skips;
        }
        QCOMPARE(skips, 4);
        QCOMPARE(queue.counts().done, 4);
        QCOMPARE(budget.hostStatus(host, 9'400).starts, 1); // only the first URL's start
        QCOMPARE(budget.tryStart(host, "hop2", 5'000, 9'400).reason, StartDecision::Reason::SkippedByUser);

        // Resume Tripped Host: an open breaker closes at once; a closed one has nothing to change.
        const QString tripped = QStringLiteral("t.test:80");
        ClusterLimits limits{10, 1, 0, 0, 0};
        limits.breaker.window = 2;
        limits.breaker.threshold = 1.0;
        limits.breaker.cooldownMs = 60'000;
        QVERIFY(budget.setLimits(limits));
        queue.enqueue({clusterUrl(QStringLiteral("http://t.test/1"), 10),
                       clusterUrl(QStringLiteral("http://t.test/2"), 11),
                       clusterUrl(QStringLiteral("http://t.test/3"), 12)},
                      "t", 0);
        for (const QByteArray grant : {"t1", "t2"}) {
            QVERIFY(budget.tryStart(tripped, grant, 5'000, 10'000).granted);
            budget.recordAttempt(tripped, grant, kServerError, 10'010);
            QVERIFY(budget.finished(tripped, grant, 10'020));
        }
        QCOMPARE(budget.hostStatus(tripped, 10'030).breaker, QStringLiteral("open"));
        QVERIFY(!queue.lease("A", "T:1", 5'000, 10'040).lease);
        QCOMPARE(budget.hostAction(tripped, HostAction::ResumeTripped, 10'050), true);
        QCOMPARE(budget.hostStatus(tripped, 10'060).breaker, QStringLiteral("closed"));
        QVERIFY(budget.hostStatus(tripped, 10'060).breakerReason.isEmpty());
        QVERIFY(queue.lease("A", "T:2", 5'000, 10'060).lease);
        QCOMPARE(budget.hostAction(tripped, HostAction::ResumeTripped, 10'070), false);
    }

    // The real window attached to a running shared crawl: Pause from the Hosts tab's menu stops new starts
    // on that host at the site while the other host goes on; Resume starts it again; Skip Remaining URLs
    // ends its URLs as `cancelled` in the coordinator's CSV, one row per line, none of them fetched.
    void hostsMenuActsOnEveryWorker() {
        TestSite site;
        const QString slow = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        const QString other = site.addHost(QHostAddress(QStringLiteral("127.0.0.3")));
        QVERIFY(!slow.isEmpty() && !other.isEmpty());
        const QByteArray list = site.urlList(slow, 30, QStringLiteral("/s%1?ms=50")) +
                                site.urlList(other, 8, QStringLiteral("/o%1?ms=50"));
        const QString input = m_dir.filePath(QStringLiteral("menu.txt"));
        QVERIFY(clitest::writeFile(input, list));
        const QString csv = m_dir.filePath(QStringLiteral("menu.csv"));
        const QString crawl = QStringLiteral("menu");
        auto coordinator = startCrawlscope(
            {QStringLiteral("--headless"), QStringLiteral("--input"), input, QStringLiteral("--cluster"),
             redisUrl(), QStringLiteral("--crawl"), crawl, QStringLiteral("--output"), csv,
             QStringLiteral("--quiet"), QStringLiteral("--robots"), QStringLiteral("ignore"),
             QStringLiteral("--per-host"), QStringLiteral("1"), QStringLiteral("--interval-ms"),
             QStringLiteral("150")});
        QVERIFY(coordinator);
        std::vector<std::unique_ptr<clustertest::CrawlscopeProcess>> workers;
        for (int i = 0; i < 2; ++i)
            workers.push_back(
                startCrawlscope({QStringLiteral("--headless"), QStringLiteral("--worker"),
                                 QStringLiteral("--cluster"), redisUrl(), QStringLiteral("--crawl"), crawl}));

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(attachByDialog(window, redisUrl(), crawl));
        QTableView *hosts = window.hostsView();
        QVERIFY(QTest::qWaitFor([&] { return site.requests(slow).size() >= 2; }, 20'000));
        QVERIFY(QTest::qWaitFor([&] { return window.hostsModel()->rowForHost(slow) >= 0; }, 10'000));

        QSignalSpy applied(window.clusterSession(), &ui::ClusterSession::hostActionApplied);
        QVERIFY(chooseFromHostMenu(hosts, slow, QStringLiteral("Pause")));
        QVERIFY(applied.wait(5'000));
        QVERIFY(applied.last().at(2).toBool());
        // A request that had its grant before the pause may still start: the pause is in force once every
        // request in flight has ended.
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QList<RequestRecord> seen = site.requests(slow);
                return std::all_of(seen.cbegin(), seen.cend(),
                                   [](const RequestRecord &r) { return r.endNs > 0; });
            },
            5'000));
        const qint64 pausedAtNs = TestSite::nowNs();
        const qsizetype slowBefore = site.requests(slow).size();
        QVERIFY(QTest::qWaitFor(
            [&] {
                const int row = window.hostsModel()->rowForHost(slow);
                return row >= 0 && window.hostsModel()->host(row).state == HostState::Paused;
            },
            5'000));
        // The other host goes on to its end meanwhile (8 URLs, 150 ms apart); nothing starts on the paused
        // one.
        QVERIFY(QTest::qWaitFor([&] { return site.requests(other).size() == 8; }, 20'000));
        QCOMPARE(startsAfter(site.requests(slow), pausedAtNs), 0);
        QCOMPARE(site.requests(slow).size(), slowBefore);
        QVERIFY(slowBefore < 30);

        QVERIFY(chooseFromHostMenu(hosts, slow, QStringLiteral("Resume %1").arg(slow)));
        QVERIFY(QTest::qWaitFor([&] { return site.requests(slow).size() >= slowBefore + 2; }, 10'000));

        QVERIFY(chooseFromHostMenu(hosts, slow, QStringLiteral("Skip Remaining URLs")));
        QVERIFY(
            QTest::qWaitFor([&] { return coordinator->process->state() == QProcess::NotRunning; }, 30'000));
        QVERIFY2(coordinator->process->exitCode() == 0, coordinator->err.constData());
        const qsizetype fetched = site.requests(slow).size();
        QVERIFY(fetched < 30);

        int count = 0;
        const QHash<QString, QStringList> rows = clitest::rowsByUrl(csv, &count);
        QCOMPARE(count, 38);
        int ok = 0;
        int cancelled = 0;
        for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
            const QString outcome = it.value().value(clitest::OutcomeCol);
            if (!it.key().contains(QStringLiteral("/s")))
                continue;
            if (outcome == QLatin1String("ok")) {
                ++ok;
            } else {
                QCOMPARE(outcome, QStringLiteral("cancelled"));
                QCOMPARE(it.value().value(clitest::Error), skippedHostText(slow));
                ++cancelled;
            }
        }
        QCOMPARE(ok, int(fetched));
        QCOMPARE(ok + cancelled, 30);
        QVERIFY(cancelled > 0);
        window.detachFromCluster();
        for (auto &worker : workers) {
            worker->process->terminate();
            QVERIFY(waitFinished(*worker, 20'000));
        }
    }
};

QTEST_MAIN(TestClusterHostActions)
#include "tst_clusterhostactions.moc"
