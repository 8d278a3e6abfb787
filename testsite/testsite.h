#pragma once

#include "robotstxt.h"

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

#include <memory>

namespace testsite {

// A request as the server saw it. Times are TestSite::nowNs() (steady clock, nanoseconds).
struct RequestRecord {
    QString host;       // "127.0.0.2:41234": the listening address:port the request came in on
    QString target;     // request target as sent: path and query
    qint64 startNs = 0; // request head fully received
    qint64 endNs = 0;   // response fully written, or the connection closed/reset by the profile; 0 while open
    int status = 0;     // status sent (0 for hang/malformed/reset before a status line)
    quint64 connectionId = 0;
    QByteArray userAgent;
    QByteArray method;         // "GET", "HEAD", ... (empty for a request that was not HTTP)
    QByteArray head;           // the request head as received: request line and header lines
    bool clientClosed = false; // the client closed or reset the connection before the response was complete

    // Every header line of `head`, in order, name and value trimmed (repeated names kept).
    QList<QPair<QByteArray, QByteArray>> headers() const;
    // The first value of a header (case-insensitive name), e.g. "Authorization", "Cookie"; empty if absent.
    QByteArray header(const QByteArray &name) const;
    bool hasHeader(const QByteArray &name) const;
};

struct HostRecord {
    QString host;
    int inFlight = 0;     // requests started and not yet ended
    int peakInFlight = 0; // highest inFlight since the last resetRecords()
    qint64 requests = 0;
    int openConnections = 0; // TCP connections open now (the site never closes an idle keep-alive one)
    qint64 connections = 0;  // connections accepted since the last resetRecords()
};

// A local HTTP/1.1 test site on loopback for tests, --demo and benchmarks. It listens as several hosts
// (addresses in 127.0.0.0/8 and/or ports), runs on its own thread, and records what it observes so tests
// assert what the *server* saw.
//
// Behaviour is chosen per request by the query string, on any path (parameters combine):
//   ms=N | ms=A-B        hold the response N ms (or uniform random in [A,B]) before answering
//   status=N             answer with status N (default 200)
//   fail=K               the first K hits of this exact target (per host) answer `failstatus` (default 503),
//                        later hits answer normally
//   failstatus=N         status for the `fail` hits (e.g. 429)
//   ra=S                 with fail: add "Retry-After: S" (delta seconds)
//   radate=S&rafmt=imf|rfc850|asctime   with fail: Retry-After as an HTTP-date S seconds from now
//   raraw=TEXT           with fail: Retry-After header sent verbatim (malformed values)
//   size=N               body of N bytes (default: a small HTML page) ; type=MIME sets Content-Type
//   hang=1               read the request, never answer (until the client closes)
//   trickle=N&every=MS   send headers, then the N-byte body one byte every MS ms (default 1000)
//   reset=1              send headers and half the body, then reset the connection (RST)
//   close=1              close the connection without any response
//   malformed=1          answer with a status line that is not HTTP
//   lie=N                Content-Length says N bytes more than the body sent, then close
//   redirect=N           a chain: answers 302 to the same target with redirect=N-1 until 0
//   loop=1               302 to itself forever
//   to=URL               302 (or `status` if 3xx) to URL (percent-encoded): other hosts, other schemes
//   nolocation=1         a 3xx without a Location header
//   soft404=1            a soft 404: the normal status (200) with an error template whose title and <h1> say
//                        "Page not found"
//   title=TEXT           the default page's <title> and <h1> are TEXT (HTML-escaped; empty: an empty title)
// Hostile bodies and heads (for the engine's hardening tests):
//   gzip=N | deflate=N   Content-Encoding gzip (RFC 1952) or deflate (zlib format) body that decodes to N
//                        zero bytes; N takes a k/m/g suffix (KiB/MiB/GiB, any case, up to 64G): gzip=20M,
//                        gzip=200M, gzip=1G (about 1 MB on the wire, built in milliseconds, ~1 KB of RAM).
//                        Content-Length is the encoded size.
//   chunked=1            Transfer-Encoding: chunked (no Content-Length): the body (page, size=N or gzip=N) in
//                        64 KiB chunks, then "0\r\n\r\n"; the connection is kept alive
//   chunked=bad          as chunked=1, but the first chunk-size line is "zz"; then the site closes
//   chunked=truncated    as chunked=1, but the last chunk carries half the bytes its size line announces and
//                        no terminating chunk follows; then the site closes (the head says keep-alive)
//   work=N | work=A-B    like ms, but the request stays in flight for the whole delay even if the client
//                        closes the connection first (a handler busy on a slow query that notices the close
//                        only when it writes): HostRecord::inFlight and peakInFlight count it, its record
//                        gets clientClosed and an endNs at the end of the work. With plain ms=N the request
//                        ends as soon as the site sees the close. (ms and work set the same delay: give one.)
//   headers=N            N extra header lines "X-Filler-<i>: value <i>" (i = 1..N, N up to 100000)
//   headerbytes=N        one extra header line "X-Big: " + N bytes of 'x' (k/m suffix: headerbytes=1M;
//                        up to 64M). Both keep the connection alive and combine with the others.
// A host with limited tolerance (issue 14; HostTolerance):
//   tolerance=K&tolms=BASE&tolstep=STEP   the listening host serves at most K such requests at once (a server
//                        with K workers): one that comes up while K are being served gets 503 at once (with
//                        ra/radate/raraw's Retry-After if given, none by default); an admitted one is
//                        answered after BASE + STEP x n ms, n = the tolerance requests it serves at that
//                        moment, this one included (it slows as load rises; ms/work are ignored). The count
//                        is per listening host, shared by every target with tolerance=, and not cleared by a
//                        reset.
// Unknown parameters are ignored. Every response carries "Connection: keep-alive" unless the profile
// closes; HTTP/1.1 keep-alive and pipelined requests on one connection are served in order.
//
// Details (additions to the list above):
// - Precedence when parameters conflict: hang, close, malformed, a failing `fail` hit, loop, redirect>0,
//   to, nolocation, reset, lie, trickle, then the normal answer. gzip/deflate and chunked shape the
//   normal answer's body only (reset, lie and trickle ignore them); gzip wins over size. headers and
//   headerbytes apply to the normal answer too (not to 204/304).
// - `status` outside 200..599 is ignored; 204 and 304 carry no body. Any 429 or 503 (a `fail` hit or
//   `status`) carries the ra/radate/raraw header when one is given. HEAD gets headers only.
// - rafmt defaults to imf; dates are always English and GMT. raraw has CR/LF stripped.
// - `redirect`, `loop` Locations are absolute URLs on the same listening host.
// - A request that is not HTTP (bad request line, chunked request body, head over 64 KiB) gets 400/501/431
//   and the connection closes. Request bodies announced by Content-Length are read and discarded.
// - With setControlEndpoints(true) (the crawlscope-testsite executable turns it on) `GET /__records`
//   returns recordsJson() (query: host=H to filter, requests=0 to omit per-request records, headers=1 to
//   add each request's header list) and `GET /__reset` calls resetRecords(); neither is recorded nor
//   counted.
// - Every request head that arrives is counted and recorded at once (also pipelined ones, ones that get a
//   malformed answer, ones the client abandons), with its method, full head and header lines, so a test
//   can count re-sends and see which headers (Authorization, Cookie, ...) reached which host. A request
//   ends when its response is written, when the profile closes the connection, or when the client closes
//   it (then `clientClosed` is set). The site never closes an idle keep-alive connection;
//   HostRecord::openConnections says how many the clients keep open.
class TestSite : public QObject {
    Q_OBJECT
public:
    explicit TestSite(QObject *parent = nullptr);
    ~TestSite() override; // stops the server thread, closes every connection

    // Listens on address:port (0 = ephemeral). Returns "address:port", or an empty string and sets *error.
    QString addHost(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0,
                    QString *error = nullptr);
    QStringList hosts() const;                  // "address:port" in the order added
    QString baseUrl(const QString &host) const; // "http://address:port"
    // `count` URLs on `host`, the index 0, 1, ... filled into `targetPattern`'s %1 ("/p%1?ms=300"); as a
    // list, and as the text of a URL list file (one a line).
    QStringList urls(const QString &host, int count, const QString &targetPattern) const;
    QByteArray urlList(const QString &host, int count, const QString &targetPattern) const;

    // Robots profile: what `host` answers for GET /robots.txt from now on (see RobotsTxt). Thread-safe;
    // false for an unknown host.
    bool setRobotsTxt(const QString &host, const RobotsTxt &robots);

    // Server-observed facts, thread-safe.
    HostRecord hostRecord(const QString &host) const;
    QList<RequestRecord> requests(const QString &host = {}) const; // in start order; all hosts if empty
    qint64 totalRequests() const;
    void resetRecords(); // also resets fail=K counters; requests still open keep counting in inFlight
    static qint64 nowNs();

    // JSON object {"hosts":[HostRecord...],"requests":[RequestRecord...]}, thread-safe.
    QByteArray recordsJson(const QString &host = {}, bool includeRequests = true,
                           bool includeHeaders = false) const;
    // Serve /__records and /__reset (off by default, so a crawl of arbitrary paths is never intercepted).
    void setControlEndpoints(bool enabled);
    // Keep at most `maxRecords` RequestRecords (host counters still count everything); -1 = no limit.
    // Long benchmarks use it to keep memory flat.
    void setMaxRequestRecords(qint64 maxRecords);
    // Linux: the server thread's nice value (0-19). A benchmark of the window sets it so the in-process
    // site, which stands in for a remote server, does not take the CPU the window's thread would get.
    void setServerNice(int nice);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace testsite
