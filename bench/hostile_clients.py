#!/usr/bin/env python3
"""Hostile and normal clients for bench/hostile_load.sh (standard library only).

    hostile_clients.py attack PORT --slow 300 --idle 1000 --seconds S
        holds SLOW connections that send a request head one header line a second and never end it, and IDLE
        connections that send nothing; a connection the server closes is opened again at once. Prints one
        JSON line: connections opened, closed by the server, answers seen (408/503 ...), at the end how many
        were held.
    hostile_clients.py probe PORT PATH --seconds S [--interval 0.2] [--timeout 5]
        a normal client: a new connection, GET PATH, the whole answer read, every INTERVAL seconds. Prints
        one JSON line: requests, answered 200 with a complete body, failed (no answer within TIMEOUT, another
        status, a short body), latency p50/p90/max in ms.
"""
import argparse
import json
import re
import resource
import selectors
import socket
import statistics
import time


def raise_file_limit(wanted):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard),
                                                    hard))


def attack(args):
    raise_file_limit(args.slow + args.idle + 256)
    sel = selectors.DefaultSelector()
    stats = {"opened": 0, "closed_by_server": 0, "connect_failed": 0, "answers": {}}
    conns = {}  # socket -> kind

    def open_one(kind):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect_ex(("127.0.0.1", args.port))
        except OSError:
            stats["connect_failed"] += 1
            s.close()
            return
        stats["opened"] += 1
        conns[s] = {"kind": kind, "sent": 0, "next": time.monotonic()}
        sel.register(s, selectors.EVENT_READ)

    def drop(s):
        sel.unregister(s)
        kind = conns.pop(s)["kind"]
        s.close()
        stats["closed_by_server"] += 1
        return kind

    for _ in range(args.slow):
        open_one("slow")
    for _ in range(args.idle):
        open_one("idle")
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        for key, _ in sel.select(timeout=0.1):
            s = key.fileobj
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if data:
                m = re.match(rb"HTTP/1\.1 (\d{3})", data)
                if m:
                    stats["answers"][m.group(1).decode()] = stats["answers"].get(m.group(1).decode(), 0) + 1
                continue
            open_one(drop(s))
        now = time.monotonic()
        for s, c in list(conns.items()):
            if c["kind"] != "slow" or now < c["next"]:
                continue
            piece = b"GET /errors/x HTTP/1.1\r\nHost: x\r\n" if c["sent"] == 0 else b"X-Slow-%d: 1\r\n" % c["sent"]
            try:
                s.send(piece)
                c["sent"] += 1
                c["next"] = now + 1.0
            except (BlockingIOError, InterruptedError):
                c["next"] = now + 0.2  # still connecting
            except OSError:
                open_one(drop(s))
    stats["held_at_end"] = len(conns)
    print(json.dumps(stats), flush=True)


def probe(args):
    latencies, failures, ok = [], [], 0
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", args.port), timeout=args.timeout) as s:
                s.sendall(f"GET {args.path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                data = b""
                while True:
                    if time.monotonic() - start > args.timeout:
                        raise TimeoutError
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = re.search(rb"\r\nContent-Length: (\d+)", head, re.I)
            if not head.startswith(b"HTTP/1.1 200 ") or not length or int(length.group(1)) != len(body):
                failures.append(head[:40].decode(errors="replace") or "empty answer")
            else:
                ok += 1
            latencies.append((time.monotonic() - start) * 1000)
        except (OSError, TimeoutError) as e:
            failures.append(f"no answer within {args.timeout} s ({type(e).__name__})")
        time.sleep(max(0.0, args.interval - (time.monotonic() - start)))
    q = statistics.quantiles(latencies, n=10) if len(latencies) >= 2 else [float("nan")] * 9
    print(json.dumps({"requests": ok + len(failures), "ok": ok, "failed": len(failures),
                      "failures": sorted(set(failures))[:5],
                      "p50_ms": round(statistics.median(latencies), 2) if latencies else None,
                      "p90_ms": round(q[8], 2) if latencies else None,
                      "max_ms": round(max(latencies), 2) if latencies else None}), flush=True)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    a = sub.add_parser("attack")
    a.add_argument("port", type=int)
    a.add_argument("--slow", type=int, default=300)
    a.add_argument("--idle", type=int, default=1000)
    a.add_argument("--seconds", type=float, default=20)
    p = sub.add_parser("probe")
    p.add_argument("port", type=int)
    p.add_argument("path")
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--interval", type=float, default=0.2)
    p.add_argument("--timeout", type=float, default=5)
    args = parser.parse_args()
    attack(args) if args.mode == "attack" else probe(args)


if __name__ == "__main__":
    main()
