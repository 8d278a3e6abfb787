#include "engine/bodyprefix.h"

#include "robots/robotsrules.h"

#include <QIODevice>

#include <algorithm>

namespace crawl {

namespace {

bool isHtmlType(const QString &contentType) {
    // "text/html; charset=utf-8", "application/xhtml+xml"; no type at all may still be a page.
    return contentType.isEmpty() || contentType.contains(QLatin1String("html"), Qt::CaseInsensitive);
}

} // namespace

qsizetype bodyBytesToKeep(const AcceptanceCriteria &criteria, bool robotsFetch, const QString &contentType) {
    if (robotsFetch)
        return RobotsRules::maxParsedBytes;
    const bool searchesText = !criteria.expectedText.isEmpty() || !criteria.expectedRegex.pattern().isEmpty();
    // The title column and soft-404 detection read HTML only; a text search reads any type.
    if (searchesText || isHtmlType(contentType))
        return std::max<qsizetype>(0, criteria.bodyPrefixBytes);
    return 0;
}

qint64 consumeBody(QIODevice *device, QByteArray &prefix, qsizetype keep) {
    qint64 consumed = 0;
    const qint64 available = device->bytesAvailable();
    const qsizetype room = std::max<qsizetype>(0, keep - prefix.size());
    if (room > 0 && available > 0) {
        const qsizetype want = qsizetype(std::min<qint64>(room, available));
        const qsizetype old = prefix.size();
        prefix.resize(old + want);
        const qint64 n = device->read(prefix.data() + old, want);
        prefix.resize(old + qsizetype(std::max<qint64>(0, n)));
        consumed += std::max<qint64>(0, n);
    }
    if (device->bytesAvailable() > 0)
        consumed += device->skip(device->bytesAvailable());
    return consumed;
}

} // namespace crawl
