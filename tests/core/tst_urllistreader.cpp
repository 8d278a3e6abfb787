// The URL list reader: plain and CSV lists, bad lines, deduplication, scanning.
#include "input/urllistreader.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace crawl;

namespace {
QList<InputLine> readAll(const QByteArray &text, bool *csv = nullptr) {
    QBuffer buffer;
    buffer.setData(text);
    buffer.open(QIODevice::ReadOnly);
    UrlListReader reader(&buffer);
    QList<InputLine> lines;
    while (auto line = reader.next())
        lines.append(*line);
    if (csv)
        *csv = reader.isCsv();
    return lines;
}

// A file whose read() fails after `good` bytes, as a disk with a bad sector does.
class FailingDevice : public QIODevice {
public:
    explicit FailingDevice(QByteArray good)
        : m_good(std::move(good)) {
        open(QIODevice::ReadOnly);
    }
    qint64 size() const override { return m_good.size() + 4096; }

protected:
    qint64 readData(char *data, qint64 maxSize) override {
        const qint64 at = pos();
        if (at >= m_good.size()) {
            setErrorString(QStringLiteral("Input/output error"));
            return -1;
        }
        const qint64 n = std::min<qint64>(maxSize, m_good.size() - at);
        std::memcpy(data, m_good.constData() + at, size_t(n));
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_good;
};

// A pipe: bytes arrive in pieces, the end comes when the writer closes; then, like StreamDevice, a last
// line without a line break gets one (the reader's contract for sequential devices).
class PipeDevice : public QIODevice {
public:
    PipeDevice() { open(QIODevice::ReadOnly | QIODevice::Unbuffered); }
    void feed(const QByteArray &bytes) { m_data += bytes; }
    void closeWriter() {
        if (!m_data.isEmpty() && !m_data.endsWith('\n'))
            m_data += '\n';
        m_closed = true;
    }
    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override { return m_data.size(); }
    bool canReadLine() const override { return m_data.contains('\n'); }
    bool atEnd() const override { return m_closed && m_data.isEmpty(); }

protected:
    qint64 readData(char *data, qint64 maxSize) override {
        const qint64 n = std::min<qint64>(maxSize, m_data.size());
        if (n == 0)
            return m_closed ? -1 : 0;
        std::memcpy(data, m_data.constData(), size_t(n));
        m_data.remove(0, n);
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_data;
    bool m_closed = false;
};

} // namespace

class TestUrlListReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsPlainTextSkippingBlanksAndComments() {
        bool csv = true;
        const auto lines =
            readAll("\xEF\xBB\xBFhttp://a.test/1\n\n# comment\n   \r\nhttp://a.test/2\r\nbad line\n"
                    "http://a.test/3",
                    &csv);
        QVERIFY(!csv);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0].lineNumber, 1);
        QVERIFY(lines[0].normalized.ok()); // the BOM is not part of the URL
        QCOMPARE(lines[1].lineNumber, 5);
        QCOMPARE(lines[2].lineNumber, 6);
        QVERIFY(!lines[2].normalized.ok());
        QCOMPARE(lines[2].raw, QStringLiteral("bad line"));
        QCOMPARE(lines[3].normalized.text, QStringLiteral("http://a.test/3")); // no final newline
    }

    void readsCsvByUrlColumnAnyCase() {
        bool csv = false;
        const auto lines =
            readAll("id,URL,note\n1,http://a.test/x,\"has, comma\"\n2,\"http://a.test/y\",\"multi\nline\"\n"
                    "3,,empty\n4,http://a.test/z,ok\n",
                    &csv);
        QVERIFY(csv);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0].normalized.text, QStringLiteral("http://a.test/x"));
        QCOMPARE(lines[0].lineNumber, 2);
        QCOMPARE(lines[1].normalized.text, QStringLiteral("http://a.test/y"));
        QVERIFY(!lines[2].normalized.ok());
        QCOMPARE(lines[2].lineNumber, 5); // the quoted newline made record 2 two physical lines
        QCOMPARE(lines[3].normalized.text, QStringLiteral("http://a.test/z"));
    }

    void csvFileWithoutUrlColumnUsesTheFirst() {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("sites.CSV")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("address,title\nhttp://a.test/1,One\n");
        file.close();
        QVERIFY(file.open(QIODevice::ReadOnly));
        UrlListReader reader(&file);
        const auto line = reader.next();
        QVERIFY(line);
        QVERIFY(reader.isCsv());
        QCOMPARE(line->normalized.text, QStringLiteral("http://a.test/1"));
        QCOMPARE(line->lineNumber, 2);
        QVERIFY(!reader.next());
    }

    void plainListWithACommaInItsFirstLineKeepsThatLine() {
        // Only a header naming a url column (or a .csv name) makes a list CSV.
        bool csv = true;
        const auto lines = readAll("address,title\nhttp://a.test/1,One\nhttp://a.test/2\n", &csv);
        QVERIFY(!csv);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0].lineNumber, 1);
        QCOMPARE(lines[0].raw, QStringLiteral("address,title"));
        QVERIFY(!lines[0].normalized.ok());
        QCOMPARE(lines[2].normalized.text, QStringLiteral("http://a.test/2"));
    }

    void strayQuoteInvalidatesOnlyItsOwnLine() {
        const auto lines = readAll("url,name\nhttp://a.test/1,\"Bob\nhttp://a.test/2,Ann\n"
                                   "\"http://a.test/3\",\"multi\nline\"\nhttp://a.test/4,Eve\n");
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0].lineNumber, 2);
        QVERIFY(!lines[0].normalized.ok());
        QVERIFY2(lines[0].normalized.error.contains(QLatin1String("quoted")),
                 qPrintable(lines[0].normalized.error));
        QCOMPARE(lines[1].lineNumber, 3);
        QCOMPARE(lines[1].normalized.text, QStringLiteral("http://a.test/2"));
        QCOMPARE(lines[2].lineNumber, 4); // a real multi-line quoted field still works
        QCOMPARE(lines[2].normalized.text, QStringLiteral("http://a.test/3"));
        QCOMPARE(lines[3].lineNumber, 6);
        QCOMPARE(lines[3].normalized.text, QStringLiteral("http://a.test/4"));
    }

    void quotedFieldIsBoundedInLines() {
        // One column: no line can be told apart from a continuation, so the bound decides.
        QByteArray text = "url\n\"http://a.test/open\n";
        for (int i = 0; i < 200; ++i)
            text += "http://a.test/" + QByteArray::number(i) + '\n';
        const auto lines = readAll(text);
        QCOMPARE(lines.size(), 201);
        QCOMPARE(lines[0].lineNumber, 2);
        QVERIFY(lines[0].normalized.error.contains(QLatin1String("not closed within")));
        for (int i = 1; i < lines.size(); ++i) {
            QVERIFY2(lines[i].normalized.ok(), qPrintable(lines[i].raw));
            QCOMPARE(lines[i].lineNumber, qint64(i + 2));
        }
    }

    void quotedFieldOpenAtTheEnd() {
        const auto lines = readAll("url,note\nhttp://a.test/1,\"never closed\n\n");
        QCOMPARE(lines.size(), 1);
        QVERIFY(lines[0].normalized.error.contains(QLatin1String("end of the input")));
    }

    void strayQuotesTakeLinearTime() {
        // Was quadratic: 40,000 lines after a stray quote took minutes.
        for (const QByteArray &header : {QByteArray("url,name\n"), QByteArray("url\n")}) {
            QByteArray text = header + "\"http://a.test/stray\n";
            const int n = 40'000;
            for (int i = 0; i < n; ++i)
                text += "http://a.test/" + QByteArray::number(i) + (header.contains(',') ? ",x\n" : "\n");
            QElapsedTimer timer;
            timer.start();
            const auto lines = readAll(text);
            QCOMPARE(lines.size(), n + 1);
            QVERIFY(!lines[0].normalized.ok());
            QVERIFY(lines[n].normalized.ok());
            QVERIFY2(timer.elapsed() < 20'000, qPrintable(QString::number(timer.elapsed())));
        }
    }

    void nonUtf8LineIsInvalidNotGuessed_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("latin-1") << QByteArray("http://a.test/caf\xe9");
        QTest::newRow("latin-1 host") << QByteArray("http://caf\xe9.test/");
        QTest::newRow("overlong slash") << QByteArray("http://a.test/\xc0\xaf");
        QTest::newRow("surrogate") << QByteArray("http://a.test/\xed\xa0\x80");
        QTest::newRow("truncated") << QByteArray("http://a.test/\xe2\x82");
    }
    void nonUtf8LineIsInvalidNotGuessed() {
        QFETCH(QByteArray, line);
        for (const QByteArray &text :
             {line + "\nhttp://a.test/ok\n", "url\n" + line + "\nhttp://a.test/ok\n"}) {
            const auto lines = readAll(text);
            QCOMPARE(lines.size(), 2);
            QVERIFY(!lines[0].normalized.ok());
            QVERIFY2(lines[0].normalized.error.contains(QLatin1String("not UTF-8")),
                     qPrintable(lines[0].normalized.error));
            QVERIFY(lines[1].normalized.ok());
        }
    }

    void utf8IsAccepted() {
        const auto lines =
            readAll("http://a.test/caf\xc3\xa9\nhttp://b\xc3\xbc\x63her.test/\xf0\x9f\x98\x80\n");
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[0].normalized.ok(), qPrintable(lines[0].normalized.error));
        QCOMPARE(lines[0].normalized.text, QStringLiteral("http://a.test/caf%C3%A9"));
        QVERIFY2(lines[1].normalized.ok(), qPrintable(lines[1].normalized.error));
    }

    void readErrorIsReported() {
        FailingDevice device("http://a.test/1\nhttp://a.test/2\n");
        UrlListReader reader(&device);
        QVERIFY(reader.next());
        QVERIFY(reader.next());
        QVERIFY(!reader.next());
        QVERIFY(!reader.waitingForData());
        QVERIFY2(reader.errorString().contains(QLatin1String("Input/output error")),
                 qPrintable(reader.errorString()));
        QCOMPARE(reader.linesRead(), 2);

        FailingDevice again("http://a.test/1\n");
        QVERIFY(!scanUrlList(&again).readError.isEmpty());
    }

    void pipeWithoutAWholeLineWaitsInsteadOfGuessing() {
        PipeDevice pipe;
        UrlListReader reader(&pipe);
        pipe.feed("url,note\nhttp://a.test/1,one\nhttp://a.te");
        auto line = reader.next();
        QVERIFY(line);
        QCOMPARE(line->normalized.text, QStringLiteral("http://a.test/1"));
        QVERIFY(!reader.next());
        QVERIFY(reader.waitingForData()); // half a line is not a URL yet
        pipe.feed("st/2,\"spans");
        QVERIFY(!reader.next());
        QVERIFY(reader.waitingForData());
        pipe.feed("\n");
        QVERIFY(!reader.next()); // the quoted field is still open: wait for its end
        QVERIFY(reader.waitingForData());
        pipe.feed("two lines\"\nhttp://a.test/3,x");
        line = reader.next();
        QVERIFY(line);
        QCOMPARE(line->normalized.text, QStringLiteral("http://a.test/2"));
        QCOMPARE(line->lineNumber, 3);
        pipe.closeWriter();
        line = reader.next(); // the last line needs no line break once the writer closed
        QVERIFY(line);
        QCOMPARE(line->normalized.text, QStringLiteral("http://a.test/3"));
        QVERIFY(!reader.next());
        QVERIFY(!reader.waitingForData());
        QVERIFY(reader.errorString().isEmpty());
    }

    void overlongLineIsInvalidNotBuffered() {
        QByteArray text = "http://a.test/1\nhttp://a.test/";
        text.append(QByteArray(200 * 1024, 'x'));
        text.append("\nhttp://a.test/3\n");
        const auto lines = readAll(text);
        QCOMPARE(lines.size(), 3);
        QVERIFY(!lines[1].normalized.ok());
        QVERIFY(lines[1].normalized.error.contains(QLatin1String("longer than")));
        QCOMPARE(lines[1].lineNumber, 2);
        QCOMPARE(lines[2].lineNumber, 3);
    }

    void scanCountsValidDuplicatesInvalid() {
        QBuffer buffer;
        buffer.setData("http://a.test/1\nHTTP://A.TEST:80/1#x\nhttp://a.test/2\nftp://x\nnope\n");
        buffer.open(QIODevice::ReadOnly);
        const UrlListScan scan = scanUrlList(&buffer);
        QCOMPARE(scan.lines, 5);
        QCOMPARE(scan.valid, 2);
        QCOMPARE(scan.duplicates, 1);
        QCOMPARE(scan.invalid, 2);
        QCOMPARE(scan.firstInvalid.size(), 2);
        QCOMPARE(scan.firstInvalid[0].lineNumber, 4);
    }

    void deduplicatorGrowsAndRemembers() {
        UrlDeduplicator seen;
        for (int i = 0; i < 50'000; ++i)
            QVERIFY(seen.insert(QStringLiteral("http://a.test/%1").arg(i)));
        QCOMPARE(seen.size(), 50'000);
        for (int i = 0; i < 50'000; i += 997)
            QVERIFY(!seen.insert(QStringLiteral("http://a.test/%1").arg(i)));
        QVERIFY(seen.insert(QStringLiteral("http://a.test/new")));
        QCOMPARE(seen.size(), 50'001);
    }
};

QTEST_GUILESS_MAIN(TestUrlListReader)
#include "tst_urllistreader.moc"
