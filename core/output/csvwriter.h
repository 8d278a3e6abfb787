#pragma once

#include "model/crawlresult.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

class QIODevice;

namespace crawl {

// RFC 4180 field: quoted when it holds a comma, quote, CR or LF. Text a spreadsheet would run as a
// formula (leading '=', '+', '-', '@', tab or CR) is prefixed with a single quote first.
QByteArray csvField(const QString &text);
QByteArray csvFieldNumber(qint64 value); // numbers are never neutralized (negative numbers stay numbers)

// The result CSV: header `url,final_url,host,status,outcome,attempts,redirects,bytes,content_type,
// latency_ms,ttfb_ms,error,started_at,finished_at,warning,accepted,reject_reason,title`, then one row per
// result.
QStringList resultCsvColumns();
QByteArray resultCsvHeader();
QByteArray acceptedCsvCell(CrawlResult::Accepted accepted); // "yes", "no", or empty when nothing was checked
QByteArray resultCsvRow(const CrawlResult &result);         // URL passwords redacted (urlredaction.h)
QString isoUtcMs(const QDateTime &time);                    // "2026-11-29T08:31:05.123Z", empty when invalid

// Appends result rows to a device; reports the first write failure (e.g. disk full) with its reason.
class ResultCsvWriter {
public:
    explicit ResultCsvWriter(QIODevice *device);
    bool writeHeader();
    bool write(const CrawlResult &result);
    bool flush();
    QString errorString() const { return m_error; }
    qint64 rowsWritten() const { return m_rows; }

private:
    bool writeBytes(const QByteArray &bytes);
    QIODevice *m_device;
    QString m_error;
    qint64 m_rows = 0;
};

} // namespace crawl
