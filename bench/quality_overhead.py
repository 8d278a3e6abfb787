#!/usr/bin/env python3
"""What obeying robots.txt and the acceptance checks cost (issue 13): the 30k-URL / 8-host loopback run
with pages that carry a title, Crawlscope with --robots ignore --soft-404 off (nothing checked, no title
kept) against --robots obey --expect-title (robots.txt fetched per host, every page's title scanned and
checked, soft-404 detection on), interleaved, median of the runs.

  bench/quality_overhead.py BUILD_DIR [--urls 30000] [--runs 3] [--baseline OLD_CRAWLSCOPE]

--baseline adds a third contender: a crawlscope built from before issue 13 (no robots.txt, no body kept,
no title scanned), run with the same flags minus the new ones.

nginx serves a 2 KiB HTML page with a title on 127.0.0.2-9 and a robots.txt with one Disallow that no URL
matches (so both modes fetch the same URLs). Loopback only; standard library only.
"""
import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOSTS = [f"127.0.0.{i}" for i in range(2, 10)]
PAGE = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Product 1234 - Example shop</title></head>"
        "<body><h1>Product 1234</h1>" + "<p>Some text about the product, long enough to be a page.</p>" * 30 +
        "</body></html>\n")
ROBOTS = "User-agent: *\nDisallow: /private/\nAllow: /\n"


def free_port(addr):
    with socket.socket() as s:
        s.bind((addr, 0))
        return s.getsockname()[1]


def wait_listening(addr, port, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection((addr, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def start_nginx(tmp):
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    root = Path(tmp) / "nginx"
    root.mkdir()
    (root / "page.html").write_text(PAGE)
    (root / "robots.txt").write_text(ROBOTS)
    port = free_port(HOSTS[0])
    listens = "\n".join(f"        listen {a}:{port} reuseport backlog=4096;" for a in HOSTS)
    conf = root / "nginx.conf"
    conf.write_text(f"""worker_processes 1;
daemon off;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {root}/cb; proxy_temp_path {root}/p; fastcgi_temp_path {root}/f;
    uwsgi_temp_path {root}/u; scgi_temp_path {root}/s;
    keepalive_requests 10000000;
    keepalive_timeout 120s;
    server {{
{listens}
        root {root};
        location = /robots.txt {{ default_type text/plain; }}
        location / {{ default_type text/html; try_files /page.html =404; }}
    }}
}}
""")
    proc = subprocess.Popen([binary, "-p", f"{root}/", "-e", f"{root}/error.log", "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    if not all(wait_listening(a, port) for a in HOSTS):
        proc.kill()
        sys.exit("nginx did not start")
    return proc, port


def run(binary, urls_file, out, flags):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", NO_PROXY="127.0.0.0/8", no_proxy="127.0.0.0/8")
    for v in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env.pop(v, None)
    cmd = [binary, "--headless", "--quiet", "--input", urls_file, "--output", out, "--concurrency", "64",
           "--per-host", "8", "--interval-ms", "0", "--retries", "0"] + flags
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"crawlscope exited {status}: {' '.join(cmd)}")
    return wall, usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build_dir")
    ap.add_argument("--urls", type=int, default=30000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--baseline", help="a crawlscope binary from before issue 13")
    args = ap.parse_args()
    binary = str(Path(args.build_dir) / "app" / "crawlscope")
    modes = {
        "off (--robots ignore --soft-404 off)": (binary, ["--robots", "ignore", "--soft-404", "off"]),
        "on (--robots obey --expect-title, soft-404 report)": (binary, ["--robots", "obey", "--expect-title"]),
    }
    if args.baseline:
        modes["baseline (before issue 13)"] = (args.baseline, [])
    with tempfile.TemporaryDirectory() as tmp:
        nginx, port = start_nginx(tmp)
        try:
            urls = Path(tmp) / "urls.txt"
            urls.write_text("".join(f"http://{HOSTS[i % len(HOSTS)]}:{port}/item/{i}\n" for i in range(args.urls)))
            results = {m: [] for m in modes}
            for r in range(args.runs):
                for name, (exe, flags) in modes.items():
                    out = Path(tmp) / "out.csv"
                    wall, cpu = run(exe, str(urls), str(out), flags)
                    rows = sum(1 for _ in open(out, encoding="utf-8")) - 1
                    if rows != args.urls:
                        sys.exit(f"{name}: {rows} rows for {args.urls} URLs")
                    results[name].append((args.urls / wall, cpu * 1e6 / args.urls))
                    print(f"run {r + 1} {name}: {args.urls / wall:,.0f} URLs/s, {cpu * 1e6 / args.urls:.0f} us CPU/URL",
                          flush=True)
            print(f"\nload average at end: {os.getloadavg()}")
            for name in modes:
                rates = [x[0] for x in results[name]]
                cpus = [x[1] for x in results[name]]
                print(f"{name}: median {statistics.median(rates):,.0f} URLs/s (min {min(rates):,.0f}, max "
                      f"{max(rates):,.0f}); median CPU {statistics.median(cpus):.0f} us/URL")
        finally:
            nginx.send_signal(signal.SIGQUIT)
            nginx.wait(10)


if __name__ == "__main__":
    main()
