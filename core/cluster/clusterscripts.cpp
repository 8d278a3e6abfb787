#include "cluster/clusterscripts.h"

namespace crawl::ClusterScripts {

namespace {

// Shared by every script. Key layout under the crawl's prefix P:
//   P meta             hash: created, name, settings (s_*)
//   P limits           hash: global, perhost, interval, maxattempts, jitter (permille), maxrate (starts/s,
//                      0 = off), bk_on, bk_window, bk_threshold, bk_window_s, bk_cooldown_ms, bk_capfactor
//                      bk_giveup_ms (the breaker's settings), adaptive (1: --adaptive), pace_start (the
//                      pace's first in-flight limit, PaceController::kStartInFlight), version (bumped on
//                      every change)
//   P rate             hash: next, last (the crawl-wide start-rate cap: earliest next start, latest start)
//   P host:<h>         hash: next (earliest next start), pause (Retry-After until), breaker (closed, open,
//                      halfopen, gaveup), breaker_until (open: when the probe may start), bk_probe (halfopen:
//                      the probe's grant), bk_first (when it first tripped without recovering since: the
//                      give-up clock), bk_trips, bk_recover (starts left at 1 in flight after a recovery),
//                      bk_size, bk_h0..bk_h4 (the window's attempts by health), o_inflight / o_interval
//                      (overrides), starts, last_start, crawldelay (robots.txt), upause / uskip (1: paused
//                      / skipped by the user from a window: hostAction), pace (--adaptive: the
//                      host's PaceController state, clusterpace.h), pace_v (its version: the last event
//                      folded), pace_seq (the last event logged), pace_limit, pace_gap (the in-flight limit
//                      and the interval with guard the pace allows: what budget_try reads), pace_why
//   P pev:<h>          list: the pace log, "<seq> <health> <status> <latency ms> <in flight>" per completed
//                      attempt not yet folded into `pace`, oldest first
//   P bw:<h>           list: the breaker's window, "<ms>:<health>" per completed attempt, oldest first
//   P hin:<h>          zset: grants in flight on the host -> expiry (a dead worker's grant times out)
//   P gin              zset: every grant in flight -> expiry (the crawl's global cap)
//   P hosts            set: every host the crawl has URLs on (the window pages through it)
//   P q:<h>            list: queued URL ids of the host
//   P sched            zset: hosts with queued URLs -> earliest time they may start
//   P delayed          zset: URL ids waiting out a retry delay -> eligible time
//   P urlid            hash: normalized URL -> id (deduplication)
//   P u:<id>           hash: url, norm, host, line, attempts, state, lease
//   P leases           zset: live lease ids -> expiry
//   P l:<lease>        hash: id, owner, host, state (leased/acked/expired/released), stream, skip (1: its
//                      host was given up, 2: skipped by the user; the worker acknowledges it as skipped /
//                      cancelled without a request),
//                      granted, b_next, b_last, r_after, r_next, r_last (the host's start and the crawl's
//                      rate slot before the grant: an acknowledgement of nothing sent gives them back)
//   P done             hash: URL id -> the lease that acknowledged it
//   P results          stream: one entry per acknowledged URL
//   P counts           hash: nextid, enqueued, duplicates, queued, leased, delayed, done, expired, inputrows
//   P batches          hash: enqueue batch id -> "added duplicates" (replays count once)
//   P inputrows        hash: input line number -> 1, for each row the coordinator wrote itself (addInputRows)
//   P workers          zset: worker id -> last heartbeat;  P w:<id>  hash: inflight, rate, hb
//   P readers          hash: reader id (a window watching) -> "<expiry ms> <last stream id read>"
//   P robots:<o>, P robotslock:<o>, P robotsfail:<o>   robots.txt per origin (clusterrobotsstore.h)
// Reasons a start is refused: 1 paused (Retry-After), 2 breaker open (or its one probe in flight), 3 start
// interval, 4 host in-flight limit, 5 global in-flight cap, 6 global start-rate cap, 7 given up by its
// breaker (lease() then hands the URL out as a skip: no slot, no attempt, the worker writes its `skipped`
// row), 8 paused by the user, 9 skipped by the user (handed out as a skip too: a `cancelled` row).
constexpr char kPrelude[] = R"lua(
local P = KEYS[1]
local function num(v, d)
    local n = tonumber(v)
    if n == nil then return d end
    return n
end
local function now_ms(given)
    local n = tonumber(given)
    if n and n >= 0 then return n end
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- {global, per host, interval, version, adaptive (bool), the pace's first in-flight limit}
local function host_limits(host)
    local l = redis.call('HMGET', P .. 'limits', 'global', 'perhost', 'interval', 'version', 'adaptive', 'pace_start')
    local o = redis.call('HMGET', P .. 'host:' .. host, 'o_inflight', 'o_interval', 'crawldelay')
    -- robots.txt's Crawl-delay (clusterrobotsstore) only ever lengthens the interval.
    return num(l[1], 16), num(o[1], num(l[2], 1)), math.max(num(o[2], num(l[3], 0)), num(o[3], 0)), num(l[4], 0),
        num(l[5], 0) == 1, math.max(1, num(l[6], 2))
end
-- --adaptive: the host's shared pace for a worker to fold (clusterpace.h, SharedPace):
-- {version, state, ceiling (in flight), interval (stored), n, event 1 .. event n}
local function pace_view(host)
    local _, perhost, interval = host_limits(host)
    local p = redis.call('HMGET', P .. 'host:' .. host, 'pace_v', 'pace')
    local events = redis.call('LRANGE', P .. 'pev:' .. host, 0, -1)
    local out = {num(p[1], 0), p[2] or '', perhost, interval, #events}
    for _, e in ipairs(events) do out[#out + 1] = e end
    return out
end
-- The circuit breaker's settings (HostBreaker's; missing fields: its defaults).
local function breaker_settings()
    local b = redis.call('HMGET', P .. 'limits', 'bk_on', 'bk_window', 'bk_threshold', 'bk_window_s',
        'bk_cooldown_ms', 'bk_capfactor', 'bk_giveup_ms')
    return {on = num(b[1], 1) == 1, window = math.max(1, num(b[2], 20)), threshold = num(b[3], 0.8),
        window_ms = num(b[4], 600) * 1000, cooldown = math.max(0, num(b[5], 60000)),
        cap = math.max(1, num(b[6], 16)), giveup = math.max(0, num(b[7], 1800000))}
end
-- HostBreaker's give-up time: the first trip without a recovery since, plus --breaker-give-up (read now, so
-- a --cluster-set change applies to hosts already tripped). 0: never (no trip recorded).
local function giveup_at(host)
    local first = num(redis.call('HGET', P .. 'host:' .. host, 'bk_first'), 0)
    if first <= 0 then return 0 end
    return first + breaker_settings().giveup
end
-- The earliest time the host may start anything, ignoring in-flight counts.
local function eligible_at(host, now)
    local h = redis.call('HMGET', P .. 'host:' .. host, 'next', 'pause', 'breaker', 'breaker_until', 'upause',
        'uskip')
    -- Skipped by the user: its URLs are handed out as skips at once. Paused by the user: looked at again
    -- in an hour, or at once when resumed (hostAction reschedules it).
    if h[6] == '1' then return now end
    if h[5] == '1' then return now + 3600000 end
    local on = (h[3] == 'open' or h[3] == 'gaveup') and breaker_settings().on
    -- A given-up host's URLs are handed out as skips at once (nothing is sent: no pause or interval applies).
    if h[3] == 'gaveup' and on then return now end
    local at = math.max(now, num(h[1], 0), num(h[2], 0))
    if h[3] == 'open' and on then
        at = math.max(at, num(h[4], 0))
        -- HostBreaker::nextChangeMs: the probe or the give-up, whichever comes first.
        local g = giveup_at(host)
        if g > 0 and g < at then at = math.max(now, g) end
    end
    return at
end
-- The host is given up (HostBreaker::giveUp): every URL still waiting for a retry joins its queue now, so it
-- too ends as `skipped` (FetchShard::endWaiting's rule); what is queued is leased as skips from now on.
local function requeue_waiting(host, now)
    local moved = 0
    for _, id in ipairs(redis.call('ZRANGE', P .. 'delayed', 0, -1)) do
        local uk = P .. 'u:' .. id
        if redis.call('HGET', uk, 'host') == host then
            redis.call('ZREM', P .. 'delayed', id)
            redis.call('HSET', uk, 'state', 'queued')
            redis.call('RPUSH', P .. 'q:' .. host, id)
            moved = moved + 1
        end
    end
    if moved > 0 then
        redis.call('HINCRBY', P .. 'counts', 'delayed', -moved)
        redis.call('HINCRBY', P .. 'counts', 'queued', moved)
    end
    if redis.call('LLEN', P .. 'q:' .. host) > 0 then redis.call('ZADD', P .. 'sched', now, host) end
end
local function give_up(host, now)
    redis.call('HSET', P .. 'host:' .. host, 'breaker', 'gaveup', 'bk_probe', '')
    requeue_waiting(host, now)
end
local function reschedule(host, now)
    if redis.call('LLEN', P .. 'q:' .. host) > 0 then
        redis.call('ZADD', P .. 'sched', eligible_at(host, now), host)
        return
    end
    -- A tripped host with nothing queued may still have URLs waiting for a retry: it is looked at again
    -- when its give-up falls (lease()), so they end then, not when their retry comes due.
    local g = giveup_at(host)
    if g > 0 and redis.call('HGET', P .. 'host:' .. host, 'breaker') == 'open' then
        redis.call('ZADD', P .. 'sched', g, host)
    else
        redis.call('ZREM', P .. 'sched', host)
    end
end
-- {granted, at (grant time, or the time to ask again), reason, host in-flight, limits version}
local function budget_try(host, grant, now, ttl)
    local hk = P .. 'host:' .. host
    local hin = P .. 'hin:' .. host
    local gin = P .. 'gin'
    local global, perhost, interval, version, adaptive, paceStart = host_limits(host)
    local expiry = redis.call('ZSCORE', hin, grant)
    if expiry then
        -- A replay: the grant was made at expiry - ttl (renewals aside).
        return {1, tonumber(expiry) - ttl, 0, redis.call('ZCARD', hin), version}
    end
    redis.call('ZREMRANGEBYSCORE', hin, '-inf', now)
    redis.call('ZREMRANGEBYSCORE', gin, '-inf', now)
    local h = redis.call('HMGET', hk, 'next', 'pause', 'breaker', 'breaker_until', 'bk_probe', 'bk_recover',
        'pace_limit', 'pace_gap', 'upause', 'uskip')
    -- Skipped by the user (the window's Skip Remaining URLs): nothing starts there again, its URLs end
    -- `cancelled` unfetched (FetchShard::skipHost). Paused by the user: nothing starts until resumed.
    if h[10] == '1' then return {0, now, 9, redis.call('ZCARD', hin), version} end
    if h[9] == '1' then return {0, now + 1000, 8, redis.call('ZCARD', hin), version} end
    -- (The breaker's settings are read only for a host whose breaker is not closed: no cost otherwise.)
    local breakerOn = (h[3] == 'open' or h[3] == 'halfopen' or h[3] == 'gaveup') and breaker_settings().on
    -- Given up (or due to be, as HostBreaker::giveUpDue: tripped, not probing, past the give-up time): no
    -- start ever again; a probe in flight is not cut short, its own verdict decides (recordAttempt).
    if breakerOn and h[3] == 'open' then
        local g = giveup_at(host)
        if g > 0 and now >= g then
            give_up(host, now)
            h[3] = 'gaveup'
        end
    end
    if breakerOn and h[3] == 'gaveup' then return {0, now, 7, redis.call('ZCARD', hin), version} end
    local pause = num(h[2], 0)
    if pause > now then return {0, pause, 1, redis.call('ZCARD', hin), version} end
    -- The breaker (HostBreaker's states, shared): open refuses until its cool-down ends, then exactly one
    -- probe starts, whichever worker asks first; while it runs (halfopen) nothing else starts on the host.
    local probe = false
    if (h[3] == 'open' or h[3] == 'halfopen') and breakerOn then
        if h[3] == 'open' then
            local u = num(h[4], 0)
            if u > now then
                local g = giveup_at(host)
                if g > 0 and g < u then u = g end -- ask again when the give-up is due, if that comes first
                return {0, u, 2, redis.call('ZCARD', hin), version}
            end
        else
            local probeExpiry = h[5] and redis.call('ZSCORE', hin, h[5])
            if probeExpiry then return {0, tonumber(probeExpiry), 2, redis.call('ZCARD', hin), version} end
            -- The probe's grant expired (its worker died): another probe may start.
        end
        probe = true
        perhost = 1
    elseif num(h[6], 0) > 0 then
        perhost = 1 -- recovering from a trip: one at a time for a window of attempts
    end
    if adaptive then
        -- HostQueue's effective limits: the pace under the user's (slow start before its first fold).
        perhost = math.min(perhost, num(h[7], paceStart))
        interval = math.max(interval, num(h[8], 0))
    end
    local nxt = num(h[1], 0)
    if nxt > now then return {0, nxt, 3, redis.call('ZCARD', hin), version} end
    local n = redis.call('ZCARD', hin)
    if n >= perhost then
        local first = redis.call('ZRANGE', hin, 0, 0, 'WITHSCORES')
        return {0, num(first[2], now + 1), 4, n, version}
    end
    if redis.call('ZCARD', gin) >= global then
        local first = redis.call('ZRANGE', gin, 0, 0, 'WITHSCORES')
        return {0, num(first[2], now + 1), 5, n, version}
    end
    -- The start-rate cap (SharedBudget::reserveRateSlot's rule, crawl-wide): starts at least 1000 / maxrate
    -- ms apart, no burst credit. Taken last, so a refusal above never spends a rate slot.
    local maxrate = num(redis.call('HGET', P .. 'limits', 'maxrate'), 0)
    if maxrate > 0 then
        local rateNext = num(redis.call('HGET', P .. 'rate', 'next'), 0)
        if now < rateNext then return {0, math.ceil(rateNext), 6, n, version} end
        local last = math.max(rateNext, now)
        redis.call('HSET', P .. 'rate', 'last', string.format('%.3f', last),
            'next', string.format('%.3f', last + 1000 / maxrate))
    end
    redis.call('ZADD', hin, now + ttl, grant)
    redis.call('ZADD', gin, now + ttl, grant)
    if probe then redis.call('HSET', hk, 'breaker', 'halfopen', 'bk_probe', grant) end
    local gap = interval
    local jitter = num(redis.call('HGET', P .. 'limits', 'jitter'), 0)
    if jitter > 0 and interval > 0 then
        -- U(0, 1) from the server clock's microseconds: math.random is reseeded alike for every script
        -- call, and each grant is a separate call, so the microseconds differ from grant to grant.
        local t = redis.call('TIME')
        gap = interval + math.floor(interval * jitter / 1000 * (tonumber(t[2]) % 1000) / 1000)
    end
    redis.call('HSET', hk, 'next', now + gap, 'last_start', now)
    redis.call('HINCRBY', hk, 'starts', 1)
    return {1, now, 0, n + 1, version}
end
local function budget_finish(host, grant, now)
    local removed = redis.call('ZREM', P .. 'hin:' .. host, grant)
    redis.call('ZREM', P .. 'gin', grant)
    local hk = P .. 'host:' .. host
    local b = redis.call('HMGET', hk, 'breaker', 'bk_probe')
    if b[1] == 'halfopen' and b[2] == grant then
        -- The probe ended without a verdict (given back unsent, or its worker stopped): probe again now.
        redis.call('HSET', hk, 'breaker', 'open', 'breaker_until', now, 'bk_probe', '')
    end
    reschedule(host, now)
    return removed
end
local function counts(...)
    local args = {...}
    for i = 1, #args, 2 do redis.call('HINCRBY', P .. 'counts', args[i], args[i + 1]) end
end
-- A lease whose worker stopped renewing: its URL goes back to the front of its host's queue, with the
-- attempt it used counted; after maxattempts such losses the URL ends with a terminal result instead.
local function expire_due(now, limit)
    local dead = redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', now, 'LIMIT', 0, limit)
    local maxattempts = num(redis.call('HGET', P .. 'limits', 'maxattempts'), 0)
    for _, lease in ipairs(dead) do
        local lk = P .. 'l:' .. lease
        local l = redis.call('HMGET', lk, 'id', 'host', 'owner')
        redis.call('ZREM', P .. 'leases', lease)
        redis.call('HSET', lk, 'state', 'expired')
        redis.call('PEXPIRE', lk, 3600000)
        redis.call('ZREM', P .. 'hin:' .. l[2], lease)
        redis.call('ZREM', P .. 'gin', lease)
        local uk = P .. 'u:' .. l[1]
        local u = redis.call('HMGET', uk, 'url', 'line', 'attempts')
        counts('leased', -1, 'expired', 1)
        if maxattempts > 0 and num(u[3], 0) >= maxattempts and redis.call('HSETNX', P .. 'done', l[1], lease) == 1 then
            redis.call('XADD', P .. 'results', '*', 'id', l[1], 'url', u[1], 'line', u[2], 'attempts', u[3],
                'owner', '', 'outcome', 'network_error',
                'error', 'lease expired ' .. u[3] .. ' times: the workers handling it stopped')
            redis.call('HSET', uk, 'state', 'done', 'lease', '')
            counts('done', 1)
        else
            redis.call('HSET', uk, 'state', 'queued', 'lease', '')
            redis.call('LPUSH', P .. 'q:' .. l[2], l[1])
            counts('queued', 1)
        end
        reschedule(l[2], now)
    end
    local due = redis.call('ZRANGEBYSCORE', P .. 'delayed', '-inf', now, 'LIMIT', 0, limit)
    for _, id in ipairs(due) do
        local host = redis.call('HGET', P .. 'u:' .. id, 'host')
        redis.call('ZREM', P .. 'delayed', id)
        redis.call('HSET', P .. 'u:' .. id, 'state', 'queued')
        redis.call('RPUSH', P .. 'q:' .. host, id)
        counts('delayed', -1, 'queued', 1)
        reschedule(host, now)
    end
    return #dead
end
-- The live lease `lease` of `owner`, or the reason it is not (unknown, foreign, expired, acked, released).
local function live_lease(lease, owner, now)
    local l = redis.call('HMGET', P .. 'l:' .. lease, 'id', 'owner', 'host', 'state', 'stream')
    if not l[1] then return nil, 'unknown', l end
    if l[2] ~= owner then return nil, 'foreign', l end
    if l[4] ~= 'leased' then return nil, l[4], l end
    local exp = redis.call('ZSCORE', P .. 'leases', lease)
    if (not exp) or tonumber(exp) <= now then return nil, 'expired', l end
    return l, nil, l
end
-- A lease that sent nothing (robots.txt blocked its URL, it came back late) gives back the host's start and the
-- crawl's rate slot its grant took (as a local crawl decides robots.txt before it takes a slot); not when
-- another start has been taken since.
local function give_back_start(lease, host)
    local hk = P .. 'host:' .. host
    local g = redis.call('HMGET', P .. 'l:' .. lease, 'granted', 'b_next', 'b_last')
    if g[1] and num(redis.call('HGET', hk, 'last_start'), -1) == num(g[1], -2) then
        redis.call('HSET', hk, 'next', num(g[2], 0))
        if num(g[3], -1) < 0 then redis.call('HDEL', hk, 'last_start') else redis.call('HSET', hk, 'last_start', g[3]) end
        redis.call('HINCRBY', hk, 'starts', -1)
    end
    local r = redis.call('HMGET', P .. 'l:' .. lease, 'r_after', 'r_next', 'r_last')
    if r[1] and redis.call('HGET', P .. 'rate', 'last') == r[1] then
        for i, field in ipairs({'next', 'last'}) do
            if r[i + 1] == '' then redis.call('HDEL', P .. 'rate', field)
            else redis.call('HSET', P .. 'rate', field, r[i + 1]) end
        end
    end
end
)lua";

RedisScript withPrelude(const char *body) {
    return RedisScript(QByteArray(kPrelude) + QByteArray(body));
}

} // namespace

// ARGV: name, now, then alternating setting name/value; limits are set separately (setLimits).
const RedisScript &createCrawl() {
    static const RedisScript script = withPrelude(R"lua(
local now = now_ms(ARGV[2])
if redis.call('HSETNX', P .. 'meta', 'created', now) == 0 then return 0 end
redis.call('HSET', P .. 'meta', 'name', ARGV[1])
for i = 3, #ARGV, 2 do redis.call('HSET', P .. 'meta', 's_' .. ARGV[i], ARGV[i + 1]) end
redis.call('HSETNX', P .. 'limits', 'version', 0)
-- The registry `--worker` without `--crawl` picks from (outside the crawl's hash tag: one Redis only).
redis.call('SADD', 'crawlscope:crawls', ARGV[1])
return 1
)lua");
    return script;
}

// ARGV: alternating field/value (global, perhost, interval, maxattempts, jitter). Returns the new version.
const RedisScript &setLimits() {
    static const RedisScript script = withPrelude(R"lua(
local oldRate = num(redis.call('HGET', P .. 'limits', 'maxrate'), 0)
for i = 1, #ARGV, 2 do redis.call('HSET', P .. 'limits', ARGV[i], ARGV[i + 1]) end
local rate = num(redis.call('HGET', P .. 'limits', 'maxrate'), 0)
if rate ~= oldRate then
    -- As SharedBudget::setMaxRate: the next start is one *new* spacing after the latest, at once.
    local last = num(redis.call('HGET', P .. 'rate', 'last'), 0)
    local nxt = 0
    if rate > 0 and last > 0 then nxt = last + 1000 / rate end
    redis.call('HSET', P .. 'rate', 'next', string.format('%.3f', nxt))
end
return redis.call('HINCRBY', P .. 'limits', 'version', 1)
)lua");
    return script;
}

// ARGV: host, in-flight override (empty: none), interval override (empty: none), now. Returns the version.
const RedisScript &setHostOverride() {
    static const RedisScript script = withPrelude(R"lua(
local hk = P .. 'host:' .. ARGV[1]
if ARGV[2] == '' then redis.call('HDEL', hk, 'o_inflight') else redis.call('HSET', hk, 'o_inflight', ARGV[2]) end
if ARGV[3] == '' then redis.call('HDEL', hk, 'o_interval') else redis.call('HSET', hk, 'o_interval', ARGV[3]) end
-- A shorter interval applies to the next start at once.
if ARGV[3] ~= '' then
    local last = tonumber(redis.call('HGET', hk, 'last_start'))
    if last then redis.call('HSET', hk, 'next', last + tonumber(ARGV[3])) end
end
reschedule(ARGV[1], now_ms(ARGV[4]))
return redis.call('HINCRBY', P .. 'limits', 'version', 1)
)lua");
    return script;
}

// ARGV: host, grant id, ttl ms, now. Returns budget_try's tuple plus the server time.
const RedisScript &tryStart() {
    static const RedisScript script = withPrelude(R"lua(
local now = now_ms(ARGV[4])
local r = budget_try(ARGV[1], ARGV[2], now, tonumber(ARGV[3]))
r[#r + 1] = now
return r
)lua");
    return script;
}

// ARGV: host, grant id, now. Returns 1 when the grant was in flight, 0 (a replay or an expired grant).
const RedisScript &finished() {
    static const RedisScript script = withPrelude(R"lua(
return budget_finish(ARGV[1], ARGV[2], now_ms(ARGV[3]))
)lua");
    return script;
}

// ARGV: host, grant id, ttl, now. Returns the new expiry, or 0 when the grant is no longer in flight.
const RedisScript &renewGrant() {
    static const RedisScript script = withPrelude(R"lua(
local now = now_ms(ARGV[4])
local hin = P .. 'hin:' .. ARGV[1]
local exp = redis.call('ZSCORE', hin, ARGV[2])
if (not exp) or tonumber(exp) <= now then return 0 end
redis.call('ZADD', hin, now + tonumber(ARGV[3]), ARGV[2])
redis.call('ZADD', P .. 'gin', 'XX', now + tonumber(ARGV[3]), ARGV[2])
return now + tonumber(ARGV[3])
)lua");
    return script;
}

// ARGV: host, until ms, now. A pause only ever grows (two workers seeing two Retry-Afters keep the later).
const RedisScript &pauseHost() {
    static const RedisScript script = withPrelude(R"lua(
local hk = P .. 'host:' .. ARGV[1]
local untilMs = math.max(tonumber(ARGV[2]), num(redis.call('HGET', hk, 'pause'), 0))
redis.call('HSET', hk, 'pause', untilMs)
reschedule(ARGV[1], now_ms(ARGV[3]))
return untilMs
)lua");
    return script;
}

// ARGV: host, action, now. What the window's Hosts tab does to a host of a shared crawl, for every worker
// (FetchShard's setHostPaused, skipHost, resetHostBreaker): "pause" (nothing new starts; in flight finish),
// "resume", "skip" (every URL not yet started, retries waiting included, ends `cancelled` unfetched, and so
// does any added later), "reset" (a tripped or given-up breaker closes: requests start again now). Returns
// 1, or 0 when there was nothing to change (an unknown host, a reset of a closed breaker).
const RedisScript &hostAction() {
    static const RedisScript script = withPrelude(R"lua(
local host, action = ARGV[1], ARGV[2]
local now = now_ms(ARGV[3])
local hk = P .. 'host:' .. host
if redis.call('SISMEMBER', P .. 'hosts', host) == 0 then return 0 end
if action == 'pause' then
    redis.call('HSET', hk, 'upause', 1)
elseif action == 'resume' then
    redis.call('HDEL', hk, 'upause')
elseif action == 'skip' then
    redis.call('HSET', hk, 'uskip', 1)
    requeue_waiting(host, now)
elseif action == 'reset' then
    local b = redis.call('HGET', hk, 'breaker')
    if (not b) or b == 'closed' then return 0 end
    redis.call('HSET', hk, 'breaker', 'closed', 'breaker_until', 0, 'bk_probe', '', 'bk_recover', 0, 'bk_first', 0,
        'bk_trips', 0)
    redis.call('DEL', P .. 'bw:' .. host)
    redis.call('HDEL', hk, 'bk_h0', 'bk_h1', 'bk_h2', 'bk_h3', 'bk_h4', 'bk_why')
else
    return redis.error_reply('unknown host action ' .. action)
end
reschedule(host, now)
return 1
)lua");
    return script;
}

// ARGV: host, state (closed/open/halfopen), until ms, now.
const RedisScript &setBreaker() {
    static const RedisScript script = withPrelude(R"lua(
redis.call('HSET', P .. 'host:' .. ARGV[1], 'breaker', ARGV[2], 'breaker_until', ARGV[3])
reschedule(ARGV[1], now_ms(ARGV[4]))
return 1
)lua");
    return script;
}

// ARGV: host, grant id, health (AttemptHealth: 0 healthy, 1 timeout, 2 network error, 3 5xx, 4 429), now,
// then for --adaptive the status and the latency in ms (absent: no pace event).
// One completed attempt, judged as HostBreaker::record judges it, on the window every worker shares:
// {transition (0 none, 1 tripped, 2 recovered, 3 given up: the probe failed past the give-up time), state,
// breaker_until, failures, window count, dominant failure health, trips, now}, then with --adaptive on the
// crawl: the event's seq and pace_view().
const RedisScript &recordAttempt() {
    static const RedisScript script = withPrelude(R"lua(
local host, grant, health = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = now_ms(ARGV[4])
local hk = P .. 'host:' .. host
local wk = P .. 'bw:' .. host
local s = breaker_settings()
local h = redis.call('HMGET', hk, 'breaker', 'bk_probe', 'bk_trips', 'bk_recover', 'bk_size')
local state = h[1] or 'closed'
-- --adaptive (ARGV[5] status, ARGV[6] latency ms): the attempt joins the host's pace log, in the order every
-- worker sees; in flight: the host's other grants still out (sent at the pace before this answer).
local pace = nil
if ARGV[6] and ARGV[6] ~= '' and num(redis.call('HGET', P .. 'limits', 'adaptive'), 0) == 1 then
    local hin = P .. 'hin:' .. host
    local others = redis.call('ZCOUNT', hin, '(' .. now, '+inf')
    if redis.call('ZSCORE', hin, grant) then others = others - 1 end
    local seq = redis.call('HINCRBY', hk, 'pace_seq', 1)
    local pk = P .. 'pev:' .. host
    redis.call('RPUSH', pk, seq .. ' ' .. health .. ' ' .. math.floor(num(ARGV[5], 0)) .. ' ' ..
        math.max(0, math.floor(num(ARGV[6], 0))) .. ' ' .. math.max(0, others))
    -- Bounded, should every worker fail to fold for a while: the oldest answers are dropped.
    if redis.call('LLEN', pk) > 1000 then redis.call('LPOP', pk) end
    pace = pace_view(host)
    table.insert(pace, 1, seq)
end
local function counts_of()
    local c = redis.call('HMGET', hk, 'bk_h0', 'bk_h1', 'bk_h2', 'bk_h3', 'bk_h4')
    local failures, dominant, best = 0, 1, -1
    for i = 2, 5 do
        local v = num(c[i], 0)
        failures = failures + v
        if v > best then best, dominant = v, i - 1 end
    end
    return failures, dominant
end
local function answer(transition, st)
    local f, d = counts_of()
    local b = redis.call('HMGET', hk, 'breaker_until', 'bk_trips')
    local out = {transition, st, num(b[1], 0), f, redis.call('LLEN', wk), d, num(b[2], 0), now}
    if pace then for _, v in ipairs(pace) do out[#out + 1] = v end end
    return out
end
local function clear_window()
    redis.call('DEL', wk)
    redis.call('HDEL', hk, 'bk_h0', 'bk_h1', 'bk_h2', 'bk_h3', 'bk_h4')
end
local function trip()
    local trips = redis.call('HINCRBY', hk, 'bk_trips', 1)
    local cooldown = math.min(s.cooldown * s.cap, s.cooldown * 2 ^ math.min(math.max(trips - 1, 0), 30))
    redis.call('HSET', hk, 'breaker', 'open', 'breaker_until', now + cooldown, 'bk_probe', '', 'bk_recover', 0)
    -- The give-up clock starts at the first trip and runs on while probes fail (HostBreaker::trip).
    if state == 'closed' then redis.call('HSET', hk, 'bk_first', now) end
    local f, d = counts_of()
    -- Why, for the window: "<failures> <count> <dominant health> <trips>" (HostBreaker::tripReason's words).
    redis.call('HSET', hk, 'bk_why', f .. ' ' .. redis.call('LLEN', wk) .. ' ' .. d .. ' ' .. trips)
    reschedule(host, now)
    return answer(1, 'open')
end
if not s.on then return answer(0, 'closed') end
if state == 'open' or state == 'gaveup' then return answer(0, state) end
if state == 'halfopen' then
    -- Attempts that were in flight when the host tripped were judged already: only the probe decides.
    if h[2] ~= grant then return answer(0, state) end
    if health ~= 0 then
        -- A probe that fails past the give-up time ends the host (HostBreaker::record).
        local g = giveup_at(host)
        if g > 0 and now >= g then
            -- Why, in the same form as a trip's (the failed probe counted as one more trip).
            local f, d = counts_of()
            redis.call('HSET', hk, 'bk_why', f .. ' ' .. redis.call('LLEN', wk) .. ' ' .. d .. ' ' ..
                (num(h[3], 0) + 1))
            give_up(host, now)
            return answer(3, 'gaveup')
        end
        return trip()
    end
    redis.call('HSET', hk, 'breaker', 'closed', 'breaker_until', 0, 'bk_probe', '', 'bk_recover', s.window,
        'bk_first', 0)
    clear_window()
    reschedule(host, now)
    return answer(2, 'closed')
end
if num(h[5], 0) ~= s.window then -- the window's size changed: it starts again
    clear_window()
    redis.call('HSET', hk, 'bk_size', s.window)
end
local function drop_oldest()
    local oldest = redis.call('LPOP', wk)
    if oldest then redis.call('HINCRBY', hk, 'bk_h' .. string.match(oldest, ':(%d)$'), -1) end
end
while true do -- attempts older than the window's age no longer count
    local oldest = redis.call('LINDEX', wk, 0)
    if not oldest or tonumber(string.match(oldest, '^(%d+)')) >= now - s.window_ms then break end
    drop_oldest()
end
if redis.call('LLEN', wk) >= s.window then drop_oldest() end
redis.call('RPUSH', wk, now .. ':' .. health)
redis.call('HINCRBY', hk, 'bk_h' .. health, 1)
if num(h[4], 0) > 0 and redis.call('HINCRBY', hk, 'bk_recover', -1) == 0 then
    redis.call('HSET', hk, 'bk_trips', 0) -- a whole window since the recovery: next trip at the base cool-down
end
local count = redis.call('LLEN', wk)
local failures = counts_of()
-- A full window only: never one unlucky first request.
if count == s.window and failures > 0 and failures >= s.threshold * count - 1e-9 then return trip() end
return answer(0, 'closed')
)lua");
    return script;
}

// ARGV: host, expected version, through (the last event folded), state, in-flight limit, gap ms (with the
// guard, 0: none), why, now. --adaptive: the compare-and-set of a worker's fold (ClusterPace). Written only
// when nobody wrote since `expected` was read: {1, through}; otherwise nothing and {0, pace_view()}, the
// events after the winner's fold still in the log for the next fold.
const RedisScript &commitPace() {
    static const RedisScript script = withPrelude(R"lua(
local host = ARGV[1]
local hk = P .. 'host:' .. host
local now = now_ms(ARGV[8])
if num(redis.call('HGET', hk, 'pace_v'), 0) ~= tonumber(ARGV[2]) then
    local out = {0}
    for _, v in ipairs(pace_view(host)) do out[#out + 1] = v end
    return out
end
local through, gap = tonumber(ARGV[3]), tonumber(ARGV[6])
local oldGap = num(redis.call('HGET', hk, 'pace_gap'), 0)
redis.call('HSET', hk, 'pace', ARGV[4], 'pace_v', through, 'pace_limit', ARGV[5], 'pace_gap', gap, 'pace_why', ARGV[7])
local pk = P .. 'pev:' .. host
while true do
    local first = redis.call('LINDEX', pk, 0)
    if not first or num(string.match(first, '^(%d+)'), 0) > through then break end
    redis.call('LPOP', pk)
end
if gap ~= oldGap then
    -- As a local host's pacing (measured from its latest start with the interval now in force): the next
    -- start moves with the pace's interval, sooner or later.
    local last = tonumber(redis.call('HGET', hk, 'last_start'))
    if last then
        local _, _, interval = host_limits(host)
        redis.call('HSET', hk, 'next', last + math.max(interval, gap))
    end
end
reschedule(host, now)
return {1, through}
)lua");
    return script;
}

// ARGV: host, now. {in flight, next, pause, breaker, breaker_until, starts, queued, now, breaker why, pace
// in-flight limit (-1: none), pace gap, pace why}
const RedisScript &hostStatus() {
    static const RedisScript script = withPrelude(R"lua(
local now = now_ms(ARGV[2])
local hin = P .. 'hin:' .. ARGV[1]
redis.call('ZREMRANGEBYSCORE', hin, '-inf', now)
local h = redis.call('HMGET', P .. 'host:' .. ARGV[1], 'next', 'pause', 'breaker', 'breaker_until', 'starts',
    'bk_why', 'pace_limit', 'pace_gap', 'pace_why')
return {redis.call('ZCARD', hin), num(h[1], 0), num(h[2], 0), h[3] or 'closed', num(h[4], 0), num(h[5], 0),
        redis.call('LLEN', P .. 'q:' .. ARGV[1]), now, h[6] or '', num(h[7], -1), num(h[8], 0), h[9] or ''}
)lua");
    return script;
}

// ARGV: cursor, count, now. One SSCAN step over the crawl's hosts with each host's state:
// {next cursor, host, in flight, queued, next start, pause, breaker, breaker until, starts, breaker why,
//  in-flight override, interval override (-1: none), pace in-flight limit (-1: none), pace gap, pace why,
//  ...}
const RedisScript &hostsPage() {
    static const RedisScript script = withPrelude(R"lua(
local now = now_ms(ARGV[3])
local scan = redis.call('SSCAN', P .. 'hosts', ARGV[1], 'COUNT', tonumber(ARGV[2]))
local out = {scan[1]}
for _, host in ipairs(scan[2]) do
    local hin = P .. 'hin:' .. host
    redis.call('ZREMRANGEBYSCORE', hin, '-inf', now)
    local h = redis.call('HMGET', P .. 'host:' .. host, 'next', 'pause', 'breaker', 'breaker_until', 'starts',
        'bk_why', 'o_inflight', 'o_interval', 'pace_limit', 'pace_gap', 'pace_why', 'upause', 'uskip')
    out[#out + 1] = host
    out[#out + 1] = redis.call('ZCARD', hin)
    out[#out + 1] = redis.call('LLEN', P .. 'q:' .. host)
    out[#out + 1] = num(h[1], 0)
    out[#out + 1] = num(h[2], 0)
    out[#out + 1] = h[3] or 'closed'
    out[#out + 1] = num(h[4], 0)
    out[#out + 1] = num(h[5], 0)
    out[#out + 1] = h[6] or ''
    out[#out + 1] = num(h[7], -1)
    out[#out + 1] = num(h[8], -1)
    out[#out + 1] = num(h[9], -1)
    out[#out + 1] = num(h[10], 0)
    out[#out + 1] = h[11] or ''
    out[#out + 1] = (h[12] == '1' and 1 or 0) + (h[13] == '1' and 2 or 0)
end
return out
)lua");
    return script;
}

// ARGV: batch id, now, then (url, normalized url, host, line) per URL. Returns {added, duplicates}.
const RedisScript &enqueue() {
    static const RedisScript script = withPrelude(R"lua(
local done = redis.call('HGET', P .. 'batches', ARGV[1])
if done then
    local a, d = string.match(done, '(%d+) (%d+)')
    return {tonumber(a), tonumber(d)}
end
local now = now_ms(ARGV[2])
local added, dups = 0, 0
for i = 3, #ARGV, 4 do
    local norm, host = ARGV[i + 1], ARGV[i + 2]
    if redis.call('HEXISTS', P .. 'urlid', norm) == 1 then
        dups = dups + 1
    else
        local id = redis.call('HINCRBY', P .. 'counts', 'nextid', 1)
        redis.call('HSET', P .. 'urlid', norm, id)
        redis.call('HSET', P .. 'u:' .. id, 'url', ARGV[i], 'norm', norm, 'host', host, 'line', ARGV[i + 3],
            'attempts', 0, 'state', 'queued')
        redis.call('RPUSH', P .. 'q:' .. host, id)
        redis.call('SADD', P .. 'hosts', host)
        if not redis.call('ZSCORE', P .. 'sched', host) then
            redis.call('ZADD', P .. 'sched', eligible_at(host, now), host)
        end
        added = added + 1
    end
end
counts('enqueued', added, 'queued', added, 'duplicates', dups)
redis.call('HSET', P .. 'batches', ARGV[1], added .. ' ' .. dups)
return {added, dups}
)lua");
    return script;
}

// ARGV: owner, lease id, ttl ms, now, hosts to look at.
// {1, id, url, host, attempts, line, expiry, now, host in flight, skip, breaker why} or {0, time to ask again
// (-1: none), now}. skip 1: the host was given up; the worker acknowledges the URL as `skipped` unfetched
// (the lease took no slot and counted no attempt), breaker why says why (P host:<h> bk_why).
const RedisScript &lease() {
    static const RedisScript script = withPrelude(R"lua(
local owner, lease, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = now_ms(ARGV[4])
local lk = P .. 'l:' .. lease
local function granted(id, host, expiry)
    local u = redis.call('HMGET', P .. 'u:' .. id, 'url', 'attempts', 'line')
    local skip = num(redis.call('HGET', lk, 'skip'), 0)
    return {1, id, u[1], host, tonumber(u[2]), u[3], expiry, now, redis.call('ZCARD', P .. 'hin:' .. host), skip,
        redis.call('HGET', P .. 'host:' .. host, 'bk_why') or ''}
end
local existing = redis.call('HMGET', lk, 'id', 'owner', 'host', 'state')
if existing[1] then
    if existing[2] ~= owner then return redis.error_reply('lease id ' .. lease .. ' belongs to another worker') end
    local exp = redis.call('ZSCORE', P .. 'leases', lease)
    if existing[4] == 'leased' and exp and tonumber(exp) > now then return granted(existing[1], existing[3], tonumber(exp)) end
    return redis.error_reply('lease id ' .. lease .. ' was already used (' .. existing[4] .. ')')
end
expire_due(now, 64)
local hosts = redis.call('ZRANGEBYSCORE', P .. 'sched', '-inf', now, 'LIMIT', 0, tonumber(ARGV[5]))
local rateAt = -1
for _, host in ipairs(hosts) do
    if redis.call('LLEN', P .. 'q:' .. host) == 0 then
        -- Scheduled with nothing queued: a tripped host whose give-up is due (reschedule); giving it up
        -- queues its URLs waiting for a retry, leased as skips from the next call.
        local g = giveup_at(host)
        if g > 0 and g <= now and redis.call('HGET', P .. 'host:' .. host, 'breaker') == 'open' and
            breaker_settings().on then
            give_up(host, now)
        end
        if redis.call('LLEN', P .. 'q:' .. host) == 0 then redis.call('ZREM', P .. 'sched', host) end
    else
        -- The host's start as it was before this grant: a lease that sends nothing gives it back (acknowledge).
        local before = redis.call('HMGET', P .. 'host:' .. host, 'next', 'last_start')
        local rateBefore = redis.call('HMGET', P .. 'rate', 'next', 'last')
        local r = budget_try(host, lease, now, ttl)
        -- 7: given up, 9: skipped by the user. The URL is still leased (its row goes through acknowledge like
        -- any other, exactly once; a worker that dies holding it loses nothing), but without a slot or an
        -- attempt.
        local skip = r[3] == 7 or r[3] == 9
        if r[1] == 1 or skip then
            local id = redis.call('LPOP', P .. 'q:' .. host)
            local uk = P .. 'u:' .. id
            if not skip then redis.call('HINCRBY', uk, 'attempts', 1) end
            redis.call('HSET', uk, 'state', 'leased', 'lease', lease)
            redis.call('ZADD', P .. 'leases', now + ttl, lease)
            redis.call('HSET', lk, 'id', id, 'owner', owner, 'host', host, 'state', 'leased')
            if skip then
                redis.call('HSET', lk, 'skip', r[3] == 9 and 2 or 1)
            else
                redis.call('HSET', lk, 'granted', now, 'b_next', before[1] or '', 'b_last', before[2] or '')
                -- The crawl-wide rate slot too, when this grant took one (--max-rate).
                local rateAfter = redis.call('HGET', P .. 'rate', 'last')
                if rateAfter and rateAfter ~= rateBefore[2] then
                    redis.call('HSET', lk, 'r_after', rateAfter, 'r_next', rateBefore[1] or '',
                        'r_last', rateBefore[2] or '')
                end
            end
            counts('queued', -1, 'leased', 1)
            reschedule(host, now)
            return granted(id, host, now + ttl)
        elseif r[3] == 5 or r[3] == 6 then
            if r[3] == 6 then rateAt = r[2] end
            break
        else
            redis.call('ZADD', P .. 'sched', r[2], host)
        end
    end
end
local first = redis.call('ZRANGE', P .. 'sched', 0, 0, 'WITHSCORES')
local nextDelayed = redis.call('ZRANGE', P .. 'delayed', 0, 0, 'WITHSCORES')
local at = -1
if first[2] then at = tonumber(first[2]) end
if nextDelayed[2] and (at < 0 or tonumber(nextDelayed[2]) < at) then at = tonumber(nextDelayed[2]) end
if rateAt > 0 and at >= 0 then at = math.max(at, rateAt) end
return {0, at, now}
)lua");
    return script;
}

// ARGV: owner, lease id, ttl, now. {1, new expiry} or {0, reason}
const RedisScript &renewLease() {
    static const RedisScript script = withPrelude(R"lua(
local owner, lease, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = now_ms(ARGV[4])
local l, why = live_lease(lease, owner, now)
if not l then return {0, why} end
redis.call('ZADD', P .. 'leases', now + ttl, lease)
redis.call('ZADD', P .. 'hin:' .. l[3], 'XX', now + ttl, lease)
redis.call('ZADD', P .. 'gin', 'XX', now + ttl, lease)
return {1, now + ttl}
)lua");
    return script;
}

// ARGV: owner, lease id, now, sent ("0": no request was made, e.g. robots.txt blocked the URL: the lease's
// start is given back), then alternating result field/value. {1, stream id} or {0, reason}.
// Exactly once: only the live lease of its owner may write the URL's result; a replay of an accepted call
// answers with the same stream id.
const RedisScript &acknowledge() {
    static const RedisScript script = withPrelude(R"lua(
local owner, lease = ARGV[1], ARGV[2]
local now = now_ms(ARGV[3])
local l, why, seen = live_lease(lease, owner, now)
if not l then
    if why == 'acked' then return {1, seen[5]} end
    return {0, why}
end
local id, host = l[1], l[3]
if redis.call('HSETNX', P .. 'done', id, lease) == 0 then return {0, 'done'} end
if ARGV[4] == '0' then give_back_start(lease, host) end
local uk = P .. 'u:' .. id
local u = redis.call('HMGET', uk, 'url', 'line', 'attempts')
local fields = {'id', id, 'url', u[1], 'line', u[2], 'attempts', u[3], 'owner', owner}
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
local sid = redis.call('XADD', P .. 'results', '*', unpack(fields))
redis.call('ZREM', P .. 'leases', lease)
redis.call('HSET', P .. 'l:' .. lease, 'state', 'acked', 'stream', sid)
redis.call('PEXPIRE', P .. 'l:' .. lease, 3600000)
redis.call('HSET', uk, 'state', 'done', 'lease', '')
counts('leased', -1, 'done', 1)
budget_finish(host, lease, now)
return {1, sid}
)lua");
    return script;
}

// ARGV: now, then per row: input line number, n, and n values (alternating result field/value). The rows the
// coordinator writes itself (invalid lines, lines out of scope) go to the results stream too, marked `input`,
// so a window shows them as a local crawl does; once per line (a resumed coordinator sends them again).
// Returns how many were added.
const RedisScript &addInputRows() {
    static const RedisScript script = withPrelude(R"lua(
local i, added = 2, 0
while i <= #ARGV do
    local line, n = ARGV[i], tonumber(ARGV[i + 1])
    if redis.call('HSETNX', P .. 'inputrows', line, 1) == 1 then
        local fields = {'id', 0, 'line', line, 'attempts', 0, 'owner', '', 'input', 1}
        for k = i + 2, i + 1 + n do fields[#fields + 1] = ARGV[k] end
        redis.call('XADD', P .. 'results', '*', unpack(fields))
        added = added + 1
    end
    i = i + 2 + n
end
counts('inputrows', added)
return added
)lua");
    return script;
}

// ARGV: owner, lease id, not-before ms, now, attempted ("0": the URL was not sent, the lease's attempt is
// taken back), sent ("0": nothing at all reached the host, its start and rate slot are given back). Ends the
// lease without a result: the URL waits out its retry delay (without holding any slot) and then joins its
// host's queue again. {1} or {0, reason}
const RedisScript &retryLater() {
    static const RedisScript script = withPrelude(R"lua(
local owner, lease = ARGV[1], ARGV[2]
local now = now_ms(ARGV[4])
local l, why = live_lease(lease, owner, now)
if not l then return {0, why} end
local id, host = l[1], l[3]
redis.call('ZREM', P .. 'leases', lease)
redis.call('HSET', P .. 'l:' .. lease, 'state', 'released')
redis.call('PEXPIRE', P .. 'l:' .. lease, 3600000)
local skip = redis.call('HGET', P .. 'l:' .. lease, 'skip') ~= false
if ARGV[5] == '0' and not skip then redis.call('HINCRBY', P .. 'u:' .. id, 'attempts', -1) end
if ARGV[6] == '0' then give_back_start(lease, host) end
-- A retry on a host given up meanwhile (the failed probe that gave it up, an attempt that was in flight)
-- or skipped by the user waits for nothing: it is queued at once and ends as `skipped` (`cancelled`).
local hs = redis.call('HMGET', P .. 'host:' .. host, 'breaker', 'uskip')
local gaveUp = (hs[1] == 'gaveup' and breaker_settings().on) or hs[2] == '1'
if tonumber(ARGV[3]) <= now or gaveUp then
    -- Due now (given back unsent, a worker going away): the front of its host's queue, its turn kept.
    redis.call('HSET', P .. 'u:' .. id, 'state', 'queued', 'lease', '')
    redis.call('LPUSH', P .. 'q:' .. host, id)
    counts('leased', -1, 'queued', 1)
else
    redis.call('HSET', P .. 'u:' .. id, 'state', 'delayed', 'lease', '')
    redis.call('ZADD', P .. 'delayed', tonumber(ARGV[3]), id)
    counts('leased', -1, 'delayed', 1)
end
budget_finish(host, lease, now)
return {1}
)lua");
    return script;
}

// ARGV: now, limit. Returns the number of leases that had expired.
const RedisScript &expireLeases() {
    static const RedisScript script = withPrelude(R"lua(
return expire_due(now_ms(ARGV[1]), tonumber(ARGV[2]))
)lua");
    return script;
}

// ARGV: worker id, in flight, rate (requests/s x 1000), now. Returns the server time.
const RedisScript &heartbeat() {
    static const RedisScript script = withPrelude(R"lua(
local now = now_ms(ARGV[4])
redis.call('HSET', P .. 'w:' .. ARGV[1], 'inflight', ARGV[2], 'rate', ARGV[3], 'hb', now)
redis.call('ZADD', P .. 'workers', now, ARGV[1])
return now
)lua");
    return script;
}

// ARGV: now. {now, id1, inflight1, rate1, hb1, id2, ...}
const RedisScript &workers() {
    static const RedisScript script = withPrelude(R"lua(
local out = {now_ms(ARGV[1])}
for _, id in ipairs(redis.call('ZRANGE', P .. 'workers', 0, -1)) do
    local w = redis.call('HMGET', P .. 'w:' .. id, 'inflight', 'rate', 'hb')
    out[#out + 1] = id
    out[#out + 1] = num(w[1], 0)
    out[#out + 1] = num(w[2], 0)
    out[#out + 1] = num(w[3], 0)
end
return out
)lua");
    return script;
}

// ARGV: reader id, last stream id read ("0-0": none yet), ttl ms, now. A window watching the results stream
// says how far it has read, so trimResults keeps what it has not; an entry expires unless refreshed.
const RedisScript &markReader() {
    static const RedisScript script = withPrelude(R"lua(
local now = now_ms(ARGV[4])
redis.call('HSET', P .. 'readers', ARGV[1], (now + tonumber(ARGV[3])) .. ' ' .. ARGV[2])
return now
)lua");
    return script;
}

// ARGV: first stream id to keep ("ms-seq"), now. Trims the results stream before that id, but never past
// what a live reader (markReader) has not read yet; expired readers are dropped. Returns entries removed.
const RedisScript &trimResults() {
    static const RedisScript script = withPrelude(R"lua(
local now = now_ms(ARGV[2])
local function split(id)
    local ms, seq = string.match(id, '^(%d+)-(%d+)$')
    return tonumber(ms), tonumber(seq)
end
local keepMs, keepSeq = split(ARGV[1])
local readers = redis.call('HGETALL', P .. 'readers')
for i = 1, #readers, 2 do
    local expiry, pos = string.match(readers[i + 1], '^(%d+) (.*)$')
    local ms, seq
    if pos then ms, seq = split(pos) end
    if expiry == nil or tonumber(expiry) < now or ms == nil then
        redis.call('HDEL', P .. 'readers', readers[i])
    elseif ms < keepMs or (ms == keepMs and seq + 1 < keepSeq) then
        keepMs, keepSeq = ms, seq + 1
    end
end
return redis.call('XTRIM', P .. 'results', 'MINID', string.format('%d-%d', keepMs, keepSeq))
)lua");
    return script;
}

} // namespace crawl::ClusterScripts
