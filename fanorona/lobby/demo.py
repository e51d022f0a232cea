"""``make lobby-demo``: a lobby on 127.0.0.1, two computer clients that play ranked games
through it as students would, and the ladder after them."""

from __future__ import annotations

import threading

from .bot import play_game
from .client import LobbyClient
from .ratings import ladder_text
from .run import Background
from .store import Store


def demo(db: str, size: str, levels: str, games: int) -> int:
    store = Store(db)
    strengths = [int(n) for n in levels.split(",")]
    names = [f"computer{n}" for n in strengths]
    tokens = [store.add_player(name) for name in names]
    with Background(store) as lobby:
        print(f"lobby on {lobby.page}; {names[0]} and {names[1]} play {games} ranked games")
        a, b = (LobbyClient(lobby.url, t) for t in tokens)
        with a, b:
            for n in range(games):
                mark = len(b.messages)
                code = a.invite(to=b.name, size=size, clock="5+2", ranked=True)
                b.wait_for(lambda m, code=code: m.get("invitation") == code, mark)
                mark_a = len(a.messages)
                state_b = b.accept(code)
                state_a = a.game(mark_a)
                thread = threading.Thread(target=play_game, args=(a, state_a, strengths[0], n))
                thread.start()
                over = play_game(b, state_b, strengths[1], n)
                thread.join()
                record = b.record(state_b["game"])
                print(
                    f"game {n + 1}: {record.white} (white) - {record.black} (black), "
                    f"{len(record.turns)} turns, {over['outcome']['reason']}; "
                    f"winner {over['outcome']['winner'] or 'none (draw)'}"
                )
            print()
            print(ladder_text(store.ladder()))
    return 0
