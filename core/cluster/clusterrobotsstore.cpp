#include "cluster/clusterrobotsstore.h"

#include "cluster/clustertypes.h"
#include "cluster/redisconnection.h"
#include "cluster/redisscript.h"

#include <algorithm>

namespace crawl {

namespace {

// KEYS[1]: the crawl's prefix. ARGV: host, worker id, lock ttl ms.
// {1, status, toomany, body, attempt, remaining ms} | {2, attempt} (fetch it) | {3, lock remaining ms}
const RedisScript &lookupScript() {
    static const RedisScript script(R"lua(
local P, h = KEYS[1], ARGV[1]
local k = P .. 'robots:' .. h
if redis.call('EXISTS', k) == 1 then
    local v = redis.call('HMGET', k, 'status', 'toomany', 'body', 'attempt')
    return {1, v[1] or '0', v[2] or '0', v[3] or '', v[4] or '1', redis.call('PTTL', k)}
end
local lk = P .. 'robotslock:' .. h
local owner = redis.call('GET', lk)
-- The holder asking again (a replay after a reconnect) keeps its lock.
if owner == ARGV[2] then
    redis.call('PEXPIRE', lk, ARGV[3])
elseif not redis.call('SET', lk, ARGV[2], 'NX', 'PX', ARGV[3]) then
    return {3, redis.call('PTTL', lk)}
end
return {2, (tonumber(redis.call('GET', P .. 'robotsfail:' .. h)) or 0) + 1}
)lua");
    return script;
}

// KEYS[1]: the crawl's prefix. ARGV: host, worker id, status, toomany, body, attempt, ttl ms, retry (0/1),
// failures ttl ms, host key, crawl delay ms (0: none). A replay stores the same again.
const RedisScript &storeScript() {
    static const RedisScript script(R"lua(
local P, h = KEYS[1], ARGV[1]
local k = P .. 'robots:' .. h
redis.call('HSET', k, 'status', ARGV[3], 'toomany', ARGV[4], 'body', ARGV[5], 'attempt', ARGV[6])
redis.call('PEXPIRE', k, ARGV[7])
if ARGV[8] == '1' then
    redis.call('SET', P .. 'robotsfail:' .. h, ARGV[6], 'PX', ARGV[9])
else
    redis.call('DEL', P .. 'robotsfail:' .. h)
end
local lk = P .. 'robotslock:' .. h
if redis.call('GET', lk) == ARGV[2] then redis.call('DEL', lk) end
-- Crawl-delay: every start on the host is that far from the previous one (the budget scripts take the
-- larger of it and the interval), the next one included.
local hk = P .. 'host:' .. ARGV[10]
local delay = tonumber(ARGV[11]) or 0
if delay > 0 then
    redis.call('HSET', hk, 'crawldelay', delay)
    local last = tonumber(redis.call('HGET', hk, 'last_start'))
    local nxt = tonumber(redis.call('HGET', hk, 'next')) or 0
    if last and last + delay > nxt then
        redis.call('HSET', hk, 'next', last + delay)
        local at = redis.call('ZSCORE', P .. 'sched', ARGV[10])
        if at and tonumber(at) < last + delay then redis.call('ZADD', P .. 'sched', last + delay, ARGV[10]) end
    end
else
    redis.call('HDEL', hk, 'crawldelay')
end
return 1
)lua");
    return script;
}

// KEYS[1]: the crawl's prefix. ARGV: host, worker id.
const RedisScript &unlockScript() {
    static const RedisScript script(R"lua(
local lk = KEYS[1] .. 'robotslock:' .. ARGV[1]
if redis.call('GET', lk) == ARGV[2] then redis.call('DEL', lk) end
return 1
)lua");
    return script;
}

QString errorText(const RedisReply &reply) {
    return reply.isError() ? QString::fromUtf8(reply.text) : QStringLiteral("unexpected reply from Redis");
}

} // namespace

ClusterRobotsStore::ClusterRobotsStore(RedisConnection &connection, const QString &crawlName)
    : m_connection(connection)
    , m_prefix(clusterKeyPrefix(crawlName)) {}

ClusterRobotsLookup ClusterRobotsStore::lookup(const QString &host, const QByteArray &workerId,
                                               qint64 lockTtlMs) {
    const RedisReply reply = m_connection.evalScript(
        lookupScript(), {m_prefix},
        {host.toUtf8(), workerId, QByteArray::number(std::max<qint64>(1, lockTtlMs))});
    ClusterRobotsLookup result;
    if (reply.isError() || reply.elements.size() < 2) {
        result.error = errorText(reply);
        return result;
    }
    switch (reply.elements[0].toInteger()) {
    case 1:
        if (reply.elements.size() < 6) {
            result.error = errorText(reply);
            return result;
        }
        result.state = ClusterRobotsLookup::State::Known;
        result.entry.status = int(reply.elements[1].toInteger());
        result.entry.tooManyRedirects = reply.elements[2].toInteger() == 1;
        result.entry.body = reply.elements[3].text;
        result.entry.attempt = int(std::max<long long>(1, reply.elements[4].toInteger(1)));
        result.remainingMs = reply.elements[5].toInteger(); // -1: no expiry (cannot happen: stored with one)
        return result;
    case 2:
        result.state = ClusterRobotsLookup::State::FetchIt;
        result.attempt = int(std::max<long long>(1, reply.elements[1].toInteger(1)));
        return result;
    default:
        result.state = ClusterRobotsLookup::State::Wait;
        result.remainingMs = std::max<long long>(0, reply.elements[1].toInteger());
        return result;
    }
}

bool ClusterRobotsStore::store(const QString &host, const QByteArray &workerId,
                               const ClusterRobotsEntry &entry, qint64 ttlMs, bool retry,
                               qint64 failuresTtlMs, const QString &hostKey, qint64 crawlDelayMs,
                               QString *error) {
    const RedisReply reply = m_connection.evalScript(
        storeScript(), {m_prefix},
        {host.toUtf8(), workerId, QByteArray::number(entry.status), entry.tooManyRedirects ? "1" : "0",
         entry.body, QByteArray::number(entry.attempt), QByteArray::number(std::max<qint64>(1, ttlMs)),
         retry ? "1" : "0", QByteArray::number(std::max<qint64>(1, failuresTtlMs)), hostKey.toUtf8(),
         QByteArray::number(std::max<qint64>(0, crawlDelayMs))});
    if (reply.isError()) {
        *error = errorText(reply);
        return false;
    }
    return true;
}

bool ClusterRobotsStore::unlock(const QString &host, const QByteArray &workerId, QString *error) {
    const RedisReply reply = m_connection.evalScript(unlockScript(), {m_prefix}, {host.toUtf8(), workerId});
    if (reply.isError()) {
        *error = errorText(reply);
        return false;
    }
    return true;
}

} // namespace crawl
