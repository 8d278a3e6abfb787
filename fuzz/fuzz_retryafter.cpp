// Fuzzes the Retry-After parser (parseRetryAfter, parseHttpDate) with arbitrary header values and an
// arbitrary "now" between 1970 and 2200. Besides "no crash, no sanitizer report" it checks the meaning:
// delta-seconds give exactly that many seconds (or, beyond 12 significant digits, a wait far above any
// cap); anything else is a wait only when it is an HTTP-date, then the time until it and never negative;
// and a parsed date written back as IMF-fixdate and asctime parses to the same instant.
#include "fuzzcheck.h"
#include "policy/retryafter.h"

#include <QLocale>
#include <QTimeZone>

#include <cstddef>
#include <cstdint>
#include <fuzzer/FuzzedDataProvider.h>

using fuzz::escaped;

namespace {

bool allDigits(const QByteArray &text) {
    for (const char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    return !text.isEmpty();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    FuzzedDataProvider input(data, size);
    const qint64 nowMs = input.ConsumeIntegralInRange<qint64>(0, 7'258'118'400'000); // up to 2200-01-01
    const QDateTime now = QDateTime::fromMSecsSinceEpoch(nowMs, QTimeZone::utc());
    const std::string rest = input.ConsumeRemainingBytesAsString();
    const QByteArray value(rest.data(), qsizetype(rest.size()));
    const QByteArray what =
        "value \"" + escaped(value) + "\" now " + now.toString(Qt::ISODateWithMs).toUtf8();

    const std::optional<qint64> delay = crawl::parseRetryAfter(value, now);
    FUZZ_CHECK(!delay || *delay >= 0, what + " delay " + QByteArray::number(*delay));

    const QByteArray trimmed = value.trimmed();
    if (allDigits(trimmed)) {
        FUZZ_CHECK(delay.has_value(), what);
        QByteArray significant = trimmed;
        while (significant.size() > 1 && significant.startsWith('0'))
            significant.remove(0, 1);
        if (significant.size() <= 12)
            FUZZ_CHECK(*delay == significant.toLongLong() * 1000,
                       what + " delay " + QByteArray::number(*delay));
        else
            FUZZ_CHECK(*delay >= 1'000'000'000'000'000, what + " delay " + QByteArray::number(*delay));
        return 0;
    }

    const QDateTime date = crawl::parseHttpDate(value, now);
    FUZZ_CHECK(delay.has_value() == date.isValid(), what);
    if (!date.isValid())
        return 0;
    const QByteArray parsed = " parsed " + date.toString(Qt::ISODateWithMs).toUtf8();
    FUZZ_CHECK(*delay == qMax<qint64>(0, now.msecsTo(date)), what + parsed);
    FUZZ_CHECK(date.offsetFromUtc() == 0 && date.time().msec() == 0, what + parsed);

    const int year = date.date().year();
    if (year >= 1000 && year <= 9999) {
        const QLocale english = QLocale::c();
        const QString imf = english.toString(date, QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"));
        FUZZ_CHECK(crawl::parseHttpDate(imf.toLatin1(), now) == date, what + parsed + " imf " + imf.toUtf8());
        QString asctime = english.toString(date, QStringLiteral("ddd MMM dd hh:mm:ss yyyy"));
        if (asctime.at(8) == QLatin1Char('0'))
            asctime[8] = QLatin1Char(' '); // asctime pads the day with a space
        FUZZ_CHECK(crawl::parseHttpDate(asctime.toLatin1(), now) == date,
                   what + parsed + " asctime " + asctime.toUtf8());
    }
    return 0;
}
