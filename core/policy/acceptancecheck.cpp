#include "policy/acceptancecheck.h"

namespace crawl {

namespace {

QString quoted(const QString &text) {
    QString shown = text;
    if (shown.size() > 80) { // titles are server text: keep messages short, never cut a character in half
        shown.truncate(shown.at(79).isHighSurrogate() ? 79 : 80);
        shown += QChar(0x2026);
    }
    return QLatin1Char('"') + shown + QLatin1Char('"');
}

QByteArray mediaType(const QByteArray &contentType) {
    const qsizetype semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.left(semicolon)).trimmed().toLower();
}

bool isToken(const QByteArray &text) {
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '+' ||
                        c == '.' || c == '_' || c == '!' || c == '#' || c == '$' || c == '&' || c == '^' ||
                        c == '*';
        if (!ok)
            return false;
    }
    return true;
}

QString sizeText(qsizetype bytes) {
    if (bytes % 1024 == 0)
        return QStringLiteral("%1 KiB").arg(bytes / 1024);
    return QStringLiteral("%1 bytes").arg(bytes);
}

} // namespace

QRegularExpression AcceptanceCriteria::defaultSoft404Pattern() {
    static const QRegularExpression pattern(
        QStringLiteral("\\b(not found|page not found|404|410|error|does not exist|doesn't exist|no longer "
                       "(exists|available)|page unavailable|nicht gefunden|introuvable|no encontrad[ao])\\b"),
        QRegularExpression::CaseInsensitiveOption | QRegularExpression::UseUnicodePropertiesOption);
    return pattern;
}

AcceptanceVerdict checkAcceptance(const AcceptanceCriteria &criteria, const AcceptanceFacts &response) {
    AcceptanceVerdict verdict;
    if (response.status <= 0)
        return verdict;
    QStringList failures;

    bool statusOk = criteria.statuses.isEmpty();
    for (const StatusRange &range : criteria.statuses)
        statusOk = statusOk || (response.status >= range.first && response.status <= range.last);
    if (!statusOk)
        failures.append(QStringLiteral("status %1 not in %2")
                            .arg(response.status)
                            .arg(statusListText(criteria.statuses)));

    if (!criteria.contentTypes.isEmpty()) {
        const QByteArray type = mediaType(response.contentType);
        bool typeOk = false;
        for (const QByteArray &expected : criteria.contentTypes) {
            typeOk = expected.endsWith("/*") ? type.startsWith(expected.left(expected.size() - 1))
                                             : type == expected;
            if (typeOk)
                break;
        }
        if (!typeOk) {
            const QString expected = QString::fromLatin1(criteria.contentTypes.join(','));
            failures.append(type.isEmpty() ? QStringLiteral("no content type (expected %1)").arg(expected)
                                           : QStringLiteral("content type %1 not in %2")
                                                 .arg(quoted(QString::fromUtf8(type)), expected));
        }
    }

    if (response.totalBytes < criteria.minBytes)
        failures.append(QStringLiteral("%1 bytes, fewer than the minimum %2")
                            .arg(response.totalBytes)
                            .arg(criteria.minBytes));

    if (criteria.expectTitle && response.page.title.isEmpty())
        failures.append(response.page.hasTitle ? QStringLiteral("empty HTML title")
                                               : QStringLiteral("no HTML title"));

    const bool wantsText = !criteria.expectedText.isEmpty() || !criteria.expectedRegex.pattern().isEmpty();
    if (wantsText) {
        QByteArray charset = response.page.charset;
        if (charset.isEmpty())
            charset = charsetFromContentType(response.contentType) == "iso-8859-1"
                          ? QByteArrayLiteral("windows-1252")
                          : QByteArrayLiteral("utf-8");
        const QString text = decodeHtmlBytes(response.bodyPrefix.left(criteria.bodyPrefixBytes), charset);
        const QString where = QStringLiteral("the first %1").arg(sizeText(criteria.bodyPrefixBytes));
        if (!criteria.expectedText.isEmpty() && !text.contains(criteria.expectedText))
            failures.append(QStringLiteral("text %1 not in %2").arg(quoted(criteria.expectedText), where));
        if (!criteria.expectedRegex.pattern().isEmpty() && !criteria.expectedRegex.match(text).hasMatch())
            failures.append(QStringLiteral("regex %1 matched nothing in %2")
                                .arg(quoted(criteria.expectedRegex.pattern()), where));
    }

    if (criteria.soft404 != Soft404Mode::Off && response.status >= 200 && response.status <= 299) {
        if (criteria.soft404Pattern.match(response.page.title).hasMatch())
            verdict.soft404Evidence = QStringLiteral("title ") + quoted(response.page.title);
        else if (criteria.soft404Pattern.match(response.page.firstHeading).hasMatch())
            verdict.soft404Evidence = QStringLiteral("heading ") + quoted(response.page.firstHeading);
        verdict.soft404 = !verdict.soft404Evidence.isEmpty();
        if (verdict.soft404 && criteria.soft404 == Soft404Mode::Reject)
            failures.append(QStringLiteral("soft 404: ") + verdict.soft404Evidence);
    }

    verdict.accepted =
        failures.isEmpty() ? AcceptanceVerdict::Accepted::Yes : AcceptanceVerdict::Accepted::No;
    verdict.reason = failures.join(QStringLiteral("; "));
    return verdict;
}

QString acceptedCell(AcceptanceVerdict::Accepted accepted) {
    switch (accepted) {
    case AcceptanceVerdict::Accepted::Yes:
        return QStringLiteral("yes");
    case AcceptanceVerdict::Accepted::No:
        return QStringLiteral("no");
    case AcceptanceVerdict::Accepted::NotApplicable:
        break;
    }
    return {};
}

std::optional<QList<StatusRange>> parseStatusList(const QString &text, QString *error) {
    QList<StatusRange> ranges;
    const auto status = [](const QString &item, int *value) {
        bool ok = false;
        const QString trimmed = item.trimmed();
        *value = trimmed.toInt(&ok);
        return ok && trimmed.size() == 3 && trimmed.at(0).isDigit() && *value >= 100 && *value <= 599;
    };
    for (const QString &item : text.split(QLatin1Char(','))) {
        const QStringList ends = item.split(QLatin1Char('-'));
        StatusRange range;
        const bool ok =
            (ends.size() == 1 && status(ends.at(0), &range.first) && status(ends.at(0), &range.last)) ||
            (ends.size() == 2 && status(ends.at(0), &range.first) && status(ends.at(1), &range.last) &&
             range.first <= range.last);
        if (!ok) {
            if (error)
                *error = QStringLiteral("%1 is not an HTTP status (100-599) or a range like 200-299")
                             .arg(quoted(item.trimmed()));
            return std::nullopt;
        }
        ranges.append(range);
    }
    return ranges;
}

std::optional<QList<QByteArray>> parseContentTypeList(const QString &text, QString *error) {
    QList<QByteArray> types;
    for (const QString &item : text.split(QLatin1Char(','))) {
        const QByteArray type = mediaType(item.toUtf8());
        const qsizetype slash = type.indexOf('/');
        if (slash <= 0 || !isToken(type.left(slash)) || !isToken(type.mid(slash + 1)) ||
            type.left(slash) == "*") {
            if (error)
                *error = QStringLiteral("%1 is not a content type like text/html or image/*")
                             .arg(quoted(item.trimmed()));
            return std::nullopt;
        }
        types.append(type);
    }
    return types;
}

QString statusListText(const QList<StatusRange> &ranges) {
    QStringList items;
    for (const StatusRange &range : ranges)
        items.append(range.first == range.last ? QString::number(range.first)
                                               : QStringLiteral("%1-%2").arg(range.first).arg(range.last));
    return items.join(QLatin1Char(','));
}

} // namespace crawl
