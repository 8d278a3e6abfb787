// The window against the local test site: load a list, start, watch hosts go in flight, move the
// per-host slider and check that both the engine and the server follow; failures show with their
// reasons; retry replaces rows; export writes the command line's CSV and reads back with the same rows.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/hostsmodel.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "output/csvwriter.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QAction>
#include <QClipboard>
#include <QFile>
#include <QFileInfo>
#include <QFrame>
#include <QGuiApplication>
#include <QLabel>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

// RFC 4180 reader for the round trip (fields may hold commas, quotes and newlines).
QList<QStringList> parseCsv(const QByteArray &bytes) {
    QList<QStringList> rows;
    QStringList row;
    QByteArray field;
    bool quoted = false;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (quoted) {
            if (c == '"' && i + 1 < bytes.size() && bytes[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.append(QString::fromUtf8(field));
            field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n')
                ++i;
            row.append(QString::fromUtf8(field));
            field.clear();
            rows.append(row);
            row.clear();
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty()) {
        row.append(QString::fromUtf8(field));
        rows.append(row);
    }
    return rows;
}

int inFlightShown(QTableView *view, const QString &host) {
    // Read what the hosts *view* shows (through its sort proxy), not the engine.
    const QAbstractItemModel *model = view->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, ui::HostsModel::InFlightColumn);
        if (index.data(ui::HostsModel::HostKeyRole).toString() == host)
            return index.data(ui::HostsModel::InFlightRole).toInt();
    }
    return -1;
}

// Moves a slider step by step (as a drag does) until its spin box shows `target`.
void dragSliderTo(ui::SliderSpinBox *control, int target) {
    QSlider *slider = control->slider();
    const int step = control->value() > target ? -1 : 1;
    for (int pos = slider->value(); pos >= slider->minimum() && pos <= slider->maximum(); pos += step) {
        slider->setValue(pos);
        if (control->value() == target)
            return;
    }
}

int rowOf(ui::MainWindow &window, const QString &url) {
    for (int row = 0; row < window.resultsModel()->rowCount(); ++row) {
        if (window.resultsModel()->store().url(row) == url)
            return row;
    }
    return -1;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void loadFileShowsSummary() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("list.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            "id,URL\n1,http://127.0.0.1:1/a\n2,http://127.0.0.1:1/a\n3,http://127.0.0.1:1/b\n4,ftp://x/\n");
        file.close();
        ui::MainWindow window;
        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        window.loadFile(path);
        QVERIFY(loaded.wait(10'000));
        const auto scan = loaded.first().first().value<crawl::UrlListScan>();
        QCOMPARE(scan.valid, 2);
        QCOMPARE(scan.duplicates, 1);
        QCOMPARE(scan.invalid, 1);
        auto *banner = window.findChild<QFrame *>(QStringLiteral("loadSummary"));
        QVERIFY(banner);
        const QList<QLabel *> labels = banner->findChildren<QLabel *>();
        QVERIFY(!labels.isEmpty());
        const QString text = labels.first()->text();
        QVERIFY2(text.contains(QStringLiteral("1 invalid")) && text.contains(QStringLiteral("line 5")),
                 qPrintable(text));
        QCOMPARE(QSettings().value(QStringLiteral("paths/lastFolder")).toString(),
                 QFileInfo(path).absolutePath());
    }

    void crawlSteerExport() {
        testsite::TestSite site;
        QString error;
        const QString slowHost = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!slowHost.isEmpty(), qPrintable(error));
        const QString badHost = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!badHost.isEmpty(), qPrintable(error));

        QByteArray list = "# window test\n";
        const int slowUrls = 80;
        for (int i = 0; i < slowUrls; ++i)
            list += (site.baseUrl(slowHost) + QStringLiteral("/page%1?ms=300\n").arg(i)).toUtf8();
        list += (site.baseUrl(badHost) + QStringLiteral("/missing?status=404\n")).toUtf8();
        list += (site.baseUrl(badHost) + QStringLiteral("/stuck?hang=1\n")).toUtf8();
        list += "ftp://not-crawlable.example/\n";

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        crawl::CrawlEngine *engine = window.engine();

        ui::LimitsPanel *panel = window.limitsPanel();
        panel->globalInFlight()->setValue(32);
        panel->perHostInFlight()->setValue(4);
        panel->interval()->setValue(0);
        panel->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        panel->timeout()->setValue(1);
        QCOMPARE(engine->limits().perHostInFlight, 4);
        QCOMPARE(engine->limits().intervalMs, 0);
        QCOMPARE(engine->fetchPolicy().totalTimeoutS, 1);
        QCOMPARE(engine->fetchPolicy().maxRetries, 0);

        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        window.loadText(list, QStringLiteral("window test"));
        QVERIFY(loaded.wait(10'000));
        const auto scan = loaded.first().first().value<crawl::UrlListScan>();
        QCOMPARE(scan.valid, slowUrls + 2);
        QCOMPARE(scan.invalid, 1);

        QSignalSpy finished(engine, &crawl::CrawlEngine::finished);
        window.startCrawl();

        // The hosts table shows requests in flight, and the server sees the per-host limit of 4.
        QVERIFY(QTest::qWaitFor([&] { return inFlightShown(window.hostsView(), slowHost) > 0; }, 15'000));
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(slowHost).peakInFlight >= 4; }, 10'000));
        QCOMPARE(site.hostRecord(slowHost).peakInFlight, 4);

        // Move the per-host slider down to 2: the engine takes it at once.
        dragSliderTo(panel->perHostInFlight(), 2);
        QCOMPARE(panel->perHostInFlight()->value(), 2);
        QCOMPARE(engine->limits().perHostInFlight, 2);

        // Requests already running drain (lowering cancels nothing); from then on the server never sees
        // more than 2 at once.
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(slowHost).inFlight <= 2; }, 5'000));
        site.resetRecords();
        const qint64 before = site.hostRecord(slowHost).requests;
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(slowHost).requests >= before + 8; }, 15'000));
        QCOMPARE(site.hostRecord(slowHost).peakInFlight, 2);
        QVERIFY(QTest::qWaitFor([&] { return inFlightShown(window.hostsView(), slowHost) <= 2; }, 5'000));

        QVERIFY(finished.wait(60'000) || !finished.isEmpty());

        // Every line has one row; failures show with their reasons.
        QCOMPARE(window.resultsModel()->rowCount(), slowUrls + 3);
        QAbstractItemModel *failures = window.failuresView()->model();
        QTRY_COMPARE(failures->rowCount(), 3);
        QHash<QString, QPair<QString, QString>> byUrl; // url -> outcome, error
        for (int row = 0; row < failures->rowCount(); ++row) {
            byUrl.insert(failures->index(row, ui::ResultsModel::UrlColumn).data().toString(),
                         {failures->index(row, ui::ResultsModel::OutcomeColumn).data().toString(),
                          failures->index(row, ui::ResultsModel::ErrorColumn).data().toString()});
        }
        const QString missing = site.baseUrl(badHost) + QStringLiteral("/missing?status=404");
        const QString stuck = site.baseUrl(badHost) + QStringLiteral("/stuck?hang=1");
        QVERIFY2(byUrl.contains(missing), qPrintable(QStringList(byUrl.keys()).join(QLatin1Char(' '))));
        QCOMPARE(byUrl[missing].first, QStringLiteral("http_error"));
        QVERIFY(!byUrl[missing].second.isEmpty());
        QVERIFY(byUrl.contains(stuck));
        QCOMPARE(byUrl[stuck].first, QStringLiteral("timeout"));
        QVERIFY(!byUrl[stuck].second.isEmpty());
        QVERIFY(byUrl.contains(QStringLiteral("ftp://not-crawlable.example/")));
        QCOMPARE(byUrl[QStringLiteral("ftp://not-crawlable.example/")].first, QStringLiteral("invalid_url"));

        // The failures filter narrows by text.
        auto *failureFilter = qobject_cast<ui::ResultFilterSortModel *>(failures);
        QVERIFY(failureFilter);
        failureFilter->setTextFilter(QStringLiteral("stuck"));
        QCOMPARE(failures->rowCount(), 1);
        failureFilter->setTextFilter({});

        // Copy selected URLs (Ctrl+C in the failures table).
        window.failuresView()->selectAll();
        QAction *copy = nullptr;
        const QList<QAction *> actions = window.failuresView()->actions();
        for (QAction *action : actions) {
            if (action->shortcut() == QKeySequence(QKeySequence::Copy))
                copy = action;
        }
        QVERIFY(copy);
        copy->trigger();
        const QString copied = QGuiApplication::clipboard()->text();
        QVERIFY2(copied.contains(missing) && copied.contains(stuck), qPrintable(copied));

        // Export all results: the same bytes the command line writes, and they read back row for row.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("results.csv"));
        QSignalSpy exported(&window, &ui::MainWindow::exportFinished);
        QVERIFY(window.exportCsv(path, false));
        QVERIFY(exported.wait(30'000));
        QVERIFY2(exported.first().at(0).toBool(), qPrintable(exported.first().at(3).toString()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray csv = file.readAll();
        QByteArray expected = crawl::resultCsvHeader();
        for (int row = 0; row < window.resultsModel()->rowCount(); ++row)
            expected += crawl::resultCsvRow(window.resultsModel()->result(row));
        QCOMPARE(csv, expected);
        const QList<QStringList> rows = parseCsv(csv);
        QCOMPARE(rows.size(), window.resultsModel()->rowCount() + 1);
        QCOMPARE(rows.first(), crawl::resultCsvColumns());
        QSet<QString> csvUrls;
        for (qsizetype i = 1; i < rows.size(); ++i)
            csvUrls.insert(rows[i].first());
        QSet<QString> modelUrls;
        for (int row = 0; row < window.resultsModel()->rowCount(); ++row)
            modelUrls.insert(window.resultsModel()->store().url(row));
        QCOMPARE(csvUrls, modelUrls);

        // Failures only.
        exported.clear();
        const QString failuresPath = dir.filePath(QStringLiteral("failures.csv"));
        QVERIFY(window.exportCsv(failuresPath, true));
        QVERIFY(exported.wait(30'000));
        QCOMPARE(exported.first().at(2).toLongLong(), 3);

        // A failed write says why and loses nothing.
        exported.clear();
        QVERIFY(window.exportCsv(dir.filePath(QStringLiteral("no/such/dir/out.csv")), false));
        QVERIFY(exported.wait(30'000));
        QVERIFY(!exported.first().at(0).toBool());
        QVERIFY(!exported.first().at(3).toString().isEmpty());
        QCOMPARE(window.resultsModel()->rowCount(), slowUrls + 3);

        // Retry failed: the retried URLs come back with the same ids and replace their rows.
        const int rowsBefore = window.resultsModel()->rowCount();
        const int missingRow = rowOf(window, missing);
        QVERIFY(missingRow >= 0);
        const QDateTime firstFinish = window.resultsModel()->result(missingRow).finishedAt;
        window.retryFailed(ui::RetryScope::AllFailures);
        QTRY_VERIFY_WITH_TIMEOUT(window.resultsModel()->result(missingRow).finishedAt > firstFinish, 15'000);
        QCOMPARE(window.resultsModel()->rowCount(), rowsBefore);
        QCOMPARE(window.resultsModel()->result(missingRow).outcome, crawl::Outcome::HttpError);
        QCOMPARE(window.resultsModel()->failureCount(), 3);
        QCOMPARE(QSettings().value(QStringLiteral("limits/perHostInFlight")).toInt(), 2);
    }

    void retryAfterFinishFinishes() {
        // The crawl "runs again" for a retry after finished() and must finish again.
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.limitsPanel()->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        window.limitsPanel()->interval()->setValue(0);
        window.loadText((site.baseUrl(host) + QStringLiteral("/a?status=404\n") + site.baseUrl(host) +
                         QStringLiteral("/b\n"))
                            .toUtf8(),
                        QStringLiteral("retry"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(20'000));
        QCOMPARE(window.resultsModel()->rowCount(), 2);
        window.retryFailed(ui::RetryScope::AllFailures);
        QVERIFY2(finished.wait(20'000), "CrawlEngine::retry after finished() never finishes again");
        QCOMPARE(window.resultsModel()->rowCount(), 2);
        const auto last = finished.last().first().value<crawl::CrawlSummary>();
        QCOMPARE(last.last.done, 2);
    }

    void hostOverrideLimitsOneHost() {
        testsite::TestSite site;
        const QString host = site.addHost();
        const QString other = site.addHost();
        QVERIFY(!host.isEmpty() && !other.isEmpty());
        QByteArray list;
        for (int i = 0; i < 30; ++i) {
            list += (site.baseUrl(host) + QStringLiteral("/o%1?ms=200\n").arg(i)).toUtf8();
            list += (site.baseUrl(other) + QStringLiteral("/o%1?ms=200\n").arg(i)).toUtf8();
        }
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.limitsPanel()->perHostInFlight()->setValue(3);
        window.limitsPanel()->interval()->setValue(0);
        window.setHostOverride(host, crawl::HostOverride{1, 0});
        QCOMPARE(window.engine()->limits().hostOverrides.value(host), (crawl::HostOverride{1, 0}));
        window.loadText(list, QStringLiteral("override"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(host).requests >= 6; }, 15'000));
        QCOMPARE(site.hostRecord(host).peakInFlight, 1);
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(other).peakInFlight == 3; }, 15'000));
        // The hosts table marks the overridden host and shows its own limit.
        QVERIFY(QTest::qWaitFor(
            [&] {
                const int row = window.hostsModel()->rowForHost(host);
                return row >= 0 && window.hostsModel()->host(row).overridden &&
                       window.hostsModel()->host(row).maxInFlight == 1;
            },
            5'000));
        // Pause and resume the whole crawl.
        window.pauseOrResume();
        QCOMPARE(window.engine()->state(), crawl::CrawlState::Paused);
        window.pauseOrResume();
        QCOMPARE(window.engine()->state(), crawl::CrawlState::Running);

        // Back to the global limit: the host may use 3 again.
        window.setHostOverride(host, std::nullopt);
        QVERIFY(window.engine()->limits().hostOverrides.isEmpty());
        site.resetRecords();
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(host).peakInFlight == 3; }, 15'000));
        QVERIFY(finished.wait(60'000));
    }

    void closeMidCrawlStopsCleanly() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        QByteArray list;
        for (int i = 0; i < 40; ++i)
            list += (site.baseUrl(host) + QStringLiteral("/slow%1?ms=2000\n").arg(i)).toUtf8();
        auto *window = new ui::MainWindow;
        QPointer<ui::MainWindow> guard(window);
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->setConfirmationsEnabled(false);
        window->limitsPanel()->perHostInFlight()->setValue(4);
        window->show();
        window->loadText(list, QStringLiteral("slow"));
        QSignalSpy finished(window->engine(), &crawl::CrawlEngine::finished);
        window->startCrawl();
        QVERIFY(QTest::qWaitFor([&] { return site.hostRecord(host).inFlight > 0; }, 10'000));
        QVERIFY(!window->close()); // not yet: the engine is asked to stop first
        QVERIFY(finished.wait(10'000));
        QVERIFY(finished.first().first().value<crawl::CrawlSummary>().stoppedByUser);
        QTRY_VERIFY_WITH_TIMEOUT(guard.isNull(), 10'000); // closed (and deleted) once stopped
        QTRY_COMPARE_WITH_TIMEOUT(site.hostRecord(host).inFlight, 0, 10'000);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
