"""The lobby's SQLite file: players with their token's hash and rating, games as records in
``fanorona.Game``'s JSON format.

The SQL is plain (standard types, ``?`` parameters, no SQLite-only functions), so the same
statements serve PostgreSQL through a DB-API driver once its parameter style is swapped in.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
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
)
ROLES = ("student", "instructor")


def token_hash(token: str) -> str:
    """What the file keeps of a token: its SHA-256, so a copied file logs nobody in."""
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """One lobby's players and games (one connection, used from the server's event loop)."""

    def __init__(self, path: str | Path = ":memory:"):
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        if str(path) != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        for statement in SCHEMA:
            self.db.execute(statement)

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

    def names(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT name FROM players ORDER BY name")]

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
            "INSERT INTO games (white, black, size, rules, clock, ranked, finished, record)"
            " VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
            (game.white, game.black, size, rules, clock, int(ranked), game.to_json()),
        )
        return int(cursor.lastrowid or 0)

    def save_game(self, number: int, game: Game) -> None:
        self.db.execute(
            "UPDATE games SET record = ?, finished = ? WHERE id = ?",
            (game.to_json(), int(game.outcome is not None), number),
        )

    def record(self, number: int) -> Game | None:
        """A game's record, replayed (and so checked) by ``Game.from_json``."""
        row = self.db.execute("SELECT record FROM games WHERE id = ?", (number,)).fetchone()
        return Game.from_json(row[0]) if row else None
