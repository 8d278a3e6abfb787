#pragma once

#include <QByteArray>
#include <QMetaType>
#include <QString>

namespace crawl {

class RedisConnection;

// What one host's /robots.txt fetch ended with, as stored for every worker of a shared crawl.
struct ClusterRobotsEntry {
    int status = 0;                // final status after redirects; 0 when nothing answered
    bool tooManyRedirects = false; // the redirect limit was hit (read as "no robots.txt")
    QByteArray body;               // at most RobotsRules::maxParsedBytes
    int attempt = 1;               // 1-based robots fetch of the current round (5xx / no answer retried)
};

// The answer to "what are this host's rules?".
struct ClusterRobotsLookup {
    enum class State {
        Known,   // `entry` is stored; it is valid for `remainingMs` more
        FetchIt, // this worker holds the host's lock: fetch robots.txt (its attempt is `attempt`)
        Wait,    // another worker is fetching it (its lock ends within `remainingMs`)
    };
    State state = State::Wait;
    ClusterRobotsEntry entry;
    int attempt = 1;
    qint64 remainingMs = 0;
    QString error; // Redis could not be asked
};

// robots.txt shared by the workers of one crawl (issue 15): the first worker that needs a host's rules takes
// the host's lock and fetches /robots.txt, the others wait and then read what it stored. Keys under the
// crawl's prefix P: `P robots:<h>` (hash: status, toomany, body, attempt; expires with the cache lifetime,
// or after the retry delay for a 5xx / unreachable robots.txt), `P robotslock:<h>` (the fetching worker's
// id, with an expiry: a worker that dies while fetching frees it) and `P robotsfail:<h>` (failed fetches of
// the current round, so the next worker's attempt is counted on); a Crawl-delay goes to
// `P host:<key>` (field crawldelay), which the budget scripts read. Not thread-safe: one per worker thread.
class ClusterRobotsStore {
public:
    ClusterRobotsStore(RedisConnection &connection, const QString &crawlName);

    ClusterRobotsLookup lookup(const QString &host, const QByteArray &workerId, qint64 lockTtlMs);
    // Stores the outcome for `ttlMs` and frees the lock if `workerId` holds it. `retry`: the fetch failed
    // and will be tried again (its attempt is remembered for the next round for `failuresTtlMs`).
    // `crawlDelayMs` > 0 becomes the least start interval of `hostKey` in the shared budget (from its last
    // start on); 0 removes it.
    bool store(const QString &host, const QByteArray &workerId, const ClusterRobotsEntry &entry, qint64 ttlMs,
               bool retry, qint64 failuresTtlMs, const QString &hostKey, qint64 crawlDelayMs, QString *error);
    // A fetch given up (the worker stops): the next worker fetches at once.
    bool unlock(const QString &host, const QByteArray &workerId, QString *error);

private:
    RedisConnection &m_connection;
    QByteArray m_prefix;
};

} // namespace crawl

Q_DECLARE_METATYPE(crawl::ClusterRobotsLookup)
Q_DECLARE_METATYPE(crawl::ClusterRobotsEntry)
