#pragma once

#include <QString>

#include <optional>

namespace crawl {

// The files a rediss:// connection may need, named by environment variables (like the password, never on
// the URL): a private CA to trust instead of the system's, and a client certificate with its key for
// servers that ask for one (redis-server's default, tls-auth-clients yes). Empty: not given.
struct RedisTlsFiles {
    static constexpr const char *kCaVariable = "CRAWLSCOPE_REDIS_CACERT";
    static constexpr const char *kCertificateVariable = "CRAWLSCOPE_REDIS_CERT";
    static constexpr const char *kKeyVariable = "CRAWLSCOPE_REDIS_KEY";

    QString caCertificates; // PEM, one or more CA certificates; replaces the system CAs
    QString certificate;    // PEM client certificate (with privateKey)
    QString privateKey;     // PEM, unencrypted
};

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
    QString user;           // empty: the "default" user (AUTH with the password alone)
    QString password;       // empty: no AUTH
    bool tls = false;       // rediss://
    RedisTlsFiles tlsFiles; // used with rediss:// only

    // "redis://user:***@host:6379/0": safe for logs (the password, if any, is replaced by ***).
    QString redacted() const;
};

struct RedisUrlParse {
    std::optional<RedisUrl> url; // set when error is empty
    QString error;               // why the text is not a usable Redis URL (never contains the password)
};

// What the environment adds to a Redis URL: the password and the TLS files.
struct RedisUrlEnvironment {
    std::optional<QString> password; // CRAWLSCOPE_REDIS_PASSWORD, when set
    RedisTlsFiles tlsFiles;

    static RedisUrlEnvironment fromProcess();
};

// Parses `text`. `passwordFromEnvironment` (the value of CRAWLSCOPE_REDIS_PASSWORD, if set) is used when the
// URL carries no password; a password in the URL wins. Pure: the caller reads the environment.
RedisUrlParse parseRedisUrl(const QString &text, const std::optional<QString> &passwordFromEnvironment = {});
// The same, with the TLS files too (kept for rediss:// only; a certificate needs its key and the reverse).
RedisUrlParse parseRedisUrl(const QString &text, const RedisUrlEnvironment &environment);

} // namespace crawl
