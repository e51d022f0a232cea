"""The lobby's own process under load: its relay measured by itself (``/relay``: turns written
and how late its loop wakes) and its garbage collected steadily (no full collection whenever
young garbage piles up, one on a thread at a set pace), so a flood of connections does not stop
every game's turns for a full collection."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

from fanorona.lobby import LobbyClient
from fanorona.lobby.run import Background
from fanorona.lobby.store import Store


def test_the_lobby_measures_its_own_relay_of_each_turn():
    store = Store()
    tokens = {n: store.add_player(n) for n in ("ann", "bob")}
    with (
        Background(store) as lobby,
        LobbyClient(lobby.url, tokens["ann"], timeout=60) as ann,
        LobbyClient(lobby.url, tokens["bob"], timeout=60) as bob,
    ):
        lobby.lobby.coin = lambda n: 0  # the host, ann, plays White
        code = ann.invite(to="bob", size="3x3", clock="10+0", ranked=False)
        bob.wait_for(lambda m: m.get("invitation") == code)
        state = bob.accept(code)
        before = json.loads(urllib.request.urlopen(lobby.page + "relay", timeout=10).read())
        ann.play(state["game"], 0, "c2b2A")
        bob.wait_for(lambda m: m["type"] == "turn" and m["ply"] == 0)
        after = json.loads(urllib.request.urlopen(lobby.page + "relay", timeout=10).read())
    assert after["turns"] == before["turns"] + 2  # the mover's and the opponent's copy
    assert 0 <= after["relay_p50_ms"] <= after["relay_p99_ms"] <= after["relay_max_ms"]
    assert after["lag_p50_ms"] is not None and after["lag_max_ms"] >= 0


STEADY = """
import gc, time, weakref
from fanorona.lobby.run import steady_collection

steady_collection(every=0.2)
assert gc.get_freeze_count() > 0, "nothing frozen"
assert gc.get_threshold()[2] >= 10**9, gc.get_threshold()

class Node: pass

a, b = Node(), Node()
a.other, b.other = b, a  # a cycle: only the collector frees it
gone = []
ref = weakref.ref(a, lambda _: gone.append(1))
for _ in range(3):  # let the cycle grow old, as a connection's objects do
    gc.collect(0), gc.collect(1)
del a, b
deadline = time.monotonic() + 10
while not gone and time.monotonic() < deadline:
    time.sleep(0.05)
print("collected" if gone else "not collected")
"""


def test_the_full_collection_runs_on_its_own_thread_at_its_pace():
    run = subprocess.run([sys.executable, "-c", STEADY], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "collected"


def test_a_strangers_connection_is_freed_without_a_garbage_collection():
    """A connection that never signs in and drops (a thousand of them reconnect in the hostile
    benchmark) leaves no cycle of its protocol for the full collection to walk."""
    import gc
    import socket
    import time

    from websockets.server import ServerProtocol

    from benchmarks.bench_lobby import UPGRADE

    def protocols() -> int:
        return sum(type(o) is ServerProtocol for o in gc.get_objects())

    with Background(Store()) as lobby:
        gc.collect()
        gc.disable()
        try:
            before = protocols()
            for _ in range(20):
                with socket.create_connection(("127.0.0.1", lobby.port)) as stranger:
                    stranger.sendall(UPGRADE)
                    assert stranger.recv(100).startswith(b"HTTP/1.1 101")
            deadline = time.monotonic() + 10
            while protocols() > before and time.monotonic() < deadline:
                time.sleep(0.1)
            assert protocols() <= before, "closed connections wait for the garbage collector"
        finally:
            gc.enable()
