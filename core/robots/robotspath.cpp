#include "robots/robotspath.h"

#include <vector>

namespace crawl {

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool isUnreserved(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

void appendEscape(QByteArray &out, unsigned char c) {
    static constexpr char digits[] = "0123456789ABCDEF";
    out.append('%');
    out.append(digits[c >> 4]);
    out.append(digits[c & 0xF]);
}

// `literalSpecials`: encode a raw '*' and '$' (true for URLs; a rule's literal runs never contain '*').
QByteArray canonicalize(const QByteArray &text, bool *inQuery, bool literalSpecials) {
    QByteArray out;
    out.reserve(text.size() + 8);
    bool query = inQuery && *inQuery;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text.at(i));
        if (c == '%') {
            const int high = i + 2 < text.size() ? hexValue(text.at(i + 1)) : -1;
            const int low = i + 2 < text.size() ? hexValue(text.at(i + 2)) : -1;
            if (high >= 0 && low >= 0) {
                const auto decoded = static_cast<unsigned char>(high * 16 + low);
                if (isUnreserved(decoded))
                    out.append(char(decoded));
                else
                    appendEscape(out, decoded);
                i += 2;
            } else {
                appendEscape(out, '%');
            }
            continue;
        }
        if (c <= 0x20 || c >= 0x7F || (literalSpecials && (c == '*' || c == '$')) ||
            (query && (c == ':' || c == '/' || c == '?' || c == '@'))) {
            appendEscape(out, c);
            continue;
        }
        if (c == '?')
            query = true;
        out.append(char(c));
    }
    if (inQuery)
        *inQuery = query;
    return out;
}

} // namespace

QByteArray canonicalRobotsPath(const QByteArray &path, bool *inQuery) {
    return canonicalize(path, inQuery, true);
}

QByteArray canonicalRobotsPattern(const QByteArray &pattern) {
    const bool anchored = pattern.endsWith('$');
    const QByteArray body = anchored ? pattern.left(pattern.size() - 1) : pattern;
    QByteArray out;
    bool inQuery = false;
    qsizetype start = 0;
    while (start <= body.size()) {
        qsizetype star = body.indexOf('*', start);
        if (star < 0)
            star = body.size();
        QByteArray literal = body.mid(start, star - start);
        literal.replace('$', "%24"); // a '$' that is not the final anchor is the character itself
        out += canonicalize(literal, &inQuery, false);
        if (star < body.size() && !out.endsWith('*'))
            out.append('*'); // runs of '*' mean the same as one
        start = star + 1;
    }
    if (anchored)
        out.append('$');
    return out;
}

bool robotsPatternMatches(const QByteArray &pattern, const QByteArray &path) {
    // The set of path positions the pattern prefix read so far can end at (Google's reference matcher's
    // approach): sorted, at most path.size() + 1 entries, so the cost is bounded by pattern x path.
    std::vector<qsizetype> positions{0};
    std::vector<qsizetype> next;
    for (qsizetype p = 0; p < pattern.size(); ++p) {
        const char c = pattern.at(p);
        if (c == '$' && p == pattern.size() - 1)
            return positions.back() == path.size();
        next.clear();
        if (c == '*') {
            for (qsizetype at = positions.front(); at <= path.size(); ++at)
                next.push_back(at);
        } else {
            for (const qsizetype at : positions) {
                if (at < path.size() && path.at(at) == c)
                    next.push_back(at + 1);
            }
        }
        if (next.empty())
            return false;
        positions.swap(next);
    }
    return true;
}

} // namespace crawl
