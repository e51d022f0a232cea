"""The computer's turns on the interactive board, played in a background thread.

``ComputerRunner`` thinks on a copy of the game, so the board stays responsive, then plays the
chosen turn through its controller one step at a time, so a chain can be followed.  Anything
that changes the game (undo, a new game, a new setting) cancels it: a late answer is dropped.
Whatever goes wrong in the thread reaches the status line as a sentence.
"""
from __future__ import annotations

import threading

from .board import Turn

#: The level that stands in when the perfect player's table lacks a position.
FALLBACK_LEVEL = 5


class ComputerRunner:
    """Plays the computer's side for a controller (see ``fanorona.controller.Controller``)."""

    def __init__(self, controller):
        self.controller = controller
        self.generation = 0                     # bumped to cancel the turn in progress
        self.thread: threading.Thread | None = None
        self._stop = threading.Event()          # set on cancel: wakes the pause between animated steps
        self.players: dict = {}

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
            self.thread = threading.Thread(target=self._run, args=(self.generation, self._stop), daemon=True,
                                           name="fanorona-computer")
            self._running_generation = self.generation
            self.thread.start()

    def busy(self) -> bool:
        """A thread is thinking or playing for the current game."""
        return (self.thread is not None and self.thread.is_alive()
                and getattr(self, "_running_generation", None) == self.generation)

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the computer has stopped moving (for tests and scripts; never in a callback)."""
        thread = self.thread
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                raise TimeoutError(f"the computer did not finish within {timeout} s")

    def player(self, level, board):
        """The player for a level, made once per level, board size and rules (the perfect one solves the board)."""
        key = (level, board.size, board.rules)
        if key not in self.players:
            if level == "custom":
                self.players[key] = self.controller.custom_player
            elif level == "perfect":
                from .solve import PerfectPlayer
                self.players[key] = PerfectPlayer(board.size, rules=board.rules.with_(quiet_draw=None))
            else:
                from .ai import level as level_player
                self.players[key] = level_player(level)
        return self.players[key]

    # -- the thread ----------------------------------------------------------------------------

    def _run(self, generation: int, stop: threading.Event) -> None:
        c = self.controller
        try:
            while True:
                with c.lock:
                    if generation != self.generation or not c.computer_should_move():
                        return
                    board, level = c.model.copy(), c.level
                    name = c.player_name(board.to_move)
                    c.report("thinking", name=name)
                steps, sentence, search = self._decide(board, level, name)
                if not self._animate(generation, stop, board, steps, name, sentence, search):
                    return
        except Exception as e:   # the thread has nobody to raise to: the status line says it
            with c.lock:
                if generation == self.generation:
                    c.error = e
                    c.report("computer_error", reason=f"{type(e).__name__}: {e}")

    def _decide(self, board, level, name) -> tuple[list, str, str]:
        """The steps to play, the sentence to show after them, and the search details."""
        c = self.controller
        if board.chain:
            return self._finish_chain(board, name)
        notes = []
        player = self.player(level, board)
        if hasattr(player, "ready") and not player.ready(board):   # compiled code or an endgame table to load
            with c.lock:
                c.report("preparing", name=name)
            player.prepare(board, progress=False)     # the status line says it instead of a bar
            with c.lock:
                c.report("thinking", name=name)
        try:
            turn = player.choose_turn(board)
        except ValueError:
            if level != "perfect":
                raise
            notes.append(c.sentence("perfect_fallback", level=FALLBACK_LEVEL))
            player = self.player(FALLBACK_LEVEL, board)
            name = f"level {FALLBACK_LEVEL}"
            turn = player.choose_turn(board)
        notes.append(c.sentence("computer_played", name=name, move=str(turn)))
        info = getattr(player, "last_search", None)
        return list(turn.steps), ". ".join(notes), str(info) if info else ""

    def _finish_chain(self, board, name) -> tuple[list, str, str]:
        """A chain someone else began: capture as much as it can, or stop where it stands."""
        c = self.controller
        done = Turn(tuple(board.chain))
        endings = board.legal_turns()
        if not endings:
            return [], c.sentence("computer_stopped", name=name, move=str(done)), ""
        mover = board.to_move

        def left(turn) -> int:
            return board.after(turn).count(mover.other)
        best = min(endings, key=left)
        whole = Turn(done.steps + best.steps)
        return list(best.steps), c.sentence("computer_finished", name=name, move=str(whole)), ""

    def _animate(self, generation, stop, board, steps, name, sentence, search) -> bool:
        """Play the steps one at a time with the controller's pause between them; False if cancelled."""
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
            c.computer_done(sentence, search)
        return True


__all__ = ["ComputerRunner"]
