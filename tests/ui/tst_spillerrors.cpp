// The results' texts file failing (defect 9 of the tryout): a texts file that cannot be read back makes the
// CSV export fail with a reason instead of writing blank URLs and titles and reporting success, and the
// window shows in its status bar why texts stay in memory.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "jobs/csvexporter.h"
#include "mainwindow.h"
#include "models/resultsmodel.h"
#include "models/resultstore.h"
#include "models/textarena.h"
#include "spillfiles.h"
#include "syntheticresults.h"
#include "testsite.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

namespace {

void fill(ui::ResultStore *store, int count) {
    for (int i = 0; i < count; ++i)
        store->append(testsite::makeSyntheticResult(quint64(i + 1)));
}

} // namespace

class TestSpillErrors : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    // The same export succeeds while the file is intact: the failure below is the truncation's.
    void exportOfSpilledTextsSucceeds() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ui::ResultStore store;
        QVERIFY(store.setSpillDirectory(dir.filePath(QStringLiteral("texts"))));
        fill(&store, 20'000);
        QVERIFY(store.texts().spilledBytes() > 0);
        ui::CsvExporter exporter;
        QSignalSpy finished(&exporter, &ui::CsvExporter::finished);
        const QString path = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(exporter.start(path, store));
        QVERIFY(finished.wait(60'000));
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(3).toString()));
        QCOMPARE(finished.last().at(2).toLongLong(), 20'000);
        QVERIFY(contents(path).contains("catalog/item/1?"));
    }

    void exportFailsWhenTextsCannotBeReadBack() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString texts = dir.filePath(QStringLiteral("texts"));
        ui::ResultStore store;
        QVERIFY(store.setSpillDirectory(texts));
        fill(&store, 20'000);
        QVERIFY(store.texts().spilledBytes() > 0);
        QCOMPARE(uitest::truncateSpillFiles(texts, uitest::SpillFileKind::Texts), 1);

        ui::CsvExporter exporter;
        QSignalSpy finished(&exporter, &ui::CsvExporter::finished);
        const QString path = dir.filePath(QStringLiteral("out.csv"));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("cannot read the texts file")));
        QVERIFY(exporter.start(path, store));
        QVERIFY(finished.wait(60'000));
        const QString error = finished.last().at(3).toString();
        QVERIFY2(!finished.last().at(0).toBool(), "an export with blank URLs and titles reported success");
        QVERIFY2(error.contains(QLatin1String("could not be read back")), qPrintable(error));
        QVERIFY2(!QFileInfo::exists(path), "a partial CSV was left behind");
    }

    // The window shows why its texts stay in memory, from the first results on, and stays readable.
    void windowShowsTheTextsFileProblem() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile plain(dir.filePath(QStringLiteral("plain-file")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();

        ui::MainWindow window;
        window.setCrawlsFolder(dir.filePath(QStringLiteral("crawls")));
        window.setConfirmationsEnabled(false);
        auto *problem = window.statusBar()->findChild<QLabel *>(QStringLiteral("textsProblem"));
        QVERIFY(problem);
        QVERIFY(problem->isHidden()); // the test-mode cache folder works
        // A folder below a regular file cannot exist: texts stay in memory, with a reason.
        QVERIFY(!window.resultsModel()->spillTo(dir.filePath(QStringLiteral("plain-file/sub"))));

        crawl::CrawlLimits limits;
        limits.intervalMs = 0;
        window.setLimits(limits, crawl::FetchPolicy{});
        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        window.loadText(site.urlList(host, 3, QStringLiteral("/t%1")), QStringLiteral("list.txt"));
        QVERIFY(loaded.wait(10'000));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(30'000));
        QVERIFY(QTest::qWaitFor([&] { return window.resultsModel()->rowCount() == 3; }, 10'000));
        QVERIFY(!problem->isHidden());
        QVERIFY2(problem->text().contains(QLatin1String("cannot create")), qPrintable(problem->text()));
        QVERIFY2(problem->text().contains(QLatin1String("plain-file")), qPrintable(problem->text()));
    }

private:
    static QByteArray contents(const QString &path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
};

QTEST_MAIN(TestSpillErrors)
#include "tst_spillerrors.moc"
