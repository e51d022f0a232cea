"""The computer's turns on the interactive board, played in a background thread.

``ComputerRunner`` thinks on a copy of the game, so the board stays responsive, then plays the
chosen turn through its controller one step at a time, so a chain can be followed.  Anything
that changes the game (undo, a new game, a new setting) cancels it: its ``stop`` event is set,
which a player that takes ``choose_turn(board, stop=...)`` answers by giving up at once, and a
late answer is dropped.  A new search starts only once the cancelled one has ended, so two
searches never share a player.  Whatever goes wrong in the thread reaches the status line.
"""

from __future__ import annotations

import inspect
import threading
from collections import OrderedDict

from ..board import Turn
from .progress import watching_bars
from .state import BoardState

#: The level that stands in when the perfect player's table lacks a position.
FALLBACK_LEVEL = 5
#: How many computer players are kept (a few MB each: a search's 36 MB table lives only while it
#: searches, see ``compiled.tables_held``).
KEPT_PLAYERS = 2
#: The depth the iterative search stops at when nothing stops it sooner (the table answered).
DEPTH_CAP = 99


class Players:
    """The computer's players, made on demand and kept for the last few (level, size, rules)."""

    def __init__(self, kept: int = KEPT_PLAYERS):
        self.kept = kept
        self._players: OrderedDict = OrderedDict()

    def get(self, level, board, custom=None):
        """The player for a level on this board's size and rules (the perfect one solves the
        board)."""
        key = (level, board.size, board.rules)
        if key in self._players:
            self._players.move_to_end(key)
            return self._players[key]
        if level == "custom":
            player = custom
        elif level == "perfect":
            from ..engine.solve import PerfectPlayer

            player = PerfectPlayer(board.size, rules=board.rules.with_(quiet_draw=None))
        else:
            from ..engine.ai import level as level_player

            player = level_player(level)
        self._players[key] = player
        while len(self._players) > self.kept:
            self._players.popitem(last=False)
        return player

    def __len__(self) -> int:
        return len(self._players)


def takes_stop(player) -> bool:
    """Whether ``player.choose_turn`` accepts ``stop=`` (a threading.Event that cancels the
    search)."""
    try:
        parameters = inspect.signature(player.choose_turn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "stop" or p.kind is p.VAR_KEYWORD for p in parameters)


def ask(player, board, stop: threading.Event):
    return player.choose_turn(board, stop=stop) if takes_stop(player) else player.choose_turn(board)


def search_words(info) -> tuple[str, dict]:
    """The search line's sentence: the search's own words, or that the answer came from the
    table."""
    text = str(info)
    if getattr(info, "depth", 0) >= DEPTH_CAP and text.startswith("depth"):
        return "search_table", {"info": text.split(", ", 1)[1]}
    return "search", {"info": text}


class ComputerRunner:
    """Plays the computer's side for a controller (see ``fanorona.ui.controller.Controller``)."""

    def __init__(self, controller):
        self.controller = controller
        self.generation = 0  # bumped to cancel the turn in progress
        self.thread: threading.Thread | None = None
        self._stop = (
            threading.Event()
        )  # set on cancel: stops the search and the pause between steps
        self._running_generation = None
        self.players = Players()

    def cancel(self) -> None:
        """Drop the turn being thought about or played (call with the controller's lock held)."""
        self.generation += 1
        self._stop.set()

    def kick(self) -> None:
        """Start thinking if the computer is to move and is not already at it."""
        c = self.controller
        with c.lock:
            if self.busy() or not c.computer_should_move():
                return
            self._stop = threading.Event()
            self.thread = threading.Thread(
                target=self._run,
                args=(self.generation, self._stop, self.thread),
                daemon=True,
                name="fanorona-computer",
            )
            self._running_generation = self.generation
            self.thread.start()

    def busy(self) -> bool:
        """A thread is thinking or playing for the current game."""
        return (
            self.thread is not None
            and self.thread.is_alive()
            and self._running_generation == self.generation
        )

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the computer has stopped moving (for tests and scripts; never in a
        callback)."""
        thread = self.thread
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                raise TimeoutError(f"the computer did not finish within {timeout} s")

    def player(self, level, board):
        return self.players.get(level, board, self.controller.custom_player)

    # -- the thread ----------------------------------------------------------------------------

    def _run(
        self, generation: int, stop: threading.Event, previous: threading.Thread | None
    ) -> None:
        c = self.controller
        if previous is not None and previous.is_alive():  # a cancelled search ends first: the two
            with c.lock:  # never share a player; meanwhile the board says the computer is at it
                if generation == self.generation and c.computer_should_move():
                    c.report("thinking", name=c.player_name(c.model.to_move))
            previous.join()
        try:
            while True:
                with c.lock:
                    if generation != self.generation or not c.computer_should_move():
                        return
                    board, level = c.model.copy(), c.level
                    name = c.player_name(board.to_move)
                    c.report("thinking", name=name)
                steps, notes, search = self._decide(board, level, name, stop, generation)
                if not self._animate(generation, stop, board, steps, name, notes, search):
                    return
        except Exception as e:  # the thread has nobody to raise to: the status line says it
            with c.lock:
                if (
                    generation == self.generation
                ):  # a cancelled search's exception is dropped with it
                    c.computer_failed(e)

    def _prepare(self, player, board, name, generation) -> None:
        """Load compiled code or an endgame table first, its progress shown as the board's own
        (while this turn is still wanted)."""
        c = self.controller

        def report(progress):
            with c.lock:
                if generation == self.generation:
                    c.show_progress(progress)

        with c.lock:
            if generation == self.generation:
                c.report("preparing", name=name)
        with watching_bars(report):
            player.prepare(board, progress=True)

    def _decide(self, board, level, name, stop, generation) -> tuple[list, list, tuple]:
        """The steps to play, the sentence parts to show after them, and the search line."""
        if board.chain:
            return self._finish_chain(board, name)
        notes: list[tuple[str, dict]] = []
        player = self.player(level, board)
        if hasattr(player, "ready") and not player.ready(board):
            self._prepare(player, board, name, generation)
            with self.controller.lock:
                if generation != self.generation:
                    return [], [], ()  # cancelled while preparing: _animate drops it
                self.controller.report("thinking", name=name)
        try:
            turn = ask(player, board, stop)
        except ValueError:
            if level != "perfect" or stop.is_set():
                raise
            notes.append(("perfect_fallback", {"level": FALLBACK_LEVEL}))
            player = self.player(FALLBACK_LEVEL, board)
            name = f"level {FALLBACK_LEVEL}"
            turn = ask(player, board, stop)
        notes.append(("computer_played", {"name": name, "move": str(turn)}))
        info = getattr(player, "last_search", None)
        return list(turn.steps), notes, search_words(info) if info else ()

    @staticmethod
    def _finish_chain(board, name) -> tuple[list, list, tuple]:
        """A chain someone else began: capture as much as it can, or stop where it stands."""
        done = Turn(tuple(board.chain))
        endings = board.legal_turns()
        if not endings:
            return [], [("computer_stopped", {"name": name, "move": str(done)})], ()
        mover = board.to_move

        def left(turn) -> int:
            return board.after(turn).count(mover.other)

        best = min(endings, key=left)
        whole = Turn(done.steps + best.steps)
        return list(best.steps), [("computer_finished", {"name": name, "move": str(whole)})], ()

    def _animate(self, generation, stop, board, steps, name, notes, search) -> bool:
        """Play the steps one at a time with the controller's pause between them; False if
        cancelled."""
        c = self.controller
        played = list(board.chain)
        for step in steps:
            if c.delay and stop.wait(c.delay):
                return False
            played.append(step)
            with c.lock:
                if generation != self.generation:
                    return False
                c.computer_step(step, str(Turn(tuple(played))), name)
        with c.lock:
            if generation != self.generation:
                return False
            c.computer_done(notes, search)
        return True


class ComputerSeat(BoardState):
    """The controller's side of the runner: what the runner may ask and do, with the lock held
    (see ``fanorona.ui.controller.Controller``)."""

    def computer_to_move(self, live_only: bool = True) -> bool:
        """The side to move is the computer's (and, by default, the board is live and the game goes
        on)."""
        if not self.settings.sides() or self.game.to_move not in self.settings.sides():
            return False
        return not live_only or (self.shown is None and self.game.outcome() is None)

    def computer_should_move(self) -> bool:
        return self.computer_to_move() and not self.settings.paused

    def player_name(self, side: str) -> str:
        return self.settings.player_name(side, self.game.size)

    def report(self, key: str, **values) -> None:
        """Say something in the status line (the computer thinking, a record written)."""
        self._tell(said=((key, values),))

    def computer_step(self, step, turn: str, name: str) -> None:
        """The runner plays one step of the computer's turn."""
        self.game.push(step)
        self._redo.clear()
        self._tell(said=(("playing", {"name": name, "move": turn}),))

    def computer_done(self, said: tuple, searched: tuple = ()) -> None:
        """The runner has finished the computer's turn."""
        if self.game.chain:
            self.game.end_turn()
        self._tell(said=tuple(said), searched=searched)

    def computer_failed(self, error: Exception) -> None:
        self._tell(
            error=error, said=(("computer_error", {"reason": f"{type(error).__name__}: {error}"}),)
        )

    def show_progress(self, progress) -> None:
        """A long wait's progress (``fanorona.ui.progress.Progress``), or None when it is over."""
        self._change(progress=progress)

    def _tell(self, **state) -> None:
        """A change from the computer's side: the game moved on, so no choice waits."""
        with self.lock:
            self._settle()
            self._change(**state)


__all__ = ["ComputerRunner", "ComputerSeat", "Players"]
