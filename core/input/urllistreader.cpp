#include "input/urllistreader.h"

#include <QFileDevice>

namespace crawl {

namespace {

constexpr qint64 kMaxLineBytes = 64 * 1024; // longer lines are reported as invalid, not buffered

// Splits one CSV record (RFC 4180). Returns false while a quoted field is still open at the end.
bool splitCsv(const QByteArray &record, QList<QByteArray> *fields) {
    fields->clear();
    QByteArray field;
    bool quoted = false;
    for (qsizetype i = 0; i < record.size(); ++i) {
        const char c = record.at(i);
        if (quoted) {
            if (c == '"') {
                if (i + 1 < record.size() && record.at(i + 1) == '"') {
                    field.append('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field.append(c);
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields->append(field);
            field.clear();
        } else {
            field.append(c);
        }
    }
    fields->append(field);
    return !quoted;
}

QByteArray chomp(QByteArray line) {
    while (!line.isEmpty() && (line.endsWith('\n') || line.endsWith('\r')))
        line.chop(1);
    return line;
}

} // namespace

UrlListReader::UrlListReader(QIODevice *device)
    : m_device(device) {}

bool UrlListReader::readPhysicalLine(QByteArray *line) {
    line->clear();
    if (!m_device || m_device->atEnd()) {
        // A sequential device (stdin) reports atEnd only when nothing more can come; wait for data.
        if (!m_device || !m_device->isSequential() || !m_device->waitForReadyRead(-1))
            return false;
    }
    QByteArray chunk = m_device->readLine(kMaxLineBytes);
    if (chunk.isEmpty() && m_device->atEnd())
        return false;
    m_bytesConsumed += chunk.size();
    bool tooLong = false;
    while (!chunk.endsWith('\n') && chunk.size() >= kMaxLineBytes - 1 && !m_device->atEnd()) {
        tooLong = true; // discard the rest of an absurdly long line without holding it
        chunk = m_device->readLine(kMaxLineBytes);
        m_bytesConsumed += chunk.size();
    }
    ++m_lineNumber;
    m_lastLineTooLong = tooLong;
    *line = tooLong ? QByteArray() : chomp(chunk);
    if (m_lineNumber == 1 && line->startsWith("\xEF\xBB\xBF"))
        line->remove(0, 3);
    return true;
}

std::optional<InputLine> UrlListReader::next() {
    QByteArray line;
    while (readPhysicalLine(&line)) {
        const qint64 lineNumber = m_lineNumber;
        const QByteArray trimmed = line.trimmed();
        if (!m_lastLineTooLong && (trimmed.isEmpty() || trimmed.startsWith('#')))
            continue;

        InputLine out;
        out.lineNumber = lineNumber;
        if (m_lastLineTooLong) {
            out.raw = QStringLiteral("(line longer than %1 bytes)").arg(kMaxLineBytes);
            out.normalized.error = QStringLiteral("line longer than %1 bytes").arg(kMaxLineBytes);
            return out;
        }

        QList<QByteArray> fields;
        if (!m_formatDecided) {
            m_formatDecided = true;
            QByteArray record = trimmed;
            splitCsv(record, &fields);
            bool looksLikeUrl = false;
            int urlColumn = -1;
            for (int i = 0; i < fields.size(); ++i) {
                const QByteArray f = fields.at(i).trimmed();
                if (f.contains("://"))
                    looksLikeUrl = true;
                if (urlColumn < 0 && f.compare("url", Qt::CaseInsensitive) == 0)
                    urlColumn = i;
            }
            if (!looksLikeUrl && (fields.size() > 1 || urlColumn == 0)) {
                m_csv = true;
                m_urlColumn = urlColumn >= 0 ? urlColumn : 0;
                continue; // the header row is not a URL
            }
        }

        QByteArray value = trimmed;
        if (m_csv) {
            QByteArray record = line;
            while (!splitCsv(record, &fields)) { // a quoted field spans lines
                QByteArray more;
                if (!readPhysicalLine(&more))
                    break;
                record += '\n' + more;
            }
            value = m_urlColumn < fields.size() ? fields.at(m_urlColumn).trimmed() : QByteArray();
            if (value.isEmpty()) {
                out.raw = QString::fromUtf8(trimmed);
                out.normalized.error = QStringLiteral("no value in the url column");
                return out;
            }
        }
        out.raw = QString::fromUtf8(value);
        out.normalized = normalizeUrl(out.raw);
        return out;
    }
    if (const auto *file = qobject_cast<QFileDevice *>(m_device);
        file && file->error() != QFileDevice::NoError)
        m_error = file->errorString();
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
