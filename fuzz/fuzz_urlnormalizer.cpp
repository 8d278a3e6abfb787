// Fuzzes normalizeUrl with arbitrary input lines. Besides "no crash, no sanitizer report", it checks what
// the crawl relies on: an accepted line is a valid http(s) URL with a host, no fragment, no default
// port and a host key equal to hostKey(url); and the canonical text is a fixed point (normalizing it
// again gives the same text and host key), or duplicate detection would depend on the route a URL took.
#include "fuzzcheck.h"
#include "input/urlnormalizer.h"

#include <cstddef>
#include <cstdint>

using fuzz::escaped;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const QString line = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const crawl::NormalizedUrl n = crawl::normalizeUrl(line);
    if (!n.ok())
        return 0;

    const QByteArray what =
        "input \"" + escaped(line) + "\" -> \"" + escaped(n.text) + "\" key \"" + escaped(n.hostKey) + '"';
    FUZZ_CHECK(n.url.isValid(), what);
    const QString scheme = n.url.scheme();
    FUZZ_CHECK(scheme == QLatin1String("http") || scheme == QLatin1String("https"), what);
    FUZZ_CHECK(!n.url.host().isEmpty(), what);
    FUZZ_CHECK(!n.url.hasFragment(), what);
    const int defaultPort = scheme == QLatin1String("https") ? 443 : 80;
    FUZZ_CHECK(n.url.port() != defaultPort && n.url.port() != 0, what);
    FUZZ_CHECK(n.text == n.url.toString(QUrl::FullyEncoded), what);
    for (const QChar c : n.text)
        FUZZ_CHECK(!c.isSpace() && c.category() != QChar::Other_Control, what);
    FUZZ_CHECK(n.hostKey == crawl::hostKey(n.url), what);
    FUZZ_CHECK(n.hostKey.endsWith(QLatin1Char(':') + QString::number(n.url.port(defaultPort))), what);

    const crawl::NormalizedUrl again = crawl::normalizeUrl(n.text);
    FUZZ_CHECK(again.ok(), what + " again: " + escaped(again.error));
    FUZZ_CHECK(again.text == n.text, what + " again: \"" + escaped(again.text) + '"');
    FUZZ_CHECK(again.hostKey == n.hostKey, what + " again key: \"" + escaped(again.hostKey) + '"');
    return 0;
}
