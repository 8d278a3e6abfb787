#include "models/rowclipboard.h"

#include <QUrl>

namespace ui {

QString tsvLine(const QStringList &cells) {
    QStringList clean;
    clean.reserve(cells.size());
    for (QString cell : cells) {
        for (QChar &c : cell) {
            if (c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r'))
                c = QLatin1Char(' ');
        }
        clean.append(cell);
    }
    return clean.join(QLatin1Char('\t'));
}

bool opensInBrowser(const QUrl &url) {
    const QString scheme = url.scheme().toLower();
    return url.isValid() && (scheme == QLatin1String("http") || scheme == QLatin1String("https")) &&
           !url.host().isEmpty();
}

} // namespace ui
