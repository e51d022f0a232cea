"""The computer's verdict on every turn of a finished game: what the position was worth before
and after the turn, which turns threw value away, and the turn that would have kept it.

Values are scores for the side to move on the search's scale (100 a stone; a proven win in n
turns ``WIN_SCORE - n``).  A board the solver handles is judged exactly from its table; any other
board by the alpha-beta search at a fixed depth (so a review replays identically), which reads
the 9x5 endgame table where few stones are left.  ``review(game)`` returns a ``Review``;
``Review.plot()`` draws the value over the game with matplotlib.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Board, Turn
from ..game import Game
from .ai import AlphaBetaPlayer
from .retrograde import DRAW, LOSS, WIN
from .scoring import PROVEN, STONE, WIN_SCORE
from .solve import MAX_POINTS, Table, solve

__all__ = [
    "DEFAULT_DEPTH",
    "MISTAKE",
    "Judge",
    "Review",
    "TurnVerdict",
    "exact_score",
    "in_words",
    "judge_for",
    "review",
    "search_score",
    "standing",
]

#: The search depth (whole turns) of a review on a board too big to solve.
DEFAULT_DEPTH = 4
#: A turn that loses at least this much value (two stones) is a mistake; so is one that turns a
#: proven win into anything less, or a draw into a proven loss.
MISTAKE = 2 * STONE
#: Forced turns are played through to score a position; a cycle of forced quiet turns is a draw.
FORCED_LIMIT = 60


def exact_score(value: str, distance: int | None) -> int:
    """A table's value as a score for the side to move: a win in n turns scores
    ``WIN_SCORE - n``, a loss in n ``-(WIN_SCORE - n)``, a draw 0."""
    if value == DRAW:
        return 0
    if value not in (WIN, LOSS) or distance is None:
        raise ValueError(f"a won or lost position has a distance; got {value!r} in {distance!r}")
    return (WIN_SCORE - distance) * (1 if value == WIN else -1)


def search_score(board: Board, player: AlphaBetaPlayer) -> float:
    """The search's score of ``board`` for its side to move.  The search answers a forced turn
    without scoring it, so forced turns are played through first (the sign flipped and a proven
    result one turn further off for each)."""
    board, forced = board.copy(), 0
    while forced < FORCED_LIMIT:
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0
            raw: float = WIN_SCORE if outcome.winner == board.to_move.value else -WIN_SCORE
            break
        turns = board.legal_turns()
        if len(turns) > 1:
            player.choose_turn(board)
            assert player.last_search is not None
            raw = player.last_search.score
            break
        board.push(turns[0])
        forced += 1
    else:
        return 0
    for _ in range(forced):
        raw = one_turn_back(-raw)
    return raw


class Judge:
    """Scores positions and names the best turn: exactly from a solved table, or by a search."""

    def __init__(self, table: Table | None = None, depth: int = DEFAULT_DEPTH, endgame=3):
        self.table, self.depth = table, depth
        self.players = (
            {}
            if table is not None
            else {
                d: AlphaBetaPlayer(depth=d, seed=0, endgame=endgame)
                for d in {depth, max(1, depth - 1)}
            }
        )
        self.name = (
            f"the solved {table.size[0]}x{table.size[1]} table"
            if table is not None
            else f"depth {depth}"
        )

    def score(self, board: Board, after_turn: bool = False) -> float:
        """The value of ``board`` for the side to move.  ``after_turn``: the board is one turn on
        from a position being judged, so the search looks one turn less ahead; both then see
        the same horizon, which otherwise swings the value with the depth's parity."""
        if self.table is not None:
            return exact_score(self.table.value(board), self.table.distance(board))
        depth = max(1, self.depth - 1) if after_turn else self.depth
        return search_score(board, self.players[depth])

    def best(self, board: Board) -> Turn:
        """The turn the judge would play (a fastest win, else the longest resistance)."""
        if self.table is not None:
            return min(self.table.best_turns(board), key=str)
        return self.players[self.depth].choose_turn(board)


def judge_for(board: Board, depth: int = DEFAULT_DEPTH) -> Judge:
    """The exact table when the solver handles the board and its rules, else the search."""
    w, h = board.size
    rules = board.rules.with_(quiet_draw=None)
    if w * h <= MAX_POINTS and not rules.opening_single_capture:
        return Judge(solve(board.size, rules, progress=False))
    return Judge(depth=depth)


@dataclass(frozen=True)
class TurnVerdict:
    """One turn of the game: who played it, its value before and after (for that player), and
    the better turn when it was a mistake."""

    number: int  # 1 for the first turn of the game: where it stands in the game's turns
    color: str
    played: str
    before: float
    after: float
    better: str | None  # the judge's turn, given when ``played`` is a mistake
    move: int = 0  # the move list's number of the turn: a White turn and Black's reply share one
    exact: bool = False  # the values are a solved table's, so a value of 0 is a proven draw

    @property
    def loss(self) -> float:
        """How much value the turn gave away (never negative: a search may find more later)."""
        return max(0.0, self.before - self.after)

    @property
    def mistake(self) -> bool:
        return self.better is not None

    @property
    def name(self) -> str:
        """The turn as the move list names it: its number, its side, its text."""
        return f"{self.move}. {self.color.capitalize()} {self.played}"

    def __str__(self) -> str:
        text = f"{self.name}: {in_words(self.before, self.color, self.exact)}"
        text += f", after it {in_words(self.after, self.color, self.exact)}"
        return text + (f"; a mistake, better {self.better}" if self.better else "")


def standing(score: float, color: str, exact: bool) -> tuple[str, str | None, float]:
    """A score of ``color``'s as what it says: ``("wins", side, turns)``, ``("draw", None, 0)``
    (a proven draw: only a solved table proves one), ``("even", None, 0)`` or
    ``("ahead", side, stones)``."""
    other = "black" if color == "white" else "white"
    if score >= PROVEN:
        return "wins", color, WIN_SCORE - int(score)
    if score <= -PROVEN:
        return "wins", other, WIN_SCORE + int(score)
    if exact:
        return "draw", None, 0
    if abs(score) < STONE / 20:
        return "even", None, 0
    return "ahead", color if score > 0 else other, round(abs(score) / STONE, 1)


def in_words(score: float, color: str, exact: bool) -> str:
    """A score of ``color``'s as a sentence says it: who wins in how many turns, a draw with best
    play, or how many stones ahead the search finds a side."""
    kind, side, amount = standing(score, color, exact)
    if kind == "wins":
        return f"{str(side).capitalize()} wins in {turns(int(amount))}"
    if kind == "draw":
        return "a draw with best play"
    if kind == "even":
        return "even"
    return f"{str(side).capitalize()} {amount:.1f} stones ahead"


def turns(n: int) -> str:
    return f"{n} turn{'s' * (n != 1)}"


def describe(score: float) -> str:
    """A score in words for the side it belongs to."""
    if score >= PROVEN:
        return f"wins in {WIN_SCORE - int(score)}"
    if score <= -PROVEN:
        return f"loses in {WIN_SCORE + int(score)}"
    return f"{score / STONE:+.1f} stones"


def one_turn_back(score: float) -> float:
    """A proven score of the position after a turn, counted in turns from before it."""
    return score - 1 if score >= PROVEN else score + 1 if score <= -PROVEN else score


def is_mistake(before: float, after: float, threshold: float = MISTAKE) -> bool:
    """Whether a turn from value ``before`` to ``after`` (same player's view) is a mistake: a win
    thrown away, a loss walked into, or ``threshold`` lost between them."""
    if before >= PROVEN:
        return after < PROVEN
    if after <= -PROVEN:
        return before > -PROVEN
    return before - after >= threshold


@dataclass(frozen=True)
class Review:
    """The verdicts of a whole game, and who judged them."""

    game: Game
    verdicts: tuple[TurnVerdict, ...]
    judge: str

    def mistakes(self) -> list[TurnVerdict]:
        return [v for v in self.verdicts if v.mistake]

    def values(self) -> list[float]:
        """White's value of each position, from the start to the end (one more than turns)."""
        values = [v.before if v.color == "white" else -v.before for v in self.verdicts]
        if self.verdicts:
            last = self.verdicts[-1]
            values.append(last.after if last.color == "white" else -last.after)
        return values

    def plot(self, ax=None):
        """White's value over the game in stones (proven results drawn at +-10), mistakes
        marked; returns the matplotlib axes."""
        import matplotlib.pyplot as plt

        if ax is None:  # constrained: every label inside the figure, whatever shows it
            _fig, ax = plt.subplots(figsize=(7, 3), layout="constrained")
        shown = [max(-10.0, min(10.0, v / STONE)) for v in self.values()]
        ax.plot(range(len(shown)), shown, color="0.2", lw=1.5)
        ax.axhline(0, color="0.7", lw=0.8)
        for v in self.mistakes():
            ax.plot(v.number, shown[v.number], "o", color="red" if v.color == "white" else "navy")
        ax.set_xlabel("turns played (two to a line of the move list)")
        ax.set_ylabel("White's value (stones)")
        ax.set_title(f"{self.game.white} against {self.game.black}, judged by {self.judge}")
        return ax

    def __str__(self) -> str:
        return "\n".join(map(str, self.verdicts))


def review(
    game: Game | Board, depth: int = DEFAULT_DEPTH, threshold: float = MISTAKE, judge=None
) -> Review:
    """Judge every turn of ``game`` (a record or a board whose turns were played on it)."""
    if isinstance(game, Board):
        game = Game.from_board(game)
    if not isinstance(game, Game):
        raise TypeError(f"review takes a fanorona.Game or a Board; got {type(game).__name__}")
    board = game.board(0)
    judge = judge or judge_for(board, depth)
    lead = board.to_move.value == "black"  # the move list's first line starts with Black's turn
    verdicts = []
    for number, text in enumerate(game.turns, 1):
        color = board.to_move.value
        position = board.copy()
        before = judge.score(position)
        board.push(text)
        after = one_turn_back(-judge.score(board, after_turn=True))
        better = None
        if is_mistake(before, after, threshold):
            better = str(judge.best(position))
            if better == text:  # the search's horizon: its own turn looked worse one turn on
                better = None
        move = (number - 1 + lead) // 2 + 1
        exact = judge.table is not None
        verdicts.append(TurnVerdict(number, color, text, before, after, better, move, exact))
    return Review(game, tuple(verdicts), judge.name)
