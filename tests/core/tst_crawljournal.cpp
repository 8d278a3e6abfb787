// The crawl journal from the outside: the real crawlscope executable with --store, --resume and --export,
// killed with SIGKILL at random moments and interrupted with SIGINT, against the loopback test site. What
// the server recorded proves that no URL is fetched again once its outcome committed.
#include "clitestsupport.h"
#include "loopbacksite.h"
#include "store/crawlstore.h"
#include "testsite.h"

#include <QRandomGenerator>
#include <QTemporaryDir>

#include <signal.h>

using namespace clitest;

namespace {

// A crawlscope process the test can kill at a moment of its choosing.
struct CliProcess {
    QProcess process;
    QByteArray err;

    void start(const QStringList &arguments) {
        process.setProcessChannelMode(QProcess::SeparateChannels);
        process.start(QStringLiteral(CRAWLSCOPE_BINARY), arguments);
    }
    bool finish(int timeoutMs) {
        const bool ended = process.waitForFinished(timeoutMs);
        err += process.readAllStandardError();
        return ended;
    }
    ~CliProcess() {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
};

// The path part of a request target: one input URL and every hop of its redirect chain share it.
QString pathOf(const QString &target) {
    return target.section(QLatin1Char('?'), 0, 0);
}

QHash<QString, int> requestsPerPath(const testsite::TestSite &site) {
    QHash<QString, int> counts;
    for (const testsite::RequestRecord &record : site.requests())
        ++counts[pathOf(record.target)];
    return counts;
}

QList<QStringList> csvRows(const QString &path, bool *ok) {
    QList<QStringList> rows = parseCsv(readFile(path), ok);
    if (!rows.isEmpty())
        rows.removeFirst(); // header
    return rows;
}

// Entries of a journal in each state, read the way a crash left them (read-only: nothing is reclaimed).
struct JournalState {
    QSet<QString> done;     // URLs whose outcome is committed
    QSet<QString> inFlight; // URLs leased to the crashed process
};

JournalState journalState(const QString &path, QString *error) {
    JournalState state;
    crawl::StoreError storeError;
    crawl::StoreOptions options;
    options.readOnly = true;
    std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &storeError, options);
    if (!store) {
        *error = storeError.message;
        return state;
    }
    qint64 after = 0;
    while (true) {
        const QList<crawl::CrawlResult> page = store->rowsPage(after, 1000, crawl::RowFilter::All);
        if (page.isEmpty())
            break;
        for (const crawl::CrawlResult &row : page) {
            const crawl::EntryState entry = store->entryState(qint64(row.id));
            if (entry == crawl::EntryState::Done)
                state.done.insert(row.url);
            else if (entry == crawl::EntryState::InFlight)
                state.inFlight.insert(row.url);
        }
        after = qint64(page.last().id);
    }
    return state;
}

} // namespace

class TestCrawlJournal : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(QStringLiteral(CRAWLSCOPE_BINARY)), CRAWLSCOPE_BINARY); }

    void killNineAndResumeRepeatedly() {
        MAKE_SITE(site, 3);
        // Retries (503 once), Retry-After pauses (503 once with Retry-After: 1) and redirect chains, all in
        // flight at random kills.
        QStringList urls;
        QHash<QString, int> expectedRequests; // per path, for a crawl that is never interrupted
        for (int host = 0; host < 3; ++host) {
            for (int i = 0; i < 100; ++i) {
                const QString path = QStringLiteral("/h%1p%2").arg(host).arg(i);
                QString query = QStringLiteral("?ms=40-120");
                int expected = 1;
                if (i % 9 == 4) {
                    query += QStringLiteral("&fail=1");
                    expected = 2;
                } else if (i % 31 == 7) {
                    query += QStringLiteral("&fail=1&ra=1");
                    expected = 2;
                } else if (i % 11 == 5) {
                    query += QStringLiteral("&redirect=2");
                    expected = 3;
                }
                urls << site->url(host, path + query);
                expectedRequests.insert(path, expected);
            }
        }
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString journal = dir.filePath(QStringLiteral("crawl.db"));
        const QString csv = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(writeFile(list, urls.join(QLatin1Char('\n')).toUtf8() + '\n'));
        const QStringList limits{QStringLiteral("--concurrency"), QStringLiteral("6"),
                                 QStringLiteral("--per-host"),    QStringLiteral("3"),
                                 QStringLiteral("--interval-ms"), QStringLiteral("0"),
                                 QStringLiteral("--retries"),     QStringLiteral("2"),
                                 QStringLiteral("--backoff-ms"),  QStringLiteral("50"),
                                 QStringLiteral("--quiet")};

        // URL -> server requests for it when its outcome was already committed.
        QHash<QString, int> committedAt;
        QHash<QString, int> timesInFlightAtAKill;
        int kills = 0;
        for (int run = 0; run < 8; ++run) {
            const int seenBefore = int(site->server.requests().size());
            CliProcess process;
            process.start(
                run == 0 ? QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), list,
                                       QStringLiteral("--store"), journal, QStringLiteral("--output"), csv} +
                               limits
                         : QStringList{QStringLiteral("--headless"), QStringLiteral("--resume"), journal,
                                       QStringLiteral("--output"), csv, QStringLiteral("--quiet")});
            QVERIFY(process.process.waitForStarted(10'000));
            const int more = 10 + int(QRandomGenerator::global()->bounded(40));
            const bool reached = QTest::qWaitFor(
                [&] {
                    return site->server.requests().size() >= seenBefore + more ||
                           process.process.state() == QProcess::NotRunning;
                },
                30'000);
            QVERIFY(reached);
            if (process.process.state() == QProcess::NotRunning)
                break; // finished before this kill: the final run below checks it
            ::kill(pid_t(process.process.processId()), SIGKILL);
            QVERIFY(process.finish(10'000));
            QCOMPARE(process.process.exitStatus(), QProcess::CrashExit);
            ++kills;

            QString error;
            const JournalState state = journalState(journal, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QHash<QString, int> counts = requestsPerPath(site->server);
            for (const QString &url : state.done) {
                const QString path = pathOf(QUrl(url).path());
                if (!committedAt.contains(url))
                    committedAt.insert(url, counts.value(path));
            }
            for (const QString &url : state.inFlight)
                ++timesInFlightAtAKill[url];
        }
        QVERIFY2(kills >= 3, "the crawl ended too soon to be killed several times");

        CliProcess last;
        last.start({QStringLiteral("--headless"), QStringLiteral("--resume"), journal,
                    QStringLiteral("--output"), csv});
        QVERIFY(last.finish(120'000));
        QVERIFY2(last.process.exitCode() == 0, last.err.constData());

        bool ok = false;
        const QList<QStringList> rows = csvRows(csv, &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), urls.size()); // one row per input line, across every interruption
        QSet<QString> seen;
        for (const QStringList &row : rows) {
            QVERIFY2(!seen.contains(row[Url]), qPrintable(row[Url]));
            seen.insert(row[Url]);
            QVERIFY2(row[OutcomeCol] == QLatin1String("ok"), qPrintable(row.join(QLatin1Char(','))));
        }
        QCOMPARE(seen, QSet<QString>(urls.cbegin(), urls.cend()));

        const QHash<QString, int> counts = requestsPerPath(site->server);
        for (auto it = committedAt.cbegin(); it != committedAt.cend(); ++it) {
            const QString path = pathOf(QUrl(it.key()).path());
            QVERIFY2(counts.value(path) == it.value(),
                     qPrintable(QStringLiteral("%1 was fetched again after its outcome committed (%2 -> %3)")
                                    .arg(it.key())
                                    .arg(it.value())
                                    .arg(counts.value(path))));
        }
        // Only what was in flight at a kill is fetched twice (a whole attempt: up to 3 hops of a chain).
        int extra = 0;
        for (const QString &url : std::as_const(urls)) {
            const QString path = pathOf(QUrl(url).path());
            const int surplus = counts.value(path) - expectedRequests.value(path);
            const int allowed = 3 * timesInFlightAtAKill.value(url);
            QVERIFY2(surplus <= allowed,
                     qPrintable(QStringLiteral("%1: %2 requests, expected %3, in flight at "
                                               "%4 kills")
                                    .arg(url)
                                    .arg(counts.value(path))
                                    .arg(expectedRequests.value(path))
                                    .arg(timesInFlightAtAKill.value(url))));
            extra += std::max(0, surplus);
        }
        qInfo("%d kills; %d requests repeated in all; %lld URLs in flight at the kills", kills, extra,
              qint64(timesInFlightAtAKill.size()));
    }

    void resumeReplayAndNewRowsNeverDoubleUp() {
        // A resumed crawl hands on its committed rows page by page while new results already commit:
        // with tens of thousands of rows on both sides, every line must still get exactly one row.
        MAKE_SITE(site, 2);
        QStringList urls = site->urls(0, 15'000, QStringLiteral("/a%1"));
        urls += site->urls(1, 15'000, QStringLiteral("/b%1"));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString journal = dir.filePath(QStringLiteral("crawl.db"));
        const QString csv = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(writeFile(list, urls.join(QLatin1Char('\n')).toUtf8() + '\n'));
        CliProcess first;
        first.start(quickFlags() + QStringList{QStringLiteral("--input"), list, QStringLiteral("--store"),
                                               journal, QStringLiteral("--output"), csv,
                                               QStringLiteral("--per-host"), QStringLiteral("8"),
                                               QStringLiteral("--quiet")});
        QVERIFY(QTest::qWaitFor([&] { return site->server.requests().size() >= 16'000; }, 60'000));
        ::kill(pid_t(first.process.processId()), SIGKILL);
        QVERIFY(first.finish(10'000));
        const Run second = runCli({QStringLiteral("--headless"), QStringLiteral("--resume"), journal,
                                   QStringLiteral("--output"), csv, QStringLiteral("--quiet")},
                                  {}, 120'000);
        QVERIFY2(second.exitCode == 0, second.err.constData());
        bool ok = false;
        const QList<QStringList> rows = csvRows(csv, &ok);
        QVERIFY(ok);
        QSet<QString> seen;
        for (const QStringList &row : rows) {
            QVERIFY2(!seen.contains(row[Url]), qPrintable(row[Url] + QStringLiteral(" has two rows")));
            seen.insert(row[Url]);
        }
        QCOMPARE(rows.size(), urls.size());
    }

    void hostSortedListKeepsOtherHostsMoving() {
        // `sort -u` order: 3,000 URLs of a host paced at one request a second, then two other hosts. The
        // others must not wait behind it.
        MAKE_SITE(site, 3);
        QStringList urls = site->urls(0, 3000, QStringLiteral("/slow%1"));
        urls += site->urls(1, 60, QStringLiteral("/b%1?ms=20"));
        urls += site->urls(2, 60, QStringLiteral("/c%1?ms=20"));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString csv = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(writeFile(list, urls.join(QLatin1Char('\n')).toUtf8() + '\n'));
        CliProcess process;
        process.start(quickFlags() + QStringList{QStringLiteral("--input"), list, QStringLiteral("--output"),
                                                 csv, QStringLiteral("--host-limit"),
                                                 site->hosts[0] + QStringLiteral("=1/1000"),
                                                 QStringLiteral("--quiet")});
        QVERIFY(process.process.waitForStarted(10'000));
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return site->server.hostRecord(site->hosts[1]).requests >= 60 &&
                                site->server.hostRecord(site->hosts[2]).requests >= 60;
                     },
                     20'000),
                 "the hosts after a long, slow host in the list waited for it");
        QVERIFY(site->server.hostRecord(site->hosts[0]).requests <= 25);
        ::kill(pid_t(process.process.processId()), SIGINT);
        QVERIFY(process.finish(20'000));
        QCOMPARE(process.process.exitCode(), 130);
        bool ok = false;
        const QList<QStringList> rows = csvRows(csv, &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), urls.size());
        int okRows = 0;
        for (const QStringList &row : rows)
            okRows += row[OutcomeCol] == QLatin1String("ok") ? 1 : 0;
        // Requests the server saw just before the stop may have been cancelled before they committed.
        QVERIFY2(okRows >= 100, qPrintable(QString::number(okRows)));
    }

    void interruptedCrawlResumesWithoutRefetching() {
        MAKE_SITE(site, 1);
        const QStringList urls = site->urls(0, 40, QStringLiteral("/r%1?ms=150"));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString journal = dir.filePath(QStringLiteral("crawl.db"));
        const QString csv = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(writeFile(list, urls.join(QLatin1Char('\n')).toUtf8() + '\n'));

        CliProcess first;
        first.start({QStringLiteral("--headless"), QStringLiteral("--input"), list, QStringLiteral("--store"),
                     journal, QStringLiteral("--output"), csv, QStringLiteral("--per-host"),
                     QStringLiteral("1"), QStringLiteral("--interval-ms"), QStringLiteral("0"),
                     QStringLiteral("--quiet")});
        QVERIFY(QTest::qWaitFor([&] { return site->server.requests().size() >= 5; }, 20'000));
        ::kill(pid_t(first.process.processId()), SIGINT);
        QVERIFY(first.finish(20'000));
        QCOMPARE(first.process.exitCode(), 130);
        QVERIFY2(first.err.contains("--resume"), first.err.constData());
        bool ok = false;
        QList<QStringList> rows = csvRows(csv, &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), urls.size()); // one row per line at a stop, as without a journal
        QSet<QString> finishedFirst;
        int cancelled = 0;
        for (const QStringList &row : std::as_const(rows)) {
            if (row[OutcomeCol] == QLatin1String("ok"))
                finishedFirst.insert(row[Url]);
            cancelled += row[OutcomeCol] == QLatin1String("cancelled") ? 1 : 0;
        }
        QVERIFY(cancelled > 0);

        // Resumed with a limit given now: it overrides the stored --per-host 1.
        site->server.resetRecords();
        const QList<testsite::RequestRecord> before = site->server.requests();
        const Run second = runCli({QStringLiteral("--headless"), QStringLiteral("--resume"), journal,
                                   QStringLiteral("--output"), csv, QStringLiteral("--per-host"),
                                   QStringLiteral("4"), QStringLiteral("--quiet")},
                                  {}, 60'000);
        QVERIFY(second.finished);
        QVERIFY2(second.exitCode == 0, second.err.constData());
        rows = csvRows(csv, &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), urls.size());
        for (const QStringList &row : std::as_const(rows))
            QVERIFY2(row[OutcomeCol] == QLatin1String("ok"), qPrintable(row.join(QLatin1Char(','))));
        for (const testsite::RequestRecord &record : site->server.requests()) {
            const QString url = site->server.baseUrl(site->hosts[0]) + record.target;
            QVERIFY2(!finishedFirst.contains(url), qPrintable(url + QStringLiteral(" fetched again")));
        }
        QCOMPARE(site->peak(0), 4);
    }

    void exportWritesTheRowsInInputOrder() {
        MAKE_SITE(site, 1);
        QStringList lines = site->urls(0, 10, QStringLiteral("/e%1"));
        lines.insert(3, QStringLiteral("not a url"));
        lines.insert(6, lines.at(1)); // a duplicate: counted, not repeated
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString journal = dir.filePath(QStringLiteral("crawl.db"));
        const QString csv = dir.filePath(QStringLiteral("out.csv"));
        const QString exported = dir.filePath(QStringLiteral("export.csv"));
        QVERIFY(writeFile(list, lines.join(QLatin1Char('\n')).toUtf8() + '\n'));
        const Run crawlRun =
            runCli(quickFlags() + QStringList{QStringLiteral("--input"), list, QStringLiteral("--store"),
                                              journal, QStringLiteral("--output"), csv});
        QVERIFY2(crawlRun.exitCode == 0, crawlRun.err.constData());
        const Run exportRun =
            runCli({QStringLiteral("--export"), journal, QStringLiteral("--output"), exported});
        QVERIFY2(exportRun.exitCode == 0, exportRun.err.constData());
        bool ok = false;
        const QList<QStringList> crawled = csvRows(csv, &ok);
        QVERIFY(ok);
        const QList<QStringList> rows = csvRows(exported, &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), 11); // 10 URLs and the invalid line
        QCOMPARE(QSet<QStringList>(rows.cbegin(), rows.cend()),
                 QSet<QStringList>(crawled.cbegin(), crawled.cend()));
        QStringList order;
        for (const QStringList &row : rows)
            order << row[Url];
        QStringList expected = lines;
        expected.removeAt(6);
        QCOMPARE(order, expected);
    }

    void journalMisuseIsRefused() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString existing = dir.filePath(QStringLiteral("existing.db"));
        QVERIFY(writeFile(list, site->url(0, QStringLiteral("/x")).toUtf8() + '\n'));
        QVERIFY(writeFile(existing, "precious\n"));
        const FileStamp before = stampOf(existing);

        Run run = runCli(quickFlags() +
                         QStringList{QStringLiteral("--input"), list, QStringLiteral("--store"), existing});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--resume"), run.err.constData());
        QCOMPARE(stampOf(existing), before);

        run = runCli({QStringLiteral("--headless"), QStringLiteral("--resume"), existing});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("not a Crawlscope crawl store"), run.err.constData());
        QCOMPARE(stampOf(existing), before);

        run = runCli({QStringLiteral("--headless"), QStringLiteral("--resume"),
                      dir.filePath(QStringLiteral("none.db"))});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("does not exist"), run.err.constData());

        const QString journal = dir.filePath(QStringLiteral("crawl.db"));
        run = runCli(quickFlags() + QStringList{QStringLiteral("--input"), list, QStringLiteral("--store"),
                                                journal, QStringLiteral("--output"), journal});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("journal"), run.err.constData());
        QVERIFY(!QFile::exists(journal));

        run = runCli(quickFlags() +
                     QStringList{QStringLiteral("--input"), list, QStringLiteral("--store"), list});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("input list"), run.err.constData());

        run = runCli(quickFlags() + QStringList{QStringLiteral("--input"), list, QStringLiteral("--sync"),
                                                QStringLiteral("sometimes")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--sync"), run.err.constData());
    }

    void syncFullCrawlCompletes() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString journal = dir.filePath(QStringLiteral("crawl.db"));
        QVERIFY(writeFile(list, site->url(0, QStringLiteral("/x")).toUtf8() + '\n'));
        const Run run = runCli(
            quickFlags() + QStringList{QStringLiteral("--input"), list, QStringLiteral("--store"), journal,
                                       QStringLiteral("--sync"), QStringLiteral("full"),
                                       QStringLiteral("--output"), dir.filePath(QStringLiteral("o.csv"))});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        crawl::StoreError error;
        std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(journal, &error);
        QVERIFY2(store, qPrintable(error.message));
        QCOMPARE(store->counts().done, 1);
        QCOMPARE(store->counts().ok, 1);
    }
};

QTEST_GUILESS_MAIN(TestCrawlJournal)
#include "tst_crawljournal.moc"
