#pragma once

#include "input/urlnormalizer.h"

#include <QByteArray>
#include <QString>

#include <deque>
#include <functional>
#include <optional>
#include <vector>

class QIODevice;

namespace crawl {

struct InputLine {
    qint64 lineNumber = 0; // 1-based physical line in the input
    QString raw;           // the line as read (trimmed)
    NormalizedUrl normalized;
};

// Streams a URL list from a device without reading it whole: plain text (one URL per line, blank lines
// and '#' comments skipped) or CSV with a header row. UTF-8 only: a line with bytes that are not UTF-8
// is reported invalid rather than guessed at. A leading BOM is ignored.
//
// The format is decided from the first non-blank line: CSV when one of its fields is "url" (any case),
// or when the device is a file named *.csv (then the url column is the one named so, else the first).
// Anything else is a plain list, even when its lines hold commas.
//
// A quoted CSV field may span lines, but not more than kMaxRecordLines lines or kMaxLineBytes bytes, and
// not past a line that is itself a complete record with a URL: a stray quote then makes only its own line
// invalid, and reading goes on with the next line. Every byte is parsed a bounded number of times.
//
// A sequential device (a pipe) may have no complete line yet: next() then returns nullopt with
// waitingForData() true; call it again after the device's readyRead(). It never blocks. Such a device
// ends its last line with a line break when the writer closes (StreamDevice does).
class UrlListReader {
public:
    static constexpr qint64 kMaxLineBytes = 64 * 1024; // longer lines are reported, not buffered
    static constexpr int kMaxRecordLines = 64;         // physical lines one quoted CSV record may span

    explicit UrlListReader(QIODevice *device);

    // The next non-blank, non-comment line (valid or not); nullopt at the end of input, on a read error
    // (errorString()) or while waiting for data (waitingForData()).
    std::optional<InputLine> next();

    bool isCsv() const { return m_csv; }
    bool waitingForData() const { return m_waiting; }
    qint64 bytesConsumed() const { return m_bytesConsumed; }
    qint64 linesRead() const { return m_lineNumber; }
    QString errorString() const { return m_error; } // non-empty when reading failed (not bad lines)

private:
    struct PhysicalLine {
        qint64 number = 0;
        QByteArray bytes; // without the line break
        bool tooLong = false;
    };
    bool takeLine(PhysicalLine *line);
    bool readDeviceLine(PhysicalLine *line);
    bool decideFormat(const QByteArray &firstLine); // true when the line was a header
    std::optional<InputLine> csvRecord(const PhysicalLine &first);
    bool startsNewRecord(const QByteArray &line) const;
    void failRead(const QString &why);

    QIODevice *m_device;
    bool m_namedCsv = false;
    std::deque<PhysicalLine> m_replay; // lines read ahead while looking for a closing quote
    qint64 m_lineNumber = 0;
    qint64 m_bytesConsumed = 0;
    qint64 m_discardedBytes = -1; // >= 0 while skipping the rest of an overlong line
    bool m_waiting = false;
    bool m_failed = false;
    bool m_formatDecided = false;
    bool m_csv = false;
    int m_urlColumn = 0;
    int m_headerFields = 0;
    QString m_error;
};

// Remembers which canonical URLs were seen, in 8-16 bytes per distinct URL: a 64-bit hash in an
// open-addressing table kept at most 3/4 full. A false "duplicate" needs a 64-bit collision (about 1 in
// 3e7 for a 1M-URL list). The durable crawl store will replace this for lists beyond memory.
class UrlDeduplicator {
public:
    bool insert(const QString &canonicalUrl); // true when new
    qsizetype size() const { return m_size; }

private:
    bool insertHash(quint64 hash);
    void grow();

    std::vector<quint64> m_slots; // 0 = empty; hashes are forced non-zero
    qsizetype m_size = 0;
};

// What loading a list found, for the window's summary after loading.
struct UrlListScan {
    qint64 lines = 0; // non-blank, non-comment lines
    qint64 valid = 0; // distinct valid URLs
    qint64 duplicates = 0;
    qint64 invalid = 0;
    QList<InputLine> firstInvalid; // at most maxInvalidKept
    QString readError;
};
// Reads the whole list once (off the GUI thread); `progress` gets bytes consumed and may return false
// to cancel.
UrlListScan scanUrlList(QIODevice *device, int maxInvalidKept = 20,
                        const std::function<bool(qint64)> &progress = {});

} // namespace crawl
