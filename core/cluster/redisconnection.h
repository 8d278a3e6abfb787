#pragma once

#include "cluster/redisreply.h"
#include "cluster/redisscript.h"
#include "cluster/redisurl.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>

#include <atomic>
#include <memory>

struct redisContext;

namespace crawl {

class RedisTlsTransport;

// A small synchronous Redis client on hiredis. One connection per thread: it is not thread-safe, and a call
// blocks its thread for at most one command timeout per attempt (workers call it from their fetch threads,
// never from a GUI thread).
//
// A broken connection (server restarted, network cut, timeout) is reopened on the next call with AUTH and
// SELECT again, retrying with exponential backoff until `reconnectDeadlineMs` has passed. A command whose
// answer was lost may or may not have run on the server; it is sent again only when the caller says it is
// safe to (Replay::AfterReconnect). Every cluster script is written so that a replay with the same ids has
// the effect of one call (grant and lease ids are chosen by the client for exactly this reason).
//
// redis:// goes through hiredis' own context. rediss:// (TLS) goes through RedisTlsTransport (a QSslSocket
// with hiredis' formatter and parser: Debian 12's hiredis 0.14 has no TLS of its own); the replies, the
// timeouts, the reconnects and the error texts are the same on both.
class RedisConnection {
public:
    struct Options {
        int connectTimeoutMs = 3000;
        int commandTimeoutMs = 5000;
        int reconnectDeadlineMs = 30000; // total time one call keeps trying to reach the server
        int backoffInitialMs = 50;
        int backoffCapMs = 2000;
        QByteArray clientName; // CLIENT SETNAME, so `CLIENT LIST` on the server shows which worker is which
    };

    enum class Replay {
        Never,          // an answer lost in flight is reported as ConnectionError
        AfterReconnect, // the command is idempotent: reconnect and send it again
    };

    explicit RedisConnection(RedisUrl url);
    RedisConnection(RedisUrl url, Options options);
    ~RedisConnection();
    RedisConnection(const RedisConnection &) = delete;
    RedisConnection &operator=(const RedisConnection &) = delete;

    // Connects now (AUTH, SELECT). False with lastError() when the server cannot be reached and
    // authenticated within the reconnect deadline, or at once for errors that waiting cannot fix.
    bool connect();
    // One attempt, no backoff: for callers that report "cannot reach" at once and pace their own retries
    // (while their event loop keeps answering signals). lastFailureIsPermanent() tells waiting apart from
    // errors that waiting cannot fix (AUTH or SELECT refused, a TLS certificate refused, TLS on a redis://
    // URL or none on a rediss:// one).
    bool connectOnce();
    bool lastFailureIsPermanent() const { return m_lastFailurePermanent; }
    bool isConnected() const;
    void disconnect();

    RedisReply command(const QList<QByteArray> &args, Replay replay = Replay::Never);
    // EVALSHA, and EVAL when the server does not know the script (NOSCRIPT: restarted, flushed).
    RedisReply evalScript(const RedisScript &script, const QList<QByteArray> &keys,
                          const QList<QByteArray> &args, Replay replay = Replay::AfterReconnect);

    const RedisUrl &url() const { return m_url; }
    QString lastError() const { return m_lastError; }
    quint64 roundTrips() const { return m_roundTrips; }
    quint64 reconnects() const { return m_reconnects; }

    // The pause before reconnect attempt `attempt` (1-based): initial x 2^(attempt-1), capped. Jitter is
    // added by the caller so many workers do not reconnect in step after a Redis restart.
    static int backoffDelayMs(int attempt, int initialMs, int capMs);

    // The user interrupted the process (SIGINT, SIGTERM, SIGHUP: SignalWatcher calls this from its signal
    // handler, so it only stores a lock-free atomic). From then on every connection tries once and never
    // waits for a Redis that is away: a call blocked in its reconnect loop returns within one backoff step,
    // and the coordinator writes what it collected, a worker leaves its leases to expire, both exit.
    static void interruptWaits() noexcept { s_waitsInterrupted.store(true, std::memory_order_relaxed); }
    static bool waitsInterrupted() noexcept { return s_waitsInterrupted.load(std::memory_order_relaxed); }

private:
    static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
    static inline std::atomic<bool> s_waitsInterrupted{false};

    enum class Failure { None, Transient, Permanent };
    Failure openOnce();
    RedisReply sendOnce(const QList<QByteArray> &args, bool *ioFailed);
    void fail(const QString &why);

    RedisUrl m_url;
    Options m_options;
    redisContext *m_context = nullptr;        // redis://
    std::unique_ptr<RedisTlsTransport> m_tls; // rediss://
    bool m_freshPlainConnection = false;      // redis://, connected, no answer read yet
    bool m_lastIoLooksLikeTls = false;        // ...and it hung up on the first command: the port speaks TLS
    static constexpr int kHangUpsMeaningTls = 3;
    int m_freshHangUps = 0; // new plain connections in a row hung up on before any answer
    QString m_lastError;
    quint64 m_roundTrips = 0;
    quint64 m_reconnects = 0;
    bool m_everConnected = false;
    bool m_lastFailurePermanent = false;
};

} // namespace crawl
