// A crawl file is data that can come from anyone, and Save Crawl As writes where the user points: a
// stored record may only make a window Resume stricter, and a copy never replaces a file the crawl (or
// another crawl) is using: the live crawl's SQLite "-wal", its input list, another window's live crawl.
#include "crawlfiles/crawlfileinfo.h"
#include "crawlfiles/resumesettings.h"
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/resultsmodel.h"
#include "store/crawlstore.h"
#include "store/storedcrawlconfig.h"
#include "testsite.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

QByteArray contents(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

} // namespace

class TestCrawlFileSafety : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    // A tampered record must not switch off the window's redirect safety (defect 2 of the tryout).
    void tamperedConfigKeepsWindowSafety() {
        const auto stored = crawl::StoredCrawlConfig::fromJson(QStringLiteral(
            R"({"version":1,"policy":{"sendCredentialsCrossOrigin":true,"refusePrivateRedirects":false}})"));
        QVERIFY(stored);
        crawl::FetchPolicy window;
        window.sendCredentialsCrossOrigin = false;
        window.refusePrivateRedirects = true;
        window.headers.append({QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer SECRET")});
        const ui::ResumeSettings chosen =
            ui::ResumeSettings::decide(stored, crawl::CrawlLimits{}, window, crawl::CrawlQuality{});
        QVERIFY(chosen.fromCrawlFile);
        QVERIFY2(!chosen.policy.sendCredentialsCrossOrigin,
                 "a tampered crawl file sends the window's Authorization header to redirect targets");
        QVERIFY2(chosen.policy.refusePrivateRedirects,
                 "a tampered crawl file switches off the refusal of redirects to private addresses");
    }

    // The stricter side wins either way: a crawl started strict stays strict on a laxer window.
    void strictStoredSafetyIsKept() {
        const auto stored = crawl::StoredCrawlConfig::fromJson(QStringLiteral(
            R"({"version":1,"policy":{"sendCredentialsCrossOrigin":false,"refusePrivateRedirects":true}})"));
        QVERIFY(stored);
        crawl::FetchPolicy window;
        window.sendCredentialsCrossOrigin = true;
        window.refusePrivateRedirects = false;
        const ui::ResumeSettings chosen =
            ui::ResumeSettings::decide(stored, crawl::CrawlLimits{}, window, crawl::CrawlQuality{});
        QVERIFY(!chosen.policy.sendCredentialsCrossOrigin);
        QVERIFY(chosen.policy.refusePrivateRedirects);
        // Both lax: lax (the user chose it on both sides).
        crawl::FetchPolicy lax = window;
        const auto laxStored = crawl::StoredCrawlConfig::fromJson(QStringLiteral(
            R"({"version":1,"policy":{"sendCredentialsCrossOrigin":true,"refusePrivateRedirects":false}})"));
        QVERIFY(laxStored);
        const ui::ResumeSettings both =
            ui::ResumeSettings::decide(laxStored, crawl::CrawlLimits{}, lax, crawl::CrawlQuality{});
        QVERIFY(both.policy.sendCredentialsCrossOrigin);
        QVERIFY(!both.policy.refusePrivateRedirects);
    }

    // Save Crawl As of a live crawl onto its "-wal" (picked with "All files"), its input list, or a crawl
    // file another live window writes to: each refused with a reason, nothing replaced (defects 3 and 4).
    void saveAsRefusesFilesInUse() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QByteArray listBytes = site.urlList(host, 40, QStringLiteral("/w%1?ms=100"));
        {
            QFile file(list);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QCOMPARE(file.write(listBytes), listBytes.size());
        }
        // A crawl file a live window is writing to (this process stands in for that window).
        const QString otherLive = dir.filePath(QStringLiteral("other.crawl"));
        {
            crawl::StoreError storeError;
            auto other = crawl::CrawlStore::create(
                otherLive,
                {{ui::CrawlFileInfo::kOwnerPid, QString::number(QCoreApplication::applicationPid())},
                 {ui::CrawlFileInfo::kState, ui::CrawlFileInfo::kRunning}},
                &storeError);
            QVERIFY2(other, qPrintable(storeError.message));
        }
        const QByteArray otherBytes = contents(otherLive);

        ui::MainWindow window;
        window.setCrawlsFolder(dir.filePath(QStringLiteral("crawls")));
        window.setConfirmationsEnabled(false);
        crawl::CrawlLimits limits;
        limits.globalInFlight = 2;
        limits.perHostInFlight = 2;
        limits.intervalMs = 0;
        crawl::FetchPolicy policy;
        policy.maxRetries = 0;
        window.setLimits(limits, policy);
        QSignalSpy loaded(&window, &ui::MainWindow::listLoaded);
        window.loadFile(list);
        QVERIFY(loaded.wait(10'000));
        QSignalSpy saved(&window, &ui::MainWindow::crawlSaved);
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        const QString path = window.crawlFile();
        QVERIFY(QTest::qWaitFor([&] { return window.resultsModel()->rowCount() > 2; }, 20'000));
        const QString wal = path + QStringLiteral("-wal");
        QVERIFY2(QFileInfo(wal).isFile(), qPrintable(wal));

        const auto refused = [&](const QString &target, const QString &reason) -> bool {
            saved.clear();
            window.saveCrawlAs(target);
            if (!saved.wait(20'000))
                return false;
            const QString message = saved.last().at(2).toString();
            qInfo("Save As %s: %s", qPrintable(QFileInfo(target).fileName()), qPrintable(message));
            return !saved.last().at(0).toBool() && message.contains(reason);
        };
        QVERIFY(refused(wal, QStringLiteral("SQLite")));
        QVERIFY(refused(path + QStringLiteral("-shm"), QStringLiteral("SQLite")));
        QVERIFY(refused(list, QStringLiteral("list")));
        QVERIFY(refused(otherLive, QStringLiteral("another crawl")));
        // Still possible: a copy next to them.
        const QString copy = dir.filePath(QStringLiteral("copy.crawl"));
        saved.clear();
        window.saveCrawlAs(copy);
        QVERIFY(saved.wait(20'000));
        QVERIFY2(saved.last().at(0).toBool(), qPrintable(saved.last().at(2).toString()));
        QVERIFY(QFileInfo(copy).isFile());

        QVERIFY(finished.wait(60'000));
        QCOMPARE(contents(list), listBytes);
        QCOMPARE(contents(otherLive), otherBytes);
    }
};

QTEST_MAIN(TestCrawlFileSafety)
#include "tst_crawlfilesafety.moc"
