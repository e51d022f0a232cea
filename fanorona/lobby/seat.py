"""A lobby game on the kit's own board: a remote seat is the board's opponent.

The board already plays an opponent that has ``choose_turn(board, stop)``, step by step, in its
own thread.  ``RemoteSeat`` is such an opponent: each turn the student finishes goes to the lobby
at once (a listener on the board's controller), and asked for a turn, the seat waits for the
classmate's, which the board then draws like the computer's.  A lost connection is retried; a
turn is sent, or refused with the lobby's sentence, never dropped.  The board's controller and its
model protocol stay as they are: ``remote_board`` only hides the controls a lobby game does not
allow and adds the lobby's own line (the result, the rating, the seat taken back).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time

from ..board import Board, Outcome, Termination, Turn
from ..rules import Rules
from ..ui.computer import OpponentSays
from ..ui.labels import ending
from . import words
from .client import CLOSED_HERE, LobbyClient, LobbyError

#: The board's controls a lobby game does not offer: a turn sent is played, the game is the
#: lobby's, and the opponent is the classmate.
NOT_IN_A_LOBBY_GAME = (
    "undo", "undo_step", "redo", "new_game", "computer", "level", "computer_move", "size",
    "rules", "load", "load_diagram", "import", "position", "typed",
)  # fmt: skip
#: Seconds between attempts to connect again, and how many.
RETRY_EVERY, RETRIES = (0.5, 1, 2, 4, 8, 15), 6
ELSEWHERE = "somewhere else"  # in the lobby's sentence when the same player signs in again

#: The lobby's own sentences on the kit's board, in the board's languages.
SAID = {
    "en": {
        "take_back": "Take the seat back",
        "elsewhere": "You signed in somewhere else, so this board left the game. "
        "Press “Take the seat back” to play here again.",
        "lost": "The connection to the lobby was lost. Trying again…",
        "back": "Connected again.",
        "gone": "The lobby cannot be reached. Press “Take the seat back” to try again.",
        "won": "You won. {why}",
        "lost_game": "You lost. {why}",
        "draw": "Draw. {why}",
        "rating": "Your rating: {rating} ± {deviation} ({change}).",
        "unrated": "Not rated: {why}.",
        "left": "This board left the lobby's game (a turn was taken back here): a lobby game "
        "cannot be taken back.",
        "refused": "The lobby refused the turn: {why}",
    },
    "da": {
        "take_back": "Tag pladsen igen",
        "elsewhere": "Du loggede ind et andet sted, så dette bræt forlod partiet. "
        "Tryk på “Tag pladsen igen” for at spille her igen.",
        "lost": "Forbindelsen til lobbyen blev afbrudt. Prøver igen…",
        "back": "Forbundet igen.",
        "gone": "Lobbyen kan ikke nås. Tryk på “Tag pladsen igen” for at prøve igen.",
        "won": "Du vandt. {why}",
        "lost_game": "Du tabte. {why}",
        "draw": "Remis. {why}",
        "rating": "Din rating: {rating} ± {deviation} ({change}).",
        "unrated": "Ikke ratet: {why}.",
        "left": "Dette bræt forlod lobbyens parti (et træk blev taget tilbage her): et lobbyparti "
        "kan ikke tages tilbage.",
        "refused": "Lobbyen afviste trækket: {why}",
    },
    "de": {
        "take_back": "Platz zurücknehmen",
        "elsewhere": "Du hast dich woanders angemeldet, deshalb hat dieses Brett die Partie "
        "verlassen. Drücke „Platz zurücknehmen“, um hier weiterzuspielen.",
        "lost": "Die Verbindung zur Lobby ist abgebrochen. Neuer Versuch …",
        "back": "Wieder verbunden.",
        "gone": "Die Lobby ist nicht erreichbar. Drücke „Platz zurücknehmen“ für einen neuen "
        "Versuch.",
        "won": "Du hast gewonnen. {why}",
        "lost_game": "Du hast verloren. {why}",
        "draw": "Remis. {why}",
        "rating": "Deine Wertung: {rating} ± {deviation} ({change}).",
        "unrated": "Nicht gewertet: {why}.",
        "left": "Dieses Brett hat die Partie der Lobby verlassen (hier wurde ein Zug "
        "zurückgenommen): eine Lobbypartie kann nicht zurückgenommen werden.",
        "refused": "Die Lobby hat den Zug abgelehnt: {why}",
    },
    "cs": {
        "take_back": "Vzít místo zpět",
        "elsewhere": "Přihlásili jste se jinde, proto tato deska opustila partii. "
        "Stiskněte „Vzít místo zpět“ a hrajte zde dál.",
        "lost": "Spojení s lobby se přerušilo. Zkouším znovu…",
        "back": "Znovu připojeno.",
        "gone": "Lobby není dostupná. Stiskněte „Vzít místo zpět“ a zkuste to znovu.",
        "won": "Vyhráli jste. {why}",
        "lost_game": "Prohráli jste. {why}",
        "draw": "Remíza. {why}",
        "rating": "Vaše hodnocení: {rating} ± {deviation} ({change}).",
        "unrated": "Bez hodnocení: {why}.",
        "left": "Tato deska opustila partii lobby (tah zde byl vzat zpět): partii v lobby nelze "
        "vzít zpět.",
        "refused": "Lobby tah odmítla: {why}",
    },
}


class SeatLost(ValueError):
    """The seat cannot go on without the student: signed in elsewhere, or the lobby unreachable."""


class RemoteSeat:
    """The classmate's side of game ``state["game"]``, played through ``client``."""

    def __init__(self, client: LobbyClient, state: dict):
        self.client, self.id = client, state["game"]
        self.turns: list[str] = list(state["turns"])
        self.you = state["you"]
        self.name = state["black" if self.you == "white" else "white"]
        self._sending = threading.Lock()  # the board's thread and the seat's send the same turn
        self._sent: int | None = None  # the number of the last turn message sent
        #: What the seat last had to say (a key of ``SAID``), for the board's lobby line.
        self.news: str | None = None
        self.language = "en"  # the board's, for the sentences the seat says there
        self.on_news = lambda: None  # called when ``news`` changes
        self._healing = threading.Lock()  # one attempt at a time to connect again
        client.listeners.append(self._heard)

    def _heard(self, message: dict) -> None:
        """A message from the lobby (on the client's reading thread): the game's end is shown at
        once, a lost connection is tried again at once, on a thread of its own."""
        if message["type"] == "over" and message["game"] == self.id:
            self.on_news()
        elif message["type"] == "closed":
            if message["message"] == CLOSED_HERE:  # closed on purpose: the program is done
                return
            if ELSEWHERE in (message["message"] or ""):
                self._say("elsewhere")
            else:
                threading.Thread(target=self._heal, daemon=True, name="lobby-seat").start()

    def _heal(self) -> None:
        with contextlib.suppress(SeatLost):
            self.connected(wait=False)

    def board(self) -> Board:
        """The game so far, replayed on a board of its size and rules."""
        state = self._state()
        board = Board.from_fen(state["start"], Rules.named(state["rules"]))
        for text in self.turns:
            board.push(text)
        return board

    def _state(self) -> dict:
        return next(
            m
            for m in reversed(self.client.messages)
            if m["type"] == "game" and m["game"] == self.id
        )

    def _say(self, news: str | None) -> None:
        self.news = news
        self.on_news()

    # -- the connection ------------------------------------------------------------------------

    def connected(self, stop=None, wait: bool = True) -> None:
        """Make sure the client is signed in: a lost connection is tried again a few times; a
        sign-in elsewhere is not (that would take the seat from the other place).  Then, with
        ``wait``, the seat waits for the student's "Take the seat back" (``take_seat``), or for
        ``stop``: ``SeatLost``."""
        try:
            with self._healing:
                self._connect(stop)
        except SeatLost:
            if not wait or stop is None:
                raise
            while self.client.closed:  # until the seat is taken back
                if stop.wait(0.2):
                    raise SeatLost("stopped") from None

    def _connect(self, stop) -> None:
        if not self.client.closed:
            return
        if ELSEWHERE in self.client.closed:
            self._say("elsewhere")
            raise SeatLost(SAID["en"]["elsewhere"])
        self._say("lost")
        for wait in RETRY_EVERY[:RETRIES]:
            try:
                self._again()
            except (OSError, LobbyError, TimeoutError):
                if stop is not None and stop.wait(wait):
                    raise SeatLost("stopped") from None
                time.sleep(0 if stop is not None else wait)
                continue
            self._say("back")
            return
        self._say("gone")
        raise SeatLost(SAID["en"]["gone"])

    def take_seat(self) -> None:
        """Sign in again here (the other place is let go) and play on where the game is."""
        try:
            with self._healing:
                self._again()
        except (LobbyError, OSError, TimeoutError):
            self._say("gone")
            return
        self._say("back")

    def _again(self) -> None:
        """Sign in again; then a turn of ours the lobby never got is sent again, and a game that
        ended meanwhile is known by its record (its end was said while we were away)."""
        mark = len(self.client.messages)
        self.client.reconnect()
        record = self.client.ask("record", "record", game=self.id)  # after the game's state
        states = [
            m for m in self.client.messages[mark:] if m["type"] == "game" and m["game"] == self.id
        ]
        if not states:
            ended = any(m["type"] == "over" and m["game"] == self.id for m in self.client.messages)
            outcome = json.loads(record["record"])["outcome"]
            if not ended and outcome is not None:
                with self.client._seen:
                    self.client.messages.append(
                        {"type": "over", "game": self.id, "outcome": outcome}
                    )
            return
        with self._sending:
            known = states[-1]["turns"]
            if known == self.turns[:-1] and len(self.turns) > len(known):
                self._sent = self.client.send(
                    "turn", game=self.id, ply=len(known), turn=self.turns[-1]
                )

    # -- the turns -----------------------------------------------------------------------------

    def send_new_turn(self, board) -> None:
        """Send the student's turn just finished on ``board`` (if there is one) to the lobby;
        the board asks its opponent nothing once a game is over, so its last turn goes from here.
        A lost connection keeps the turn: it goes when the seat is connected again."""
        with self._sending:
            played = [str(t) for t in board.turns]
            if played == self.turns[: len(played)]:
                return  # nothing new, or the classmate's turn still being drawn
            if played[:-1] != self.turns:
                raise OpponentSays(self._said("left"))
            self.turns.append(played[-1])
            with contextlib.suppress(LobbyError):
                self._sent = self.client.send(
                    "turn", game=self.id, ply=len(self.turns) - 1, turn=played[-1]
                )

    def choose_turn(self, board: Board, stop=None) -> Turn:
        """Send the student's new turn on ``board`` (if not sent yet), then wait for the
        classmate's and return it."""
        self.send_new_turn(board)
        if [str(t) for t in board.turns] != self.turns:
            raise OpponentSays(self._said("left"))
        while True:
            self.connected(stop)
            ply, sent = len(self.turns), self._sent

            def answer(m, ply=ply, sent=sent):
                return (
                    (m["type"] == "turn" and m["game"] == self.id and m["ply"] == ply)
                    or (m["type"] == "game" and m["game"] == self.id and len(m["turns"]) > ply)
                    or (m["type"] == "over" and m["game"] == self.id)
                    or (m["type"] == "refused" and m["seq"] == sent)
                )

            try:
                message = self.client.wait_for(answer, timeout=24 * 3600, stop=stop)
                break
            except LobbyError:
                if stop is not None and stop.is_set():
                    raise ValueError("stopped") from None
                continue  # the connection went: connect again, then wait again
        if message["type"] in ("over", "refused"):
            ended = self.result(self.language)
            if ended is not None:  # over, or refused because it is over (a flag fell first)
                raise OpponentSays(ended, over=True)
            why = words.render(self.language, message.get("code"), message.get("params", {}))
            raise OpponentSays(self._said("refused").format(why=(why or message["message"]) + "."))
        text = message["turn"] if message["type"] == "turn" else message["turns"][ply]
        with self._sending:
            self.turns.append(text)
        return board.parse_turn(text)

    def drawn(self, board) -> bool:
        """Whether ``board`` shows every turn the lobby said of this game (the classmate's last
        one may still be on its way to the picture)."""
        known = 0
        for m in list(self.client.messages):
            if m.get("game") != self.id:
                continue
            if m["type"] == "turn":
                known = max(known, m["ply"] + 1)
            elif m["type"] == "game":
                known = max(known, len(m["turns"]))
        return len(board.turns) >= known and not board.chain

    def _said(self, key: str) -> str:
        return SAID.get(self.language, SAID["en"])[key]

    def result(self, language: str = "en") -> str | None:
        """The game's end as the student reads it ("You won. …", the rating change), or None
        while it goes on."""
        over = next(
            (m for m in self.client.messages if m["type"] == "over" and m["game"] == self.id),
            None,
        )
        if over is None:
            return None
        said = SAID.get(language, SAID["en"])
        winner, why = over["outcome"]["winner"], over["outcome"]["reason"]
        key = "draw" if winner is None else "won" if winner == self.you else "lost_game"
        lines = [said[key].format(why=_reason(language, winner, why))]
        mine = over.get("ratings", {}).get(self.client.name)
        if mine:
            lines.append(said["rating"].format(**{**mine, "change": f"{mine['change']:+.2f}"}))
        elif over.get("unrated"):
            code, params = over.get("unrated_code"), over.get("unrated_params", {})
            unrated = words.render(language, code, params) if code else None
            if unrated is None and language == "en":
                unrated = over["unrated"]
            text = said["unrated"].format(why=unrated or "")
            lines.append(text if unrated else text.replace(": .", "."))
        return " ".join(line.strip() for line in lines)


def _reason(language: str, winner: str | None, reason: str) -> str:
    """Why a lobby game ended, as a sentence in ``language``: an ending the lobby declared from
    its code, a rule's ending in the board's own words; an unknown one only on an English
    board."""
    found = words.declared(reason)
    text = words.render(language, *found) if found else None
    if text is None:
        try:
            outcome = Outcome.from_words(winner, reason)
        except ValueError:
            outcome = None
        if outcome is not None and outcome.termination is not Termination.DECLARED:
            text = ending(language, outcome)
        elif language == "en":
            text = reason
    return text[:1].upper() + text[1:] + "." if text else ""


def remote_board(client: LobbyClient, state: dict, delay: float = 0.0, **options):
    """``fa.BoardWidget`` on the lobby game ``state`` (from ``client.accept`` or
    ``client.game``): the student's clicks go to the lobby as each turn ends, the classmate's
    turns come from it, drawn at once (``delay``: seconds between their steps, to follow them)."""
    import ipywidgets as widgets

    from ..ui.widget import BoardWidget

    seat = RemoteSeat(client, state)
    widget = BoardWidget(seat.board(), opponent=seat, **options)
    widget.delay = delay
    seat.language = widget.controller.language
    for name in NOT_IN_A_LOBBY_GAME:
        if name in widget.controls:
            widget.controls[name].layout.display = "none"
    language = widget.controller.language
    said = SAID.get(language, SAID["en"])
    line = widgets.HTML(layout=widgets.Layout(min_height="1.4em"))
    button = widgets.Button(description=said["take_back"], layout=widgets.Layout(display="none"))

    def show() -> None:
        result = seat.result(language)
        with widget.controller.lock:  # the status line says it too, and the board takes no more
            # turns; the classmate's last turn, if any, is drawn first (the seat then says it)
            if result is not None and seat.drawn(widget.controller.game):
                widget.controller.seat.opponent_says(result, over=True)
        text = result or (said[seat.news] if seat.news else "")
        line.value = f'<span class="fanorona-text">{text}</span>' if text else ""
        wanted = seat.news in ("elsewhere", "gone") and seat.result() is None
        button.layout.display = None if wanted else "none"

    def take(_button) -> None:
        seat.take_seat()
        widget.controller.runner.kick()

    seat.on_news = show
    button.on_click(take)
    widget.ui.children = (*widget.ui.children, widgets.HBox([line, button]))
    if seat.you == "black":
        widget.controller.set_computer("white")
    widget.controller.observe(lambda: _send_quietly(seat, widget.controller.game, show))
    widget.controller.runner.kick()
    #: The lobby's seat of this board (``RemoteSeat``), and its line's pieces, for a program.
    widget.seat, widget.lobby_line, widget.take_seat_button = seat, line, button  # type: ignore[attr-defined]
    return widget


def _send_quietly(seat: RemoteSeat, game, show) -> None:
    """A change on the board: send a turn just finished, and show the lobby's line again."""
    with contextlib.suppress(LobbyError, OpponentSays):  # the seat's runner says it
        seat.send_new_turn(game)
    show()
