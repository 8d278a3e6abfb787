#include "output/urlredaction.h"

#include <QVarLengthArray>

#include <utility>

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
    // Passwords as [begin, end) ranges first: most texts have none and are returned without a copy.
    QVarLengthArray<std::pair<qsizetype, qsizetype>, 2> passwords;
    for (qsizetype from = text.indexOf(separator); from >= 0;) {
        const qsizetype start = from + separator.size();
        qsizetype end = start;
        while (end < text.size() && !endsAuthority(text.at(end)))
            ++end;
        // userinfo is everything before the last '@' of the authority; the password follows its first ':'.
        const qsizetype at = text.lastIndexOf(QLatin1Char('@'), end - 1);
        if (at >= start) {
            const qsizetype colon = text.indexOf(QLatin1Char(':'), start);
            if (colon >= 0 && colon + 1 < at)
                passwords.append({colon + 1, at});
        }
        from = text.indexOf(separator, end);
    }
    if (passwords.isEmpty())
        return text;
    QString out;
    out.reserve(text.size());
    qsizetype copied = 0;
    for (const auto &[begin, end] : passwords) {
        out += QStringView(text).mid(copied, begin - copied);
        out += kMask;
        copied = end;
    }
    out += QStringView(text).mid(copied);
    return out;
}

} // namespace crawl
