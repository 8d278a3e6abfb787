#include "policy/scoperules.h"

#include <QUrl>

namespace crawl {

namespace {

QString quoted(const QString &text) {
    return QLatin1Char('"') + text + QLatin1Char('"');
}

// The host as the comparison needs it: punycode, lower case, no trailing root dot.
QString comparableHost(const QUrl &url) {
    QString host = url.host(QUrl::FullyEncoded).toLower();
    if (host.endsWith(QLatin1Char('.')))
        host.chop(1);
    return host;
}

} // namespace

QString ScopeRules::compile(const QString &flag, const QString &pattern, QList<Pattern> &into) {
    QRegularExpression expression(pattern);
    if (!expression.isValid()) {
        return QStringLiteral("%1 %2: invalid regular expression: %3 at offset %4")
            .arg(flag, quoted(pattern), expression.errorString())
            .arg(expression.patternErrorOffset());
    }
    expression.optimize(); // compile (and JIT) now, once, not on the first URL of some worker thread
    into.append(Pattern{pattern, expression});
    return {};
}

QString ScopeRules::addInclude(const QString &pattern) {
    return compile(QStringLiteral("--include"), pattern, m_includes);
}

QString ScopeRules::addExclude(const QString &pattern) {
    return compile(QStringLiteral("--exclude"), pattern, m_excludes);
}

QStringList ScopeRules::setAllowedHosts(const QByteArray &content, const QString &fileName) {
    m_hostsSet = true;
    m_hostsFileName = fileName;
    m_hosts.clear();
    QStringList errors;
    const QList<QByteArray> lines = content.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = QString::fromUtf8(lines.at(i)).trimmed();
        if (i == 0 && line.startsWith(QChar(0xFEFF)))
            line = line.mid(1).trimmed();
        const qsizetype hash = line.indexOf(QLatin1Char('#'));
        if (hash >= 0)
            line = line.left(hash).trimmed();
        if (line.isEmpty())
            continue;
        const auto fail = [&](const QString &why) {
            errors.append(QStringLiteral("line %1: %2: %3").arg(i + 1).arg(quoted(line), why));
        };
        if (line.contains(QStringLiteral("://")) || line.contains(QLatin1Char('/'))) {
            fail(QStringLiteral("expected a host (host, host:port or *.domain), not a URL or path"));
            continue;
        }
        const bool subdomains = line.startsWith(QStringLiteral("*."));
        const QString authority = subdomains ? line.mid(2) : line;
        if (authority.contains(QLatin1Char('*')) || authority.contains(QLatin1Char('@'))) {
            fail(QStringLiteral("a wildcard is only allowed as a leading \"*.\""));
            continue;
        }
        const QUrl url(QStringLiteral("http://") + authority, QUrl::StrictMode);
        const QString host = comparableHost(url);
        if (!url.isValid() || host.isEmpty() || !url.path().isEmpty() ||
            url.host().contains(QLatin1Char('%'))) {
            fail(QStringLiteral("not a valid host name"));
            continue;
        }
        if (authority.endsWith(QLatin1Char(':'))) {
            fail(QStringLiteral("empty port"));
            continue;
        }
        m_hosts.append(AllowedHost{host, subdomains, url.port(-1)});
    }
    return errors;
}

QStringList ScopeRules::includePatterns() const {
    QStringList patterns;
    for (const Pattern &include : m_includes)
        patterns << include.text;
    return patterns;
}

QStringList ScopeRules::excludePatterns() const {
    QStringList patterns;
    for (const Pattern &exclude : m_excludes)
        patterns << exclude.text;
    return patterns;
}

QByteArray ScopeRules::allowedHostsText() const {
    QByteArray text;
    for (const AllowedHost &allowed : m_hosts) {
        if (allowed.subdomains)
            text += "*.";
        text += allowed.host.contains(QLatin1Char(':')) ? '[' + allowed.host.toUtf8() + ']'
                                                        : allowed.host.toUtf8();
        if (allowed.port >= 0)
            text += ':' + QByteArray::number(allowed.port);
        text += '\n';
    }
    return text;
}

ScopeDecision ScopeRules::check(const NormalizedUrl &url) const {
    if (m_hostsSet) {
        const QString host = comparableHost(url.url);
        const int port = url.url.port(url.url.scheme() == QLatin1String("https") ? 443 : 80);
        bool listed = false;
        for (const AllowedHost &allowed : m_hosts) {
            if (allowed.port >= 0 && allowed.port != port)
                continue;
            listed =
                allowed.subdomains ? host.endsWith(QLatin1Char('.') + allowed.host) : host == allowed.host;
            if (listed)
                break;
        }
        if (!listed) {
            const QString file = m_hostsFileName.isEmpty() ? QString() : QLatin1Char(' ') + m_hostsFileName;
            return ScopeDecision{
                false, QStringLiteral("host %1 not in --allow-hosts%2").arg(quoted(url.hostKey), file)};
        }
    }
    for (const Pattern &exclude : m_excludes) {
        if (exclude.expression.match(url.text).hasMatch())
            return ScopeDecision{false, QStringLiteral("--exclude ") + quoted(exclude.text)};
    }
    if (m_includes.isEmpty())
        return {};
    for (const Pattern &include : m_includes) {
        if (include.expression.match(url.text).hasMatch())
            return {};
    }
    return ScopeDecision{false, QStringLiteral("no --include matched")};
}

} // namespace crawl
