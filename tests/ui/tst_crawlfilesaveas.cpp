// Save Crawl As of an opened crawl (issue 11): the copy goes step by step off the GUI thread, shows its
// progress in the status bar and stops with the status bar's Cancel button, leaving no partial file and a
// replaced file as it was; a completed copy exports the same rows; the crawl file itself is never written;
// closing the window during a copy cancels it cleanly.
#include "../core/clitestsupport.h"
#include "crawlfiles/crawlfilecopier.h"
#include "crawlfiles/crawlfileinfo.h"
#include "engine/crawlengine.h"
#include "eventlooplagprobe.h"
#include "freshsettings.h"
#include "input/urlnormalizer.h"
#include "mainwindow.h"
#include "models/resultsmodel.h"
#include "store/crawlstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

constexpr qint64 kNow = 1'800'000'000'000;
constexpr int kRows = 3'000;

QByteArray contents(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

bool writeFile(const QString &path, const QByteArray &data) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

// A finished crawl of `rows` ok rows, big enough (titles of 300 characters) to span hundreds of pages.
QString makeCrawlFile(const QString &path, int rows) {
    crawl::StoreError error;
    std::unique_ptr<crawl::CrawlStore> store =
        crawl::CrawlStore::create(path, {{ui::CrawlFileInfo::kState, ui::CrawlFileInfo::kFinished}}, &error);
    if (!store)
        return error.message;
    const QString host = QStringLiteral("save.example");
    QList<crawl::StoreInputLine> lines;
    for (int i = 1; i <= rows; ++i) {
        const QString url = QStringLiteral("http://%1/page/%2").arg(host).arg(i);
        lines.append(crawl::storeInputLine(crawl::InputLine{i, url, crawl::normalizeUrl(url)}));
    }
    if (!store->appendInput(lines, kNow))
        return store->lastError().message;
    const QList<crawl::PendingEntry> chunk =
        store->nextChunkForHost(host + QStringLiteral(":80"), rows, kNow);
    QList<qint64> ids;
    for (const crawl::PendingEntry &e : chunk)
        ids.append(e.id);
    if (ids.size() != rows || store->markInFlight(ids, QStringLiteral("test"), kNow + 60'000) != rows)
        return QStringLiteral("could not lease the rows");
    crawl::ResultBatch batch;
    for (const crawl::PendingEntry &e : chunk) {
        crawl::CrawlResult r;
        r.status = 200;
        r.outcome = crawl::Outcome::Ok;
        r.attempts = 1;
        r.latencyMs = 10;
        r.title = QStringLiteral("title %1 ").arg(e.id) + QString(300, QLatin1Char('t'));
        batch.started.append(e.id);
        batch.finished.append({e.id, r});
    }
    if (!store->recordResults(batch))
        return store->lastError().message;
    return {};
}

// What a copy to `target` may leave beside it: its partial file and that file's or the target's SQLite
// side files.
QStringList leftovers(const QString &target) {
    const QFileInfo info(target);
    return info.dir().entryList(
        {info.fileName() + QStringLiteral(".partial-*"), info.fileName() + QStringLiteral("-wal"),
         info.fileName() + QStringLiteral("-journal"), info.fileName() + QStringLiteral("-shm")},
        QDir::Files | QDir::Hidden);
}

// The status bar's task progress while the crawl is saved.
QProgressBar *saveProgress(ui::MainWindow &window) {
    const QList<QProgressBar *> bars = window.statusBar()->findChildren<QProgressBar *>();
    for (QProgressBar *bar : bars) {
        if (bar->isVisible() && bar->format().startsWith(QLatin1String("Saving the crawl")))
            return bar;
    }
    return nullptr;
}

} // namespace

class TestCrawlFileSaveAs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void openedCrawlCopyShowsProgressAndCancels() {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("big.crawl"));
        const QString made = makeCrawlFile(source, kRows);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        const QByteArray sourceBytes = contents(source);
        QVERIFY2(sourceBytes.size() > 1'000'000, qPrintable(QString::number(sourceBytes.size())));
        // The user's older file at the target: kept as it is until a copy succeeds.
        const QString target = dir.filePath(QStringLiteral("existing.crawl"));
        QVERIFY(writeFile(target, "the user's older copy"));

        auto window = std::make_unique<ui::MainWindow>();
        window->setCrawlsFolder(dir.filePath(QStringLiteral("crawls")));
        window->setConfirmationsEnabled(false);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QSignalSpy opened(window.get(), &ui::MainWindow::crawlFileOpened);
        window->openCrawl(source);
        QVERIFY(opened.wait(30'000));
        QCOMPARE(opened.last().at(1).toLongLong(), qint64(kRows));
        auto *copier = window->findChild<ui::CrawlFileCopier *>();
        QVERIFY(copier);
        auto *cancel = window->statusBar()->findChild<QPushButton *>(QStringLiteral("cancelSave"));
        QVERIFY(cancel);
        QVERIFY(cancel->isHidden());

        // Two pages per step and a pause between steps: the copy of the ~1,000-page file takes seconds.
        window->setCrawlCopyStep(2, 10);
        QSignalSpy saved(window.get(), &ui::MainWindow::crawlSaved);
        QSignalSpy progress(copier, &ui::CrawlFileCopier::progress);
        ui::EventLoopLagProbe lag;
        lag.start();
        window->saveCrawlAs(target);
        QVERIFY(cancel->isVisible());
        // The status bar's task moves.
        QProgressBar *bar = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&] {
                bar = saveProgress(*window);
                return bar && bar->maximum() > 0 && bar->value() > 0;
            },
            20'000));
        const int firstValue = bar->value();
        QVERIFY(QTest::qWaitFor([&] { return bar->value() > firstValue; }, 20'000));
        QVERIFY2(bar->value() < bar->maximum(), qPrintable(QString::number(bar->value())));
        QVERIFY(saved.isEmpty());
        // One copy at a time: a second one is refused with the window's message, the first goes on.
        const QString second = dir.filePath(QStringLiteral("second.crawl"));
        window->saveCrawlAs(second);
        QVERIFY(saved.wait(10'000));
        QCOMPARE(saved.last().at(1).toString(), second);
        QVERIFY(!saved.last().at(0).toBool());
        QVERIFY2(saved.last().at(2).toString().contains(QLatin1String("still being saved")),
                 qPrintable(saved.last().at(2).toString()));
        QVERIFY(!QFileInfo::exists(second));
        QVERIFY(cancel->isVisible());
        // Resuming the crawl being copied would lock the copy out: refused, the copy goes on.
        QVERIFY(!window->resumeCrawl(source));
        QVERIFY(!crawl::isActive(window->engine()->state()));
        QVERIFY(cancel->isVisible());
        // The window kept answering while the copy ran (it never waits on the copy).
        QVERIFY2(lag.maxMs() < 500, qPrintable(QString::number(lag.maxMs())));
        lag.stop();

        // The real Cancel button: no partial file, the older file as it was, the crawl file untouched.
        saved.clear();
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(saved.wait(10'000));
        QCOMPARE(saved.last().at(1).toString(), target);
        QVERIFY(!saved.last().at(0).toBool());
        QVERIFY2(saved.last().at(2).toString().contains(QLatin1String("cancelled")),
                 qPrintable(saved.last().at(2).toString()));
        QVERIFY(cancel->isHidden());
        QVERIFY(!saveProgress(*window));
        QCOMPARE(contents(target), QByteArray("the user's older copy"));
        QCOMPARE(leftovers(target), QStringList());
        QCOMPARE(contents(source), sourceBytes);

        // A completed copy, still in several steps, replaces the older file and reads as the crawl does.
        window->setCrawlCopyStep(64, 0);
        saved.clear();
        progress.clear();
        window->saveCrawlAs(target);
        QVERIFY(saved.wait(30'000));
        QVERIFY2(saved.last().at(0).toBool(), qPrintable(saved.last().at(2).toString()));
        QCOMPARE(saved.last().at(1).toString(), target);
        QVERIFY2(progress.size() >= 3, qPrintable(QString::number(progress.size())));
        QCOMPARE(progress.last().at(0).toLongLong(), progress.last().at(1).toLongLong());
        QVERIFY(cancel->isHidden());
        QCOMPARE(leftovers(target), QStringList());
        const QStringList sourceRows =
            clitest::exportedRows(source, dir.filePath(QStringLiteral("source.csv")));
        QCOMPARE(sourceRows.size(), kRows);
        QCOMPARE(clitest::exportedRows(target, dir.filePath(QStringLiteral("copy.csv"))), sourceRows);

        // Closing the window during a copy cancels it: no file, no partial file, no crash.
        window->setCrawlCopyStep(2, 10);
        progress.clear();
        const QString closing = dir.filePath(QStringLiteral("closing.crawl"));
        window->saveCrawlAs(closing);
        QVERIFY(progress.wait(10'000));
        QVERIFY(window->close());
        window.reset();
        QVERIFY(!QFileInfo::exists(closing));
        QCOMPARE(leftovers(closing), QStringList());
        QCOMPARE(contents(source), sourceBytes);
        QCOMPARE(contents(target).left(16), QByteArray("SQLite format 3\0", 16));
    }

    // The refusals the opened crawl's copy keeps: the crawl itself, a device, a folder.
    void openedCrawlCopyRefusals() {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("small.crawl"));
        const QString made = makeCrawlFile(source, 20);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        const QByteArray sourceBytes = contents(source);
        ui::MainWindow window;
        window.setCrawlsFolder(dir.filePath(QStringLiteral("crawls")));
        window.setConfirmationsEnabled(false);
        QSignalSpy opened(&window, &ui::MainWindow::crawlFileOpened);
        window.openCrawl(source);
        QVERIFY(opened.wait(30'000));
        QSignalSpy saved(&window, &ui::MainWindow::crawlSaved);
        auto *cancel = window.statusBar()->findChild<QPushButton *>(QStringLiteral("cancelSave"));
        QVERIFY(cancel);
        const auto refused = [&](const QString &target, const QString &reason) -> bool {
            saved.clear();
            window.saveCrawlAs(target);
            if (!saved.wait(20'000))
                return false;
            const QString message = saved.last().at(2).toString();
            qInfo("Save As %s: %s", qPrintable(target), qPrintable(message));
            return !saved.last().at(0).toBool() && message.contains(reason) && cancel->isHidden();
        };
        QVERIFY(refused(source, QStringLiteral("itself")));
        QVERIFY(refused(QStringLiteral("/dev/null"), QStringLiteral("not a regular file")));
        QVERIFY(refused(dir.path(), QStringLiteral("not a regular file")));
        QVERIFY(refused(dir.filePath(QStringLiteral("no/such/folder/copy.crawl")), QStringLiteral("copy")));
        QCOMPARE(contents(source), sourceBytes);
        QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("*.partial-*")}, QDir::Files | QDir::Hidden),
                 QStringList());
    }
};

QTEST_MAIN(TestCrawlFileSaveAs)
#include "tst_crawlfilesaveas.moc"
