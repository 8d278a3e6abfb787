// The pure parts of the --cluster commands: a result's round trip through the results stream's fields,
// the shared limits the flags turn into (with the interval guard), and which flag combinations parse.
#include "cluster/clusterlimits.h"
#include "cluster/clusterresultcodec.h"
#include "clusterflags.h"
#include "clustersummarytally.h"
#include "commandline.h"
#include "output/csvwriter.h"

#include <QTest>
#include <QTimeZone>

using namespace crawl;

class TestClusterCommands : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resultRoundTripsThroughStreamFields() {
        CrawlResult r;
        r.url = QStringLiteral("http://a.test/x");
        r.finalUrl = QStringLiteral("http://a.test/y");
        r.host = QStringLiteral("a.test:80");
        r.status = 404;
        r.outcome = Outcome::HttpError;
        r.attempts = 3;
        r.redirects = 1;
        r.bytes = 1234;
        r.contentType = QStringLiteral("text/html; charset=utf-8");
        r.latencyMs = 87;
        r.ttfbMs = 12;
        r.error = QStringLiteral("404 Not Found, with \"quotes\", commas\nand a line break");
        r.startedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'000'123, Qt::UTC);
        r.finishedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'001'456, Qt::UTC);
        r.redirectChain = {QStringLiteral("http://a.test/x"), QStringLiteral("http://a.test/y")};
        r.warning = QStringLiteral("w");
        r.accepted = CrawlResult::Accepted::No;
        r.rejectReason = QStringLiteral("status 404");
        r.title = QStringLiteral("Not found");
        QMap<QByteArray, QByteArray> fields;
        for (const auto &[name, value] : ClusterResultCodec::encode(r))
            fields.insert(name, value);
        // What the acknowledge script adds itself.
        fields.insert("id", "17");
        fields.insert("url", r.url.toUtf8());
        fields.insert("line", "5");
        fields.insert("attempts", "3");
        const CrawlResult back = ClusterResultCodec::decode(fields);
        CrawlResult expected = r;
        expected.id = 17;
        expected.lineNumber = 5;
        QCOMPARE(resultCsvRow(back), resultCsvRow(expected));
        QCOMPARE(back.redirectChain, r.redirectChain);
        QCOMPARE(back.id, quint64(17));
    }

    void entryWithoutWorkerFieldsIsStillARow() {
        // What an expired lease past maxattempts writes: no status, no times.
        const CrawlResult r = ClusterResultCodec::decode({{"id", "3"},
                                                          {"url", "http://a.test/"},
                                                          {"line", "9"},
                                                          {"attempts", "5"},
                                                          {"outcome", "network_error"},
                                                          {"error", "lease expired 5 times"}});
        QCOMPARE(r.outcome, Outcome::NetworkError);
        QCOMPARE(r.status, 0);
        QCOMPARE(r.latencyMs, qint64(-1));
        QCOMPARE(r.attempts, 5);
        const CrawlResult unknown = ClusterResultCodec::decode({{"id", "4"}, {"outcome", "exploded"}});
        QCOMPARE(unknown.outcome, Outcome::NetworkError);
        QVERIFY(!unknown.error.isEmpty());
    }

    void limitsCarryTheIntervalGuard() {
        CrawlLimits limits;
        limits.globalInFlight = 40;
        limits.perHostInFlight = 4;
        limits.intervalMs = 200;
        limits.hostOverrides.insert(QStringLiteral("a.test:80"), HostOverride{1, 1000});
        limits.hostOverrides.insert(QStringLiteral("b.test:80"), HostOverride{2, -1});
        limits.hostOverrides.insert(QStringLiteral("c.test:80"), HostOverride{2, 0});
        FetchPolicy policy;
        policy.maxRetries = 2;
        const ClusterLimits all = clusterLimitsFor(limits, policy, ClusterLimits{});
        QCOMPARE(all.globalInFlight, 40);
        QCOMPARE(all.perHostInFlight, 4);
        QCOMPARE(all.intervalMs, 200 + kClusterIntervalGuardMs);
        QCOMPARE(all.maxAttempts, 5);
        QCOMPARE(userIntervalMs(all.intervalMs), qint64(200));
        QCOMPARE(all.jitterPermille, 0);
        limits.jitter = 0.25;
        QCOMPARE(clusterLimitsFor(limits, policy, ClusterLimits{}).jitterPermille, 250);
        limits.jitter = 0;
        limits.intervalMs = 0; // no pacing stays no pacing
        QCOMPARE(clusterLimitsFor(limits, policy, ClusterLimits{}).intervalMs, qint64(0));
        limits.intervalMs = 200;
        const QHash<QString, ClusterHostOverride> overrides = clusterHostOverridesFor(limits);
        QCOMPARE(overrides.value(QStringLiteral("a.test:80")).inFlight, 1);
        QCOMPARE(overrides.value(QStringLiteral("a.test:80")).intervalMs, 1000 + kClusterIntervalGuardMs);
        QCOMPARE(overrides.value(QStringLiteral("b.test:80")).intervalMs, 200 + kClusterIntervalGuardMs);
        QCOMPARE(overrides.value(QStringLiteral("c.test:80")).intervalMs, qint64(0));

        // --cluster-set: only the flags given change.
        ClusterLimits current{16, 2, 525, 6, 9};
        CrawlLimits given;
        given.perHostInFlight = 7;
        const ClusterLimits changed = clusterLimitsFor(given, policy, current, {QStringLiteral("per-host")});
        QCOMPARE(changed.perHostInFlight, 7);
        QCOMPARE(changed.globalInFlight, 16);
        QCOMPARE(changed.intervalMs, qint64(525));
        QCOMPARE(changed.maxAttempts, 6);
        // --adaptive is stored with the others, and changes only when given (a switch: --cluster-set turns it
        // on; the window's box, which always gives it, turns it off too).
        QVERIFY(!changed.adaptive);
        given.adaptive = true;
        QVERIFY(clusterLimitsFor(given, policy, ClusterLimits{}).adaptive);
        ClusterLimits on = current;
        on.adaptive = true;
        QVERIFY(clusterLimitsFor(CrawlLimits{}, policy, on, {QStringLiteral("per-host")}).adaptive);
        QVERIFY(!clusterLimitsFor(CrawlLimits{}, policy, on, {QStringLiteral("adaptive")}).adaptive);
        // --cluster-set --no-adaptive turns it off; --breaker / --no-breaker switch the shared breaker.
        QVERIFY(!clusterLimitsFor(CrawlLimits{}, policy, on, {QStringLiteral("no-adaptive")}).adaptive);
        ClusterLimits noBreaker = current;
        noBreaker.breaker.enabled = false;
        FetchPolicy breakerOn;
        breakerOn.breaker.enabled = true;
        QVERIFY(clusterLimitsFor(CrawlLimits{}, breakerOn, noBreaker, {QStringLiteral("breaker")})
                    .breaker.enabled);
        QVERIFY(!clusterLimitsFor(CrawlLimits{}, breakerOn, noBreaker, {QStringLiteral("per-host")})
                     .breaker.enabled);
        FetchPolicy breakerOff;
        breakerOff.breaker.enabled = false;
        QVERIFY(!clusterLimitsFor(CrawlLimits{}, breakerOff, current, {QStringLiteral("no-breaker")})
                     .breaker.enabled);
    }

    void clusterFlags_data() {
        QTest::addColumn<QString>("arguments"); // split at spaces; URL stands for a Redis URL
        QTest::addColumn<QString>("error");     // empty: parses
        const auto row = [](const char *name, const char *arguments, const char *error) {
            QTest::newRow(name) << QString::fromLatin1(arguments) << QString::fromLatin1(error);
        };
        row("worker", "--headless --worker --cluster URL", "");
        row("worker with crawl", "--headless --worker --cluster URL --crawl c1 --concurrency 8", "");
        row("coordinator", "--headless --input l.txt --cluster URL --crawl c1 --robots ignore", "");
        row("coordinator obeying robots", "--headless --input l.txt --cluster URL --crawl c1", "");
        row("coordinator reporting robots",
            "--headless --input l.txt --cluster URL --crawl c1 --robots report --robots-agent MyBot", "");
        row("coordinator with a bad robots mode",
            "--headless --input l.txt --cluster URL --crawl c1 --robots x", "--robots must be");
        row("coordinator with scope",
            "--headless --input l.txt --cluster URL --crawl c1 --robots ignore --include a", "");
        row("coordinator with allowed hosts",
            "--headless --input l.txt --cluster URL --crawl c1 --robots ignore --allow-hosts hosts.txt",
            "--allow-hosts");
        row("set", "--cluster URL --crawl c1 --cluster-set --per-host 3", "");
        row("worker without cluster", "--headless --worker", "need --cluster");
        row("worker without headless", "--worker --cluster URL", "add --headless");
        row("coordinator without crawl", "--headless --input l.txt --cluster URL", "needs --crawl");
        row("worker with input", "--headless --worker --cluster URL --input l.txt", "take no --input");
        row("cluster with store", "--headless --input l --cluster URL --crawl c --store s.db", "");
        row("resume with store", "--headless --input l --cluster URL --resume c --store s.db", "");
        row("worker with store", "--headless --worker --cluster URL --store s.db", "does not go with");
        row("worker with a header", "--headless --worker --cluster URL --header Authorization:x", "");
        row("summary json",
            "--headless --input l --cluster URL --crawl c --robots ignore --summary-json s.json", "");
        row("worker summary json", "--headless --worker --cluster URL --summary-json s.json",
            "not written by a --worker");
        row("set and worker", "--headless --worker --cluster-set --cluster URL --crawl c", "separate jobs");
        row("coordinator with jitter",
            "--headless --input l.txt --cluster URL --crawl c1 --robots ignore --jitter 0.5", "");
        row("set jitter", "--cluster URL --crawl c1 --cluster-set --jitter 0.2", "");
        row("coordinator with max rate",
            "--headless --input l.txt --cluster URL --crawl c1 --robots ignore --max-rate 5", "");
        row("set max rate", "--cluster URL --crawl c1 --cluster-set --max-rate 7.5", "");
        row("coordinator with a breaker",
            "--headless --input l.txt --cluster URL --crawl c1 --robots ignore --breaker-window 5 "
            "--breaker-threshold 1 --breaker-cooldown 2",
            "");
        row("set breaker", "--cluster URL --crawl c1 --cluster-set --breaker-cooldown 9", "");
        row("coordinator with give-up",
            "--headless --input l.txt --cluster URL --crawl c1 --robots ignore --breaker-give-up 60", "");
        row("set give-up", "--cluster URL --crawl c1 --cluster-set --breaker-give-up 120", "");
        row("worker with give-up", "--headless --worker --cluster URL --breaker-give-up 60",
            "--breaker-give-up is a shared limit");
        row("coordinator with adaptive",
            "--headless --input l.txt --cluster URL --crawl c1 --robots ignore --adaptive", "");
        row("set adaptive", "--cluster URL --crawl c1 --cluster-set --adaptive", "");
        row("worker with adaptive", "--headless --worker --cluster URL --adaptive",
            "--adaptive is a shared limit");
        row("set no adaptive", "--cluster URL --crawl c1 --cluster-set --no-adaptive", "");
        row("set breaker on", "--cluster URL --crawl c1 --cluster-set --breaker", "");
        row("set breaker off", "--cluster URL --crawl c1 --cluster-set --no-breaker", "");
        row("adaptive both ways", "--cluster URL --crawl c1 --cluster-set --adaptive --no-adaptive",
            "contradict");
        row("breaker both ways", "--headless --input l.txt --breaker --no-breaker", "contradict");
        row("worker with no-breaker", "--headless --worker --cluster URL --no-breaker",
            "--no-breaker is a shared limit");
        row("coordinator with threads",
            "--headless --input l.txt --cluster URL --crawl c1 --robots ignore --threads 3",
            "fetches nothing");
        row("resume shared crawl", "--headless --input l.txt --cluster URL --resume c1 --output o.csv", "");
        row("resume with the same crawl", "--headless --input l.txt --cluster URL --resume c1 --crawl c1",
            "");
        row("resume another crawl", "--headless --input l.txt --cluster URL --resume c1 --crawl c2",
            "differs");
        row("resume with a limit", "--headless --input l.txt --cluster URL --resume c1 --per-host 2",
            "--per-host cannot change a shared crawl being resumed");
        row("resume without input", "--headless --cluster URL --resume c1", "--input FILE");
        row("resume a bad name", "--headless --input l.txt --cluster URL --resume a}b", "--resume");
        row("worker resuming", "--headless --worker --cluster URL --resume c1", "not --worker");
        // Flags a worker would accept and silently not apply are refused, saying where they belong.
        row("worker with output", "--headless --worker --cluster URL --output o.csv",
            "--output is not written by a --worker");
        row("worker with per-host", "--headless --worker --cluster URL --per-host 2", "--cluster-set");
        row("worker with timeout", "--headless --worker --cluster URL --timeout 5",
            "--timeout does not apply to a --worker");
        row("worker with user agent", "--headless --worker --cluster URL --user-agent X/1",
            "give it to the coordinator");
        row("worker with robots", "--headless --worker --cluster URL --robots obey",
            "--robots does not apply");
        row("worker with threads", "--headless --worker --cluster URL --threads 4", "start more workers");
    }

    // --resume NAME with --cluster names the crawl; the stored journal path stays unused.
    void clusterResumeNamesTheCrawl() {
        const CommandLineParse parsed = parseCommandLine(
            {QStringLiteral("crawlscope"), QStringLiteral("--headless"), QStringLiteral("--input"),
             QStringLiteral("l.txt"), QStringLiteral("--cluster"), QStringLiteral("redis://127.0.0.1:6379/0"),
             QStringLiteral("--resume"), QStringLiteral("shop")});
        QVERIFY2(parsed.ok, qPrintable(parsed.error));
        QCOMPARE(parsed.options.crawlName, QStringLiteral("shop"));
        QCOMPARE(parsed.options.mode, CommandLineOptions::Mode::Headless);
        QCOMPARE(parsed.options.input, QStringLiteral("l.txt"));
    }

    // The coordinator's summary is counted from the rows it writes: outcomes, retries, acceptance, per host.
    void summaryTallyCountsRows() {
        ClusterSummaryTally tally;
        const auto row = [](const char *host, Outcome outcome, int attempts, int status, qint64 latencyMs,
                            CrawlResult::Accepted accepted) {
            CrawlResult r;
            r.host = QString::fromLatin1(host);
            r.outcome = outcome;
            r.attempts = attempts;
            r.status = status;
            r.latencyMs = latencyMs;
            r.accepted = accepted;
            return r;
        };
        tally.add(row("a.test:80", Outcome::Ok, 1, 200, 10, CrawlResult::Accepted::Yes));
        tally.add(row("a.test:80", Outcome::Ok, 3, 200, 30, CrawlResult::Accepted::No));
        tally.add(row("b.test:80", Outcome::HttpError, 2, 429, 20, CrawlResult::Accepted::Unknown));
        tally.add(row("", Outcome::InvalidUrl, 0, 0, -1, CrawlResult::Accepted::Unknown));
        CrawlLimits limits;
        limits.perHostInFlight = 3;
        const CrawlSummary summary = tally.summary(2000, 5, limits, false);
        const CrawlSnapshot &s = summary.last;
        QCOMPARE(s.done, qint64(4));
        QCOMPARE(s.total, qint64(4));
        QCOMPARE(s.ok, qint64(2));
        QCOMPARE(s.failed, qint64(2));
        QCOMPARE(s.invalid, qint64(1));
        QCOMPARE(s.duplicates, qint64(5));
        QCOMPARE(s.retries, qint64(3)); // 2 + 1 attempts beyond the first
        QCOMPARE(s.status429, qint64(1));
        QCOMPARE(s.accepted, qint64(1));
        QCOMPARE(s.rejected, qint64(1));
        QCOMPARE(s.byOutcome[size_t(Outcome::HttpError)], qint64(1));
        QCOMPARE(s.byOutcome[size_t(Outcome::InvalidUrl)], qint64(1));
        QVERIFY(s.p50Ms >= 15 && s.p50Ms <= 25); // histogram buckets: about the middle value
        QCOMPARE(s.hosts.size(), 2);
        QCOMPARE(s.hosts[0].host, QStringLiteral("a.test:80"));
        QCOMPARE(s.hosts[0].done, qint64(2));
        QCOMPARE(s.hosts[0].started, qint64(4));
        QCOMPARE(s.hosts[0].maxInFlight, 3);
        QCOMPARE(s.hosts[1].failed, qint64(1));
        // Interrupted: the total is not known.
        QCOMPARE(tally.summary(2000, 5, limits, true).last.total, qint64(-1));
        QVERIFY(tally.summary(2000, 5, limits, true).stoppedByUser);
    }

    void coordinatorFlagRefusal() {
        QVERIFY(clusterCoordinatorFlagRefusal({QStringLiteral("per-host"), QStringLiteral("interval-ms"),
                                               QStringLiteral("retries"), QStringLiteral("include")})
                    .isEmpty());
        QVERIFY(clusterCoordinatorFlagRefusal({QStringLiteral("jitter")}).isEmpty()); // shared since then
        // Shared since the breaker and the rate cap live in Redis too.
        QVERIFY(clusterCoordinatorFlagRefusal(
                    {QStringLiteral("max-rate"), QStringLiteral("breaker-window"),
                     QStringLiteral("breaker-threshold"), QStringLiteral("breaker-cooldown"),
                     QStringLiteral("no-breaker"), QStringLiteral("breaker-give-up")})
                    .isEmpty());
        // Shared since each host's pace lives in Redis too (clusterpace.h).
        QVERIFY(clusterCoordinatorFlagRefusal({QStringLiteral("per-host"), QStringLiteral("adaptive")})
                    .isEmpty());
        QVERIFY(clusterCoordinatorFlagRefusal({QStringLiteral("per-host"), QStringLiteral("threads")})
                    .startsWith(QStringLiteral("--threads ")));
    }

    // The rule itself: what a worker applies passes, the first other flag is named with its reason.
    void workerFlagRefusal() {
        QVERIFY(clusterWorkerFlagRefusal({}).isEmpty());
        QVERIFY(clusterWorkerFlagRefusal({QStringLiteral("headless"), QStringLiteral("worker"),
                                          QStringLiteral("cluster"), QStringLiteral("crawl"),
                                          QStringLiteral("concurrency")})
                    .isEmpty());
        QVERIFY(clusterWorkerFlagRefusal({QStringLiteral("worker"), QStringLiteral("output")})
                    .startsWith(QLatin1String("--output ")));
        QVERIFY(clusterWorkerFlagRefusal({QStringLiteral("summary-json")})
                    .contains(QLatin1String("coordinator")));
        QVERIFY(
            clusterWorkerFlagRefusal({QStringLiteral("retries")}).contains(QLatin1String("--cluster-set")));
        QVERIFY(clusterWorkerFlagRefusal({QStringLiteral("quiet")}).startsWith(QLatin1String("--quiet ")));
        QVERIFY(clusterWorkerFlagRefusal({QStringLiteral("max-rate"), QStringLiteral("jitter")})
                    .startsWith(QLatin1String("--max-rate ")));
    }
    void clusterFlags() {
        QFETCH(QString, arguments);
        QFETCH(QString, error);
        QStringList argv{QStringLiteral("crawlscope")};
        for (const QString &word : arguments.split(QLatin1Char(' ')))
            argv << (word == QLatin1String("URL") ? QStringLiteral("redis://127.0.0.1:6379/0") : word);
        const CommandLineParse parsed = parseCommandLine(argv);
        if (error.isEmpty()) {
            QVERIFY2(parsed.ok, qPrintable(parsed.error));
            // The cluster flags are not crawl flags the workers would read back.
            for (const QString &flag : parsed.options.crawlArguments)
                QVERIFY2(!flag.startsWith(QLatin1String("--cluster")) &&
                             !flag.startsWith(QLatin1String("--crawl")) &&
                             !flag.startsWith(QLatin1String("--worker")),
                         qPrintable(flag));
        } else {
            QVERIFY(!parsed.ok);
            QVERIFY2(parsed.error.contains(error), qPrintable(parsed.error));
        }
    }
};

QTEST_GUILESS_MAIN(TestClusterCommands)
#include "tst_clustercommands.moc"
