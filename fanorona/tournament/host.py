"""The process a player runs in: it loads one player and answers the tournament's requests.

Started by ``sandbox.Player`` inside the kit's sandbox as ``__main__`` of a ``python -I`` (its
``BOOT``), never imported by the tournament itself.  It speaks JSON lines: a
request on standard input, an answer (naming the request's ``id``) on the pipe that was standard
output; everything the player prints goes to standard error, which the tournament reads, keeps the
start of and caps.  The first request brings the player's source, written to ``player.py`` in the
sandbox's private working folder.
"""

from __future__ import annotations

import json
import os
import random
import sys
import traceback

import fanorona  # noqa: F401
from fanorona.board import Board, Turn
from fanorona.engine import ai
from fanorona.rules import Rules

PLAYER_FILE = "player.py"


def builtin_player(
    spec: str, seed, size, rules: Rules, turn_seconds: float, progress: bool = False
):
    """A built-in player made fit for the turn limit: a timed search gets at most 60% of it (the
    rest is for the answer to travel), and the endgame table it reads is loaded now, before any
    clock starts (built and cached the first time, which takes a while)."""
    player = ai.make_player(spec, seed)
    if getattr(player, "time_limit", None) and player.time_limit > 0.6 * turn_seconds:
        player.time_limit = 0.6 * turn_seconds
    if hasattr(player, "prepare"):
        w, h = size
        few = "\n".join(
            ("W" + "." * (w - 1)) if r == 0 else ("." * (w - 1) + "B") if r == h - 1 else "." * w
            for r in range(h)
        )
        player.prepare(Board.from_diagram(few, "white", rules), progress=progress)
    return player


def load_player(request: dict, start: Board):
    """The player the request names: a built-in spec, or the file in this folder."""
    if "spec" in request:
        return builtin_player(
            request["spec"], request["seed"], start.size, start.rules, request["turn_seconds"]
        )
    random.seed(request["seed"])
    namespace = {"__name__": "player", "__file__": os.path.abspath(PLAYER_FILE)}
    with open(PLAYER_FILE, "w", encoding="utf-8") as f:
        f.write(request["source"])
    source = request["source"]
    exec(compile(source, PLAYER_FILE, "exec"), namespace)
    return find_player(namespace)


def find_player(namespace: dict):
    """``player`` (an object with choose_turn), else a function ``choose_turn``, else the one class
    with a ``choose_turn`` method, made with no arguments."""
    found = namespace.get("player")
    if callable(getattr(found, "choose_turn", None)):
        return found
    if callable(namespace.get("choose_turn")):
        return _FunctionPlayer(namespace["choose_turn"])
    classes = [
        v
        for v in namespace.values()
        if isinstance(v, type)
        and callable(getattr(v, "choose_turn", None))
        and v.__module__ == "player"
    ]
    if len(classes) == 1:
        return classes[0]()
    if classes:
        names = ", ".join(c.__name__ for c in classes)
        raise NoPlayer(
            f"the file defines several player classes ({names}): say which with player ="
            f" {classes[0].__name__}()"
        )
    raise NoPlayer(
        "the file defines no player: write a function choose_turn(board), "
        "or a class with a choose_turn(self, board) method"
    )


class NoPlayer(Exception):
    """The file runs but defines nothing that chooses turns."""


class _FunctionPlayer:
    def __init__(self, function):
        self.choose_turn = function


def turn_text(turn) -> dict:
    """The answer for what ``choose_turn`` returned: turn text, or why it is not one."""
    if isinstance(turn, Turn):
        return {"turn": str(turn)}
    if isinstance(turn, str):
        return {"turn": turn[:200]}
    return {
        "malformed": (
            f"choose_turn returned {type(turn).__name__} {repr(turn)[:60]}, not a Turn or turn text"
        )
    }


def failure(error: BaseException) -> dict:
    """One sentence for an exception from the player's code, with its line in player.py."""
    if isinstance(error, MemoryError):
        return {"error": "it ran out of memory", "kind": "memory"}
    if isinstance(error, SystemExit):
        return {"error": f"it called exit({error.code!r})", "kind": "crash"}
    if isinstance(error, BlockingIOError) or (
        isinstance(error, RuntimeError) and "new thread" in str(error)
    ):
        return {
            "error": "it tried to start another process or thread, which players may not",
            "kind": "crash",
        }
    if isinstance(error, NoPlayer):
        return {"error": str(error), "kind": "crash"}
    where = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == PLAYER_FILE]
    line = f" at line {where[-1].lineno} of its file" if where else ""
    message = str(error)[:160]
    return {
        "error": f"it raised {type(error).__name__}{line}" + (f": {message}" if message else ""),
        "kind": "crash",
    }


def serve(requests, answer) -> None:
    """Answer each request line until the tournament closes the pipe."""
    player, board = None, None
    for line in requests:
        request = json.loads(line)
        try:
            if player is None:
                board = Board.from_fen(request["start"], Rules(**request["rules"]))
                player = load_player(request, board)
                reply = {"ready": str(getattr(player, "name", ""))[:60]}
            else:
                assert board is not None, "the board is set up before the player is loaded"
                for text in request["turns"][len(board.turns) :]:
                    board.push(text)
                reply = turn_text(player.choose_turn(board.copy()))
        except BaseException as error:  # the player's own code: whatever it throws is its loss
            reply = failure(error)
        answer.write(json.dumps({**reply, "id": request["id"]}) + "\n")
        answer.flush()


def main() -> None:
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # the player's prints go where the tournament cuts them
    sys.stdout = os.fdopen(1, "w", buffering=1)
    serve(sys.stdin, answer)


if __name__ == "__main__":
    main()
