#include "input/inputsource.h"

#include "input/stdindevice.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
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
            return std::make_unique<StdinDevice>(STDIN_FILENO);
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
