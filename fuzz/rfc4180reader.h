#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace fuzz {

using CsvRecord = QList<QByteArray>;

// A deliberately strict RFC 4180 reader, independent of the writer, to read the writer's output back:
// records end in CRLF (the last one too), a field is either unquoted (no '"', CR or LF inside) or
// wholly quoted with '""' for a quote. Anything else is an error, reported in `error` with its offset.
std::optional<QList<CsvRecord>> readRfc4180(const QByteArray &document, QString *error);

} // namespace fuzz
