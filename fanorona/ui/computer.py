"""The computer's turns on the interactive board, played in a background thread (or, where no
thread can start, as in JupyterLite's kernel, in the call that asked for them).

``ComputerRunner`` thinks on a copy of the game, so the board stays responsive, then plays the
chosen turn through its seat (``ComputerSeat``, the controller's part that owns the computer's
settings) one step at a time, so a chain can be followed.  Anything
that changes the game (undo, a new game, a new setting) cancels it: its ``stop`` event is set,
which a player that takes ``choose_turn(board, stop=...)`` answers by giving up at once, and a
late answer is dropped.  A new search starts only once the cancelled one has ended, so two
searches never share a player.  Whatever goes wrong in the thread reaches the status line.
"""

from __future__ import annotations

import inspect
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from ..board import Turn
from .progress import watching_bars
from .reply import Action, Reply, answer
from .settings import COMPUTER_SIDES, STRONGEST, ComputerSettings, perfect_offered

if TYPE_CHECKING:
    from .controller import Controller

#: The level that stands in when the perfect player's table lacks a position.
FALLBACK_LEVEL = 5
#: How many computer players are kept (a few MB each: a search's 36 MB table lives only while it
#: searches, or, for level 5, which remembers, until the game is over; ``compiled.tables_held``).
KEPT_PLAYERS = 2
#: The depth the iterative search stops at when nothing stops it sooner (the table answered).
DEPTH_CAP = 99


class OpponentSays(Exception):
    """A remote opponent's own sentence instead of a turn (a lobby classmate's board): the game
    ended there (``over``: a resignation, a clock, the instructor), or the turn cannot come (the
    turn was refused there).  ``str(e)`` is said as it is, in the board's language, never as the
    computer's failure; a game over there takes no more turns here."""

    def __init__(self, sentence: str, over: bool = False):
        super().__init__(sentence)
        self.over = over


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

    def forget(self) -> None:
        """Drop what the kept search players remember from turn to turn (level 5's 36 MB table):
        a finished game needs none of it."""
        from ..engine.ai import AlphaBetaPlayer

        for player in self._players.values():
            if isinstance(player, AlphaBetaPlayer):
                player.forget()


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
    """Plays the computer's side for its seat (``ComputerSeat``): asks it, with the board's lock
    held, whether to move, and plays through it."""

    def __init__(self, seat: ComputerSeat):
        self.seat = seat
        self.lock = seat.board.lock
        self.generation = 0  # bumped to cancel the turn in progress
        self.thread: threading.Thread | None = None
        # set on cancel: stops the search and the pause between steps
        self._stop = threading.Event()
        self._running_generation: int | None = None
        self._here = False  # playing in the caller, where no thread could start
        self.players = Players()

    def cancel(self) -> None:
        """Drop the turn being thought about or played (call with the controller's lock held)."""
        self.generation += 1
        self._stop.set()

    def kick(self) -> None:
        """Start thinking if the computer is to move and is not already at it."""
        with self.lock:
            if self.busy():
                return
            if not self.seat.computer_should_move():
                self._rest()
                return
            self._stop = threading.Event()
            thread = threading.Thread(
                target=self._run,
                args=(self.generation, self._stop, self.thread),
                daemon=True,
                name="fanorona-computer",
            )
            self._running_generation = self.generation
            try:
                thread.start()
            except RuntimeError:  # no threads here (JupyterLite's kernel): play in this call
                here = (self.generation, self._stop)
            else:
                self.thread = thread
                return
        self._play_here(*here)

    def _play_here(self, generation: int, stop: threading.Event) -> None:
        """Think and play in the caller (the cell or the click's callback) where no thread can
        start: the same reports and steps as the thread's, the board busy until the turn is over."""
        self._here = True
        try:
            self._run(generation, stop, None)
        finally:
            self._here = False

    def busy(self) -> bool:
        """A thread (or the caller, where there are no threads) is thinking or playing for the
        current game."""
        alive = self._here or (self.thread is not None and self.thread.is_alive())
        return alive and self._running_generation == self.generation

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the computer has stopped moving (for tests and scripts; never in a
        callback)."""
        thread = self.thread
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                raise TimeoutError(f"the computer did not finish within {timeout} s")

    def _rest(self) -> None:
        """Once the game is over, the players forget what they kept for their next turn (called
        with the lock held, whenever the computer has no turn to play); a board the computer never
        played on asks its model nothing."""
        if len(self.players) and self.seat.board.game.outcome() is not None:
            self.players.forget()

    def player(self, level, board):
        return self.players.get(level, board, self.seat.settings.custom)

    # -- the thread ----------------------------------------------------------------------------

    def _run(
        self, generation: int, stop: threading.Event, previous: threading.Thread | None
    ) -> None:
        seat = self.seat
        if previous is not None and previous.is_alive():  # a cancelled search ends first: the two
            with self.lock:  # never share a player; meanwhile the board says the computer is at it
                if generation == self.generation and seat.computer_should_move():
                    seat.board.report("thinking", name=seat.player_words(seat.board.model.to_move))
            previous.join()
        try:
            while True:
                with self.lock:
                    if generation != self.generation or not seat.computer_should_move():
                        self._rest()
                        return
                    board, level = seat.board.model.copy(), seat.settings.level
                    name = seat.player_words(board.to_move)
                    seat.board.report("thinking", name=name)
                steps, notes, search = self._decide(board, level, name, stop, generation)
                if not self._animate(generation, stop, board, steps, name, notes, search):
                    return
        except Exception as e:  # the thread has nobody to raise to: the status line says it
            with self.lock:
                if generation == self.generation:  # a cancelled search's exception is dropped
                    seat.computer_failed(e)

    def _prepare(self, player, board, name, generation) -> None:
        """Load compiled code or an endgame table first, its progress shown as the board's own
        (while this turn is still wanted)."""
        seat = self.seat

        def report(progress):
            with self.lock:
                if generation == self.generation:
                    seat.show_progress(progress)

        with self.lock:
            if generation == self.generation:
                seat.board.report("preparing", name=name)
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
            with self.lock:
                if generation != self.generation:
                    return [], [], ()  # cancelled while preparing: _animate drops it
                self.seat.board.report("thinking", name=name)
        try:
            turn = ask(player, board, stop)
        except ValueError:
            if level != "perfect" or stop.is_set():
                raise
            notes.append(("perfect_fallback", {"level": FALLBACK_LEVEL}))
            player = self.player(FALLBACK_LEVEL, board)
            name = ("computer_level", {"level": FALLBACK_LEVEL})
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
        """Play the steps one at a time with the settings' pause between them; False if
        cancelled.  The last step and the turn's end are one change: no frame shows the finished
        turn as still being played, and no click comes between them (the other side is to move
        once the last step is on the board)."""
        seat = self.seat
        played = list(board.chain)
        for n, step in enumerate(steps, 1):
            delay = seat.settings.delay
            if delay and stop.wait(delay):
                return False
            played.append(step)
            with self.lock:
                if generation != self.generation:
                    return False
                if n == len(steps):
                    seat.computer_done(notes, search, last=step)
                    return True
                seat.computer_step(step, str(Turn(tuple(played))), name)
        with self.lock:  # no step to play: a chain someone else began, stopped where it stands
            if generation != self.generation:
                return False
            seat.computer_done(notes, search)
        return True


class ComputerSeat:
    """Who the computer plays and how (``settings``), its last search line (``searched``) and its
    thread (``runner``): what the board asks of the computer and what the runner may do to the
    board, always with the board's lock held.  A part of ``fanorona.ui.controller.Controller``."""

    def __init__(self, board: Controller):
        self.board = board
        self.settings = ComputerSettings()
        self.searched: tuple = ()  # the last search line, as (template key, values)
        #: The result a remote opponent said (``OpponentSays`` with ``over``), or None.
        self.ended: str | None = None
        self.runner = ComputerRunner(self)

    # -- what the board asks ---------------------------------------------------------------------

    def computer_to_move(self, live_only: bool = True) -> bool:
        """The side to move is the computer's (and, by default, the board is live and the game goes
        on)."""
        board, sides = self.board, self.settings.sides()
        if not sides or board.game.to_move not in sides or self.ended:
            return False
        return not live_only or (board.shown is None and board.game.outcome() is None)

    def computer_should_move(self) -> bool:
        return self.computer_to_move() and not self.settings.paused

    def player_name(self, side: str) -> str:
        """Who plays ``side``, in English (a game record's names)."""
        return self.settings.player_name(side, self.board.game.size)

    def player_words(self, side: str) -> str | tuple[str, dict]:
        """Who plays ``side``, as a sentence's ``name`` (said in the board's language)."""
        return self.settings.player_words(side, self.board.game.size)

    def levels(self) -> list:
        """The levels offered for this board: 1-5, 'perfect' where the solver answers, 'custom' if
        given."""
        return self.settings.levels(perfect_offered(self.board.game))

    # -- the settings, each through a method that checks it ----------------------------------------

    def set_computer(self, side: str) -> Reply:
        """Who the computer plays: 'nobody', 'white', 'black' or 'both'."""
        if side != "nobody" and side in COMPUTER_SIDES:
            self.board.setup.needs_board("the computer")
        return self.board.act(lambda: self._changed(self.settings.with_side(side)))

    def set_level(self, level) -> Reply:
        """The computer's level: 1 to 5, 'perfect' (small boards, standard rules) or 'custom'."""
        perfect = perfect_offered(self.board.game)
        return self.board.act(lambda: self._changed(self.settings.with_level(level, perfect)))

    def set_delay(self, seconds: float) -> None:
        """Seconds between the computer's animated steps (0 for tests)."""
        with self.board.lock:
            self.settings = self.settings.with_delay(seconds)
            self.board.changed()

    def _changed(self, settings: ComputerSettings) -> Reply:
        self.runner.cancel()
        self.settings, self.searched, self.board.progress = settings, (), None
        self.board.clicks.settle()
        return Reply(Action.SETTINGS, "")

    def computer_move(self) -> Reply:
        """Let a paused computer move now (after a position was loaded)."""
        board = self.board

        def move():
            self.unpause()
            if self.computer_to_move():
                return Reply(Action.RESUMED, "")
            if board.shown is not None:
                return answer(
                    board.language,
                    Action.REFUSED,
                    "replaying",
                    n=board.shown,
                    total=len(board.game.turns),
                )
            why = "game_over" if board.game.outcome() else "computer_nothing"
            return answer(board.language, Action.REFUSED, why)

        return board.act(move)

    def unpause(self) -> None:
        self.settings = self.settings.with_paused(False)

    def tidy(self) -> None:
        """After an undo: no pause for a side a person plays."""
        if self.settings.paused and not self.computer_to_move(live_only=False):
            self.unpause()

    def new_game(self, pause: bool) -> list[tuple[str, dict]]:
        """A new game or position: no old search line, a level this board offers, and a pause
        (if ``pause``) when the computer is to move; the notes to say about it."""
        self.searched, self.ended = (), None
        notes: list[tuple[str, dict]] = []
        if self.settings.level == "perfect" and not perfect_offered(self.board.game):
            self.settings = self.settings.with_level(STRONGEST, False)
            notes.append(("level_changed", {"level": STRONGEST}))
        self.settings = self.settings.with_paused(pause and self.computer_to_move(live_only=False))
        if self.settings.paused:
            notes.append(("computer_paused", {"side": self.board.game.to_move}))
        return notes

    # -- what the runner does, with the lock held ------------------------------------------------

    def computer_step(self, step, turn: str, name: str | tuple[str, dict]) -> None:
        """The runner plays a step of the computer's turn that is not its last."""
        self.board.game.push(step)
        self.board.history.forget()
        self._tell((("playing", {"name": name, "move": turn}),))

    def computer_done(self, said: tuple, searched: tuple = (), last=None) -> None:
        """The runner plays the last step of the computer's turn (``last``, if any) and ends the
        turn, in one change: what is said then is what the turn did, never that it is playing."""
        if last is not None:
            self.board.game.push(last)
            self.board.history.forget()
        if self.board.game.chain:
            self.board.game.end_turn()
        self.searched = searched
        self._tell(tuple(said))

    def computer_failed(self, error: Exception) -> None:
        """What went wrong, on the status line; a player in a program of its own that broke the
        protocol (``PlayerFault``) has its sentence, which names it and its line, as it is."""
        from ..engine.protocol import PlayerFault

        if isinstance(error, OpponentSays):
            self.opponent_says(str(error), error.over)
            return
        self.board.error = error
        said = str(error) if isinstance(error, PlayerFault) else f"{type(error).__name__}: {error}"
        self._tell((("computer_error", {"reason": said}),))

    def opponent_says(self, sentence: str, over: bool = False) -> None:
        """Show a remote opponent's ``sentence``: with ``over``, as the game's result (the
        headline), and the board takes no more turns."""
        with self.board.lock:
            if over and self.ended == sentence:
                return
            self.board.error = None
            if over:
                self.ended = sentence
            self._tell(() if over else (("opponent_says", {"text": sentence}),))

    def show_progress(self, progress) -> None:
        """A long wait's progress (``fanorona.ui.progress.Progress``), or None when it is over."""
        with self.board.lock:
            self.board.progress = progress
            self.board.changed()

    def _tell(self, said: tuple) -> None:
        """A change from the computer's side: the game moved on, so no choice waits."""
        board = self.board
        with board.lock:
            board.clicks.settle()
            board.said = said
            board.changed()


__all__ = ["ComputerRunner", "ComputerSeat", "OpponentSays", "Players"]
