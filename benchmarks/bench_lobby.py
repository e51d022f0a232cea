"""The lobby under a class's load: simulated clients on 127.0.0.1 play 9x5 games through one lobby
process, most at a human pace (a turn every 1 to 3 s), a tenth of the games far faster (a turn
every 50 ms).  Prints the relay latency of a turn (one player's send to the opponent's receipt,
both clocks in this process) at p50 and p99, the messages a second, and the server's memory.

Bounded: each scenario runs ``--seconds`` (default 20) with a fixed number of players.  Goal on a
2-core machine: p99 at most 50 ms and the server under 200 MB with 400 players.  The
simulated players run in ``--clients`` processes (2), each holding whole games.

python -m benchmarks.bench_lobby [--seconds 20] [--players 100,400]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
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
    sent, latencies, counts = {}, [], {"sent": 0, "received": 0}
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


def crowd_process(url, tokens, seconds, seed):
    """One process's share of the class (whole games, so both clocks of a turn are its own)."""
    return asyncio.run(crowd(url, tokens, seconds, seed))


def answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def scenario(players: int, seconds: float, processes: int = 2) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "lobby.sqlite"
        store = Store(db)
        tokens = {f"s{n:03d}": store.add_player(f"s{n:03d}") for n in range(players)}
        store.close()
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "fanorona.lobby", "serve", str(db), "--port", str(port)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            process = psutil.Process(server.pid)
            deadline = time.monotonic() + 60
            while not answers(port):
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"the lobby did not start on port {port} within 60 s")
                time.sleep(0.2)
            peak = process.memory_info().rss
            names = sorted(tokens)
            shares = [
                {n: tokens[n] for pair in zip(names[::2], names[1::2])
                 for n in pair if names.index(pair[0]) // 2 % processes == k}
                for k in range(processes)
            ]  # fmt: skip
            url = f"ws://127.0.0.1:{port}/ws"
            start = time.monotonic()
            with ProcessPoolExecutor(processes) as pool:
                runs = [pool.submit(crowd_process, url, share, seconds, k)
                        for k, share in enumerate(shares)]  # fmt: skip
                while not all(r.done() for r in runs):
                    peak = max(peak, process.memory_info().rss)
                    time.sleep(0.5)
            took = time.monotonic() - start
            latencies, counts = [], {"sent": 0, "received": 0}
            for run in runs:
                part, count = run.result()
                latencies += part
                for key in counts:
                    counts[key] += count[key]
            cpu = process.cpu_times()
        finally:
            server.terminate()
            server.wait(10)
    ms = sorted(x * 1000 for x in latencies)
    p50 = statistics.median(ms) if ms else float("nan")
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else float("nan")
    print(
        f"{players} players in {players // 2} games ({processes} client processes), "
        f"{took:.0f} s: {len(ms)} turns relayed, "
        f"latency p50 {p50:.1f} ms, p99 {p99:.1f} ms; "
        f"{(counts['sent'] + counts['received']) / took:.0f} messages a second; "
        f"server {peak / 2**20:.0f} MB at most, {cpu.user + cpu.system:.1f} s of CPU; "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    )


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--players", default="100,400")
    p.add_argument("--clients", type=int, default=2, help="processes for the simulated players")
    args = p.parse_args(argv if argv is not None else [])
    for players in (int(n) for n in args.players.split(",")):
        scenario(players, args.seconds, args.clients)


if __name__ == "__main__":
    main(sys.argv[1:])
