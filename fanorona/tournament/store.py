"""The tournament's SQLite database: settings, players, pairings, games, results and reasons.

Each finished game is committed on its own, so a tournament killed at any moment keeps every
game it finished and resumes with the rest.  The file is made readable by its owner only: the
players run as other users and must not read or write the results.
"""

from __future__ import annotations

import csv
import json
import os
import sqlite3
from datetime import datetime, timezone

from ..engine.ratings import Result

#: What the database keeps of an entrant (``players.py``'s entries).
ENTRY_KEYS = ("name", "spec", "source", "origin", "program")
SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL,
    spec TEXT,                  -- a built-in player's spec, e.g. level2
    source TEXT,                -- a submission's file, as it was entered
    origin TEXT,                -- where it came from
    program TEXT                -- a program that speaks the player protocol, its bytes in base64
);
CREATE TABLE IF NOT EXISTS pairings (
    id INTEGER PRIMARY KEY, round INTEGER NOT NULL, a INTEGER NOT NULL REFERENCES players,
    b INTEGER REFERENCES players, opening TEXT NOT NULL      -- b NULL: a bye
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, pairing INTEGER NOT NULL REFERENCES pairings,
    white INTEGER NOT NULL REFERENCES players, black INTEGER NOT NULL REFERENCES players,
    seed INTEGER NOT NULL,
    finished TEXT,              -- when; NULL while the game is still to play
    winner TEXT,                -- white, black, or NULL for a draw
    white_points REAL, reason TEXT,
    forfeit TEXT,               -- the colour that forfeited, if one did
    record TEXT,                -- the whole game as fanorona.Game JSON
    turns INTEGER, white_seconds REAL, black_seconds REAL, white_slowest REAL, black_slowest REAL,
    white_output TEXT, black_output TEXT,
    isolation TEXT              -- how the players were isolated (fanorona.sandbox's line)
);
CREATE VIEW IF NOT EXISTS results AS
    SELECT g.id AS game, p.round AS round, w.name AS white, b.name AS black,
           g.white_points AS white_points,
           g.winner AS winner, g.reason AS reason, g.forfeit AS forfeit, g.turns AS turns
    FROM games g JOIN pairings p ON g.pairing = p.id
         JOIN players w ON g.white = w.id JOIN players b ON g.black = b.id
    WHERE g.finished IS NOT NULL ORDER BY g.id;
"""
CSV_COLUMNS = [
    "game",
    "round",
    "white",
    "black",
    "white_points",
    "winner",
    "reason",
    "forfeit",
    "turns",
    "isolation",
]


def _row_id(cursor: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just added (the stubs say ``int | None``: None is only before
    any INSERT)."""
    assert cursor.lastrowid is not None, "an INSERT sets lastrowid"
    return cursor.lastrowid


class Store:
    """The database of one tournament."""

    def __init__(self, path):
        self.path = os.fspath(path)
        if not os.path.exists(self.path):
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        os.chmod(self.path, 0o600)
        self.db = sqlite3.connect(self.path)
        try:  # a file cut short or not SQLite fails here, not in the middle of a night
            damage = "; ".join(str(row[0]) for row in self.db.execute("PRAGMA quick_check"))
            if damage == "ok":
                self.db.executescript(SCHEMA)
                columns = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
                if "isolation" not in columns:  # a database from before it was recorded
                    self.db.execute("ALTER TABLE games ADD COLUMN isolation TEXT")
                columns = {row[1] for row in self.db.execute("PRAGMA table_info(players)")}
                if "program" not in columns:  # a database from before programs could enter
                    self.db.execute("ALTER TABLE players ADD COLUMN program TEXT")
        except sqlite3.DatabaseError as e:
            damage = str(e)
        if damage != "ok":
            self.db.close()
            raise ValueError(
                f"{self.path}: not a tournament database that can be read (SQLite says:"
                f" {damage[:200]})"
            )

    def close(self) -> None:
        self.db.close()

    # -- settings and players ----------------------------------------------------------------------

    def settings(self) -> dict:
        found = {}
        for key, value in self.db.execute("SELECT key, value FROM settings"):
            try:
                found[key] = json.loads(value)
            except (ValueError, TypeError):
                raise ValueError(
                    f"{self.path}: the setting {key!r} is not JSON ({str(value)[:40]!r})"
                ) from None
        return found

    def save_settings(self, settings: dict) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO settings VALUES (?, ?)",
                [(k, json.dumps(v)) for k, v in settings.items()],
            )

    def add_player(self, entry: dict) -> int:
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO players (name, spec, source, origin, program) VALUES (?, ?, ?, ?, ?)",
                tuple(entry.get(key) for key in ENTRY_KEYS),
            )
        return _row_id(cursor)

    def players(self) -> dict[int, dict]:
        rows = self.db.execute(f"SELECT id, {', '.join(ENTRY_KEYS)} FROM players ORDER BY id")
        return {i: {k: v for k, v in zip(ENTRY_KEYS, row) if v is not None} for i, *row in rows}

    # -- pairings and games ------------------------------------------------------------------------

    def add_pairing(
        self, round_: int, a: int, b: int | None, opening, games: int, seed: int
    ) -> None:
        """A pairing and its games, colours alternating (``a`` White first); a bye has none."""
        with self.db:
            pairing = _row_id(
                self.db.execute(
                    "INSERT INTO pairings (round, a, b, opening) VALUES (?, ?, ?, ?)",
                    (round_, a, b, json.dumps(list(opening))),
                )
            )
            for n in range(games if b is not None else 0):
                white, black = (a, b) if n % 2 == 0 else (b, a)
                self.db.execute(
                    "INSERT INTO games (pairing, white, black, seed) VALUES (?, ?, ?, ?)",
                    (pairing, white, black, seed * 7919 + pairing * 101 + n),
                )

    def rounds(self) -> int:
        return self.db.execute("SELECT COALESCE(MAX(round) + 1, 0) FROM pairings").fetchone()[0]

    def pending(self) -> list[tuple]:
        """Games still to play: (id, white, black, seed, opening), in order."""
        rows = self.db.execute(
            "SELECT g.id, g.white, g.black, g.seed, p.opening FROM games g "
            "JOIN pairings p ON g.pairing = p.id WHERE g.finished IS NULL ORDER BY g.id"
        )
        return [(i, w, b, s, json.loads(o)) for i, w, b, s, o in rows]

    def record(self, result: dict) -> None:
        """Keep a finished game (``play.play``'s result) for good."""
        points = {"white": 1.0, "black": 0.0, None: 0.5}[result["winner"]]
        with self.db:
            self.db.execute(
                "UPDATE games SET finished = ?, winner = ?, white_points = ?, reason = ?, forfeit ="
                " ?, record = ?, turns = ?, white_seconds = ?, black_seconds = ?, white_slowest ="
                " ?, black_slowest = ?, white_output = ?, black_output = ?, isolation = ?"
                " WHERE id = ? AND finished IS NULL",
                (
                    datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    result["winner"],
                    points,
                    result["reason"],
                    result["forfeit"],
                    result["record"],
                    result["turns"],
                    result["seconds"]["white"],
                    result["seconds"]["black"],
                    result["slowest"]["white"],
                    result["slowest"]["black"],
                    result["output"]["white"],
                    result["output"]["black"],
                    result.get("isolation"),
                    result["game"],
                ),
            )

    def isolations(self) -> list[str]:
        """How the finished games' players were isolated, each way once."""
        rows = self.db.execute(
            "SELECT DISTINCT coalesce(isolation, 'not recorded') FROM games"
            " WHERE finished IS NOT NULL ORDER BY 1"
        )
        return [row[0] for row in rows]

    def results(self) -> list[Result]:
        rows = self.db.execute(
            "SELECT w.name, b.name, g.white_points, g.pairing FROM games g "
            "JOIN players w ON g.white = w.id JOIN players b ON g.black = b.id "
            "WHERE g.finished IS NOT NULL ORDER BY g.id"
        )
        return [Result(*row) for row in rows]

    def standings(self) -> dict[int, float]:
        """Points so far by player id, a bye counting one game's win."""
        points = dict.fromkeys(self.players(), 0.0)
        for white, black, p in self.db.execute(
            "SELECT white, black, white_points FROM games WHERE finished IS NOT NULL"
        ):
            points[white] += p
            points[black] += 1 - p
        for (a,) in self.db.execute("SELECT a FROM pairings WHERE b IS NULL"):
            points[a] += 1
        return points

    def met(self) -> set:
        return {frozenset((a, b)) for a, b in self.db.execute("SELECT a, b FROM pairings")}

    def game_record(self, game: int) -> str:
        row = self.db.execute("SELECT record FROM games WHERE id = ?", (game,)).fetchone()
        if row is None or row[0] is None:
            raise KeyError(f"there is no finished game {game} in {self.path}")
        return row[0]

    def export_csv(self, path) -> int:
        """Write the results view to ``path``; returns the number of games."""
        columns = ", ".join(f"r.{c}" for c in CSV_COLUMNS[:-1])
        rows = self.db.execute(
            f"SELECT {columns}, g.isolation FROM results r JOIN games g ON g.id = r.game"
        ).fetchall()
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(CSV_COLUMNS)
            writer.writerows(rows)
        return len(rows)
