// robots.txt per RFC 9309: group selection, longest match, Allow on ties, wildcards, '$', percent-encoding,
// the 500 KiB limit, line endings, garbage; Google's documented precedence and wildcard examples.
#include "robots/robotspath.h"
#include "robots/robotsrules.h"

#include <QTest>

using namespace crawl;

namespace {

bool allowed(const QByteArray &robots, const QByteArray &agent, const QByteArray &path) {
    return RobotsRules::parse(robots, agent).check(path).allowed;
}

// RFC 9309 section 5.1.
const QByteArray rfcSimpleRobots = "User-Agent: *\n"
                                   "Disallow: *.gif$\n"
                                   "Disallow: /example/\n"
                                   "Allow: /publications/\n"
                                   "\n"
                                   "User-Agent: foobot\n"
                                   "Disallow:/\n"
                                   "Allow:/example/page.html\n"
                                   "Allow:/example/allowed.gif\n"
                                   "\n"
                                   "User-Agent: barbot\n"
                                   "User-Agent: bazbot\n"
                                   "Disallow: /example/page.html\n"
                                   "\n"
                                   "User-Agent: quxbot\n"
                                   "\n"
                                   "EOF\n";

} // namespace

class TestRobotsRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rfcSimpleExample_data() {
        QTest::addColumn<QByteArray>("agent");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<bool>("expected");
        QTest::newRow("foobot page.html") << QByteArray("foobot") << QByteArray("/example/page.html") << true;
        QTest::newRow("foobot allowed.gif")
            << QByteArray("foobot") << QByteArray("/example/allowed.gif") << true;
        QTest::newRow("foobot other") << QByteArray("foobot") << QByteArray("/example/other.html") << false;
        QTest::newRow("foobot root") << QByteArray("foobot") << QByteArray("/") << false;
        QTest::newRow("FooBot case-insensitive") << QByteArray("FooBot") << QByteArray("/x") << false;
        QTest::newRow("barbot page.html")
            << QByteArray("barbot") << QByteArray("/example/page.html") << false;
        QTest::newRow("bazbot page.html")
            << QByteArray("bazbot") << QByteArray("/example/page.html") << false;
        QTest::newRow("bazbot not the * group")
            << QByteArray("bazbot") << QByteArray("/example/x.gif") << true;
        QTest::newRow("quxbot empty group") << QByteArray("quxbot") << QByteArray("/example/x.gif") << true;
        QTest::newRow("other bot gif") << QByteArray("crawlscope") << QByteArray("/a/b.gif") << false;
        QTest::newRow("other bot gif with query")
            << QByteArray("crawlscope") << QByteArray("/a/b.gif?x=1") << true;
        QTest::newRow("other bot example/") << QByteArray("crawlscope") << QByteArray("/example/") << false;
        QTest::newRow("other bot publications")
            << QByteArray("crawlscope") << QByteArray("/publications/a.html") << true;
        QTest::newRow("other bot root") << QByteArray("crawlscope") << QByteArray("/") << true;
    }
    void rfcSimpleExample() {
        QFETCH(QByteArray, agent);
        QFETCH(QByteArray, path);
        QFETCH(bool, expected);
        QCOMPARE(allowed(rfcSimpleRobots, agent, path), expected);
    }

    void rfcLongestMatch() { // RFC 9309 section 5.2
        const QByteArray robots = "User-Agent: foobot\n"
                                  "Allow: /example/page/\n"
                                  "Disallow: /example/page/disallowed.gif\n";
        QVERIFY(allowed(robots, "foobot", "/example/page/"));
        QVERIFY(allowed(robots, "foobot", "/example/page/other.gif"));
        const RobotsVerdict verdict =
            RobotsRules::parse(robots, "foobot").check("/example/page/disallowed.gif");
        QVERIFY(!verdict.allowed);
        QCOMPARE(verdict.reason,
                 QStringLiteral("Disallow: /example/page/disallowed.gif (robots.txt line 3)"));
    }

    void rfcGroupsForOneAgentAreMerged() { // RFC 9309 section 2.2.1
        const QByteArray robots = "user-agent: ExampleBot\n"
                                  "disallow: /foo\n"
                                  "disallow: /bar\n"
                                  "\n"
                                  "user-agent: ExampleBot\n"
                                  "disallow: /baz\n";
        const RobotsRules rules = RobotsRules::parse(robots, "examplebot");
        QCOMPARE(rules.rules().size(), 3);
        QVERIFY(!rules.check(QByteArray("/foo")).allowed);
        QVERIFY(!rules.check(QByteArray("/bar")).allowed);
        QVERIFY(!rules.check(QByteArray("/baz/1")).allowed);
        QVERIFY(rules.check(QByteArray("/qux")).allowed);
        QCOMPARE(rules.matchedAgent(), QByteArray("examplebot"));
    }

    void fallbackToStarAndNoGroup() {
        const QByteArray robots = "User-agent: otherbot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n";
        const RobotsRules rules = RobotsRules::parse(robots);
        QCOMPARE(rules.matchedAgent(), QByteArray("*"));
        QVERIFY(rules.check(QByteArray("/public")).allowed);
        QVERIFY(!rules.check(QByteArray("/private/x")).allowed);
        // No group for us and none for '*': no rule applies.
        const RobotsRules none = RobotsRules::parse("User-agent: otherbot\nDisallow: /\n");
        QVERIFY(none.matchedAgent().isEmpty());
        QVERIFY(none.check(QByteArray("/anything")).allowed);
        QVERIFY(RobotsRules::parse("").check(QByteArray("/")).allowed);
    }

    void productTokenAndVersions() {
        const QByteArray robots = "User-agent: CrawlScope/2.0 (+https://example.org)\nDisallow: /a\n\n"
                                  "User-agent: *\nDisallow: /\n";
        QVERIFY(!allowed(robots, "crawlscope", "/a"));
        QVERIFY(allowed(robots, "crawlscope", "/b"));
        // The configured agent may carry a version too; only its product token counts.
        QVERIFY(allowed(robots, "Crawlscope/1.0", "/b"));
        // A longer token is another product: "crawlscopex" does not match "crawlscope".
        QVERIFY(
            !allowed("User-agent: crawlscopex\nAllow: /\nUser-agent: *\nDisallow: /\n", "crawlscope", "/b"));
    }

    void userAgentLinesAfterRulesStartANewGroup() {
        const QByteArray robots = "User-agent: crawlscope\n"
                                  "Disallow: /ours\n"
                                  "User-agent: other\n" // a new group: its rules are not ours
                                  "Disallow: /theirs\n";
        QVERIFY(!allowed(robots, "crawlscope", "/ours"));
        QVERIFY(allowed(robots, "crawlscope", "/theirs"));
        // Rules before any user-agent line belong to no group.
        QVERIFY(allowed("Disallow: /\nUser-agent: *\nDisallow: /x\n", "crawlscope", "/y"));
        // Sitemap lines do not end a user-agent run.
        QVERIFY(!allowed("User-agent: a\nSitemap: https://x/s.xml\nUser-agent: crawlscope\nDisallow: /z\n",
                         "crawlscope", "/z"));
    }

    void googlePrecedenceExamples_data() {
        QTest::addColumn<QByteArray>("robots");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<bool>("expected");
        QTest::newRow("longer allow")
            << QByteArray("allow: /p\ndisallow: /\n") << QByteArray("/page") << true;
        QTest::newRow("tie allow wins")
            << QByteArray("allow: /folder\ndisallow: /folder\n") << QByteArray("/folder/page") << true;
        QTest::newRow("longer wildcard disallow")
            << QByteArray("allow: /page\ndisallow: /*.htm\n") << QByteArray("/page.htm") << false;
        QTest::newRow("wildcard tie allow")
            << QByteArray("allow: /page\ndisallow: /*.ph\n") << QByteArray("/page.php") << true;
        QTest::newRow("anchored root allowed")
            << QByteArray("allow: /$\ndisallow: /\n") << QByteArray("/") << true;
        QTest::newRow("anchored root other")
            << QByteArray("allow: /$\ndisallow: /\n") << QByteArray("/page.htm") << false;
        QTest::newRow("empty disallow allows") << QByteArray("disallow:\n") << QByteArray("/x") << true;
    }
    void googlePrecedenceExamples() {
        QFETCH(QByteArray, robots);
        QFETCH(QByteArray, path);
        QFETCH(bool, expected);
        QCOMPARE(allowed("user-agent: *\n" + robots, "crawlscope", path), expected);
    }

    void plainAndWildcardRulesKeepPrecedence_data() {
        // Plain rules are looked up by prefix, wildcard rules in order: the result must not depend on it.
        QTest::addColumn<QByteArray>("rules");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QString>("decidedBy");
        const QByteArray mixed = "Disallow: /a/b/c\n"     // line 2, plain, 6 octets
                                 "Allow: /a/*/c\n"        // line 3, wildcard, 6 octets: wins the tie
                                 "Disallow: /a/\n"        // line 4, plain, 3 octets
                                 "Allow: /*.html\n"       // line 5, wildcard, 7 octets
                                 "Disallow: /a/x.html$\n" // line 6, exact, 11 octets
                                 "Disallow: /*\n";        // line 7, wildcard, 2 octets
        QTest::newRow("tie plain vs wildcard")
            << mixed << QByteArray("/a/b/c/d") << u"Allow: /a/*/c (robots.txt line 3)"_qs;
        QTest::newRow("longer wildcard")
            << mixed << QByteArray("/a/b.html") << u"Allow: /*.html (robots.txt line 5)"_qs;
        QTest::newRow("exact beats all")
            << mixed << QByteArray("/a/x.html") << u"Disallow: /a/x.html$ (robots.txt line 6)"_qs;
        QTest::newRow("exact needs the end")
            << mixed << QByteArray("/a/x.html?q") << u"Allow: /*.html (robots.txt line 5)"_qs;
        QTest::newRow("shorter plain")
            << mixed << QByteArray("/a/zz") << u"Disallow: /a/ (robots.txt line 4)"_qs;
        QTest::newRow("wildcard fallback")
            << mixed << QByteArray("/b") << u"Disallow: /* (robots.txt line 7)"_qs;
        QTest::newRow("duplicate plain, allow wins")
            << QByteArray("Disallow: /d\nAllow: /d\nDisallow: /d\n") << QByteArray("/d/e")
            << u"Allow: /d (robots.txt line 3)"_qs;
        QTest::newRow("duplicate exact, allow wins")
            << QByteArray("Disallow: /d$\nAllow: /d$\n") << QByteArray("/d")
            << u"Allow: /d$ (robots.txt line 3)"_qs;
    }
    void plainAndWildcardRulesKeepPrecedence() {
        QFETCH(QByteArray, rules);
        QFETCH(QByteArray, path);
        QFETCH(QString, decidedBy);
        QCOMPARE(RobotsRules::parse("User-agent: *\n" + rules).check(path).reason, decidedBy);
    }

    void thousandsOfRules() {
        QByteArray robots = "User-agent: *\n";
        for (int i = 0; i < 5000; ++i)
            robots += "Disallow: /section-" + QByteArray::number(i) + "/\nAllow: /section-" +
                      QByteArray::number(i) + "/public/\n";
        const RobotsRules rules = RobotsRules::parse(robots);
        QCOMPARE(rules.rules().size(), 10000);
        QCOMPARE(rules.check(QByteArray("/section-4711/x")).reason,
                 u"Disallow: /section-4711/ (robots.txt line 9424)"_qs);
        QVERIFY(rules.check(QByteArray("/section-4711/public/x")).allowed);
        QVERIFY(rules.check(QByteArray("/section-47111/x")).allowed);
    }

    void googleWildcardExamples_data() {
        QTest::addColumn<QByteArray>("pattern");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<bool>("matches");
        for (const char *p : {"/fish", "/fish.html", "/fish/salmon.html", "/fishheads",
                              "/fishheads/yummy.html", "/fish.php?id=anything"})
            QTest::newRow(p) << QByteArray("/fish*") << QByteArray(p) << true;
        for (const char *p : {"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"})
            QTest::addRow("/fish* vs %s", p) << QByteArray("/fish*") << QByteArray(p) << false;
        QTest::newRow("/fish/ vs /fish/") << QByteArray("/fish/") << QByteArray("/fish/") << true;
        QTest::newRow("/fish/ vs /fish") << QByteArray("/fish/") << QByteArray("/fish") << false;
        QTest::newRow("/fish/ vs /fish.html") << QByteArray("/fish/") << QByteArray("/fish.html") << false;
        for (const char *p : {"/index.php", "/folder/filename.php", "/folder/filename.php?parameters",
                              "/folder/any.php.file.html", "/filename.php/"})
            QTest::addRow("/*.php vs %s", p) << QByteArray("/*.php") << QByteArray(p) << true;
        for (const char *p : {"/", "/windows.PHP"})
            QTest::addRow("/*.php vs %s", p) << QByteArray("/*.php") << QByteArray(p) << false;
        for (const char *p : {"/filename.php", "/folder/filename.php"})
            QTest::addRow("/*.php$ vs %s", p) << QByteArray("/*.php$") << QByteArray(p) << true;
        for (const char *p : {"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"})
            QTest::addRow("/*.php$ vs %s", p) << QByteArray("/*.php$") << QByteArray(p) << false;
        for (const char *p : {"/fish.php", "/fishheads/catfish.php?parameters"})
            QTest::addRow("/fish*.php vs %s", p) << QByteArray("/fish*.php") << QByteArray(p) << true;
        QTest::newRow("/fish*.php vs /Fish.PHP")
            << QByteArray("/fish*.php") << QByteArray("/Fish.PHP") << false;
        QTest::newRow("many stars") << QByteArray("/a***b**c") << QByteArray("/axxbyyc") << true;
        QTest::newRow("dollar mid-pattern is literal") << QByteArray("/a$b") << QByteArray("/a$b") << true;
        QTest::newRow("dollar mid-pattern no anchor") << QByteArray("/a$b") << QByteArray("/a") << false;
    }
    void googleWildcardExamples() {
        QFETCH(QByteArray, pattern);
        QFETCH(QByteArray, path);
        QFETCH(bool, matches);
        QCOMPARE(robotsPatternMatches(canonicalRobotsPattern(pattern), canonicalRobotsPath(path)), matches);
        QCOMPARE(allowed("User-agent: *\nDisallow: " + pattern + "\n", "crawlscope", path), !matches);
    }

    void rfcPercentEncodingExamples_data() { // RFC 9309 section 2.2.2's table: rule path vs URL path
        QTest::addColumn<QByteArray>("rule");
        QTest::addColumn<QByteArray>("urlPath");
        QTest::newRow("plain query") << QByteArray("/foo/bar?baz=quz") << QByteArray("/foo/bar?baz=quz");
        QTest::newRow("reserved in query")
            << QByteArray("/foo/bar?baz=https://foo.bar") << QByteArray("/foo/bar?baz=https%3A%2F%2Ffoo.bar");
        QTest::newRow("utf-8 rule") << QByteArray("/foo/bar/\xE3\x83\x84")
                                    << QByteArray("/foo/bar/%E3%83%84");
        QTest::newRow("encoded rule") << QByteArray("/foo/bar/%E3%83%84") << QByteArray("/foo/bar/%E3%83%84");
        QTest::newRow("lower-case hex")
            << QByteArray("/foo/bar/%e3%83%84") << QByteArray("/foo/bar/%E3%83%84");
        QTest::newRow("encoded unreserved") << QByteArray("/foo/bar/%62%61%7A") << QByteArray("/foo/bar/baz");
        QTest::newRow("unreserved in URL") << QByteArray("/foo/bar/baz") << QByteArray("/foo/bar/%62%61%7a");
        QTest::newRow("encoded star in rule")
            << QByteArray("/path/file-with-a-%2A.html") << QByteArray("/path/file-with-a-*.html");
        QTest::newRow("encoded dollar in rule") << QByteArray("/path/foo-%24") << QByteArray("/path/foo-$");
    }
    void rfcPercentEncodingExamples() {
        QFETCH(QByteArray, rule);
        QFETCH(QByteArray, urlPath);
        const QByteArray robots = "User-agent: *\nDisallow: /\nAllow: " + rule + "\n";
        QVERIFY(allowed(robots, "crawlscope", urlPath));
        QVERIFY(!allowed(robots, "crawlscope", "/other"));
    }

    void encodedSlashIsNotASlash() {
        const QByteArray robots = "User-agent: *\nDisallow: /a/b\n";
        QVERIFY(!allowed(robots, "crawlscope", "/a/b"));
        QVERIFY(allowed(robots, "crawlscope", "/a%2Fb"));
        QVERIFY(allowed(robots, "crawlscope", "/a%2fb"));
        QCOMPARE(canonicalRobotsPath("/a%2fb%zz%"), QByteArray("/a%2Fb%25zz%25"));
        QCOMPARE(canonicalRobotsPath("/a b\x01"), QByteArray("/a%20b%01"));
    }

    void checkTakesAUrl() {
        const RobotsRules rules =
            RobotsRules::parse("User-agent: *\nDisallow: /caf\xC3\xA9\nDisallow: /q?x=1\n");
        QVERIFY(!rules.check(QUrl(QStringLiteral("https://example.com/caf%C3%A9/menu"))).allowed);
        QVERIFY(!rules.check(QUrl(QString::fromUtf8("https://example.com/caf\xC3\xA9"))).allowed);
        QVERIFY(!rules.check(QUrl(QStringLiteral("https://example.com/q?x=1&y=2"))).allowed);
        QVERIFY(rules.check(QUrl(QStringLiteral("https://example.com/q?y=2"))).allowed);
        QVERIFY(rules.check(QUrl(QStringLiteral("https://example.com"))).allowed);
    }

    void robotsTxtItselfIsAlwaysAllowed() {
        const RobotsRules rules = RobotsRules::parse("User-agent: *\nDisallow: /\n");
        QVERIFY(rules.check(QByteArray("/robots.txt")).allowed);
        QVERIFY(!rules.check(QByteArray("/robots.txt.bak")).allowed);
    }

    void lineEndingsBomAndComments() {
        for (const QByteArray &eol : {QByteArray("\n"), QByteArray("\r\n"), QByteArray("\r")}) {
            const QByteArray robots = "\xEF\xBB\xBFUser-agent: *" + eol + "# a comment" + eol + eol +
                                      "Disallow: /private # trailing comment" + eol + "Allow: /private/ok";
            const RobotsRules rules = RobotsRules::parse(robots);
            const RobotsVerdict verdict = rules.check(QByteArray("/private/x"));
            QVERIFY(!verdict.allowed);
            QCOMPARE(verdict.reason, QStringLiteral("Disallow: /private (robots.txt line 4)"));
            QCOMPARE(rules.check(QByteArray("/private/ok")).reason,
                     QStringLiteral("Allow: /private/ok (robots.txt line 5)"));
        }
        // Mixed endings: CR LF counts as one line break, LF CR as two.
        const RobotsRules mixed = RobotsRules::parse("User-agent: *\r\n\n\rDisallow: /x\n\rDisallow: /y");
        QCOMPARE(mixed.check(QByteArray("/x")).rule->line, 4);
        QCOMPARE(mixed.check(QByteArray("/y")).rule->line, 6);
    }

    void keysAreCaseInsensitiveAndTyposAccepted() {
        QVERIFY(!allowed("USER-AGENT: *\nDISALLOW: /a\n", "crawlscope", "/a"));
        QVERIFY(!allowed("useragent: *\ndissallow: /a\n", "crawlscope", "/a"));
        QVERIFY(!allowed("User-agent:*\nDisallow:/a\n", "crawlscope", "/a"));
        QVERIFY(!allowed("User-agent: *\n  Disallow  :   /a   \n", "crawlscope", "/a"));
    }

    void crawlDelayAndSitemaps() {
        const QByteArray robots = "Sitemap: https://example.com/s1.xml\n"
                                  "User-agent: *\nCrawl-delay: 10\n\n"
                                  "User-agent: crawlscope\nCrawl-delay: 2.5\nCrawl-delay: 7\nDisallow: /x\n"
                                  "sitemap: https://example.com/s2.xml\n";
        const RobotsRules ours = RobotsRules::parse(robots);
        QCOMPARE(ours.crawlDelaySeconds(), std::optional<double>(2.5));
        QCOMPARE(ours.sitemaps(),
                 (QList<QByteArray>{"https://example.com/s1.xml", "https://example.com/s2.xml"}));
        QCOMPARE(RobotsRules::parse(robots, "otherbot").crawlDelaySeconds(), std::optional<double>(10));
        QVERIFY(!RobotsRules::parse("User-agent: *\nDisallow: /\n").crawlDelaySeconds().has_value());
        for (const char *bad : {"-1", "abc", "inf", "nan", "", "1e999"}) {
            const RobotsRules rules =
                RobotsRules::parse(QByteArray("User-agent: *\nCrawl-delay: ") + bad + "\n");
            QVERIFY2(!rules.crawlDelaySeconds().has_value(), bad);
            QCOMPARE(rules.skippedLines(), 1);
        }
    }

    void garbageLinesAreSkipped() {
        const QByteArray robots = "<html><body>Not a robots file</body></html>\n"
                                  "User-agent: *\n"
                                  "this line has no colon\n"
                                  "Disallow: relative/path\n"
                                  ":\n"
                                  "Disallow: /ok-rule\n"
                                  "Unknown-directive: whatever\n"
                                  "\xFF\xFE binary\n";
        const RobotsRules rules = RobotsRules::parse(robots);
        QCOMPARE(rules.rules().size(), 1);
        QCOMPARE(rules.rules().first().line, 6);
        QCOMPARE(rules.skippedLines(), 5);
        QVERIFY(!rules.check(QByteArray("/ok-rule")).allowed);
        QVERIFY(rules.check(QByteArray("/relative/path")).allowed);
    }

    void atLeast500KiBAreParsed() {
        QByteArray robots = "User-agent: *\n";
        const QByteArray filler = "Disallow: /filler-that-matches-nothing-of-interest\n";
        while (robots.size() + filler.size() < RobotsRules::maxParsedBytes - 64)
            robots += filler;
        robots += "Disallow: /last-rule-inside\n";
        const int lastInsideLine = int(robots.count('\n'));
        robots += QByteArray(RobotsRules::maxParsedBytes - robots.size() - 5, '\n');
        robots += "Disallow: /straddles-the-limit\n"; // starts 5 bytes before the limit: cut, dropped
        robots += "Disallow: /beyond\n";
        const RobotsRules rules = RobotsRules::parse(robots);
        QVERIFY(rules.truncated());
        const RobotsVerdict last = rules.check(QByteArray("/last-rule-inside"));
        QVERIFY(!last.allowed);
        QCOMPARE(last.rule->line, lastInsideLine);
        QVERIFY(rules.check(QByteArray("/straddles")).allowed);
        QVERIFY(rules.check(QByteArray("/beyond")).allowed);
        QVERIFY(!RobotsRules::parse(robots.left(RobotsRules::maxParsedBytes)).truncated());
    }

    void hostilePatternsStayCheap() {
        // Many wildcards against a long path: the matcher is pattern x path, not exponential.
        const QByteArray pattern = "/" + QByteArray(2000, '*').replace("**", "*a") + "b$";
        QByteArray robots = "User-agent: *\nDisallow: " + pattern + "\n";
        const RobotsRules rules = RobotsRules::parse(robots);
        QVERIFY(rules.check("/" + QByteArray(5000, 'a')).allowed);
        // A long non-ASCII, control-laden pattern is shown cut and cleaned.
        const RobotsRules shown =
            RobotsRules::parse("User-agent: *\nDisallow: /\x01" + QByteArray(500, 'x') + "\n");
        const QString reason = shown.check("/\x01" + QByteArray(600, 'x')).reason;
        QVERIFY(reason.startsWith(QStringLiteral("Disallow: /\uFFFDxxx")));
        QVERIFY(reason.contains(QChar(0x2026)));
        QVERIFY(reason.endsWith(QStringLiteral("(robots.txt line 2)")));
        // The cut never leaves half of a character (U+1F600 is two UTF-16 units, at units 199 and 200).
        const QByteArray emoji = "/" + QByteArray(198, 'x') + "\xF0\x9F\x98\x80";
        const QString cut =
            RobotsRules::parse("User-agent: *\nDisallow: " + emoji + "tail\n").check(emoji + "tail").reason;
        QVERIFY(QStringView(cut).isValidUtf16());
        QVERIFY(cut.startsWith(QStringLiteral("Disallow: /") + QString(198, u'x') + QChar(0x2026)));
    }

    void wholeHostDecisions() {
        const RobotsVerdict blocked =
            RobotsRules::disallowAll(QStringLiteral("robots.txt: HTTP 503")).check("/x");
        QVERIFY(!blocked.allowed);
        QVERIFY(!blocked.rule.has_value());
        QCOMPARE(blocked.reason, QStringLiteral("robots.txt: HTTP 503"));
        QVERIFY(RobotsRules::allowAll().check(QByteArray("/x")).allowed);
    }
};

QTEST_GUILESS_MAIN(TestRobotsRules)
#include "tst_robotsrules.moc"
