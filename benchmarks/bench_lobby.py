"""The lobby under a class's load: simulated clients on 127.0.0.1 play 9x5 games through one lobby
process, most at a human pace (a turn every 1 to 3 s), a tenth of the games far faster (a turn
every 50 ms).  Prints the relay latency of a turn (one player's send to the opponent's receipt,
both clocks in this process) at p50 and p99, the messages a second, and the server's memory.

Bounded: each scenario runs ``--seconds`` (default 20) with a fixed number of players.  Goal on a
2-core machine: p99 at most 50 ms and the server under 200 MB with 400 players.  The
simulated players run in ``--clients`` processes (2), each holding whole games.

``--hostile`` adds, in a process of its own and only against 127.0.0.1: two signed-in students
who send invitations to classmates and WebSocket pings, each at the lobby's limit (reconnecting
when dropped), and ``--strangers`` (1,000) connections that never sign in, each held until the
lobby closes it (or 10 s) and then opened again.  The goals stay the same.

Two relay times are printed: the clients' (the mover's send to the opponent's receipt, which on
a shared machine includes the wait of the client processes for a core) and the server's own
(``/relay``: from reading the turn to writing it to each player's socket).  ``--client-nice``
runs the simulated clients at a lower priority and ``--server-nice`` the lobby at a higher one
(negative: root only), to tell the server's delay from the load generator's.

python -m benchmarks.bench_lobby [--seconds 20] [--players 100,400] [--hostile]
    [--client-nice 10] [--server-nice -5]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import psutil
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from benchmarks.servers import ROOT, free_port
from fanorona.lobby.store import Store

HUMAN, FAST = (1.0, 3.0), (0.05, 0.05)


class Player:
    """One simulated student: signs in, plays its games' turns after a pause, times what it
    receives."""

    def __init__(self, name, token, pace, rng, sent, latencies, counts):
        self.name, self.token, self.pace, self.rng = name, token, pace, rng
        self.sent, self.latencies, self.counts = sent, latencies, counts
        self.seq = 0
        self.moving: set = set()  # the turns waiting out their pause

    def later(self, ws, game, ply, legal) -> None:
        task = asyncio.create_task(self.move(ws, game, ply, legal))
        self.moving.add(task)
        task.add_done_callback(self.moving.discard)

    async def send(self, ws, kind, **fields):
        self.seq += 1
        self.counts["sent"] += 1
        await ws.send(json.dumps({"type": kind, "seq": self.seq, **fields}))

    async def run(self, url, partner, host: bool, until: float):
        async with connect(url, max_size=2**20) as ws:
            await self.send(ws, "hello", token=self.token)
            games = {}
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), until - time.monotonic())
                except TimeoutError:
                    break
                now = time.perf_counter()
                self.counts["received"] += 1
                m = json.loads(raw)
                if m["type"] == "welcome":
                    self.counts["signed in"] += 1
                    self.seq = m["seq"]
                    if host:
                        await asyncio.sleep(self.rng.uniform(0, 2))
                        await self.invite(ws, partner)
                elif m["type"] == "invitation":
                    await self.send(ws, "accept", invitation=m["invitation"])
                elif m["type"] == "game":
                    games[m["game"]] = m
                    if m["to_move"] == m["you"]:
                        self.later(ws, m, len(m["turns"]), m["legal"])
                elif m["type"] == "turn" and m["game"] in games:
                    game = games[m["game"]]
                    if m["by"] != game["you"]:
                        key = (m["game"], m["ply"])
                        if key in self.sent:
                            self.latencies.append(now - self.sent.pop(key))
                        if m["legal"]:
                            self.later(ws, game, m["ply"] + 1, m["legal"])
                elif m["type"] == "over" and host:
                    games.pop(m["game"], None)
                    await self.invite(ws, partner)

    async def invite(self, ws, partner):
        await self.send(ws, "invite", to=partner, size="9x5", rules="standard", clock="30+0",
                        ranked=True)  # fmt: skip

    async def move(self, ws, game, ply, legal):
        await asyncio.sleep(self.rng.uniform(*self.pace))
        self.sent[(game["game"], ply)] = time.perf_counter()
        with contextlib.suppress(ConnectionClosed):  # the scenario's time is up
            await self.send(ws, "turn", game=game["game"], ply=ply, turn=self.rng.choice(legal))


async def crowd(url, tokens, seconds, seed=0):
    rng = random.Random(seed)
    sent, latencies, counts = {}, [], {"sent": 0, "received": 0, "signed in": 0}
    names = sorted(tokens)
    until = time.monotonic() + seconds
    tasks = []
    for n in range(0, len(names), 2):
        pace = FAST if (n // 2) % 10 == 0 else HUMAN
        a, b = names[n], names[n + 1]
        for me, other, host in ((a, b, True), (b, a, False)):
            player = Player(me, tokens[me], pace, random.Random(rng.random()), sent, latencies,
                            counts)  # fmt: skip
            tasks.append(asyncio.create_task(player.run(url, other, host, until)))
        await asyncio.sleep(0.005)  # a class arriving, not one burst
    await asyncio.gather(*tasks, return_exceptions=True)
    return latencies, counts


def crowd_process(url, tokens, seconds, seed, nice=0):
    """One process's share of the class (whole games, so both clocks of a turn are its own)."""
    os.nice(nice)
    return asyncio.run(crowd(url, tokens, seconds, seed))


async def flooder(url, token, targets, until, counts, rng):
    """A student who invites classmates and pings at the lobby's limits, again after a drop."""
    from fanorona.lobby.protocol import RATE
    from fanorona.lobby.run import PING_RATE

    seq = 0
    while time.monotonic() < until:
        counts["flood sign-ins"] += 1
        with contextlib.suppress(ConnectionClosed, OSError):
            async with connect(url, max_size=2**20) as ws:
                seq += 1
                await ws.send(json.dumps({"type": "hello", "seq": seq, "token": token}))
                last_ping = time.monotonic()
                while time.monotonic() < until:
                    seq += 1
                    invite = {"type": "invite", "seq": seq, "to": rng.choice(targets),
                              "size": "9x5", "clock": "180+0", "ranked": True}  # fmt: skip
                    await ws.send(json.dumps(invite))
                    counts["invitations"] += 1
                    if time.monotonic() - last_ping >= 1 / PING_RATE:
                        last_ping = time.monotonic()
                        await ws.ping()
                        counts["pings"] += 1
                    await asyncio.sleep(1 / RATE)
                    with contextlib.suppress(TimeoutError):
                        while True:  # read what came, without waiting
                            await asyncio.wait_for(ws.recv(), 0.0001)
        if time.monotonic() < until:
            counts["flood drops"] += 1
            await asyncio.sleep(0.2)


UPGRADE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


async def stranger(port, until, counts):
    """A connection that never signs in: held until the lobby closes it (or 10 s), again."""
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            counts["stranger refusals"] += 1
            await asyncio.sleep(0.5)
            continue
        counts["strangers"] += 1
        writer.write(UPGRADE)
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(reader.read(), min(10.0, max(0.0, until - time.monotonic())))
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def hostile(url, port, tokens, targets, strangers, seconds):
    from fanorona.lobby.run import more_files

    more_files()  # a thousand connections need more than the usual 1,024 files
    until = time.monotonic() + seconds
    counts = dict.fromkeys(
        ("invitations", "pings", "flood sign-ins", "flood drops", "strangers",
         "stranger refusals"), 0,
    )  # fmt: skip
    rng = random.Random(7)
    tasks = [asyncio.create_task(flooder(url, t, targets, until, counts, rng)) for t in tokens]
    for _ in range(strangers):
        tasks.append(asyncio.create_task(stranger(port, until, counts)))
        await asyncio.sleep(0.002)
    await asyncio.gather(*tasks, return_exceptions=True)
    return counts


def hostile_process(url, port, tokens, targets, strangers, seconds, nice=0):
    os.nice(nice)
    return asyncio.run(hostile(url, port, tokens, targets, strangers, seconds))


def answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def server_relay(port: int) -> dict:
    """The lobby's own relay times (its ``/relay`` page)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/relay", timeout=10) as answer:
        return json.loads(answer.read())


def scenario(
    players: int,
    seconds: float,
    processes: int = 2,
    strangers: int | None = None,
    client_nice: int = 0,
    server_nice: int = 0,
    profile: str | None = None,
    probe: int = 0,
):
    """One run; with ``strangers`` (a number), the hostile clients beside the class; with
    ``profile``, the lobby runs under cProfile, its statistics written there; ``probe`` games of
    the class are played from a process of their own that is not niced."""
    profiled = ["-m", "cProfile", "-o", profile] if profile else []
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "lobby.sqlite"
        store = Store(db)
        tokens = {f"s{n:03d}": store.add_player(f"s{n:03d}") for n in range(players)}
        flooders = [store.add_player(f"flood{n}") for n in range(2)]
        store.close()
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, *profiled, "-m", "fanorona.lobby", "serve", str(db), "--port",
             str(port)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            process = psutil.Process(server.pid)
            if server_nice:
                process.nice(server_nice)
            deadline = time.monotonic() + 60
            while not answers(port):
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"the lobby did not start on port {port} within 60 s")
                time.sleep(0.2)
            peak = process.memory_info().rss
            names = sorted(tokens)
            probed, names = names[: 2 * probe], names[2 * probe :]
            shares = [
                {n: tokens[n] for pair in zip(names[::2], names[1::2])
                 for n in pair if names.index(pair[0]) // 2 % processes == k}
                for k in range(processes)
            ]  # fmt: skip
            url = f"ws://127.0.0.1:{port}/ws"
            start = time.monotonic()
            hostile_counts = None
            workers = processes + (strangers is not None) + bool(probed)
            with ProcessPoolExecutor(workers) as pool:
                if strangers is not None:
                    hostile_counts = pool.submit(
                        hostile_process, url, port, flooders, names, strangers, seconds,
                        client_nice,
                    )  # fmt: skip
                runs = [pool.submit(crowd_process, url, share, seconds, k, client_nice)
                        for k, share in enumerate(shares)]  # fmt: skip
                if probed:
                    share = {n: tokens[n] for n in probed}
                    runs.append(pool.submit(crowd_process, url, share, seconds, 99, 0))
                while not all(r.done() for r in runs):
                    peak = max(peak, process.memory_info().rss)
                    time.sleep(0.5)
            took = time.monotonic() - start
            latencies, counts = [], {"sent": 0, "received": 0, "signed in": 0}
            probe_ms = sorted(x * 1000 for x in runs[-1].result()[0]) if probed else []
            for run in runs:
                part, count = run.result()
                latencies += part if not probed or run is not runs[-1] else []
                for key in counts:
                    counts[key] += count[key]
            cpu = process.cpu_times()
            own = server_relay(port)
        finally:  # uvicorn raises SIGTERM again once stopped: SIGINT lets cProfile write
            server.send_signal(signal.SIGINT if profile else signal.SIGTERM)
            server.wait(30)
    ms = sorted(x * 1000 for x in latencies)
    p50 = statistics.median(ms) if ms else float("nan")
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else float("nan")
    if hostile_counts is not None:
        said = ", ".join(f"{v} {k}" for k, v in hostile_counts.result().items())
        print(f"hostile, beside the class: {said}")
    probe_said = (
        f"relay (probe: {probe} games, not niced) p50 {statistics.median(probe_ms):.1f} ms, "
        f"p99 {probe_ms[min(len(probe_ms) - 1, int(0.99 * len(probe_ms)))]:.1f} ms over "
        f"{len(probe_ms)} turns; "
        if probe_ms
        else ""
    )
    print(
        f"{'hostile: ' if strangers is not None else ''}"
        f"{players} players in {players // 2} games ({processes} client processes), "
        f"{took:.0f} s: {counts['signed in']} signed in, {len(ms)} turns relayed, "
        f"relay (clients) p50 {p50:.1f} ms, p99 {p99:.1f} ms; relay (server) p50 "
        f"{own['relay_p50_ms']} ms, p99 {own['relay_p99_ms']} ms over {own['turns']} turns "
        f"written, its loop late by {own['lag_p50_ms']} ms p50, {own['lag_p99_ms']} ms p99, "
        f"{own['lag_max_ms']} ms at most; "
        f"{probe_said}"
        f"{(counts['sent'] + counts['received']) / took:.0f} messages a second; "
        f"server {peak / 2**20:.0f} MB at most, {cpu.user + cpu.system:.1f} s of CPU; "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
        f"nice: clients {client_nice}, server {server_nice}"
    )


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--players", default="100,400")
    p.add_argument("--clients", type=int, default=2, help="processes for the simulated players")
    p.add_argument("--hostile", action="store_true", help="flooders and strangers beside the class")
    p.add_argument("--strangers", type=int, default=1000, help="connections never signing in")
    p.add_argument("--client-nice", type=int, default=0, help="niceness added to the clients")
    p.add_argument("--server-nice", type=int, default=0, help="the lobby's niceness (-20 to 19)")
    p.add_argument("--profile", help="run the lobby under cProfile, its statistics to this file")
    p.add_argument("--probe", type=int, default=0, help="games played from an un-niced process")
    args = p.parse_args(argv if argv is not None else [])
    for players in (int(n) for n in args.players.split(",")):
        strangers = args.strangers if args.hostile else None
        nice = (args.client_nice, args.server_nice)
        scenario(players, args.seconds, args.clients, strangers, *nice, args.profile, args.probe)


if __name__ == "__main__":
    main(sys.argv[1:])
