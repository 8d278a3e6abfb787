#pragma once

#include <QString>

#include <optional>

namespace crawl {

// Where a cluster's Redis lives: redis://[user:password@]host:port/db, or rediss:// for TLS.
// The password may instead come from the environment (CRAWLSCOPE_REDIS_PASSWORD) so it never appears on a
// command line (`ps` shows every argument to every user). It is never printed: use redacted() in logs and
// error messages.
struct RedisUrl {
    static constexpr quint16 kDefaultPort = 6379;
    static constexpr const char *kPasswordVariable = "CRAWLSCOPE_REDIS_PASSWORD";

    QString host;
    quint16 port = kDefaultPort;
    int db = 0;
    QString user;     // empty: the "default" user (AUTH with the password alone)
    QString password; // empty: no AUTH
    bool tls = false; // rediss://

    // "redis://user:***@host:6379/0": safe for logs (the password, if any, is replaced by ***).
    QString redacted() const;
};

struct RedisUrlParse {
    std::optional<RedisUrl> url; // set when error is empty
    QString error;               // why the text is not a usable Redis URL (never contains the password)
};

// Parses `text`. `passwordFromEnvironment` (the value of CRAWLSCOPE_REDIS_PASSWORD, if set) is used when the
// URL carries no password; a password in the URL wins. Pure: the caller reads the environment.
RedisUrlParse parseRedisUrl(const QString &text, const std::optional<QString> &passwordFromEnvironment = {});

} // namespace crawl
