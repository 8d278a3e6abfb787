#include "store/savecopytarget.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>

namespace crawl {

namespace {

QString resolved(const QString &path) {
    if (path.isEmpty())
        return {};
    const QFileInfo info(path);
    if (info.exists())
        return info.canonicalFilePath();
    // Not there (yet): a link in its folder's path must still resolve like the crawl's own path does.
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    return folder.isEmpty() ? QDir::cleanPath(info.absoluteFilePath())
                            : QDir(folder).filePath(info.fileName());
}

} // namespace

SaveCopyTarget SaveCopyTarget::resolve(const QString &sourcePath, const QString &targetPath,
                                       const QString &inputListPath) {
    SaveCopyTarget paths;
    paths.source = resolved(sourcePath);
    paths.target = resolved(targetPath);
    paths.inputList = resolved(inputListPath);
    const QFileInfo targetInfo(targetPath);
    paths.targetExists = targetInfo.exists();
    paths.targetIsFile = targetInfo.isFile();
    return paths;
}

QString SaveCopyTarget::refusal(const SaveCopyTarget &paths, const QString &shownTarget) {
    if (paths.targetExists && !paths.targetIsFile) {
        return QStringLiteral("cannot save a copy of the crawl to %1: it is not a regular file")
            .arg(shownTarget);
    }
    if (paths.target.isEmpty())
        return QStringLiteral("cannot save a copy of the crawl: no file was given");
    if (paths.target == paths.source)
        return QStringLiteral("cannot save a copy of the crawl over the crawl itself (%1)").arg(shownTarget);
    for (const QLatin1String suffix :
         {QLatin1String("-wal"), QLatin1String("-shm"), QLatin1String("-journal")}) {
        if (paths.target == paths.source + suffix) {
            return QStringLiteral("cannot save a copy of the crawl to %1: SQLite keeps the crawl's own "
                                  "data in it")
                .arg(shownTarget);
        }
    }
    if (!paths.inputList.isEmpty() && paths.target == paths.inputList) {
        return QStringLiteral("cannot save a copy of the crawl over the list it crawls (%1)")
            .arg(shownTarget);
    }
    return {};
}

QString SaveCopyTarget::createPartialFile(const QString &target, QString *error) {
    QTemporaryFile partial(target + QStringLiteral(".partial-XXXXXX"));
    partial.setAutoRemove(false);
    if (!partial.open()) {
        *error =
            QStringLiteral("cannot save a copy of the crawl to %1: %2").arg(target, partial.errorString());
        return {};
    }
    partial.close();
    return partial.fileName();
}

} // namespace crawl
