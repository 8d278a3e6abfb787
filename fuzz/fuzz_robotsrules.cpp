// Fuzzes the robots.txt parser and matcher (RobotsRules, canonicalRobotsPath, robotsPatternMatches) with
// arbitrary files. The input is the robots.txt; after a NUL byte, if any, come the paths to check, one a
// line (otherwise each rule's own pattern, with its wildcards filled in, is checked). Besides "no crash,
// no sanitizer report, ends" it checks the meaning: rules carry a line number inside the file and a path
// pattern; canonical paths are a fixed point; the matcher agrees with a plain dynamic-programming
// reference; the deciding rule is the longest that matches (Allow on a tie), and names itself and its
// line in the reason; /robots.txt is always allowed; exactly the files over the limit are truncated.
#include "fuzzcheck.h"
#include "robots/robotspath.h"
#include "robots/robotsrules.h"

#include <cstddef>
#include <cstdint>
#include <vector>

using fuzz::escaped;

namespace {

// The textbook O(pattern x path) table: '*' any run, a final '$' the end, everything else itself.
bool referenceMatch(const QByteArray &pattern, const QByteArray &path) {
    const bool anchored = pattern.endsWith('$');
    const QByteArray body = anchored ? pattern.left(pattern.size() - 1) : pattern;
    // reach[j]: body[0..i) can match path[0..j)
    std::vector<char> reach(size_t(path.size()) + 1, 0);
    reach[0] = 1;
    for (const char c : body) {
        std::vector<char> next(reach.size(), 0);
        if (c == '*') {
            bool any = false;
            for (size_t j = 0; j < reach.size(); ++j) {
                any = any || reach[j];
                next[j] = any;
            }
        } else {
            for (size_t j = 0; j + 1 < reach.size(); ++j)
                next[j + 1] = reach[j] && path.at(qsizetype(j)) == c;
        }
        reach.swap(next);
    }
    if (anchored)
        return reach.back();
    for (const char r : reach) {
        if (r)
            return true;
    }
    return false;
}

QByteArray filledIn(const QByteArray &pattern) {
    QByteArray path = pattern;
    if (path.endsWith('$'))
        path.chop(1);
    path.replace('*', "x");
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype nul = input.indexOf('\0');
    const QByteArray robots = nul < 0 ? input : input.left(nul);
    const crawl::RobotsRules rules = crawl::RobotsRules::parse(robots, "crawlscope");

    FUZZ_CHECK(rules.truncated() == (robots.size() > crawl::RobotsRules::maxParsedBytes),
               "size " + QByteArray::number(robots.size()));
    const qsizetype lines = robots.count('\n') + robots.count('\r') + 1;
    for (const crawl::RobotsRule &rule : rules.rules()) {
        const QByteArray what =
            "rule \"" + escaped(rule.pattern) + "\" line " + QByteArray::number(rule.line);
        FUZZ_CHECK(rule.line >= 1 && rule.line <= lines, what);
        FUZZ_CHECK(rule.pattern.startsWith('/') || rule.pattern.startsWith('*'), what);
        FUZZ_CHECK(rule.canonical == crawl::canonicalRobotsPattern(rule.pattern), what);
    }
    FUZZ_CHECK(rules.check(QByteArrayLiteral("/robots.txt")).allowed, QByteArray("/robots.txt"));
    if (rules.crawlDelaySeconds())
        FUZZ_CHECK(*rules.crawlDelaySeconds() >= 0, QByteArray::number(*rules.crawlDelaySeconds()));

    QList<QByteArray> paths;
    if (nul >= 0) {
        paths = input.mid(nul + 1).split('\n');
    } else {
        for (const crawl::RobotsRule &rule : rules.rules())
            paths.append(filledIn(rule.pattern));
        paths.append(QByteArrayLiteral("/"));
    }
    if (paths.size() > 32)
        paths.resize(32); // keep each input fast; the corpus explores the rest

    for (const QByteArray &asked : paths) {
        const QByteArray path = asked.isEmpty() ? QByteArrayLiteral("/") : asked; // as check() reads it
        const QByteArray canonical = crawl::canonicalRobotsPath(path);
        const QByteArray what = "path \"" + escaped(path) + "\" canonical \"" + escaped(canonical) + "\"";
        FUZZ_CHECK(crawl::canonicalRobotsPath(canonical) == canonical, what);

        const crawl::RobotsVerdict verdict = rules.check(asked);
        const crawl::RobotsRule *best = nullptr;
        bool everyRuleCompared = true;
        for (const crawl::RobotsRule &rule : rules.rules()) {
            if (rule.canonical.size() > 256 || canonical.size() > 256) {
                everyRuleCompared = false; // the reference is quadratic; long ones are left to the unit tests
                continue;
            }
            const bool matches = crawl::robotsPatternMatches(rule.canonical, canonical);
            FUZZ_CHECK(matches == referenceMatch(rule.canonical, canonical),
                       what + " pattern \"" + escaped(rule.canonical) + "\"");
            if (matches && (!best || rule.canonical.size() > best->canonical.size() ||
                            (rule.canonical.size() == best->canonical.size() && rule.allow && !best->allow)))
                best = &rule;
        }
        if (canonical == "/robots.txt")
            continue;
        if (verdict.rule) {
            FUZZ_CHECK(verdict.allowed == verdict.rule->allow, what);
            FUZZ_CHECK(verdict.reason == verdict.rule->describe(), what);
            FUZZ_CHECK(verdict.reason.contains(QStringLiteral("(robots.txt line ")), what);
            FUZZ_CHECK(QStringView(verdict.reason).isValidUtf16(), what);
            FUZZ_CHECK(crawl::robotsPatternMatches(verdict.rule->canonical, canonical), what);
        } else {
            FUZZ_CHECK(verdict.allowed, what);
        }
        if (best && everyRuleCompared) {
            FUZZ_CHECK(verdict.rule.has_value(), what);
            FUZZ_CHECK(verdict.rule->canonical.size() == best->canonical.size() &&
                           verdict.allowed == best->allow,
                       what + " decided by \"" + escaped(verdict.rule->pattern) + "\" expected \"" +
                           escaped(best->pattern) + "\"");
        }
    }
    return 0;
}
