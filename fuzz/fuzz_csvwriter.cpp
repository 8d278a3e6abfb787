// Fuzzes the CSV writer by round trip: arbitrary cells (UTF-8 text from the input) are written with
// csvField, and a whole result row with ResultCsvWriter, then read back with an independent strict
// RFC 4180 reader (rfc4180reader.h). Checked: the document parses, has exactly the rows and columns
// written, every text cell reads back as written (with one leading quote when it would have run as a
// formula), and no text cell read back starts with '=', '+', '-', '@', tab or CR.
#include "fuzzcheck.h"
#include "output/csvwriter.h"
#include "output/urlredaction.h"
#include "rfc4180reader.h"

#include <QBuffer>
#include <QTimeZone>

#include <cstddef>
#include <cstdint>
#include <fuzzer/FuzzedDataProvider.h>

using fuzz::escaped;

namespace {

bool looksLikeFormula(const QString &text) {
    if (text.isEmpty())
        return false;
    const QChar c = text.at(0);
    return c == QLatin1Char('=') || c == QLatin1Char('+') || c == QLatin1Char('-') || c == QLatin1Char('@') ||
           c == QLatin1Char('\t') || c == QLatin1Char('\r');
}

// What a spreadsheet must show for a text cell: the text, defused when it would run as a formula.
QString expectedCell(const QString &text) {
    return looksLikeFormula(text) ? QLatin1Char('\'') + text : text;
}

QString consumeText(FuzzedDataProvider &input) {
    const std::string bytes = input.ConsumeRandomLengthString(200);
    return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

QList<fuzz::CsvRecord> readBack(const QByteArray &document, const QByteArray &what) {
    QString error;
    const auto records = fuzz::readRfc4180(document, &error);
    FUZZ_CHECK(records.has_value(), what + " document \"" + escaped(document) + "\": " + escaped(error));
    return *records;
}

void checkTextCell(const QByteArray &cell, const QString &written, const QByteArray &what) {
    const QString read = QString::fromUtf8(cell);
    const QByteArray detail = what + " wrote \"" + escaped(written) + "\" read \"" + escaped(read) + '"';
    FUZZ_CHECK(read == expectedCell(written), detail);
    FUZZ_CHECK(!looksLikeFormula(read), detail);
}

void checkCells(FuzzedDataProvider &input) {
    const int count = input.ConsumeIntegralInRange(1, 6);
    QStringList cells;
    QByteArray row;
    for (int i = 0; i < count; ++i) {
        cells.append(consumeText(input));
        row += (i ? "," : "") + crawl::csvField(cells.last());
    }
    row += "\r\n";
    const QList<fuzz::CsvRecord> records = readBack(row, "cells");
    FUZZ_CHECK(records.size() == 1 && records.first().size() == count, "cells row \"" + escaped(row) + '"');
    for (int i = 0; i < count; ++i)
        checkTextCell(records.first().at(i), cells.at(i), "cell " + QByteArray::number(i));
}

void checkResultRow(FuzzedDataProvider &input) {
    crawl::CrawlResult r;
    r.url = consumeText(input);
    r.finalUrl = consumeText(input);
    r.host = consumeText(input);
    r.contentType = consumeText(input);
    r.error = consumeText(input);
    r.status = input.ConsumeIntegralInRange(-1, 999);
    r.outcome = static_cast<crawl::Outcome>(input.ConsumeIntegralInRange(0, crawl::kOutcomeCount - 1));
    r.attempts = input.ConsumeIntegral<int>();
    r.redirects = input.ConsumeIntegral<int>();
    r.bytes = input.ConsumeIntegral<qint64>();
    r.latencyMs = input.ConsumeIntegral<qint64>();
    r.ttfbMs = input.ConsumeIntegral<qint64>();
    // Engine clocks: any millisecond from 1970 to 9999 (the ISO form has four-digit years).
    constexpr qint64 kLastMs = 253'402'300'799'999;
    r.startedAt =
        QDateTime::fromMSecsSinceEpoch(input.ConsumeIntegralInRange<qint64>(0, kLastMs), QTimeZone::utc());
    if (input.ConsumeBool())
        r.finishedAt = QDateTime::fromMSecsSinceEpoch(input.ConsumeIntegralInRange<qint64>(0, kLastMs),
                                                      QTimeZone::utc());
    // Acceptance columns (issue 13): the title is server text like the error.
    r.accepted = static_cast<crawl::CrawlResult::Accepted>(input.ConsumeIntegralInRange(0, 2));
    r.rejectReason = consumeText(input);
    r.title = consumeText(input);

    QByteArray document;
    QBuffer buffer(&document);
    buffer.open(QIODevice::WriteOnly);
    crawl::ResultCsvWriter writer(&buffer);
    FUZZ_CHECK(writer.writeHeader() && writer.write(r) && writer.flush(), escaped(writer.errorString()));
    buffer.close();

    const QList<fuzz::CsvRecord> records = readBack(document, "result");
    const QByteArray what = "result document \"" + escaped(document) + '"';
    const QStringList columns = crawl::resultCsvColumns();
    FUZZ_CHECK(records.size() == 2, what);
    FUZZ_CHECK(records.at(0).size() == columns.size() && records.at(1).size() == columns.size(), what);
    for (qsizetype i = 0; i < columns.size(); ++i)
        FUZZ_CHECK(QString::fromUtf8(records.at(0).at(i)) == columns.at(i), what);

    const fuzz::CsvRecord &row = records.at(1);
    const auto cell = [&](const char *name) { return row.at(columns.indexOf(QLatin1String(name))); };
    // URL-bearing cells are written with passwords redacted (user:***@); redaction is stable.
    const auto redacted = [](const QString &text) {
        const QString once = crawl::redactUrlPasswords(text);
        FUZZ_CHECK(crawl::redactUrlPasswords(once) == once,
                   "redaction not stable for \"" + escaped(text) + '"');
        return once;
    };
    checkTextCell(cell("url"), redacted(r.url), "url");
    checkTextCell(cell("final_url"), redacted(r.finalUrl), "final_url");
    checkTextCell(cell("host"), r.host, "host");
    checkTextCell(cell("content_type"), r.contentType, "content_type");
    checkTextCell(cell("error"), redacted(r.error), "error");
    FUZZ_CHECK(cell("warning").isEmpty(), what); // no warning was set
    checkTextCell(cell("reject_reason"), r.rejectReason, "reject_reason");
    checkTextCell(cell("title"), r.title, "title");
    FUZZ_CHECK(cell("accepted") == crawl::acceptedCsvCell(r.accepted), what);
    const auto optionalNumber = [](qint64 v) { return v < 0 ? QByteArray() : QByteArray::number(v); };
    FUZZ_CHECK(cell("status") == (r.status > 0 ? QByteArray::number(r.status) : QByteArray()), what);
    FUZZ_CHECK(cell("outcome") == crawl::outcomeName(r.outcome).toUtf8(), what);
    FUZZ_CHECK(cell("attempts") == QByteArray::number(r.attempts), what);
    FUZZ_CHECK(cell("redirects") == QByteArray::number(r.redirects), what);
    FUZZ_CHECK(cell("bytes") == QByteArray::number(r.bytes), what);
    FUZZ_CHECK(cell("latency_ms") == optionalNumber(r.latencyMs), what);
    FUZZ_CHECK(cell("ttfb_ms") == optionalNumber(r.ttfbMs), what);
    FUZZ_CHECK(QDateTime::fromString(QString::fromUtf8(cell("started_at")), Qt::ISODateWithMs) == r.startedAt,
               what);
    FUZZ_CHECK(cell("finished_at") == crawl::isoUtcMs(r.finishedAt).toUtf8(), what);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    FuzzedDataProvider input(data, size);
    if (input.ConsumeBool())
        checkCells(input);
    else
        checkResultRow(input);
    return 0;
}
