"""Computer players: random, greedy, alpha-beta search and Monte Carlo tree search.

Every player has a ``name`` and ``choose_turn(board, stop=None) -> Turn`` (a legal whole turn of a
board between turns); when ``stop``, a ``threading.Event``, is set while it thinks, it raises
``SearchCancelled`` instead, within a few milliseconds.  All randomness comes from
``random.Random(seed)``, so a game between
seeded players replays exactly.  The searches run on bit sets with the shared generator of
``movegen`` and build a ``Turn`` only for the answer: making objects at every node would cost
most of the time.
"""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass, field

from ..board import Board, Turn, turn_of
from ..movegen import Generator, bitsets, generator
from .scoring import (
    EVALUATION_NAMES,
    EXACT,
    LATE_TURN,
    LATER_TURN,
    LEARNED,
    LOWER,
    MOBILITY,
    PROVEN,
    REDUCE_FROM_DEPTH,
    REDUCE_MORE_FROM_DEPTH,
    STONE,
    STRONG_POINT,
    THREAT,
    UPPER,
    WIN_SCORE,
    from_table,
    to_table,
)

__all__ = [
    "EVALUATIONS",
    "FEATURES",
    "LEVELS",
    "AlphaBetaPlayer",
    "GreedyPlayer",
    "MCTSPlayer",
    "PerfectPlayer",  # noqa: F822 - from fanorona.engine.solve, loaded by __getattr__ on first use
    "RandomPlayer",
    "SearchCancelled",
    "SearchInfo",
    "features",
    "level",
    "make_player",
]


def _compiled():
    """The compiled search's module, imported when a search first needs it: it loads numba (about
    35 MB of the kernel's own memory and 100 MB of library code), which levels 1 and 2 never use."""
    from . import compiled

    return compiled


class SearchCancelled(Exception):
    """Raised by ``choose_turn(board, stop)`` when its ``stop`` event was set before it answered."""


def _raise_if_stopped(stop) -> None:
    if stop is not None and stop.is_set():
        raise SearchCancelled("the search was stopped")


# ---------------------------------------------------------------------------------------------
# What all players share: the legal turns of a board between turns, as generator items.


def _options(board: Board) -> list:
    """The board's complete turns as (generator steps, me after, opp after, captured) items."""
    if not isinstance(board, Board):
        raise TypeError(f"choose_turn takes a fanorona.Board; got {board!r}")
    if board.chain:
        raise ValueError(
            f"a capture chain is in progress (from {board.chain_stone}); a player chooses "
            f"whole turns: finish this one with board.legal_turns() or board.end_turn()"
        )
    outcome = board.outcome()
    if outcome is not None:
        raise ValueError(f"the game is over ({outcome}): there is no turn to choose")
    gen = generator(board.geometry, board.rules)
    return gen.turns(*bitsets(board), gen.single(len(board.turns)))


def _as_turn(board: Board, raw_steps) -> Turn:
    return turn_of(board.geometry, raw_steps)


def _reduction(reduce: bool, index: int, depth: int) -> int:
    """How many turns shallower the turn at ``index`` of a node's sorted list is searched first,
    when ``reduce`` (reductions on, the node deep enough, a turn searched before it)."""
    if not reduce or index < LATE_TURN:
        return 0
    return 2 if index >= LATER_TURN and depth >= REDUCE_MORE_FROM_DEPTH else 1


def _captured(opp: int, opp_after: int) -> int:
    return opp.bit_count() - opp_after.bit_count()


class _Player:
    """A seeded source of turns; subclasses say how to pick one of the legal options."""

    name = "player"

    def __init__(self, seed=None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose_turn(self, board: Board, stop: threading.Event | None = None) -> Turn:
        """A legal whole turn for ``board``; ``SearchCancelled`` once ``stop`` is set."""
        if stop is not None and not callable(getattr(stop, "is_set", None)):
            raise TypeError(f"stop is a threading.Event or None; got {stop!r}")
        options = _options(board)
        _raise_if_stopped(stop)
        return _as_turn(board, self._pick(board, options, stop)[0])

    def _pick(self, board: Board, options: list, stop):
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomPlayer(_Player):
    """Plays a legal turn chosen uniformly at random: the baseline every other player must beat."""

    name = "random"

    def _pick(self, board, options, stop):
        return self.rng.choice(options)


class GreedyPlayer(_Player):
    """Captures as many stones as it can this turn, ties broken at random; looks no further."""

    name = "greedy"

    def _pick(self, board, options, stop):
        _me, opp = bitsets(board)
        most = max(_captured(opp, o[2]) for o in options)
        return self.rng.choice([o for o in options if _captured(opp, o[2]) == most])


# ---------------------------------------------------------------------------------------------
# Evaluation functions: a score for the side to move, from the two bit sets alone.

_STRONG: dict = {}


def _strong_mask(gen: Generator) -> int:
    if gen not in _STRONG:
        _STRONG[gen] = sum(1 << i for i, strong in enumerate(gen.geometry.strong) if strong)
    return _STRONG[gen]


def material(gen: Generator, me: int, opp: int) -> int:
    """100 a stone ahead (``scoring.STONE``)."""
    return STONE * (me.bit_count() - opp.bit_count())


def material_strong(gen: Generator, me: int, opp: int) -> int:
    """Material, plus 10 a stone for standing on a strong point (eight lines instead of four)."""
    s = _strong_mask(gen)
    return STONE * (me.bit_count() - opp.bit_count()) + STRONG_POINT * (
        (me & s).bit_count() - (opp & s).bit_count()
    )


def material_mobility(gen: Generator, me: int, opp: int) -> int:
    """Material, plus 3 a single step more than the opponent has (room to move and to capture)."""
    return STONE * (me.bit_count() - opp.bit_count()) + MOBILITY * (
        gen.mobility(me, opp) - gen.mobility(opp, me)
    )


def material_threat(gen: Generator, me: int, opp: int) -> int:
    """Material, plus half the stones the side to move can take with its best first step."""
    return STONE * (me.bit_count() - opp.bit_count()) + THREAT * gen.best_capture(me, opp)


#: What the learned evaluation sees of a position, for the side to move (``features`` gives them
#: in this order); ``scoring.STONE`` and ``scoring.LEARNED`` are their weights.
FEATURES = ("material", "threat", "danger", "mobility", "strong", "tempo")


def features(gen: Generator, me: int, opp: int) -> tuple[int, ...]:
    """``FEATURES`` of a position: stones ahead, the most stones the side to move takes with one
    first step, the most the opponent could take with one of its own, single steps more than the
    opponent, stones more on strong points, and 1 for having the move."""
    s = _strong_mask(gen)
    return (
        me.bit_count() - opp.bit_count(),
        gen.best_capture(me, opp),
        gen.best_capture(opp, me),
        gen.mobility(me, opp) - gen.mobility(opp, me),
        (me & s).bit_count() - (opp & s).bit_count(),
        1,
    )


def learned(gen: Generator, me: int, opp: int) -> int:
    """Material, plus ``scoring.LEARNED``'s weights of the other ``FEATURES``: fitted to positions
    of known result rather than set by hand (``benchmarks/tune_evaluation.py``)."""
    material_ahead, *others = features(gen, me, opp)
    return STONE * material_ahead + sum(w * f for w, f in zip(LEARNED, others))


#: The evaluations a spec can name (``alphabeta:eval=material``).  "threat" is the default: against
#: material alone it scored 92.5% at depth 2 and 59% at 0.3 s a turn (60 games); the strong-point
#: and mobility terms beat material at depth 2 (60%, 75%) but added nothing to threat at equal time
#: (45%, 50%), so they are not part of it.
EVALUATIONS = dict(
    zip(
        EVALUATION_NAMES,
        (material, material_strong, material_mobility, material_threat, learned),
    )
)


# ---------------------------------------------------------------------------------------------
# Alpha-beta.


@dataclass
class SearchInfo:
    """What the last search did, for the notebook and the board's status line."""

    depth: int  # whole turns searched ahead (0: a forced turn); MCTS: length of its line
    nodes: int  # positions visited; MCTS: playouts
    time: float  # seconds
    score: float  # alpha-beta: 100 a stone for the side to move, +-(1,000,000 - turns) for a
    # proven win or loss; MCTS: the chosen turn's winning percentage
    pv: list = field(default_factory=list)  # the expected line, as turn texts
    compiled: bool = False  # whether the compiled search (fanorona.engine.compiled) answered

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0

    def __str__(self) -> str:
        if abs(self.score) >= PROVEN:
            turns = WIN_SCORE - abs(int(self.score))
            score = f"{'wins' if self.score > 0 else 'loses'} in {turns} turns"
        else:
            score = f"score {self.score:+.0f}"
        line = " ".join(self.pv)
        return (
            f"depth {self.depth}, {self.nodes:,} nodes in {self.time:.2f} s "
            f"({self.nodes_per_second:,.0f}/s), {score}" + (f", line {line}" if line else "")
        )


class _Timeout(Exception):
    """Raised inside the search when the time limit is reached."""


#: ``endgame=N`` builds its table only when a turn starts with at most this many stones more than N:
#: from more, the search seldom reaches the table.
ENDGAME_REACH = 3
#: ... and only on boards of at most this many points (9x5 and smaller): a larger board's 4-stone
#: table takes minutes to build.
ENDGAME_MAX_POINTS = 45
#: ``endgame=N`` reads the indexed table of N stones (``engine.indexed``, built by compiled code:
#: for 4 stones on 9x5, 2.2 MB built in seconds; 5 stones, 39 MB in about a minute), and without
#: numba the keyed table (``engine.endgame``, built in Python), which stops at 4 stones.
INDEXED_STONES = 5
QUIESCENCE_TURNS = (
    2  # with quiescence, at most this many capturing turns are searched past the horizon
)
CHECK_EVERY = 16  # nodes between looks at the clock and the stop event (pure Python)
MEMORY_ENTRIES = 1 << 16  # with memory, the pure-Python table starts again past this many entries
# (about 30 MB of Python objects, like the compiled table; 2**19 entries would be about 200 MB)
MEMORY_DEPTH = 40  # with memory, the deepest stored search of a root looked for


class AlphaBetaPlayer(_Player):
    """Negamax with alpha-beta pruning over whole turns, deepening until the time runs out.

    ``depth`` fixes the depth (and disables the clock, so the answer is reproducible);
    otherwise it deepens one turn at a time within ``time_limit`` seconds.  A transposition
    table keeps each position's score, bound and best reply, keyed by the stones, the side to
    move and, when the draw rule can strike within the search, the count of quiet turns.  The
    stored best reply is tried before any other turn is even generated; then the largest
    captures.  All turns but the first are searched with a null window (principal-variation
    search) and searched again only if they beat it; with ``reductions``, a turn late in that
    order is first searched a turn shallower (``scoring.LATE_TURN``; two from
    ``scoring.LATER_TURN`` in deeper nodes), and in full only if it beats
    the best so far (off by default).  When the clock stops an iteration, a turn
    that already beat the previous best at the new depth is kept.  Positions at the horizon are
    scored by ``evaluation`` (a name in ``EVALUATIONS``); with ``quiescence`` the search first goes
    on while the side to move can capture (off by default: at equal time it did not play better).
    With ``endgame`` (a number of stones up to 5, or a table; off by default) positions of that
    few stones are scored exactly from the table instead of searched.  A number reads the board
    size's table, cached on disk, once a turn starts with at most ``ENDGAME_REACH`` stones more,
    on boards of up to ``ENDGAME_MAX_POINTS`` points: the indexed table where numba is installed
    (``engine.indexed.indexed_table``: 4 stones on 9x5 built in seconds the first time, 5 in about
    a minute), else the keyed one (``engine.endgame.endgame_table``: half a minute for 4 stones,
    and 4 at most).  Both give the same answers.  Levels 4 and 5 read the 4-stone table.
    ``compiled`` (on by default where numba is installed) runs the same search compiled, from
    ``engine.compiled``: the same turns, scores and node counts, about 14 times as fast; its
    transposition table has 2**19 entries (36 MB), one kept per process between turns.
    Each call searches with state of its own (``_AlphaBetaSearch``), so calls from several threads,
    or a cancelled one and the next, never share it; but with ``memory`` the transposition table
    is kept from one turn to the next (compiled: the one 36 MB table, kept by the player until
    ``forget``; pure Python: its entries, at most ``MEMORY_ENTRIES``), so a turn starts from what
    the search of the turn before learned.
    """

    def __init__(
        self,
        depth: int | None = None,
        time_limit: float = 1.0,
        seed=None,
        evaluation="threat",
        quiescence: bool = False,
        endgame=None,
        compiled: bool | None = None,
        memory: bool = False,
        reductions: bool = False,
    ):
        super().__init__(seed)
        if depth is not None and (
            isinstance(depth, bool) or not isinstance(depth, int) or depth < 1
        ):
            raise ValueError(f"depth is a whole number of turns, at least 1; got {depth!r}")
        if depth is None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit is a positive number of seconds; got {time_limit!r}")
        if evaluation not in EVALUATIONS:
            raise ValueError(
                f"no evaluation called {evaluation!r}; choose one of {', '.join(EVALUATIONS)}"
            )
        if quiescence not in (True, False, 0, 1):
            raise ValueError(f"quiescence is on (1) or off (0); got {quiescence!r}")
        for option, value in (("memory", memory), ("reductions", reductions)):
            if value not in (True, False, 0, 1):
                raise ValueError(f"{option} is on (1) or off (0); got {value!r}")
        self.memory, self.reductions = bool(memory), bool(reductions)
        self._endgame_option = _check_endgame(endgame)
        self.depth, self.time_limit, self.evaluation = depth, time_limit, evaluation
        self.quiescence = bool(quiescence)
        budget = f"depth={depth}" if depth is not None else f"time={time_limit:g}"
        self.name = (
            f"alphabeta:{budget}"
            + ("" if evaluation == "threat" else f",eval={evaluation}")
            + (",quiescence=1" if self.quiescence else "")
            + (f",endgame={getattr(endgame, 'stones', endgame)}" if self._endgame_option else "")
            + (",memory=1" if self.memory else "")
            + (",reductions=1" if self.reductions else "")
        )
        self.last_search: SearchInfo | None = None
        if compiled not in (None, True, False, 0, 1):
            raise ValueError(
                f"compiled is on (1), off (0) or None (on when numba is installed); got "
                f"{compiled!r}"
            )
        if compiled and not _compiled().available():
            raise ValueError(
                "the compiled search needs numba: pip install 'fanorona[fast]' "
                "(and FANORONA_COMPILED not set to 0)"
            )
        self.compiled = _compiled().available() if compiled is None else bool(compiled)
        self._endgames: dict = {}  # (size, stones, rules) -> the table that endgame=N reads
        self._lock = threading.Lock()  # guards the two caches: _endgames and _idle
        self._idle: list = []  # a compiled search no call is using (its buffers; a table if memory)
        self._kept: tuple | None = None  # memory, pure Python: (generator, the table's entries)

    def __getstate__(self) -> dict:
        """A copy (``copy.deepcopy``, a worker process) gets no lock and nothing of the searches."""
        state = dict(self.__dict__)
        state["_lock"], state["_idle"], state["_kept"] = None, [], None
        return state

    def forget(self) -> None:
        """Drop what ``memory`` kept from the searches before (a new game need not, but may)."""
        with self._lock:
            for idle in self._idle:
                idle.forget()
            self._kept = None

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def ready(self, board) -> bool:
        """Whether a search from ``board`` starts at once: the compiled code loaded and the endgame
        table it reads in memory (``prepare`` makes both, once)."""
        if self.compiled and not _compiled().ready():
            return False
        key = self._endgame_key(board)
        return key is None or key in self._endgames

    def prepare(self, board, progress: bool = True) -> None:
        """Load what a search from ``board`` needs, or make it the first time, before its clock
        starts:
        the compiled code (half a minute the first time after installing, a second or two later) and
        the endgame table (the first time on a machine, for 4 stones on 9x5: a few seconds where
        numba is installed, which builds the indexed table, ``engine.indexed``, half a minute in
        pure Python; a minute for 5 stones; a fraction of a second from its cache file later).
        ``progress`` shows a bar on stderr while that takes a while."""
        if self.compiled:
            _compiled().warm_up(progress)
        key = self._endgame_key(board)
        if key is not None and key not in self._endgames:
            from .endgame import endgame_table
            from .indexed import indexed_table

            size, stones, rules = key
            read = indexed_table if _compiled().available() else endgame_table
            table = read(size, stones, rules, progress=progress and stones > 3)
            with self._lock:
                self._endgames.setdefault(key, table)
        table = self._endgame_for(board)
        if self.compiled and table is not None:
            # the compiled search's own copy, made once a table
            _compiled().endgame_lookup(table)

    def _pick(self, board, options, stop):
        self.prepare(board)
        _raise_if_stopped(stop)
        started = time.perf_counter()
        # stop searching a little early: the answer still has to be built and handed back in time
        deadline = None if self.depth is not None else started + 0.9 * self.time_limit
        gen = generator(board.geometry, board.rules)
        compiled_search = self._take_compiled(gen)
        kept = self._kept_table(gen) if compiled_search is None else None
        try:
            search = _AlphaBetaSearch(
                gen,
                board,
                self.evaluation,
                (self.quiescence, self.reductions),
                self._endgame_for(board),
                deadline,
                stop,
                compiled_search,
                kept,
            )
            self.rng.shuffle(options)  # equal turns keep this random order when sorted
            best, info = search.run(board, options, self.depth or 99, started)
        finally:
            if compiled_search is not None:
                compiled_search.finish()
                with self._lock:
                    self._idle[:] = [compiled_search]  # one kept: 4 MB of buffers
        self.last_search = info
        return best

    def _take_compiled(self, gen):
        """A compiled search for this generator, of this player's own (idle) or new; None when the
        compiled path is off, not installed, or the board has over 62 points."""
        if not self.compiled:
            return None
        compiled_gen = _compiled().compiled_generator(gen)
        if compiled_gen is None:
            return None
        with self._lock:
            for i, idle in enumerate(self._idle):
                if idle.generator is gen:
                    return self._idle.pop(i)
        return _compiled().CompiledSearch(
            compiled_gen,
            self.evaluation,
            self.quiescence,
            QUIESCENCE_TURNS,
            keep=self.memory,
            reductions=self.reductions,
        )

    def _kept_table(self, gen) -> dict | None:
        """With ``memory``, the pure-Python table entries kept for this generator (emptied once
        they pass ``MEMORY_ENTRIES``); otherwise None, and the search starts empty."""
        if not self.memory:
            return None
        with self._lock:
            kept = self._kept
            if kept is None or kept[0] is not gen or len(kept[1]) > MEMORY_ENTRIES:
                kept = self._kept = (gen, {})
            return kept[1]

    def _endgame_key(self, board):
        """(size, stones, rules) of the table that ``endgame=N`` reads from ``board``, or None: no
        number given, a board of more than ``ENDGAME_MAX_POINTS`` points, the opening rule in force
        (the tables know no opening turn), or too many stones for the search to reach the table."""
        option = self._endgame_option
        if not isinstance(option, int) or len(board.points) > ENDGAME_MAX_POINTS:
            return None
        stones = board.count("white") + board.count("black")
        if board.rules.opening_single_capture or stones > option + ENDGAME_REACH:
            return None
        if option == INDEXED_STONES and not _compiled().available():
            option -= 1  # the indexed table is built by compiled code
        return board.size, option, board.rules.with_(quiet_draw=None)

    def _endgame_for(self, board):
        """The endgame table for this board (made by ``prepare``), or None; a table given for
        another board is refused."""
        option = self._endgame_option
        if not option:
            return None
        if isinstance(option, int):
            key = self._endgame_key(board)
            return None if key is None else self._endgames[key]
        if option.size != board.size or option.rules != board.rules.with_(quiet_draw=None):
            w, h = option.size
            raise ValueError(
                f"the endgame table is for {w}x{h} under {option.rules}; the board is "
                f"{board.size[0]}x{board.size[1]} under {board.rules}"
            )
        return option


class _EndgameScores:
    """What an endgame table says of a position, as a search score under the game's draw rule."""

    def __init__(self, table, quiet_draw):
        self._table, self._quiet_draw = table, quiet_draw

    def known(self, me, opp, ply, quiet):
        """The exact score from the endgame table, or None.  A win or loss counts only if the draw
        rule cannot strike before it ends; a draw stays a draw under any draw rule."""
        found = self._table.lookup(me, opp)
        if found is None:
            return None
        value, distance = found
        if value == "draw":
            return 0
        if self._quiet_draw is not None and quiet + distance >= self._quiet_draw:
            return None
        return WIN_SCORE - ply - distance if value == "win" else ply + distance - WIN_SCORE

    def may_outlive_draw_rule(self, stored, quiet):
        """Whether a stored proven score may end later than the draw rule allows from ``quiet``: the
        table key leaves the quiet turns out while the draw rule is beyond the search depth, but a
        win read from the endgame table can be longer than that."""
        return (
            self._quiet_draw is not None
            and abs(stored) >= PROVEN
            and quiet + WIN_SCORE - abs(stored) >= self._quiet_draw
        )


class _AlphaBetaSearch:
    """One call's alpha-beta: its clock, stop event, node count, tables and compiled search.  Made
    afresh by each ``AlphaBetaPlayer.choose_turn``, so nothing of one search reaches another but
    the transposition table a player with ``memory`` hands it."""

    def __init__(
        self,
        gen: Generator,
        board: Board,
        evaluation: str,
        depth_rules: tuple[bool, bool],
        endgame,
        deadline: float | None,
        stop,
        compiled_search,
        table: dict | None = None,
    ):
        self._gen, self._root_ply = gen, len(board.turns)
        self._evaluate = EVALUATIONS[evaluation]
        self.quiescence, self.reductions = depth_rules  # searching past the horizon, reducing late
        self._quiet_draw = board.rules.quiet_draw
        self._endgame = None if endgame is None else _EndgameScores(endgame, self._quiet_draw)
        self._deadline, self._stop = deadline, stop
        self._watch = deadline is not None or stop is not None  # look at the clock and the event?
        self._nodes, self._next_check = 0, CHECK_EVERY
        self._table: dict = {} if table is None else table  # the player's own with memory
        self._scores: dict = {}
        self._sorted_children: dict = {}
        self._partial: tuple | None = None
        self._compiled = (
            None
            if compiled_search is None
            else compiled_search.start(self._root_ply, deadline, endgame, stop)
        )

    def run(self, board: Board, options: list, max_depth: int, started: float):
        """The best option and what the search did, deepening from depth 1 to ``max_depth``."""
        if len(options) == 1:
            return options[0], SearchInfo(
                0,
                0,
                time.perf_counter() - started,
                0.0,
                [str(_as_turn(board, options[0][0]))],
                self._compiled is not None,
            )
        me, opp = bitsets(board)
        best, score, reached = self._remembered(me, opp, board.quiet_turns, options), 0, 0
        for depth in range(1, max_depth + 1):
            self._partial = None
            try:
                best, score = self._search_root(me, opp, board.quiet_turns, options, best, depth)
            except _Timeout:
                if (
                    self._partial is not None
                ):  # a turn that already beat the previous best at this depth
                    best, score = self._partial
                break
            reached = depth
            if abs(score) >= PROVEN:
                break  # a proven win or loss: deeper search cannot change it
        elapsed = time.perf_counter() - started
        if self._compiled is not None:
            self._nodes += self._compiled.nodes
        line = _principal_variation(board, best, max(reached, 1), self._stored_reply)
        return best, SearchInfo(
            reached, self._nodes, elapsed, score, line, self._compiled is not None
        )

    def _remembered(self, me, opp, quiet, options):
        """The option a search of a turn before found best here (with ``memory``), tried first;
        else the first of ``options``."""
        reply = self._stored_reply(me, opp, 0, quiet, MEMORY_DEPTH)
        return next((o for o in options if (o[1], o[2]) == reply), options[0])

    def _search_root(self, me, opp, quiet, options, first, depth):
        ordered = sorted(options, key=lambda o: (o is not first, -_captured(opp, o[2])))
        alpha, best = -WIN_SCORE - 1, ordered[0]
        for option in ordered:
            arguments = (
                option[1],
                option[2],
                opp,
                depth,
                alpha,
                WIN_SCORE + 1,
                0,
                quiet,
                option is not ordered[0],
            )
            if self._compiled is None:
                score = self._child(*arguments)
            else:
                try:
                    score = _compiled_child(self._compiled, *arguments)
                except (
                    OverflowError
                ):  # more turns than the compiled buffer holds: Python from here on
                    self._nodes, self._compiled = self._nodes + self._compiled.nodes, None
                    score = self._child(*arguments)
            if score > alpha:
                alpha, best = score, option
            self._partial = (best, alpha)
        if self._compiled is None:
            self._table[self._key(me, opp, 0, quiet, depth)] = (
                depth,
                alpha,
                EXACT,
                (best[1], best[2]),
            )
        else:
            self._compiled.store_root(me, opp, quiet, depth, alpha, (best[1], best[2]))
        return best, alpha

    def _look(self):
        """Every ``CHECK_EVERY`` nodes: stop when the stop event is set or the time is up."""
        self._next_check = self._nodes + CHECK_EVERY
        _raise_if_stopped(self._stop)
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _Timeout

    def _key(self, me, opp, ply, quiet, depth):
        """The table key: stones, side to move, the opening rule's turn, and the quiet turns when
        the draw rule could end the game within ``depth`` turns (otherwise they cannot change the
        value)."""
        draw_near = (
            self._quiet_draw is not None and self._quiet_draw - quiet <= depth + QUIESCENCE_TURNS
        )
        return (
            me,
            opp,
            (self._root_ply + ply) % 2,
            self._gen.single(self._root_ply + ply),
            quiet if draw_near else -1,
        )

    def _child(self, me2, opp2, opp, depth, alpha, beta, ply, quiet, null_window, reduction=0):
        """The value, for the side that moved, of the turn that left ``(me2, opp2)``: ``reduction``
        turns shallower first (and no further if it does not beat ``alpha``), with a null window
        when ``null_window``, and again with the full window if it beats ``alpha``."""
        quiet2 = quiet + 1 if opp2 == opp else 0
        if (
            depth == 1 and not self.quiescence
        ):  # the horizon, scored here rather than in a call more
            self._nodes += 1
            if not opp2:
                return WIN_SCORE - ply - 1
            if self._quiet_draw is not None and quiet2 >= self._quiet_draw:
                return 0
            endgame = self._endgame
            known = None if endgame is None else endgame.known(opp2, me2, ply + 1, quiet2)
            if known is not None:
                return -known
            score = self._scores.get((opp2, me2))
            if score is None:
                score = self._scores[opp2, me2] = self._evaluate(self._gen, opp2, me2)
            return -score
        if reduction:
            score = -self._negamax(
                opp2, me2, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, quiet2
            )
            if score <= alpha:
                return score
        if null_window:
            score = -self._negamax(opp2, me2, depth - 1, -alpha - 1, -alpha, ply + 1, quiet2)
            if not alpha < score < beta:
                return score
        return -self._negamax(opp2, me2, depth - 1, -beta, -alpha, ply + 1, quiet2)

    def _negamax(self, me, opp, depth, alpha, beta, ply, quiet):
        self._nodes += 1
        if self._watch and self._nodes >= self._next_check:
            self._look()
        if not me:
            return ply - WIN_SCORE
        if self._quiet_draw is not None and quiet >= self._quiet_draw:
            return 0
        if self._endgame is not None:
            known = self._endgame.known(me, opp, ply, quiet)
            if known is not None:
                return known
        if depth <= 0:
            if self.quiescence:
                return self._quiesce(me, opp, alpha, beta, ply, QUIESCENCE_TURNS)
            score = self._scores.get((me, opp))
            if score is None:
                score = self._scores[me, opp] = self._evaluate(self._gen, me, opp)
            return score
        key = self._key(me, opp, ply, quiet, depth)
        original_alpha, best = alpha, -WIN_SCORE - 1
        entry = self._table.get(key)
        stored, best_move = _probe(entry, self._endgame, depth, alpha, beta, ply, quiet)
        if stored is not None:
            return stored
        if best_move is not None:  # the stored best reply first, before generating the others
            best = self._child(
                best_move[0], best_move[1], opp, depth, alpha, beta, ply, quiet, False
            )
            alpha = max(alpha, best)
        if alpha < beta:
            children = self._ordered_children(key, me, opp, ply)
            if not children:
                return ply - WIN_SCORE
            best, best_move = self._best_child(
                children, best, best_move, opp, depth, alpha, beta, ply, quiet
            )
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self._table[key] = (depth, to_table(best, ply), flag, best_move)
        return best

    def _best_child(self, children, best, stored_move, opp, depth, alpha, beta, ply, quiet):
        """The children after the stored best reply (``stored_move``, searched already, with the
        value ``best``), until one cuts: the best value and the turn that has it."""
        best_move, reduce = stored_move, self.reductions and depth >= REDUCE_FROM_DEPTH
        for index, (me2, opp2) in enumerate(children):
            if (me2, opp2) == stored_move:  # searched already
                continue
            searched = best > -WIN_SCORE - 1
            reduction = _reduction(reduce and searched, index, depth)
            score = self._child(me2, opp2, opp, depth, alpha, beta, ply, quiet, searched, reduction)
            if score > best:
                best, best_move = score, (me2, opp2)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best, best_move

    def _ordered_children(self, key, me, opp, ply):
        """A node's children in the order they are searched, fewest opponent stones left first
        (kept for the node's next visit)."""
        children = self._sorted_children.get(key)
        if children is None:
            children = self._gen.children(me, opp, self._gen.single(self._root_ply + ply))
            self._sorted_children[key] = children
            children.sort(key=lambda c: c[1].bit_count())
        return children

    def _quiesce(self, me, opp, alpha, beta, ply, turns_left):
        """The value past the horizon: while the side to move can capture, search its capturing
        turns (it must play one when capture is compulsory); a quiet position is scored by the
        evaluation."""
        gen = self._gen
        self._nodes += 1
        threat = gen.best_capture(me, opp)
        if not threat:
            if not gen.has_step(me, opp):
                return ply - WIN_SCORE
            return self._static(me, opp, 0)
        if turns_left == 0:
            return self._static(me, opp, threat)
        best = -WIN_SCORE - 1
        if not gen.rules.mandatory_capture:  # a quiet turn is allowed: standing pat is a choice
            best = self._static(me, opp, threat)
            if best >= beta:
                return best
            alpha = max(alpha, best)
        children = [
            c for c in gen.children(me, opp, gen.single(self._root_ply + ply)) if c[1] != opp
        ]
        children.sort(key=lambda c: c[1].bit_count())
        for me2, opp2 in children:
            score = (
                WIN_SCORE - ply - 1
                if not opp2
                else -self._quiesce(opp2, me2, -beta, -alpha, ply + 1, turns_left - 1)
            )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _static(self, me, opp, threat):
        """The evaluation, reusing the best capture (``threat``) already found when it is
        "threat"."""
        if self._evaluate is material_threat:
            return STONE * (me.bit_count() - opp.bit_count()) + THREAT * threat
        return self._evaluate(self._gen, me, opp)

    def _stored_reply(self, me, opp, ply, quiet, length):
        """The best reply the table holds for a position, as ``(me, opp)`` after it, or None."""
        for depth in range(length, -1, -1):
            if self._compiled is not None:
                found = self._compiled.stored_reply(me, opp, ply, quiet, depth)
                if found is not False:
                    return found
            elif (key := self._key(me, opp, ply, quiet, depth)) in self._table:
                return self._table[key][3]
        return None


def _probe(entry, endgame, depth, alpha, beta, ply, quiet):
    """A transposition table's ``entry`` for a node (or None): (its value, None) when the stored
    bound settles the node, else (None, the stored best reply or None)."""
    if entry is None:
        return None, None
    stored_depth, stored, flag, best_move = entry
    if stored_depth >= depth and not (
        endgame is not None and endgame.may_outlive_draw_rule(stored, quiet)
    ):
        stored = from_table(stored, ply)
        if (
            flag == EXACT
            or (flag == LOWER and stored >= beta)
            or (flag == UPPER and stored <= alpha)
        ):
            return stored, None
    return None, best_move


def _compiled_child(search, *arguments):
    """``_AlphaBetaSearch._child`` on the compiled path: the same value, or the same
    ``_Timeout`` or cancellation."""
    score = search.child(*arguments)
    if search.overflowed:
        raise OverflowError("more turns than the compiled buffer holds")
    if search.cancelled:
        raise SearchCancelled("the search was stopped")
    if search.timed_out:
        raise _Timeout
    return score


def _principal_variation(board: Board, best, length: int, stored_reply) -> list[str]:
    """The expected line, read from a search's table through its ``stored_reply``, as turn
    texts (the first is the answer)."""
    line, b = [], board.copy()
    turn = _as_turn(b, best[0])
    for _ in range(length):
        line.append(str(turn))
        b.push(turn)
        if b.outcome() is not None:
            break
        reply = stored_reply(*bitsets(b), len(line), b.quiet_turns, length)
        if reply is None:
            break
        found = next(
            (_as_turn(b, raw) for raw, me2, opp2, _ in _options(b) if (me2, opp2) == reply),
            None,
        )
        if found is None:
            break
        turn = found
    return line


def _check_endgame(endgame):
    """None or 0 (no table), a number of stones (2 to ``INDEXED_STONES``), or a table
    (``EndgameTable`` or ``IndexedTable``)."""
    if endgame is None or (
        isinstance(endgame, int) and not isinstance(endgame, bool) and endgame == 0
    ):
        return None
    if (
        isinstance(endgame, int)
        and not isinstance(endgame, bool)
        and 2 <= endgame <= INDEXED_STONES
    ):
        return endgame
    from .endgame import EndgameTable
    from .indexed import IndexedTable

    if isinstance(endgame, (EndgameTable, IndexedTable)):
        return endgame
    raise ValueError(
        f"endgame is a number of stones from 2 to {INDEXED_STONES}, a table "
        f"(fanorona.engine.endgame.EndgameTable or fanorona.engine.indexed.IndexedTable), or "
        f"None; got {endgame!r}"
    )


# ---------------------------------------------------------------------------------------------
# Monte Carlo tree search.


class _Node:
    __slots__ = ("children", "me", "opp", "option", "ply", "reward", "untried", "visits")

    def __init__(self, me, opp, ply, option=None):
        self.me, self.opp, self.ply, self.option = me, opp, ply, option
        self.children: list = []
        self.untried = None  # generated on the first visit
        self.visits, self.reward = 0, 0.0  # reward for the side that moved into this node


class MCTSPlayer(_Player):
    """UCT: grow a tree towards the turns whose random games went best, then play the most tried.

    Each playout plays random turns for at most ``max_turns`` turns and, if no one has won by
    then, scores the position by who has more stones.
    """

    def __init__(
        self,
        playouts: int | None = None,
        time_limit: float = 1.0,
        seed=None,
        max_turns: int = 30,
        exploration: float = 1.4,
    ):
        super().__init__(seed)
        if playouts is not None and (
            isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1
        ):
            raise ValueError(f"playouts is a whole number, at least 1; got {playouts!r}")
        if playouts is None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit is a positive number of seconds; got {time_limit!r}")
        self.playouts, self.time_limit = playouts, time_limit
        self.max_turns, self.exploration = max_turns, exploration
        self.name = (
            f"mcts:playouts={playouts}" if playouts is not None else f"mcts:time={time_limit:g}"
        )
        self.last_search: SearchInfo | None = None

    def _pick(self, board, options, stop):
        started = time.perf_counter()
        tree = _Playouts(
            generator(board.geometry, board.rules),
            len(board.turns),
            self.rng,
            self.max_turns,
            self.exploration,
        )
        me, opp = bitsets(board)
        root = _Node(me, opp, 0)
        root.untried = list(options)
        self.rng.shuffle(root.untried)
        count = 0
        while (
            count < self.playouts
            if self.playouts is not None
            else time.perf_counter() - started < 0.9 * self.time_limit
        ):
            _raise_if_stopped(stop)
            tree.playout(root)
            count += 1
        best = max(root.children, key=lambda n: n.visits)
        line = self._most_tried_line(board, root)
        self.last_search = SearchInfo(
            len(line),
            count,
            time.perf_counter() - started,
            round(100 * best.reward / best.visits),
            line,
        )
        return best.option

    @staticmethod
    def _most_tried_line(board: Board, node: _Node) -> list[str]:
        """The turns MCTS expects: from the root, the most visited child again and again."""
        line = []
        while node.children:
            node = max(node.children, key=lambda n: n.visits)
            line.append(str(_as_turn(board, node.option[0])))
        return line


class _Playouts:
    """One call's tree search: the generator, the root's turn number and the player's settings."""

    def __init__(
        self, gen: Generator, root_ply: int, rng: random.Random, max_turns: int, exploration: float
    ):
        self._gen, self._root_ply, self.rng = gen, root_ply, rng
        self.max_turns, self.exploration = max_turns, exploration

    def _results(self, me, opp, ply):
        """The position after each turn, ``(me, opp)`` of the side that moved."""
        return self._gen.results(me, opp, self._gen.single(self._root_ply + ply))

    def playout(self, root: _Node) -> None:
        """Select a leaf, expand it by one turn, play a random game from there and back up its
        result."""
        path, node = [root], root
        while node.untried == [] and node.children:  # select
            node = max(node.children, key=lambda c: self._ucb(node, c))
            path.append(node)
        if node.untried is None:
            single = self._gen.single(self._root_ply + node.ply)
            node.untried = self._gen.turns(node.me, node.opp, single) if node.me else []
            self.rng.shuffle(node.untried)
        if node.untried:  # expand
            option = node.untried.pop()
            child = _Node(option[2], option[1], node.ply + 1, option)
            node.children.append(child)
            path.append(child)
            node = child
        value = self._random_game(node.me, node.opp, node.ply)  # for the side to move at node
        for n in reversed(path):  # back up
            n.visits += 1
            n.reward += 1.0 - value
            value = 1.0 - value

    def _ucb(self, parent: _Node, child: _Node) -> float:
        return child.reward / child.visits + self.exploration * math.sqrt(
            math.log(parent.visits) / child.visits
        )

    def _random_game(self, me, opp, ply) -> float:
        """1 if the side to move wins the random game, 0 if it loses, by stones at the cap."""
        sign = 1
        for n in range(self.max_turns):
            results = self._results(me, opp, ply + n) if me else []
            if not results:
                return 0.0 if sign == 1 else 1.0
            me2, opp2 = self.rng.choice(results)
            me, opp, sign = opp2, me2, -sign
        lead = sign * (me.bit_count() - opp.bit_count())
        return 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5


# ---------------------------------------------------------------------------------------------
# Players by name, and the difficulty levels.

_KINDS = {
    "random": (RandomPlayer, {}),
    "greedy": (GreedyPlayer, {}),
    "alphabeta": (
        AlphaBetaPlayer,
        {
            "depth": ("depth", int),
            "time": ("time_limit", float),
            "eval": ("evaluation", str),
            "quiescence": ("quiescence", int),
            "endgame": ("endgame", int),
            "compiled": ("compiled", int),
            "memory": ("memory", int),
            "reductions": ("reductions", int),
        },
    ),
    "mcts": (
        MCTSPlayer,
        {"playouts": ("playouts", int), "time": ("time_limit", float), "cap": ("max_turns", int)},
    ),
}

#: The difficulty levels, weakest first, as player specs.  Measured on 9x5 (python -m
#: fanorona.engine.arena,
#: colours and openings alternated) with the search before movegen: level2-level1 80% (20 games),
#: level3-level2 100% (20), level4-level3 95% (20), level5-level4 55% (40; +35 Elo, not
#: significant).
#: Against that search at 1.8 s a turn, 100 games each, today's level 5 scored +164 Elo (+120 to
#: +214) in pure Python and +308 (+252 to +381) compiled (the benchmarks page).  Level 5 before the
#: deeper reductions, against the level 5 frozen before the learned evaluation (a copy kept in
#: the benchmarks then; older versions are now built from git), 1.8 s a turn each, games played
#: to their end: +92 Elo (+60 to
#: +127) over 100 games, +89 (+67 to +111) over 200; without ``endgame=5`` and ``reductions`` +89
#: in the first 100's openings (head to head each scored about +20, both together +17 over 100
#: games).  With late turns in deep nodes searched two turns shallower (``scoring.LATER_TURN``):
#: +108 (+69 to +149) over 100 games in other openings, +14 (-4 to +32) head to head at 0.25 s.
LEVELS = {
    1: "random",
    2: "greedy",
    3: "alphabeta:depth=2",
    4: "alphabeta:time=1,endgame=4",
    5: "alphabeta:time=1.8,endgame=5,eval=learned,memory=1,reductions=1",
}


def make_player(spec: str, seed=None):
    """A player from its spec: ``random``, ``greedy``, ``alphabeta:depth=3``,
    ``alphabeta:time=0.5``, ``mcts:playouts=200``, ``level4`` ... (options after ':' as key=value,
    separated by ',')."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(
            f"a player is named by text like 'greedy' or 'alphabeta:depth=3'; got {spec!r}"
        )
    kind, _, options = spec.strip().partition(":")
    if kind.startswith("level") and not options:
        try:
            return level(int(kind[5:]), seed)
        except ValueError as e:
            raise ValueError(
                f"{spec!r}: {e}"
                if kind[5:].isdigit()
                else f"{spec!r}: a level is written level1 to level{len(LEVELS)}"
            ) from None
    if kind not in _KINDS:
        raise ValueError(
            f"{spec!r}: no player called {kind!r}; choose one of "
            f"{', '.join(_KINDS)}, or level1 to level{len(LEVELS)}"
        )
    cls, known = _KINDS[kind]
    kwargs = {}
    for item in filter(None, options.split(",")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if key not in known:
            allowed = ", ".join(known) or "no options"
            raise ValueError(f"{spec!r}: {kind} has no option {key!r} (it takes {allowed})")
        if not eq:
            raise ValueError(f"{spec!r}: write the option as {key}=value")
        name, convert = known[key]
        try:
            kwargs[name] = convert(value.strip())
        except ValueError:
            raise ValueError(
                f"{spec!r}: {key} must be {'a whole number' if convert is int else 'a number'}; "
                f"got {value.strip()!r}"
            ) from None
    return cls(seed=seed, **kwargs)


def level(n: int, seed=None):
    """The computer opponent at difficulty ``n``: 1 random, 2 greedy, 3 to 5 alpha-beta, ever
    deeper."""
    if n not in LEVELS or isinstance(n, bool):
        raise ValueError(f"levels go from 1 to {len(LEVELS)}; got {n!r}")
    player = make_player(LEVELS[n], seed)
    player.name = f"level{n}"
    return player


def __getattr__(name):
    """``PerfectPlayer`` comes from the solver, loaded on first use."""
    if name == "PerfectPlayer":
        from .solve import PerfectPlayer

        return PerfectPlayer
    raise AttributeError(f"module 'fanorona.engine.ai' has no attribute {name!r}")
