#include "input/urllistreader.h"

#include "input/streamdevice.h"

#include <QFile>
#include <QFileDevice>

namespace crawl {

namespace {

// RFC 4180 fields, fed a piece at a time so a record spanning lines is parsed once, not once per line.
// A quote anywhere outside quotes opens a quoted part (lenient, as spreadsheets write them).
class CsvSplitter {
public:
    void feed(const QByteArray &bytes) {
        for (const char c : bytes) {
            if (m_quoteSeen) { // inside quotes, the previous byte was a quote: "" or the closing quote
                m_quoteSeen = false;
                if (c == '"') {
                    m_field.append('"');
                    continue;
                }
                m_quoted = false;
            }
            if (m_quoted) {
                if (c == '"')
                    m_quoteSeen = true;
                else
                    m_field.append(c);
            } else if (c == '"') {
                m_quoted = true;
            } else if (c == ',') {
                m_fields.append(m_field);
                m_field.clear();
            } else {
                m_field.append(c);
            }
        }
    }
    bool inQuotes() const { return m_quoted && !m_quoteSeen; }
    QList<QByteArray> fields() const { return m_fields + QList<QByteArray>{m_field}; }

private:
    QList<QByteArray> m_fields;
    QByteArray m_field;
    bool m_quoted = false;
    bool m_quoteSeen = false;
};

QList<QByteArray> splitCsvLine(const QByteArray &line, bool *complete = nullptr) {
    CsvSplitter splitter;
    splitter.feed(line);
    if (complete)
        *complete = !splitter.inQuotes();
    return splitter.fields();
}

QByteArray chomp(QByteArray line) {
    while (!line.isEmpty() && (line.endsWith('\n') || line.endsWith('\r')))
        line.chop(1);
    return line;
}

// Index of the first byte that does not belong to well-formed UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or -1.
qsizetype firstInvalidUtf8(const QByteArray &bytes) {
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        const auto c = uchar(bytes.at(i));
        if (c < 0x80) {
            ++i;
            continue;
        }
        int length = 0;
        uint codePoint = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
            codePoint = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            codePoint = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            codePoint = c & 0x07u;
        } else {
            return i;
        }
        if (i + length > n)
            return i;
        for (int k = 1; k < length; ++k) {
            const auto next = uchar(bytes.at(i + k));
            if ((next & 0xC0u) != 0x80u)
                return i;
            codePoint = (codePoint << 6) | (next & 0x3Fu);
        }
        if ((length == 3 && (codePoint < 0x800 || (codePoint >= 0xD800 && codePoint <= 0xDFFF))) ||
            (length == 4 && (codePoint < 0x10000 || codePoint > 0x10FFFF)))
            return i;
        i += length;
    }
    return -1;
}

InputLine invalidLine(qint64 number, const QByteArray &raw, const QString &why) {
    InputLine out;
    out.lineNumber = number;
    out.raw = QString::fromUtf8(raw);
    out.normalized.error = why;
    return out;
}

// A URL line: its bytes must be UTF-8. Guessing another encoding, or fetching the U+FFFD that replaced
// the bytes, would crawl a URL nobody wrote; the user can re-save the list as UTF-8.
InputLine urlLine(qint64 number, const QByteArray &value) {
    if (const qsizetype bad = firstInvalidUtf8(value); bad >= 0)
        return invalidLine(number, value,
                           QStringLiteral("not UTF-8 text (byte 0x%1 at column %2); save the list as UTF-8")
                               .arg(uint(uchar(value.at(bad))), 2, 16, QLatin1Char('0'))
                               .arg(bad + 1));
    InputLine out;
    out.lineNumber = number;
    out.raw = QString::fromUtf8(value);
    out.normalized = normalizeUrl(out.raw);
    return out;
}

} // namespace

UrlListReader::UrlListReader(QIODevice *device)
    : m_device(device) {
    if (const auto *file = qobject_cast<QFile *>(device))
        m_namedCsv = file->fileName().endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
}

void UrlListReader::failRead(const QString &why) {
    m_failed = true;
    m_error = why.isEmpty() ? QStringLiteral("read error") : why;
}

bool UrlListReader::readDeviceLine(PhysicalLine *line) {
    if (!m_device || m_failed)
        return false;
    const bool sequential = m_device->isSequential();
    while (true) {
        if (sequential && !m_device->canReadLine() && !m_device->atEnd() &&
            m_device->bytesAvailable() < kMaxLineBytes) {
            m_waiting = true; // a pipe with half a line: come back on readyRead
            return false;
        }
        if (m_device->atEnd())
            return false;
        const QByteArray chunk = m_device->readLine(kMaxLineBytes);
        if (chunk.isEmpty()) {
            // Not at the end, yet nothing came: the device failed (EIO, a vanished file...).
            failRead(m_device->errorString());
            return false;
        }
        if (const auto *file = qobject_cast<QFileDevice *>(m_device);
            file && file->error() != QFileDevice::NoError) {
            failRead(file->errorString());
            return false;
        }
        m_bytesConsumed += chunk.size();
        const bool complete = chunk.endsWith('\n') || m_device->atEnd();
        if (m_discardedBytes >= 0) { // the rest of an overlong line: skip it without holding it
            m_discardedBytes += chunk.size();
            if (!complete)
                continue;
            m_discardedBytes = -1;
            line->number = ++m_lineNumber;
            line->bytes.clear();
            line->tooLong = true;
            return true;
        }
        if (!complete && chunk.size() >= kMaxLineBytes - 1) {
            m_discardedBytes = chunk.size();
            continue;
        }
        line->number = ++m_lineNumber;
        line->bytes = chomp(chunk);
        line->tooLong = false;
        if (line->number == 1 && line->bytes.startsWith("\xEF\xBB\xBF"))
            line->bytes.remove(0, 3);
        return true;
    }
}

bool UrlListReader::takeLine(PhysicalLine *line) {
    if (!m_replay.empty()) {
        *line = std::move(m_replay.front());
        m_replay.pop_front();
        return true;
    }
    return readDeviceLine(line);
}

bool UrlListReader::decideFormat(const QByteArray &firstLine) {
    m_formatDecided = true;
    const QList<QByteArray> fields = splitCsvLine(firstLine);
    int urlColumn = -1;
    int urlLike = -1;
    for (int i = 0; i < fields.size(); ++i) {
        const QByteArray f = fields.at(i).trimmed();
        if (urlColumn < 0 && f.compare("url", Qt::CaseInsensitive) == 0)
            urlColumn = i;
        if (urlLike < 0 && f.contains("://"))
            urlLike = i;
    }
    if (urlColumn < 0 && !m_namedCsv)
        return false; // a plain list, commas or not
    m_csv = true;
    m_headerFields = int(fields.size());
    if (urlColumn < 0 && urlLike >= 0) { // a .csv without a header: this line is already a record
        m_urlColumn = urlLike;
        return false;
    }
    m_urlColumn = std::max(urlColumn, 0);
    return true;
}

bool UrlListReader::startsNewRecord(const QByteArray &line) const {
    bool complete = false;
    const QList<QByteArray> fields = splitCsvLine(line, &complete);
    return complete && m_headerFields > 1 && fields.size() == m_headerFields &&
           fields.at(m_urlColumn).contains("://");
}

std::optional<InputLine> UrlListReader::csvRecord(const PhysicalLine &first) {
    CsvSplitter splitter;
    splitter.feed(first.bytes);
    std::vector<PhysicalLine> continuation;
    qint64 recordBytes = first.bytes.size();
    while (splitter.inQuotes()) {
        PhysicalLine more;
        const bool got = takeLine(&more);
        const auto giveBack = [&] {
            if (got)
                m_replay.push_front(std::move(more));
            for (auto it = continuation.rbegin(); it != continuation.rend(); ++it)
                m_replay.push_front(std::move(*it));
        };
        if (!got && m_waiting) {
            giveBack();
            m_replay.push_front(first); // the whole record again once more data came
            return std::nullopt;
        }
        QString why;
        if (!got)
            why = QStringLiteral("a quoted field is not closed before the end of the input");
        else if (more.tooLong || recordBytes + more.bytes.size() > kMaxLineBytes ||
                 int(continuation.size()) + 1 >= kMaxRecordLines)
            why = QStringLiteral("a quoted field is not closed within %1 lines").arg(kMaxRecordLines);
        else if (startsNewRecord(more.bytes))
            why = QStringLiteral("a quoted field is not closed before the next record");
        if (!why.isEmpty()) {
            giveBack(); // the lines after the stray quote are read again as records of their own
            return invalidLine(first.number, first.bytes.trimmed(), why);
        }
        recordBytes += more.bytes.size() + 1;
        splitter.feed('\n' + more.bytes);
        continuation.push_back(std::move(more));
    }
    const QList<QByteArray> fields = splitter.fields();
    const QByteArray value = m_urlColumn < fields.size() ? fields.at(m_urlColumn).trimmed() : QByteArray();
    if (value.isEmpty())
        return invalidLine(first.number, first.bytes.trimmed(), QStringLiteral("no value in the url column"));
    return urlLine(first.number, value);
}

std::optional<InputLine> UrlListReader::next() {
    m_waiting = false;
    PhysicalLine line;
    while (takeLine(&line)) {
        if (line.tooLong)
            return invalidLine(line.number,
                               QByteArrayLiteral("(line longer than ") + QByteArray::number(kMaxLineBytes) +
                                   " bytes)",
                               QStringLiteral("line longer than %1 bytes").arg(kMaxLineBytes));
        const QByteArray trimmed = line.bytes.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith('#'))
            continue;
        if (!m_formatDecided && decideFormat(trimmed))
            continue; // the header row is not a URL
        if (!m_csv)
            return urlLine(line.number, trimmed);
        std::optional<InputLine> record = csvRecord(line);
        if (record || m_waiting)
            return record;
    }
    if (!m_failed && !m_waiting) {
        if (const auto *file = qobject_cast<QFileDevice *>(m_device);
            file && file->error() != QFileDevice::NoError)
            failRead(file->errorString());
        if (const auto *in = qobject_cast<StreamDevice *>(m_device); in && !in->readError().isEmpty())
            failRead(in->readError());
    }
    return std::nullopt;
}

bool UrlDeduplicator::insert(const QString &canonicalUrl) {
    const quint64 hash = qHashBits(canonicalUrl.constData(), size_t(canonicalUrl.size()) * sizeof(QChar),
                                   0x9e3779b97f4a7c15ULL);
    return insertHash(hash | 1); // never 0, the empty marker
}

bool UrlDeduplicator::insertHash(quint64 hash) {
    if (qsizetype(m_slots.size()) * 3 <= (m_size + 1) * 4)
        grow();
    const size_t mask = m_slots.size() - 1;
    // Spread the already-mixed hash over the table; linear probing keeps lookups in one cache line.
    for (size_t i = size_t(hash >> 17) & mask;; i = (i + 1) & mask) {
        if (m_slots[i] == hash)
            return false;
        if (m_slots[i] == 0) {
            m_slots[i] = hash;
            ++m_size;
            return true;
        }
    }
}

void UrlDeduplicator::grow() {
    std::vector<quint64> old;
    old.swap(m_slots);
    m_slots.assign(old.empty() ? 1024 : old.size() * 2, 0);
    m_size = 0;
    for (quint64 hash : old) {
        if (hash != 0)
            insertHash(hash);
    }
}

UrlListScan scanUrlList(QIODevice *device, int maxInvalidKept, const std::function<bool(qint64)> &progress) {
    UrlListScan scan;
    UrlListReader reader(device);
    UrlDeduplicator seen;
    while (auto line = reader.next()) {
        ++scan.lines;
        if (!line->normalized.ok()) {
            ++scan.invalid;
            if (scan.firstInvalid.size() < maxInvalidKept)
                scan.firstInvalid.append(*line);
        } else if (seen.insert(line->normalized.text)) {
            ++scan.valid;
        } else {
            ++scan.duplicates;
        }
        if (progress && (scan.lines % 4096) == 0 && !progress(reader.bytesConsumed()))
            break;
    }
    scan.readError = reader.errorString();
    return scan;
}

} // namespace crawl
