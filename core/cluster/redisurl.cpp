#include "cluster/redisurl.h"

#include <QUrl>

#include <algorithm>

namespace crawl {

QString RedisUrl::redacted() const {
    QString out = tls ? QStringLiteral("rediss://") : QStringLiteral("redis://");
    if (!user.isEmpty() || !password.isEmpty()) {
        out += QString::fromUtf8(QUrl::toPercentEncoding(user));
        if (!password.isEmpty())
            out += QStringLiteral(":***");
        out += QLatin1Char('@');
    }
    out += host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    out += QLatin1Char(':') + QString::number(port) + QLatin1Char('/') + QString::number(db);
    return out;
}

RedisUrlParse parseRedisUrl(const QString &text, const std::optional<QString> &passwordFromEnvironment) {
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return {{}, QStringLiteral("empty Redis URL (expected redis://host:port/db)")};

    const QUrl url(trimmed, QUrl::StrictMode);
    // Errors below never quote the text itself: it may hold a password.
    if (!url.isValid())
        return {{}, QStringLiteral("not a valid URL (expected redis://[user:password@]host:port/db)")};

    RedisUrl out;
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("rediss"))
        out.tls = true;
    else if (scheme != QLatin1String("redis"))
        return {{},
                QStringLiteral("unsupported scheme \"%1\" (use redis:// or rediss:// for TLS)").arg(scheme)};

    out.host = url.host(QUrl::FullyDecoded);
    if (out.host.isEmpty())
        return {{}, QStringLiteral("the Redis URL names no host")};

    const int port = url.port(-1);
    if (port == 0)
        return {{}, QStringLiteral("port 0 is not a Redis port")};
    if (port > 0)
        out.port = static_cast<quint16>(port);

    const QString path = url.path(QUrl::FullyDecoded);
    if (!path.isEmpty() && path != QLatin1String("/")) {
        bool numeric = false;
        const QString dbText = path.mid(1);
        const int db = dbText.toInt(&numeric);
        const bool digitsOnly = !dbText.isEmpty() && std::all_of(dbText.cbegin(), dbText.cend(), [](QChar c) {
            return c >= QLatin1Char('0') && c <= QLatin1Char('9');
        });
        if (!path.startsWith(QLatin1Char('/')) || !numeric || !digitsOnly || db < 0 || db > 65535)
            return {{},
                    QStringLiteral("the database must be a number after the port, e.g. redis://host:6379/0")};
        out.db = db;
    }
    if (url.hasQuery() || url.hasFragment())
        return {{}, QStringLiteral("the Redis URL takes no query or fragment (only redis://host:port/db)")};

    out.user = url.userName(QUrl::FullyDecoded);
    out.password = url.password(QUrl::FullyDecoded);
    if (out.password.isEmpty() && passwordFromEnvironment && !passwordFromEnvironment->isEmpty())
        out.password = *passwordFromEnvironment;
    if (!out.user.isEmpty() && out.password.isEmpty())
        return {{},
                QStringLiteral("the Redis URL names user \"%1\" but no password (put it in %2)")
                    .arg(out.user, QLatin1String(RedisUrl::kPasswordVariable))};
    return {out, {}};
}

RedisUrlEnvironment RedisUrlEnvironment::fromProcess() {
    RedisUrlEnvironment out;
    if (qEnvironmentVariableIsSet(RedisUrl::kPasswordVariable))
        out.password = qEnvironmentVariable(RedisUrl::kPasswordVariable);
    out.tlsFiles.caCertificates = qEnvironmentVariable(RedisTlsFiles::kCaVariable);
    out.tlsFiles.certificate = qEnvironmentVariable(RedisTlsFiles::kCertificateVariable);
    out.tlsFiles.privateKey = qEnvironmentVariable(RedisTlsFiles::kKeyVariable);
    return out;
}

RedisUrlParse parseRedisUrl(const QString &text, const RedisUrlEnvironment &environment) {
    RedisUrlParse parsed = parseRedisUrl(text, environment.password);
    if (!parsed.url || !parsed.url->tls)
        return parsed;
    const RedisTlsFiles &files = environment.tlsFiles;
    if (files.certificate.isEmpty() != files.privateKey.isEmpty())
        return {{},
                QStringLiteral("a client certificate needs its key: set both %1 and %2")
                    .arg(QLatin1String(RedisTlsFiles::kCertificateVariable),
                         QLatin1String(RedisTlsFiles::kKeyVariable))};
    parsed.url->tlsFiles = files;
    return parsed;
}

} // namespace crawl
