#pragma once

#include <QByteArray>

namespace crawl {

// Percent-encoding made comparable (RFC 9309 section 2.2.2): both a rule's path and a URL's path are turned
// into one canonical octet string before they are compared, so "/%62az", "/baz" and "/b%61z" are the same
// path while "/a%2Fb" and "/a/b" stay different.
//  - %XX naming an unreserved character (ALPHA, DIGIT, - . _ ~) is decoded; any other %XX keeps its escape
//    with upper-case hex; a '%' not followed by two hex digits becomes %25.
//  - Octets outside printable ASCII (UTF-8 text, controls, space) are percent-encoded.
//  - In a URL, a literal '*' or '$' is encoded (%2A, %24): in a rule they are the wildcard and the end
//    anchor, so a rule names those characters only in encoded form (section 2.2.3).
//  - In the query, ':', '/', '?' and '@' are encoded: RFC 3986 lets them appear raw or encoded there and
//    servers read both alike; RFC 9309's example matches "?baz=https://foo.bar" with "?baz=https%3A%2F%2F..".
// `inQuery` carries the query state across the pieces of a wildcard pattern.
QByteArray canonicalRobotsPath(const QByteArray &path, bool *inQuery = nullptr);

// A rule pattern in canonical form: literal runs canonicalised, '*' kept as the wildcard, a final '$' kept
// as the end anchor, a '$' anywhere else treated as the literal character.
QByteArray canonicalRobotsPattern(const QByteArray &pattern);

// Whether a canonical pattern matches a canonical path from its start ('*' = any run of octets, a final
// '$' = the path ends there). At worst pattern x path steps, no recursion or allocation (hostile patterns
// cannot blow up).
bool robotsPatternMatches(const QByteArray &canonicalPattern, const QByteArray &canonicalPath);

} // namespace crawl
