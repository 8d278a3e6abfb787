// An opened crawl shows its hosts and summary; a window Resume runs with the crawl's own settings; Save
// Crawl As of a running crawl is step-wise, with progress and Cancel (issue 11). The crawls are real:
// the crawlscope executable with --store against the loopback test site, and the window itself; what
// the server recorded is the truth.
#include "../core/clitestsupport.h"
#include "crawlfiles/crawlfileloader.h"
#include "crawlfiles/crawlfilesummary.h"
#include "crawlfiles/resumesettings.h"
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "input/urlnormalizer.h"
#include "mainwindow.h"
#include "models/hostsmodel.h"
#include "models/resultsmodel.h"
#include "pages/hostspage.h"
#include "store/crawlstore.h"
#include "store/storedcrawlconfig.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QProcess>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <future>
#include <limits>
#include <memory>
#include <signal.h>
#include <thread>

namespace {

bool writeFile(const QString &path, const QByteArray &bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// The crawlscope executable, run while this process's event loop serves the test site.
struct Cli {
    QProcess process;
    void start(const QStringList &arguments) {
        process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        process.start(QStringLiteral(CRAWLSCOPE_BINARY), arguments);
    }
    bool finished(int timeoutMs) {
        return QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, timeoutMs);
    }
    ~Cli() {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5'000);
        }
    }
};

// The Hosts table's row of a host, or -1.
int hostRow(const ui::HostsModel *model, const QString &host) {
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data(ui::HostsModel::HostKeyRole).toString() == host)
            return row;
    }
    return -1;
}

QString cell(const ui::HostsModel *model, int row, int column) {
    return model->index(row, column).data().toString();
}

// Smallest gap between two request starts the server saw, in ms (-1 with fewer than two).
qint64 smallestGapMs(const QList<testsite::RequestRecord> &requests) {
    qint64 smallest = -1;
    for (qsizetype i = 1; i < requests.size(); ++i) {
        const qint64 gap = (requests[i].startNs - requests[i - 1].startNs) / 1'000'000;
        smallest = smallest < 0 ? gap : std::min(smallest, gap);
    }
    return smallest;
}

QLabel *statusLabelStartingWith(QStatusBar *bar, const QString &prefix) {
    const QList<QLabel *> labels = bar->findChildren<QLabel *>();
    for (QLabel *label : labels) {
        if (label->text().startsWith(prefix))
            return label;
    }
    return nullptr;
}

} // namespace

class TestCrawlFileHosts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    // --- pure decisions --------------------------------------------------------------------------------

    void resumeUsesTheCrawlsOwnSettings() {
        crawl::CrawlLimits window;
        window.perHostInFlight = 8;
        window.intervalMs = 0;
        crawl::FetchPolicy windowPolicy;
        windowPolicy.maxRetries = 9;
        windowPolicy.headers = {{"Authorization", "Bearer mine"}, {"X-Window", "1"}};
        crawl::CrawlQuality windowQuality;
        windowQuality.robots = crawl::RobotsMode::Obey;
        windowQuality.robotsRefetchMs = 1234; // not kept in a crawl file

        // A file that kept nothing (older than the record): the window's settings, all of them.
        const ui::ResumeSettings none =
            ui::ResumeSettings::decide(std::nullopt, window, windowPolicy, windowQuality);
        QVERIFY(!none.fromCrawlFile);
        QCOMPARE(none.limits, window);
        QCOMPARE(none.policy, windowPolicy);
        QCOMPARE(none.quality.robots, crawl::RobotsMode::Obey);

        // A file that kept its settings: they win; credentials and scope come from the window.
        crawl::StoredCrawlConfig stored;
        stored.limits.perHostInFlight = 1;
        stored.limits.intervalMs = 300;
        stored.policy.maxRetries = 0;
        stored.policy.headers = {{"X-Stored", "2"}};
        stored.robots = crawl::RobotsMode::Ignore;
        stored.robotsAgent = "cli-bot";
        const ui::ResumeSettings chosen =
            ui::ResumeSettings::decide(stored, window, windowPolicy, windowQuality);
        QVERIFY(chosen.fromCrawlFile);
        QCOMPARE(chosen.limits.perHostInFlight, 1);
        QCOMPARE(chosen.limits.intervalMs, 300);
        QCOMPARE(chosen.policy.maxRetries, 0);
        QCOMPARE(chosen.policy.headers,
                 (QList<QPair<QByteArray, QByteArray>>{{"X-Stored", "2"}, {"Authorization", "Bearer mine"}}));
        QCOMPARE(chosen.quality.robots, crawl::RobotsMode::Ignore);
        QCOMPARE(chosen.quality.robotsAgent, QByteArray("cli-bot"));
        QCOMPARE(chosen.quality.robotsRefetchMs, qint64(1234));
    }

    void summaryShowsTheBusiestHostsAndTotals() {
        ui::CrawlFileSummary summary;
        crawl::StoreCounts counts;
        counts.lines = 12;
        counts.duplicates = 1;
        counts.done = 9;
        counts.ok = 7;
        counts.failed = 2;
        counts.pending = 2;
        std::array<qint64, crawl::kOutcomeCount> byOutcome{};
        byOutcome[size_t(crawl::Outcome::Ok)] = 7;
        byOutcome[size_t(crawl::Outcome::HttpError)] = 2;
        summary.setCounts(counts, byOutcome, true);
        QList<crawl::HostRecord> hosts;
        for (int i = 0; i < ui::CrawlFileSummary::kMaxHosts + 5; ++i) {
            crawl::HostRecord h;
            h.hostKey = QStringLiteral("h%1:80").arg(i);
            h.done = i == 0 ? 6 : 1;
            h.ok = h.done;
            hosts.append(h);
        }
        hosts[0].userPaused = true;
        hosts[0].maxInFlight = 1;
        crawl::CrawlLimits limits;
        limits.intervalMs = 250;
        summary.setHosts(hosts, 50'000, limits, 1'000);
        for (int latency : {10, 20, 30, 40, 1000}) {
            crawl::ResultFact fact;
            fact.hostKey = QStringLiteral("h0:80");
            fact.latencyMs = latency;
            fact.attempts = 1;
            fact.startedAtMs = 10'000;
            fact.finishedAtMs = 10'000 + latency;
            summary.addResult(fact);
        }
        crawl::ResultFact elsewhere; // a host beyond the ones listed still counts in the totals
        elsewhere.hostKey = QStringLiteral("far-away:80");
        elsewhere.attempts = 2;
        elsewhere.latencyMs = 5;
        elsewhere.startedAtMs = 9'000;
        elsewhere.finishedAtMs = 9'005;
        summary.addResult(elsewhere);

        const crawl::CrawlSnapshot s = summary.snapshot();
        QCOMPARE(summary.hostsShown(), qint64(ui::CrawlFileSummary::kMaxHosts));
        QCOMPARE(summary.hostsTotal(), qint64(50'000));
        QCOMPARE(s.hosts.size(), ui::CrawlFileSummary::kMaxHosts);
        QCOMPARE(s.total, qint64(11));
        QCOMPARE(s.done, qint64(9));
        QCOMPARE(s.failed, qint64(2));
        QCOMPARE(s.queued, qint64(2));
        QCOMPARE(s.state, crawl::CrawlState::Idle); // unfinished
        QCOMPARE(s.byOutcome[size_t(crawl::Outcome::HttpError)], qint64(2));
        QCOMPARE(s.elapsedMs, qint64(2'000)); // first start (9 s) to last end (11 s)
        QCOMPARE(s.rawResponses, qint64(7));
        const crawl::HostSnapshot &busiest = s.hosts.first();
        QCOMPARE(busiest.host, QStringLiteral("h0:80"));
        QCOMPARE(busiest.done, qint64(6));
        QCOMPARE(busiest.started, qint64(5));
        QCOMPARE(busiest.state, crawl::HostState::Paused);
        QCOMPARE(busiest.maxInFlight, 1);
        QVERIFY(busiest.overridden);
        QCOMPARE(busiest.intervalMs, 250);
        QVERIFY(busiest.p50Ms >= 28 && busiest.p50Ms <= 32);
        QVERIFY(busiest.p99Ms >= 900);
        QCOMPARE(s.hosts.at(1).p50Ms, -1); // no results read for it
    }

    void loaderReadsAtMostTwoPagesAhead() {
        // A crawl file with 6 pages of committed rows.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.crawl"));
        const int rows = 6 * ui::CrawlFileLoader::kPageRows;
        {
            crawl::StoreError error;
            std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::create(path, {}, &error);
            QVERIFY2(store, qPrintable(error.message));
            QList<crawl::StoreInputLine> lines;
            for (int i = 1; i <= rows; ++i) {
                const QString url = QStringLiteral("http://big.example/p%1").arg(i);
                lines.append(crawl::storeInputLine(crawl::InputLine{i, url, crawl::normalizeUrl(url)}));
            }
            QVERIFY(store->appendInput(lines, 0));
            const QList<crawl::PendingEntry> chunk = store->nextChunkForHost(
                QStringLiteral("big.example:80"), rows, QDateTime::currentMSecsSinceEpoch());
            QCOMPARE(chunk.size(), rows);
            QList<qint64> ids;
            crawl::ResultBatch batch;
            for (const crawl::PendingEntry &e : chunk) {
                ids.append(e.id);
                crawl::CrawlResult r;
                r.outcome = crawl::Outcome::Ok;
                r.status = 200;
                batch.finished.append({e.id, r});
            }
            QCOMPARE(store->markInFlight(ids, QStringLiteral("test"), std::numeric_limits<qint64>::max() / 2),
                     qint64(rows));
            QVERIFY(store->recordResults(batch));
        }
        ui::CrawlFileLoader loader;
        QSignalSpy pages(&loader, &ui::CrawlFileLoader::rowsLoaded);
        QSignalSpy loaded(&loader, &ui::CrawlFileLoader::loaded);
        loader.load(path);
        QVERIFY(QTest::qWaitFor([&] { return pages.size() == 2; }, 20'000));
        // Nothing taken: the reader waits. (Showing that something does not happen takes a wait.)
        QTest::qWait(500);
        QCOMPARE(pages.size(), 2);
        // Each page taken lets one more be read, until the last.
        for (int taken = 1; taken <= 4; ++taken) {
            loader.rowsConsumed(ui::CrawlFileLoader::kPageRows);
            QVERIFY(QTest::qWaitFor([&] { return pages.size() == 2 + taken; }, 20'000));
        }
        loader.rowsConsumed(2 * ui::CrawlFileLoader::kPageRows);
        QVERIFY(loaded.wait(20'000));
        QCOMPARE(pages.size(), 6);
    }

    // --- the window against real crawl files -----------------------------------------------------------

    void openedCliCrawlShowsItsHostsAndSummary() {
        testsite::TestSite site;
        QString error;
        QStringList hosts;
        for (int i = 0; i < 3; ++i) {
            hosts << site.addHost(QHostAddress(QStringLiteral("127.0.0.%1").arg(i + 2)), 0, &error);
            QVERIFY2(!hosts.last().isEmpty(), qPrintable(error));
        }
        // 12, 5 and 3 URLs; two of the last host's answer 404.
        QByteArray list = site.urlList(hosts[0], 12, QStringLiteral("/a%1?ms=20")) +
                          site.urlList(hosts[1], 5, QStringLiteral("/b%1?ms=20")) +
                          site.urlList(hosts[2], 1, QStringLiteral("/c%1")) +
                          site.urlList(hosts[2], 2, QStringLiteral("/gone%1?status=404"));
        QTemporaryDir dir;
        const QString listPath = dir.filePath(QStringLiteral("urls.txt"));
        const QString store = dir.filePath(QStringLiteral("cli.crawl"));
        QVERIFY(writeFile(listPath, list));
        Cli cli;
        cli.start({QStringLiteral("--headless"), QStringLiteral("--input"), listPath,
                   QStringLiteral("--store"), store, QStringLiteral("--output"),
                   dir.filePath(QStringLiteral("out.csv")), QStringLiteral("--robots"),
                   QStringLiteral("ignore"), QStringLiteral("--retries"), QStringLiteral("0"),
                   QStringLiteral("--interval-ms"), QStringLiteral("0"), QStringLiteral("--quiet")});
        QVERIFY(cli.finished(60'000));
        QCOMPARE(cli.process.exitCode(), 0);

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        QSignalSpy opened(&window, &ui::MainWindow::crawlFileOpened);
        window.openCrawl(store);
        QVERIFY(opened.wait(20'000));
        const ui::HostsModel *model = window.hostsModel();
        QVERIFY(QTest::qWaitFor([&] { return model->rowCount() == 3; }, 10'000));
        const int expectedDone[] = {12, 5, 3};
        const int expectedFailed[] = {0, 0, 2};
        for (int i = 0; i < 3; ++i) {
            const int row = hostRow(model, hosts[i]);
            QVERIFY2(row >= 0, qPrintable(hosts[i]));
            const testsite::HostRecord seen = site.hostRecord(hosts[i]);
            QCOMPARE(seen.requests, qint64(expectedDone[i])); // the server's count: one request per URL
            QCOMPARE(cell(model, row, ui::HostsModel::DoneColumn), QString::number(seen.requests));
            QCOMPARE(cell(model, row, ui::HostsModel::OkColumn),
                     QString::number(expectedDone[i] - expectedFailed[i]));
            QCOMPARE(cell(model, row, ui::HostsModel::FailedColumn), QString::number(expectedFailed[i]));
            QVERIFY2(!cell(model, row, ui::HostsModel::P50Column).isEmpty(),
                     "latency from the stored results");
        }
        QVERIFY(window.hostsPage()->note().isEmpty()); // every host is listed
        // The status bar's summary: 20 of 20 done, 2 failures.
        auto *progress = window.statusBar()->findChild<QProgressBar *>(QStringLiteral("crawlProgress"));
        QVERIFY(progress);
        QCOMPARE(progress->format(), QStringLiteral("20 / 20"));
        QVERIFY(statusLabelStartingWith(window.statusBar(), QStringLiteral("Failures: 2")));
    }

    void openedCrawlWithManyHostsSaysWhatItShows() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hosts.crawl"));
        const int hostCount = ui::CrawlFileSummary::kMaxHosts + 5;
        {
            crawl::StoreError error;
            std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::create(path, {}, &error);
            QVERIFY2(store, qPrintable(error.message));
            QList<crawl::StoreInputLine> lines;
            int line = 0;
            for (int h = 0; h < hostCount; ++h) {
                // The first host has three URLs: the busiest, listed first.
                for (int u = 0; u < (h == 0 ? 3 : 1); ++u) {
                    const QString url = QStringLiteral("http://h%1.example/u%2").arg(h).arg(u);
                    lines.append(
                        crawl::storeInputLine(crawl::InputLine{++line, url, crawl::normalizeUrl(url)}));
                }
            }
            QVERIFY(store->appendInput(lines, 0));
        }
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        QSignalSpy opened(&window, &ui::MainWindow::crawlFileOpened);
        window.openCrawl(path);
        QVERIFY(opened.wait(20'000));
        QVERIFY(QTest::qWaitFor([&] { return !window.hostsPage()->note().isEmpty(); }, 20'000));
        QCOMPARE(window.hostsModel()->rowCount(), ui::CrawlFileSummary::kMaxHosts);
        const QString note = window.hostsPage()->note();
        QVERIFY2(note.contains(QLocale().toString(ui::CrawlFileSummary::kMaxHosts)) &&
                     note.contains(QLocale().toString(hostCount)),
                 qPrintable(note));
        const int row = hostRow(window.hostsModel(), QStringLiteral("h0.example:80"));
        QVERIFY(row >= 0);
        QCOMPARE(cell(window.hostsModel(), row, ui::HostsModel::QueuedColumn), QStringLiteral("3"));
    }

    void openedCrawlWaitsOutAMomentaryLock() {
        // The loader and the summary reader open the file side by side; one closing its connection holds
        // the file's lock for a moment, and the other used to fail with "in use by another process": the
        // hosts note never came (or, when it was the loader, the rows were dropped). The same moment, made
        // here by a writer that lets go after 50 ms: both readers wait it out.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("held.crawl"));
        const int hostCount = ui::CrawlFileSummary::kMaxHosts + 1;
        {
            crawl::StoreError error;
            std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::create(path, {}, &error);
            QVERIFY2(store, qPrintable(error.message));
            QList<crawl::StoreInputLine> lines;
            for (int h = 0; h < hostCount; ++h) {
                const QString url = QStringLiteral("http://h%1.example/u").arg(h);
                lines.append(crawl::storeInputLine(crawl::InputLine{h + 1, url, crawl::normalizeUrl(url)}));
            }
            QVERIFY(store->appendInput(lines, 0));
        }
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        QSignalSpy opened(&window, &ui::MainWindow::crawlFileOpened);
        std::promise<void> locked;
        std::thread holder([&] {
            std::unique_ptr<crawl::CrawlStore> writer = crawl::CrawlStore::open(path, nullptr);
            locked.set_value();
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        });
        locked.get_future().wait();
        window.openCrawl(path);
        holder.join();
        QVERIFY(opened.wait(20'000));
        QVERIFY2(opened.last().at(1).toLongLong() >= 0, "the loader failed"); // -1: could not be read
        QVERIFY(QTest::qWaitFor([&] { return !window.hostsPage()->note().isEmpty(); }, 20'000));
        QVERIFY2(window.hostsPage()->note().contains(QLocale().toString(hostCount)),
                 qPrintable(window.hostsPage()->note()));
        QCOMPARE(window.hostsModel()->rowCount(), ui::CrawlFileSummary::kMaxHosts);
    }

    void windowResumeRunsWithTheCrawlsOwnLimits() {
        testsite::TestSite site;
        QString error;
        QStringList hosts;
        for (int i = 0; i < 2; ++i) {
            hosts << site.addHost(QHostAddress(QStringLiteral("127.0.0.%1").arg(i + 4)), 0, &error);
            QVERIFY2(!hosts.last().isEmpty(), qPrintable(error));
        }
        QTemporaryDir dir;
        const QString listPath = dir.filePath(QStringLiteral("urls.txt"));
        const QString store = dir.filePath(QStringLiteral("polite.crawl"));
        QVERIFY(writeFile(listPath, site.urlList(hosts[0], 40, QStringLiteral("/p%1?ms=250")) +
                                        site.urlList(hosts[1], 40, QStringLiteral("/q%1?ms=250"))));
        Cli cli;
        cli.start({QStringLiteral("--headless"), QStringLiteral("--input"), listPath,
                   QStringLiteral("--store"), store, QStringLiteral("--output"),
                   dir.filePath(QStringLiteral("out.csv")), QStringLiteral("--per-host"), QStringLiteral("1"),
                   QStringLiteral("--interval-ms"), QStringLiteral("300"), QStringLiteral("--robots"),
                   QStringLiteral("ignore"), QStringLiteral("--quiet")});
        QVERIFY(cli.process.waitForStarted(10'000));
        QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 6; }, 30'000));
        ::kill(pid_t(cli.process.processId()), SIGINT);
        QVERIFY(cli.finished(30'000));
        QCOMPARE(cli.process.exitCode(), 130);

        // A window whose own limits are far less polite.
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        crawl::CrawlLimits eager;
        eager.globalInFlight = 16;
        eager.perHostInFlight = 6;
        eager.intervalMs = 0;
        window.setLimits(eager, crawl::FetchPolicy{});
        QSignalSpy opened(&window, &ui::MainWindow::crawlFileOpened);
        window.openCrawl(store); // File > Open Crawl
        QVERIFY(opened.wait(20'000));
        QVERIFY(opened.last().at(2).toBool()); // unfinished
        site.resetRecords();
        QVERIFY(window.resumeCrawl(window.crawlFile())); // Resume

        // The Limits panel moved to the crawl's own limits, and the server sees them.
        QCOMPARE(window.limitsPanel()->perHostInFlight()->value(), 1);
        QCOMPARE(window.limitsPanel()->interval()->value(), 300);
        QVERIFY(QTest::qWaitFor(
            [&] { return site.requests(hosts[0]).size() >= 6 && site.requests(hosts[1]).size() >= 6; },
            30'000));
        for (const QString &host : std::as_const(hosts)) {
            QCOMPARE(site.hostRecord(host).peakInFlight, 1);
            const qint64 gap = smallestGapMs(site.requests(host));
            QVERIFY2(gap >= 295, qPrintable(QStringLiteral("%1: %2 ms").arg(host).arg(gap)));
        }

        // The user changes them during the resumed crawl: the server sees the new ones.
        site.resetRecords();
        window.limitsPanel()->interval()->setValue(0);
        window.limitsPanel()->perHostInFlight()->setValue(3);
        QVERIFY2(QTest::qWaitFor([&] { return site.hostRecord(hosts[0]).peakInFlight >= 2; }, 20'000),
                 "raised per-host limit not seen at the server");
        QVERIFY(site.hostRecord(hosts[0]).peakInFlight <= 3);
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        QVERIFY(finished.wait(60'000));
        QCOMPARE(window.resultsModel()->rowCount(), 80);
    }

    void saveAsWhileRunningIsStepwiseAndCancellable() {
        testsite::TestSite site;
        QString error;
        QStringList hosts;
        for (int i = 0; i < 2; ++i) {
            hosts << site.addHost(QHostAddress(QStringLiteral("127.0.0.%1").arg(i + 6)), 0, &error);
            QVERIFY2(!hosts.last().isEmpty(), qPrintable(error));
        }
        QTemporaryDir dir;
        const int urls = 600;
        QString live;
        qint64 rowsAtEnd = 0;
        const QString copy = dir.filePath(QStringLiteral("copy.crawl"));
        {
            ui::MainWindow window;
            window.setCrawlsFolder(dir.filePath(QStringLiteral("crawls")));
            window.setConfirmationsEnabled(false);
            crawl::CrawlLimits limits;
            limits.globalInFlight = 4;
            limits.perHostInFlight = 2;
            limits.intervalMs = 0;
            crawl::FetchPolicy policy;
            policy.maxRetries = 0;
            window.setLimits(limits, policy);
            QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
            window.loadText(site.urlList(hosts[0], urls / 2, QStringLiteral("/s%1?ms=40")) +
                                site.urlList(hosts[1], urls / 2, QStringLiteral("/t%1?ms=40")),
                            QStringLiteral("save test"));
            QVERIFY(loaded.wait(10'000));
            // Small steps with a pause between them, so the copy spans many journal ticks.
            window.engine()->setJournalCopyStep(1, 40);
            QSignalSpy saved(&window, &ui::MainWindow::crawlSaved);
            QSignalSpy progress(window.engine(), &crawl::CrawlEngine::journalCopyProgress);
            QSignalSpy results(window.engine(), &crawl::CrawlEngine::resultsReady);
            QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
            window.startCrawl();
            live = window.crawlFile();
            QVERIFY(QTest::qWaitFor([&] { return window.resultsModel()->rowCount() >= 60; }, 30'000));

            // Cancel: no file, no partial file.
            const QString cancelled = dir.filePath(QStringLiteral("cancelled.crawl"));
            window.saveCrawlAs(cancelled);
            QVERIFY(progress.wait(10'000));
            auto *cancel = window.statusBar()->findChild<QWidget *>(QStringLiteral("cancelSave"));
            QVERIFY(cancel && !cancel->isHidden());
            window.cancelCrawlSave();
            QVERIFY(saved.wait(10'000));
            QVERIFY(!saved.last().at(0).toBool());
            QVERIFY(cancel->isHidden());
            QVERIFY(!QFileInfo::exists(cancelled));
            QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("cancelled.crawl.partial*")}, QDir::Files),
                     QStringList());

            // A copy made while results keep committing.
            progress.clear();
            results.clear();
            window.saveCrawlAs(copy);
            // One copy at a time: a second one is refused, and the first goes on.
            const QString second = dir.filePath(QStringLiteral("second.crawl"));
            window.saveCrawlAs(second);
            QVERIFY(saved.wait(10'000));
            QCOMPARE(saved.last().at(1).toString(), second);
            QVERIFY(!saved.last().at(0).toBool());
            QVERIFY(QTest::qWaitFor([&] { return saved.last().at(1).toString() == copy; }, 60'000));
            QVERIFY2(saved.last().at(0).toBool(), qPrintable(saved.last().at(2).toString()));
            QVERIFY(!QFileInfo::exists(second));
            QVERIFY2(progress.size() >= 5, qPrintable(QString::number(progress.size())));
            // Committed batches arrived while the copy ran: the journal thread was never held.
            QVERIFY2(results.size() >= 2, qPrintable(QString::number(results.size())));
            QVERIFY(progress.last().at(0).toLongLong() == progress.last().at(1).toLongLong());
            QVERIFY(progress.first().at(0).toLongLong() < progress.last().at(0).toLongLong());
            rowsAtEnd = window.resultsModel()->rowCount();
            QVERIFY(crawl::isActive(window.engine()->state()));
            QVERIFY(finished.wait(120'000));
        } // the window lets go of its crawl file

        // The copy is the crawl at its point: every row it finished is the crawl's row, and it has at least
        // the rows the window had shown when it completed.
        const QStringList whole = clitest::exportedRows(live, dir.filePath(QStringLiteral("whole.csv")));
        const QStringList atCopy = clitest::exportedRows(copy, dir.filePath(QStringLiteral("copy.csv")));
        QCOMPARE(whole.size(), urls);
        QCOMPARE(atCopy.size(), urls);
        const QSet<QString> wholeRows(whole.cbegin(), whole.cend());
        qint64 finishedInCopy = 0;
        for (const QString &row : atCopy) {
            if (row.contains(QLatin1String(",cancelled,")))
                continue;
            ++finishedInCopy;
            QVERIFY2(wholeRows.contains(row), qPrintable(row));
        }
        QVERIFY2(finishedInCopy >= rowsAtEnd && finishedInCopy < urls,
                 qPrintable(QStringLiteral("%1 in the copy, %2 shown").arg(finishedInCopy).arg(rowsAtEnd)));
    }
};

QTEST_MAIN(TestCrawlFileHosts)
#include "tst_crawlfilehosts.moc"
