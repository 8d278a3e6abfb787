#include "rfc4180reader.h"

namespace fuzz {

std::optional<QList<CsvRecord>> readRfc4180(const QByteArray &document, QString *error) {
    QList<CsvRecord> records;
    CsvRecord record;
    QByteArray field;
    const auto fail = [error](const char *why, qsizetype at) {
        *error = QStringLiteral("%1 at byte %2").arg(QLatin1String(why)).arg(at);
        return std::nullopt;
    };
    qsizetype i = 0;
    const qsizetype n = document.size();
    while (i < n) {
        // One field starts at i.
        field.clear();
        if (document.at(i) == '"') {
            ++i;
            for (;;) {
                if (i >= n)
                    return fail("quoted field not closed", i);
                if (document.at(i) == '"') {
                    if (i + 1 < n && document.at(i + 1) == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i; // the closing quote
                    break;
                }
                field += document.at(i++);
            }
        } else {
            while (i < n && document.at(i) != ',' && document.at(i) != '\r') {
                if (document.at(i) == '"' || document.at(i) == '\n')
                    return fail("quote or bare LF in an unquoted field", i);
                field += document.at(i++);
            }
        }
        record.append(field);
        if (i >= n)
            return fail("last record does not end in CRLF", i);
        if (document.at(i) == ',') {
            ++i;
            if (i >= n)
                return fail("last record does not end in CRLF", i);
            continue;
        }
        if (document.at(i) != '\r' || i + 1 >= n || document.at(i + 1) != '\n')
            return fail("field not followed by a comma or CRLF", i);
        i += 2;
        records.append(record);
        record.clear();
    }
    return records;
}

} // namespace fuzz
