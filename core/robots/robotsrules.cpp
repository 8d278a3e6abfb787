#include "robots/robotsrules.h"

#include "robots/robotspath.h"

#include <algorithm>
#include <cmath>

namespace crawl {

namespace {

// Long server-controlled text in an error cell helps nobody; the line number finds the rest.
constexpr qsizetype maxShownPatternChars = 200;

enum class Key { UserAgent, Allow, Disallow, CrawlDelay, Sitemap, Unknown };

// Common misspellings are accepted as widely deployed parsers do (Google's among them): the site's
// intent is clear, and ignoring a misspelled Disallow would crawl what the owner meant to keep out.
Key keyFor(const QByteArray &name) {
    const QByteArray key = name.trimmed().toLower();
    if (key == "user-agent" || key == "useragent" || key == "user agent")
        return Key::UserAgent;
    if (key == "allow")
        return Key::Allow;
    if (key == "disallow" || key == "dissallow" || key == "dissalow" || key == "disalow" ||
        key == "diasllow" || key == "disallaw")
        return Key::Disallow;
    if (key == "crawl-delay" || key == "crawldelay" || key == "crawl delay")
        return Key::CrawlDelay;
    if (key == "sitemap" || key == "site-map")
        return Key::Sitemap;
    return Key::Unknown;
}

// The product token of a user-agent value (RFC 9309 section 2.2.1: letters, '_' and '-'), lower-cased;
// "*" for the wildcard. "Crawlscope/1.0 (+https://x)" gives "crawlscope".
QByteArray productTokenOf(const QByteArray &value) {
    const QByteArray trimmed = value.trimmed();
    if (trimmed.startsWith('*'))
        return QByteArrayLiteral("*");
    qsizetype end = 0;
    while (end < trimmed.size()) {
        const char c = trimmed.at(end);
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-'))
            break;
        ++end;
    }
    return trimmed.left(end).toLower();
}

QString shownPattern(const QByteArray &pattern) {
    QString text = QString::fromUtf8(pattern);
    for (QChar &c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7F)
            c = QChar(0xFFFD);
    }
    if (text.size() > maxShownPatternChars) {
        text.truncate(maxShownPatternChars);
        if (text.back().isHighSurrogate())
            text.chop(1); // never half a character
        text += QChar(0x2026);
    }
    return text;
}

// Longest (most octets) first; on a tie Allow first (RFC 9309 section 2.2.2), then file order, so the
// first rule that matches is the one that decides.
bool decidesBefore(const RobotsRule &a, const RobotsRule &b) {
    if (a.canonical.size() != b.canonical.size())
        return a.canonical.size() > b.canonical.size();
    if (a.allow != b.allow)
        return a.allow;
    return a.line < b.line;
}

} // namespace

QString RobotsRule::describe() const {
    return QStringLiteral("%1: %2 (robots.txt line %3)")
        .arg(allow ? QStringLiteral("Allow") : QStringLiteral("Disallow"), shownPattern(pattern))
        .arg(line);
}

RobotsRules RobotsRules::allowAll(const QString &reason) {
    RobotsRules rules;
    rules.m_whole = Whole::Allow;
    rules.m_wholeReason = reason;
    return rules;
}

RobotsRules RobotsRules::disallowAll(const QString &reason) {
    RobotsRules rules;
    rules.m_whole = Whole::Disallow;
    rules.m_wholeReason = reason;
    return rules;
}

RobotsRules RobotsRules::parse(const QByteArray &input, const QByteArray &productToken) {
    RobotsRules result;
    QByteArray body = input;
    if (body.size() > maxParsedBytes) {
        result.m_truncated = true;
        // Drop the line cut in two as well: half of "Allow: /abc" would allow more than the site said.
        const bool cutAtBreak = body.at(maxParsedBytes) == '\n' || body.at(maxParsedBytes) == '\r';
        body.truncate(maxParsedBytes);
        if (!cutAtBreak) {
            const qsizetype lastBreak = std::max(body.lastIndexOf('\n'), body.lastIndexOf('\r'));
            body.truncate(lastBreak < 0 ? 0 : lastBreak + 1);
        }
    }
    qsizetype pos = body.startsWith("\xEF\xBB\xBF") ? 3 : 0;

    const QByteArray ours = productTokenOf(productToken);
    QList<RobotsRule> ourRules, starRules;
    std::optional<double> ourDelay, starDelay;
    bool ourGroupSeen = false, starGroupSeen = false;
    // The current group: its user-agent lines, and whether a rule already followed them (then the next
    // user-agent line starts a new group).
    bool groupIsOurs = false, groupIsStar = false, groupHasMembers = true;

    int lineNumber = 0;
    while (pos < body.size()) {
        ++lineNumber;
        qsizetype end = pos;
        while (end < body.size() && body.at(end) != '\n' && body.at(end) != '\r')
            ++end;
        QByteArray line = body.mid(pos, end - pos);
        pos = end;
        if (pos < body.size() && body.at(pos) == '\r')
            ++pos;
        if (pos < body.size() && body.at(pos) == '\n') // LF, or the LF of CRLF
            ++pos;

        const qsizetype hash = line.indexOf('#');
        if (hash >= 0)
            line.truncate(hash);
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            ++result.m_skippedLines;
            continue;
        }
        const Key key = keyFor(line.left(colon));
        const QByteArray value = line.mid(colon + 1).trimmed();
        switch (key) {
        case Key::UserAgent: {
            const QByteArray token = productTokenOf(value);
            if (token.isEmpty()) {
                ++result.m_skippedLines;
                break;
            }
            if (groupHasMembers) {
                groupIsOurs = groupIsStar = false;
                groupHasMembers = false;
            }
            if (token == "*") {
                groupIsStar = true;
                starGroupSeen = true;
            } else if (token == ours) {
                groupIsOurs = true;
                ourGroupSeen = true;
            }
            break;
        }
        case Key::Allow:
        case Key::Disallow: {
            groupHasMembers = true;
            if (value.isEmpty())
                break; // "Disallow:" with no path allows everything: no rule
            if (!value.startsWith('/') && !value.startsWith('*')) {
                ++result.m_skippedLines;
                break;
            }
            if (!groupIsOurs && !groupIsStar)
                break;
            const RobotsRule rule{key == Key::Allow, value, canonicalRobotsPattern(value), lineNumber};
            if (groupIsOurs)
                ourRules.append(rule);
            if (groupIsStar)
                starRules.append(rule);
            break;
        }
        case Key::CrawlDelay: {
            groupHasMembers = true;
            bool ok = false;
            const double seconds = value.toDouble(&ok);
            if (!ok || !std::isfinite(seconds) || seconds < 0) {
                ++result.m_skippedLines;
                break;
            }
            // The first valid value of a group counts, as for any repeated setting.
            if (groupIsOurs && !ourDelay)
                ourDelay = seconds;
            if (groupIsStar && !starDelay)
                starDelay = seconds;
            break;
        }
        case Key::Sitemap:
            // Not a group member (RFC 9309 section 2.2.4): it neither ends nor belongs to a group.
            if (value.isEmpty())
                ++result.m_skippedLines;
            else
                result.m_sitemaps.append(value);
            break;
        case Key::Unknown:
            break; // other records (Host, Noindex, ...) are not errors, just not ours to obey
        }
    }

    if (ourGroupSeen) {
        result.m_rules = ourRules;
        result.m_crawlDelay = ourDelay;
        result.m_matchedAgent = ours;
    } else if (starGroupSeen) {
        result.m_rules = starRules;
        result.m_crawlDelay = starDelay;
        result.m_matchedAgent = QByteArrayLiteral("*");
    }
    std::stable_sort(result.m_rules.begin(), result.m_rules.end(), decidesBefore);
    result.buildIndex();
    return result;
}

void RobotsRules::buildIndex() {
    for (qsizetype i = 0; i < m_rules.size(); ++i) {
        const QByteArray &pattern = m_rules.at(i).canonical;
        if (pattern.contains('*')) {
            m_wildcardRules.append(i);
        } else if (pattern.endsWith('$')) {
            if (!m_plainExact.contains(pattern.chopped(1)))
                m_plainExact.insert(pattern.chopped(1), i); // the first is the deciding one (Allow on a tie)
        } else if (!m_plainPrefixes.contains(pattern)) {
            m_plainPrefixes.insert(pattern, i);
            if (!m_prefixLengths.contains(pattern.size()))
                m_prefixLengths.append(pattern.size());
        }
    }
    std::sort(m_prefixLengths.begin(), m_prefixLengths.end(), std::greater<>());
}

RobotsVerdict RobotsRules::check(const QUrl &url) const {
    QByteArray pathAndQuery = url.path(QUrl::FullyEncoded).toUtf8();
    if (pathAndQuery.isEmpty())
        pathAndQuery = QByteArrayLiteral("/");
    if (url.hasQuery())
        pathAndQuery += '?' + url.query(QUrl::FullyEncoded).toUtf8();
    return check(pathAndQuery);
}

RobotsVerdict RobotsRules::check(const QByteArray &pathAndQuery) const {
    if (m_whole == Whole::Disallow)
        return RobotsVerdict{false, std::nullopt, m_wholeReason};
    if (m_whole == Whole::Allow)
        return RobotsVerdict{true, std::nullopt, m_wholeReason};
    const QByteArray path =
        canonicalRobotsPath(pathAndQuery.isEmpty() ? QByteArrayLiteral("/") : pathAndQuery);
    if (path == "/robots.txt")
        return RobotsVerdict{true, std::nullopt, QStringLiteral("/robots.txt is always allowed")};
    // The best plain match: an exact "$" rule is one octet longer than the path; else the longest prefix.
    qsizetype best = m_plainExact.value(path, -1);
    if (best < 0) {
        for (const qsizetype length : m_prefixLengths) {
            if (length > path.size())
                continue;
            best = m_plainPrefixes.value(QByteArray::fromRawData(path.constData(), length), -1);
            if (best >= 0)
                break;
        }
    }
    // A wildcard rule decides instead only if it comes first in decision order (longer, or as long and
    // an Allow over a Disallow), which is exactly "its index is smaller".
    for (const qsizetype index : m_wildcardRules) {
        if (best >= 0 && index > best)
            break;
        if (robotsPatternMatches(m_rules.at(index).canonical, path)) {
            best = index;
            break;
        }
    }
    if (best < 0)
        return RobotsVerdict{true, std::nullopt, {}};
    const RobotsRule &rule = m_rules.at(best);
    return RobotsVerdict{rule.allow, rule, rule.describe()};
}

} // namespace crawl
