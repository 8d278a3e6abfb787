#!/usr/bin/env python3
"""The seeds' pattern as a benchmark peer: asyncio + one httpx.AsyncClient whose own limits are set very
high, so that only an asyncio.Semaphore(N) decides how many requests are in flight (the seeds' article,
"Step 2: limit concurrency with asyncio.Semaphore": gather over every URL, each wrapped in `async with sem`).

Optionally (--interval-ms) the seeds' HostLimiter: the semaphore plus a minimum start-to-start interval,
reserved under a lock, for the pacing comparison.

Usage: httpx_semaphore.py --input URLS.txt --concurrency N [--interval-ms MS] [--output results.csv]
Prints one JSON line on stdout: {"requests":..,"ok":..,"errors":..,"elapsed_s":..}. Exit 0 when done.
"""
import argparse
import asyncio
import csv
import json
import sys
import time

import httpx


class HostLimiter:
    """Semaphore plus a minimum interval between request starts (the seeds' crawler.py shape)."""

    def __init__(self, concurrency, min_interval):
        self.sem = asyncio.Semaphore(concurrency)
        self.min_interval = min_interval
        self._lock = asyncio.Lock()
        self._next = 0.0

    async def __aenter__(self):
        await self.sem.acquire()
        if self.min_interval > 0:
            async with self._lock:
                now = time.monotonic()
                wait = max(0.0, self._next - now)
                self._next = max(now, self._next) + self.min_interval
            if wait:
                await asyncio.sleep(wait)

    async def __aexit__(self, *exc):
        self.sem.release()


async def fetch(client, url):
    t0 = time.monotonic()
    try:
        r = await client.get(url)
        return url, r.status_code, len(r.content), "", time.monotonic() - t0
    except httpx.HTTPError as exc:
        return url, 0, 0, type(exc).__name__, time.monotonic() - t0


async def bounded(urls, limit, interval_s, timeout_s):
    # The client's own pool must never be the tighter bound (the seeds: "let the semaphore be the tighter
    # limit"), so its limits are far above N.
    limits = httpx.Limits(max_connections=1000, max_keepalive_connections=1000)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(timeout_s)) as client:
        limiter = HostLimiter(limit, interval_s)  # created inside the running loop

        async def one(u):
            async with limiter:
                return await fetch(client, u)

        return await asyncio.gather(*(one(u) for u in urls), return_exceptions=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--input", required=True, help="file with one URL per line")
    ap.add_argument("--concurrency", type=int, default=5, help="asyncio.Semaphore(N)")
    ap.add_argument("--interval-ms", type=float, default=0.0, help="minimum start-to-start gap (0: none)")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--output", help="optional CSV: url,status,bytes,error,latency_ms")
    a = ap.parse_args()
    with open(a.input, encoding="utf-8") as f:
        urls = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    t0 = time.monotonic()
    results = asyncio.run(bounded(urls, a.concurrency, a.interval_ms / 1000.0, a.timeout))
    elapsed = time.monotonic() - t0
    ok = sum(1 for r in results if not isinstance(r, BaseException) and 200 <= r[1] < 400)
    if a.output:
        with open(a.output, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["url", "status", "bytes", "error", "latency_ms"])
            for r in results:
                if isinstance(r, BaseException):
                    w.writerow(["", 0, 0, repr(r), ""])
                else:
                    w.writerow([r[0], r[1], r[2], r[3], round(r[4] * 1000.0, 1)])
    print(json.dumps({"requests": len(urls), "ok": ok, "errors": len(urls) - ok, "elapsed_s": round(elapsed, 4)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
