#pragma once

#include "cluster/redisurl.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

class QSslConfiguration;
class QSslSocket;
struct redisReader;

namespace crawl {

// The bytes of a rediss:// connection: a blocking QSslSocket, with hiredis' own command formatter and reply
// parser on either side of it, so a reply over TLS is the same hiredis reply tree as over plain TCP and
// RedisConnection turns both into a RedisReply with the same code. (Debian 12's hiredis 0.14 has no TLS of
// its own.) Blocking like hiredis' context: RedisConnection lives on one thread and waits for each answer.
//
// Use it from the thread that opened it (the socket belongs to that thread).
class RedisTlsTransport {
public:
    enum class Failure { None, Transient, Permanent };
    enum class IoError { None, Timeout, Closed, Failed };

    RedisTlsTransport();
    ~RedisTlsTransport();
    RedisTlsTransport(const RedisTlsTransport &) = delete;
    RedisTlsTransport &operator=(const RedisTlsTransport &) = delete;

    // Connects, completes the TLS handshake with the server's certificate checked (chain, host name, dates),
    // and sends one PING: with TLS 1.3 a server that refuses our client certificate says so only after the
    // handshake, and this is where it should be said. Everything within connectTimeoutMs. On failure,
    // *error says why (redacted URL, never the password); Permanent when waiting cannot fix it (untrusted
    // certificate, no TLS on that port, client certificate refused or unreadable).
    Failure open(const RedisUrl &url, int connectTimeoutMs, QString *error);
    bool isOpen() const;
    void close();

    // Sends one command and waits for its reply, with at most timeoutMs between two reads (hiredis' own
    // timeout is the same: per read). Returns a hiredis reply tree (free it with freeReplyObject), or nullptr
    // with *kind and *detail set; the transport is closed then.
    void *command(const QList<QByteArray> &args, int timeoutMs, IoError *kind, QString *detail);

    // The TLS settings for `files`: the system CAs (or the private CA alone), host name checked, the client
    // certificate and key if given. nullopt with *error naming the file when one cannot be read or parsed.
    static std::optional<QSslConfiguration> configurationFor(const RedisTlsFiles &files, QString *error);

private:
    void *readReply(int timeoutMs, IoError *kind, QString *detail);
    QString socketError() const;

    std::unique_ptr<QSslSocket> m_socket;
    redisReader *m_reader = nullptr;
};

} // namespace crawl
