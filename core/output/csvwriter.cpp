#include "output/csvwriter.h"

#include "output/urlredaction.h"

#include <QFileDevice>

namespace crawl {

QByteArray csvField(const QString &text) {
    QString value = text;
    // Spreadsheets run cells starting with these as formulas; server-controlled text reaches them.
    if (!value.isEmpty()) {
        const QChar first = value.at(0);
        if (first == QLatin1Char('=') || first == QLatin1Char('+') || first == QLatin1Char('-') ||
            first == QLatin1Char('@') || first == QLatin1Char('\t') || first == QLatin1Char('\r'))
            value.prepend(QLatin1Char('\''));
    }
    QByteArray utf8 = value.toUtf8();
    const bool needsQuotes =
        utf8.contains(',') || utf8.contains('"') || utf8.contains('\n') || utf8.contains('\r');
    if (!needsQuotes)
        return utf8;
    utf8.replace("\"", "\"\"");
    return '"' + utf8 + '"';
}

QByteArray csvFieldNumber(qint64 value) {
    return QByteArray::number(value);
}

QString isoUtcMs(const QDateTime &time) {
    if (!time.isValid())
        return {};
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QByteArray acceptedCsvCell(CrawlResult::Accepted accepted) {
    switch (accepted) {
    case CrawlResult::Accepted::Yes:
        return QByteArrayLiteral("yes");
    case CrawlResult::Accepted::No:
        return QByteArrayLiteral("no");
    case CrawlResult::Accepted::Unknown:
        break;
    }
    return {};
}

QStringList resultCsvColumns() {
    return {QStringLiteral("url"),        QStringLiteral("final_url"),     QStringLiteral("host"),
            QStringLiteral("status"),     QStringLiteral("outcome"),       QStringLiteral("attempts"),
            QStringLiteral("redirects"),  QStringLiteral("bytes"),         QStringLiteral("content_type"),
            QStringLiteral("latency_ms"), QStringLiteral("ttfb_ms"),       QStringLiteral("error"),
            QStringLiteral("started_at"), QStringLiteral("finished_at"),   QStringLiteral("warning"),
            QStringLiteral("accepted"),   QStringLiteral("reject_reason"), QStringLiteral("title")};
}

QByteArray resultCsvHeader() {
    return resultCsvColumns().join(QLatin1Char(',')).toUtf8() + "\r\n";
}

QByteArray resultCsvRow(const CrawlResult &r) {
    const auto optionalNumber = [](qint64 v) { return v < 0 ? QByteArray() : QByteArray::number(v); };
    QByteArray row;
    row.reserve(256);
    // URL passwords never reach the file; error texts can quote URLs too.
    row += csvField(redactUrlPasswords(r.url)) + ',';
    row += csvField(redactUrlPasswords(r.finalUrl)) + ',';
    row += csvField(r.host) + ',';
    row += (r.status > 0 ? csvFieldNumber(r.status) : QByteArray()) + ',';
    row += outcomeName(r.outcome).toLatin1() + ',';
    row += csvFieldNumber(r.attempts) + ',';
    row += csvFieldNumber(r.redirects) + ',';
    row += csvFieldNumber(r.bytes) + ',';
    row += csvField(r.contentType) + ',';
    row += optionalNumber(r.latencyMs) + ',';
    row += optionalNumber(r.ttfbMs) + ',';
    row += csvField(redactUrlPasswords(r.error)) + ',';
    row += isoUtcMs(r.startedAt).toLatin1() + ',';
    row += isoUtcMs(r.finishedAt).toLatin1() + ',';
    row += csvField(r.warning) + ',';
    row += acceptedCsvCell(r.accepted) + ',';
    row += csvField(r.rejectReason) + ',';
    row += csvField(r.title); // server text: neutralized like every other cell
    row += "\r\n";
    return row;
}

ResultCsvWriter::ResultCsvWriter(QIODevice *device)
    : m_device(device) {}

bool ResultCsvWriter::writeBytes(const QByteArray &bytes) {
    if (!m_error.isEmpty())
        return false;
    qint64 offset = 0;
    while (offset < bytes.size()) {
        const qint64 n = m_device->write(bytes.constData() + offset, bytes.size() - offset);
        if (n <= 0) {
            m_error =
                m_device->errorString().isEmpty() ? QStringLiteral("write failed") : m_device->errorString();
            return false;
        }
        offset += n;
    }
    return true;
}

bool ResultCsvWriter::writeHeader() {
    return writeBytes(resultCsvHeader());
}

bool ResultCsvWriter::write(const CrawlResult &result) {
    if (!writeBytes(resultCsvRow(result)))
        return false;
    ++m_rows;
    return true;
}

bool ResultCsvWriter::flush() {
    if (!m_error.isEmpty())
        return false;
    if (auto *file = qobject_cast<QFileDevice *>(m_device); file && !file->flush()) {
        m_error = file->errorString();
        return false;
    }
    return true;
}

} // namespace crawl
