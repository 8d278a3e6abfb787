#include "models/acceptancefilter.h"

#include <QObject>

namespace ui {

quint32 AcceptanceFilter::checksOf(const QString &reason) {
    quint32 checks = 0;
    // The wording of crawl::checkAcceptance (core/policy/acceptancecheck.cpp), one failure per part.
    const QStringList parts = reason.split(QStringLiteral("; "), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        if (part.startsWith(QLatin1String("status ")))
            checks |= StatusCheck;
        else if (part.startsWith(QLatin1String("content type ")) ||
                 part.startsWith(QLatin1String("no content type")))
            checks |= ContentTypeCheck;
        else if (part.contains(QLatin1String("fewer than the minimum")))
            checks |= SizeCheck;
        else if (part == QLatin1String("no HTML title") || part == QLatin1String("empty HTML title"))
            checks |= TitleCheck;
        else if (part.startsWith(QLatin1String("text ")))
            checks |= TextCheck;
        else if (part.startsWith(QLatin1String("regex ")))
            checks |= RegexCheck;
        else if (part.startsWith(QLatin1String("soft 404")))
            checks |= Soft404Check;
        else
            checks |= OtherCheck;
    }
    return checks;
}

QString AcceptanceFilter::checkName(Check check) {
    switch (check) {
    case StatusCheck:
        return QObject::tr("status");
    case ContentTypeCheck:
        return QObject::tr("content type");
    case SizeCheck:
        return QObject::tr("minimum size");
    case TitleCheck:
        return QObject::tr("HTML title");
    case TextCheck:
        return QObject::tr("expected text");
    case RegexCheck:
        return QObject::tr("expected regex");
    case Soft404Check:
        return QObject::tr("soft 404");
    case OtherCheck:
        break;
    }
    return QObject::tr("other");
}

void AcceptanceFilter::setShown(crawl::CrawlResult::Accepted accepted, bool shown) {
    if (shown)
        m_acceptance |= bit(accepted);
    else
        m_acceptance &= ~bit(accepted);
}

} // namespace ui
