// Fuzzes the HTML title scanner (extractHtmlPageFacts, decodeHtmlEntities) with arbitrary bodies. The
// first line of the input is the Content-Type header, the rest the body prefix. Besides "no crash, no
// sanitizer report, ends" it checks: the charset is one the decoder knows; title and heading are bounded,
// trimmed, valid UTF-16, free of whitespace runs and control characters; no title element means no title
// text; entity decoding never grows the text and leaves text without '&' alone.
#include "fuzzcheck.h"
#include "policy/htmlpagefacts.h"

#include <cstddef>
#include <cstdint>

using fuzz::escaped;

namespace {

bool cleanedUp(const QString &text) {
    for (const QChar c : text) {
        if (c.unicode() < 0x20 || (c.unicode() >= 0x7F && c.unicode() <= 0x9F))
            return false;
    }
    return text.size() <= crawl::HtmlPageFacts::maxTextChars && text == text.simplified() &&
           QStringView(text).isValidUtf16();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype newline = input.indexOf('\n');
    const QByteArray contentType = newline < 0 ? QByteArray() : input.left(newline);
    const QByteArray body = newline < 0 ? input : input.mid(newline + 1);
    const QByteArray what =
        "content type \"" + escaped(contentType) + "\" body \"" + escaped(body.left(200)) + "\"";

    const crawl::HtmlPageFacts facts = crawl::extractHtmlPageFacts(body, contentType);
    FUZZ_CHECK(facts.charset == "utf-8" || facts.charset == "windows-1252",
               what + " charset " + facts.charset);
    FUZZ_CHECK(cleanedUp(facts.title), what + " title \"" + escaped(facts.title) + "\"");
    FUZZ_CHECK(cleanedUp(facts.firstHeading), what + " heading \"" + escaped(facts.firstHeading) + "\"");
    FUZZ_CHECK(facts.hasTitle || facts.title.isEmpty(), what);

    const QString text = QString::fromUtf8(body);
    const QString decoded = crawl::decodeHtmlEntities(text);
    FUZZ_CHECK(decoded.size() <= text.size(), what + " decoded \"" + escaped(decoded) + "\"");
    if (!text.contains(QLatin1Char('&')))
        FUZZ_CHECK(decoded == text, what);

    return 0;
}
