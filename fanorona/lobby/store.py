"""The lobby's SQLite file: players with their token's hash and rating, games as records in
``fanorona.Game``'s JSON format.

The SQL is plain (standard types, ``?`` parameters, no SQLite-only functions), so the same
statements serve PostgreSQL through a DB-API driver once its parameter style is swapped in.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import time
from pathlib import Path

from ..game import Game

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS players ("
    " name VARCHAR(40) PRIMARY KEY, token_hash CHAR(64) NOT NULL UNIQUE,"
    " role VARCHAR(12) NOT NULL, mu DOUBLE PRECISION, sigma DOUBLE PRECISION,"
    " games INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS games ("
    " id INTEGER PRIMARY KEY, white VARCHAR(40) NOT NULL, black VARCHAR(40) NOT NULL,"
    " size VARCHAR(8) NOT NULL, rules VARCHAR(20) NOT NULL, clock VARCHAR(10) NOT NULL,"
    " ranked INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0, record TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS beats (id INTEGER PRIMARY KEY, at DOUBLE PRECISION NOT NULL)",
)
#: Columns added since the first release, with their types: an older file gains them on opening.
LATER_COLUMNS = (
    ("clocks", "VARCHAR(80)"),  # JSON: each side's seconds left at the last clock press
    ("pressed_at", "DOUBLE PRECISION"),  # wall time (Unix seconds) of that press
    ("ended_at", "DOUBLE PRECISION"),
    ("rated", "INTEGER NOT NULL DEFAULT 0"),
)
ROLES = ("student", "instructor")


def token_hash(token: str) -> str:
    """What the file keeps of a token: its SHA-256, so a copied file logs nobody in."""
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """One lobby's players and games (one connection, used from the server's event loop)."""

    def __init__(self, path: str | Path = ":memory:"):
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        if str(path) != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        for statement in SCHEMA:
            self.db.execute(statement)
        for column, kind in LATER_COLUMNS:
            try:
                self.db.execute(f"SELECT {column} FROM games WHERE 1 = 0")
            except sqlite3.OperationalError:
                self.db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")

    def close(self) -> None:
        self.db.close()

    # -- players -------------------------------------------------------------------------------

    def add_player(self, name: str, role: str = "student") -> str:
        """Make ``name`` a player (or give them a new token) and return the token, shown once."""
        if role not in ROLES:
            raise ValueError(f"a role is one of {', '.join(ROLES)}; got {role!r}")
        token = secrets.token_urlsafe(18)
        with self.db:
            updated = self.db.execute(
                "UPDATE players SET token_hash = ?, role = ? WHERE name = ?",
                (token_hash(token), role, name),
            ).rowcount
            if not updated:
                self.db.execute(
                    "INSERT INTO players (name, token_hash, role, games) VALUES (?, ?, ?, 0)",
                    (name, token_hash(token), role),
                )
        return token

    def who(self, token: str) -> tuple[str, str] | None:
        """The name and role a token belongs to, or None."""
        row = self.db.execute(
            "SELECT name, role FROM players WHERE token_hash = ?", (token_hash(token),)
        ).fetchone()
        return (row[0], row[1]) if row else None

    def ensure_player(self, name: str, role: str) -> None:
        """A player known by someone else's word (the hub's): kept without a usable token."""
        if self.db.execute("SELECT 1 FROM players WHERE name = ?", (name,)).fetchone() is None:
            self.db.execute(
                "INSERT INTO players (name, token_hash, role, games) VALUES (?, ?, ?, 0)",
                (name, "hub:" + secrets.token_hex(28), role),
            )

    def has_player(self, name: str) -> bool:
        """Whether ``name`` is a player of this class (one row looked up, not the whole class)."""
        return (
            self.db.execute("SELECT 1 FROM players WHERE name = ?", (name,)).fetchone() is not None
        )

    def rating(self, name: str) -> tuple[float, float] | None:
        row = self.db.execute("SELECT mu, sigma FROM players WHERE name = ?", (name,)).fetchone()
        return None if row is None or row[0] is None else (row[0], row[1])

    def set_rating(self, name: str, mu: float, sigma: float) -> None:
        self.db.execute(
            "UPDATE players SET mu = ?, sigma = ?, games = games + 1 WHERE name = ?",
            (mu, sigma, name),
        )

    def ladder(self) -> list[tuple[str, float, float, int]]:
        """Rated players, best first by their rating less three deviations."""
        rows = self.db.execute(
            "SELECT name, mu, sigma, games FROM players WHERE mu IS NOT NULL"
        ).fetchall()
        return sorted(rows, key=lambda r: (-(r[1] - 3 * r[2]), r[0]))

    # -- games ---------------------------------------------------------------------------------

    def new_game(self, game: Game, size: str, rules: str, clock: str, ranked: bool) -> int:
        cursor = self.db.execute(
            "INSERT INTO games (white, black, size, rules, clock, ranked, finished, record, rated)"
            " VALUES (?, ?, ?, ?, ?, ?, 0, ?, 0)",
            (game.white, game.black, size, rules, clock, int(ranked), game.to_json()),
        )
        return int(cursor.lastrowid or 0)

    def save_game(
        self, number: int, game: Game, clocks: dict, pressed_at: float | None, rated=False
    ) -> None:
        """Keep a game as it is now: its record, each side's time at the last clock press and
        that press's wall time (so a restarted lobby charges nothing for its own downtime), and,
        once it is over, when it ended and whether it was rated."""
        over = game.outcome is not None
        ended = time.time() if over else None
        self.db.execute(
            "UPDATE games SET record = ?, finished = ?, clocks = ?, pressed_at = ?, ended_at = ?,"
            " rated = ? WHERE id = ?",
            (
                game.to_json(), int(over), json.dumps(clocks), pressed_at,
                ended, int(rated), number,
            ),
        )  # fmt: skip

    def live_games(self) -> list[tuple]:
        """The games not finished, as (number, size, rules, clock, ranked, record, clocks,
        pressed_at): what a restarted lobby plays on from."""
        rows = self.db.execute(
            "SELECT id, size, rules, clock, ranked, record, clocks, pressed_at FROM games"
            " WHERE finished = 0 ORDER BY id"
        ).fetchall()
        return [
            (n, size, rules, clock, bool(ranked), Game.from_json(record),
             json.loads(clocks) if clocks else None, pressed_at)
            for n, size, rules, clock, ranked, record, clocks, pressed_at in rows
        ]  # fmt: skip

    def rated_between(self, a: str, b: str, since: float) -> int:
        """How many rated games ``a`` and ``b`` played each other that ended after ``since``."""
        row = self.db.execute(
            "SELECT COUNT(*) FROM games WHERE rated = 1 AND ended_at > ?"
            " AND ((white = ? AND black = ?) OR (white = ? AND black = ?))",
            (since, a, b, b, a),
        ).fetchone()
        return int(row[0])

    def beat(self, at: float) -> None:
        """The lobby is alive at wall time ``at``: after a crash, the last beat says when it
        stopped."""
        if not self.db.execute("UPDATE beats SET at = ? WHERE id = 1", (at,)).rowcount:
            self.db.execute("INSERT INTO beats (id, at) VALUES (1, ?)", (at,))

    def last_beat(self) -> float | None:
        row = self.db.execute("SELECT at FROM beats WHERE id = 1").fetchone()
        return None if row is None else float(row[0])

    def record(self, number: int) -> Game | None:
        """A game's record, replayed (and so checked) by ``Game.from_json``."""
        row = self.db.execute("SELECT record FROM games WHERE id = ?", (number,)).fetchone()
        return Game.from_json(row[0]) if row else None
