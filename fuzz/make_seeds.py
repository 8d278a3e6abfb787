#!/usr/bin/env python3
"""Writes the hand-made seed corpus in fuzz/corpus/<target>/ (run from anywhere; rewrites the seeds).

Seeds for targets that read their input with FuzzedDataProvider carry their numbers at the end, in the
order the target consumes them (integers are taken from the end of the input, strings from the start).
"""
import pathlib
import shutil

HERE = pathlib.Path(__file__).resolve().parent


def write(target, seeds):
    folder = HERE / "corpus" / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, data in seeds.items():
        (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def provider_int(value, nbytes, minimum=0):
    """Bytes FuzzedDataProvider turns back into `value` from a range starting at `minimum`."""
    return (value - minimum).to_bytes(nbytes, "little")


def provider_signed(value, nbytes):
    """Bytes ConsumeIntegral<intN_t>() turns back into `value` (its range starts at the type's minimum)."""
    return provider_int(value, nbytes, -(1 << (8 * nbytes - 1)))


def provider_string(text):
    """A string ConsumeRandomLengthString reads back: backslashes doubled, '\\ ' ends it."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return raw.replace(b"\\", b"\\\\") + b"\\ "


write("fuzz_urlnormalizer", {
    "plain": "http://example.com/",
    "case-port-fragment": "HTTPS://Example.COM:443/Path?q=1#frag",
    "userinfo-port": "http://user:secret@host.test:8080/a",
    "userinfo-no-password": "https://user@host.test/",
    "ipv6-port": "http://[::1]:81/a",
    "ipv6-zone": "http://[fe80::1%25eth0]/",
    "ipv6-mapped": "http://[::FFFF:127.0.0.1]/",
    "ipv6-zone-encoded": "http://[fe80::1%25a%2Fb]:81/",  # Qt decodes it into another host
    "idn": "https://B\u00fccher.de/stra\u00dfe",
    "idn-punycode": "http://xn--bcher-kva.de/",
    "idn-fullwidth": "http://\uff41.test/",
    "port-zero": "http://127.0.0.1:0/",
    "port-too-big": "http://h.test:99999/",
    "port-empty": "https://a.test:/empty-port",
    "percent": "http://a.test/%7Euser/%zz/sp%20ace?q=%e2%82%ac&x=\u00fc",
    "percent-host": "http://%41.test/",
    "ftp": "ftp://example.com/file",
    "no-scheme": "example.com/no-scheme",
    "no-host": "http:///nohost",
    "userinfo-no-host": "http://user@/",
    "whitespace-around": " \thttp://trailing.test/x  \r",
    "space-inside": "http://a.test/path with space",
    "dots": "http://a..b./",
    "numeric-host": "http://0x7f.1:8080/",
    "bad-utf8": b"http://a.test/\xff\xfe",
    "query-only": "http://a.test?x#y",
})

write("fuzz_urllistreader", {  # first byte: odd puts a "url,note" header in front
    "plain": "0# comment\nhttp://a.test/\n\n  https://b.test/x  \nnot a url\nhttp://a.test/\n",
    "bom-crlf": b"0\xef\xbb\xbfhttp://bom.test/\r\nhttp://c.test/\r\n",
    "bom-comment": b"0\xef\xbb\xbf# list\r\n\thttp://d.test/\t\r\n",
    "csv-url-column": '0id,URL,title\n1,http://a.test/,"Title, with comma"\n2,"http://b.test/?q=""x""",x\n',
    "csv-multiline": '0url,note\n"http://a.test/","line1\nline2"\nhttp://b.test/,ok\n',
    "csv-stray-quote": '0url\n"http://a.test/\nhttp://b.test/\nhttp://c.test/\n',
    "csv-no-url-column": "0name,link\nx,http://a.test/\ny,\n",
    "header-prefixed": '1http://a.test/,note\n"http://b.test/","x""y"\n,empty url\n"unterminated\n',
    "plain-comma-first": "0a,b\nhttp://x.test/\n",
    "idn-ipv6": "0https://b\u00fccher.de/\nhttp://[::1]:8080/\nhttp://user:pw@h.test/\n",
    "bad-utf8": b"0http://a.test/\xff\xfe\nhttp://b.test/\xc3\n",
    "cr-only": "0http://a.test/\rhttp://b.test/\r",
})

now = 784111770000  # 1994-11-06T08:49:30Z, the RFC 9110 example's day
write("fuzz_retryafter", {name: value.encode() + provider_int(now, 6) for name, value in {
    "seconds": "120",
    "zero": "0",
    "spaces": "  5 ",
    "leading-zeros": "0000000000005",
    "huge": "99999999999999999999",
    "imf-fixdate": "Sun, 06 Nov 1994 08:49:37 GMT",
    "rfc850": "Sunday, 06-Nov-94 08:49:37 GMT",
    "rfc850-next-century": "Friday, 01-Jan-27 00:00:00 GMT",
    "asctime": "Sun Nov  6 08:49:37 1994",
    "asctime-two-digit-day": "Thu Nov 17 08:49:37 1994",
    "past": "Sun, 06 Nov 1994 08:00:00 GMT",
    "far-future": "Thu, 31 Dec 9999 23:59:59 GMT",
    "leap-day": "Tue, 29 Feb 2028 12:00:00 GMT",
    "invalid-day": "Sun, 31 Feb 1994 08:49:37 GMT",
    "invalid-time": "Sun, 06 Nov 1994 25:61:61 GMT",
    "not-gmt": "Sun, 06 Nov 1994 08:49:37 PST",
    "lowercase": "sun, 06 nov 1994 08:49:37 gmt",
    "negative": "-5",
    "fraction": "1.5",
    "words": "soon",
}.items()})

# fuzz_csvwriter: last byte odd = a row of csvField cells (count = 1 + byte % 6 from the byte before),
# even = a whole result row written by ResultCsvWriter.
def cells(*texts):
    return b"".join(provider_string(t) for t in texts) + bytes([len(texts) - 1, 1])


def result_row(url, final_url, host, content_type, error, status, outcome):
    strings = b"".join(provider_string(t) for t in (url, final_url, host, content_type, error))
    numbers = [  # in consumption order (each taken from the end)
        provider_int(status, 2, -1),  # status in -1..999
        provider_int(outcome, 1),
        provider_signed(1, 4), provider_signed(0, 4), provider_signed(5120, 8),  # attempts, redirects, bytes
        provider_signed(87, 8), provider_signed(-1, 8),  # latency, ttfb
        provider_int(1796000000000, 6), bytes([1]), provider_int(1796000000087, 6),
    ]
    return strings + b"".join(reversed(numbers)) + bytes([0])


write("fuzz_csvwriter", {
    "formulas": cells("=SUM(A1:A9)", "+1", "-1", "@cmd", "\tx", "\r=1"),
    "quotes-commas": cells('say "hi"', "a,b", '"', '""', ",", ""),
    "line-breaks": cells("two\r\nlines", "lf\nonly", "cr\ronly", "trailing\r\n", "\n=lead", "x"),
    "hyperlink": cells('=HYPERLINK("http://evil.test","click")', "caf\u00e9 \u2603", "'already"),
    "bad-utf8": cells(b"\xff\xfe=x", b"\xc3", "ok"),
    "result-hostile": result_row('http://a.test/?q="x",y', "=cmd|' /C calc'!A0", "a.test:80",
                                 "text/html;\r\ncharset=x", "-> @redirect, \"quoted\"", 200, 0),
    "result-error": result_row("http://b.test/", "", "b.test:80", "", "+connection refused", -1, 3),
})
