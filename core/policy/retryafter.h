#pragma once

#include <QByteArray>
#include <QDateTime>

#include <optional>

namespace crawl {

// Parses an HTTP Retry-After value (RFC 9110 section 10.2.3) into a delay in milliseconds from `now`:
// delta-seconds (digits only) or an HTTP-date in IMF-fixdate, obsolete RFC 850 or asctime form.
// A date in the past gives 0. Anything malformed gives nullopt (treated as if the header were absent).
std::optional<qint64> parseRetryAfter(const QByteArray &value, const QDateTime &now);

// Parses just the HTTP-date forms; invalid QDateTime when malformed.
QDateTime parseHttpDate(const QByteArray &value, const QDateTime &now);

} // namespace crawl
