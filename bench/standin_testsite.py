#!/usr/bin/env python3
"""A small stand-in for `crawlscope-testsite`, standard library only, used by run-benchmarks when the
real test site is not built (and while developing the harness). Same command line and the same
observation endpoints, with only the profile the benchmarks need:

  standin_testsite.py --hosts 127.0.0.2,127.0.0.3 --port 0
      prints {"hosts":["127.0.0.2:41234", ...]} on stdout, serves until SIGTERM/SIGINT.
  GET /anything?ms=N        hold the response N ms (also ms=A-B: uniform random), then 200 "ok\n"
  GET /anything?status=N    answer with that status
  GET /__records            {"hosts":[{"host","inFlight","peakInFlight","requests"}],
                             "requests":[{"host","target","startNs","endNs","status"}]}
  GET /__reset              clears the records
Times are time.monotonic_ns(); a request starts when its head has been read completely.
"""
import argparse
import asyncio
import json
import random
import signal
import sys
import time
from urllib.parse import parse_qs, urlsplit


class Site:
    def __init__(self):
        self.hosts = {}       # "addr:port" -> {"inFlight", "peakInFlight", "requests"}
        self.records = []     # dicts

    def reset(self):
        for h in self.hosts.values():
            h["peakInFlight"] = h["inFlight"]
            h["requests"] = 0
        self.records = []

    def snapshot(self):
        return {"hosts": [dict(host=k, **v) for k, v in self.hosts.items()], "requests": self.records}

    async def handle(self, host, reader, writer):
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                    return
                start = time.monotonic_ns()
                line = head.split(b"\r\n", 1)[0].decode("latin-1")
                parts = line.split(" ")
                target = parts[1] if len(parts) >= 2 else "/"
                lower = head.lower()
                close = b"connection: close" in lower
                clen = 0
                for hl in lower.split(b"\r\n"):
                    if hl.startswith(b"content-length:"):
                        clen = int(hl.split(b":", 1)[1].strip() or 0)
                if clen:
                    await reader.readexactly(clen)
                path = urlsplit(target).path
                if path in ("/__records", "/__reset"):
                    if path == "/__reset":
                        self.reset()
                    body = json.dumps(self.snapshot() if path == "/__records" else {"reset": True}).encode()
                    await self.respond(writer, 200, body, "application/json", close)
                    if close:
                        return
                    continue
                q = parse_qs(urlsplit(target).query)
                h = self.hosts[host]
                h["inFlight"] += 1
                h["requests"] += 1
                h["peakInFlight"] = max(h["peakInFlight"], h["inFlight"])
                rec = {"host": host, "target": target, "startNs": start, "endNs": 0, "status": 0}
                self.records.append(rec)
                try:
                    ms = q.get("ms", ["0"])[0]
                    if "-" in ms:
                        lo, hi = ms.split("-", 1)
                        delay = random.uniform(float(lo), float(hi))
                    else:
                        delay = float(ms or 0)
                    if delay > 0:
                        await asyncio.sleep(delay / 1000.0)
                    status = int(q.get("status", ["200"])[0])
                    rec["status"] = status
                    await self.respond(writer, status, b"ok\n", "text/plain", close)
                finally:
                    rec["endNs"] = time.monotonic_ns()
                    h["inFlight"] -= 1
                if close:
                    return
        except ConnectionError:
            return
        finally:
            writer.close()

    @staticmethod
    async def respond(writer, status, body, ctype, close):
        reason = {200: "OK", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error",
                  503: "Service Unavailable"}.get(status, "Status")
        writer.write(b"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: %s\r\n\r\n"
                     % (status, reason.encode(), ctype.encode(), len(body), b"close" if close else b"keep-alive")
                     + body)
        await writer.drain()


async def main_async(addrs, port):
    site = Site()
    servers, names = [], []
    for addr in addrs:
        holder = {}

        def factory(holder=holder):
            return lambda r, w: site.handle(holder["name"], r, w)

        srv = await asyncio.start_server(factory(), addr, port, backlog=1024)
        sock_port = srv.sockets[0].getsockname()[1]
        holder["name"] = f"{addr}:{sock_port}"
        site.hosts[holder["name"]] = {"inFlight": 0, "peakInFlight": 0, "requests": 0}
        servers.append(srv)
        names.append(holder["name"])
    print(json.dumps({"hosts": names}), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    for s in servers:
        s.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hosts", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    a = ap.parse_args()
    asyncio.run(main_async([h.strip() for h in a.hosts.split(",") if h.strip()], a.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
