#!/usr/bin/env python3
"""A well-written aiohttp crawler, the peer the issues compare Crawlscope against.

A bounded asyncio.Queue fed by a producer that streams the input file (so a million URLs never become a
million tasks), a fixed pool of workers (64), one shared ClientSession whose TCPConnector enforces the
global limit (limit=64) and the per-host limit (limit_per_host=8), and a CSV with Crawlscope's columns,
written as URLs finish. No retries, no pacing (the throughput benchmark runs none).

Usage: aiohttp_crawler.py --input URLS.txt --output results.csv [--workers 64] [--concurrency 64]
                          [--per-host 8] [--timeout 30]
Prints one JSON line on stdout: {"requests":..,"ok":..,"errors":..,"elapsed_s":..}. Exit 0 when done.
"""
import argparse
import asyncio
import csv
import json
import sys
import time
from datetime import datetime, timezone
from urllib.parse import urlsplit

import aiohttp

COLUMNS = ["url", "final_url", "host", "status", "outcome", "attempts", "redirects", "bytes",
           "content_type", "latency_ms", "ttfb_ms", "error", "started_at", "finished_at"]
_SENTINEL = None


def iso(ts):
    return datetime.fromtimestamp(ts, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def authority(url):
    try:
        p = urlsplit(url)
        return p.netloc.lower()
    except ValueError:
        return ""


async def producer(path, queue, n_workers):
    with open(path, encoding="utf-8-sig") as f:
        for line_no, line in enumerate(f, 1):
            url = line.strip()
            if url and not url.startswith("#"):
                await queue.put((line_no, url))
    for _ in range(n_workers):
        await queue.put(_SENTINEL)


async def worker(queue, session, writer, stats, max_bytes):
    while True:
        item = await queue.get()
        if item is _SENTINEL:
            return
        line_no, url = item
        t_start = time.time()
        m0 = time.monotonic()
        status, outcome, nbytes, ctype, err, final_url, redirects, ttfb = 0, "network_error", 0, "", "", url, 0, None
        try:
            async with session.get(url, allow_redirects=True, max_redirects=10) as resp:
                ttfb = time.monotonic() - m0
                status = resp.status
                final_url = str(resp.url)
                redirects = len(resp.history)
                ctype = resp.headers.get("Content-Type", "")
                body = await resp.content.read(max_bytes + 1)
                nbytes = len(body)
                if nbytes > max_bytes:
                    outcome, err = "too_large", f"body over {max_bytes} bytes"
                elif status >= 400:
                    outcome, err = "http_error", f"HTTP {status} {resp.reason or ''}".strip()
                else:
                    outcome = "ok"
        except asyncio.TimeoutError:
            outcome, err = "timeout", "timed out"
        except aiohttp.InvalidURL as exc:
            outcome, err = "invalid_url", f"line {line_no}: {exc}"
        except aiohttp.TooManyRedirects:
            outcome, err = "http_error", "too many redirects"
        except (aiohttp.ClientError, OSError) as exc:
            outcome, err = "network_error", f"{type(exc).__name__}: {exc}"
        latency = time.monotonic() - m0
        t_end = t_start + latency
        stats[outcome] = stats.get(outcome, 0) + 1
        writer.writerow([url, final_url, authority(final_url), status or "", outcome, 1, redirects, nbytes, ctype,
                         round(latency * 1000.0, 1), "" if ttfb is None else round(ttfb * 1000.0, 1), err,
                         iso(t_start), iso(t_end)])


async def crawl(a, writer):
    stats = {}
    connector = aiohttp.TCPConnector(limit=a.concurrency, limit_per_host=a.per_host, ttl_dns_cache=300)
    timeout = aiohttp.ClientTimeout(total=a.timeout, connect=10, sock_read=15)
    headers = {"User-Agent": "aiohttp-benchmark-peer/1.0 (+loopback benchmark)"}
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, headers=headers) as session:
        queue = asyncio.Queue(maxsize=a.workers * 4)
        workers = [asyncio.create_task(worker(queue, session, writer, stats, a.max_bytes)) for _ in range(a.workers)]
        prod = asyncio.create_task(producer(a.input, queue, a.workers))
        try:
            await asyncio.gather(prod, *workers)
        finally:
            for t in workers + [prod]:
                t.cancel()
            await asyncio.gather(*workers, prod, return_exceptions=True)
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--input", required=True)
    ap.add_argument("--output", default="-")
    ap.add_argument("--workers", type=int, default=64)
    ap.add_argument("--concurrency", type=int, default=64, help="TCPConnector(limit=...)")
    ap.add_argument("--per-host", type=int, default=8, help="TCPConnector(limit_per_host=...)")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--max-bytes", type=int, default=10 * 1024 * 1024)
    a = ap.parse_args()
    out = sys.stdout if a.output == "-" else open(a.output, "w", newline="", encoding="utf-8", buffering=1 << 16)
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    t0 = time.monotonic()
    stats = asyncio.run(crawl(a, writer))
    elapsed = time.monotonic() - t0
    if out is not sys.stdout:
        out.close()
    n = sum(stats.values())
    summary = {"requests": n, "ok": stats.get("ok", 0), "errors": n - stats.get("ok", 0),
               "elapsed_s": round(elapsed, 4), "outcomes": stats}
    print(json.dumps(summary), file=sys.stderr if a.output == "-" else sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
