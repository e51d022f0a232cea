"""The interactive board: a game of Fanorona played by clicking, in JupyterLab or Voilà.

Model, view, control.  The model is a ``fanorona.Board``.  The view is ``draw.draw_board`` on
an ipympl canvas beside ipywidgets controls.  The control is a set of plain methods
(``click``, ``choose``, ``end_turn``, ``undo`` ...): the canvas callback only turns a pixel
into the nearest point and calls ``click``, the buttons only call methods, so tests and
notebooks drive the board exactly as a mouse does.

The computer thinks in a background thread, so the controls stay responsive.  Every change of
the board, and every redraw, happens under one lock; the figure also takes that lock while it
renders, so a frame never shows half a redraw.

Labels and status sentences exist in English, Danish, German and Czech (``LABELS``); the reasons
the rules package gives for an illegal step, and the search details of the computer players,
stay in English.
"""
from __future__ import annotations

import html
from contextlib import contextmanager
import json
import threading
import time

import ipywidgets as widgets
from ipympl.backend_nbagg import Canvas, FigureManager
from matplotlib.figure import Figure

from .board import Board, IllegalMoveError, Outcome, Step, Turn
from .draw import draw_board
from .game import Game
from .notation import NotationError
from .rules import PRESETS, Rules

#: Board sizes offered by the size chooser, (width, height).
SIZES = ((9, 5), (5, 5), (3, 3), (5, 3), (3, 5), (7, 3), (3, 7))
#: Who the computer plays.
COMPUTER_SIDES = ("nobody", "white", "black", "both")
#: The largest board (in points) on which the solver's perfect player is offered.
PERFECT_MAX_POINTS = 15
#: How near a point (in point spacings) a click must land to count.
CLICK_RADIUS = 0.45

LABELS = {
    "en": {
        "undo": "Undo turn", "undo_step": "Undo step", "redo": "Redo", "new_game": "New game",
        "end_turn": "End turn", "approach": "Approach", "withdrawal": "Withdrawal", "size": "Size",
        "rules": "Rules", "position": "Position", "load": "Load", "load_diagram": "Load diagram",
        "computer": "Computer", "nobody": "nobody", "both": "both", "level": "Level", "perfect": "perfect",
        "delay": "Step delay", "replay": "Turn", "export": "Export", "import": "Import",
        "strings": "Strings", "legal": "Legal moves", "names": "Point names", "strong": "Strong points",
        "large": "Large", "moves": "Moves", "more": "Positions and game record",
        "white": "white", "black": "black",
        "turn": "{side} to move", "stones": "stones: white {white}, black {black}",
        "quiet": "turns without capture: {quiet} of {limit}", "quiet_nolimit": "turns without capture: {quiet}",
        "win": "{side} wins: {reason}", "draw": "draw: {reason}",
        "select": "the stone on {point} is selected: click a ringed point to move there",
        "must_capture": "capture is compulsory: move one of the marked stones ({points})",
        "no_stone": "there is no stone on {point}", "not_yours": "the stone on {point} belongs to the opponent",
        "stuck": "the stone on {point} has no legal step", "illegal": "not allowed: {reason}",
        "choose": "the step {step} captures two ways: click a stone marked A (approach) or W (withdrawal), "
                  "or use the buttons",
        "chain": "the stone on {point} may capture again: click a ringed point, or End turn",
        "played": "played {move}", "thinking": "{name} is thinking",
        "computer_played": "{name} played {move}", "search": "search: {info}",
        "busy": "wait: the computer is moving",
        "replaying": "showing the position after {n} of {total} turns: move the slider to the end to play on",
        "nothing_to_undo": "nothing to undo", "nothing_to_redo": "nothing to redo",
        "no_choice": "there is no capture to choose now", "loaded": "loaded {name}",
        "load_error": "cannot load: {reason}", "imported": "game record read: {n} turns",
        "exported": "game record written below", "import_error": "cannot read the game record: {reason}",
        "new": "new game: {size}, {rules} rules", "deselected": "selection cleared",
        "cancelled": "choice cancelled", "undone": "took back {move}", "redone": "replayed {move}",
        "step_undone": "took back the step {move}", "game_over": "the game is over",
        "computer_error": "the computer failed: {reason}", "turn_ended": "turn ended: {move}",
    },
    "da": {
        "undo": "Fortryd træk", "undo_step": "Fortryd skridt", "redo": "Gentag", "new_game": "Nyt spil",
        "end_turn": "Afslut træk", "approach": "Tilnærmelse", "withdrawal": "Tilbagetrækning",
        "size": "Størrelse", "rules": "Regler", "position": "Stilling", "load": "Indlæs",
        "load_diagram": "Indlæs diagram", "computer": "Computer", "nobody": "ingen", "both": "begge",
        "level": "Niveau", "perfect": "perfekt", "delay": "Pause", "replay": "Træk", "export": "Eksportér",
        "import": "Importér", "strings": "Rækker", "legal": "Lovlige træk", "names": "Punktnavne",
        "strong": "Stærke punkter", "large": "Stor", "moves": "Træk", "more": "Stillinger og spilreferat",
        "white": "hvid", "black": "sort",
        "turn": "{side} er i trækket", "stones": "brikker: hvid {white}, sort {black}",
        "quiet": "træk uden slag: {quiet} af {limit}", "quiet_nolimit": "træk uden slag: {quiet}",
        "win": "{side} vinder: {reason}", "draw": "remis: {reason}",
        "select": "brikken på {point} er valgt: klik på et markeret punkt for at flytte dertil",
        "must_capture": "slag er tvunget: flyt en af de mærkede brikker ({points})",
        "no_stone": "der står ingen brik på {point}", "not_yours": "brikken på {point} tilhører modstanderen",
        "stuck": "brikken på {point} har intet lovligt skridt", "illegal": "ikke tilladt: {reason}",
        "choose": "skridtet {step} slår på to måder: klik på en brik mærket A (tilnærmelse) eller W "
                  "(tilbagetrækning), eller brug knapperne",
        "chain": "brikken på {point} kan slå igen: klik på et markeret punkt, eller Afslut træk",
        "played": "spillede {move}", "thinking": "{name} tænker",
        "computer_played": "{name} spillede {move}", "search": "søgning: {info}",
        "busy": "vent: computeren trækker",
        "replaying": "viser stillingen efter {n} af {total} træk: flyt skyderen til enden for at spille videre",
        "nothing_to_undo": "intet at fortryde", "nothing_to_redo": "intet at gentage",
        "no_choice": "der er intet slag at vælge nu", "loaded": "indlæste {name}",
        "load_error": "kan ikke indlæse: {reason}", "imported": "spilreferat læst: {n} træk",
        "exported": "spilreferatet står nedenfor", "import_error": "kan ikke læse spilreferatet: {reason}",
        "new": "nyt spil: {size}, regler: {rules}", "deselected": "valget er fjernet",
        "cancelled": "valget er annulleret", "undone": "tog {move} tilbage", "redone": "spillede {move} igen",
        "step_undone": "tog skridtet {move} tilbage", "game_over": "spillet er slut",
        "computer_error": "computeren fejlede: {reason}", "turn_ended": "trækket er afsluttet: {move}",
    },
    "de": {
        "undo": "Zug zurück", "undo_step": "Schritt zurück", "redo": "Wiederholen", "new_game": "Neues Spiel",
        "end_turn": "Zug beenden", "approach": "Annäherung", "withdrawal": "Rückzug", "size": "Größe",
        "rules": "Regeln", "position": "Stellung", "load": "Laden", "load_diagram": "Diagramm laden",
        "computer": "Computer", "nobody": "niemand", "both": "beide", "level": "Stufe", "perfect": "perfekt",
        "delay": "Pause", "replay": "Zug", "export": "Exportieren", "import": "Importieren",
        "strings": "Reihen", "legal": "Erlaubte Züge", "names": "Punktnamen", "strong": "Starke Punkte",
        "large": "Groß", "moves": "Züge", "more": "Stellungen und Partie",
        "white": "Weiß", "black": "Schwarz",
        "turn": "{side} ist am Zug", "stones": "Steine: Weiß {white}, Schwarz {black}",
        "quiet": "Züge ohne Schlagen: {quiet} von {limit}", "quiet_nolimit": "Züge ohne Schlagen: {quiet}",
        "win": "{side} gewinnt: {reason}", "draw": "Remis: {reason}",
        "select": "der Stein auf {point} ist gewählt: klicke auf einen markierten Punkt, um dorthin zu ziehen",
        "must_capture": "Schlagen ist Pflicht: ziehe einen der markierten Steine ({points})",
        "no_stone": "auf {point} steht kein Stein", "not_yours": "der Stein auf {point} gehört dem Gegner",
        "stuck": "der Stein auf {point} hat keinen erlaubten Schritt", "illegal": "nicht erlaubt: {reason}",
        "choose": "der Schritt {step} schlägt auf zwei Arten: klicke auf einen mit A (Annäherung) oder W (Rückzug) "
                  "markierten Stein, oder nutze die Knöpfe",
        "chain": "der Stein auf {point} kann erneut schlagen: klicke auf einen markierten Punkt "
                 "oder auf Zug beenden",
        "played": "gespielt: {move}", "thinking": "{name} denkt nach",
        "computer_played": "{name} spielte {move}", "search": "Suche: {info}",
        "busy": "bitte warten: der Computer zieht",
        "replaying": "Stellung nach {n} von {total} Zügen: schiebe den Regler ans Ende, um weiterzuspielen",
        "nothing_to_undo": "nichts zurückzunehmen", "nothing_to_redo": "nichts zu wiederholen",
        "no_choice": "jetzt ist kein Schlag zu wählen", "loaded": "geladen: {name}",
        "load_error": "kann nicht laden: {reason}", "imported": "Partie gelesen: {n} Züge",
        "exported": "die Partie steht unten", "import_error": "kann die Partie nicht lesen: {reason}",
        "new": "neues Spiel: {size}, Regeln: {rules}", "deselected": "Auswahl aufgehoben",
        "cancelled": "Wahl abgebrochen", "undone": "zurückgenommen: {move}", "redone": "wiederholt: {move}",
        "step_undone": "Schritt {move} zurückgenommen", "game_over": "das Spiel ist vorbei",
        "computer_error": "der Computer ist gescheitert: {reason}", "turn_ended": "Zug beendet: {move}",
    },
    "cs": {
        "undo": "Vrátit tah", "undo_step": "Vrátit krok", "redo": "Znovu", "new_game": "Nová hra",
        "end_turn": "Ukončit tah", "approach": "Přiblížení", "withdrawal": "Odstoupení", "size": "Velikost",
        "rules": "Pravidla", "position": "Pozice", "load": "Načíst", "load_diagram": "Načíst diagram",
        "computer": "Počítač", "nobody": "nikdo", "both": "oba", "level": "Úroveň", "perfect": "dokonalý",
        "delay": "Prodleva", "replay": "Tah", "export": "Exportovat", "import": "Importovat",
        "strings": "Řady", "legal": "Povolené tahy", "names": "Názvy bodů", "strong": "Silné body",
        "large": "Velké", "moves": "Tahy", "more": "Pozice a záznam hry",
        "white": "bílý", "black": "černý",
        "turn": "na tahu je {side}", "stones": "kameny: bílý {white}, černý {black}",
        "quiet": "tahy bez braní: {quiet} z {limit}", "quiet_nolimit": "tahy bez braní: {quiet}",
        "win": "{side} vyhrává: {reason}", "draw": "remíza: {reason}",
        "select": "vybráno {point}: klikněte na označený bod, kam táhnout",
        "must_capture": "braní je povinné: táhněte jedním z označených kamenů ({points})",
        "no_stone": "na {point} není žádný kámen", "not_yours": "kámen na {point} patří soupeři",
        "stuck": "kámen na {point} nemá žádný povolený krok", "illegal": "nepovoleno: {reason}",
        "choose": "krok {step} bere dvěma způsoby: klikněte na kámen označený A (přiblížení) nebo W "
                  "(odstoupení), nebo použijte tlačítka",
        "chain": "kámen na {point} může brát znovu: klikněte na označený bod, nebo Ukončit tah",
        "played": "zahráno {move}", "thinking": "{name} přemýšlí",
        "computer_played": "{name} zahrál {move}", "search": "hledání: {info}",
        "busy": "počkejte: počítač táhne",
        "replaying": "pozice po {n} z {total} tahů: posuňte jezdec na konec a hrajte dál",
        "nothing_to_undo": "není co vrátit", "nothing_to_redo": "není co opakovat",
        "no_choice": "teď není co vybírat", "loaded": "načteno: {name}",
        "load_error": "nelze načíst: {reason}", "imported": "záznam hry načten: {n} tahů",
        "exported": "záznam hry je níže", "import_error": "záznam hry nelze přečíst: {reason}",
        "new": "nová hra: {size}, pravidla: {rules}", "deselected": "výběr zrušen",
        "cancelled": "volba zrušena", "undone": "vráceno {move}", "redone": "znovu zahráno {move}",
        "step_undone": "vrácen krok {move}", "game_over": "hra skončila",
        "computer_error": "počítač selhal: {reason}", "turn_ended": "tah ukončen: {move}",
    },
}

STYLE = """<style>
.fanorona-large .widget-button, .fanorona-large .widget-toggle-button, .fanorona-large .fanorona-status,
.fanorona-large .fanorona-moves pre { font-size: 150% !important; }
.fanorona-moves pre { margin: 0; white-space: pre; }
</style>"""


def labels(language: str) -> dict:
    """The label and sentence templates of a language; a clear error for an unknown one."""
    if language not in LABELS:
        raise ValueError(f"language must be one of {', '.join(map(repr, LABELS))}; got {language!r}")
    return LABELS[language]


class _LockedFigure(Figure):
    """A figure that renders only while holding the widget's lock, so no frame is half redrawn."""

    def __init__(self, lock, **options):
        super().__init__(**options)
        self._lock = lock

    def draw(self, renderer):
        with self._lock:
            super().draw(renderer)


def _size_text(size) -> str:
    return f"{size[0]}x{size[1]}"


def _parse_size(size) -> tuple[int, int]:
    """A size given as (width, height) or as text like "5x3"."""
    if isinstance(size, str):
        try:
            width, height = (int(n) for n in size.lower().split("x"))
        except ValueError:
            raise ValueError(f"a board size is written like '5x3'; got {size!r}") from None
        return width, height
    return tuple(size)


def _search_text(player) -> str:
    """What the player's last search did, in its own words, or nothing."""
    info = getattr(player, "last_search", None)
    return str(info) if info else ""


def _close_tree(widget) -> None:
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()


class BoardWidget:
    """A board to play on by clicking, with undo, replay, a computer opponent and overlays.

    ``board``: a position to start from (used as it is: ``size`` and ``rules`` are then ignored);
    ``opponent``: None, a level 1-5, or any player with ``choose_turn(board)``; it plays Black.
    ``language``: "en", "da", "de" or "cs" for labels and status sentences.
    Display it as the last expression of a cell.
    """

    def __init__(self, board: Board | None = None, size=(9, 5), rules: Rules | None = None, opponent=None,
                 language: str = "en"):
        self._text = labels(language)
        self._language = language
        self._lock = threading.RLock()
        self._generation = 0          # bumped to cancel a computer turn in progress
        self._thread: threading.Thread | None = None
        self._thread_generation = -1
        self._players: dict = {}
        self._custom_player = None if opponent is None or isinstance(opponent, int) else opponent
        self.error: Exception | None = None    # the last exception raised inside the computer's thread
        self.board = board.copy() if board is not None else Board(_parse_size(size), rules)
        self._redo: list = []
        self._selected: str | None = None
        self._pending: tuple[str, str] | None = None   # a step that captures two ways, awaiting a choice
        self._message = ""
        self._search = ""
        self._syncing = False
        self._build()
        self._set_opponent(opponent)
        self._relabel()
        self._reshape()
        self._maybe_start_computer()

    # -- the controller: what a click, a button or a program does ------------------------------

    def click(self, point: str) -> None:
        """Act on a click at ``point``: select a stone, move it, or choose a capture; else say why not."""
        g = self.board.geometry
        if point not in g.index:
            raise ValueError(f"there is no point {point!r} on a {_size_text(g.size)} board")
        with self._lock:
            self._message = self._react(point)
            self._refresh()
        self._maybe_start_computer()

    def choose(self, kind: str) -> None:
        """Settle a step that captures both ways: ``"approach"`` or ``"withdrawal"``."""
        if kind not in ("approach", "withdrawal"):
            raise ValueError(f"choose 'approach' or 'withdrawal'; got {kind!r}")
        with self._lock:
            self._message = self._choose(kind) if self._pending else self._say("no_choice")
            self._refresh()
        self._maybe_start_computer()

    def end_turn(self) -> None:
        """Stop the capture chain in progress here (where the rules let it stop)."""
        with self._lock:
            self._message = self._blocked() or self._end_chain()
            self._refresh()
        self._maybe_start_computer()

    def undo(self) -> None:
        """Take back a whole turn (the one in progress, else the last); against the computer, back to your turn."""
        with self._lock:
            self._cancel_computer()
            if not self.board.turns and not self.board.chain:
                self._message = self._say("nothing_to_undo")
            else:
                taken = self._undo_turn()
                while self._against_computer() and self._computer_side_to_move() and self.board.turns:
                    taken = self._undo_turn()
                self._message = self._say("undone", move=taken)
            self._refresh()
        self._maybe_start_computer()

    def undo_step(self) -> None:
        """Take back one step (or a chain's end); against the computer, back to your own turn."""
        with self._lock:
            self._cancel_computer()
            try:
                move = self.board.pop()
            except IndexError:
                self._message = self._say("nothing_to_undo")
            else:
                self._redo.clear()
                self._message = self._say("step_undone", move="-" if move == "end_turn" else str(move))
                while self._against_computer() and self._computer_side_to_move() and \
                        (self.board.turns or self.board.chain):
                    self._undo_turn()
            self._refresh()
        self._maybe_start_computer()

    def redo(self) -> None:
        """Play again a turn taken back by ``undo`` (and the computer's answer to it)."""
        with self._lock:
            self._cancel_computer()
            if not self._redo or self.board.chain:
                self._message = self._say("nothing_to_redo")
            else:
                turn = self._redo_turn()
                while self._against_computer() and self._computer_side_to_move() and self._redo:
                    turn = self._redo_turn()
                self._message = self._say("redone", move=turn)
            self._refresh()
        self._maybe_start_computer()

    def new_game(self, size=None, rules: Rules | str | None = None) -> None:
        """Start again from the start position, keeping the size and rules unless new ones are given."""
        size = self.board.size if size is None else _parse_size(size)
        rules = self.board.rules if rules is None else Rules.named(rules) if isinstance(rules, str) else rules
        board = Board(size, rules)
        with self._lock:
            self._reset(board)
            self._message = self._say("new", size=_size_text(size), rules=rules.name() or "custom")
            self._refresh()
        self._maybe_start_computer()

    def load_position(self, name_or_diagram: str) -> None:
        """Set up a named teaching position (``positions.names()``), a diagram or a one-line position text.

        A diagram has White to move and the current rules; a bad one raises ValueError saying why.
        """
        from . import positions
        text = name_or_diagram.strip()
        if text in positions.names():
            board, name = positions.load(text), text
        else:
            board, name = self._board_from_text(text, positions.names()), "diagram"
        with self._lock:
            self._reset(board)
            self._message = self._say("loaded", name=name)
            self._refresh()
        self._maybe_start_computer()

    def export_game(self) -> str:
        """The game so far as a ``fanorona.Game`` JSON record (also put in the record box)."""
        with self._lock:
            board = self.board.copy()
            while board.chain:
                board.pop()
            text = Game.from_board(board, white=self._player_name("white"),
                                   black=self._player_name("black")).to_json()
            self.controls["record"].value = text
            self._message = self._say("exported")
            self._refresh()
        return text

    def import_game(self, text: str) -> None:
        """Replace the game by a JSON game record; a record that does not replay raises GameRecordError."""
        board = Game.from_json(text).board()
        with self._lock:
            self._reset(board)
            self._message = self._say("imported", n=len(board.turns))
            self._refresh()
        self._maybe_start_computer()

    def replay(self, turns: int | None) -> None:
        """Show the position after the first ``turns`` turns (None: the live game, where clicks play)."""
        total = len(self.board.turns)
        if turns is not None and not 0 <= turns <= total:
            raise ValueError(f"the game has {total} turns; replay shows 0 to {total}; got {turns!r}")
        self.controls["replay"].value = total if turns is None else turns

    def show(self, **overlays: bool) -> None:
        """Switch overlays: strings, legal, names, strong, large (for a projector)."""
        for name, on in overlays.items():
            if name not in self._toggles:
                raise ValueError(f"no overlay called {name!r}; they are {', '.join(self._toggles)}")
            self.controls[name].value = bool(on)

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the computer has finished moving (for tests and scripts; never in a callback)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                raise TimeoutError(f"the computer did not finish within {timeout} s")

    def close(self) -> None:
        """Stop the computer and close every widget (a closed board cannot be shown again)."""
        with self._lock:
            self._cancel_computer()
        _close_tree(self.ui)

    # -- what the controller reads -------------------------------------------------------------

    @property
    def status(self) -> str:
        """The status line: the last action's result, whose turn, stones, quiet turns or the result."""
        return self._status_text

    @property
    def moves(self) -> str:
        """The move list: one numbered line per pair of turns, the turn in progress ending in '…'."""
        return self._moves_text

    @property
    def language(self) -> str:
        return self._language

    @language.setter
    def language(self, value: str) -> None:
        self._text = labels(value)
        self._language = value
        with self._lock:
            self._relabel()
            self._refresh()

    @property
    def computer(self) -> str:
        """Who the computer plays: 'nobody', 'white', 'black' or 'both'."""
        return self.controls["computer"].value

    @computer.setter
    def computer(self, side: str) -> None:
        if side not in COMPUTER_SIDES:
            raise ValueError(f"the computer plays one of {', '.join(COMPUTER_SIDES)}; got {side!r}")
        self.controls["computer"].value = side

    @property
    def level(self):
        """The computer's level: 1 to 5, 'perfect' on small boards, or 'custom' for a given player."""
        return self.controls["level"].value

    @level.setter
    def level(self, value) -> None:
        options = [v for _, v in self.controls["level"].options]
        if value not in options:
            raise ValueError(f"the level is one of {', '.join(map(str, options))}; got {value!r}")
        self.controls["level"].value = value

    @property
    def delay(self) -> float:
        """Seconds between the computer's animated steps (0 for tests)."""
        return self.controls["delay"].value

    @delay.setter
    def delay(self, seconds: float) -> None:
        self.controls["delay"].value = seconds

    def point_pixels(self) -> dict[str, tuple[float, float]]:
        """Each point's place on the canvas as fractions of its width and height, from the top left.

        The same table is in a hidden element of the page, so a browser test can click a point.
        """
        self.ax.apply_aspect()
        width, height = self.figure.bbox.width, self.figure.bbox.height
        g = self.board.geometry
        pixels = {}
        for name in g.names:
            x, y = self.ax.transData.transform(g.coordinates(g.index[name]))
            pixels[name] = (round(float(x / width), 5), round(float(1 - y / height), 5))
        return pixels

    def _repr_mimebundle_(self, **kwargs):
        return self.ui._repr_mimebundle_(**kwargs)

    # -- reacting to clicks --------------------------------------------------------------------

    def _react(self, point: str) -> str:
        blocked = self._blocked()
        if blocked:
            return blocked
        if self._pending:
            return self._react_to_choice(point)
        steps = self.board.legal_steps()
        if point in {s.destination for s in steps if s.origin == self._selected}:
            return self._step_to(point, steps)
        if self.board.chain:
            if point == self.board.chain_stone:
                return self._say("chain", point=point)
            return self._say("illegal", reason=self._why_not(self.board.chain_stone, point))
        if point == self._selected:
            self._selected = None
            return self._say("deselected")
        if self._selected and self.board.stone_at(point) is None:
            return self._say("illegal", reason=self._why_not(self._selected, point))
        return self._select(point, steps)

    def _blocked(self) -> str:
        """Why the board takes no move now (replaying, the computer's turn, game over), or ''."""
        total = len(self.board.turns)
        if self._replaying():
            return self._say("replaying", n=self.controls["replay"].value, total=total)
        if self.board.is_game_over():
            return self._say("game_over")
        if self._computer_side_to_move():
            return self._say("busy")
        return ""

    def _select(self, point: str, steps: list[Step]) -> str:
        stone = self.board.stone_at(point)
        if stone is None:
            return self._say("no_stone", point=point)
        if stone != self.board.to_move:
            return self._say("not_yours", point=point)
        if not any(s.origin == point for s in steps):
            capturers = self._must_capture(steps)
            if capturers:
                return self._say("must_capture", points=", ".join(capturers))
            return self._say("stuck", point=point)
        self._selected = point
        return self._say("select", point=point)

    def _must_capture(self, steps: list[Step]) -> list[str]:
        """The stones that must capture, when capture is compulsory and possible."""
        if not self.board.rules.mandatory_capture or self.board.chain:
            return []
        return sorted({s.origin for s in steps if s.capture})

    def _why_not(self, origin: str, point: str) -> str:
        """The rules package's reason (in English) why origin-point is no legal step."""
        try:
            self.board.captures(Step(origin, point))
        except IllegalMoveError as e:
            return str(e)
        return ""

    def _step_to(self, point: str, steps: list[Step]) -> str:
        options = [s for s in steps if (s.origin, s.destination) == (self._selected, point)]
        if len(options) > 1:
            self._pending = (self._selected, point)
            return self._say("choose", step=f"{self._selected}-{point}")
        return self._play(options[0])

    def _react_to_choice(self, point: str) -> str:
        origin, destination = self._pending
        for kind in ("approach", "withdrawal"):
            if point in self.board.captures(Step(origin, destination, kind)):
                return self._choose(kind)
        if point == origin:
            self._pending = None
            return self._say("cancelled")
        return self._say("choose", step=f"{origin}-{destination}")

    def _choose(self, kind: str) -> str:
        origin, destination = self._pending
        self._pending = None
        return self._play(Step(origin, destination, kind))

    def _play(self, step: Step) -> str:
        self.board.push(step)
        self._redo.clear()
        self._selected = self.board.chain_stone
        if self.board.chain:
            return self._say("chain", point=self.board.chain_stone)
        return self._say("played", move=str(self.board.turns[-1]))

    def _end_chain(self) -> str:
        try:
            self.board.end_turn()
        except IllegalMoveError as e:
            return self._say("illegal", reason=str(e))
        self._redo.clear()
        self._selected = None
        return self._say("turn_ended", move=str(self.board.turns[-1]))

    # -- undo and redo -------------------------------------------------------------------------

    def _undo_turn(self) -> str:
        """Take back the turn in progress, else the last whole turn (which redo can replay)."""
        board = self.board
        self._selected = self._pending = None
        if board.chain:
            taken = str(Turn(board.chain)) + "…"
            while board.chain:
                board.pop()
            return taken
        turn = board.turns[-1]
        count = len(board.turns)
        while len(board.turns) >= count or board.chain:
            board.pop()
        self._redo.append(turn)
        return str(turn)

    def _redo_turn(self) -> str:
        turn = self._redo.pop()
        self.board.push(turn)
        self._selected = self._pending = None
        return str(turn)

    def _reset(self, board: Board) -> None:
        """A new game or position: cancel the computer, clear selection, history and replay."""
        self._cancel_computer()
        resized = board.size != self.board.size
        self.board = board
        self._redo.clear()
        self._selected = self._pending = None
        self._search = ""
        self._sync_choosers()
        with self._syncing_choosers():
            self.controls["replay"].max = self.controls["replay"].value = len(board.turns)
        if resized:
            self._reshape()

    def _board_from_text(self, text: str, names: list[str]) -> Board:
        try:
            if "/" in text:
                return Board.from_fen(text, self.board.rules)
            return Board.from_diagram(text, rules=self.board.rules)
        except (NotationError, ValueError) as e:
            raise ValueError(f"{text!r} is neither a position name ({', '.join(names)}) "
                             f"nor a diagram: {e}") from None

    # -- the computer --------------------------------------------------------------------------

    def _set_opponent(self, opponent) -> None:
        if opponent is None:
            return
        if isinstance(opponent, int) and not isinstance(opponent, bool):
            from .ai import LEVELS
            if opponent not in LEVELS:
                raise ValueError(f"opponent levels go from 1 to {len(LEVELS)}; got {opponent}")
        elif not callable(getattr(opponent, "choose_turn", None)):
            raise ValueError(f"an opponent is a level 1-5 or a player with choose_turn(board); got {opponent!r}")
        with self._syncing_choosers():
            self.controls["level"].value = opponent if isinstance(opponent, int) else "custom"
            self.controls["computer"].value = "black"

    def _computer_sides(self) -> set[str]:
        side = self.controls["computer"].value
        return {"white", "black"} if side == "both" else {side} - {"nobody"}

    def _against_computer(self) -> bool:
        """A person plays one side and the computer the other (undo and redo then skip the computer's turns)."""
        return len(self._computer_sides()) == 1

    def _computer_side_to_move(self) -> bool:
        return self.board.to_move.value in self._computer_sides()

    def _computer_should_move(self) -> bool:
        return self._computer_side_to_move() and not self._replaying() and not self.board.is_game_over()

    def _cancel_computer(self) -> None:
        self._generation += 1

    def _maybe_start_computer(self) -> None:
        with self._lock:
            running = self._thread is not None and self._thread.is_alive() and \
                self._thread_generation == self._generation
            if running or not self._computer_should_move():
                return
            self._thread_generation = self._generation
            self._thread = threading.Thread(target=self._computer_plays, args=(self._generation,), daemon=True,
                                            name="fanorona-computer")
            self._thread.start()

    def _computer_plays(self, generation: int) -> None:
        """The background thread: think, then play the chosen turn step by step, while it is the computer's turn."""
        try:
            while True:
                with self._lock:
                    if generation != self._generation or not self._computer_should_move():
                        return
                    board = self.board.copy()
                    level = self.controls["level"].value
                    self._message = self._say("thinking", name=self._player_name(board.to_move.value))
                    self._refresh()
                player = self._player(level, board)
                turn = player.choose_turn(board)
                if not self._animate(generation, turn, player):
                    return
        except Exception as e:   # shown in the status line: a thread has nobody else to tell
            with self._lock:
                self.error = e
                self._message = self._say("computer_error", reason=f"{type(e).__name__}: {e}")
                self._refresh()

    def _animate(self, generation: int, turn, player) -> bool:
        """Play the computer's turn one step at a time, so a chain can be followed; False if cancelled."""
        for step in turn.steps:
            if self.delay:
                time.sleep(self.delay)
            with self._lock:
                if generation != self._generation:
                    return False
                self.board.push(step)
                self._selected = None
                self._refresh()
        with self._lock:
            if generation != self._generation:
                return False
            if self.board.chain:
                self.board.end_turn()
            self._search = _search_text(player)
            self._message = self._say("computer_played", name=getattr(player, "name", "computer"), move=str(turn))
            self._refresh()
        return True

    def _player(self, level, board: Board):
        """The player for a level, made once per level and board size (the perfect one solves the board)."""
        key = (level, board.size, board.rules)
        if key not in self._players:
            if level == "custom":
                self._players[key] = self._custom_player
            elif level == "perfect":
                from .solve import PerfectPlayer
                self._players[key] = PerfectPlayer(board.size, rules=board.rules.with_(quiet_draw=None))
            else:
                from .ai import level as level_player
                self._players[key] = level_player(level)
        return self._players[key]

    def _player_name(self, side: str) -> str:
        if side not in self._computer_sides():
            return side
        level = self.controls["level"].value
        if level == "custom":
            return getattr(self._custom_player, "name", "computer")
        return f"level{level}" if isinstance(level, int) else f"{level} {_size_text(self.board.size)}"

    def _perfect_offered(self) -> bool:
        """Only where the solver answers in seconds: small boards under the standard rules (its
        quiet-turn draw aside); other rule sets reach millions of positions on 3x5."""
        w, h = self.board.size
        return w * h <= PERFECT_MAX_POINTS and self.board.rules.with_(quiet_draw=None) == Rules.solved()

    # -- the view ------------------------------------------------------------------------------

    def _say(self, key: str, **values) -> str:
        """A translated sentence, its first letter capitalised."""
        if "side" in values:
            values["side"] = self._text[values["side"]]
        text = self._text[key].format(**values)
        return text[:1].upper() + text[1:]

    def _replaying(self) -> bool:
        return self.controls["replay"].value < len(self.board.turns)

    def _refresh(self) -> None:
        """Bring every view of the game up to date (call with the lock held)."""
        self._status_text = self._compose_status()
        self._moves_text = self._compose_moves()
        self.controls["status"].value = f'<div class="fanorona-status">{html.escape(self._status_text)}</div>'
        self.controls["moves"].value = f"<pre>{html.escape(self._moves_text)}</pre>"
        self._sync_replay()
        self._sync_buttons()
        self._redraw()

    def _compose_status(self) -> str:
        board = self.board
        parts = [self._message] if self._message else []
        parts.append(self._headline(board))
        parts.append(self._say("stones", white=board.count("white"), black=board.count("black")))
        limit = board.rules.quiet_draw
        parts.append(self._say("quiet", quiet=board.quiet_turns, limit=limit) if limit
                     else self._say("quiet_nolimit", quiet=board.quiet_turns))
        if self._search:
            parts.append(self._say("search", info=self._search))
        return ". ".join(p.rstrip(".") for p in parts) + "."

    def _compose_moves(self) -> str:
        """Numbered lines of White's and Black's turns, in the package's turn notation."""
        board = self.board
        texts = [str(t) for t in board.turns]
        if board.chain:
            texts.append(str(Turn(board.chain)) + "…")
        if board.root().to_move.value == "black":
            texts.insert(0, "…")
        lines = []
        for n in range(0, len(texts), 2):
            lines.append(f"{n // 2 + 1}. " + "  ".join(texts[n:n + 2]))
        return "\n".join(lines)

    def _view(self) -> tuple[Board, dict]:
        """The board to draw and the draw_board options for the current state and overlays."""
        shown = {name: self.controls[name].value for name in self._toggles}
        options = dict(strong=shown["strong"], point_names=shown["names"], scale=1.5 if shown["large"] else 1.0)
        board = self.board
        if self._replaying():
            board = self._board_after(self.controls["replay"].value)
            arrows = self._path_arrows(board.turns[-1].path) if board.turns else []
            return board, dict(options, arrows=arrows, title=self._headline(board))
        strings = board.strings("white", 2) + board.strings("black", 2) if shown["strings"] else []
        steps = board.legal_steps()
        options.update(self._selection_marks(steps))
        if self._pending:
            options.update(self._choice_marks())
        options["strings"] = strings + options.pop("choice_strings", [])
        options["arrows"] = self._arrows(steps, shown["legal"])
        options["title"] = self._headline(board)
        return board, options

    def _selection_marks(self, steps: list[Step]) -> dict:
        """Rings on the selected stone's destinations, crosses on what they capture; else must-capture dots."""
        if self._selected is None:
            return dict(marked=self._must_capture(steps))
        mine = [s for s in steps if s.origin == self._selected]
        captured = sorted({p for s in mine if s.capture for p in self.board.captures(s)})
        return dict(marked=[self._selected], highlight=sorted({s.destination for s in mine}), captures=captured)

    def _choice_marks(self) -> dict:
        """The two strings a two-way capture can take, lettered A and W."""
        origin, destination = self._pending
        runs = {kind: self.board.captures(Step(origin, destination, kind)) for kind in ("approach", "withdrawal")}
        notes = [(p, kind[0].upper()) for kind, run in runs.items() for p in run]
        return dict(choice_strings=list(runs.values()), notes=notes, highlight=[destination], captures=[])

    def _arrows(self, steps: list[Step], legal: bool) -> list:
        board = self.board
        if board.chain:
            return self._path_arrows(Turn(board.chain).path)
        if legal:
            return sorted({(s.origin, s.destination) for s in steps})
        return self._path_arrows(board.turns[-1].path) if board.turns else []

    @staticmethod
    def _path_arrows(path) -> list:
        return list(zip(path, path[1:]))

    def _headline(self, board: Board) -> str:
        outcome = board.outcome()
        if outcome is None:
            return self._say("turn", side=board.to_move.value)
        return self._result(outcome)

    def _result(self, outcome: Outcome) -> str:
        if outcome.winner:
            return self._say("win", side=outcome.winner, reason=outcome.reason)
        return self._say("draw", reason=outcome.reason)

    def _board_after(self, turns: int) -> Board:
        board = self.board.root()
        for turn in self.board.turns[:turns]:
            board.push(turn)
        return board

    def _redraw(self) -> None:
        board, options = self._view()
        for artist in [*self.ax.collections, *self.ax.texts, *self.ax.patches, *self.ax.lines]:
            artist.remove()
        draw_board(board, self.ax, **options)
        self.canvas.draw_idle()

    # -- building and relabelling the controls -------------------------------------------------

    _toggles = ("strings", "legal", "names", "strong", "large")
    _buttons = ("undo", "undo_step", "redo", "new_game", "end_turn", "approach", "withdrawal", "load",
                "load_diagram", "export", "import")

    def _build(self) -> None:
        """Make the figure, the canvas and every control, and wire them to the controller."""
        self.figure = _LockedFigure(self._lock, figsize=(6, 4))
        self.canvas = Canvas(self.figure)
        FigureManager(self.canvas, 0)
        self.canvas.header_visible = self.canvas.toolbar_visible = self.canvas.footer_visible = False
        self.canvas.resizable = False
        self.canvas.capture_scroll = False
        self.canvas.layout.flex = "0 0 auto"     # the move list gives way, never the board
        self.ax = self.figure.add_axes((0.06, 0.06, 0.92, 0.86))
        self.canvas.mpl_connect("button_press_event", self._on_press)
        #: The ipywidgets controls by name (buttons, choosers, sliders, the status and move list).
        c = self.controls = {name: widgets.Button() for name in self._buttons}
        c.update({name: widgets.ToggleButton(value=False) for name in self._toggles})
        c["size"] = widgets.Dropdown(options=[_size_text(s) for s in SIZES], layout=widgets.Layout(width="150px"))
        c["rules"] = widgets.Dropdown(options=PRESETS, layout=widgets.Layout(width="190px"))
        c["computer"] = widgets.Dropdown(value="nobody", options=COMPUTER_SIDES, layout=widgets.Layout(width="190px"))
        c["level"] = widgets.Dropdown(options=self._level_options(), value=1, layout=widgets.Layout(width="170px"))
        c["delay"] = widgets.FloatSlider(value=0.4, min=0.0, max=2.0, step=0.1, layout=widgets.Layout(width="260px"))
        c["replay"] = widgets.IntSlider(value=0, min=0, max=0, layout=widgets.Layout(width="420px"))
        c["position"] = widgets.Dropdown(options=self._position_names(), layout=widgets.Layout(width="300px"))
        c["diagram"] = widgets.Textarea(placeholder="B.B\n...\nW.W", layout=widgets.Layout(width="200px", height="90px"))
        c["record"] = widgets.Textarea(layout=widgets.Layout(width="100%", height="140px"))
        c["status"] = widgets.HTML()
        c["moves"] = widgets.HTML(layout=widgets.Layout(min_width="230px", max_height="420px", overflow="auto"))
        c["moves"].add_class("fanorona-moves")
        c["status"].add_class("fanorona-status-line")
        self.controls["points"] = widgets.HTML(layout=widgets.Layout(display="none"))
        self.controls["points"].add_class("fanorona-points")
        self._wire()
        self._sync_choosers()
        self.ui = self._layout()

    def _layout(self) -> widgets.Box:
        c = self.controls
        self._moves_title = widgets.HTML()
        self._more = widgets.Accordion(children=[widgets.VBox([
            widgets.HBox([c["position"], c["load"]]),
            widgets.HBox([c["diagram"], c["load_diagram"]]),
            widgets.HBox([c["export"], c["import"]]), c["record"]])])
        ui = widgets.VBox([
            widgets.HTML(STYLE),
            widgets.HBox([self.canvas, widgets.VBox([self._moves_title, c["moves"]],
                                                    layout=widgets.Layout(margin="0 0 0 12px"))],
                         layout=widgets.Layout(justify_content="flex-start", align_items="flex-start")),
            c["status"],
            widgets.HBox([c["end_turn"], c["approach"], c["withdrawal"], c["undo"], c["undo_step"], c["redo"]]),
            widgets.HBox([c["new_game"], c["size"], c["rules"]]),
            widgets.HBox([c["computer"], c["level"], c["delay"]]),
            c["replay"],
            widgets.HBox([c[name] for name in self._toggles]),
            self._more, self.controls["points"]])
        ui.add_class("fanorona-board")
        return ui

    def _wire(self) -> None:
        c = self.controls
        actions = {"undo": self.undo, "undo_step": self.undo_step, "redo": self.redo, "end_turn": self.end_turn,
                   "new_game": self.new_game, "approach": lambda: self.choose("approach"),
                   "withdrawal": lambda: self.choose("withdrawal"), "export": self.export_game,
                   "load": lambda: self._load_from(c["position"].value),
                   "load_diagram": lambda: self._load_from(c["diagram"].value), "import": self._import_from_box}
        for name, action in actions.items():
            c[name].on_click(lambda _button, action=action: action())
        self._observe("size", lambda v: self.new_game(size=v))
        self._observe("rules", lambda v: self.new_game(rules=v))
        self._observe("computer", lambda v: self._computer_changed())
        self._observe("level", lambda v: self._computer_changed())
        self._observe("replay", lambda v: self._with_refresh())
        for name in self._toggles[:-1]:
            self._observe(name, lambda v: self._with_refresh())
        self._observe("large", lambda v: self._reshape())

    def _observe(self, name: str, react) -> None:
        """Call react(new value) when a control changes, unless the change is the widget's own sync."""
        def handler(change):
            if not self._syncing:
                react(change["new"])
        self.controls[name].observe(handler, names="value")

    def _load_from(self, text: str) -> None:
        try:
            self.load_position(text or "")
        except ValueError as e:
            self._report("load_error", reason=str(e))

    def _import_from_box(self) -> None:
        try:
            self.import_game(self.controls["record"].value)
        except ValueError as e:
            self._report("import_error", reason=str(e))

    def _report(self, key: str, **values) -> None:
        with self._lock:
            self._message = self._say(key, **values)
            self._refresh()

    def _computer_changed(self) -> None:
        with self._lock:
            self._cancel_computer()
            self._search = ""
            self._message = ""
            self._refresh()
        self._maybe_start_computer()

    def _with_refresh(self) -> None:
        with self._lock:
            self._refresh()
        self._maybe_start_computer()

    def _level_options(self) -> list:
        options = [(str(n), n) for n in range(1, 6)]
        if self._perfect_offered():
            options.append((self._text["perfect"], "perfect"))
        if self._custom_player is not None:
            options.insert(0, (getattr(self._custom_player, "name", "custom"), "custom"))
        return options

    @staticmethod
    def _position_names() -> list[str]:
        from . import positions
        return positions.names()

    @contextmanager
    def _syncing_choosers(self):
        """Set controls from the game without their observers taking it for a user's choice."""
        before, self._syncing = self._syncing, True
        try:
            yield
        finally:
            self._syncing = before

    def _sync_choosers(self) -> None:
        """Show the board's size and rules in the choosers, and the levels this size offers."""
        c = self.controls
        with self._syncing_choosers():
            size = _size_text(self.board.size)
            if size not in c["size"].options:
                c["size"].options = list(c["size"].options) + [size]
            c["size"].value = size
            if self.board.rules.name():
                c["rules"].value = self.board.rules.name()
            level = c["level"].value
            c["level"].options = self._level_options()
            c["level"].value = level if level in [v for _, v in c["level"].options] else 1

    def _sync_replay(self) -> None:
        """Keep the replay slider's range on the game's length, following the end when at the end."""
        slider = self.controls["replay"]
        total = len(self.board.turns)
        with self._syncing_choosers():
            at_end = slider.value >= slider.max
            slider.max = total
            if at_end or slider.value > total:
                slider.value = total

    def _sync_buttons(self) -> None:
        c = self.controls
        live = not self._replaying()
        c["end_turn"].disabled = not (live and self.board.chain)
        c["approach"].disabled = c["withdrawal"].disabled = not (live and self._pending)
        c["redo"].disabled = not self._redo

    def _relabel(self) -> None:
        """Put the current language's words on every control."""
        t, c = self._text, self.controls
        for name in self._buttons + self._toggles:
            c[name].description = t[name]
        for name in ("size", "rules", "computer", "level", "delay", "replay", "position"):
            c[name].description = t[name]
        with self._syncing_choosers():
            value = c["computer"].value
            c["computer"].options = [(t[side] if side in t else side, side) for side in COMPUTER_SIDES]
            c["computer"].value = value
            level = c["level"].value
            c["level"].options = self._level_options()
            c["level"].value = level
        self._moves_title.value = f"<b>{html.escape(t['moves'])}</b>"
        self._more.set_title(0, t["more"])

    def _reshape(self) -> None:
        """Size the figure to the board (and the large mode), then publish the points' pixel places."""
        w, h = self.board.size
        large = self.controls["large"].value
        scale = 1.5 if large else 1.0
        if large:
            self.ui.add_class("fanorona-large")
        else:
            self.ui.remove_class("fanorona-large")
        self.ui.layout.max_width = None if large else "920px"
        with self._lock:
            self.figure.set_size_inches(0.62 * w * scale + 0.7, 0.62 * h * scale + 0.75, forward=True)
            self._refresh()
            self.controls["points"].value = json.dumps(self.point_pixels())

    def _on_press(self, event) -> None:
        """The canvas callback: the nearest point to a left click, if near enough, is clicked."""
        if event.inaxes is not self.ax or event.xdata is None or event.button != 1:
            return
        col, row = round(event.xdata), round(event.ydata)
        w, h = self.board.size
        if 0 <= col < w and 0 <= row < h and (event.xdata - col) ** 2 + (event.ydata - row) ** 2 <= CLICK_RADIUS ** 2:
            self.click(self.board.geometry.names[row * w + col])


TARGET_CLICK_MS = 100


def bench(clicks: int = 40) -> None:
    """The ``widget`` section of ``python -m fanorona.bench``: how long a click takes to show.

    Each click selects or deselects a stone on the 9x5 start; its time includes rebuilding the
    picture, rendering it to pixels and encoding the PNG that ipympl sends to the browser.
    """
    import warnings
    from statistics import median

    from tqdm import tqdm

    with warnings.catch_warnings():   # ipympl 0.10 makes traitlets warn about its Toolbar
        warnings.filterwarnings("ignore", "Passing unrecognized arguments", DeprecationWarning)
        w = BoardWidget()
    rows = []
    for options in ({}, {"strings": True, "names": True, "strong": True}):
        w.show(**options)
        walls, cpus = [], []
        for _ in tqdm(range(clicks), desc="widget clicks", leave=False):
            wall, cpu = time.perf_counter(), time.process_time()
            w.click("d3")
            w.canvas.draw()
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        rows.append(("plain" if not options else "all overlays", median(walls), median(cpus)))
    w.close()
    print(f"widget: a click and its redraw on the 9x5 board, median of {clicks} clicks")
    for name, wall, cpu in rows:
        print(f"  {name:<13} {wall * 1000:6.1f} ms wall {cpu * 1000:6.1f} ms CPU")
    worst = max(cpu for _, _, cpu in rows)
    print(f"target < {TARGET_CLICK_MS} ms CPU (wall time on a shared machine includes waiting for a core): "
          f"{'met' if worst * 1000 < TARGET_CLICK_MS else 'MISSED'}")


__all__ = ["BoardWidget", "LABELS", "SIZES", "bench", "labels"]
