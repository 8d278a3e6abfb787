#include "input/inputfingerprint.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>

namespace crawl {

std::optional<InputFingerprint> InputFingerprint::ofFile(const QString &path, QString *error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    InputFingerprint print;
    print.size = file.size();
    print.modifiedMs = QFileInfo(file).lastModified().toMSecsSinceEpoch();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(file.read(kEdgeBytes));
    if (print.size > kEdgeBytes) {
        // The tail is where an appended or truncated list differs; overlapping the head is harmless.
        file.seek(std::max(kEdgeBytes, print.size - kEdgeBytes));
        hash.addData(file.read(kEdgeBytes));
    }
    if (file.error() != QFileDevice::NoError) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    print.edgesSha256 = hash.result().toHex();
    return print;
}

QString InputFingerprint::toString() const {
    return QStringLiteral("size=%1;mtime=%2;sha256=%3")
        .arg(size)
        .arg(modifiedMs)
        .arg(QString::fromLatin1(edgesSha256));
}

std::optional<InputFingerprint> InputFingerprint::fromString(const QString &text) {
    InputFingerprint print;
    bool sizeOk = false;
    bool timeOk = false;
    for (const QString &part : text.split(QLatin1Char(';'))) {
        const QString key = part.section(QLatin1Char('='), 0, 0);
        const QString value = part.section(QLatin1Char('='), 1);
        if (key == QLatin1String("size"))
            print.size = value.toLongLong(&sizeOk);
        else if (key == QLatin1String("mtime"))
            print.modifiedMs = value.toLongLong(&timeOk);
        else if (key == QLatin1String("sha256"))
            print.edgesSha256 = value.toLatin1();
    }
    if (!sizeOk || !timeOk || print.edgesSha256.size() != 64)
        return std::nullopt;
    return print;
}

QString InputFingerprint::differences(const InputFingerprint &then, const InputFingerprint &now) {
    QStringList what;
    if (then.size != now.size)
        what << QStringLiteral("size %1 -> %2 bytes").arg(then.size).arg(now.size);
    if (then.modifiedMs != now.modifiedMs)
        what << QStringLiteral("modified %1")
                    .arg(QDateTime::fromMSecsSinceEpoch(now.modifiedMs, Qt::UTC).toString(Qt::ISODate));
    if (then.edgesSha256 != now.edgesSha256)
        what << QStringLiteral("content");
    return what.join(QStringLiteral(", "));
}

} // namespace crawl
