// Crawl scope: --include / --exclude on the normalized URL, the --allow-hosts list (wildcards, ports, IDN,
// comments), and the rule named for outcome `excluded`.
#include "policy/scoperules.h"

#include <QTest>

using namespace crawl;

namespace {

ScopeDecision checked(const ScopeRules &rules, const char *url) {
    const NormalizedUrl normalized = normalizeUrl(QString::fromUtf8(url));
    if (!normalized.ok())
        qFatal("test URL did not normalize: %s", url);
    return rules.check(normalized);
}

} // namespace

class TestScopeRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void emptyRulesAdmitEverything() {
        const ScopeRules rules;
        QVERIFY(!rules.restrictsAnything());
        QVERIFY(checked(rules, "https://example.com/x").inScope);
    }

    void includeAndExclude() {
        ScopeRules rules;
        QVERIFY(rules.addInclude(QStringLiteral("^https://example\\.com/docs/")).isEmpty());
        QVERIFY(rules.addInclude(QStringLiteral("/blog/")).isEmpty());
        QVERIFY(rules.addExclude(QStringLiteral("\\.pdf$")).isEmpty());
        QVERIFY(rules.addExclude(QStringLiteral("[?&]session=")).isEmpty());
        QVERIFY(rules.restrictsAnything());
        QVERIFY(checked(rules, "https://example.com/docs/a.html").inScope);
        QVERIFY(checked(rules, "https://other.example/blog/post").inScope);
        // On the normalized text: the host's case and a default port do not defeat the expression.
        QVERIFY(checked(rules, "HTTPS://EXAMPLE.COM:443/docs/a.html").inScope);

        const ScopeDecision pdf = checked(rules, "https://example.com/docs/a.pdf");
        QVERIFY(!pdf.inScope);
        QCOMPARE(pdf.rule, QStringLiteral("--exclude \"\\.pdf$\""));
        const ScopeDecision session = checked(rules, "https://example.com/docs/?a=1&session=2");
        QCOMPARE(session.rule, QStringLiteral("--exclude \"[?&]session=\""));
        const ScopeDecision outside = checked(rules, "https://example.com/shop/");
        QVERIFY(!outside.inScope);
        QCOMPARE(outside.rule, QStringLiteral("no --include matched"));
        // The fragment is gone after normalization, so it cannot pull a URL into scope.
        QVERIFY(!checked(rules, "https://example.com/shop/#/docs/").inScope);
    }

    void invalidExpressionsNameTheFlag() {
        ScopeRules rules;
        const QString include = rules.addInclude(QStringLiteral("(unclosed"));
        QVERIFY2(include.startsWith(QStringLiteral("--include \"(unclosed\": invalid regular expression: ")),
                 qPrintable(include));
        QVERIFY(include.contains(QStringLiteral("at offset 9")));
        QVERIFY(rules.addExclude(QStringLiteral("a**")).startsWith(QStringLiteral("--exclude \"a**\": ")));
        QVERIFY(!rules.restrictsAnything()); // nothing half-added
    }

    void allowHosts() {
        ScopeRules rules;
        const QByteArray list = "\xEF\xBB\xBF# hosts we may crawl\n"
                                "example.com\n"
                                "  *.example.org   # every subdomain\n"
                                "\n"
                                "Shop.Example.NET:8080\n"
                                "b\xC3\xBC"
                                "cher.example\n"
                                "[::1]:8443\n"
                                "127.0.0.1\n"
                                "trailing-dot.example.\n";
        QCOMPARE(rules.setAllowedHosts(list, QStringLiteral("hosts.txt")), QStringList());
        QCOMPARE(rules.allowedHostCount(), 7);
        QVERIFY(checked(rules, "https://example.com/").inScope);
        QVERIFY(checked(rules, "http://example.com:8080/").inScope); // no port listed: any port
        QVERIFY(checked(rules, "https://www.example.org/").inScope);
        QVERIFY(checked(rules, "https://a.b.example.org/").inScope);
        QVERIFY(!checked(rules, "https://example.org/").inScope); // *.domain is subdomains only
        QVERIFY(!checked(rules, "https://badexample.org/").inScope);
        QVERIFY(checked(rules, "http://shop.example.net:8080/").inScope);
        QVERIFY(!checked(rules, "http://shop.example.net/").inScope);
        QVERIFY(checked(rules, "https://xn--bcher-kva.example/").inScope);
        QVERIFY(checked(rules, "https://b\xC3\xBC"
                               "cher.example/")
                    .inScope);
        QVERIFY(checked(rules, "https://[::1]:8443/").inScope);
        QVERIFY(!checked(rules, "https://[::1]/").inScope);
        QVERIFY(checked(rules, "http://127.0.0.1:9999/").inScope);
        QVERIFY(checked(rules, "https://trailing-dot.example/").inScope);
        QVERIFY(!checked(rules, "https://sub.example.com/").inScope);
        const ScopeDecision other = checked(rules, "https://other.example:444/");
        QVERIFY(!other.inScope);
        QCOMPARE(other.rule, QStringLiteral("host \"other.example:444\" not in --allow-hosts hosts.txt"));
    }

    void allowHostsBeforeExpressions() {
        ScopeRules rules;
        QVERIFY(rules.setAllowedHosts("a.example\n").isEmpty());
        QVERIFY(rules.addExclude(QStringLiteral("private")).isEmpty());
        QVERIFY(checked(rules, "https://b.example/private").rule.startsWith(QStringLiteral("host ")));
        QCOMPARE(checked(rules, "https://a.example/private").rule, QStringLiteral("--exclude \"private\""));
    }

    void emptyAllowHostsListAdmitsNothing() {
        ScopeRules rules;
        QVERIFY(rules.setAllowedHosts("# nothing yet\n\n").isEmpty());
        QVERIFY(!checked(rules, "https://example.com/").inScope);
    }

    void badAllowHostsLines() {
        ScopeRules rules;
        const QStringList errors = rules.setAllowedHosts("good.example\n"
                                                         "https://example.com/\n"
                                                         "a*b.example\n"
                                                         "host:notaport\n"
                                                         "host:\n"
                                                         "user@host\n"
                                                         "exa mple.com\n"
                                                         "*.\n");
        QCOMPARE(errors.size(), 7);
        QCOMPARE(errors.first(), QStringLiteral("line 2: \"https://example.com/\": expected a host (host, "
                                                "host:port or *.domain), not a URL or path"));
        QVERIFY(errors.at(1).startsWith(QStringLiteral("line 3: ")));
        QVERIFY(errors.last().startsWith(QStringLiteral("line 8: ")));
        QCOMPARE(rules.allowedHostCount(), 1);
        QVERIFY(checked(rules, "https://good.example/").inScope);
    }
};

QTEST_GUILESS_MAIN(TestScopeRules)
#include "tst_scoperules.moc"
