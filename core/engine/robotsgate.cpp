#include "engine/robotsgate.h"

#include "robots/robotsfetchpolicy.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace crawl {

namespace {

constexpr qint64 kNsPerMs = 1'000'000;

QString secondsText(double seconds) {
    return QString::number(seconds, 'g', 4) + QStringLiteral(" s");
}

} // namespace

void RobotsGate::configure(const CrawlQuality &quality) {
    if (quality.robotsAgent != m_agent || quality.robots != m_mode) {
        // Rules parsed for another product token (or a crawl that did not fetch them) no longer apply.
        m_hosts.clear();
        m_crawlDelayMs.clear();
    }
    m_mode = quality.robots;
    m_agent = quality.robotsAgent.isEmpty() ? QByteArrayLiteral("crawlscope") : quality.robotsAgent;
    m_retry = quality.robotsRetry;
    m_refetchNs = std::max<qint64>(1, quality.robotsRefetchMs) * kNsPerMs;
    if (quality.ignoreCrawlDelay != m_ignoreCrawlDelay) {
        m_ignoreCrawlDelay = quality.ignoreCrawlDelay;
        m_crawlDelayMs.clear();
        if (!m_ignoreCrawlDelay) {
            for (const auto &[key, entry] : m_hosts) {
                for (const Origin *origin : {&entry.http, &entry.https}) {
                    if (const auto delay = origin->rules.crawlDelaySeconds(); delay && *delay > 0)
                        m_crawlDelayMs[key] =
                            std::max(m_crawlDelayMs.value(key), int(std::min(*delay * 1000.0, 86'400'000.0)));
                }
            }
        }
    }
}

RobotsGate::Entry &RobotsGate::entryFor(const QString &hostKey, qint64 nowNs) {
    auto it = m_hosts.find(hostKey);
    if (it == m_hosts.end()) {
        if (m_hosts.size() >= kMaxHosts)
            evictIdle();
        it = m_hosts.emplace(hostKey, Entry{}).first;
    }
    it->second.lastUsedNs = nowNs;
    return it->second;
}

void RobotsGate::evictIdle() {
    // Drop the least recently used tenth of the origins whose rules are settled (never one being fetched:
    // its URLs wait for the answer). Amortized: one sort per kMaxHosts / 10 new hosts.
    std::vector<std::pair<qint64, QString>> idle;
    idle.reserve(m_hosts.size());
    for (const auto &[key, entry] : m_hosts) {
        if (entry.http.state != State::Fetching && entry.https.state != State::Fetching &&
            entry.http.state != State::RetryWait && entry.https.state != State::RetryWait)
            idle.emplace_back(entry.lastUsedNs, key);
    }
    const size_t drop = std::min(idle.size(), std::max<size_t>(1, kMaxHosts / 10));
    std::partial_sort(idle.begin(), idle.begin() + qsizetype(drop), idle.end());
    for (size_t i = 0; i < drop; ++i) {
        m_hosts.erase(idle[i].second);
        m_crawlDelayMs.remove(idle[i].second);
    }
}

RobotsGate::Decision RobotsGate::admit(Job &job, qint64 nowNs) {
    Decision decision;
    if (m_mode == RobotsMode::Ignore)
        return decision;
    const bool https = job.currentUrl.scheme() == QLatin1String("https");
    Origin &origin = originOf(entryFor(job.currentHost, nowNs), https);
    switch (origin.state) {
    case State::Unknown:
        decision.action = Action::FetchRobots;
        return decision;
    case State::Fetching:
        decision.action = Action::Hold;
        return decision;
    case State::RetryWait:
        if (nowNs >= origin.retryAtNs) {
            decision.action = Action::FetchRobots;
        } else if (m_mode == RobotsMode::Report) {
            job.robotsNote = origin.status; // report only: nothing waits for an unreachable robots.txt
        } else {
            decision.action = Action::Hold;
            decision.wakeAtNs = origin.retryAtNs;
        }
        return decision;
    case State::Known:
        break;
    }
    if (nowNs - origin.fetchedNs >= m_refetchNs) {
        decision.action = Action::FetchRobots; // long crawls: the site may have changed its rules
        return decision;
    }
    const RobotsVerdict verdict = origin.rules.check(job.currentUrl);
    if (verdict.allowed)
        return decision;
    if (m_mode == RobotsMode::Report) {
        job.robotsNote = verdict.reason;
        return decision;
    }
    decision.action = Action::Block;
    decision.reason = verdict.reason;
    return decision;
}

Job RobotsGate::robotsJob(const Job &job, qint64 nowNs) {
    const bool https = job.currentUrl.scheme() == QLatin1String("https");
    Origin &origin = originOf(entryFor(job.currentHost, nowNs), https);
    origin.state = State::Fetching;
    ++origin.attempts;
    origin.status = QStringLiteral("fetching robots.txt");

    QUrl url;
    url.setScheme(job.currentUrl.scheme());
    url.setHost(job.currentUrl.host());
    url.setPort(job.currentUrl.port());
    url.setPath(QStringLiteral("/robots.txt"));
    Job fetch;
    fetch.robotsFetch = true;
    fetch.inputUrl = url.toString(QUrl::FullyEncoded);
    fetch.inputHost = job.currentHost;
    fetch.currentUrl = url;
    fetch.currentHost = job.currentHost;
    // Counted as an attempt already made, so the shard neither counts it as an input URL starting nor
    // increments its attempts (startRequest): one robots fetch is one request.
    fetch.attempts = 1;
    fetch.redoAttempt = true;
    fetch.enqueuedNs = nowNs;
    fetch.firstStartNs = nowNs;
    return fetch;
}

QString RobotsGate::onFetched(const RobotsFetchOutcome &outcome, qint64 nowNs) {
    Origin &origin = originOf(entryFor(outcome.hostKey, nowNs), outcome.https);
    const RobotsFetchDecision decision =
        decideRobotsFetch(outcome.status, outcome.tooManyRedirects, std::max(1, origin.attempts), m_retry);
    origin.fetchedNs = nowNs;
    switch (decision.action) {
    case RobotsFetchDecision::Action::Parse:
        origin.rules = RobotsRules::parse(outcome.body, m_agent);
        origin.status = QStringLiteral("robots.txt: %1 rules").arg(origin.rules.rules().size());
        break;
    case RobotsFetchDecision::Action::AllowAll:
        origin.rules = RobotsRules::allowAll(decision.reason);
        origin.status = decision.reason;
        break;
    case RobotsFetchDecision::Action::DisallowAll:
        origin.rules = RobotsRules::disallowAll(decision.reason);
        origin.status = decision.reason;
        break;
    }
    if (decision.retry) {
        // Unreachable for now: the host's URLs wait (not failed) until the next robots fetch.
        origin.state = State::RetryWait;
        origin.retryAtNs = nowNs + decision.retryDelayMs * kNsPerMs;
        return outcome.hostKey;
    }
    origin.state = State::Known;
    origin.attempts = 0;
    if (const auto delay = origin.rules.crawlDelaySeconds(); delay && *delay > 0) {
        origin.status += QStringLiteral(", Crawl-delay %1").arg(secondsText(*delay));
        if (m_ignoreCrawlDelay) {
            origin.status += QStringLiteral(" (ignored)");
        } else {
            // A day at most: a hostile file must not park a host for ever (the interval is an int of ms).
            const int ms = int(std::min(std::ceil(*delay * 1000.0 - 1e-6), 86'400'000.0)); // 0.3 s is 300 ms
            m_crawlDelayMs[outcome.hostKey] = std::max(m_crawlDelayMs.value(outcome.hostKey), ms);
        }
    }
    return outcome.hostKey;
}

QString RobotsGate::statusText(const QString &hostKey) const {
    if (m_mode == RobotsMode::Ignore)
        return {};
    const auto it = m_hosts.find(hostKey);
    if (it == m_hosts.end())
        return {};
    const Entry &entry = it->second;
    if (entry.https.state != State::Unknown && entry.http.state != State::Unknown)
        return QStringLiteral("http: %1; https: %2").arg(entry.http.status, entry.https.status);
    return entry.https.state != State::Unknown ? entry.https.status : entry.http.status;
}

} // namespace crawl
