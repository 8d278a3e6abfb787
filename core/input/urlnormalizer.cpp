#include "input/urlnormalizer.h"

namespace crawl {

namespace {

// RFC 6874 zone IDs are interface names ("eth0"); Qt decodes anything else in one byte-wise, into a
// different host, so only unreserved ASCII characters are accepted.
bool isPlainZoneId(QStringView zone) {
    if (zone.isEmpty())
        return false;
    for (const QChar c : zone) {
        const char16_t u = c.unicode();
        const bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                           u == '-' || u == '.' || u == '_' || u == '~';
        if (!plain)
            return false;
    }
    return true;
}

} // namespace

QString hostKey(const QUrl &url) {
    const QString host = url.host(QUrl::FullyEncoded);
    const int port = url.port(url.scheme() == QLatin1String("https") ? 443 : 80);
    if (host.contains(QLatin1Char(':')))
        return QLatin1Char('[') + host + QStringLiteral("]:") + QString::number(port);
    return host + QLatin1Char(':') + QString::number(port);
}

NormalizedUrl normalizeUrl(const QString &line) {
    NormalizedUrl result;
    const QString text = line.trimmed();
    if (text.isEmpty()) {
        result.error = QStringLiteral("empty line");
        return result;
    }
    for (const QChar c : text) {
        if (c.isSpace() || c.category() == QChar::Other_Control) {
            result.error = QStringLiteral("contains whitespace or control characters");
            return result;
        }
    }
    const qsizetype schemeEnd = text.indexOf(QLatin1String("://"));
    if (schemeEnd <= 0) {
        result.error = QStringLiteral("not a URL: no scheme (expected http:// or https://)");
        return result;
    }
    const QString scheme = text.left(schemeEnd).toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https")) {
        result.error =
            QStringLiteral("unsupported scheme \"%1\" (only http and https)").arg(text.left(schemeEnd));
        return result;
    }
    QUrl url(text, QUrl::StrictMode);
    if (!url.isValid())
        url = QUrl(text, QUrl::TolerantMode); // percent-encodes stray characters browsers accept
    if (!url.isValid()) {
        // QUrl's message goes on with "; source was ..." and the userinfo (a password): keep the reason.
        QString why = url.errorString();
        if (const qsizetype source = why.indexOf(QLatin1String("; source was")); source >= 0)
            why.truncate(source);
        if (why.contains(QLatin1String("port"), Qt::CaseInsensitive))
            result.error = QStringLiteral("bad port");
        else
            result.error = QStringLiteral("not a valid URL (%1)").arg(why);
        return result;
    }
    if (url.host().isEmpty()) {
        result.error = QStringLiteral("no host");
        return result;
    }
    if (const QString host = url.host(); host.contains(QLatin1Char(':'))) {
        const qsizetype zone = host.indexOf(QLatin1Char('%'));
        if (zone >= 0 && !isPlainZoneId(QStringView(host).mid(zone + 1))) {
            result.error = QStringLiteral("unsupported IPv6 zone identifier");
            return result;
        }
    }
    // A port in the text that QUrl dropped as invalid (e.g. "http://h:0/") is still a bad port.
    if (url.port() == 0) {
        result.error = QStringLiteral("bad port");
        return result;
    }
    url.setScheme(scheme);
    url.setHost(url.host().toLower());
    const int defaultPort = scheme == QLatin1String("https") ? 443 : 80;
    if (url.port() == defaultPort)
        url.setPort(-1);
    url.setFragment(QString());
    if (url.path().isEmpty())
        url.setPath(QStringLiteral("/"));
    result.url = url;
    result.text = url.toString(QUrl::FullyEncoded);
    result.hostKey = hostKey(url);
    return result;
}

} // namespace crawl
