#include "crawlfiles/crawlfilename.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace ui::crawlfilename {

QString defaultFolder() {
    // Set by the test programs (a private temporary folder), or by a user who keeps crawls elsewhere.
    if (const QString chosen = qEnvironmentVariable("CRAWLSCOPE_CRAWLS_DIR"); !chosen.isEmpty())
        return chosen;
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("crawls"));
}

QString forList(const QString &listName, const QDateTime &startedAt) {
    // The list's name without its suffix ("urls.txt" -> "urls"); pasted lists are "pasted URLs".
    QString base = QFileInfo(listName).completeBaseName();
    if (base.isEmpty())
        base = listName;
    QString safe;
    for (const QChar c : std::as_const(base)) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.'))
            safe += c;
        else if (!safe.endsWith(QLatin1Char('-')))
            safe += QLatin1Char('-');
    }
    while (safe.startsWith(QLatin1Char('.')) || safe.startsWith(QLatin1Char('-')))
        safe.remove(0, 1);
    while (safe.endsWith(QLatin1Char('-')))
        safe.chop(1);
    safe = safe.left(60);
    if (safe.isEmpty())
        safe = QStringLiteral("crawl");
    return QStringLiteral("%1-%2.crawl").arg(safe, startedAt.toString(QStringLiteral("yyyy-MM-dd-HHmm")));
}

QString uniquePath(const QString &folder, const QString &listName, const QDateTime &startedAt,
                   const std::function<bool(const QString &)> &taken) {
    const QString name = forList(listName, startedAt);
    const QDir dir(folder);
    QString path = dir.filePath(name);
    const QString stem = name.chopped(int(qstrlen(".crawl")));
    for (int n = 2; taken(path); ++n)
        path = dir.filePath(QStringLiteral("%1-%2.crawl").arg(stem).arg(n));
    return path;
}

} // namespace ui::crawlfilename
