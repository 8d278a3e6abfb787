// Command-line parsing: defaults, flags, host limits, headers, and errors that name the flag.
#include "commandline.h"
#include "input/urlnormalizer.h"

#include <QTest>

#include <utility>

using namespace crawl;

class TestCommandLine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void commandLineDefaultsAndFlags() {
        const auto parsed = parseCommandLine(
            {QStringLiteral("crawlscope"), QStringLiteral("--headless"), QStringLiteral("--input"),
             QStringLiteral("list.txt"), QStringLiteral("--per-host"), QStringLiteral("8"),
             QStringLiteral("--host-limit"), QStringLiteral("slow.test=1/2000"),
             QStringLiteral("--host-limit"), QStringLiteral("127.0.0.2:8080=3"), QStringLiteral("--header"),
             QStringLiteral("X-Team: qa"), QStringLiteral("--jitter"), QStringLiteral("0.25")});
        QVERIFY2(parsed.ok, qPrintable(parsed.error));
        const CommandLineOptions &o = parsed.options;
        QCOMPARE(o.mode, CommandLineOptions::Mode::Headless);
        QCOMPARE(o.limits.globalInFlight, 16);
        QCOMPARE(o.limits.perHostInFlight, 8);
        QCOMPARE(o.limits.intervalMs, 500);
        QCOMPARE(o.limits.jitter, 0.25);
        QCOMPARE(o.policy.maxRetries, 3);
        QCOMPARE(o.policy.maxBodyBytes, qint64(10485760));
        QCOMPARE(o.limits.maxInFlightFor(QStringLiteral("slow.test:80")), 1);
        QCOMPARE(o.limits.maxInFlightFor(QStringLiteral("slow.test:443")), 1);
        QCOMPARE(o.limits.intervalMsFor(QStringLiteral("slow.test:443")), 2000);
        QCOMPARE(o.limits.maxInFlightFor(QStringLiteral("127.0.0.2:8080")), 3);
        QCOMPARE(o.limits.intervalMsFor(QStringLiteral("127.0.0.2:8080")), 500); // inherited
        QCOMPARE(o.limits.maxInFlightFor(QStringLiteral("other.test:80")), 8);
        QCOMPARE(o.policy.headers.size(), 1);
        QCOMPARE(o.policy.headers[0].first, QByteArray("X-Team"));
    }

    // Issue 13: robots.txt is obeyed by default on the command line; scope and acceptance flags.
    void qualityFlags() {
        const auto defaults = parseCommandLine({QStringLiteral("crawlscope")});
        QVERIFY(defaults.ok);
        QCOMPARE(defaults.options.quality.robots, RobotsMode::Obey);
        QCOMPARE(defaults.options.quality.robotsAgent, QByteArray("crawlscope"));
        QVERIFY(!defaults.options.quality.scope.restrictsAnything());
        QCOMPARE(defaults.options.quality.acceptance.soft404, Soft404Mode::Report);

        const auto parsed = parseCommandLine({QStringLiteral("crawlscope"),
                                              QStringLiteral("--robots"),
                                              QStringLiteral("report"),
                                              QStringLiteral("--robots-agent"),
                                              QStringLiteral("My_Bot"),
                                              QStringLiteral("--ignore-crawl-delay"),
                                              QStringLiteral("--include"),
                                              QStringLiteral("^https://a\\.test/"),
                                              QStringLiteral("--exclude"),
                                              QStringLiteral("\\.pdf$"),
                                              QStringLiteral("--exclude"),
                                              QStringLiteral("/tmp/"),
                                              QStringLiteral("--expect-status"),
                                              QStringLiteral("200-299,304"),
                                              QStringLiteral("--expect-type"),
                                              QStringLiteral("text/html, application/json"),
                                              QStringLiteral("--expect-text"),
                                              QStringLiteral("Add to cart"),
                                              QStringLiteral("--expect-regex"),
                                              QStringLiteral("SKU-[0-9]+"),
                                              QStringLiteral("--expect-title"),
                                              QStringLiteral("--min-bytes"),
                                              QStringLiteral("512"),
                                              QStringLiteral("--soft-404"),
                                              QStringLiteral("reject"),
                                              QStringLiteral("--soft-404-pattern"),
                                              QStringLiteral("oops")});
        QVERIFY2(parsed.ok, qPrintable(parsed.error));
        const CrawlQuality &q = parsed.options.quality;
        QCOMPARE(q.robots, RobotsMode::Report);
        QCOMPARE(q.robotsAgent, QByteArray("My_Bot"));
        QVERIFY(q.ignoreCrawlDelay);
        QCOMPARE(q.scope.check(normalizeUrl(QStringLiteral("https://a.test/x"))).inScope, true);
        QCOMPARE(q.scope.check(normalizeUrl(QStringLiteral("https://a.test/x.pdf"))).inScope, false);
        QCOMPARE(q.scope.check(normalizeUrl(QStringLiteral("https://a.test/tmp/1"))).inScope, false);
        QCOMPARE(q.scope.check(normalizeUrl(QStringLiteral("https://b.test/x"))).rule,
                 QStringLiteral("no --include matched"));
        QCOMPARE(q.acceptance.statuses.size(), 2);
        QCOMPARE(q.acceptance.contentTypes,
                 (QList<QByteArray>{QByteArrayLiteral("text/html"), QByteArrayLiteral("application/json")}));
        QCOMPARE(q.acceptance.expectedText, QStringLiteral("Add to cart"));
        QCOMPARE(q.acceptance.expectedRegex.pattern(), QStringLiteral("SKU-[0-9]+"));
        QVERIFY(q.acceptance.expectTitle);
        QCOMPARE(q.acceptance.minBytes, qint64(512));
        QCOMPARE(q.acceptance.soft404, Soft404Mode::Reject);
        QVERIFY(q.acceptance.soft404Pattern.match(QStringLiteral("OOPS, sorry")).hasMatch());
    }

    void breakerFlags() {
        const auto defaults = parseCommandLine({QStringLiteral("crawlscope")});
        QVERIFY(defaults.ok);
        QVERIFY(defaults.options.policy.breaker.enabled);
        QCOMPARE(defaults.options.policy.breaker.window, 20);
        QCOMPARE(defaults.options.policy.breaker.threshold, 0.8);
        QCOMPARE(defaults.options.policy.breaker.cooldownS, 60);
        QCOMPARE(defaults.options.policy.breaker.giveUpS, 1800);
        const auto parsed = parseCommandLine({QStringLiteral("crawlscope"),
                                              QStringLiteral("--breaker-window"), QStringLiteral("50"),
                                              QStringLiteral("--breaker-threshold"), QStringLiteral("0.5"),
                                              QStringLiteral("--breaker-cooldown"), QStringLiteral("5"),
                                              QStringLiteral("--breaker-give-up"), QStringLiteral("90")});
        QVERIFY2(parsed.ok, qPrintable(parsed.error));
        const BreakerSettings &b = parsed.options.policy.breaker;
        QCOMPARE(b.window, 50);
        QCOMPARE(b.threshold, 0.5);
        QCOMPARE(b.cooldownS, 5);
        QCOMPARE(b.giveUpS, 90);
        QVERIFY(b.enabled);
        const auto off = parseCommandLine({QStringLiteral("crawlscope"), QStringLiteral("--no-breaker")});
        QVERIFY(off.ok);
        QVERIFY(!off.options.policy.breaker.enabled);
        QVERIFY(!off.options.limits.adaptive);
        QVERIFY(parseCommandLine({QStringLiteral("crawlscope"), QStringLiteral("--adaptive")})
                    .options.limits.adaptive);
        for (const auto &[flag, value] :
             {std::pair{"--breaker-threshold", "0"}, std::pair{"--breaker-threshold", "1.5"},
              std::pair{"--breaker-window", "0"}, std::pair{"--breaker-cooldown", "-1"},
              std::pair{"--breaker-give-up", "soon"}}) {
            const auto bad = parseCommandLine(
                {QStringLiteral("crawlscope"), QString::fromLatin1(flag), QString::fromLatin1(value)});
            QVERIFY2(!bad.ok && bad.error.contains(QLatin1String(flag)), flag);
        }
    }

    void commandLineErrorsNameTheFlag_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("not a number")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--per-host"), QStringLiteral("many")}
            << "--per-host";
        QTest::newRow("zero concurrency")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--concurrency"), QStringLiteral("0")}
            << "--concurrency";
        QTest::newRow("jitter above one")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--jitter"), QStringLiteral("2")}
            << "--jitter";
        QTest::newRow("bad host limit")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--host-limit"), QStringLiteral("example.com")}
            << "--host-limit";
        QTest::newRow("bad header") << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"),
                                                   QStringLiteral("x"), QStringLiteral("--header"),
                                                   QStringLiteral("no colon")}
                                    << "--header";
        QTest::newRow("jitter nan") << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"),
                                                   QStringLiteral("x"), QStringLiteral("--jitter"),
                                                   QStringLiteral("nan")}
                                    << "--jitter";
        QTest::newRow("max-rate nan")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--max-rate"), QStringLiteral("NaN")}
            << "--max-rate";
        QTest::newRow("max-rate inf")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--max-rate"), QStringLiteral("inf")}
            << "--max-rate";
        QTest::newRow("jitter -nan") << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"),
                                                    QStringLiteral("x"), QStringLiteral("--jitter"),
                                                    QStringLiteral("-nan")}
                                     << "--jitter";
        QTest::newRow("user-agent CRLF")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--user-agent"), QStringLiteral("bot\r\nX-Injected: 1")}
            << "--user-agent";
        QTest::newRow("user-agent trailing LF")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--user-agent"), QStringLiteral("bot\n")}
            << "--user-agent";
        QTest::newRow("user-agent escape")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--user-agent"), QStringLiteral("bot\x1b[31m")}
            << "--user-agent";
        QTest::newRow("header with a control character")
            << QStringList{QStringLiteral("--headless"), QStringLiteral("--input"), QStringLiteral("x"),
                           QStringLiteral("--header"), QStringLiteral("X-A: b\x01")}
            << "--header";
        QTest::newRow("headless without input") << QStringList{QStringLiteral("--headless")} << "--input";
        QTest::newRow("unknown flag") << QStringList{QStringLiteral("--frobnicate")} << "frobnicate";
    }

    void commandLineErrorsNameTheFlag() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        args.prepend(QStringLiteral("crawlscope"));
        const auto parsed = parseCommandLine(args);
        QVERIFY(!parsed.ok);
        QVERIFY2(parsed.error.contains(mentions), qPrintable(parsed.error));
    }

    void userAgentWithTabsAndUnicodeIsAccepted() {
        const auto parsed = parseCommandLine(
            {QStringLiteral("crawlscope"), QStringLiteral("--headless"), QStringLiteral("--input"),
             QStringLiteral("x"), QStringLiteral("--user-agent"), QStringLiteral("b\u00f6t\t1.0")});
        QVERIFY2(parsed.ok, qPrintable(parsed.error));
        QCOMPARE(parsed.options.policy.userAgent, QStringLiteral("b\u00f6t\t1.0"));
    }

    void helpListsEveryFlagWithItsDefault() {
        const QString help = commandLineHelp();
        for (const char *flag : {"--concurrency N",
                                 "(default 16)",
                                 "--per-host N",
                                 "(default 2)",
                                 "--interval-ms MS",
                                 "(default 500)",
                                 "--max-rate R",
                                 "--host-limit HOST=N[/MS]",
                                 "--retries N",
                                 "--backoff-ms MS",
                                 "--max-retry-after S",
                                 "(default 60)",
                                 "--timeout S",
                                 "(default 30)",
                                 "--connect-timeout S",
                                 "(default 10)",
                                 "--idle-timeout S",
                                 "(default 15)",
                                 "--max-bytes N",
                                 "(default 10485760)",
                                 "--max-redirects N",
                                 "--user-agent TEXT",
                                 "--header",
                                 "--summary-json FILE",
                                 "--output",
                                 "--input",
                                 "--breaker-window N",
                                 "--breaker-threshold F",
                                 "--breaker-cooldown S",
                                 "--breaker-give-up S",
                                 "--no-breaker",
                                 "--adaptive"})
            QVERIFY2(help.contains(QLatin1String(flag)), flag);
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
