// Runs the real crawlscope executable reading standard input: a stop signal always ends a crawl whose
// input pipe is idle (SIGINT, SIGTERM, SIGHUP), a second signal exits at once, half a line is never
// fetched as a URL, and standard input that cannot be read is an error, not an empty list.
#include "clitestsupport.h"
#include "loopbacksite.h"
#include "testsite.h"

#include <QTemporaryDir>

#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace clitest;

namespace {

// The CLI reading an open stdin pipe: the test writes to it and never closes it unless asked.
struct PipedRun {
    QProcess process;
    QByteArray out;
    QByteArray err;

    void start(QObject *context, const QStringList &arguments) {
        QObject::connect(&process, &QProcess::readyReadStandardOutput, context,
                         [this] { out += process.readAllStandardOutput(); });
        QObject::connect(&process, &QProcess::readyReadStandardError, context,
                         [this] { err += process.readAllStandardError(); });
        process.start(QStringLiteral(CRAWLSCOPE_BINARY), arguments);
    }
    bool finish(int timeoutMs) {
        const bool ended =
            QTest::qWaitFor([this] { return process.state() == QProcess::NotRunning; }, timeoutMs);
        out += process.readAllStandardOutput();
        err += process.readAllStandardError();
        return ended;
    }
    ~PipedRun() {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
};

// Whether a process-directed signal still waits to be delivered (ShdPnd in /proc/PID/status): two kill()s
// in a row would otherwise merge into one, as standard signals are not queued.
bool signalPending(pid_t pid, int signalNumber) {
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("ShdPnd:"))
            return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> (signalNumber - 1)) & 1u;
    }
    return false;
}

} // namespace

class TestCliSignals : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(QStringLiteral(CRAWLSCOPE_BINARY)), CRAWLSCOPE_BINARY); }

    void stopSignalEndsACrawlOnAnIdlePipe_data() {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }
    void stopSignalEndsACrawlOnAnIdlePipe() {
        QFETCH(int, signalNumber);
        MAKE_SITE(site, 1);
        PipedRun run;
        run.start(this, quickFlags() + QStringList{QStringLiteral("--input"), QStringLiteral("-"),
                                                   QStringLiteral("--output"), QStringLiteral("-")});
        QVERIFY(run.process.waitForStarted());
        run.process.write(site->url(0, QStringLiteral("/one")).toUtf8() + '\n' +
                          site->url(0, QStringLiteral("/two")).toUtf8() + '\n');
        // Both rows written; the pipe stays open and idle, like `tail -f` or a terminal.
        QVERIFY2(QTest::qWaitFor([&] { return run.out.count('\n') >= 3; }, 15'000), run.err.constData());
        QCOMPARE(run.process.state(), QProcess::Running);
        QCOMPARE(::kill(pid_t(run.process.processId()), signalNumber), 0);
        QVERIFY2(run.finish(10'000), "the crawl did not end on the signal");
        QCOMPARE(run.process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(run.process.exitCode() == 130, run.err.constData());
        PARSE_RESULT_CSV(run.out, rows);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(site->server.totalRequests(), qint64(2));
    }

    void secondSigintExitsAtOnceReplacingNothing() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.csv"));
        const QByteArray previous = "url\r\nhttp://previous.test/\r\n";
        QVERIFY(writeFile(out, previous));
        PipedRun run;
        run.start(this, quickFlags() + QStringList{QStringLiteral("--input"), QStringLiteral("-"),
                                                   QStringLiteral("--output"), out});
        QVERIFY(run.process.waitForStarted());
        run.process.write(site->url(0, QStringLiteral("/hang?hang=1")).toUtf8() + '\n');
        QVERIFY(
            QTest::qWaitFor([&] { return site->server.hostRecord(site->hosts[0]).inFlight == 1; }, 15'000));
        const pid_t pid = pid_t(run.process.processId());
        QCOMPARE(::kill(pid, SIGINT), 0);
        QVERIFY(QTest::qWaitFor([&] { return !signalPending(pid, SIGINT); }, 5'000));
        ::kill(pid, SIGINT); // may find the process already gone after the first stop
        QVERIFY2(run.finish(10'000), "two SIGINTs did not end the crawl");
        QVERIFY2(run.process.exitCode() == 130, run.err.constData());
        // Either the first stop finished (a complete CSV) or the second cut it short (the old file).
        const QByteArray csv = readFile(out);
        if (csv != previous) {
            PARSE_RESULT_CSV(csv, rows);
            QCOMPARE(rows.size(), 1);
        }
        QCOMPARE(entriesOf(dir.path()), QStringList{QStringLiteral("out.csv")});
    }

    void secondSignalEndsAProcessStuckWritingToAFullPipe() {
        // The reader of the output FIFO never reads: once the pipe is full the main thread blocks in
        // write() and cannot run its event loop; a second signal must still end the process.
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString fifo = dir.filePath(QStringLiteral("out.fifo"));
        const QByteArray lines = numberedLines("not a url, line number ", 3000);
        QVERIFY(writeFile(list, lines));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const int reader = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(reader >= 0);
        PipedRun run;
        run.start(this, quickFlags() +
                            QStringList{QStringLiteral("--input"), list, QStringLiteral("--output"), fifo});
        QVERIFY(run.process.waitForStarted());
        int queued = 0;
        QVERIFY(QTest::qWaitFor([&] { return ::ioctl(reader, FIONREAD, &queued) == 0 && queued >= 60'000; },
                                15'000));
        QCOMPARE(run.process.state(), QProcess::Running);
        const pid_t pid = pid_t(run.process.processId());
        QCOMPARE(::kill(pid, SIGINT), 0);
        QVERIFY(QTest::qWaitFor([&] { return !signalPending(pid, SIGINT); }, 5'000));
        QCOMPARE(run.process.state(), QProcess::Running); // the first stop cannot get through
        QCOMPARE(::kill(pid, SIGINT), 0);
        QVERIFY2(run.finish(10'000), "two SIGINTs did not end a process stuck in write()");
        ::close(reader);
        QCOMPARE(run.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(run.process.exitCode(), 130);
    }

    void halfALineIsNotFetched() {
        MAKE_SITE(site, 1);
        PipedRun run;
        run.start(this, quickFlags() + QStringList{QStringLiteral("--input"), QStringLiteral("-"),
                                                   QStringLiteral("--output"), QStringLiteral("-")});
        QVERIFY(run.process.waitForStarted());
        run.process.write(site->url(0, QStringLiteral("/first")).toUtf8() + '\n' +
                          site->url(0, QStringLiteral("/pa")).toUtf8());
        QVERIFY(QTest::qWaitFor([&] { return site->server.totalRequests() == 1; }, 15'000));
        // Give the reader time to see the half line; nothing can be awaited for "did not happen".
        QTest::qWait(300);
        run.process.write("rt\n");
        run.process.closeWriteChannel();
        QVERIFY(run.finish(15'000));
        QVERIFY2(run.process.exitCode() == 0, run.err.constData());
        QStringList targets;
        for (const testsite::RequestRecord &r : site->server.requests())
            targets << r.target;
        QCOMPARE(targets, (QStringList{QStringLiteral("/first"), QStringLiteral("/part")}));
    }

    void fifoGivenByPathIsReadAsAStream() {
        // `--input <(cmd)`, `--input /dev/stdin` and named pipes: read as they arrive, not as an empty file
        // (a second open for the size estimate used to swallow the data), and a stop still ends them.
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("list.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        PipedRun run;
        run.start(this, quickFlags() + QStringList{QStringLiteral("--input"), fifo,
                                                   QStringLiteral("--output"), QStringLiteral("-")});
        QVERIFY(run.process.waitForStarted());
        int writer = -1;
        QVERIFY(QTest::qWaitFor(
            [&] {
                return (writer = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK)) >= 0;
            },
            10'000));
        const QByteArray urls = site->url(0, QStringLiteral("/one")).toUtf8() + '\n' +
                                site->url(0, QStringLiteral("/two")).toUtf8() + '\n';
        QCOMPARE(::write(writer, urls.constData(), size_t(urls.size())), ssize_t(urls.size()));
        QVERIFY2(QTest::qWaitFor([&] { return run.out.count('\n') >= 3; }, 15'000), run.err.constData());
        QCOMPARE(run.process.state(), QProcess::Running); // the writer is still there: more may come
        QCOMPARE(::kill(pid_t(run.process.processId()), SIGTERM), 0);
        QVERIFY2(run.finish(10'000), "SIGTERM did not end a crawl reading an idle FIFO");
        ::close(writer);
        QVERIFY2(run.process.exitCode() == 130, run.err.constData());
        PARSE_RESULT_CSV(run.out, rows);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(site->server.totalRequests(), qint64(2));
    }

    void unreadableStdinExitsNonZero() {
        QTemporaryDir dir;
        QProcess process;
        process.setStandardInputFile(dir.path()); // a directory: open() works, read() fails (EISDIR)
        process.start(QStringLiteral(CRAWLSCOPE_BINARY),
                      quickFlags() + QStringList{QStringLiteral("--input"), QStringLiteral("-"),
                                                 QStringLiteral("--output"), QStringLiteral("-")});
        QVERIFY(process.waitForFinished(15'000));
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 2, err.constData());
        QVERIFY2(err.contains("reading the input failed"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliSignals)
#include "tst_cli_signals.moc"
