#pragma once

#include "engine/job.h"
#include "model/crawlquality.h"
#include "robots/robotsrules.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <unordered_map>

namespace crawl {

// How a /robots.txt fetch ended, handed back to the shard that owns the origin (a redirect can end it on
// another shard).
struct RobotsFetchOutcome {
    QString hostKey;
    bool https = false;
    int status = 0; // final status after redirects; 0 when nothing answered
    bool tooManyRedirects = false;
    QByteArray body; // at most RobotsRules::maxParsedBytes
};

// robots.txt for one fetch shard's hosts (issue 13): whether a URL may start, when each origin's
// robots.txt must be fetched first, and the Crawl-delay each host asks for. Origins are kept by host key
// (the shard's unit) with one slot per scheme, in a map of its own: HostQueue objects can be evicted, the
// rules must outlive them. The map is bounded; an origin dropped from it has its robots.txt fetched again
// when its URLs come back.
class RobotsGate {
public:
    enum class Action {
        Start,       // the URL may start (allowed, or robots ignored); report mode may set job.robotsNote
        Hold,        // its origin's robots.txt is being fetched or waits for a retry: the host waits
        FetchRobots, // start robotsJob() in this slot first; the URL stays queued
        Block,       // disallowed: end it as blocked_robots with `reason`, without a request
    };
    struct Decision {
        Action action = Action::Start;
        QString reason;      // Block: "Disallow: /private (robots.txt line 3)"
        qint64 wakeAtNs = 0; // Hold: when to look again (a retry is due), 0: when the fetch ends
    };

    void configure(const CrawlQuality &quality);
    bool active() const { return m_mode != RobotsMode::Ignore; }

    // For the URL at the front of a host's queue (not a robots fetch), just before it would take a slot.
    // Report mode marks `job` instead of blocking it.
    Decision admit(Job &job, qint64 nowNs);
    // The /robots.txt request for `job`'s origin, and its origin marked as being fetched.
    Job robotsJob(const Job &job, qint64 nowNs);
    // A fetch ended; returns the host key whose URLs may go on (or are now blocked).
    QString onFetched(const RobotsFetchOutcome &outcome, qint64 nowNs);

    // The host's Crawl-delay in ms (0: none, or ignored).
    int crawlDelayMs(const QString &hostKey) const {
        if (m_crawlDelayMs.isEmpty())
            return 0;
        return m_crawlDelayMs.value(hostKey, 0);
    }
    // For the hosts view: "robots.txt: 3 rules, Crawl-delay 2 s", "fetching robots.txt", ...
    QString statusText(const QString &hostKey) const;

    // The bound of the origin map (entries are evicted least recently used beyond it).
    static constexpr size_t kMaxHosts = 20'000;

private:
    enum class State { Unknown, Fetching, RetryWait, Known };
    struct Origin {
        State state = State::Unknown;
        RobotsRules rules;
        qint64 fetchedNs = 0;
        qint64 retryAtNs = 0;
        int attempts = 0; // robots fetches of the current round (reset once the rules are known)
        QString status;
    };
    struct Entry {
        Origin http;
        Origin https;
        qint64 lastUsedNs = 0;
    };
    Origin &originOf(Entry &entry, bool https) { return https ? entry.https : entry.http; }
    Entry &entryFor(const QString &hostKey, qint64 nowNs);
    void evictIdle();

    RobotsMode m_mode = RobotsMode::Ignore;
    QByteArray m_agent = "crawlscope";
    bool m_ignoreCrawlDelay = false;
    RobotsRetrySettings m_retry;
    qint64 m_refetchNs = 0;
    std::unordered_map<QString, Entry> m_hosts;
    QHash<QString, int> m_crawlDelayMs; // only hosts that ask for one
};

} // namespace crawl
