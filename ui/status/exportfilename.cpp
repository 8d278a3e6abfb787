#include "status/exportfilename.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace ui {

QString exportFileName(const QString &listName, const QString &what, const QDate &date) {
    // "list.txt" -> "list"; "pasted URLs" -> "pasted-URLs".
    QString stem = QFileInfo(listName).completeBaseName();
    static const QRegularExpression unsafe(QStringLiteral("[\\\\/:*?\"<>|\\s]+"));
    stem.replace(unsafe, QStringLiteral("-"));
    while (stem.startsWith(QLatin1Char('-')) || stem.startsWith(QLatin1Char('.')))
        stem.remove(0, 1);
    while (stem.endsWith(QLatin1Char('-')))
        stem.chop(1);
    if (stem.isEmpty())
        stem = QStringLiteral("crawl");
    return QStringLiteral("%1-%2-%3.csv").arg(stem.left(80), date.toString(Qt::ISODate), what);
}

} // namespace ui
