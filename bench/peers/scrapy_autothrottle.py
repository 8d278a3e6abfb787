#!/usr/bin/env python3
"""Scrapy with AutoThrottle as the peer for the host-health benchmark (issue 14): the same list spider as
scrapy_crawler.py, but AUTOTHROTTLE_ENABLED (Scrapy's latency-targeted concurrency: the per-domain
download delay moves towards latency / AUTOTHROTTLE_TARGET_CONCURRENCY), CONCURRENT_REQUESTS_PER_DOMAIN as
the ceiling, and Scrapy's RetryMiddleware on (it retries 503 without backoff).

Usage: scrapy_autothrottle.py --input URLS.txt --output results.csv [--per-host 16] [--retries 6]
                              [--target-concurrency 1.0] [--start-delay 0.1] [--max-delay 10]
Prints one JSON line on stdout: {"requests":..,"ok":..,"errors":..,"elapsed_s":..}. Exit 0 when done.
"""
import argparse
import json
import os
import sys
import time

from scrapy.crawler import CrawlerProcess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scrapy_crawler import COLUMNS, ListSpider  # noqa: E402  (the spider and columns are shared)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--input", required=True)
    ap.add_argument("--output", required=True)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--per-host", type=int, default=16)
    ap.add_argument("--retries", type=int, default=6)
    ap.add_argument("--target-concurrency", type=float, default=1.0)
    # Scrapy's default start delay is 5 s; a short one keeps the comparison about the steady state.
    ap.add_argument("--start-delay", type=float, default=0.1)
    ap.add_argument("--max-delay", type=float, default=10.0)
    ap.add_argument("--timeout", type=float, default=30.0)
    a = ap.parse_args()
    settings = {
        "CONCURRENT_REQUESTS": a.concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": a.per_host,
        "CONCURRENT_REQUESTS_PER_IP": 0,
        "CONCURRENT_ITEMS": 1,
        "AUTOTHROTTLE_ENABLED": True,
        "AUTOTHROTTLE_TARGET_CONCURRENCY": a.target_concurrency,
        "AUTOTHROTTLE_START_DELAY": a.start_delay,
        "AUTOTHROTTLE_MAX_DELAY": a.max_delay,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "RETRY_ENABLED": a.retries > 0,
        "RETRY_TIMES": a.retries,
        "ROBOTSTXT_OBEY": False,
        "COOKIES_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "ERROR",
        "LOGSTATS_INTERVAL": 0,
        "DOWNLOAD_TIMEOUT": a.timeout,
        "HTTPERROR_ALLOW_ALL": True,
        "USER_AGENT": "scrapy-benchmark-peer/1.0 (+loopback benchmark)",
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
        "FEED_EXPORT_ENCODING": "utf-8",
        "FEEDS": {a.output: {"format": "csv", "fields": COLUMNS, "overwrite": True}},
    }
    counts = {}
    process = CrawlerProcess(settings=settings)
    t0 = time.monotonic()
    process.crawl(ListSpider, input_path=a.input, stats_out=counts)
    process.start()
    elapsed = time.monotonic() - t0
    n = sum(counts.values())
    print(json.dumps({"requests": n, "ok": counts.get("ok", 0), "errors": n - counts.get("ok", 0),
                      "elapsed_s": round(elapsed, 4), "outcomes": counts}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
