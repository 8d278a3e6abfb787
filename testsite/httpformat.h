#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QHostAddress>
#include <QString>

// Small text helpers for what the test site writes on the wire and in /__records.
namespace testsite {

// Body slices are written this many bytes at a time.
constexpr qint64 kBodySlice = 64 * 1024;

// Filler for size=N bodies: built once, written in slices, so a 50 MB body costs no 50 MB buffer.
const QByteArray &fillerBlock(); // kBodySlice bytes

QByteArray reasonPhrase(int status);

// format: "imf" (default), "rfc850" or "asctime". Always English and GMT, whatever the process locale.
QByteArray httpDate(const QDateTime &utc, const QByteArray &format);

QByteArray htmlEscape(const QByteArray &in);

// Appends utf8 as a JSON string literal.
void appendJsonString(QByteArray &out, const QByteArray &utf8);

// "127.0.0.2:41234", "[::1]:41234".
QString hostKey(const QHostAddress &address, quint16 port);

// A non-negative decimal, or fallback.
qint64 toNumber(const QByteArray &v, qint64 fallback);

} // namespace testsite
