#pragma once

#include "input/urlnormalizer.h"

#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

// Integration (issue 13): the CLI builds one ScopeRules from `--include`, `--exclude` (repeatable) and
// `--allow-hosts FILE`, refusing to start on any error text returned here (it names the flag and the
// pattern, or the file's line). The engine asks check() for every input URL before it is queued and for
// every redirect target before the hop is requested; a URL out of scope ends with outcome `excluded` and
// ScopeDecision::rule as its error text, and a redirect out of scope is not followed. ScopeRules is an
// immutable value once built: copy it into each shard (the compiled expressions are implicitly shared).

namespace crawl {

struct ScopeDecision {
    bool inScope = true;
    QString
        rule; // why not: `--exclude "\.pdf$"`, `no --include matched`, `host "x.test" not in --allow-hosts`
};

class ScopeRules {
public:
    // Each returns an empty string, or the error to show: the flag, the pattern and what is wrong with it.
    QString addInclude(const QString &pattern);
    QString addExclude(const QString &pattern);
    // The --allow-hosts file: one `host`, `host:port`, `*.domain` or `*.domain:port` per line (IPv6 in
    // brackets); blank lines and `#` comments skipped; IDN names compared in punycode; without a port any
    // port matches. `*.example.com` is every subdomain of example.com, not example.com itself.
    // Returns one error per bad line ("line 3: ..."); the good lines are kept either way.
    QStringList setAllowedHosts(const QByteArray &fileContent, const QString &fileName = {});

    bool restrictsAnything() const { return m_hostsSet || !m_includes.isEmpty() || !m_excludes.isEmpty(); }
    qsizetype allowedHostCount() const { return m_hosts.size(); }

    // The rules as they were given, so a crawl file can keep them and build the same rules again.
    QStringList includePatterns() const;
    QStringList excludePatterns() const;
    bool restrictsHosts() const { return m_hostsSet; }
    QString allowedHostsFileName() const { return m_hostsFileName; }
    // One host a line, in the form setAllowedHosts reads ("*.example.com", "[::1]:8080").
    QByteArray allowedHostsText() const;

    // Allow-hosts first, then the excludes (the first that matches is named), then the includes (one must
    // match); the expressions search anywhere in the normalized URL text (anchor them with ^ and $).
    ScopeDecision check(const NormalizedUrl &url) const;

private:
    struct AllowedHost {
        QString host;    // ASCII (punycode), lower case, no trailing dot; for wildcards the parent domain
        bool subdomains; // `*.domain`
        int port;        // -1: any port
    };
    struct Pattern {
        QString text; // as the user wrote it, for messages
        QRegularExpression expression;
    };
    static QString compile(const QString &flag, const QString &pattern, QList<Pattern> &into);

    QList<Pattern> m_includes;
    QList<Pattern> m_excludes;
    QList<AllowedHost> m_hosts;
    bool m_hostsSet = false;
    QString m_hostsFileName;
};

} // namespace crawl
