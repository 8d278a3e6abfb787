#include "cluster/redisconnection.h"

#include "cluster/redisargv.h"
#include "cluster/redistlstransport.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <hiredis/hiredis.h>
#include <vector>

namespace crawl {

namespace {

timeval toTimeval(int ms) {
    timeval tv{};
    tv.tv_sec = ms / 1000;
    tv.tv_usec = (ms % 1000) * 1000;
    return tv;
}

RedisReply copyReply(const redisReply *reply) {
    RedisReply out;
    switch (reply->type) {
    case REDIS_REPLY_STRING:
        out.kind = RedisReply::Kind::String;
        out.text = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
        break;
    case REDIS_REPLY_STATUS:
        out.kind = RedisReply::Kind::Status;
        out.text = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
        break;
    case REDIS_REPLY_ERROR:
        out.kind = RedisReply::Kind::ServerError;
        out.text = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
        break;
    case REDIS_REPLY_INTEGER:
        out.kind = RedisReply::Kind::Integer;
        out.integer = reply->integer;
        break;
    case REDIS_REPLY_ARRAY:
        out.kind = RedisReply::Kind::Array;
        out.elements.reserve(static_cast<qsizetype>(reply->elements));
        for (size_t i = 0; i < reply->elements; ++i)
            out.elements.append(copyReply(reply->element[i]));
        break;
    default:
        out.kind = RedisReply::Kind::Nil;
        break;
    }
    return out;
}

// Redis answers -LOADING while it replays its append-only file after a restart: the command did not run,
// so waiting and sending it again is always safe.
bool isLoading(const RedisReply &reply) {
    return reply.kind == RedisReply::Kind::ServerError && reply.text.startsWith("LOADING");
}

} // namespace

RedisConnection::RedisConnection(RedisUrl url)
    : RedisConnection(std::move(url), Options{}) {}

RedisConnection::RedisConnection(RedisUrl url, Options options)
    : m_url(std::move(url))
    , m_options(std::move(options)) {}

RedisConnection::~RedisConnection() {
    disconnect();
}

bool RedisConnection::isConnected() const {
    return m_context != nullptr || (m_tls && m_tls->isOpen());
}

void RedisConnection::disconnect() {
    if (m_context)
        redisFree(m_context);
    m_context = nullptr;
    m_tls.reset();
}

int RedisConnection::backoffDelayMs(int attempt, int initialMs, int capMs) {
    qint64 delay = std::max(1, initialMs);
    for (int i = 1; i < attempt && delay < capMs; ++i)
        delay *= 2;
    return static_cast<int>(std::min<qint64>(delay, capMs));
}

void RedisConnection::fail(const QString &why) {
    m_lastError = why;
    disconnect();
}

RedisConnection::Failure RedisConnection::openOnce() {
    disconnect();
    if (m_url.tls) {
        auto transport = std::make_unique<RedisTlsTransport>();
        switch (transport->open(m_url, m_options.connectTimeoutMs, &m_lastError)) {
        case RedisTlsTransport::Failure::None:
            m_tls = std::move(transport);
            break;
        case RedisTlsTransport::Failure::Transient:
            return Failure::Transient;
        case RedisTlsTransport::Failure::Permanent:
            return Failure::Permanent;
        }
    } else {
        const QByteArray host = m_url.host.toUtf8();
        redisContext *context =
            redisConnectWithTimeout(host.constData(), m_url.port, toTimeval(m_options.connectTimeoutMs));
        if (!context) {
            m_lastError = QStringLiteral("%1: cannot allocate a connection").arg(m_url.redacted());
            return Failure::Transient;
        }
        if (context->err) {
            m_lastError = QStringLiteral("cannot connect to %1: %2")
                              .arg(m_url.redacted(), QString::fromLocal8Bit(context->errstr));
            redisFree(context);
            return Failure::Transient;
        }
        redisSetTimeout(context, toTimeval(m_options.commandTimeoutMs));
        redisEnableKeepAlive(context);
        m_context = context;
        m_freshPlainConnection = true;
    }

    const auto handshake = [this](const QList<QByteArray> &args, const QString &what) -> Failure {
        bool ioFailed = false;
        const RedisReply reply = sendOnce(args, &ioFailed);
        if (ioFailed) // sendOnce has set m_lastError and closed the connection
            return m_lastIoLooksLikeTls ? Failure::Permanent : Failure::Transient;
        if (reply.kind == RedisReply::Kind::ServerError) {
            if (isLoading(reply)) {
                fail(QStringLiteral("%1 is loading its data set").arg(m_url.redacted()));
                return Failure::Transient;
            }
            // Redis' own message ("WRONGPASS invalid username-password pair") never echoes the password.
            fail(QStringLiteral("%1: %2 refused: %3")
                     .arg(m_url.redacted(), what, QString::fromUtf8(reply.text)));
            return Failure::Permanent;
        }
        return Failure::None;
    };

    if (!m_url.password.isEmpty()) {
        QList<QByteArray> auth{QByteArrayLiteral("AUTH")};
        if (!m_url.user.isEmpty())
            auth.append(m_url.user.toUtf8());
        auth.append(m_url.password.toUtf8());
        if (const Failure failure = handshake(auth, QStringLiteral("AUTH")); failure != Failure::None)
            return failure;
    }
    if (m_url.db != 0) {
        const QList<QByteArray> select{QByteArrayLiteral("SELECT"), QByteArray::number(m_url.db)};
        if (const Failure failure = handshake(select, QStringLiteral("SELECT %1").arg(m_url.db));
            failure != Failure::None)
            return failure;
    }
    if (!m_options.clientName.isEmpty()) {
        const QList<QByteArray> name{QByteArrayLiteral("CLIENT"), QByteArrayLiteral("SETNAME"),
                                     m_options.clientName};
        if (const Failure failure = handshake(name, QStringLiteral("CLIENT SETNAME"));
            failure != Failure::None)
            return failure;
    }
    if (m_everConnected)
        ++m_reconnects;
    m_everConnected = true;
    return Failure::None;
}

bool RedisConnection::connectOnce() {
    if (isConnected())
        return true;
    const Failure failure = openOnce();
    m_lastFailurePermanent = failure == Failure::Permanent;
    return failure == Failure::None;
}

namespace {
// A backoff that an interrupt cuts short (RedisConnection::interruptWaits). False when it was cut short.
bool sleepUnlessInterrupted(qint64 ms) {
    constexpr qint64 kStepMs = 20;
    QElapsedTimer slept;
    slept.start();
    while (!RedisConnection::waitsInterrupted()) {
        const qint64 left = ms - slept.elapsed();
        if (left <= 0)
            return true;
        QThread::msleep(static_cast<unsigned long>(std::min(left, kStepMs)));
    }
    return false;
}
} // namespace

bool RedisConnection::connect() {
    if (isConnected())
        return true;
    QElapsedTimer since;
    since.start();
    for (int attempt = 1;; ++attempt) {
        const Failure failure = openOnce();
        m_lastFailurePermanent = failure == Failure::Permanent;
        if (failure == Failure::None)
            return true;
        if (failure == Failure::Permanent)
            return false;
        const qint64 left = m_options.reconnectDeadlineMs - since.elapsed();
        if (left <= 0)
            return false;
        const int delay = backoffDelayMs(attempt, m_options.backoffInitialMs, m_options.backoffCapMs);
        const int jitter = static_cast<int>(QRandomGenerator::global()->bounded(delay / 4 + 1));
        // A real backoff between attempts (nothing to wait on: the server is gone), bounded by the deadline.
        if (!sleepUnlessInterrupted(std::min<qint64>(delay + jitter, left))) {
            m_lastError += QStringLiteral(" (interrupted: not waiting for Redis)");
            return false;
        }
    }
}

RedisReply RedisConnection::sendOnce(const QList<QByteArray> &args, bool *ioFailed) {
    *ioFailed = false;
    m_lastIoLooksLikeTls = false;
    ++m_roundTrips;
    if (m_tls) {
        RedisTlsTransport::IoError kind = RedisTlsTransport::IoError::None;
        QString detail;
        void *raw = m_tls->command(args, m_options.commandTimeoutMs, &kind, &detail);
        if (raw) {
            RedisReply reply = copyReply(static_cast<const redisReply *>(raw));
            freeReplyObject(raw);
            return reply;
        }
        *ioFailed = true;
        QString why;
        if (kind == RedisTlsTransport::IoError::Timeout)
            why = QStringLiteral("no answer from %1 within %2 ms")
                      .arg(m_url.redacted())
                      .arg(m_options.commandTimeoutMs);
        else if (kind == RedisTlsTransport::IoError::Closed)
            why = QStringLiteral("%1 closed the connection").arg(m_url.redacted());
        else
            why = QStringLiteral("connection to %1 failed: %2").arg(m_url.redacted(), detail);
        fail(why);
        return RedisReply::connectionError(why.toUtf8());
    }

    RedisArgv argv(args);
    void *raw = redisCommandArgv(m_context, argv.count(), argv.argv(), argv.lengths());
    if (!raw) {
        const int savedErrno = errno;
        *ioFailed = true;
        QString why;
        if (m_context->err == REDIS_ERR_IO && (savedErrno == EAGAIN || savedErrno == EWOULDBLOCK))
            why = QStringLiteral("no answer from %1 within %2 ms")
                      .arg(m_url.redacted())
                      .arg(m_options.commandTimeoutMs);
        else if (m_context->err == REDIS_ERR_EOF)
            why = QStringLiteral("%1 closed the connection").arg(m_url.redacted());
        else
            why = QStringLiteral("connection to %1 failed: %2")
                      .arg(m_url.redacted(), QString::fromLocal8Bit(m_context->errstr));
        // A TLS port answers garbage (a TLS alert) to the first plain command of a new connection, or hangs
        // up on it. A hang-up alone is also what a Redis being killed or restarted does to a new connection
        // (tst_clusterqueue survivesARedisRestartMidRun saw it), so only three in a row say "TLS port".
        const bool garbage = m_context->err == REDIS_ERR_PROTOCOL;
        const bool hungUp =
            m_context->err == REDIS_ERR_EOF || (m_context->err == REDIS_ERR_IO && savedErrno == ECONNRESET);
        if (m_freshPlainConnection && (garbage || (hungUp && ++m_freshHangUps >= kHangUpsMeaningTls))) {
            m_lastIoLooksLikeTls = true;
            why += QStringLiteral(" before answering anything (is this a TLS port? TLS takes rediss://)");
        }
        fail(why);
        return RedisReply::connectionError(why.toUtf8());
    }
    m_freshPlainConnection = false;
    m_freshHangUps = 0;
    RedisReply reply = copyReply(static_cast<const redisReply *>(raw));
    freeReplyObject(raw);
    return reply;
}

RedisReply RedisConnection::command(const QList<QByteArray> &args, Replay replay) {
    QElapsedTimer since;
    since.start();
    for (int attempt = 1;; ++attempt) {
        if (!isConnected() && !connect())
            return RedisReply::connectionError(m_lastError.toUtf8());
        bool ioFailed = false;
        RedisReply reply = sendOnce(args, &ioFailed);
        // A plain URL on a TLS port hangs up on every attempt: said at once, not after the deadline.
        m_lastFailurePermanent = ioFailed && m_lastIoLooksLikeTls;
        const bool mayRetry =
            isLoading(reply) || (ioFailed && replay == Replay::AfterReconnect && !m_lastIoLooksLikeTls);
        if (!mayRetry || since.elapsed() >= m_options.reconnectDeadlineMs || waitsInterrupted())
            return reply;
        if (isLoading(reply)) {
            const int delay = backoffDelayMs(attempt, m_options.backoffInitialMs, m_options.backoffCapMs);
            if (!sleepUnlessInterrupted(delay))
                return reply;
        }
        // A lost answer: the loop reconnects (with its own backoff) and sends the command again.
    }
}

RedisReply RedisConnection::evalScript(const RedisScript &script, const QList<QByteArray> &keys,
                                       const QList<QByteArray> &args, Replay replay) {
    QList<QByteArray> call;
    call.reserve(3 + keys.size() + args.size());
    call << QByteArrayLiteral("EVALSHA") << script.sha1() << QByteArray::number(keys.size());
    call << keys << args;
    RedisReply reply = command(call, replay);
    if (reply.kind == RedisReply::Kind::ServerError && reply.text.startsWith("NOSCRIPT")) {
        // The server lost its script cache (restart, SCRIPT FLUSH): EVAL runs it and caches it again.
        call[0] = QByteArrayLiteral("EVAL");
        call[1] = script.source();
        reply = command(call, replay);
    }
    return reply;
}

} // namespace crawl
