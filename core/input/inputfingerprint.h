#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace crawl {

// What a list file looked like when a journaled crawl started: its size, modification time and a hash
// of its first and last 64 KiB. A resumed crawl reads the lines it has not stored yet from that file by
// line number, so an edited list would silently continue with other URLs: --resume refuses it, the
// window asks (crawlscope's --store and the window both keep it in the journal's settings).
struct InputFingerprint {
    static constexpr qint64 kEdgeBytes = 64 * 1024;
    static inline const QString kSettingsKey = QStringLiteral("input.fingerprint");

    qint64 size = 0;
    qint64 modifiedMs = 0;
    QByteArray edgesSha256; // hex

    // Nullopt (and *error) when the file cannot be read.
    static std::optional<InputFingerprint> ofFile(const QString &path, QString *error);
    QString toString() const; // "size=N;mtime=MS;sha256=HEX", for the store's settings
    static std::optional<InputFingerprint> fromString(const QString &text);

    // What differs, in words for the user ("size 120 -> 98 bytes, content"); empty when nothing does.
    static QString differences(const InputFingerprint &then, const InputFingerprint &now);
};

} // namespace crawl
