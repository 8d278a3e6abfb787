#include "output/urlredaction.h"

namespace crawl {

namespace {
bool endsAuthority(QChar c) {
    return c == QLatin1Char('/') || c == QLatin1Char('?') || c == QLatin1Char('#') || c == QLatin1Char('"') ||
           c == QLatin1Char('\'') || c == QLatin1Char('<') || c == QLatin1Char('>') || c.isSpace();
}
} // namespace

QString redactUrlPasswords(const QString &text) {
    static const QString kMask = QStringLiteral("***");
    const QLatin1String separator("://");
    qsizetype from = text.indexOf(separator);
    if (from < 0)
        return text; // the common case: nothing to copy
    QString out;
    out.reserve(text.size());
    qsizetype copied = 0;
    while (from >= 0) {
        const qsizetype start = from + separator.size();
        qsizetype end = start;
        while (end < text.size() && !endsAuthority(text.at(end)))
            ++end;
        // userinfo is everything before the last '@' of the authority; the password follows its first ':'.
        const qsizetype at = text.lastIndexOf(QLatin1Char('@'), end - 1);
        if (at >= start) {
            const qsizetype colon = text.indexOf(QLatin1Char(':'), start);
            if (colon >= 0 && colon + 1 < at) {
                out += QStringView(text).mid(copied, colon + 1 - copied);
                out += kMask;
                copied = at;
            }
        }
        from = text.indexOf(separator, end);
    }
    out += QStringView(text).mid(copied);
    return out;
}

} // namespace crawl
