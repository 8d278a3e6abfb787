#pragma once
// Synthetic crawl results and a memory probe for the window's scale tests and the window benchmark, so both
// measure the same rows. Header-only: its users link crawlcore; the test-site library itself does not.

#include "model/crawlresult.h"

#include <QFile>

namespace testsite {

// A plausible result for row `id`: 50 hosts, every 20th a 404, varied sizes and latencies.
inline crawl::CrawlResult makeSyntheticResult(quint64 id) {
    crawl::CrawlResult r;
    r.id = id;
    r.lineNumber = qint64(id) + 1;
    const int host = int(id % 50);
    r.host = QStringLiteral("host%1.example.com:443").arg(host);
    r.url = QStringLiteral("https://host%1.example.com/catalog/item/%2?ref=list").arg(host).arg(id);
    const bool failed = id % 20 == 0;
    r.outcome = failed ? crawl::Outcome::HttpError : crawl::Outcome::Ok;
    r.status = failed ? 404 : 200;
    r.finalUrl = r.url;
    r.attempts = 1;
    r.bytes = 5000 + qint64(id % 997);
    r.contentType = QStringLiteral("text/html; charset=utf-8");
    r.latencyMs = qint64(id % 400);
    r.ttfbMs = r.latencyMs / 2;
    if (failed)
        r.error = QStringLiteral("HTTP 404 Not Found");
    r.startedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000 + qint64(id), Qt::UTC);
    r.finishedAt = r.startedAt.addMSecs(r.latencyMs);
    return r;
}

// This process's resident memory in KiB (Linux /proc), -1 when unknown.
inline qint64 residentKiB() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

} // namespace testsite
