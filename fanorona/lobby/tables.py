"""The live games of a lobby and their ends: starting them, storing every turn with its clocks,
the timers that end them (a flag, the first turns' wait, a restart's wait), bringing them back
after a restart, and rating them.

The rules, stated once (docs/how-to/class-lobby.md says them to the instructor):

- The clocks run from the moment each side has played its first turn; the side to move has
  ``FIRST_TURN_WAIT`` seconds for its first turn, or the game is aborted, unrated.
- After a restart the live games come back with their clocks as they were when the lobby stopped
  (the downtime is not charged), and no clock runs until both players are back (a player who is
  back may play meanwhile).  A player not back within
  ``RETURN_WAIT`` seconds loses the game (rated, if it counts); if neither is back, or the game
  had not started, it is aborted, unrated.
- A ranked game is rated only once each side has played ``MIN_TURNS_EACH`` turns, and at most
  ``PAIR_RATED`` games between the same two players within ``PAIR_WINDOW`` seconds are rated.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from ..board import Color, Outcome
from . import ratings
from .room import LiveGame, outcome_data
from .store import Store
from .words import Said

if TYPE_CHECKING:
    from .lobby import Invitation

FIRST_TURN_WAIT = 120.0
RETURN_WAIT = 300.0
MIN_TURNS_EACH = 2
PAIR_RATED, PAIR_WINDOW = 3, 12 * 3600.0
#: Seconds between the beats that tell a restarted lobby when it stopped.
BEAT_EVERY = 2.0


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:g} minutes"


class Tables:
    """The live games, told to the players in ``online`` and the class view's ``viewers``."""

    def __init__(self, store: Store, online: dict, viewers, clock, wall=time.time):
        self.store, self.online, self.viewers = store, online, viewers
        self.now, self.wall = clock, wall
        self.games: dict[str, LiveGame] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}

    # -- starting, storing, coming back -------------------------------------------------------

    def start(self, white: str, black: str, invitation: Invitation) -> LiveGame:
        game = LiveGame(
            0, white, black, invitation.size, invitation.rules, invitation.clock,
            invitation.ranked, self.now(),
        )  # fmt: skip
        game.number = self.store.new_game(
            game.record(), invitation.size, invitation.rules, game.clock.text, invitation.ranked
        )
        game.deadline = self.now() + FIRST_TURN_WAIT
        self.games[game.id] = game
        self.save(game)
        for name in (white, black):
            if name in self.online:
                self.online[name].send(game.state(self.now(), name))
        self.viewers.show(game)
        self.arm(game)
        return game

    def save(self, game: LiveGame, rated: bool = False) -> None:
        """Store the game as it is now, with its clocks: every turn is kept as it is played."""
        now, wall = self.now(), self.wall()
        clocks = {s: game.time_left(s, now) for s in ("white", "black")}
        running = game.running is not None
        self.store.save_game(game.number, game.record(), clocks, wall if running else None, rated)

    def restore(self) -> int:
        """Bring back the games a stopped lobby left unfinished, held until their players
        return; how many."""
        stopped = self.store.last_beat()
        now = self.now()
        for row in self.store.live_games():
            number, size, rules, clock, ranked, record, clocks, pressed_at = row
            minutes, increment = (int(x) for x in clock.split("+"))
            game = LiveGame(
                number, record.white, record.black, size, rules, (minutes, increment), ranked, now
            )
            game.board = record.board()
            if clocks:
                game.clock.left = {s: float(clocks[s]) for s in ("white", "black")}
            side = game.running
            if side is not None and pressed_at is not None and stopped is not None:
                spent = max(0.0, stopped - pressed_at)
                game.clock.left[side] = max(0.0, game.clock.left[side] - spent)
            game.hold(
                f"the lobby restarted: the clocks wait until both players are back "
                f"({_minutes(RETURN_WAIT)} at most)",
                now,
            )
            game.deadline = now + RETURN_WAIT
            self.games[game.id] = game
            self.save(game)
            self.arm(game)
        return len(self.games)

    def returned(self, name: str) -> None:
        """``name`` is online: a held game of theirs goes on once both its players are."""
        for game in list(self.games.values()):
            if game.held and game.side_of(name) and {game.white, game.black} <= set(self.online):
                now = self.now()
                game.release(now)
                game.deadline = None if game.started else now + FIRST_TURN_WAIT
                self.save(game)
                self.arm(game)
                self.tell_state(game)

    def tell_state(self, game: LiveGame) -> None:
        now = self.now()
        for name in (game.white, game.black):
            if name in self.online:
                self.online[name].send(game.state(now, name))
        for client in game.watchers:
            client.send(game.state(now, client.name))
        self.viewers.update(game)

    def beat(self) -> None:
        self.store.beat(self.wall())

    async def beating(self) -> None:
        """Beat every ``BEAT_EVERY`` seconds until cancelled."""
        while True:
            self.beat()
            await asyncio.sleep(BEAT_EVERY)

    def of(self, name: str) -> list[LiveGame]:
        return [g for g in self.games.values() if g.side_of(name)]

    # -- timers ---------------------------------------------------------------------------------

    def arm(self, game: LiveGame) -> None:
        """Wake up when the side to move's time runs out, or at the game's deadline."""
        old = self._timers.pop(game.id, None)
        if old is not None:
            old.cancel()
        now = self.now()
        wakes = [] if game.deadline is None else [game.deadline - now]
        side = game.running
        if side is not None:
            wakes.append(game.time_left(side, now))
        if wakes and game.outcome is None:
            loop = asyncio.get_running_loop()
            self._timers[game.id] = loop.call_later(min(wakes) + 0.01, self.wake, game)

    def wake(self, game: LiveGame) -> None:
        if game.outcome is not None or self.games.get(game.id) is not game:
            return
        now = self.now()
        if game.flag(now):
            self.finish(game)
        elif game.deadline is not None and now >= game.deadline:
            self._deadline(game)
            self.finish(game)
        else:
            self.arm(game)

    def _deadline(self, game: LiveGame) -> None:
        """The rule for a game whose deadline passed (see the module's docstring)."""
        if not game.held:
            side = game.board.to_move.value
            game.abort(f"{side} did not play a first turn within {_minutes(FIRST_TURN_WAIT)}")
            return
        back = [s for s, n in (("white", game.white), ("black", game.black)) if n in self.online]
        if len(back) == 1 and game.started:
            absent = Color(back[0]).other.value
            game.outcome = Outcome.from_words(
                back[0],
                f"{absent} did not come back within {_minutes(RETURN_WAIT)} of the lobby's restart",
            )
        else:
            game.abort(f"the players did not come back within {_minutes(RETURN_WAIT)} of a restart")

    def played(self, game: LiveGame) -> None:
        """A turn was played: the first turns' wait moves on, the clocks are stored."""
        if game.outcome is None:
            game.deadline = None if game.started else self.now() + FIRST_TURN_WAIT
        self.save(game)

    # -- the games' ends -----------------------------------------------------------------------

    def tell(self, game: LiveGame, message: dict) -> None:
        """Send ``message`` to the game's players, its watchers and the class view."""
        for name in (game.white, game.black):
            if name in self.online:
                self.online[name].send(message)
        for client in game.watchers:
            if client.name not in (game.white, game.black):
                client.send(message)
        self.viewers.relay(game, message)

    def finish(self, game: LiveGame) -> None:
        """Record the result, rate a ranked game that counts, tell everyone, let the game go."""
        timer = self._timers.pop(game.id, None)
        if timer is not None:
            timer.cancel()
        assert game.outcome is not None
        message: dict = {"type": "over", "game": game.id, "outcome": outcome_data(game.outcome)}
        why_not = self.unrated(game) if game.ranked else Said("unrated_unranked")
        if why_not is None:
            message["ratings"] = self._rate(game)
        else:
            message.update(
                unrated=str(why_not), unrated_code=why_not.code, unrated_params=why_not.params
            )
        self.save(game, rated=why_not is None)
        self.tell(game, message)
        self.viewers.over(game)
        del self.games[game.id]

    def unrated(self, game: LiveGame) -> Said | None:
        """Why a ranked game is not rated, or None when it is."""
        if game.outcome is not None and game.outcome.reason.startswith("aborted"):
            return Said("unrated_aborted")
        if len(game.board.turns) < 2 * MIN_TURNS_EACH:
            return Said("unrated_turns", n=MIN_TURNS_EACH)
        pair = self.store.rated_between(game.white, game.black, self.wall() - PAIR_WINDOW)
        if pair >= PAIR_RATED:
            hours = f"{PAIR_WINDOW / 3600:g}"
            return Said("unrated_pair", white=game.white, black=game.black, n=pair, hours=hours)
        return None

    def _rate(self, game: LiveGame) -> dict:
        winner = game.outcome.winner if game.outcome else None
        before = {n: self.store.rating(n) for n in (game.white, game.black)}
        new = ratings.rate(before[game.white], before[game.black], winner)
        result = {}
        for side, (mu, sigma) in zip(Color, new):
            name = game.white if side is Color.WHITE else game.black
            self.store.set_rating(name, mu, sigma)
            was = before[name]
            old = was[0] if was else ratings.MODEL.rating().mu
            result[name] = {
                "rating": round(mu, 2),
                "deviation": round(sigma, 2),
                "change": round(mu - old, 2),
            }
        return result
