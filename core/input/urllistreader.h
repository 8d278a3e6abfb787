#pragma once

#include "input/urlnormalizer.h"

#include <QByteArray>
#include <QString>

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
// and '#' comments skipped) or CSV with a header row (the column named "url" in any case, else the
// first). UTF-8; a leading BOM is ignored. The format is decided from the first non-blank line.
class UrlListReader {
public:
    explicit UrlListReader(QIODevice *device);

    // The next non-blank, non-comment line (valid or not); nullopt at the end of input.
    std::optional<InputLine> next();

    bool isCsv() const { return m_csv; }
    qint64 bytesConsumed() const { return m_bytesConsumed; }
    QString errorString() const { return m_error; } // non-empty when reading failed (not bad lines)

private:
    bool readPhysicalLine(QByteArray *line);

    QIODevice *m_device;
    qint64 m_lineNumber = 0;
    qint64 m_bytesConsumed = 0;
    bool m_lastLineTooLong = false;
    bool m_formatDecided = false;
    bool m_csv = false;
    int m_urlColumn = 0;
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
