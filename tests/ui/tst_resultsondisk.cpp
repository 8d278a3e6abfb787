// Issue 11: the real window with its results' rows and texts on disk, tried as a hostile user would
// (tryout 8): every sort of an opened crawl file exports exactly what `crawlscope --export` writes; a window
// spilling to disk shows what one keeping everything in memory shows, through header clicks, typed filters,
// rows and retries streaming into every sort (sliced sorts included) and Retry Selected in a sorted table;
// few descriptors left for an export, an unusable cache folder, a full disk and a rows file gone bad after
// the crawl are said, not fatal.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/incrementalfilter.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsfeed.h"
#include "models/resultsmodel.h"
#include "models/resultstore.h"
#include "pages/resultspage.h"
#include "spillfiles.h"
#include "syntheticresults.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QHostAddress>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <functional>
#include <sys/resource.h>

namespace {

void clickHeader(QTableView *view, int column) {
    QHeaderView *header = view->horizontalHeader();
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                    header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, at);
}

// Clicks `column`'s header until the table is sorted by it in `order` (whichever order a first click
// gives), waiting for a sliced sort to finish.
bool sortBy(QTableView *view, ui::ResultFilterSortModel *filter, int column, Qt::SortOrder order) {
    for (int click = 0; click < 3; ++click) {
        if (filter->sortColumn() == column && filter->sortOrder() == order && !filter->isSorting())
            return true;
        clickHeader(view, column);
        if (!QTest::qWaitFor([&] { return !filter->isSorting(); }, 30'000))
            return false;
    }
    return filter->sortColumn() == column && filter->sortOrder() == order;
}

// The rows of the table as the user reads them: the Status column's text, top to bottom.
QList<int> statusesShown(const QAbstractItemModel *model) {
    QList<int> statuses;
    for (int row = 0; row < model->rowCount(); ++row)
        statuses.append(model->index(row, ui::ResultsModel::StatusColumn).data().toInt());
    return statuses;
}

QString firstDisorder(const QList<int> &values, bool ascending) {
    for (qsizetype i = 1; i < values.size(); ++i) {
        const bool wrong = ascending ? values[i] < values[i - 1] : values[i] > values[i - 1];
        if (wrong)
            return QStringLiteral("row %1 shows %2 right after %3").arg(i).arg(values[i]).arg(values[i - 1]);
    }
    return {};
}

QStringList csvLines(const QString &path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines;
}

// What `crawlscope --export` writes for the crawl file: the ground truth.
QStringList exportedByCli(const QString &crawl, const QString &csv) {
    QProcess cli;
    cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    cli.start(QStringLiteral(CRAWLSCOPE_BINARY),
              {QStringLiteral("--export"), crawl, QStringLiteral("--output"), csv});
    if (!cli.waitForFinished(120'000) || cli.exitCode() != 0)
        return {};
    return csvLines(csv);
}

// The first pair of lines that differ between two exports, in a message.
QString firstDifference(QStringList a, QStringList b, bool sortFirst) {
    if (sortFirst) {
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
    }
    for (qsizetype i = 0; i < std::min(a.size(), b.size()); ++i) {
        if (a[i] != b[i])
            return QStringLiteral("line %1:\n  window: %2\n  --export: %3")
                .arg(i)
                .arg(a[i].left(400), b[i].left(400));
    }
    if (a.size() != b.size())
        return QStringLiteral("%1 lines, --export has %2").arg(a.size()).arg(b.size());
    return {};
}

bool waitForExport(ui::MainWindow &window, QSignalSpy &spy, QString *error) {
    if (!spy.wait(120'000)) {
        *error = QStringLiteral("no export finished");
        return false;
    }
    const QList<QVariant> args = spy.takeFirst();
    if (!args.at(0).toBool()) {
        *error = args.at(3).toString();
        return false;
    }
    Q_UNUSED(window);
    return true;
}

QString sortDisorder(const QAbstractItemModel *model, int column, Qt::SortOrder order) {
    QVariant previous;
    for (int row = 0; row < model->rowCount(); ++row) {
        const QVariant value = model->index(row, column).data(ui::ResultsModel::SortRole);
        if (row > 0) {
            const QPartialOrdering c = QVariant::compare(previous, value);
            const bool wrong =
                order == Qt::AscendingOrder ? c == QPartialOrdering::Greater : c == QPartialOrdering::Less;
            if (wrong)
                return QStringLiteral("row %1: %2 after %3")
                    .arg(row)
                    .arg(value.toString().left(100), previous.toString().left(100));
        }
        previous = value;
    }
    return {};
}

constexpr int kCrawlUrls = 6'000; // more than a chunk of rows: the opened crawl's rows go to disk

// A finished crawl file made the way a user makes one: the CLI with --store against three hosts of the
// loopback test site, with failures (404, 503 not retried), titles and a spread of latencies.
QString makeCrawlFile(testsite::TestSite *site, const QString &folder, QString *error) {
    QStringList hosts;
    for (int i = 0; i < 3; ++i) {
        hosts << site->addHost(QHostAddress(QStringLiteral("127.0.0.%1").arg(i + 2)), 0, error);
        if (hosts.last().isEmpty())
            return {};
    }
    QByteArray list;
    for (int i = 0; i < kCrawlUrls; ++i) {
        QString path = QStringLiteral("/p%1").arg(i);
        if (i % 10 == 0)
            path += QStringLiteral("?status=503");
        else if (i % 10 == 1)
            path += QStringLiteral("?status=404");
        else if (i % 7 == 0)
            path += QStringLiteral("?title=DEST%1").arg(i % 500);
        else if (i % 13 == 0)
            path += QStringLiteral("?ms=%1").arg(i % 40);
        list += "http://" + hosts[i % 3].toUtf8() + path.toUtf8() + '\n';
    }
    const QString listPath = QDir(folder).filePath(QStringLiteral("urls.txt"));
    const QString crawl = QDir(folder).filePath(QStringLiteral("made.crawl"));
    QFile file(listPath);
    if (!file.open(QIODevice::WriteOnly) || file.write(list) != list.size()) {
        *error = QStringLiteral("cannot write %1").arg(listPath);
        return {};
    }
    file.close();
    QProcess cli;
    cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    cli.start(QStringLiteral(CRAWLSCOPE_BINARY),
              {QStringLiteral("--headless"), QStringLiteral("--input"), listPath, QStringLiteral("--store"),
               crawl, QStringLiteral("--output"), QDir(folder).filePath(QStringLiteral("made.csv")),
               QStringLiteral("--robots"), QStringLiteral("ignore"), QStringLiteral("--retries"),
               QStringLiteral("0"), QStringLiteral("--interval-ms"), QStringLiteral("0"),
               QStringLiteral("--quiet")});
    // The site answers from this process: its event loop runs while the CLI crawls.
    if (!QTest::qWaitFor([&] { return cli.state() == QProcess::NotRunning; }, 120'000) ||
        cli.exitCode() != 0) {
        *error = QStringLiteral("the CLI crawl failed (exit %1)").arg(cli.exitCode());
        cli.kill();
        cli.waitForFinished(5'000);
        return {};
    }
    return crawl;
}

// A window showing its crawl views (a list loaded, never crawled), as results fed to it need.
bool showCrawlViews(ui::MainWindow *window) {
    window->setConfirmationsEnabled(false);
    window->resize(1200, 800);
    window->show();
    if (!QTest::qWaitForWindowExposed(window))
        return false;
    window->loadText("http://127.0.0.1:9/never-fetched\n", QStringLiteral("results on disk"));
    return QTest::qWaitFor([window] { return window->tabs()->isVisible(); }, 5'000);
}

// `total` results made by `resultFor(i)` reach the window as from a crawl (the engine's signal, batches of
// 1,000), and all of them are in its views.
bool feedResults(ui::MainWindow &window, int total, const std::function<crawl::CrawlResult(int)> &resultFor) {
    for (int first = 0; first < total; first += 1000) {
        QList<crawl::CrawlResult> results;
        for (int i = first; i < std::min(total, first + 1000); ++i)
            results.append(resultFor(i));
        Q_EMIT window.engine()->resultsReady(results);
    }
    return QTest::qWaitFor([&] { return window.resultsModel()->rowCount() == total; }, 30'000);
}

// Nothing of what reached the window is still waiting to be shown.
bool drained(const ui::MainWindow &window) {
    const auto *feed = window.findChild<ui::ResultsFeed *>();
    return feed && feed->pendingCount() == 0;
}

QStringList sortAndExportEveryColumn(ui::MainWindow &window, QTableView *view,
                                     ui::ResultFilterSortModel *filter, const QStringList &truth,
                                     const QString &folder) {
    const QDir dir(folder);
    QSignalSpy exported(&window, &ui::MainWindow::exportFinished);
    QString error;
    QStringList problems;
    for (int column = 0; column < ui::ResultsModel::ColumnCount; ++column) {
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            if (!sortBy(view, filter, column, order)) {
                problems << QStringLiteral("column %1: could not sort").arg(column);
                continue;
            }
            const QString disorder = sortDisorder(filter, column, order);
            if (!disorder.isEmpty())
                problems
                    << QStringLiteral("column %1 order %2: %3").arg(column).arg(int(order)).arg(disorder);
            const QString path = dir.filePath(QStringLiteral("view-%1-%2.csv").arg(column).arg(int(order)));
            if (!window.exportCurrentView(path)) {
                problems << QStringLiteral("export refused");
                continue;
            }
            if (!waitForExport(window, exported, &error)) {
                problems << QStringLiteral("column %1 order %2: export failed: %3")
                                .arg(column)
                                .arg(int(order))
                                .arg(error);
                continue;
            }
            const QString diff = firstDifference(csvLines(path), truth, true);
            if (!diff.isEmpty())
                problems << QStringLiteral("column %1 order %2: export differs: %3")
                                .arg(column)
                                .arg(int(order))
                                .arg(diff);
        }
        // The third click: arrival order.
        clickHeader(view, column);
        if (!QTest::qWaitFor([&] { return filter->sortColumn() == -1; }, 5000))
            problems << QStringLiteral("third click on %1 kept the sort").arg(column);
        const QString path = dir.filePath(QStringLiteral("arrival-%1.csv").arg(column));
        if (!window.exportCurrentView(path)) {
            problems << QStringLiteral("export refused");
            continue;
        }
        if (!waitForExport(window, exported, &error))
            problems << QStringLiteral("arrival after column %1: export failed: %2").arg(column).arg(error);
        else if (const QString diff = firstDifference(csvLines(path), truth, false); !diff.isEmpty())
            problems << QStringLiteral("arrival after column %1: %2").arg(column).arg(diff);
    }
    return problems;
}

} // namespace

class TestResultsOnDisk : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        uitest::useFreshSettings();
        QVERIFY(m_dir.isValid());
        QString error;
        m_crawl = makeCrawlFile(&m_site, m_dir.path(), &error);
        QVERIFY2(!m_crawl.isEmpty(), qPrintable(error));
    }

    // The user sorts the Results tab by Status (ascending: the failures at the bottom) and retries two
    // failed rows that sit next to each other; they come back in one batch with statuses above a failure
    // that was not retried. The table must stay sorted by Status; it showed "550" above "503".
    void retriedNeighboursInStatusSortedTableStaySorted() {
        ui::MainWindow window;
        QVERIFY(showCrawlViews(&window));
        const ui::ResultsModel *model = window.resultsModel();
        QVERIFY2(model->store().rows().isSpilling(), qPrintable(model->store().spillError()));

        // 10,000 rows (rows on disk); the last three failed with 503, in list order a, b, q.
        const int total = 10'000;
        auto resultFor = [](int i) {
            crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
            r.outcome = crawl::Outcome::Ok;
            r.status = 200;
            r.error.clear();
            if (i >= total - 3) {
                r.outcome = crawl::Outcome::HttpError;
                r.status = 503;
                r.error = QStringLiteral("HTTP 503 Service Unavailable");
            }
            return r;
        };
        QVERIFY(feedResults(window, total, resultFor));
        QVERIFY(model->store().rows().spilledBytes() > 0);

        window.tabs()->setCurrentWidget(window.resultsPage());
        QTableView *view = window.resultsView();
        QTRY_VERIFY(view->isVisible());
        auto *filter = qobject_cast<ui::ResultFilterSortModel *>(view->model());
        QVERIFY(filter);
        QVERIFY(sortBy(view, filter, ui::ResultsModel::StatusColumn, Qt::AscendingOrder));
        QVERIFY(firstDisorder(statusesShown(filter), true).isEmpty());

        // The retry of a and b: their new answers arrive together (one engine batch), q keeps its 503.
        QList<crawl::CrawlResult> retried;
        for (const int i : {total - 3, total - 2}) {
            crawl::CrawlResult r = resultFor(i);
            r.status = i == total - 3 ? 550 : 560;
            r.error = QStringLiteral("HTTP %1").arg(r.status);
            r.attempts = 2;
            retried.append(r);
        }
        Q_EMIT window.engine()->resultsReady(retried);
        QTRY_VERIFY(model->result(total - 2).status == 560);
        QCoreApplication::processEvents();

        const QList<int> shown = statusesShown(filter);
        QCOMPARE(shown.size(), total);
        const QString disorder = firstDisorder(shown, true);
        QVERIFY2(disorder.isEmpty(),
                 qPrintable(QStringLiteral("sorted by Status ascending, after the retry the table is out of "
                                           "order: %1 (bottom rows: %2)")
                                .arg(disorder)
                                .arg(QStringList{QString::number(shown[total - 3]),
                                                 QString::number(shown[total - 2]),
                                                 QString::number(shown[total - 1])}
                                         .join(QLatin1String(", ")))));
    }

    // An opened crawl (rows and texts on disk) sorted by every column, both ways, by header clicks; each
    // order exported ("Export Current View") must hold the crawl's rows exactly as `--export` writes them,
    // and a third click returns to arrival order, whose export is `--export` line for line.
    void sortedExportsOfAnOpenedCrawlMatchTheCrawl() {
        const QString crawl = m_crawl;
        QTemporaryDir dir;
        const QStringList truth = exportedByCli(crawl, dir.filePath(QStringLiteral("truth.csv")));
        QVERIFY(truth.size() > 1);
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.resize(1400, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openCrawl(crawl);
        const ui::ResultsModel *model = window.resultsModel();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), truth.size() - 1, 120'000);
        QVERIFY2(model->store().rows().spilledBytes() > 0, qPrintable(model->store().spillError()));
        window.tabs()->setCurrentWidget(window.resultsPage());
        QTableView *view = window.resultsView();
        QTRY_VERIFY(view->isVisible());
        auto *filter = qobject_cast<ui::ResultFilterSortModel *>(view->model());
        const QStringList problems = sortAndExportEveryColumn(window, view, filter, truth, dir.path());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // Few descriptors left (ulimit -n: a crawl of many hosts holds many sockets) while exporting a sorted
    // view: the snapshot cannot dup() its files (RowArena/TextArena then copy the chunks into memory). The
    // export must write the rows, or fail saying why; the window must not die. Run in a child process
    // (exportUnderDescriptorLimit below): with 0 or 1 descriptor to spare the whole application aborted
    // with "GLib-ERROR **: Creating pipes for GWakeup: Too many open files", losing the crawl on screen.
    void exportWithFewDescriptorsLeft() {
        if (qEnvironmentVariableIsSet("CRAWLSCOPE_TEST_SPARE_FDS"))
            QSKIP("the child's own run");
        for (int spare = 0; spare <= 3; ++spare) {
            QProcess child;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("CRAWLSCOPE_TEST_SPARE_FDS"), QString::number(spare));
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            child.setProcessEnvironment(env);
            child.setProcessChannelMode(QProcess::MergedChannels);
            child.start(QCoreApplication::applicationFilePath(),
                        {QStringLiteral("exportUnderDescriptorLimit")});
            QVERIFY(child.waitForStarted(10'000));
            QVERIFY(child.waitForFinished(240'000));
            const QString output = QString::fromLocal8Bit(child.readAll());
            QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0,
                     qPrintable(QStringLiteral("exporting with %1 spare descriptors, the window %2:\n%3")
                                    .arg(spare)
                                    .arg(child.exitStatus() == QProcess::CrashExit ? QStringLiteral("crashed")
                                                                                   : QStringLiteral("failed"))
                                    .arg(output.right(1500))));
        }
    }

    void exportUnderDescriptorLimit() {
        if (!qEnvironmentVariableIsSet("CRAWLSCOPE_TEST_SPARE_FDS"))
            QSKIP("run by exportWithFewDescriptorsLeft in a child process");
        const int spare = qEnvironmentVariableIntValue("CRAWLSCOPE_TEST_SPARE_FDS");
        ui::MainWindow window;
        QVERIFY(showCrawlViews(&window));
        const ui::ResultsModel *model = window.resultsModel();
        const int total = 30'000;
        QVERIFY(feedResults(window, total, [&](int i) {
            crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
            r.title = QStringLiteral("title %1").arg((i * 7919) % total);
            return r;
        }));
        QVERIFY(model->store().rows().spilledBytes() > 0);
        window.tabs()->setCurrentWidget(window.resultsPage());
        QTableView *view = window.resultsView();
        QTRY_VERIFY(view->isVisible());
        auto *filter = qobject_cast<ui::ResultFilterSortModel *>(view->model());
        QSignalSpy exported(&window, &ui::MainWindow::exportFinished);
        QTemporaryDir dir;
        QString error;
        QVERIFY(sortBy(view, filter, ui::ResultsModel::TitleColumn, Qt::AscendingOrder));
        const QString reference = dir.filePath(QStringLiteral("reference.csv"));
        QVERIFY(window.exportCurrentView(reference));
        QVERIFY2(waitForExport(window, exported, &error), qPrintable(error));
        const QStringList expected = csvLines(reference);
        QCOMPARE(expected.size(), total + 1);

        const int open =
            int(QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::System | QDir::Files).size());
        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_NOFILE, &old), 0);
        rlimit limited = old;
        limited.rlim_cur = rlim_t(open + spare);
        QCOMPARE(setrlimit(RLIMIT_NOFILE, &limited), 0);
        const QString path = dir.filePath(QStringLiteral("limited.csv"));
        error.clear();
        const bool ok = window.exportCurrentView(path) && waitForExport(window, exported, &error);
        setrlimit(RLIMIT_NOFILE, &old);
        if (ok)
            QCOMPARE(firstDifference(csvLines(path), expected, false), QString());
        else
            QVERIFY2(error.contains(QLatin1String("open files")), qPrintable(error));
    }

    // README: "If the cache folder cannot be written (or fills up), rows and texts stay in memory, and the
    // status bar and a warning on stderr say why." The real application started with its cache folder
    // being a regular file: stderr said nothing at all (only a full disk warns).
    void unusableCacheFolderIsSaidOnStderr() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile plain(dir.filePath(QStringLiteral("cache-is-a-file")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.remove(QStringLiteral("CRAWLSCOPE_CRAWLS_DIR"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), plain.fileName());
        app.setProcessEnvironment(env);
        app.start(QStringLiteral(CRAWLSCOPE_BINARY), QStringList());
        QVERIFY(app.waitForStarted(10'000));
        QByteArray stderrText;
        const bool said = QTest::qWaitFor(
            [&] {
                stderrText += app.readAllStandardError();
                return stderrText.contains("memory") || stderrText.contains("cache-is-a-file");
            },
            10'000);
        Q_UNUSED(said); // judged below, on everything it wrote
        app.kill();
        app.waitForFinished(10'000);
        stderrText += app.readAllStandardError();
        QVERIFY2(
            stderrText.contains("cache-is-a-file"),
            qPrintable(QStringLiteral("the cache folder %1 cannot be made, rows and texts stay in memory, "
                                      "and stderr says: \"%2\"")
                           .arg(plain.fileName(), QString::fromLocal8Bit(stderrText).trimmed())));
    }

    // The same crawl opened in two windows, one with its rows and texts on disk, one with them in memory
    // (no spill folder); the same header clicks and filter texts typed in each: every "Export Current View"
    // must be the same file, line for line.
    void spilledWindowShowsWhatAnInMemoryWindowShows() {
        const QString crawl = m_crawl;
        QTemporaryDir dir;
        ui::MainWindow spilled;
        ui::MainWindow inMemory;
        QVERIFY(!inMemory.resultsModel()->spillTo(QString()));
        for (ui::MainWindow *window : {&spilled, &inMemory}) {
            window->setConfirmationsEnabled(false);
            window->resize(1400, 800);
            window->show();
            QVERIFY(QTest::qWaitForWindowExposed(window));
        }
        QSignalSpy spilledOpened(&spilled, &ui::MainWindow::crawlFileOpened);
        QSignalSpy inMemoryOpened(&inMemory, &ui::MainWindow::crawlFileOpened);
        spilled.openCrawl(crawl);
        inMemory.openCrawl(crawl);
        QTRY_VERIFY_WITH_TIMEOUT(!spilledOpened.isEmpty() && !inMemoryOpened.isEmpty(), 120'000);
        QTRY_VERIFY_WITH_TIMEOUT(drained(spilled) && drained(inMemory), 30'000);
        QCOMPARE(spilled.resultsModel()->rowCount(), kCrawlUrls);
        QCOMPARE(spilled.resultsModel()->rowCount(), inMemory.resultsModel()->rowCount());
        QVERIFY(spilled.resultsModel()->store().rows().spilledBytes() > 0);
        QCOMPARE(inMemory.resultsModel()->store().rows().spilledBytes(), 0);
        QStringList problems;
        int step = 0;
        auto exportBoth = [&](const QString &what) {
            QStringList files;
            for (ui::MainWindow *window : {&spilled, &inMemory}) {
                QSignalSpy exported(window, &ui::MainWindow::exportFinished);
                const QString path =
                    dir.filePath(QStringLiteral("step-%1-%2.csv").arg(step).arg(files.size()));
                QString error;
                if (!window->exportCurrentView(path) || !waitForExport(*window, exported, &error)) {
                    problems << QStringLiteral("%1: export failed: %2").arg(what, error);
                    return;
                }
                files << path;
            }
            ++step;
            if (const QString diff = firstDifference(csvLines(files[0]), csvLines(files[1]), false);
                !diff.isEmpty())
                problems
                    << QStringLiteral("%1: spilled window differs from in-memory one: %2").arg(what, diff);
        };
        const QStringList texts{QStringLiteral("p1"), QStringLiteral("503"), QStringLiteral("DEST1"),
                                QStringLiteral("127.0.0.3"), QStringLiteral("404")};
        for (int column = 0; column < ui::ResultsModel::ColumnCount; ++column) {
            for (int click = 0; click < 3; ++click) {
                const QString text = texts[(column * 3 + click) % texts.size()];
                for (ui::MainWindow *window : {&spilled, &inMemory}) {
                    window->tabs()->setCurrentWidget(window->resultsPage());
                    QTableView *view = window->resultsView();
                    QTRY_VERIFY(view->isVisible());
                    auto *filter = qobject_cast<ui::ResultFilterSortModel *>(view->model());
                    clickHeader(view, column);
                    QVERIFY(QTest::qWaitFor([&] { return !filter->isSorting(); }, 30'000));
                    auto *box = window->findChild<QLineEdit *>(QStringLiteral("resultsFilter"));
                    QVERIFY(box);
                    box->clear();
                    box->setFocus();
                    QTest::keyClicks(box, text);
                }
                // Both filters settle (typed text is applied after a pause, incrementally).
                auto *a = qobject_cast<ui::ResultFilterSortModel *>(spilled.resultsView()->model());
                auto *b = qobject_cast<ui::ResultFilterSortModel *>(inMemory.resultsView()->model());
                QTRY_VERIFY_WITH_TIMEOUT(a->textFilter() == text && b->textFilter() == text &&
                                             !a->isSorting() && !b->isSorting() &&
                                             !spilled.resultsPage()->textFilter()->isRunning() &&
                                             !inMemory.resultsPage()->textFilter()->isRunning(),
                                         30'000);
                exportBoth(QStringLiteral("column %1 click %2 filter \"%3\" (%4 rows)")
                               .arg(column)
                               .arg(click + 1)
                               .arg(text)
                               .arg(a->rowCount()));
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The rows file goes bad (a disk error, another process truncating it) after the crawl has finished:
    // the user scrolls back to the top of the Results table and reads blank cells. The status bar must say
    // why ("any that cannot be read show blank"); it stayed hidden, since it is only updated when new
    // results arrive, and a finished crawl gets none.
    void unreadableRowsAfterTheCrawlAreExplained() {
        ui::MainWindow window;
        QVERIFY(showCrawlViews(&window));
        ui::ResultsModel *model = window.resultsModel();
        const int total = 20'000;
        QVERIFY(feedResults(window, total, [](int i) { return testsite::makeSyntheticResult(quint64(i)); }));
        auto *problem = window.statusBar()->findChild<QLabel *>(QStringLiteral("textsProblem"));
        QVERIFY(problem);
        QVERIFY(problem->isHidden());
        window.tabs()->setCurrentWidget(window.resultsPage());
        QTableView *view = window.resultsView();
        QTRY_VERIFY(view->isVisible());
        view->scrollToBottom();
        QCoreApplication::processEvents();

        const QString folder = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
        QCOMPARE(uitest::truncateSpillFiles(folder, uitest::SpillFileKind::Rows), 1);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("cannot read the rows file")));
        view->scrollToTop();
        view->viewport()->repaint();
        QCoreApplication::processEvents();
        const QString shown = view->model()->index(0, ui::ResultsModel::UrlColumn).data().toString();
        QVERIFY2(model->store().rows().unreadableRows() > 0, qPrintable(shown));
        // Within a second (the window looks again every second), not only when results arrive.
        QTRY_VERIFY2_WITH_TIMEOUT(
            !problem->isHidden(),
            qPrintable(QStringLiteral("the top row's URL shows as \"%1\" and the status bar says nothing "
                                      "(the store knows: \"%2\")")
                           .arg(shown, model->store().spillError())),
            3'000);
        QVERIFY2(problem->text().contains(QLatin1String("rows file")), qPrintable(problem->text()));
    }

    // Retries while sorted by Latency, rows on disk: two windows fed the same results and the same retried
    // answers (rows of long-written chunks and of the chunk being filled), one spilling, one in memory;
    // the table on show and both exports must be the same.
    void retriesWhileSortedExportAsInMemory() {
        ui::MainWindow spilled;
        ui::MainWindow inMemory;
        QVERIFY(!inMemory.resultsModel()->spillTo(QString()));
        for (ui::MainWindow *window : {&spilled, &inMemory}) {
            QVERIFY(showCrawlViews(window));
        }
        const int total = 50'000;
        auto feed = [&](const QList<crawl::CrawlResult> &results) {
            for (ui::MainWindow *window : {&spilled, &inMemory})
                Q_EMIT window->engine()->resultsReady(results);
        };
        for (int first = 0; first < total; first += 1000) {
            QList<crawl::CrawlResult> results;
            for (int i = first; i < first + 1000; ++i) {
                crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
                r.title = QStringLiteral("t%1").arg((i * 31) % 977);
                results.append(r);
            }
            feed(results);
        }
        QTRY_COMPARE_WITH_TIMEOUT(spilled.resultsModel()->rowCount(), total, 30'000);
        QTRY_COMPARE_WITH_TIMEOUT(inMemory.resultsModel()->rowCount(), total, 30'000);
        for (ui::MainWindow *window : {&spilled, &inMemory}) {
            window->tabs()->setCurrentWidget(window->resultsPage());
            QTRY_VERIFY(window->resultsView()->isVisible());
            auto *filter = qobject_cast<ui::ResultFilterSortModel *>(window->resultsView()->model());
            QVERIFY(
                sortBy(window->resultsView(), filter, ui::ResultsModel::LatencyColumn, Qt::DescendingOrder));
        }
        QRandomGenerator random(11);
        for (int batch = 0; batch < 20; ++batch) {
            QList<crawl::CrawlResult> retried;
            for (int k = 0; k < 25; ++k) {
                const int i =
                    batch % 4 == 3 ? total - 1 - int(random.bounded(3000)) : int(random.bounded(total));
                crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
                r.attempts = 2 + batch;
                r.latencyMs = random.bounded(3000);
                r.status = random.bounded(2) ? 200 : 502;
                r.outcome = r.status == 200 ? crawl::Outcome::Ok : crawl::Outcome::HttpError;
                r.error = r.status == 200 ? QString() : QStringLiteral("HTTP 502 retried %1").arg(batch);
                r.title = QStringLiteral("retried %1 of %2").arg(batch).arg(i);
                retried.append(r);
            }
            feed(retried);
            QCoreApplication::processEvents();
        }
        QTRY_VERIFY_WITH_TIMEOUT(drained(spilled) && drained(inMemory), 30'000);
        QTemporaryDir dir;
        QStringList problems;
        for (const bool view : {true, false}) {
            QStringList files;
            for (ui::MainWindow *window : {&spilled, &inMemory}) {
                QSignalSpy exported(window, &ui::MainWindow::exportFinished);
                const QString path = dir.filePath(QStringLiteral("%1-%2.csv").arg(view).arg(files.size()));
                QString error;
                QVERIFY(view ? window->exportCurrentView(path) : window->exportCsv(path, false));
                QVERIFY2(waitForExport(*window, exported, &error), qPrintable(error));
                files << path;
            }
            if (const QString diff = firstDifference(csvLines(files[0]), csvLines(files[1]), false);
                !diff.isEmpty())
                problems << QStringLiteral("%1: %2").arg(
                    view ? QStringLiteral("current view") : QStringLiteral("all"), diff);
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // Rows streaming in and retried while sorted by each column in turn (sorts of more than 32K rows run in
    // slices, with rows arriving meanwhile): the spilling window's table matches the in-memory window's.
    void streamingIntoEverySortAsInMemory() {
        ui::MainWindow spilled;
        ui::MainWindow inMemory;
        QVERIFY(!inMemory.resultsModel()->spillTo(QString()));
        for (ui::MainWindow *window : {&spilled, &inMemory}) {
            QVERIFY(showCrawlViews(window));
            window->tabs()->setCurrentWidget(window->resultsPage());
        }
        QRandomGenerator random(17);
        int next = 0;
        auto makeRows = [&](int count) {
            QList<crawl::CrawlResult> results;
            for (int k = 0; k < count; ++k) {
                const bool retry = next > 100 && random.bounded(20) == 0;
                const int i = retry ? int(random.bounded(next)) : next++;
                crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
                r.host = QStringLiteral("h%1.example").arg(random.bounded(60));
                r.title = QStringLiteral("title %1").arg(random.bounded(5000));
                r.latencyMs = random.bounded(2000);
                if (random.bounded(7) == 0) {
                    r.outcome = crawl::Outcome::HttpError;
                    r.status = 500 + random.bounded(5);
                    r.error = QStringLiteral("HTTP %1 e%2").arg(r.status).arg(random.bounded(100));
                }
                if (retry)
                    r.attempts = 3;
                results.append(r);
            }
            return results;
        };
        auto feed = [&](const QList<crawl::CrawlResult> &results) {
            for (ui::MainWindow *window : {&spilled, &inMemory})
                Q_EMIT window->engine()->resultsReady(results);
        };
        for (int b = 0; b < 40; ++b)
            feed(makeRows(1000));
        QTRY_COMPARE_WITH_TIMEOUT(spilled.resultsModel()->rowCount(), next, 30'000);
        QTRY_COMPARE_WITH_TIMEOUT(inMemory.resultsModel()->rowCount(), next, 30'000);
        QTemporaryDir dir;
        QStringList problems;
        for (int column = 0; column < ui::ResultsModel::ColumnCount; ++column) {
            for (ui::MainWindow *window : {&spilled, &inMemory}) {
                auto *filter = qobject_cast<ui::ResultFilterSortModel *>(window->resultsView()->model());
                filter->setSortBudgetMs(0.5); // slices: rows arrive while the sort runs
                clickHeader(window->resultsView(), column);
            }
            for (int b = 0; b < 6; ++b) {
                feed(makeRows(500));
                QCoreApplication::processEvents();
            }
            for (ui::MainWindow *window : {&spilled, &inMemory}) {
                auto *filter = qobject_cast<ui::ResultFilterSortModel *>(window->resultsView()->model());
                QVERIFY(QTest::qWaitFor([&] { return !filter->isSorting(); }, 30'000));
            }
            QTRY_COMPARE_WITH_TIMEOUT(spilled.resultsModel()->rowCount(), next, 30'000);
            QTRY_COMPARE_WITH_TIMEOUT(inMemory.resultsModel()->rowCount(), next, 30'000);
            QTRY_VERIFY_WITH_TIMEOUT(drained(spilled) && drained(inMemory), 30'000);
            QStringList files;
            for (ui::MainWindow *window : {&spilled, &inMemory}) {
                QSignalSpy exported(window, &ui::MainWindow::exportFinished);
                const QString path = dir.filePath(QStringLiteral("c%1-%2.csv").arg(column).arg(files.size()));
                QString error;
                QVERIFY(window->exportCurrentView(path));
                QVERIFY2(waitForExport(*window, exported, &error), qPrintable(error));
                files << path;
            }
            // Ties may be ordered differently (a retried row that lands during a sliced sort is placed after
            // its ties): the same rows, each table in its sort's order.
            if (const QString diff = firstDifference(csvLines(files[0]), csvLines(files[1]), true);
                !diff.isEmpty())
                problems << QStringLiteral("column %1: %2").arg(column).arg(diff);
            for (ui::MainWindow *window : {&spilled, &inMemory}) {
                auto *filter = qobject_cast<ui::ResultFilterSortModel *>(window->resultsView()->model());
                if (const QString disorder = sortDisorder(filter, filter->sortColumn(), filter->sortOrder());
                    !disorder.isEmpty())
                    problems << QStringLiteral("column %1 (%2 window, order %3): %4")
                                    .arg(column)
                                    .arg(window == &spilled ? QStringLiteral("spilling")
                                                            : QStringLiteral("in-memory"))
                                    .arg(int(filter->sortOrder()))
                                    .arg(disorder);
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The user clicks Latency on a long table (the sort runs in slices) while retried rows come back: once
    // the sort is done, the rows that were NOT retried must still be in Latency order among themselves.
    // They were not: a retried row's new latency misleads the merges of the sliced sort, and only the
    // retried rows are put back in place afterwards.
    void retriesDuringASlicedSortKeepOtherRowsInOrder() {
        ui::MainWindow window;
        QVERIFY(showCrawlViews(&window));
        const ui::ResultsModel *model = window.resultsModel();
        const int total = 120'000;
        QVERIFY(feedResults(window, total, [&](int i) {
            crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(i));
            r.latencyMs = (qint64(i) * 7919) % 5000;
            return r;
        }));
        QVERIFY(model->store().rows().spilledBytes() > 0);
        window.tabs()->setCurrentWidget(window.resultsPage());
        QTableView *view = window.resultsView();
        QTRY_VERIFY(view->isVisible());
        auto *filter = qobject_cast<ui::ResultFilterSortModel *>(view->model());
        filter->setSortBudgetMs(0.2); // a slow machine: many slices
        clickHeader(view, ui::ResultsModel::LatencyColumn);
        QVERIFY(filter->isSorting());
        QSet<quint64> retried;
        QRandomGenerator random(23);
        int batches = 0;
        while (filter->isSorting() && batches < 200) {
            QList<crawl::CrawlResult> results;
            for (int k = 0; k < 20; ++k) {
                const quint64 id = random.bounded(total);
                crawl::CrawlResult r = testsite::makeSyntheticResult(id);
                r.latencyMs = random.bounded(5000);
                r.attempts = 2;
                results.append(r);
                retried.insert(id);
            }
            // What the window's results feed does with a batch of the engine's (MainWindow::applyResults),
            // between two slices of the sort.
            window.resultsModel()->addResults(results);
            QCoreApplication::processEvents();
            ++batches;
        }
        QVERIFY(QTest::qWaitFor([&] { return !filter->isSorting(); }, 30'000));
        QTRY_VERIFY_WITH_TIMEOUT(drained(window), 30'000); // the feed applies what is left
        qInfo() << batches << "batches," << retried.size() << "rows retried during the sort";
        const bool ascending = filter->sortOrder() == Qt::AscendingOrder;
        qint64 previous = ascending ? -1 : std::numeric_limits<qint64>::max();
        int previousRow = -1;
        QString disorder;
        for (int row = 0; row < filter->rowCount() && disorder.isEmpty(); ++row) {
            const QModelIndex index = filter->index(row, ui::ResultsModel::LatencyColumn);
            if (retried.contains(index.data(ui::ResultsModel::IdRole).toULongLong()))
                continue;
            const qint64 latency = index.data(ui::ResultsModel::SortRole).toLongLong();
            if (ascending ? latency < previous : latency > previous)
                disorder = QStringLiteral("row %1 (never retried) shows latency %2 after row %3's %4")
                               .arg(row)
                               .arg(latency)
                               .arg(previousRow)
                               .arg(previous);
            previous = latency;
            previousRow = row;
        }
        QVERIFY2(disorder.isEmpty(),
                 qPrintable(QStringLiteral("%1 batches of retries during the sort (%2 rows retried): %3")
                                .arg(batches)
                                .arg(retried.size())
                                .arg(disorder)));
    }

    // The disk under the cache folder fills up (a file size limit stands in for it): the status bar says
    // "Results files: cannot write the texts file: File too large" and never which folder, so the user
    // cannot tell which disk to free (the crawl file, the export and the cache may all be on different
    // ones). It must name the cache folder.
    void fullDiskMessageNamesTheFolder() {
        ui::MainWindow window;
        QVERIFY(showCrawlViews(&window));
        auto *problem = window.statusBar()->findChild<QLabel *>(QStringLiteral("textsProblem"));
        QVERIFY(problem);
        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of a signal
        rlimit limited = old;
        limited.rlim_cur = rlim_t(600 * 1024);
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &limited), 0);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("stay in memory")));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("stay in memory")));
        const int total = 30'000;
        QVERIFY(feedResults(window, total, [](int i) { return testsite::makeSyntheticResult(quint64(i)); }));
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previousHandler);
        QTRY_VERIFY(!problem->isHidden());
        const QString folder = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
        QVERIFY2(problem->text().contains(folder) || problem->toolTip().contains(folder),
                 qPrintable(QStringLiteral("the status bar says \"%1\" (tooltip \"%2\"), not where: %3")
                                .arg(problem->text(), problem->toolTip(), folder)));
    }

    // Impatient clicks on a long table (sorts run in slices) while rows stream in: two quick clicks leave
    // it sorted the second way, three return it to arrival order, every row shown once.
    void quickClicksWhileRowsStreamIn() {
        ui::MainWindow window;
        QVERIFY(showCrawlViews(&window));
        ui::ResultsModel *model = window.resultsModel();
        int next = 0;
        auto feed = [&](int count) {
            QList<crawl::CrawlResult> results;
            for (int k = 0; k < count; ++k) {
                crawl::CrawlResult r = testsite::makeSyntheticResult(quint64(next));
                r.latencyMs = (qint64(next) * 7919) % 5000;
                r.title = QStringLiteral("t%1").arg((next * 13) % 1000);
                ++next;
                results.append(r);
            }
            model->addResults(results); // as the window's feed applies a batch
        };
        for (int b = 0; b < 100; ++b)
            feed(1000);
        window.tabs()->setCurrentWidget(window.resultsPage());
        QTableView *view = window.resultsView();
        QTRY_VERIFY(view->isVisible());
        auto *filter = qobject_cast<ui::ResultFilterSortModel *>(view->model());
        filter->setSortBudgetMs(0.3);
        QStringList problems;
        for (const int column : {int(ui::ResultsModel::UrlColumn), int(ui::ResultsModel::LatencyColumn),
                                 int(ui::ResultsModel::TitleColumn), int(ui::ResultsModel::HostColumn)}) {
            for (const int clicks : {1, 2, 3}) {
                for (int c = 0; c < clicks; ++c) {
                    clickHeader(view, column);
                    feed(300);
                    QCoreApplication::processEvents();
                }
                for (int k = 0; k < 5; ++k) {
                    feed(200);
                    QCoreApplication::processEvents();
                }
                if (!QTest::qWaitFor([&] { return !filter->isSorting(); }, 30'000))
                    problems << QStringLiteral("column %1, %2 clicks: the sort never ended")
                                    .arg(column)
                                    .arg(clicks);
                const int expectedColumn = clicks == 3 ? -1 : column;
                if (filter->sortColumn() != expectedColumn)
                    problems << QStringLiteral("column %1, %2 clicks: sorted by %3")
                                    .arg(column)
                                    .arg(clicks)
                                    .arg(filter->sortColumn());
                if (filter->rowCount() != model->rowCount())
                    problems << QStringLiteral("column %1, %2 clicks: %3 rows shown of %4")
                                    .arg(column)
                                    .arg(clicks)
                                    .arg(filter->rowCount())
                                    .arg(model->rowCount());
                std::vector<int> rows = filter->sourceRows();
                if (clicks == 3) {
                    if (!std::is_sorted(rows.begin(), rows.end()))
                        problems << QStringLiteral("column %1, 3 clicks: not in arrival order").arg(column);
                } else if (const QString disorder = sortDisorder(filter, column, filter->sortOrder());
                           !disorder.isEmpty()) {
                    problems
                        << QStringLiteral("column %1, %2 clicks: %3").arg(column).arg(clicks).arg(disorder);
                }
                std::sort(rows.begin(), rows.end());
                if (std::adjacent_find(rows.begin(), rows.end()) != rows.end())
                    problems
                        << QStringLiteral("column %1, %2 clicks: a row shown twice").arg(column).arg(clicks);
                // Back to no sort for the next round.
                for (int c = 0; c < 3 && filter->sortColumn() != -1; ++c) {
                    clickHeader(view, filter->sortColumn());
                    QVERIFY(QTest::qWaitFor([&] { return !filter->isSorting(); }, 30'000));
                }
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The same as retriedNeighboursInStatusSortedTableStaySorted, end to end: a real crawl of the test site
    // (rows on disk), the Results tab sorted by Status, two failures selected in the Failures tab and
    // retried (Retry Selected); both now answer 550 and 560, above the 503 of a failure not retried.
    void retrySelectedInStatusSortedWindow() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        const QString base = site.baseUrl(host);
        QByteArray list;
        for (const char *path : {"/a?fail=1&status=550", "/b?fail=1&status=560", "/q?status=503"})
            list += (base + QLatin1String(path) + QLatin1Char('\n')).toUtf8();
        list += site.urlList(host, 4500, QStringLiteral("/ok%1"));

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::LimitsPanel *panel = window.limitsPanel();
        panel->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        panel->interval()->setValue(0);
        panel->perHostInFlight()->setValue(1); // answers in list order: a, b, q first
        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        window.loadText(list, QStringLiteral("retry"));
        QVERIFY(loaded.wait(10'000));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(120'000));
        const ui::ResultsModel *model = window.resultsModel();
        QTRY_COMPARE(model->rowCount(), 4503);
        QVERIFY(model->store().rows().spilledBytes() > 0); // a, b and q are in the rows file
        QCOMPARE(model->result(0).status, 503);

        window.tabs()->setCurrentWidget(window.resultsPage());
        QTableView *view = window.resultsView();
        QTRY_VERIFY(view->isVisible());
        auto *filter = qobject_cast<ui::ResultFilterSortModel *>(view->model());
        QVERIFY(sortBy(view, filter, ui::ResultsModel::StatusColumn, Qt::AscendingOrder));

        window.tabs()->setCurrentWidget(window.failuresPage());
        QTableView *failures = window.failuresView();
        QTRY_VERIFY(failures->isVisible());
        QCOMPARE(failures->model()->rowCount(), 3);
        failures->selectionModel()->clearSelection();
        for (int row = 0; row < 3; ++row) {
            const QString url = failures->model()->index(row, ui::ResultsModel::UrlColumn).data().toString();
            if (url.contains(QLatin1String("/a?")) || url.contains(QLatin1String("/b?")))
                failures->selectionModel()->select(failures->model()->index(row, 0),
                                                   QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
        QCOMPARE(failures->selectionModel()->selectedRows().size(), 2);
        finished.clear();
        window.retryFailed(ui::RetryScope::Selected);
        QVERIFY(finished.wait(60'000));
        QTRY_VERIFY(model->result(0).status == 550 && model->result(1).status == 560);
        QCoreApplication::processEvents();
        const QList<int> shown = statusesShown(filter);
        const QString disorder = firstDisorder(shown, true);
        QVERIFY2(
            disorder.isEmpty(),
            qPrintable(QStringLiteral("Results sorted by Status ascending, after Retry Selected: %1 (bottom "
                                      "rows: %2, %3, %4)")
                           .arg(disorder)
                           .arg(shown[shown.size() - 3])
                           .arg(shown[shown.size() - 2])
                           .arg(shown[shown.size() - 1])));
    }

private:
    QTemporaryDir m_dir;
    testsite::TestSite m_site;
    QString m_crawl; // a finished crawl file of kCrawlUrls rows, made by the CLI in initTestCase
};

QTEST_MAIN(TestResultsOnDisk)
#include "tst_resultsondisk.moc"
