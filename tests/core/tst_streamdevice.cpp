// StreamDevice: a pipe read without blocking, fed to the list reader as lines arrive.
#include "input/streamdevice.h"
#include "input/urllistreader.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace crawl;

class TestStreamDevice : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsAPipeAsLinesArrive() {
        int fds[2];
        QCOMPARE(::pipe2(fds, O_CLOEXEC), 0);
        StreamDevice device(fds[0], true);
        QSignalSpy arrived(&device, &QIODevice::readyRead);
        device.startReading();
        UrlListReader reader(&device);
        QVERIFY(!reader.next());
        QVERIFY(reader.waitingForData()); // nothing written yet: waits, does not block or end

        const QByteArray first = "http://a.test/1\nhttp://a.te";
        QCOMPARE(::write(fds[1], first.constData(), size_t(first.size())), ssize_t(first.size()));
        QVERIFY(arrived.wait(5000));
        auto line = reader.next();
        QVERIFY(line);
        QCOMPARE(line->normalized.text, QStringLiteral("http://a.test/1"));
        QVERIFY(!reader.next());
        QVERIFY(reader.waitingForData());

        QCOMPARE(::write(fds[1], "st/2", 4), ssize_t(4));
        ::close(fds[1]); // the end, without a final line break
        QVERIFY(QTest::qWaitFor([&] { return device.endOfInput(); }, 5000));
        line = reader.next();
        QVERIFY(line);
        QCOMPARE(line->normalized.text, QStringLiteral("http://a.test/2"));
        QVERIFY(!reader.next());
        QVERIFY(!reader.waitingForData());
        QVERIFY(reader.errorString().isEmpty());
        QVERIFY(device.atEnd());
    }

    void readErrorIsReported() {
        QTemporaryDir dir;
        const int fd = ::open(QFile::encodeName(dir.path()).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        StreamDevice device(fd, true);
        device.startReading(); // poll() says readable, read() fails with EISDIR
        QVERIFY(device.endOfInput());
        QVERIFY(!device.readError().isEmpty());
        UrlListReader reader(&device);
        QVERIFY(!reader.next());
        QVERIFY(!reader.waitingForData());
        QCOMPARE(reader.errorString(), device.readError());
    }
};

QTEST_GUILESS_MAIN(TestStreamDevice)
#include "tst_streamdevice.moc"
