#include "input/inputsource.h"

#include "input/streamdevice.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace crawl {

QString InputSource::displayName() const {
    switch (kind) {
    case Kind::File:
        return QFileInfo(path).fileName();
    case Kind::Stdin:
        return QStringLiteral("standard input");
    case Kind::Text:
        return QStringLiteral("pasted list");
    }
    return {};
}

bool InputSource::check(QString *error) const {
    if (kind != Kind::File)
        return true;
    const QFileInfo info(path);
    QString why;
    if (!info.exists())
        why = QStringLiteral("input file %1 does not exist").arg(path);
    else if (info.isDir())
        why = QStringLiteral("input %1 is a directory, not a URL list").arg(path);
    else if (::access(QFile::encodeName(path).constData(), R_OK) != 0)
        why = QStringLiteral("cannot read input file %1: permission denied").arg(path);
    if (error && !why.isEmpty())
        *error = why;
    return why.isEmpty();
}

std::unique_ptr<QIODevice> InputSource::open(QString *error) const {
    switch (kind) {
    case Kind::File: {
        if (!check(error))
            return nullptr;
        struct stat st {};
        const QByteArray name = QFile::encodeName(path);
        if (::stat(name.constData(), &st) == 0 && !S_ISREG(st.st_mode)) {
            // A FIFO, /dev/stdin, a process substitution: a stream. O_NONBLOCK so that opening a FIFO
            // does not wait for its writer; reads only follow poll().
            const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
            if (fd < 0) {
                if (error)
                    *error = QStringLiteral("cannot read input %1: %2")
                                 .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
                return nullptr;
            }
            return std::make_unique<StreamDevice>(fd, true);
        }
        auto file = std::make_unique<QFile>(path);
        if (!file->open(QIODevice::ReadOnly)) {
            if (error)
                *error = QStringLiteral("cannot read input file %1: %2").arg(path, file->errorString());
            return nullptr;
        }
        return file;
    }
    case Kind::Stdin: {
        // A pipe or terminal can stay idle for ever: read it without blocking. A redirected regular file
        // cannot block and is read like any file.
        struct stat st {};
        if (::fstat(STDIN_FILENO, &st) != 0 || !S_ISREG(st.st_mode))
            return std::make_unique<StreamDevice>(STDIN_FILENO, false);
        auto file = std::make_unique<QFile>();
        if (!file->open(stdin, QIODevice::ReadOnly)) {
            if (error)
                *error = QStringLiteral("cannot read standard input: %1").arg(file->errorString());
            return nullptr;
        }
        return file;
    }
    case Kind::Text: {
        auto buffer = std::make_unique<QBuffer>();
        buffer->setData(text);
        buffer->open(QIODevice::ReadOnly);
        return buffer;
    }
    }
    return nullptr;
}

} // namespace crawl
