#include "input/inputsource.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>

#include <cstdio>

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

std::unique_ptr<QIODevice> InputSource::open(QString *error) const {
    switch (kind) {
    case Kind::File: {
        const QFileInfo info(path);
        if (!info.exists()) {
            if (error)
                *error = QStringLiteral("input file %1 does not exist").arg(path);
            return nullptr;
        }
        if (info.isDir()) {
            if (error)
                *error = QStringLiteral("input %1 is a directory, not a URL list").arg(path);
            return nullptr;
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
