"""The process a tournament player runs in: it loads one player and serves it over the text
protocol (docs/reference/player-protocol.md), the kit's one way in for a player in another process.

Started by ``sandbox.SandboxPipe`` inside the kit's sandbox as ``__main__`` of a ``python -I`` (its
``BOOT``), never imported by the tournament itself.  Its arguments name the player: ``--spec
level2`` for a built-in one; ``--source-bytes N`` for a Python submission, whose N bytes of source
come first on standard input and are written to ``player.py`` in the sandbox's private working
folder; ``--program-bytes N`` for a program in any language, written there the same way, which the
process then becomes (exec) to speak the protocol itself.  Otherwise the protocol follows on
standard input and on the pipe that was standard output; everything the player prints goes to
standard error, which the tournament reads, keeps the start of and caps.  The player is loaded
at ``newgame`` (an ``error`` line says why it cannot be), and its turns are chosen in the one
thread the sandbox allows.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import traceback

import fanorona  # noqa: F401
from fanorona.board import Board
from fanorona.engine import ai
from fanorona.engine.protocol import MAX_LINE, ProtocolError, new_board
from fanorona.engine.serve import Server, load_player
from fanorona.rules import Rules

PLAYER_FILE = "player.py"
PROGRAM_FILE = "player"


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


def failure(error: BaseException) -> str:
    """One sentence for an exception from the player's code, with its line in player.py."""
    if isinstance(error, MemoryError):
        return "it ran out of memory"
    if isinstance(error, SystemExit):
        return f"it called exit({error.code!r})"
    if isinstance(error, BlockingIOError) or (
        isinstance(error, RuntimeError) and "new thread" in str(error)
    ):
        return "it tried to start another process or thread, which players may not"
    where = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == PLAYER_FILE]
    line = f" at line {where[-1].lineno} of its file" if where else ""
    message = " ".join(str(error).split())[:160]
    if isinstance(error, ValueError) and message.startswith(f"{PLAYER_FILE}: "):
        return "the file " + message.removeprefix(f"{PLAYER_FILE}: ")  # load_player's sentence
    return f"it raised {type(error).__name__}{line}" + (f": {message}" if message else "")


class SandboxedServer(Server):
    """The protocol's server for one player in the sandbox: loaded at the first ``newgame``
    (seeded from it), its failures said with the line of its file, its turn chosen inline."""

    def __init__(self, name: str, spec: str | None, source: str | None, turn_seconds: float):
        super().__init__(None, name)
        self.spec, self.source, self.turn_seconds = spec, source, turn_seconds

    def _newgame(self, args: list[str]) -> list[str]:
        if self.player is None:
            if len(args) < 2:
                raise ProtocolError("a new game is written 'newgame SIZE RULES [seed N]'")
            seed = int(args[3]) if len(args) == 4 and args[3].isdigit() else None
            try:
                self.player = self._load(new_board(args[0], args[1]), seed)
            except ProtocolError:
                raise
            except BaseException as error:  # the player's own code: whatever it throws is its loss
                raise ProtocolError(failure(error)) from None
        return super()._newgame(args)

    def _load(self, start: Board, seed):
        if self.spec is not None:
            return builtin_player(self.spec, seed, start.size, start.rules, self.turn_seconds)
        random.seed(seed)
        with open(PLAYER_FILE, "w", encoding="utf-8") as f:
            f.write(self.source or "")
        return load_player(PLAYER_FILE)

    def start_search(self, board: Board) -> None:
        """In the thread that reads: a sandboxed player has no other (its time is kept outside)."""
        self._choose(board)

    failure = staticmethod(failure)


def serve(server: SandboxedServer, lines, write) -> None:
    """Answer each line (bytes) until ``quit`` or the end of the input."""
    for raw in lines:
        line = raw.decode("utf-8", "replace")
        if len(line) > MAX_LINE:
            write(f"error a line is at most {MAX_LINE} characters")
            continue
        if line.split()[:1] == ["quit"]:
            break
        for out in server.handle(line) or []:
            write(out)
        while not server.answers.empty():
            write(server.answers.get())


def read_exactly(count: int) -> bytes:
    """The first ``count`` bytes of standard input, and not one more (the protocol follows)."""
    data = b""
    while len(data) < count:
        chunk = os.read(0, count - len(data))
        if not chunk:
            break
        data += chunk
    return data


def run_program(program: bytes) -> None:
    """Become the program (exec, no second process): it speaks the protocol on these pipes."""
    with open(PROGRAM_FILE, "wb") as f:
        f.write(program)
    os.chmod(PROGRAM_FILE, 0o700)
    path = os.path.abspath(PROGRAM_FILE)
    try:
        os.execv(path, [path])
    except OSError as e:  # said on the protocol's channel, to the handshake it will not answer
        print(f"error the program cannot be run: {e.strerror}", flush=True)
        sys.exit(1)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="fanorona.tournament.host")
    parser.add_argument("--name", required=True)
    parser.add_argument("--turn-seconds", type=float, required=True)
    parser.add_argument("--spec")
    parser.add_argument("--source-bytes", type=int)
    parser.add_argument("--program-bytes", type=int)
    args = parser.parse_args(argv)
    if args.program_bytes is not None:
        run_program(read_exactly(args.program_bytes))
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # the player's prints go where the tournament cuts them
    sys.stdout = os.fdopen(1, "w", buffering=1)
    source = None
    if args.source_bytes is not None:
        source = read_exactly(args.source_bytes).decode("utf-8", "replace")

    def write(line: str) -> None:
        answer.write(line.replace("\n", " ") + "\n")
        answer.flush()

    server = SandboxedServer(args.name, args.spec, source, args.turn_seconds)
    serve(server, sys.stdin.buffer, write)


if __name__ == "__main__":
    main()
