"""Matches between computer players, to measure which is stronger and by how much.

``python -m fanorona.engine.arena alphabeta:depth=3 greedy --games 20 --jobs 2`` plays the games in
pairs: each pair opens with another of White's legal first turns, once with each player as
White, so neither the first move nor the colour favours one side.  ``run_match`` does the same
from Python and returns a ``MatchResult`` (its ``table()`` is what the command prints).  The
rating difference is the Bradley-Terry fit the tournament uses too (``fanorona.engine.ratings``, the
``tournament`` extra) with an interval from resampling the pairs.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import math
import os
import random
import shlex
import sys
import time
from dataclasses import asdict, dataclass, field

from ..board import Board
from ..game import play_game
from ..rules import PRESETS, Rules
from .ai import make_player
from .protocol import PlayerFault
from .remote import RemotePlayer

__all__ = ["GameResult", "MatchResult", "arena_player", "main", "recorded_games", "run_match"]

NO_RATINGS = (
    "rating difference: install the tournament extra (pip install 'fanorona[tournament]') to fit it"
)


@dataclass
class GameResult:
    """One game of a match, told from player A's side."""

    index: int
    a_white: bool
    opening: str  # the turns that open the game, set by the match (space between turns)
    turns: list[str]  # the turns after the opening
    winner: str | None  # "a", "b" or None for a draw
    reason: str
    adjudicated: bool  # cut at the turn cap and decided on stones
    seconds: dict = field(default_factory=dict)  # "a"/"b" -> seconds spent choosing turns
    moves: dict = field(default_factory=dict)  # "a"/"b" -> turns chosen
    nodes: dict = field(default_factory=dict)  # "a"/"b" -> positions searched (0 for non-searchers)
    search_seconds: dict = field(default_factory=dict)
    slowest: dict = field(default_factory=dict)  # "a"/"b" -> the longest time one turn took

    @property
    def points(self) -> float:
        """A's points: 1 a win, 1/2 a draw, 0 a loss."""
        return {"a": 1.0, None: 0.5, "b": 0.0}[self.winner]


@dataclass
class MatchResult:
    """All games of a match and the numbers that sum them up, from player A's side."""

    a: str
    b: str
    size: tuple
    rules: Rules
    max_turns: int
    seed: int
    games: list = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(g.winner == "a" for g in self.games)

    @property
    def draws(self) -> int:
        return sum(g.winner is None for g in self.games)

    @property
    def losses(self) -> int:
        return sum(g.winner == "b" for g in self.games)

    @property
    def score(self) -> float:
        """A's share of the points, from 0 to 1."""
        return (self.wins + self.draws / 2) / len(self.games) if self.games else math.nan

    def ratings(self, samples: int = 200):
        """The Bradley-Terry fit of the games, B fixed at 0, intervals from resampling the pairs
        (both games of a pair share an opening); see ``fanorona.engine.ratings``."""
        return _ratings(
            self.a, self.b, tuple((g.a_white, g.points) for g in self.games), samples, self.seed
        )

    @property
    def elo(self) -> float:
        """A's rating minus B's, on the Elo scale."""
        return self.ratings()[self.a].elo

    def elo_interval(self) -> tuple[float, float]:
        """A 95% interval for ``elo``; its end is infinite on the side of a clean sweep."""
        a = self.ratings()[self.a]
        return a.low, a.high

    def adjudicated(self) -> int:
        return sum(g.adjudicated for g in self.games)

    def mean_turn_time(self, who: str) -> float:
        moves = sum(g.moves[who] for g in self.games)
        return sum(g.seconds[who] for g in self.games) / moves if moves else math.nan

    def slowest_turn(self, who: str) -> float:
        return max((g.slowest[who] for g in self.games), default=math.nan)

    def nodes_per_second(self, who: str) -> float | None:
        """Searched positions a second, or None for a player that does not search."""
        nodes = sum(g.nodes[who] for g in self.games)
        seconds = sum(g.search_seconds[who] for g in self.games)
        return nodes / seconds if nodes and seconds else None

    def elo_sentence(self) -> str:
        if not self.games:
            return "no games played"
        try:
            low, high = self.elo_interval()
        except ImportError:
            return NO_RATINGS
        sentence = (
            f"Rating difference ({self.a} minus {self.b}, Bradley-Terry): {_elo(self.elo)} (95%"
            f" interval {_elo(low)} to {_elo(high)}, from {len(self.games) // 2 or 1} pairs"
            " resampled)"
        )
        if self.wins == len(self.games) or self.losses == len(self.games):
            who = self.a if self.wins else self.b
            sentence += (
                f"; {who} won every game, so one end has no bound and the estimate is held finite "
                "by the fit's prior of one virtual draw: play stronger opposition to measure it"
            )
        return sentence

    def table(self) -> str:
        """The match summary as printed by ``python -m fanorona.engine.arena``."""
        n = len(self.games)
        w, h = self.size
        lines = [
            (
                f"{self.a} vs {self.b}: {n} games on {w}x{h}, {self.rules.name() or 'custom'}"
                f" rules, seed {self.seed}"
            ),
            (
                f"at most {self.max_turns} turns after the opening; {self.adjudicated()} of {n}"
                " games reached that cap and were adjudicated on stones (more stones wins)"
            ),
            "",
        ]
        names = {"a": self.a, "b": self.b}
        width = max(12, *(len(v) for v in names.values()))
        lines.append(
            f"{'player':<{width}}  {'wins':>5} {'draws':>5} {'losses':>6} {'score':>7} "
            f"{'time/turn':>10} {'slowest':>8} {'nodes/s':>9}"
        )
        for who, (won, lost) in {
            "a": (self.wins, self.losses),
            "b": (self.losses, self.wins),
        }.items():
            score = (won + self.draws / 2) / n if n else math.nan
            nps = self.nodes_per_second(who)
            lines.append(
                f"{names[who]:<{width}}  {won:>5} {self.draws:>5} {lost:>6} {score:>7.1%} "
                f"{self.mean_turn_time(who):>9.3f}s {self.slowest_turn(who):>7.2f}s "
                f"{f'{nps:,.0f}' if nps else '-':>9}"
            )
        lines += ["", self.elo_sentence()]
        return "\n".join(lines)

    __str__ = table

    def settings(self) -> dict:
        """What makes the match: the players, the board, the rules, the turn cap and the seed."""
        return {
            "a": self.a,
            "b": self.b,
            "size": list(self.size),
            "rules": asdict(self.rules),
            "max_turns": self.max_turns,
            "seed": self.seed,
        }

    def to_json(self) -> str:
        data = {
            **self.settings(),
            "summary": {
                "wins": self.wins,
                "draws": self.draws,
                "losses": self.losses,
                "score": self.score,
                **self._rating_summary(),
            },
            "games": [asdict(g) for g in self.games],
        }
        return json.dumps(data, indent=1)

    def _rating_summary(self) -> dict:
        try:
            return {
                "elo": _finite(self.elo),
                "elo_interval": [_finite(x) for x in self.elo_interval()],
            }
        except ImportError:
            return {}


@functools.lru_cache(maxsize=64)
def _ratings(a: str, b: str, games: tuple, samples: int, seed: int):
    """The fit of a match's games (A White?, A's points), cached: a table asks for it several
    times."""
    from .ratings import Result, rate

    results = [
        Result(a, b, points, n // 2) if a_white else Result(b, a, 1 - points, n // 2)
        for n, (a_white, points) in enumerate(games)
    ]
    return rate(results, anchors={b: 0.0}, samples=samples, seed=seed)


def _elo(x: float) -> str:
    return (
        "-infinity" if x == -math.inf else "+infinity" if x == math.inf else f"{round(x) or 0:+d}"
    )


def _finite(x: float):
    return x if math.isfinite(x) else str(x)


# ---------------------------------------------------------------------------------------------


class _Forfeit(Exception):
    """A side broke the protocol (``PlayerFault``): it loses the game, for the fault's sentence."""

    def __init__(self, side: str, fault: PlayerFault):
        super().__init__(str(fault))
        self.side = side


class _Timed:
    """A player wrapped to count the time and search nodes it spends."""

    def __init__(self, player, side: str):
        self.player, self.name, self.side = player, player.name, side
        self.seconds = self.search_seconds = self.slowest = 0.0
        self.moves = self.nodes = 0

    def choose_turn(self, board):
        started = time.perf_counter()
        try:
            turn = self.player.choose_turn(board)
        except PlayerFault as fault:
            raise _Forfeit(self.side, fault) from None
        spent = time.perf_counter() - started
        self.seconds += spent
        self.slowest = max(self.slowest, spent)
        self.moves += 1
        info = getattr(self.player, "last_search", None)
        if info is not None:
            self.nodes += info.nodes
            self.search_seconds += info.time
        return turn


def program_player(spec: str, seed=None) -> RemotePlayer:
    """``program:COMMAND``: a program that speaks the player protocol (docs/reference/
    player-protocol.md), started with COMMAND (split as a shell would, run without one)."""
    command = shlex.split(spec.partition(":")[2])
    if not command:
        raise ValueError(f"{spec!r}: write the program's command after 'program:'")
    return RemotePlayer(command, name=spec, seed=seed)


#: Player kinds beyond ``ai.make_player``'s, added with ``register_player``: the package adds
#: ``program``, a player in a process of its own that speaks the text protocol.
_EXTRA_KINDS: dict = {"program": program_player}


def register_player(kind: str, factory) -> None:
    """Let specs ``kind:options`` name a player made by ``factory(spec, seed)``; worker processes
    started by fork (``--jobs``, Linux) inherit it."""
    _EXTRA_KINDS[kind] = factory


def arena_player(spec: str, seed=None):
    """A player from its spec: ``ai.make_player``'s, or a kind added with ``register_player``."""
    kind = spec.strip().partition(":")[0]
    if kind not in _EXTRA_KINDS:
        return make_player(spec, seed)
    return _EXTRA_KINDS[kind](spec, seed)


def _player(spec, seed):
    """A fresh player for one game: built from its spec, or a copy of the given player object."""
    if isinstance(spec, str):
        return arena_player(spec, seed)
    return copy.deepcopy(spec)


def _prepare(job, progress: bool) -> None:
    """Compile (and build the tables of) both sides once, here, before the workers start: numba
    caches what it compiles on disk, and two workers writing that cache at once crashed one."""
    _, a, b, size, rules, _, seed, _ = job
    for spec in (a, b):
        prepare = getattr(_player(spec, seed), "prepare", None)
        if prepare is not None:
            prepare(Board(size, rules), progress=progress)


def _play_one(job) -> GameResult:
    index, a, b, size, rules, max_turns, seed, opening = job
    a_white = index % 2 == 0
    players = {
        "a": _Timed(_player(a, seed * 1_000_003 + 2 * index), "a"),
        "b": _Timed(_player(b, seed * 1_000_003 + 2 * index + 1), "b"),
    }
    white, black = (players["a"], players["b"]) if a_white else (players["b"], players["a"])
    board = Board(size, rules)
    for turn in opening.split():
        board.push(turn)
    played: list[str] = []
    try:
        side, reason, adjudicated = _play(white, black, board, max_turns, a_white, played)
    finally:
        for timed in players.values():
            close = getattr(timed.player, "close", None)
            if close is not None:
                close()
    return GameResult(
        index,
        a_white,
        opening,
        played,
        side,
        reason,
        adjudicated=adjudicated,
        seconds={k: p.seconds for k, p in players.items()},
        moves={k: p.moves for k, p in players.items()},
        nodes={k: p.nodes for k, p in players.items()},
        search_seconds={k: p.search_seconds for k, p in players.items()},
        slowest={k: p.slowest for k, p in players.items()},
    )


def _play(white, black, board, max_turns, a_white, played) -> tuple[str | None, str, bool]:
    """Play one game into ``played``: the winning side ("a", "b" or None), why, and whether it
    was adjudicated; a side that breaks the protocol forfeits."""
    from .compiled import kept_tables

    try:
        with kept_tables(2):  # both sides may remember from turn to turn (``memory=1``)
            game = play_game(
                white, black, board, max_turns, on_turn=lambda _, turn: played.append(str(turn))
            )
    except _Forfeit as forfeit:
        return ("b" if forfeit.side == "a" else "a"), f"forfeit: {forfeit}", False
    final = game.board()
    assert game.outcome is not None, "play_game gives every game an outcome (adjudicated if cut)"
    winner = game.outcome.winner
    side = None if winner is None else ("a" if (winner == "white") == a_white else "b")
    return side, game.outcome.reason, final.outcome() is None


def _name(spec) -> str:
    return spec if isinstance(spec, str) else getattr(spec, "name", repr(spec))


def run_match(
    a,
    b,
    games: int,
    size=(9, 5),
    rules="standard",
    jobs: int = 1,
    seed: int | None = None,
    max_turns: int = 200,
    progress: bool = True,
    openings: list[str] | None = None,
    record: str | os.PathLike | None = None,
    scheduler: str | None = None,
) -> MatchResult:
    """Play ``games`` games between A and B (player specs like ``"greedy"`` or player objects).

    Games go in pairs with the same opening, A White in the first; ``seed`` makes the seeded
    players and the choice of openings replay (a random seed is drawn and recorded if None).
    ``openings`` (texts of turns, space between them; pair ``i`` plays ``openings[i]``) replaces
    the default, White's legal first turns in an order drawn from ``seed``.  ``record`` names a
    file that gets each game as it ends (a line of JSON); run again with the same file and the same
    match, the games already in it are not played again, so a long match survives being stopped.
    ``scheduler`` (a Dask scheduler's address, ``tcp://HOST:PORT``) plays the games on that
    cluster's workers instead of ``jobs`` local processes: each worker needs the kit installed,
    and the programs a player runs at the same paths.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games is a whole number, at least 1; got {games!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs is a whole number of processes, at least 1; got {jobs!r}")
    rules = Rules.named(rules) if isinstance(rules, str) else rules
    for spec in (a, b):
        if isinstance(spec, str):
            arena_player(spec)  # a bad spec fails here, not in a worker
    seed = random.SystemRandom().randrange(10**6) if seed is None else seed
    if openings is None:
        openings = [str(t) for t in Board(size, rules).legal_turns()]
        random.Random(seed).shuffle(openings)
    elif not openings or not all(isinstance(o, str) and o.split() for o in openings):
        raise ValueError(f"openings is a list of turn texts, none of them empty; got {openings!r}")
    jobs_list = [
        (i, a, b, size, rules, max_turns, seed, openings[(i // 2) % len(openings)])
        for i in range(games)
    ]
    result = MatchResult(_name(a), _name(b), tuple(size), rules, max_turns, seed)
    if result.a == result.b:
        result.a, result.b = f"{result.a} (A)", f"{result.b} (B)"
    recorded = _Record(record, result, jobs_list) if record is not None else None
    played = recorded.games() if recorded else {}
    todo = [job for job in jobs_list if job[0] not in played]
    if (jobs > 1 or scheduler) and todo:
        _prepare(todo[0], progress)
    for game in _play_all(todo, jobs, progress, f"{result.a} vs {result.b}", scheduler):
        if recorded:
            recorded.add(game)
        played[game.index] = game
    result.games = sorted(played.values(), key=lambda g: g.index)
    return result


class _Record:
    """A match's games as lines of JSON, the first line naming the match, so that a stopped match
    goes on where it stopped and never mixes in the games of another."""

    def __init__(self, path, result: MatchResult, jobs_list):
        self.path = os.fspath(path)
        self.match = _plain(result.settings())
        self.openings = {job[0]: job[-1] for job in jobs_list}

    def games(self) -> dict[int, GameResult]:
        """The games already recorded (none, and the file started, when it does not exist)."""
        if not os.path.exists(self.path):
            with open(self.path, "w") as f:
                f.write(json.dumps({"match": self.match}) + "\n")
            return {}
        with open(self.path) as f:
            lines = [line for line in f if line.strip()]
        try:
            match = json.loads(lines[0])["match"] if lines else None
        except (ValueError, KeyError, TypeError):
            match = None
        if match != self.match:
            raise ValueError(
                f"{self.path} records another match ({match}), not {self.match}; "
                "name another file or remove it"
            )
        games = {}
        for number, line in enumerate(lines[1:], start=2):
            try:
                game = GameResult(**json.loads(line))
            except (ValueError, TypeError):
                if number == len(lines):  # a last line cut short when the match was stopped
                    with open(self.path, "w") as f:
                        f.writelines(lines[:-1])
                    break
                raise ValueError(f"{self.path}, line {number}: not a recorded game") from None
            if self.openings.get(game.index) != game.opening:
                raise ValueError(
                    f"{self.path}, line {number}: game {game.index} opened with "
                    f"{game.opening!r}, which is not this match's opening for it"
                )
            games[game.index] = game
        return games

    def add(self, game: GameResult) -> None:
        """Append one game, whole, as soon as it ends."""
        with open(self.path, "a") as f:
            f.write(json.dumps(asdict(game)) + "\n")


def recorded_games(path) -> tuple[dict, list[GameResult]]:
    """A ``--record`` file's match settings (``MatchResult.settings``) and its whole games, for
    reading a match again (``benchmarks/evaluation_data.py`` learns from its positions)."""
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    try:
        settings = json.loads(lines[0])["match"]
    except (IndexError, ValueError, KeyError, TypeError):
        raise ValueError(f"{path}, line 1: not a match record's first line") from None
    games = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            games.append(GameResult(**json.loads(line)))
        except (ValueError, TypeError):
            if number < len(lines):  # a last line cut short by a stopped match is left out
                raise ValueError(f"{path}, line {number}: not a recorded game") from None
    return settings, games


def _plain(data):
    """``data`` as JSON gives it back (lists for tuples), to compare with what a file holds."""
    return json.loads(json.dumps(data))


def _play_all(jobs_list, jobs, progress, label, scheduler=None):
    from tqdm.auto import tqdm

    bar = tqdm(total=len(jobs_list), desc=label, unit="game", disable=not progress, file=sys.stderr)
    try:
        if scheduler is not None:
            for game in _on_cluster(jobs_list, scheduler):
                yield game
                bar.update()
            return
        if jobs == 1:
            for job in jobs_list:
                yield _play_one(job)
                bar.update()
            return
        import multiprocessing

        with multiprocessing.Pool(min(jobs, len(jobs_list))) as pool:
            for game in pool.imap_unordered(_play_one, jobs_list):
                yield game
                bar.update()
    finally:
        bar.close()


def _on_cluster(jobs_list, scheduler: str):
    """The games played on a Dask cluster's workers, each as it ends (for matches that outgrow
    one machine; Dask comes with the ``tournament`` extra)."""
    from .._extras import require

    require("tournament", "A match on a Dask cluster", "distributed")
    from distributed import Client, as_completed

    with Client(scheduler) as client:
        futures = client.map(_play_one, jobs_list, pure=False)
        for future in as_completed(futures):
            yield future.result()


# ---------------------------------------------------------------------------------------------


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(n) for n in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a board size is written WIDTHxHEIGHT, like 9x5; got {text!r}"
        ) from None
    return w, h


def _spec(text: str) -> str:
    try:
        arena_player(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fanorona.engine.arena", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "a",
        type=_spec,
        metavar="PLAYER",
        help=(
            "random, greedy, alphabeta:depth=3, alphabeta:time=0.5, mcts:playouts=200,"
            " level1..level5"
        ),
    )
    parser.add_argument("b", type=_spec, metavar="PLAYER")
    parser.add_argument(
        "--games", type=int, default=10, help="number of games (default 10; even is fairest)"
    )
    parser.add_argument(
        "--size", type=_size, default=(9, 5), help="board size, e.g. 9x5 (default), 5x5, 3x3"
    )
    parser.add_argument("--rules", choices=PRESETS, default="standard")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    parser.add_argument(
        "--max-turns",
        type=int,
        default=200,
        help="turn cap; a game reaching it is decided on stones",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="replays the same match (with fixed-depth players)"
    )
    parser.add_argument(
        "--json", metavar="FILE", help="also write every game and the summary to FILE"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    try:
        Board(args.size)
        result = run_match(
            args.a,
            args.b,
            args.games,
            args.size,
            args.rules,
            args.jobs,
            args.seed,
            args.max_turns,
            progress=not args.quiet,
        )
    except ValueError as e:
        parser.error(str(e))
    print(result.table())
    if args.json:
        with open(args.json, "w") as f:
            f.write(result.to_json())
        print(f"games written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
