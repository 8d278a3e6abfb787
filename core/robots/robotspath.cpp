#include "robots/robotspath.h"

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
    // Most rules are plain prefixes: compare without the position set (and without allocating), since
    // every URL is checked against every rule of a file that may hold thousands.
    if (!pattern.contains('*')) {
        if (pattern.endsWith('$'))
            return QByteArrayView(pattern).chopped(1) == QByteArrayView(path);
        return path.startsWith(pattern);
    }
    // The classic greedy glob match: on a mismatch go back to the last '*' and let it swallow one more
    // octet. Correct for '*'-only patterns, no allocation, usually linear, pattern x path at worst.
    const bool anchored = pattern.endsWith('$');
    const qsizetype patternSize = anchored ? pattern.size() - 1 : pattern.size();
    qsizetype p = 0, s = 0, star = -1, resume = 0;
    while (s < path.size()) {
        if (p == patternSize && !anchored)
            return true; // the rule matched a prefix of the path
        if (p < patternSize && pattern.at(p) == '*') {
            star = p++;
            resume = s;
        } else if (p < patternSize && pattern.at(p) == path.at(s)) {
            ++p;
            ++s;
        } else if (star >= 0) {
            p = star + 1;
            s = ++resume;
        } else {
            return false;
        }
    }
    while (p < patternSize && pattern.at(p) == '*')
        ++p;
    return p == patternSize;
}

} // namespace crawl
