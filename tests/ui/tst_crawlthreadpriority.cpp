// While the window crawls, the crawl's own threads (fetch, journal, input) run 10 nicer than the GUI thread
// (also when the window itself was started under `nice`), so a saturating crawl yields the CPU to the window;
// the GUI thread keeps its own. Read from the kernel (/proc/self/task/*/stat) during a real crawl against the
// loopback test site.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "jobs/workerthread.h"
#include "mainwindow.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

// Thread name -> nice, for every thread of this process.
QMultiHash<QString, int> threadNices() {
    QMultiHash<QString, int> nices;
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile stat(tasks.filePath(tid + QStringLiteral("/stat")));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        const qsizetype open = text.indexOf('(');
        const qsizetype close = text.lastIndexOf(')');
        if (open < 0 || close < open)
            continue;
        // Fields after the name: state is field 3, nice field 19.
        const QList<QByteArray> fields = text.mid(close + 2).split(' ');
        if (fields.size() > 16)
            nices.insert(QString::fromUtf8(text.mid(open + 1, close - open - 1)), fields[16].toInt());
    }
    return nices;
}

// This thread's nice (the kernel's view of it).
int ownNice() {
    QFile self(QStringLiteral("/proc/thread-self/stat"));
    if (!self.open(QIODevice::ReadOnly))
        return -100;
    const QByteArray text = self.readAll();
    return text.mid(text.lastIndexOf(')') + 2).split(' ').value(16).toInt();
}

} // namespace

class TestCrawlThreadPriority : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        uitest::useFreshSettings();
        m_startNice = ownNice();
    }

    void crawlThreadsYieldToTheWindow() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        // Slow answers keep the crawl running while the threads are read.
        QByteArray list;
        for (int i = 0; i < 40; ++i)
            list += (site.baseUrl(host) + QStringLiteral("/p%1?ms=100\n").arg(i)).toUtf8();

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.limitsPanel()->perHostInFlight()->setValue(2);
        window.limitsPanel()->interval()->setValue(0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.loadText(list, QStringLiteral("priority"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QTRY_VERIFY_WITH_TIMEOUT(site.totalRequests() >= 2, 20'000);

        // The window's nice as started (0, or more when the tests run under `nice`): the crawl's threads
        // are 10 nicer than that, at most 19.
        const int windowNice = ownNice();
        const int wanted = std::min(19, windowNice + 10);
        const QMultiHash<QString, int> nices = threadNices();
        QStringList crawlThreads;
        for (auto it = nices.cbegin(); it != nices.cend(); ++it) {
            if (it.key().startsWith(QStringLiteral("crawl-fetch")) ||
                it.key() == QStringLiteral("crawl-journal")) {
                crawlThreads.append(it.key());
                QVERIFY2(it.value() >= wanted, qPrintable(QStringLiteral("%1 at nice %2, window at %3")
                                                              .arg(it.key())
                                                              .arg(it.value())
                                                              .arg(windowNice)));
            }
        }
        QVERIFY2(!crawlThreads.isEmpty(), qPrintable(QStringList(nices.keys()).join(QLatin1Char(','))));
        // The window's own thread is untouched.
        QCOMPARE(ownNice(), m_startNice);

        window.engine()->stop();
        QVERIFY(finished.wait(20'000) || finished.size() == 1);
    }

    void windowJobsYieldToTheWindow() {
        // File > Open Crawl's loader and summary reader, the list loader and the CSV export are WorkerThread
        // jobs: the kernel's nice of the job's own thread, read from inside the job.
        ui::WorkerThread worker;
        std::atomic_int jobNice = -100;
        std::atomic_int jobThread = 0;
        worker.start(QStringLiteral("nice probe"), [&](const std::atomic_bool &) {
            jobThread = int(::syscall(SYS_gettid));
            jobNice = ::getpriority(PRIO_PROCESS, id_t(jobThread.load()));
        });
        worker.finish(); // joins the job
        QVERIFY(jobThread != int(::syscall(SYS_gettid)));
        QVERIFY2(jobNice >= ui::WorkerThread::kNice, qPrintable(QString::number(jobNice)));
        // The window's own thread is untouched.
        QCOMPARE(ownNice(), m_startNice);
    }

private:
    int m_startNice = 0;
};

QTEST_MAIN(TestCrawlThreadPriority)
#include "tst_crawlthreadpriority.moc"
