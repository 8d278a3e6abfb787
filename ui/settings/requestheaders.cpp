#include "settings/requestheaders.h"

#include <QObject>
#include <QStringList>

namespace ui {

namespace {

bool hasControlCharacter(const QString &value) {
    for (const QChar c : value) {
        if ((c.unicode() < 0x20 && c != QLatin1Char('\t')) || c.unicode() == 0x7f)
            return true;
    }
    return false;
}

// RFC 9110 section 5.6.2: tchar.
bool isTokenChar(QChar c) {
    const char16_t u = c.unicode();
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9'))
        return true;
    return QStringView(u"!#$%&'*+-.^_`|~").contains(c);
}

} // namespace

bool isHeaderName(const QString &name) {
    if (name.isEmpty())
        return false;
    for (const QChar c : name) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

QString userAgentError(const QString &userAgent) {
    if (hasControlCharacter(userAgent))
        return QObject::tr("The user agent must not contain line breaks or other control characters");
    return {};
}

RequestHeadersParse parseRequestHeaders(const QString &text) {
    RequestHeadersParse result;
    // Split on \n only: a \r inside a line is a control character and refused, not a line end.
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = lines[i];
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1); // pasted from a CRLF file
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(QLatin1Char('#')))
            continue;
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        const QString name = colon > 0 ? line.left(colon).trimmed() : QString();
        const QString value = colon > 0 ? line.mid(colon + 1).trimmed() : QString();
        if (!isHeaderName(name)) {
            result.error = QObject::tr("Line %1: expected \"Name: value\" with a name of letters, digits "
                                       "and !#$%&'*+-.^_`|~")
                               .arg(i + 1);
            result.headers.clear();
            return result;
        }
        if (hasControlCharacter(value)) {
            result.error =
                QObject::tr("Line %1: the value must not contain line breaks or other control characters")
                    .arg(i + 1);
            result.headers.clear();
            return result;
        }
        result.headers.append({name.toLatin1(), value.toUtf8()});
    }
    return result;
}

QString headersText(const QList<QPair<QByteArray, QByteArray>> &headers) {
    QStringList lines;
    for (const auto &[name, value] : headers)
        lines.append(QString::fromLatin1(name) + QStringLiteral(": ") + QString::fromUtf8(value));
    return lines.join(QLatin1Char('\n'));
}

} // namespace ui
