// Runs the real crawlscope executable with real files: outputs that are the input (by path, "./",
// symlink, hard link) or each other are refused; a bad input leaves existing outputs as they were; a
// killed run leaves the previous result; FIFOs and devices are written directly and stay what they are;
// URL passwords never reach the CSV, the summary or stderr; bad lists give invalid_url rows, not lost lines.
#include "clitestsupport.h"
#include "loopbacksite.h"
#include "testsite.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QUrl>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace clitest;

namespace {

const QByteArray kPrevious = "url,final_url\r\nhttp://previous.test/,kept\r\n";

QStringList headless(const QStringList &more) {
    return quickFlags() + more;
}

// A server that asks for Basic credentials (401) and records the Authorization header it then gets;
// /go redirects to /private.
class BasicAuthServer : public QObject {
public:
    BasicAuthServer() {
        m_server.listen(QHostAddress(QStringLiteral("127.0.0.1")), 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { serve(socket); });
            }
        });
    }
    QString url(const QString &userInfo, const QString &path) const {
        return QStringLiteral("http://%1@127.0.0.1:%2%3").arg(userInfo).arg(m_server.serverPort()).arg(path);
    }
    QList<QByteArray> authorizations;

private:
    void serve(QTcpSocket *socket) {
        QByteArray &head = m_heads[socket];
        head += socket->readAll();
        qsizetype end = 0;
        while ((end = head.indexOf("\r\n\r\n")) >= 0) {
            const QByteArray request = head.left(end);
            head.remove(0, end + 4);
            QByteArray authorization;
            if (request.startsWith("GET /go ")) { // a relative redirect keeps the URL's credentials
                socket->write("HTTP/1.1 302 Found\r\nLocation: /private\r\nContent-Length: 0\r\n\r\n");
                continue;
            }
            for (const QByteArray &line : request.split('\n')) {
                if (line.toLower().startsWith("authorization:"))
                    authorization = line.mid(14).trimmed();
            }
            if (authorization.isEmpty()) {
                socket->write("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"t\"\r\n"
                              "Content-Length: 0\r\n\r\n");
            } else {
                authorizations << authorization;
                socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");
            }
        }
    }
    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_heads;
};

} // namespace

class TestCliOutputs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(QStringLiteral(CRAWLSCOPE_BINARY)), CRAWLSCOPE_BINARY); }

    void outputThatIsTheInputIsRefused_data() {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("name"); // how the output names the list
        QTest::newRow("same path") << "--output"
                                   << "list.txt";
        QTest::newRow("./ path") << "--output"
                                 << "./list.txt";
        QTest::newRow("symlink") << "--output"
                                 << "link.txt";
        QTest::newRow("hard link") << "--output"
                                   << "hard.txt";
        QTest::newRow("summary is the list") << "--summary-json"
                                             << "link.txt";
    }
    void outputThatIsTheInputIsRefused() {
        QFETCH(QString, flag);
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(list, "http://127.0.0.1:1/a\nhttp://127.0.0.1:1/b\n"));
        QVERIFY(QFile::link(list, dir.filePath(QStringLiteral("link.txt"))));
        QCOMPARE(::link(QFile::encodeName(list).constData(),
                        QFile::encodeName(dir.filePath(QStringLiteral("hard.txt"))).constData()),
                 0);
        const FileStamp before = stampOf(list);
        const QStringList entries = entriesOf(dir.path());

        QProcess process;
        process.setWorkingDirectory(dir.path());
        process.start(QStringLiteral(CRAWLSCOPE_BINARY),
                      headless({QStringLiteral("--input"), QStringLiteral("list.txt"), flag, name}));
        QVERIFY(process.waitForFinished(30'000));
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 2, err.constData());
        QVERIFY2(err.contains("is the input list"), err.constData());
        QVERIFY2(err.contains(flag.toUtf8()), err.constData());
        QCOMPARE(stampOf(list), before); // same inode, same bytes
        QCOMPARE(entriesOf(dir.path()), entries);
    }

    void badInputLeavesExistingOutputsAlone_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("missing") << "no-such-list.txt" << QByteArray("does not exist");
        QTest::newRow("directory") << "folder" << QByteArray("is a directory");
        QTest::newRow("unreadable") << "secret.txt" << QByteArray("cannot read");
    }
    void badInputLeavesExistingOutputsAlone() {
        QFETCH(QString, input);
        QFETCH(QByteArray, message);
        if (input == QLatin1String("secret.txt") && ::geteuid() == 0)
            QSKIP("root reads files whatever their mode");
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder")));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("secret.txt")), "http://127.0.0.1:1/\n"));
        QVERIFY(QFile::setPermissions(dir.filePath(QStringLiteral("secret.txt")), QFileDevice::WriteOwner));
        const QString out = dir.filePath(QStringLiteral("out.csv"));
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        QVERIFY(writeFile(out, kPrevious));
        QVERIFY(writeFile(summary, "{\"previous\": true}\n"));
        const FileStamp outBefore = stampOf(out);
        const FileStamp summaryBefore = stampOf(summary);
        const QStringList entries = entriesOf(dir.path());

        const Run run =
            runCli(headless({QStringLiteral("--input"), dir.filePath(input), QStringLiteral("--output"), out,
                             QStringLiteral("--summary-json"), summary}));
        QVERIFY(run.finished);
        QVERIFY2(run.exitCode == 2, run.err.constData());
        QVERIFY2(run.err.contains(message), run.err.constData());
        QCOMPARE(stampOf(out), outBefore);
        QCOMPARE(stampOf(summary), summaryBefore);
        QCOMPARE(entriesOf(dir.path()), entries);
    }

    void killedRunLeavesThePreviousOutput() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString out = dir.filePath(QStringLiteral("out.csv"));
        QByteArray urls;
        for (int i = 0; i < 3; ++i)
            urls += site->url(0, QStringLiteral("/fast%1").arg(i)).toUtf8() + '\n';
        urls += site->url(0, QStringLiteral("/hang?hang=1")).toUtf8() + '\n';
        QVERIFY(writeFile(list, urls));
        QVERIFY(writeFile(out, kPrevious));
        const FileStamp before = stampOf(out);

        QProcess process;
        process.start(QStringLiteral(CRAWLSCOPE_BINARY),
                      headless({QStringLiteral("--input"), list, QStringLiteral("--output"), out,
                                QStringLiteral("--timeout"), QStringLiteral("60"),
                                QStringLiteral("--idle-timeout"), QStringLiteral("60")}));
        QVERIFY(process.waitForStarted());
        // Three rows done and the last request held by the server: the crawl is part way.
        QVERIFY(QTest::qWaitFor(
            [&] {
                return site->server.totalRequests() == 4 &&
                       site->server.hostRecord(site->hosts[0]).inFlight == 1;
            },
            15'000));
        QCOMPARE(process.state(), QProcess::Running);
        process.kill(); // SIGKILL: nothing can be cleaned up
        QVERIFY(process.waitForFinished(10'000));
        QCOMPARE(stampOf(out), before);
    }

    void interruptedRunReplacesTheOutputWithACompleteCsv() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString out = dir.filePath(QStringLiteral("out.csv"));
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        QByteArray urls;
        for (int i = 0; i < 3; ++i)
            urls += site->url(0, QStringLiteral("/fast%1").arg(i)).toUtf8() + '\n';
        for (int i = 0; i < 3; ++i)
            urls += site->url(0, QStringLiteral("/hang%1?hang=1").arg(i)).toUtf8() + '\n';
        QVERIFY(writeFile(list, urls));
        QVERIFY(writeFile(out, kPrevious));

        QProcess process;
        process.start(
            QStringLiteral(CRAWLSCOPE_BINARY),
            headless({QStringLiteral("--input"), list, QStringLiteral("--output"), out,
                      QStringLiteral("--summary-json"), summary, QStringLiteral("--timeout"),
                      QStringLiteral("60"), QStringLiteral("--idle-timeout"), QStringLiteral("60")}));
        QVERIFY(process.waitForStarted());
        QVERIFY(
            QTest::qWaitFor([&] { return site->server.hostRecord(site->hosts[0]).inFlight == 3; }, 15'000));
        QCOMPARE(::kill(pid_t(process.processId()), SIGINT), 0);
        QVERIFY(process.waitForFinished(10'000));
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitCode() == 130, err.constData());
        const QByteArray csv = readFile(out);
        PARSE_RESULT_CSV(csv, rows);
        QCOMPARE(rows.size(), 6);
        QVERIFY(!csv.contains("previous.test"));
        QVERIFY(QJsonDocument::fromJson(readFile(summary))
                    .object()
                    .value(QStringLiteral("stopped_by_user"))
                    .toBool());
        QCOMPARE(entriesOf(dir.path()), (QStringList{QStringLiteral("list.txt"), QStringLiteral("out.csv"),
                                                     QStringLiteral("summary.json")}));
    }

    void outputThroughASymlinkReplacesItsTarget() {
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString target = dir.filePath(QStringLiteral("real.csv"));
        const QString link = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(writeFile(list, "not a url\n"));
        QVERIFY(writeFile(target, kPrevious));
        QVERIFY(QFile::link(target, link));
        const Run run = runCli(headless({QStringLiteral("--input"), list, QStringLiteral("--output"), link}));
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        QVERIFY(QFileInfo(link).isSymLink());    // still a link ...
        const QByteArray csv = readFile(target); // ... to the new results
        PARSE_RESULT_CSV(csv, rows);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(entriesOf(dir.path()), (QStringList{QStringLiteral("list.txt"), QStringLiteral("out.csv"),
                                                     QStringLiteral("real.csv")}));
    }

    void summaryOnTheOutputIsRefused_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("same path") << QStringList{QStringLiteral("--output"), QStringLiteral("out.csv"),
                                                  QStringLiteral("--summary-json"),
                                                  QStringLiteral("./out.csv")};
        QTest::newRow("symlink") << QStringList{QStringLiteral("--output"), QStringLiteral("out.csv"),
                                                QStringLiteral("--summary-json"), QStringLiteral("link.csv")};
        QTest::newRow("neither exists yet")
            << QStringList{QStringLiteral("--output"), QStringLiteral("new.csv"),
                           QStringLiteral("--summary-json"), QStringLiteral("./new.csv")};
        QTest::newRow("both on stdout") << QStringList{QStringLiteral("--summary-json"), QStringLiteral("-")};
    }
    void summaryOnTheOutputIsRefused() {
        QFETCH(QStringList, arguments);
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("list.txt")), "http://127.0.0.1:1/\n"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("out.csv")), kPrevious));
        QVERIFY(QFile::link(QStringLiteral("out.csv"), dir.filePath(QStringLiteral("link.csv"))));
        const FileStamp before = stampOf(dir.filePath(QStringLiteral("out.csv")));
        const QStringList entries = entriesOf(dir.path());
        QProcess process;
        process.setWorkingDirectory(dir.path());
        process.start(QStringLiteral(CRAWLSCOPE_BINARY),
                      headless({QStringLiteral("--input"), QStringLiteral("list.txt")}) + arguments);
        QVERIFY(process.waitForFinished(30'000));
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitCode() == 2, err.constData());
        QVERIFY2(err.contains("--summary-json"), err.constData());
        QVERIFY(process.readAllStandardOutput().isEmpty());
        QCOMPARE(stampOf(dir.filePath(QStringLiteral("out.csv"))), before);
        QCOMPARE(entriesOf(dir.path()), entries);
    }

    void devicesStayDevices() {
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(list, "not a url\n"));
        // As root, a program that renames over a device destroys it (the bug this guards against once
        // deleted /dev/null): root tests a null device of its own; others cannot replace /dev/null.
        QString device = QStringLiteral("/dev/null");
        if (::geteuid() == 0) {
            device = dir.filePath(QStringLiteral("null"));
            if (::mknod(QFile::encodeName(device).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
                QSKIP("root, but mknod is not allowed here: not risking /dev/null");
        }
        const FileStamp before = stampOf(device);
        QVERIFY(S_ISCHR(before.mode));
        const QStringList entries = entriesOf(QFileInfo(device).path());
        const Run run = runCli(headless({QStringLiteral("--input"), list, QStringLiteral("--output"), device,
                                         QStringLiteral("--summary-json"), device}));
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        QCOMPARE(stampOf(device), before);                      // the same node, still a device
        QCOMPARE(entriesOf(QFileInfo(device).path()), entries); // and no temporary file next to it
    }

    void summaryToStdout_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("-") << "-";
        QTest::newRow("/dev/stdout") << "/dev/stdout";
    }
    void summaryToStdout() {
        QFETCH(QString, path);
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(list, "not a url\n"));
        QProcess process;
        process.setWorkingDirectory(dir.path());
        process.start(QStringLiteral(CRAWLSCOPE_BINARY),
                      headless({QStringLiteral("--input"), list, QStringLiteral("--output"),
                                QStringLiteral("out.csv"), QStringLiteral("--summary-json"), path}));
        QVERIFY(process.waitForFinished(30'000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(process.readAllStandardOutput(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(json.value(QStringLiteral("invalid")).toInt(), 1);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("-"))));
    }

    void fifosAreWrittenDirectly() {
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString csvFifo = dir.filePath(QStringLiteral("csv.fifo"));
        const QString jsonFifo = dir.filePath(QStringLiteral("json.fifo"));
        QVERIFY(writeFile(list, "not a url\nnor this\n"));
        QCOMPARE(::mkfifo(QFile::encodeName(csvFifo).constData(), 0600), 0);
        QCOMPARE(::mkfifo(QFile::encodeName(jsonFifo).constData(), 0600), 0);
        // Readers first (non-blocking), so the program's open() for writing does not wait.
        const int csvFd = ::open(QFile::encodeName(csvFifo).constData(), O_RDONLY | O_NONBLOCK);
        const int jsonFd = ::open(QFile::encodeName(jsonFifo).constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(csvFd >= 0 && jsonFd >= 0);
        const Run run = runCli(headless({QStringLiteral("--input"), list, QStringLiteral("--output"), csvFifo,
                                         QStringLiteral("--summary-json"), jsonFifo}));
        const auto drain = [](int fd) {
            QByteArray all;
            char buffer[4096];
            ssize_t n = 0;
            while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
                all.append(buffer, n);
            ::close(fd);
            return all;
        };
        const QByteArray csv = drain(csvFd);
        const QByteArray json = drain(jsonFd);
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        PARSE_RESULT_CSV(csv, rows);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(QJsonDocument::fromJson(json).object().value(QStringLiteral("invalid")).toInt(), 2);
        QVERIFY(S_ISFIFO(stampOf(csvFifo).mode));
        QVERIFY(S_ISFIFO(stampOf(jsonFifo).mode));
        QCOMPARE(entriesOf(dir.path()), (QStringList{QStringLiteral("csv.fifo"), QStringLiteral("json.fifo"),
                                                     QStringLiteral("list.txt")}));
    }

    void writeErrorExitsOne() {
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(list, "not a url\n"));
        const Run run = runCli(headless(
            {QStringLiteral("--input"), list, QStringLiteral("--output"), QStringLiteral("/dev/full")}));
        QVERIFY(run.finished);
        QVERIFY2(run.exitCode == 1, run.err.constData());
        QVERIFY2(run.err.contains("/dev/full"), run.err.constData());
    }

    void writeErrorLeavesThePreviousFile() {
        // A file size limit makes the disk "full" after a few hundred bytes; SIGXFSZ is ignored so the
        // write fails with EFBIG, as it would with ENOSPC.
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QString out = dir.filePath(QStringLiteral("out.csv"));
        const QByteArray lines = numberedLines("not a url number ", 50);
        QVERIFY(writeFile(list, lines));
        QVERIFY(writeFile(out, kPrevious));
        const FileStamp before = stampOf(out);
        QProcess process;
        process.setChildProcessModifier([] {
            ::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{600, 600};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        process.start(QStringLiteral(CRAWLSCOPE_BINARY),
                      headless({QStringLiteral("--input"), list, QStringLiteral("--output"), out}));
        QVERIFY(process.waitForFinished(30'000));
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 1, err.constData());
        // The crawl journal (a temporary one here) hits the limit before the CSV does: either way the
        // run says what could not be written.
        QVERIFY2(err.contains("cannot write") || err.contains("I/O error") || err.contains("disk"),
                 err.constData());
        QCOMPARE(stampOf(out), before);
        QCOMPARE(entriesOf(dir.path()), (QStringList{QStringLiteral("list.txt"), QStringLiteral("out.csv")}));
    }

    void unsafeFlagValuesExitTwo_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("named");
        QTest::newRow("user-agent CRLF")
            << QStringList{QStringLiteral("--user-agent"), QStringLiteral("bot\r\nX-Injected: 1")}
            << QByteArray("--user-agent");
        QTest::newRow("jitter nan") << QStringList{QStringLiteral("--jitter"), QStringLiteral("nan")}
                                    << QByteArray("--jitter");
        QTest::newRow("max-rate nan")
            << QStringList{QStringLiteral("--max-rate"), QStringLiteral("nan")} << QByteArray("--max-rate");
    }
    void unsafeFlagValuesExitTwo() {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, named);
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        QVERIFY(writeFile(list, "http://127.0.0.1:1/\n"));
        const Run run = runCli(headless({QStringLiteral("--input"), list}) + arguments);
        QVERIFY(run.finished);
        QVERIFY2(run.exitCode == 2, run.err.constData());
        QVERIFY2(run.err.contains(named), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void passwordsAreRedactedEverywhere() {
        MAKE_SITE(site, 1);
        const QString base = site->server.baseUrl(site->hosts[0]);
        const auto credentialed = [&](const QString &path) {
            QUrl url(base + path);
            url.setUserName(QStringLiteral("user"));
            url.setPassword(QStringLiteral("s3cret"));
            return url.toString(QUrl::FullyEncoded);
        };
        const QString plain = credentialed(QStringLiteral("/a"));
        const QString invalid = QStringLiteral("http://user:s3cret@exa^mple.com/");
        QTemporaryDir dir;
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        const Run run =
            runCli(headless({QStringLiteral("--input"), QStringLiteral("-"), QStringLiteral("--output"),
                             QStringLiteral("-"), QStringLiteral("--summary-json"), summary}),
                   (plain + QLatin1Char('\n') + invalid + QLatin1Char('\n')).toUtf8());
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        QVERIFY2(!run.out.contains("s3cret"), run.out.constData());
        QVERIFY2(!run.err.contains("s3cret"), run.err.constData());
        QVERIFY(!readFile(summary).contains("s3cret"));
        PARSE_RESULT_CSV(run.out, rows);
        QCOMPARE(rows.size(), 2);
        const QString shown = QString(plain).replace(QStringLiteral(":s3cret@"), QStringLiteral(":***@"));
        const QStringList *row = rowFor(rows, shown);
        QVERIFY2(row, run.out.constData());
        QCOMPARE(row->at(OutcomeCol), QStringLiteral("ok"));
        const QStringList *bad = rowFor(rows, QStringLiteral("http://user:***@exa^mple.com/"));
        QVERIFY2(bad, run.out.constData());
        QCOMPARE(bad->at(OutcomeCol), QStringLiteral("invalid_url"));
        QCOMPARE(site->server.totalRequests(), qint64(1)); // the password was only hidden, not dropped
    }

    void credentialsStillReachTheServerAfterARedirect() {
        BasicAuthServer server;
        QProcess process;
        QByteArray out;
        connect(&process, &QProcess::readyReadStandardOutput, this,
                [&] { out += process.readAllStandardOutput(); });
        process.start(QStringLiteral(CRAWLSCOPE_BINARY),
                      headless({QStringLiteral("--input"), QStringLiteral("-"), QStringLiteral("--output"),
                                QStringLiteral("-")}));
        QVERIFY(process.waitForStarted());
        process.write(server.url(QStringLiteral("user:s3cret"), QStringLiteral("/go")).toUtf8() + '\n');
        process.closeWriteChannel();
        QVERIFY(QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, 30'000));
        out += process.readAllStandardOutput();
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(server.authorizations.size(), 1);
        QCOMPARE(server.authorizations.first(), "Basic " + QByteArray("user:s3cret").toBase64());
        PARSE_RESULT_CSV(out, rows);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().at(Status), QStringLiteral("200"));
        QCOMPARE(rows.first().at(Url), server.url(QStringLiteral("user:***"), QStringLiteral("/go")));
        QCOMPARE(rows.first().at(FinalUrl),
                 server.url(QStringLiteral("user:***"), QStringLiteral("/private")));
        QVERIFY2(!out.contains("s3cret"), out.constData());
    }

    void badListLinesBecomeInvalidRows() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.csv"));
        QByteArray csv = "name,url\n";
        csv += "stray,\"" + site->url(0, QStringLiteral("/stray")).toUtf8() + '\n'; // line 2: an open quote
        for (int i = 0; i < 5; ++i)
            csv += "ok," + site->url(0, QStringLiteral("/ok%1").arg(i)).toUtf8() + '\n';
        csv += "latin1," + site->url(0, QStringLiteral("/caf")).toUtf8() + "\xe9\n"; // line 8
        QVERIFY(writeFile(list, csv));
        const Run run = runCli(
            headless({QStringLiteral("--input"), list, QStringLiteral("--output"), QStringLiteral("-")}));
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        PARSE_RESULT_CSV(run.out, rows);
        QCOMPARE(rows.size(), 7);
        int ok = 0;
        QStringList errors;
        for (const QStringList &r : std::as_const(rows)) {
            if (r.at(OutcomeCol) == QLatin1String("ok"))
                ++ok;
            else
                errors << r.at(Error);
        }
        QCOMPARE(ok, 5);
        QCOMPARE(errors.size(), 2);
        errors.sort();
        QVERIFY2(errors[0].startsWith(QLatin1String("line 2: ")) &&
                     errors[0].contains(QLatin1String("quoted")),
                 qPrintable(errors[0]));
        QVERIFY2(errors[1].startsWith(QLatin1String("line 8: ")) &&
                     errors[1].contains(QLatin1String("UTF-8")),
                 qPrintable(errors[1]));
        QCOMPARE(site->server.totalRequests(), qint64(5)); // never the guessed /caf%EF%BF%BD
    }

    void plainListWithACommaKeepsItsFirstLine() {
        MAKE_SITE(site, 1);
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("list.txt"));
        const QByteArray first = site->url(0, QStringLiteral("/first?a=1,2")).toUtf8().replace("http://", "");
        QVERIFY(writeFile(list, first + '\n' + site->url(0, QStringLiteral("/second")).toUtf8() + '\n'));
        const Run run = runCli(
            headless({QStringLiteral("--input"), list, QStringLiteral("--output"), QStringLiteral("-")}));
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        PARSE_RESULT_CSV(run.out, rows);
        QCOMPARE(rows.size(), 2); // the first line was a header before, and vanished
        const QStringList *bad = rowFor(rows, QString::fromUtf8(first));
        QVERIFY2(bad, run.out.constData());
        QCOMPARE(bad->at(OutcomeCol), QStringLiteral("invalid_url"));
        QVERIFY(bad->at(Error).startsWith(QLatin1String("line 1: ")));
    }
};

QTEST_GUILESS_MAIN(TestCliOutputs)
#include "tst_cli_outputs.moc"
