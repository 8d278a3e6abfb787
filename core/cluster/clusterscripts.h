#pragma once

#include "cluster/redisscript.h"

namespace crawl {

// The Lua scripts behind ClusterHostBudget and ClusterQueue. Each runs atomically on the Redis server, so
// any number of workers together never exceed one host's limits. KEYS[1] is always the crawl's key prefix
// (clusterKeyPrefix); the per-host keys are built from it inside the scripts, which one Redis allows. (A
// Redis Cluster would need them declared; the prefix carries a {hash tag} so one crawl stays on one node.)
//
// Time is the server's clock (TIME) unless a test passes an explicit `now`: workers on several machines
// then agree on "next allowed start" whatever their own clocks say.
//
// Replays: a caller whose answer was lost (reconnect) sends the same call again with the same grant/lease
// id; every script recognises its own id and answers as the first call did, so a replay never takes a
// second slot or a second URL.
namespace ClusterScripts {
const RedisScript &createCrawl();
const RedisScript &setLimits();
const RedisScript &setHostOverride();
const RedisScript &tryStart();
const RedisScript &finished();
const RedisScript &renewGrant();
const RedisScript &pauseHost();
const RedisScript &hostAction();
const RedisScript &setBreaker();
const RedisScript &recordAttempt();
const RedisScript &commitPace();
const RedisScript &hostStatus();
const RedisScript &hostsPage();
const RedisScript &enqueue();
const RedisScript &lease();
const RedisScript &renewLease();
const RedisScript &acknowledge();
const RedisScript &addInputRows();
const RedisScript &retryLater();
const RedisScript &expireLeases();
const RedisScript &heartbeat();
const RedisScript &workers();
const RedisScript &markReader();
const RedisScript &trimResults();
} // namespace ClusterScripts

} // namespace crawl
