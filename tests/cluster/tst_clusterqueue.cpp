// ClusterQueue against a real redis-server: deduplicated enqueue, leases that expire when their worker
// stops renewing (the URL returns with its attempt counted and completes on another worker), exactly one
// acknowledged result per URL (late, foreign and replayed acks), retries that wait without a slot, worker
// heartbeats, and a redis-server restart in the middle of a multi-worker run.
#include "cluster/clusterhostbudget.h"
#include "cluster/clusterqueue.h"
#include "cluster/redisconnection.h"
#include "input/urlnormalizer.h"
#include "redistestserver.h"

#include <QScopeGuard>
#include <QSet>
#include <QTest>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

using namespace crawl;

namespace {

QString crawlName() {
    return QString::fromLatin1(QTest::currentTestFunction());
}

ClusterUrl clusterUrl(const QString &text, qint64 line) {
    const NormalizedUrl normalized = normalizeUrl(text);
    return {text, normalized.text, normalized.hostKey, line};
}

QList<ClusterUrl> siteUrls(int count, int hosts) {
    QList<ClusterUrl> urls;
    for (int i = 0; i < count; ++i)
        urls.append(clusterUrl(QStringLiteral("http://h%1.test/page/%2").arg(i % hosts).arg(i), i + 1));
    return urls;
}

const QList<QPair<QByteArray, QByteArray>> kOkResult{{"outcome", "ok"}, {"status", "200"}};

// What each worker thread did, for the assertions.
struct WorkerLog {
    std::mutex mutex;
    QList<QByteArray> acceptedLeases;
    QList<QPair<QByteArray, qint64>> abandoned; // (lease id, URL id) the "crashed" worker never finished
    std::atomic<int> refusedAcks{0};
    std::atomic<int> errors{0};
    std::atomic<int> reconnects{0}; // summed over the workers' connections when they stop
    QStringList errorTexts;
};

// A worker thread's loop: lease, "fetch" (a short sleep stands for the request), acknowledge. A worker with
// dieAfter >= 0 takes that many leases and then stops dead, holding them: no renewal, no ack (kill -9).
void runWorker(const RedisUrl &url, const QString &crawl, const QByteArray &owner, int dieAfter, qint64 ttlMs,
               const std::atomic<bool> &stop, WorkerLog &log) {
    RedisConnection::Options options;
    options.clientName = owner;
    RedisConnection connection(url, options);
    ClusterQueue queue(connection, crawl);
    const auto countReconnects =
        qScopeGuard([&] { log.reconnects += static_cast<int>(connection.reconnects()); });
    int taken = 0;
    for (int n = 0; !stop.load(); ++n) {
        const QByteArray leaseId = owner + ':' + QByteArray::number(n);
        const LeaseResult result = queue.lease(owner, leaseId, ttlMs);
        if (!result.error.isEmpty()) {
            ++log.errors;
            const std::lock_guard lock(log.mutex);
            log.errorTexts.append(result.error);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            continue;
        }
        if (!result.lease) {
            const qint64 waitMs = result.askAgainAtMs < 0 ? 20 : result.askAgainAtMs - result.serverNowMs;
            std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp<qint64>(waitMs, 1, 20)));
            continue;
        }
        if (dieAfter >= 0) {
            const std::lock_guard lock(log.mutex);
            log.abandoned.append({leaseId, result.lease->urlId});
            if (++taken == dieAfter)
                return;
            continue;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(3 + n % 7));
        const AckResult ack = queue.acknowledge(owner, leaseId, kOkResult);
        if (!ack.error.isEmpty()) {
            ++log.errors;
            const std::lock_guard lock(log.mutex);
            log.errorTexts.append(ack.error);
        } else if (ack.accepted) {
            const std::lock_guard lock(log.mutex);
            log.acceptedLeases.append(leaseId);
        } else {
            ++log.refusedAcks;
        }
    }
}

// Every result in the stream, checked to be exactly one per URL id 1..count.
QString checkExactlyOnePerUrl(ClusterQueue &queue, int count, QList<ClusterResultRecord> *all) {
    QByteArray after;
    for (;;) {
        const QList<ClusterResultRecord> page = queue.readResults(after, 500);
        if (page.isEmpty())
            break;
        all->append(page);
        after = page.last().streamId;
    }
    QSet<qint64> ids;
    for (const ClusterResultRecord &record : std::as_const(*all)) {
        const qint64 id = record.fields.value("id").toLongLong();
        if (ids.contains(id))
            return QStringLiteral("URL id %1 has two results").arg(id);
        ids.insert(id);
    }
    if (all->size() != count)
        return QStringLiteral("%1 results for %2 URLs").arg(all->size()).arg(count);
    for (qint64 id = 1; id <= count; ++id) {
        if (!ids.contains(id))
            return QStringLiteral("URL id %1 has no result").arg(id);
    }
    return {};
}

} // namespace

class TestClusterQueue : public QObject {
    Q_OBJECT
private:
    RedisTestServer m_server;

    bool waitUntilDone(ClusterQueue &queue, qint64 expected, int timeoutMs) {
        return QTest::qWaitFor([&] { return queue.counts().done >= expected; }, timeoutMs);
    }

private Q_SLOTS:
    void initTestCase() { REDIS_TEST_SERVER_START(m_server); }

    void createOnceAndKeepSettings() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(!queue.crawlExists());
        QVERIFY2(queue.createCrawl({{QStringLiteral("input"), QStringLiteral("urls.txt")}}),
                 qPrintable(queue.lastError()));
        QVERIFY(queue.crawlExists());
        QVERIFY(!queue.createCrawl({}));
        QVERIFY(queue.lastError().contains(QStringLiteral("already exists")));
        QCOMPARE(queue.settings().value(QStringLiteral("input")), QStringLiteral("urls.txt"));
        ClusterQueue badName(connection, QStringLiteral("no spaces"));
        QVERIFY(!badName.createCrawl({}));
        QString error;
        QVERIFY(ClusterQueue::crawlNames(connection, &error).contains(crawlName()));
        QVERIFY(error.isEmpty());
        QVERIFY(!ClusterQueue::crawlNames(connection).contains(QStringLiteral("no spaces")));
    }

    void enqueueDeduplicatesAndAReplayAddsNothing() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        const QList<ClusterUrl> urls{clusterUrl(QStringLiteral("http://a.test/x"), 1),
                                     clusterUrl(QStringLiteral("HTTP://A.test:80/x#frag"), 2),
                                     clusterUrl(QStringLiteral("http://b.test/"), 3)};
        EnqueueResult r = queue.enqueue(urls, "batch-1");
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.added, 2);
        QCOMPARE(r.duplicates, 1);
        r = queue.enqueue(urls, "batch-1"); // the same batch again (a reconnect replay)
        QCOMPARE(r.added, 2);
        QCOMPARE(r.duplicates, 1);
        r = queue.enqueue({clusterUrl(QStringLiteral("http://b.test/"), 4)}, "batch-2");
        QCOMPARE(r.added, 0);
        QCOMPARE(r.duplicates, 1);
        const ClusterCounts counts = queue.counts();
        QCOMPARE(counts.enqueued, 2);
        QCOMPARE(counts.queued, 2);
        QCOMPARE(counts.duplicates, 2);
    }

    void expiredLeaseReturnsAndCompletesExactlyOnceOnAnotherOwner() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, crawlName()).setLimits({10, 1, 0, 0, 0}));
        QCOMPARE(queue
                     .enqueue({clusterUrl(QStringLiteral("http://h.test/1"), 1),
                               clusterUrl(QStringLiteral("http://h.test/2"), 2)},
                              "b", 0)
                     .added,
                 2);

        const LeaseResult a = queue.lease("A", "A:1", 1'000, 1'000);
        QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
        QVERIFY(a.lease);
        QCOMPARE(a.lease->url, QStringLiteral("http://h.test/1"));
        QCOMPARE(a.lease->attempts, 1);
        QCOMPARE(a.lease->expiresMs, 2'000);

        LeaseResult b = queue.lease("B", "B:1", 1'000, 1'500);
        QVERIFY2(!b.lease, "per host 1: the second URL waits for A's slot");
        QCOMPARE(b.askAgainAtMs, 2'000);

        // A stops renewing. After the expiry its URL is back at the front of the queue, attempt counted.
        b = queue.lease("B", "B:1", 1'000, 2'001);
        QVERIFY(b.lease);
        QCOMPARE(b.lease->urlId, a.lease->urlId);
        QCOMPARE(b.lease->attempts, 2);
        QCOMPARE(queue.counts().expired, 1);

        AckResult ack = queue.acknowledge("A", "A:1", kOkResult, 2'100);
        QVERIFY(!ack.accepted);
        QCOMPARE(ack.refusal, QStringLiteral("expired"));
        ack = queue.acknowledge("A", "B:1", kOkResult, 2'100);
        QVERIFY(!ack.accepted);
        QCOMPARE(ack.refusal, QStringLiteral("foreign"));
        QCOMPARE(queue.renew("A", "A:1", 1'000, 2'100).refusal, QStringLiteral("expired"));

        ack = queue.acknowledge("B", "B:1", kOkResult, 2'200);
        QVERIFY(ack.accepted);
        const AckResult replay = queue.acknowledge("B", "B:1", kOkResult, 2'300);
        QVERIFY(replay.accepted);
        QCOMPARE(replay.streamId, ack.streamId);

        const QList<ClusterResultRecord> results = queue.readResults({}, 10);
        QCOMPARE(results.size(), 1);
        QCOMPARE(results[0].fields.value("url"), QByteArray("http://h.test/1"));
        QCOMPARE(results[0].fields.value("owner"), QByteArray("B"));
        QCOMPARE(results[0].fields.value("attempts"), QByteArray("2"));
        QCOMPARE(results[0].fields.value("outcome"), QByteArray("ok"));
        QCOMPARE(results[0].fields.value("line"), QByteArray("1"));

        // B's slot is free again: the second URL starts.
        const LeaseResult next = queue.lease("B", "B:2", 1'000, 2'300);
        QVERIFY(next.lease);
        QCOMPARE(next.lease->url, QStringLiteral("http://h.test/2"));
        const ClusterCounts counts = queue.counts();
        QCOMPARE(counts.done, 1);
        QCOMPARE(counts.leased, 1);
        QCOMPARE(counts.queued, 0);
    }

    void renewalKeepsALeaseAlive() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        queue.enqueue({clusterUrl(QStringLiteral("http://h.test/slow"), 1)}, "b", 0);
        QVERIFY(queue.lease("A", "A:1", 500, 1'000).lease);
        for (qint64 now = 1'400; now <= 3'000; now += 400)
            QVERIFY(queue.renew("A", "A:1", 500, now).renewed);
        QCOMPARE(queue.expireLeases(100, 3'200), 0);
        QVERIFY(!queue.lease("B", "B:1", 500, 3'200).lease);
        QVERIFY(queue.acknowledge("A", "A:1", kOkResult, 3'300).accepted);
        QCOMPARE(queue.counts().expired, 0);
    }

    void leaseReplayReturnsTheSameUrl() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, crawlName()).setLimits({10, 4, 0, 0, 0}));
        queue.enqueue(siteUrls(3, 1), "b", 0);
        const LeaseResult first = queue.lease("A", "A:1", 5'000, 1'000);
        const LeaseResult replay = queue.lease("A", "A:1", 5'000, 1'010);
        QVERIFY(first.lease && replay.lease);
        QCOMPARE(replay.lease->urlId, first.lease->urlId);
        QCOMPARE(queue.counts().leased, 1);
        QVERIFY(queue.lease("B", "A:1", 5'000, 1'020).error.contains(QStringLiteral("another worker")));
    }

    void retryWaitsWithoutHoldingASlot() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, crawlName()).setLimits({10, 1, 0, 0, 0}));
        queue.enqueue({clusterUrl(QStringLiteral("http://h.test/flaky"), 1),
                       clusterUrl(QStringLiteral("http://h.test/fine"), 2)},
                      "b", 0);
        const LeaseResult flaky = queue.lease("A", "A:1", 5'000, 1'000);
        QVERIFY(flaky.lease);
        QCOMPARE(flaky.lease->url, QStringLiteral("http://h.test/flaky"));
        QVERIFY(queue.retryLater("A", "A:1", 4'000, 1'100).renewed); // a 503: retry in 2.9 s
        const LeaseResult fine = queue.lease("A", "A:2", 5'000, 1'100);
        QVERIFY2(fine.lease, "the retry holds no slot while it waits");
        QCOMPARE(fine.lease->url, QStringLiteral("http://h.test/fine"));
        QVERIFY(queue.acknowledge("A", "A:2", kOkResult, 1'200).accepted);
        LeaseResult again = queue.lease("A", "A:3", 5'000, 1'300);
        QVERIFY(!again.lease);
        QCOMPARE(again.askAgainAtMs, 4'000);
        again = queue.lease("A", "A:3", 5'000, 4'000);
        QVERIFY(again.lease);
        QCOMPARE(again.lease->url, QStringLiteral("http://h.test/flaky"));
        QCOMPARE(again.lease->attempts, 2);
        QVERIFY(!queue.acknowledge("A", "A:1", kOkResult, 4'100).accepted); // the released lease
    }

    // A worker that got a lease too late to send it in time gives it back: queued again at once, and the
    // attempt the lease counted is taken back (a replay of the give-back takes nothing more).
    void aLeaseGivenBackUnusedDoesNotCountAnAttempt() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, crawlName()).setLimits({10, 1, 0, 0, 0}));
        queue.enqueue({clusterUrl(QStringLiteral("http://h.test/late"), 1)}, "b", 0);
        QVERIFY(queue.lease("A", "A:1", 5'000, 1'000).lease);
        QVERIFY(queue.giveBack("A", "A:1", 1'010).renewed);
        QVERIFY(!queue.giveBack("A", "A:1", 1'011).renewed);
        const LeaseResult again = queue.lease("B", "B:1", 5'000, 1'020);
        QVERIFY(again.lease);
        QCOMPARE(again.lease->url, QStringLiteral("http://h.test/late"));
        QCOMPARE(again.lease->attempts, 1);
    }

    // A lease given back unsent (it came late) gives back its host's start and the crawl's rate slot too:
    // nothing reached the host, so the next URL may start as if the grant had never been made.
    void aLeaseGivenBackUnusedGivesItsStartBack() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        ClusterHostBudget budget(connection, crawlName());
        ClusterLimits limits{10, 2, 1'000, 0, 0};
        limits.maxRatePerSec = 1; // a start per second over the crawl
        QVERIFY(budget.setLimits(limits));
        queue.enqueue(siteUrls(4, 1), "b", 0);
        const QString host = QStringLiteral("h0.test:80");
        QVERIFY(queue.lease("A", "A:1", 5'000, 1'000).lease);
        QVERIFY(queue.acknowledge("A", "A:1", kOkResult, 1'010).accepted);
        QVERIFY(queue.lease("A", "A:2", 5'000, 2'000).lease);
        QVERIFY(queue.giveBack("A", "A:2", 2'050).renewed);
        QCOMPARE(budget.hostStatus(host, 2'060).nextStartMs, 2'000);
        QCOMPARE(budget.hostStatus(host, 2'060).starts, 1);
        QVERIFY(queue.lease("A", "A:3", 5'000, 2'060).lease);  // neither the interval nor the rate holds it
        QVERIFY(!queue.lease("A", "A:4", 5'000, 2'100).lease); // A:3's start holds
        // Given back after another start (A:6 after A:5): A:6's start and rate slot stay where they are.
        QVERIFY(queue.giveBack("A", "A:3", 2'110).renewed);
        QVERIFY(queue.lease("A", "A:5", 5'000, 2'120).lease);
        QVERIFY(queue.lease("A", "A:6", 5'000, 3'120).lease);
        QVERIFY(queue.giveBack("A", "A:5", 3'130).renewed);
        QCOMPARE(budget.hostStatus(host, 3'140).nextStartMs, 4'120);
        QVERIFY(!queue.lease("A", "A:7", 5'000, 3'140).lease);
        QCOMPARE(queue.lease("A", "A:8", 5'000, 3'140).askAgainAtMs, 4'120);
        // Its slot fetched robots.txt (RequestSent::Yes): the URL goes back, the start stays spent.
        QVERIFY(queue.lease("A", "A:9", 5'000, 4'120).lease);
        QVERIFY(queue.giveBack("A", "A:9", 4'130, ClusterQueue::RequestSent::Yes).renewed);
        QCOMPARE(budget.hostStatus(host, 4'140).nextStartMs, 5'120);
        QVERIFY(!queue.lease("A", "A:10", 5'000, 4'140).lease);
    }

    void aUrlThatKeepsLosingWorkersEndsWithATerminalResult() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, crawlName()).setLimits({10, 1, 0, 2, 0}));
        queue.enqueue({clusterUrl(QStringLiteral("http://h.test/poison"), 7)}, "b", 0);
        QVERIFY(queue.lease("A", "A:1", 100, 1'000).lease);
        const LeaseResult second = queue.lease("B", "B:1", 100, 1'200);
        QVERIFY(second.lease);
        QCOMPARE(second.lease->attempts, 2);
        QCOMPARE(queue.expireLeases(100, 1'400), 1);
        const QList<ClusterResultRecord> results = queue.readResults({}, 10);
        QCOMPARE(results.size(), 1);
        QCOMPARE(results[0].fields.value("outcome"), QByteArray("network_error"));
        QCOMPARE(results[0].fields.value("line"), QByteArray("7"));
        QVERIFY(results[0].fields.value("error").contains("lease expired 2 times"));
        QVERIFY(!queue.lease("C", "C:1", 100, 1'500).lease);
        QCOMPARE(queue.counts().done, 1);
    }

    void hostsPageShowsEveryHostsState() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY(budget.setLimits({10, 2, 100, 0, 0}));
        queue.enqueue(siteUrls(30, 3), "b", 0); // h0..h2, 10 URLs each
        QVERIFY(queue.lease("A", "A:1", 5'000, 1'000).lease);
        QVERIFY(budget.pauseHost(QStringLiteral("h2.test:80"), 9'000, 1'000));
        QMap<QString, HostBudgetStatus> seen;
        QByteArray cursor = "0";
        do {
            const QList<ClusterHostRow> page = queue.hostsPage(cursor, 2, &cursor, 1'000);
            for (const ClusterHostRow &row : page)
                seen.insert(row.host, row.status);
        } while (cursor != "0");
        QCOMPARE(seen.size(), 3);
        int inFlight = 0;
        qint64 queued = 0;
        for (const HostBudgetStatus &status : std::as_const(seen)) {
            inFlight += status.inFlight;
            queued += status.queued;
        }
        QCOMPARE(inFlight, 1);
        QCOMPARE(queued, 29);
        QCOMPARE(seen.value(QStringLiteral("h2.test:80")).pausedUntilMs, 9'000);
        QCOMPARE(seen.value(QStringLiteral("h1.test:80")).breaker, QStringLiteral("closed"));
    }

    // A lease acknowledged without a request (robots.txt blocked it) gives its start back: the host's next
    // URL may start at once, not an interval later; not when the host has started again since.
    void unsentAcknowledgementGivesTheStartBack() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY(budget.setLimits({10, 2, 1'000, 0, 0}));
        queue.enqueue(siteUrls(5, 1), "b", 0);
        const QString host = QStringLiteral("h0.test:80");
        QVERIFY(queue.lease("A", "A:1", 5'000, 1'000).lease);
        QVERIFY(queue.acknowledge("A", "A:1", kOkResult, 1'010).accepted); // sent: the interval holds
        QVERIFY(!queue.lease("A", "A:2", 5'000, 1'020).lease);
        QVERIFY(queue.lease("A", "A:3", 5'000, 2'000).lease);
        QVERIFY(queue.acknowledge("A", "A:3", kOkResult, 2'010, ClusterQueue::RequestSent::No).accepted);
        QCOMPARE(budget.hostStatus(host, 2'020).nextStartMs, 2'000); // as before A:3's grant
        QCOMPARE(budget.hostStatus(host, 2'020).starts, 1);
        QVERIFY(queue.lease("A", "A:4", 5'000, 2'020).lease); // not at 3'000
        // A:5 starts after A:4 (2 in flight): A:4 given back unsent then leaves A:5's start in place.
        QVERIFY(queue.lease("A", "A:5", 5'000, 3'020).lease);
        QVERIFY(queue.acknowledge("A", "A:4", kOkResult, 3'030, ClusterQueue::RequestSent::No).accepted);
        QCOMPARE(budget.hostStatus(host, 3'040).nextStartMs, 4'020);
        QCOMPARE(budget.hostStatus(host, 3'040).starts, 3);
        QCOMPARE(queue.counts().done, 3);
    }

    // The rows the coordinator writes itself reach the stream once per line, marked, and are counted.
    void inputRowsOncePerLine() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        CrawlResult bad;
        bad.lineNumber = 3;
        bad.url = QStringLiteral("not a url");
        bad.outcome = Outcome::InvalidUrl;
        bad.error = QStringLiteral("line 3: not a URL");
        CrawlResult other = bad;
        other.lineNumber = 9;
        QCOMPARE(queue.addInputRows({bad, other}), 2);
        QCOMPARE(queue.addInputRows({bad}), 0); // a resumed coordinator sends it again
        const QList<ClusterResultRecord> rows = queue.readResults({}, 10);
        QCOMPARE(rows.size(), 2);
        QVERIFY(rows[0].isInputRow());
        QCOMPARE(rows[0].fields.value("url"), QByteArray("not a url"));
        QCOMPARE(rows[0].fields.value("line"), QByteArray("3"));
        QCOMPARE(rows[0].fields.value("outcome"), QByteArray("invalid_url"));
        QCOMPARE(rows[0].fields.value("error"), QByteArray("line 3: not a URL"));
        QCOMPARE(queue.counts().inputRows, 2);
        QCOMPARE(queue.counts().done, 0); // not URLs: the crawl's done/enqueued are the URLs'
    }

    // The hosts page carries each host's own limits (an override), or none.
    void hostsPageCarriesOverrides() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        ClusterHostBudget budget(connection, crawlName());
        QVERIFY(budget.setLimits({10, 2, 100, 0, 0}));
        queue.enqueue(siteUrls(6, 3), "b", 0);
        QVERIFY(budget.setHostOverride(QStringLiteral("h1.test:80"), 1, 340));
        QVERIFY(budget.setHostOverride(QStringLiteral("h2.test:80"), 5, std::nullopt));
        QHash<QString, ClusterHostRow> seen;
        QByteArray cursor = "0";
        do {
            for (const ClusterHostRow &row : queue.hostsPage(cursor, 10, &cursor, 1'000))
                seen.insert(row.host, row);
        } while (cursor != "0");
        QCOMPARE(seen.size(), 3);
        QCOMPARE(seen.value(QStringLiteral("h0.test:80")).overrideInFlight, -1);
        QCOMPARE(seen.value(QStringLiteral("h0.test:80")).overrideIntervalMs, -1);
        QCOMPARE(seen.value(QStringLiteral("h1.test:80")).overrideInFlight, 1);
        QCOMPARE(seen.value(QStringLiteral("h1.test:80")).overrideIntervalMs, 340);
        QCOMPARE(seen.value(QStringLiteral("h2.test:80")).overrideInFlight, 5);
        QCOMPARE(seen.value(QStringLiteral("h2.test:80")).overrideIntervalMs, -1);
    }

    void trimmedResultsAreGoneTheRestStay() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, crawlName()).setLimits({10, 10, 0, 0, 0}));
        queue.enqueue(siteUrls(5, 1), "b", 0);
        for (int i = 1; i <= 5; ++i) {
            const QByteArray leaseId = "A:" + QByteArray::number(i);
            QVERIFY(queue.lease("A", leaseId, 5'000, 1'000).lease);
            QVERIFY(queue.acknowledge("A", leaseId, kOkResult, 1'000).accepted);
        }
        const QList<ClusterResultRecord> all = queue.readResults({}, 10);
        QCOMPARE(all.size(), 5);
        QCOMPARE(queue.trimResults(all[2].streamId), 3);
        const QList<ClusterResultRecord> rest = queue.readResults({}, 10);
        QCOMPARE(rest.size(), 2);
        QCOMPARE(rest[0].streamId, all[3].streamId);
        QCOMPARE(queue.trimResults("garbage"), -1);
    }

    void heartbeatsShowEachWorkerAndTheDeadOnes() {
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawlName());
        QVERIFY(queue.createCrawl({}));
        QVERIFY(queue.heartbeat("worker-1", 4, 12.5, 10'000));
        QVERIFY(queue.heartbeat("worker-2", 2, 3.25));
        qint64 now = 0;
        const QList<WorkerStatus> workers = queue.workers(&now);
        QCOMPARE(workers.size(), 2);
        QCOMPARE(workers[0].id, QStringLiteral("worker-1"));
        QCOMPARE(workers[0].inFlight, 4);
        QCOMPARE(workers[0].requestsPerSecond, 12.5);
        QCOMPARE(workers[1].requestsPerSecond, 3.25);
        QVERIFY(isWorkerDead(workers[0], now, 5'000)); // its last heartbeat was at 10 s after the epoch
        QVERIFY(!isWorkerDead(workers[1], now, 5'000));
    }

    // 4 workers on 300 URLs over 6 hosts; one takes 3 leases and stops dead (kill -9). Its URLs come back
    // after the lease expiry and complete on the others; every URL ends with exactly one result.
    void deadWorkersLeasesCompleteOnTheOthers() {
        constexpr int kUrls = 300;
        const QString crawl = crawlName();
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, crawl).setLimits({16, 2, 0, 0, 0}));
        QCOMPARE(queue.enqueue(siteUrls(kUrls, 6), "all").added, kUrls);

        std::atomic<bool> stop{false};
        WorkerLog log;
        std::vector<std::thread> workers;
        workers.emplace_back(runWorker, m_server.url(), crawl, QByteArray("doomed"), 3, 400, std::cref(stop),
                             std::ref(log));
        for (int i = 1; i <= 3; ++i)
            workers.emplace_back(runWorker, m_server.url(), crawl, "w" + QByteArray::number(i), -1, 2'000,
                                 std::cref(stop), std::ref(log));
        const bool done = waitUntilDone(queue, kUrls, 60'000);
        stop = true;
        for (auto &worker : workers)
            worker.join();
        QVERIFY2(log.errors.load() == 0, qPrintable(log.errorTexts.join(u'\n')));
        QVERIFY2(done, qPrintable(QStringLiteral("done %1 of %2").arg(queue.counts().done).arg(kUrls)));

        QList<ClusterResultRecord> results;
        const QString problem = checkExactlyOnePerUrl(queue, kUrls, &results);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(log.abandoned.size(), 3);
        for (const auto &[leaseId, urlId] : std::as_const(log.abandoned)) {
            const auto it =
                std::find_if(results.cbegin(), results.cend(), [id = urlId](const ClusterResultRecord &r) {
                    return r.fields.value("id").toLongLong() == id;
                });
            QVERIFY(it != results.cend());
            QVERIFY(it->fields.value("owner") != "doomed");
            QCOMPARE(it->fields.value("attempts"), QByteArray("2"));
            // The dead worker "wakes up" and acknowledges late: refused, its result is dropped.
            const AckResult late = queue.acknowledge("doomed", leaseId, kOkResult);
            QVERIFY(!late.accepted);
            QCOMPARE(late.refusal, QStringLiteral("expired"));
        }
        QCOMPARE(queue.counts().expired, 3);
        QCOMPARE(log.acceptedLeases.size(), kUrls);
        QCOMPARE(log.refusedAcks.load(), 0);
    }

    // Last (they restart the server): 3 workers on 400 URLs; redis-server is stopped (SIGTERM) or killed
    // (SIGKILL) and started again in the middle. The workers reconnect on their own (re-sending what lost its
    // answer), the state (queue, leases, results) survives through the append-only file, and every URL still
    // ends with exactly one result: each acknowledgement a worker saw accepted is in the stream.
    void survivesARedisRestartMidRun_data() {
        QTest::addColumn<bool>("kill9");
        QTest::newRow("SIGTERM") << false;
        QTest::newRow("SIGKILL") << true;
    }

    void survivesARedisRestartMidRun() {
        QFETCH(bool, kill9);
        constexpr int kUrls = 400;
        const QString crawl = crawlName() + QLatin1String(kill9 ? "-kill" : "-term");
        RedisConnection connection(m_server.url());
        ClusterQueue queue(connection, crawl);
        QVERIFY(queue.createCrawl({}));
        QVERIFY(ClusterHostBudget(connection, crawl).setLimits({16, 2, 0, 0, 0}));
        QCOMPARE(queue.enqueue(siteUrls(kUrls, 8), "all").added, kUrls);

        std::atomic<bool> stop{false};
        WorkerLog log;
        std::vector<std::thread> workers;
        for (int i = 1; i <= 3; ++i)
            workers.emplace_back(runWorker, m_server.url(), crawl, "w" + QByteArray::number(i), -1, 5'000,
                                 std::cref(stop), std::ref(log));
        QVERIFY(waitUntilDone(queue, kUrls / 4, 60'000));
        const qint64 doneBefore = queue.counts().done;
        if (kill9)
            m_server.kill();
        else
            m_server.stop();
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        const ClusterCounts afterRestart = queue.counts();
        QVERIFY2(afterRestart.error.isEmpty(), qPrintable(afterRestart.error));
        QCOMPARE(afterRestart.enqueued, kUrls);
        QVERIFY(afterRestart.done >= doneBefore);

        const bool done = waitUntilDone(queue, kUrls, 60'000);
        stop = true;
        for (auto &worker : workers)
            worker.join();
        QVERIFY2(log.errors.load() == 0, qPrintable(log.errorTexts.join(u'\n')));
        QVERIFY(done);
        QList<ClusterResultRecord> results;
        const QString problem = checkExactlyOnePerUrl(queue, kUrls, &results);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(log.acceptedLeases.size(), kUrls);
        qInfo("done before the restart: %lld of %d; reconnects: workers %d, the test's own connection %llu",
              static_cast<long long>(doneBefore), kUrls, log.reconnects.load(),
              static_cast<unsigned long long>(connection.reconnects()));
        QVERIFY2(log.reconnects.load() >= 3, "every worker lost its connection and reopened it");
        QVERIFY(connection.reconnects() >= 1);
    }
};

QTEST_GUILESS_MAIN(TestClusterQueue)
#include "tst_clusterqueue.moc"
