#include "frontier/temporaryjournals.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace crawl::temporaryjournals {

QString folder(QString *error) {
    const QString path = QDir::temp().filePath(QStringLiteral("crawlscope-%1").arg(::getuid()));
    const QByteArray native = QFile::encodeName(path);
    // mkdir with 0700 first, then lstat: a folder planted by someone else (or a symlink) is refused, so
    // another user can neither read the journals nor make this process write where they choose.
    if (::mkdir(native.constData(), 0700) != 0 && errno != EEXIST) {
        *error = QStringLiteral("cannot create %1 for temporary crawl journals").arg(path);
        return {};
    }
    struct stat st {};
    if (::lstat(native.constData(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid() ||
        (st.st_mode & 0077) != 0) {
        *error = QStringLiteral("%1 is not a private folder of this user; remove it or set TMPDIR to "
                                "another folder")
                     .arg(path);
        return {};
    }
    return path;
}

std::optional<qint64> ownerPid(const QString &folderName) {
    static const QRegularExpression pattern(QStringLiteral("^journal-([0-9]{1,10})-[A-Za-z0-9]{6}$"));
    const QRegularExpressionMatch match = pattern.match(folderName);
    if (!match.hasMatch())
        return std::nullopt;
    return match.captured(1).toLongLong();
}

QString folderTemplate(const QString &base, qint64 pid) {
    return QDir(base).filePath(QStringLiteral("journal-%1-XXXXXX").arg(pid));
}

int removeStale(const QString &base, const std::function<bool(qint64)> &isAlive) {
    int removed = 0;
    const QStringList names = QDir(base).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks);
    for (const QString &name : names) {
        const std::optional<qint64> pid = ownerPid(name);
        if (!pid || isAlive(*pid))
            continue; // not ours, or its crawl still runs
        if (QDir(QDir(base).filePath(name)).removeRecursively())
            ++removed;
    }
    return removed;
}

} // namespace crawl::temporaryjournals
