#pragma once
// The results store's unnamed files (rows, texts) as a disk error or another process truncating them would
// leave them: every chunk already written reads back short. For the tests of the failure paths.

#include "models/rowarena.h"

#include <QDir>
#include <QFileInfo>

#include <unistd.h>

namespace uitest {

enum class SpillFileKind { Rows, Texts };

// Empties this process's open files of `kind` in `directory` and returns how many. The files have no name;
// the rows file is told apart by its size, always a whole number of chunks of rows.
inline int truncateSpillFiles(const QString &directory, SpillFileKind kind) {
    const QString folder = QFileInfo(directory).canonicalFilePath();
    const off_t rowChunk = off_t(ui::RowArena::kChunkRows * sizeof(ui::ResultRow));
    int truncated = 0;
    const QFileInfoList fds = QDir(QStringLiteral("/proc/self/fd")).entryInfoList(QDir::System | QDir::Files);
    for (const QFileInfo &link : fds) {
        if (!link.symLinkTarget().startsWith(folder + QLatin1Char('/')))
            continue;
        const int fd = link.fileName().toInt();
        const off_t size = ::lseek(fd, 0, SEEK_END);
        const bool rows = size > 0 && size % rowChunk == 0;
        if (size > 0 && rows == (kind == SpillFileKind::Rows) && ::ftruncate(fd, 0) == 0)
            ++truncated;
    }
    return truncated;
}

} // namespace uitest
