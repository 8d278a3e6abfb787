#include "fileidentity.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>

namespace crawl {

FileIdentity FileIdentity::ofPath(const QString &path, int streamFd) {
    FileIdentity id;
    struct stat st {};
    const bool found = path == QLatin1String("-") ? ::fstat(streamFd, &st) == 0
                                                  : ::stat(QFile::encodeName(path).constData(), &st) == 0;
    if (found) {
        id.exists = true;
        id.regular = S_ISREG(st.st_mode);
        id.directory = S_ISDIR(st.st_mode);
        id.pipe = S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
        id.device = st.st_dev;
        id.inode = st.st_ino;
        return id;
    }
    const QFileInfo info(path);
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    id.absentPath = QDir::cleanPath((folder.isEmpty() ? info.absolutePath() : folder) + QLatin1Char('/') +
                                    info.fileName());
    return id;
}

bool FileIdentity::clashesWith(const FileIdentity &other, bool pipesToo) const {
    if (exists != other.exists)
        return false;
    if (!exists)
        return absentPath == other.absentPath;
    const bool kindMatters = regular || (pipesToo && pipe);
    return kindMatters && device == other.device && inode == other.inode;
}

} // namespace crawl
