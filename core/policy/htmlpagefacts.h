#pragma once

#include <QByteArray>
#include <QString>

// Integration (issue 13): the fetch path calls extractHtmlPageFacts on the first N KiB of an HTML body (the
// same prefix the acceptance checks see; nothing else of the body is kept) when the response ends, and
// puts the title into the CSV `title` column; checkAcceptance (acceptancecheck.h) reads title, heading
// and charset from it. It costs microseconds per page (below), so it can run on the thread that finished
// the reply; no outcome depends on it.
//
// Why a bounded scanner and not libgumbo (Debian's HTML5 parser): we need two strings from a page, not a
// tree. Measured with bench/bench-htmltitle on a generated 28 KiB product page (2-core VM, shared, best
// of 5 rounds; callgrind instruction counts in brackets, those do not depend on the load):
//   this scanner: ~8 us per page [71 k instructions], ~19 us [171 k] when the page has no <h1> and the
//   whole prefix is read; gumbo_parse + tree walk + destroy: ~1,200-2,100 us [14.6 M], 150-250x more.
// At ~400 us of engine CPU per request gumbo alone would cost several times issue 13's 10 % throughput
// budget; it also wants UTF-8 input (a transcoding pass first), and Google archived its repository. Both
// find the same title and h1 on the bench page, and the bench compares them on 18 tricky titles: they
// agree on all but the unclosed one below. The scanner follows the HTML5 tokenizer where it matters for
// a title: comments, <script>/<style>/<template>/<noscript>/<textarea> content and <svg>/<math> (whose
// <title> is not the page's) are skipped, tag names are case-insensitive, quoted attribute values may hold
// '>', and the title is RCDATA (tags inside it are text, entities are decoded). Where it deviates: a title
// without its closing tag ends at the next '<' (a browser would take the rest of the document), and only
// the bytes handed in are looked at.

namespace crawl {

struct HtmlPageFacts {
    bool hasTitle = false; // a <title> element was found (its text may still be empty)
    QString title;         // entities decoded, whitespace runs collapsed, trimmed, at most maxTextChars
    QString firstHeading;  // the first <h1>'s text, tags inside it dropped, same clean-up
    QByteArray charset;    // the encoding used, lower case: "utf-8" or "windows-1252" (read as Latin-1)

    static constexpr qsizetype maxTextChars = 1024;
};

// The charset: a UTF-8 byte order mark, else `charset=` of the Content-Type header, else <meta charset> or
// <meta http-equiv="Content-Type" content="...; charset=...">, else UTF-8 when the bytes are valid UTF-8,
// else windows-1252. ISO-8859-1, ASCII and windows-1252 are read as Latin-1; other charsets as UTF-8.
HtmlPageFacts extractHtmlPageFacts(const QByteArray &bodyPrefix, const QByteArray &contentType);

// The bytes as text in `charset` ("utf-8" or a Latin-1 family name as above); invalid UTF-8 becomes U+FFFD.
QString decodeHtmlBytes(const QByteArray &bytes, const QByteArray &charset);

// `&amp;`, `&#39;`, `&#x27;`, and the named references pages use in titles; unknown ones stay as written.
QString decodeHtmlEntities(const QString &text);

// The charset parameter of a Content-Type value, lower case, unquoted; empty when there is none.
QByteArray charsetFromContentType(const QByteArray &contentType);

} // namespace crawl
