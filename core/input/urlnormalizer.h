#pragma once

#include <QString>
#include <QUrl>

namespace crawl {

// A line turned into a crawlable URL, or the reason it cannot be one.
struct NormalizedUrl {
    QUrl url;     // valid only when error is empty
    QString text; // canonical form: trimmed, scheme and host lower-cased, default port and fragment dropped
    QString hostKey; // "host:port" with the effective port, e.g. "example.com:443"
    QString error;   // e.g. "unsupported scheme \"ftp\" (only http and https)"
    bool ok() const { return error.isEmpty(); }
};

NormalizedUrl normalizeUrl(const QString &line);

// "host:port" with the scheme's default port filled in; the unit every per-host limit applies to.
QString hostKey(const QUrl &url);

} // namespace crawl
