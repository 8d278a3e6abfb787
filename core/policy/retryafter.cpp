#include "policy/retryafter.h"

#include <QRegularExpression>
#include <QTimeZone>

#include <limits>

namespace crawl {

namespace {

int monthNumber(QStringView name) {
    static const char *const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    for (int i = 0; i < 12; ++i) {
        if (name == QLatin1String(kMonths[i]))
            return i + 1;
    }
    return 0;
}

QDateTime makeUtc(int year, int month, int day, int hour, int minute, int second) {
    const QDate date(year, month, day);
    const QTime time(hour, minute, second);
    if (!date.isValid() || !time.isValid())
        return {};
    return QDateTime(date, time, QTimeZone::utc());
}

} // namespace

QDateTime parseHttpDate(const QByteArray &value, const QDateTime &now) {
    const QString text = QString::fromLatin1(value.trimmed());
    // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
    static const QRegularExpression imf(
        QStringLiteral("^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ([A-Z][a-z]{2}) (\\d{4}) "
                       "(\\d{2}):(\\d{2}):(\\d{2}) GMT$"));
    // obsolete RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
    static const QRegularExpression rfc850(QStringLiteral(
        "^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-([A-Z][a-z]{2})-(\\d{2}) "
        "(\\d{2}):(\\d{2}):(\\d{2}) GMT$"));
    // asctime: Sun Nov  6 08:49:37 1994
    static const QRegularExpression asctime(QStringLiteral(
        "^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \\d]\\d) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})$"));

    if (const auto m = imf.match(text); m.hasMatch()) {
        return makeUtc(m.captured(3).toInt(), monthNumber(m.capturedView(2)), m.captured(1).toInt(),
                       m.captured(4).toInt(), m.captured(5).toInt(), m.captured(6).toInt());
    }
    if (const auto m = rfc850.match(text); m.hasMatch()) {
        // RFC 9110: a two-digit year more than 50 years in the future is the most recent past such year.
        const int twoDigits = m.captured(3).toInt();
        const int nowYear = now.toUTC().date().year();
        int year = (nowYear / 100) * 100 + twoDigits;
        if (year > nowYear + 50)
            year -= 100;
        return makeUtc(year, monthNumber(m.capturedView(2)), m.captured(1).toInt(), m.captured(4).toInt(),
                       m.captured(5).toInt(), m.captured(6).toInt());
    }
    if (const auto m = asctime.match(text); m.hasMatch()) {
        return makeUtc(m.captured(6).toInt(), monthNumber(m.capturedView(1)), m.captured(2).trimmed().toInt(),
                       m.captured(3).toInt(), m.captured(4).toInt(), m.captured(5).toInt());
    }
    return {};
}

std::optional<qint64> parseRetryAfter(const QByteArray &value, const QDateTime &now) {
    const QByteArray trimmed = value.trimmed();
    if (trimmed.isEmpty())
        return std::nullopt;
    bool allDigits = true;
    for (const char c : trimmed)
        allDigits = allDigits && c >= '0' && c <= '9';
    if (allDigits) {
        // 1*DIGIT allows leading zeros: "0000000000005" is 5 s, so only significant digits count.
        qsizetype zeros = 0;
        while (zeros < trimmed.size() - 1 && trimmed.at(zeros) == '0')
            ++zeros;
        if (trimmed.size() - zeros > 12) // beyond any cap; avoid overflow
            return std::numeric_limits<qint64>::max() / 2;
        return trimmed.mid(zeros).toLongLong() * 1000;
    }
    const QDateTime when = parseHttpDate(trimmed, now);
    if (!when.isValid())
        return std::nullopt;
    return std::max<qint64>(0, now.msecsTo(when));
}

} // namespace crawl
