"""The checks whose student code cannot simply be called from here with plain data, each run in
the grader's process with the student's side in the sandboxed worker.

A drawing (``check_view``): the worker draws on an Axes of its own and reads the picture back as
plain data (``fanorona.readback``); a clickable figure (``check_clickable``, and
``check_simple_clickable`` on the simplified game): the worker clicks it and reads it back,
each state of the game a case; the Subtraction game (``check_subtraction``): asked pile by
pile; the game-tree searches (``check_game_tree``): run in the worker on a tree of its own,
each tree a case; a tournament player (``check_tournament_player``): the file the notebook
writes is played by the tournament's own sandbox.  The references, the cases, the comparison
and the points stay here.  Each answers (cases that agree, cases, the first difference's
sentence), for partial credit.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..exercises import ExerciseFailed, Guard
from ..exercises.clickable import FULL, SIMPLE, Figures, Variant, click_cases
from ..exercises.guard import UNFINISHED, _Unfinished
from ..exercises.player import verdict
from ..exercises.search import LOOKS, TREES, judge, search_call, tree_text
from ..exercises.subtraction import subtraction_cases
from ..exercises.view import VIEW_CALL_LIMIT, view_cases
from ..readback import place
from ..ui.draw import figure_size
from .remote import BoardChanged, Remote, StudentError, boards_sent, left_as_sent

#: (cases that agree, cases, the first difference's sentence, each case with whether it agreed:
#: the case, or None where the check has no case objects), for ``credit.share``.
Counted = tuple[int, int, str | None, list[tuple[object, bool]]]


def _count(sentences, guard: Guard) -> Counted:
    """Count the cases whose sentence is None; the first other sentence."""
    agreed = total = 0
    first: str | None = None
    outcomes: list[tuple[object, bool]] = []
    try:
        for sentence in sentences:
            total += 1
            outcomes.append((None, sentence is None))
            if sentence is None:
                agreed += 1
            elif first is None:
                first = sentence
    except _Unfinished:
        raise ExerciseFailed(UNFINISHED) from None
    finally:
        guard.report_output()
    return agreed, total, first, outcomes


def fn_session(fn: Remote):
    """The session a stand-in asks its questions in."""
    return object.__getattribute__(fn, "_session")


def view(fn: Remote) -> Counted:
    """``check_view``'s boards, each drawn in the worker: the share that shows the position."""
    guard = Guard(VIEW_CALL_LIMIT)

    def shoot(board, call: str) -> dict:
        sent = fn_session(fn).send(board)
        try:
            with guard.running(call):
                shot = fn.ask_worker("draw", board, figsize=list(figure_size(board)))
        except StudentError as e:
            return {"raised": str(e)}
        if not isinstance(shot, dict):
            return {"unlaid": "the worker's answer was no picture"}
        try:  # judged here: the board's state after the drawing against the one sent
            left_as_sent({"after": [[0, shot.get("after")]]}, boards_sent([sent]))
        except BoardChanged:
            return {**shot, "changed": True}
        return {**shot, "changed": False}

    return _count(view_cases(shoot), guard)


def subtraction(make: Remote) -> Counted:
    """``check_subtraction``'s piles, each asked of the student's game in the worker."""
    guard = Guard()
    return _count((sentence for _pile, _value, sentence in subtraction_cases(make, guard)), guard)


def game_tree(minimax: Remote, alphabeta: Remote) -> Counted:
    """``check_game_tree``: the student's minimax, then alpha-beta, each run in the worker on
    every tree of ``TREES``; the value and the nodes looked at come back as plain data and are
    judged here against the reference, each search on each tree a case."""
    guard = Guard()

    def sentences():
        for search, pruning in ((minimax, False), (alphabeta, True)):
            name = "alpha-beta" if pruning else "minimax"
            for number, nodes in enumerate(TREES, 1):
                try:
                    with guard.running(search_call(pruning)):
                        ran = search.ask_worker("search", nodes, alphabeta=pruning, limit=LOOKS)
                except StudentError as e:
                    yield f"On {tree_text(number, nodes)} your {name} raised {e}."
                    continue
                looked = ran.get("looked") if isinstance(ran, dict) else None
                if not (isinstance(looked, list) and all(isinstance(n, str) for n in looked)):
                    yield (
                        f"On {tree_text(number, nodes)} the nodes your {name} looked at did not"
                        " come back as a list of names: leave the tree's record alone."
                    )
                    continue
                yield judge(nodes, number, ran.get("value"), looked, pruning)

    return _count(sentences(), guard)


class InTheWorker(Figures):
    """The student's figure, reached in the sandboxed worker: its layout read back as plain data,
    each click placed here (``readback.place``) and pressed there at those pixels, the picture
    read back.  Whether it is a figure, where a click lands and what it shows are decided here."""

    def is_figure(self, fig) -> bool:
        return isinstance(fig, Remote) and place(fig.ask_worker("layout"), "a1") is not None

    def click(self, fig, point: str) -> None:
        where = place(fig.ask_worker("layout"), point)
        if where is None:
            raise ExerciseFailed(
                f"Before the click on {point} your figure had no Axes to click on: keep the"
                " Figure play(model) returned, with its Axes."
            )
        fig.ask_worker("press", *where)

    def look(self, fig) -> dict:
        shot = fig.ask_worker("look")
        return shot if isinstance(shot, dict) else {}

    def close(self, fig) -> None:
        """The worker's figures end with the worker."""


def clickable(play: Remote, make: Remote, variant: Variant = FULL) -> Counted:
    """``check_clickable`` with the figure in the worker: the share of the game's states (its
    start, then each click) after which the model and the figure show the rules' board."""
    guard = Guard()
    return _count(click_cases(play, make, guard, InTheWorker(), variant), guard)


def simple_clickable(play: Remote, make: Remote) -> Counted:
    """``check_simple_clickable`` with the figure in the worker: the simplified game's clicks."""
    return clickable(play, make, SIMPLE)


def tournament(source: str, games: int = 4, max_turns: int = 60, wins: int = 3) -> Counted:
    """``check_tournament_player`` on the player the notebook writes to its file, played in the
    tournament's sandbox: the games won, up to the ``wins`` needed; nothing for a forfeit."""
    from ..tournament.check import check_player

    with tempfile.TemporaryDirectory(prefix="fanorona-graded-player-") as folder:
        path = Path(folder) / "my_player.py"
        path.write_text(source, encoding="utf-8")
        report = check_player(path, games=games, max_turns=max_turns)
    print(report)
    sentence = verdict(report, games, wins)
    if report.forfeits:
        raise ExerciseFailed(sentence)
    won = min(report.wins, wins)
    return won, wins, sentence, [(None, n < won) for n in range(wins)]
