// Crawl files in the window (issue 11): every window crawl is journaled in the crawls folder; a window
// killed mid-crawl (a real child process, SIGKILL) is offered for resume by the next window, and Resume
// finishes it with one row per input line without fetching a committed URL again; Open Crawl shows a
// crawl's rows; Save Crawl As makes a copy that `crawlscope --export` reads with the same rows.
#include "../core/clitestsupport.h"
#include "crawlfiles/crawlfileinfo.h"
#include "crawlfiles/crawlfilename.h"
#include "crawlfiles/crawlfilesdialog.h"
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "frontier/crawljournal.h"
#include "input/inputfingerprint.h"
#include "mainwindow.h"
#include "models/resultsmodel.h"
#include "pages/recentmenu.h"
#include "store/crawlstore.h"
#include "testsite.h"

#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMessageBox>
#include <QProcess>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

crawl::CrawlLimits quickLimits() {
    crawl::CrawlLimits limits;
    limits.globalInFlight = 4;
    limits.perHostInFlight = 4;
    limits.intervalMs = 0;
    return limits;
}

crawl::FetchPolicy quickPolicy() {
    crawl::FetchPolicy policy;
    policy.maxRetries = 0;
    return policy;
}

// Requests per target the server saw (robots.txt aside).
QHash<QString, int> fetchesPerTarget(const testsite::TestSite &site) {
    QHash<QString, int> counts;
    const QList<testsite::RequestRecord> requests = site.requests();
    for (const testsite::RequestRecord &r : requests) {
        if (!r.target.startsWith(QLatin1String("/robots.txt")))
            ++counts[r.target];
    }
    return counts;
}

QStringList crawlFilesUnder(const QString &folder) {
    QStringList files;
    QDirIterator it(folder, {QStringLiteral("*.crawl")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    return files;
}

QAbstractButton *buttonWithText(QMessageBox *box, const QString &text) {
    const QList<QAbstractButton *> buttons = box->buttons();
    for (QAbstractButton *button : buttons) {
        if (button->text().remove(QLatin1Char('&')) == text)
            return button;
    }
    return nullptr;
}

} // namespace

class TestCrawlFiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void fileNamesAreReadableAndUnique() {
        const QDateTime at(QDate(2026, 11, 30), QTime(11, 42));
        QCOMPARE(ui::crawlfilename::forList(QStringLiteral("urls.txt"), at),
                 QStringLiteral("urls-2026-11-30-1142.crawl"));
        QCOMPARE(ui::crawlfilename::forList(QStringLiteral("pasted URLs"), at),
                 QStringLiteral("pasted-URLs-2026-11-30-1142.crawl"));
        QCOMPARE(ui::crawlfilename::forList(QStringLiteral("../../etc/passwd"), at),
                 QStringLiteral("passwd-2026-11-30-1142.crawl"));
        QCOMPARE(ui::crawlfilename::forList(QStringLiteral("///"), at),
                 QStringLiteral("crawl-2026-11-30-1142.crawl"));
        QStringList taken{QStringLiteral("/c/urls-2026-11-30-1142.crawl"),
                          QStringLiteral("/c/urls-2026-11-30-1142-2.crawl")};
        QCOMPARE(ui::crawlfilename::uniquePath(QStringLiteral("/c"), QStringLiteral("urls.txt"), at,
                                               [&](const QString &p) { return taken.contains(p); }),
                 QStringLiteral("/c/urls-2026-11-30-1142-3.crawl"));
    }

    void interruptedMeansRunningUnfinishedAndOwnerGone() {
        ui::CrawlFileInfo info;
        info.state = ui::CrawlFileInfo::kRunning;
        info.inputComplete = true;
        info.unfinished = 5;
        info.ownerPid = 4242;
        const auto dead = [](qint64) { return false; };
        const auto alive = [](qint64) { return true; };
        QVERIFY(ui::CrawlFileInfo::wasInterrupted(info, dead));
        QVERIFY(!ui::CrawlFileInfo::wasInterrupted(info, alive)); // its window still runs it
        ui::CrawlFileInfo busy = info;
        busy.busy = true;
        busy.error = QStringLiteral("in use");
        QVERIFY(!ui::CrawlFileInfo::wasInterrupted(busy, dead)); // held open by another process
        for (const QString &state : {ui::CrawlFileInfo::kStopped, ui::CrawlFileInfo::kFinished,
                                     ui::CrawlFileInfo::kDiscarded, QString()}) {
            ui::CrawlFileInfo other = info;
            other.state = state;
            QVERIFY(!ui::CrawlFileInfo::wasInterrupted(other, dead));
        }
        ui::CrawlFileInfo done = info;
        done.unfinished = 0;
        QVERIFY(!ui::CrawlFileInfo::wasInterrupted(done, dead));
        done.inputComplete = false; // the list was not all read yet: unfinished
        QVERIFY(ui::CrawlFileInfo::wasInterrupted(done, dead));
    }

    void windowCrawlIsJournaled() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("crawls"));
        const int urls = 30;
        QString path;
        const QString copyWhileRunning = dir.filePath(QStringLiteral("while-running.crawl"));
        const QString copyAfter = dir.filePath(QStringLiteral("after.crawl"));
        {
            ui::MainWindow window;
            window.setCrawlsFolder(folder);
            window.setConfirmationsEnabled(false);
            window.setLimits(quickLimits(), quickPolicy());
            QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
            window.loadText(site.urlList(host, urls, QStringLiteral("/j%1?ms=300")),
                            QStringLiteral("my list.txt"));
            QVERIFY(loaded.wait(10'000));
            QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
            QSignalSpy saved(&window, &ui::MainWindow::crawlSaved);
            window.startCrawl();
            path = window.crawlFile();
            QVERIFY2(QFileInfo(path).isFile(), qPrintable(path));
            QCOMPARE(QFileInfo(path).absolutePath(), QFileInfo(folder).absoluteFilePath());
            QVERIFY2(QFileInfo(path).fileName().startsWith(QLatin1String("my-list-")), qPrintable(path));

            // Save Crawl As while it runs (rows committed, more to come): copied on the journal's own
            // thread, consistently.
            QVERIFY(QTest::qWaitFor([&] { return window.resultsModel()->rowCount() > 0; }, 20'000));
            QVERIFY(crawl::isActive(window.engine()->state()));
            window.saveCrawlAs(copyWhileRunning);
            QVERIFY(saved.wait(20'000));
            QVERIFY2(saved.last().at(0).toBool(), qPrintable(saved.last().at(2).toString()));
            // The live file itself and a device are refused.
            window.saveCrawlAs(path);
            QVERIFY(saved.wait(20'000));
            QVERIFY(!saved.last().at(0).toBool());
            window.saveCrawlAs(QStringLiteral("/dev/null"));
            QVERIFY(saved.wait(20'000));
            QVERIFY(!saved.last().at(0).toBool());
            QVERIFY(QFileInfo(path).size() > 0);

            QVERIFY(finished.wait(60'000));
            QCOMPARE(window.resultsModel()->rowCount(), urls);
            window.saveCrawlAs(copyAfter);
            QVERIFY(saved.wait(20'000));
            QVERIFY2(saved.last().at(0).toBool(), qPrintable(saved.last().at(2).toString()));

            // Manage Crawls lists it as in use and will not delete it.
            ui::CrawlFilesDialog *dialog = window.showCrawlFiles();
            QCOMPARE(dialog->view()->model()->rowCount(), 1);
            QCOMPARE(dialog->deleteRows({0}), 0);
            QVERIFY(QFileInfo::exists(path));
            dialog->close();
        }
        // The window is gone: the file holds every row, committed, and says it finished.
        const ui::CrawlFileInfo info = ui::CrawlFileInfo::read(path);
        QVERIFY2(info.error.isEmpty(), qPrintable(info.error));
        QCOMPARE(info.done, qint64(urls));
        QCOMPARE(info.total, qint64(urls));
        QVERIFY(!info.isUnfinished());
        QCOMPARE(info.state, ui::CrawlFileInfo::kFinished);
        QCOMPARE(info.listName, QStringLiteral("my list.txt"));

        // Both copies export; the one made after the end has the same rows as the crawl itself.
        const QStringList original =
            clitest::exportedRows(path, dir.filePath(QStringLiteral("original.csv")));
        QCOMPARE(original.size(), urls);
        QCOMPARE(clitest::exportedRows(copyAfter, dir.filePath(QStringLiteral("after.csv"))), original);
        QCOMPARE(clitest::exportedRows(copyWhileRunning, dir.filePath(QStringLiteral("running.csv"))).size(),
                 urls);

        // Now that no process holds it, Manage Crawls deletes it (with its write-ahead log).
        ui::MainWindow window;
        window.setCrawlsFolder(folder);
        window.setConfirmationsEnabled(false);
        QVERIFY(!window.offerInterruptedCrawl()); // finished: nothing to offer
        ui::CrawlFilesDialog *dialog = window.showCrawlFiles();
        QCOMPARE(dialog->deleteRows({0}), 1);
        QVERIFY(!QFileInfo::exists(path));
        QCOMPARE(dialog->view()->model()->rowCount(), 0);
    }

    void killedWindowIsOfferedAndResumedExactly() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const int urls = 100;
        const QString list = dir.filePath(QStringLiteral("urls.txt"));
        {
            QFile file(list);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(site.urlList(host, urls, QStringLiteral("/k%1?ms=200")));
        }

        // The real application in its window, crawling, killed with SIGKILL half-way.
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        // The application's own default: the crawls folder under its data folder.
        env.remove(QStringLiteral("CRAWLSCOPE_CRAWLS_DIR"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("CRAWLSCOPE_TEST_START_OPENED_LIST"), QStringLiteral("1"));
        app.setProcessEnvironment(env);
        app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        app.start(QStringLiteral(CRAWLSCOPE_BINARY),
                  {QStringLiteral("--concurrency"), QStringLiteral("4"), QStringLiteral("--per-host"),
                   QStringLiteral("4"), QStringLiteral("--interval-ms"), QStringLiteral("0"),
                   QStringLiteral("--retries"), QStringLiteral("0"), QStringLiteral("--robots"),
                   QStringLiteral("ignore"), list});
        QVERIFY(app.waitForStarted(10'000));
        QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 20; }, 60'000));
        // While the application runs its crawl, the file is its own: busy, and never offered.
        QStringList files = crawlFilesUnder(dir.filePath(QStringLiteral("data")));
        QCOMPARE(files.size(), 1);
        QVERIFY(ui::CrawlFileInfo::read(files.first()).busy);
        {
            ui::MainWindow other;
            other.setCrawlsFolder(QFileInfo(files.first()).absolutePath());
            QVERIFY(!other.offerInterruptedCrawl());
        }
        QVERIFY(site.totalRequests() < urls); // still crawling when killed
        app.kill();
        QVERIFY(app.waitForFinished(10'000));
        QCOMPARE(app.exitStatus(), QProcess::CrashExit);

        files = crawlFilesUnder(dir.filePath(QStringLiteral("data")));
        QCOMPARE(files.size(), 1);
        const QString path = files.first();
        QVERIFY2(path.contains(QLatin1String("/data/Crawlscope/Crawlscope/crawls/urls-")), qPrintable(path));
        // What had committed when it died: never to be fetched again.
        QSet<QString> committed;
        {
            crawl::StoreError storeError;
            crawl::StoreOptions options;
            options.readOnly = true;
            std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &storeError, options);
            QVERIFY2(store, qPrintable(storeError.message));
            const QList<crawl::CrawlResult> rows = store->rowsPage(0, 1'000, crawl::RowFilter::Finished);
            for (const crawl::CrawlResult &row : rows)
                committed.insert(QUrl(row.url).path() + QLatin1Char('?') + QUrl(row.url).query());
        }
        QVERIFY2(!committed.isEmpty() && committed.size() < urls,
                 qPrintable(QString::number(committed.size())));
        const QHash<QString, int> before = fetchesPerTarget(site);

        ui::MainWindow window;
        window.setCrawlsFolder(QFileInfo(path).absolutePath());
        window.setConfirmationsEnabled(false);
        window.setLimits(quickLimits(), quickPolicy());
        window.show();
        QMessageBox *offer = window.offerInterruptedCrawl();
        QVERIFY(offer);
        QVERIFY2(offer->text().contains(QStringLiteral("urls.txt")) &&
                     offer->text().contains(QStringLiteral("of %1 done").arg(urls)),
                 qPrintable(offer->text()));
        QVERIFY(buttonWithText(offer, QStringLiteral("Open")));
        QVERIFY(buttonWithText(offer, QStringLiteral("Discard")));
        QAbstractButton *resume = buttonWithText(offer, QStringLiteral("Resume"));
        QVERIFY(resume);
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        resume->click();
        QVERIFY(finished.wait(60'000));

        // One row per input line, each URL once.
        QCOMPARE(window.resultsModel()->rowCount(), urls);
        QSet<QString> shown;
        for (int row = 0; row < urls; ++row)
            shown.insert(window.resultsModel()->store().url(row));
        QCOMPARE(shown.size(), urls);
        // The server: no committed URL fetched again; every URL fetched.
        const QHash<QString, int> after = fetchesPerTarget(site);
        for (const QString &target : std::as_const(committed))
            QVERIFY2(after.value(target) == before.value(target), qPrintable(target));
        QCOMPARE(after.size(), urls);
        QCOMPARE(window.crawlFile(), QFileInfo(path).absoluteFilePath());
    }

    void stoppedCrawlIsNotOfferedButOpensAndContinues() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("crawls"));
        const int urls = 40;
        QString path;
        {
            ui::MainWindow window;
            window.setCrawlsFolder(folder);
            window.setConfirmationsEnabled(false);
            window.setLimits(quickLimits(), quickPolicy());
            window.loadText(site.urlList(host, urls, QStringLiteral("/s%1?ms=300")),
                            QStringLiteral("stop.txt"));
            QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
            window.startCrawl();
            path = window.crawlFile();
            QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 8; }, 20'000));
            window.stopCrawl();
            QVERIFY(finished.wait(30'000));
        }
        ui::CrawlFileInfo info = ui::CrawlFileInfo::read(path);
        QCOMPARE(info.state, ui::CrawlFileInfo::kStopped);
        QVERIFY(info.isUnfinished());
        const qint64 doneAtStop = info.done;

        ui::MainWindow window;
        window.setCrawlsFolder(folder);
        window.setConfirmationsEnabled(false);
        window.setLimits(quickLimits(), quickPolicy());
        QVERIFY(!window.offerInterruptedCrawl()); // stopped on purpose: not a crash
        QSignalSpy opened(&window, &ui::MainWindow::crawlFileOpened);
        window.openCrawl(path);
        QVERIFY(opened.wait(20'000));
        QCOMPARE(opened.last().at(1).toLongLong(), doneAtStop);
        QVERIFY(opened.last().at(2).toBool());
        // Start continues the opened crawl.
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        QAction *start = nullptr;
        const QList<QAction *> actions = window.findChildren<QAction *>();
        for (QAction *action : actions) {
            if (action->text() == QLatin1String("&Start"))
                start = action;
        }
        QVERIFY(start && start->isEnabled());
        start->trigger();
        QVERIFY(finished.wait(60'000));
        QCOMPARE(window.resultsModel()->rowCount(), urls);
    }

    void discardKeepsTheFileAndStopsAsking() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crawls/pasted-2026-01-01-0000.crawl"));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("crawls"))));
        // A crawl file as a crashed window leaves it: marked running, owner gone, URLs left.
        QProcess gone;
        gone.start(QStringLiteral("true"), QStringList());
        QVERIFY(gone.waitForFinished(10'000));
        {
            crawl::StoreError storeError;
            auto store =
                crawl::CrawlStore::create(path,
                                          {{ui::CrawlFileInfo::kState, ui::CrawlFileInfo::kRunning},
                                           {ui::CrawlFileInfo::kOwnerPid, QString::number(gone.processId())},
                                           {ui::CrawlFileInfo::kListName, QStringLiteral("pasted URLs")}},
                                          &storeError);
            QVERIFY2(store, qPrintable(storeError.message));
            crawl::StoreInputLine line;
            line.lineNumber = 1;
            line.raw = QStringLiteral("http://127.0.0.1:1/x");
            line.normalizedUrl = line.raw;
            line.hostKey = QStringLiteral("127.0.0.1:1");
            QVERIFY(store->appendInput({line}, 0));
        }
        ui::MainWindow window;
        window.setCrawlsFolder(dir.filePath(QStringLiteral("crawls")));
        window.setConfirmationsEnabled(false);
        QMessageBox *offer = window.offerInterruptedCrawl();
        QVERIFY(offer);
        QVERIFY2(offer->text().contains(QStringLiteral("pasted URLs")), qPrintable(offer->text()));
        QAbstractButton *discard = buttonWithText(offer, QStringLiteral("Discard"));
        QVERIFY(discard);
        discard->click();
        QVERIFY(QFileInfo::exists(path));
        QCOMPARE(ui::CrawlFileInfo::read(path).state, ui::CrawlFileInfo::kDiscarded);
        QVERIFY(QTest::qWaitFor(
            [&] { return !window.findChild<QMessageBox *>(QStringLiteral("resumeOffer")); }, 5'000));
        QVERIFY(!window.offerInterruptedCrawl());
    }

    void resumeRefusesAChangedListItWouldStillRead() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QByteArray original = site.urlList(host, 5, QStringLiteral("/l%1"));
        {
            QFile file(list);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(original);
        }
        const auto print = crawl::InputFingerprint::ofFile(list, &error);
        QVERIFY(print);
        // A crawl file as a window leaves it when stopped after storing only the first line of its list.
        const QString path = dir.filePath(QStringLiteral("crawls/list-2026-01-01-0000.crawl"));
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        {
            crawl::StoreError storeError;
            auto store =
                crawl::CrawlStore::create(path,
                                          {{crawl::journalkey::inputKind, QStringLiteral("file")},
                                           {crawl::journalkey::inputPath, list},
                                           {crawl::InputFingerprint::kSettingsKey, print->toString()},
                                           {ui::CrawlFileInfo::kState, ui::CrawlFileInfo::kStopped},
                                           {ui::CrawlFileInfo::kListName, QStringLiteral("list.txt")}},
                                          &storeError);
            QVERIFY2(store, qPrintable(storeError.message));
            crawl::StoreInputLine line;
            line.lineNumber = 1;
            line.raw = QString::fromUtf8(original.left(original.indexOf('\n')));
            line.normalizedUrl = line.raw;
            line.hostKey = host;
            QVERIFY(store->appendInput({line}, 0));
        }
        ui::MainWindow window;
        window.setCrawlsFolder(QFileInfo(path).absolutePath());
        window.setConfirmationsEnabled(false);
        window.setLimits(quickLimits(), quickPolicy());

        // The list was edited: its unread lines are not what the crawl started with. Refused.
        {
            QFile file(list);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(site.urlList(host, 7, QStringLiteral("/other%1")));
        }
        QVERIFY(!window.resumeCrawl(path));
        QVERIFY2(
            window.statusBar()->currentMessage().contains(QStringLiteral("changed since the crawl started")),
            qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(window.engine()->state(), crawl::CrawlState::Idle);
        QCOMPARE(site.totalRequests(), 0);

        // The list as it was: the crawl continues with its lines 2-5.
        {
            QFile file(list);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(original);
            QVERIFY(file.flush()); // before the time is set: a later write would change it again
            QVERIFY(file.setFileTime(QDateTime::fromMSecsSinceEpoch(print->modifiedMs),
                                     QFileDevice::FileModificationTime));
        }
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        QVERIFY(window.resumeCrawl(path));
        QVERIFY(finished.wait(30'000));
        QCOMPARE(window.resultsModel()->rowCount(), 5);
        QCOMPARE(window.resultsModel()->failureCount(), 0);
    }

    void openCrawlShowsItsRows() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("cli.db"));
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const int urls = 25;
        {
            QFile file(list);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(site.urlList(host, urls, QStringLiteral("/o%1")));
            file.write("not a url\n");
        }
        QProcess cli;
        cli.start(QStringLiteral(CRAWLSCOPE_BINARY),
                  {QStringLiteral("--headless"), QStringLiteral("--quiet"), QStringLiteral("--robots"),
                   QStringLiteral("ignore"), QStringLiteral("--interval-ms"), QStringLiteral("0"),
                   QStringLiteral("--input"), list, QStringLiteral("--store"), store,
                   QStringLiteral("--output"), dir.filePath(QStringLiteral("x.csv"))});
        QVERIFY(cli.waitForFinished(60'000));
        QCOMPARE(cli.exitCode(), 0);

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.setCrawlsFolder(dir.filePath(QStringLiteral("crawls")));
        QSignalSpy opened(&window, &ui::MainWindow::crawlFileOpened);
        window.openCrawl(store);
        QVERIFY(opened.wait(20'000));
        QCOMPARE(opened.last().at(1).toLongLong(), qint64(urls + 1));
        QCOMPARE(opened.last().at(2).toBool(), false);
        QCOMPARE(window.resultsModel()->rowCount(), urls + 1);
        QCOMPARE(window.resultsModel()->failureCount(), 1); // the invalid line
        QCOMPARE(window.crawlFile(), QFileInfo(store).absoluteFilePath());
        QVERIFY(window.recentCrawlsMenu()->lists().paths().contains(QFileInfo(store).absoluteFilePath()));

        // Save Crawl As of an opened crawl copies the file (no engine holds it).
        QSignalSpy saved(&window, &ui::MainWindow::crawlSaved);
        const QString copy = dir.filePath(QStringLiteral("copy.crawl"));
        window.saveCrawlAs(copy);
        QVERIFY(saved.wait(20'000));
        QVERIFY2(saved.last().at(0).toBool(), qPrintable(saved.last().at(2).toString()));
        QCOMPARE(clitest::exportedRows(copy, dir.filePath(QStringLiteral("copy.csv"))),
                 clitest::exportedRows(store, dir.filePath(QStringLiteral("store.csv"))));

        // A file that is not a crawl: a clear error, nothing shown.
        const QString bogus = dir.filePath(QStringLiteral("bogus.crawl"));
        {
            QFile file(bogus);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("not sqlite at all");
        }
        window.openCrawl(bogus);
        QVERIFY(opened.wait(20'000));
        QCOMPARE(opened.last().at(1).toLongLong(), qint64(-1));
    }
};

QTEST_MAIN(TestCrawlFiles)
#include "tst_crawlfiles.moc"
