"""A tournament: its entrants and settings in a database, its games played on Dask, its ratings.

``Tournament.create(path, entries, ...)`` writes the schedule; ``play()`` plays whatever is still
to play (so running it again on a killed tournament resumes it); ``ratings()``, ``crosstable()`` and
``table()`` read the database alone, so they come out the same however often they are made.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import sys
from collections.abc import Iterable

from ..engine.ratings import DEFAULT_ANCHORS, crosstable, rate
from ..game import Game
from ..rules import Rules
from .play import play
from .sandbox import Limits
from .schedule import OpeningBook, round_robin, swiss_round
from .store import Store

SCHEDULES = ("roundrobin", "swiss")


class Tournament:
    """One tournament's database, opened; ``create`` starts one, ``Tournament(path)`` reopens it."""

    def __init__(self, path):
        if not os.path.exists(path):
            raise ValueError(f"{path}: no such tournament database")
        self.store = Store(path)
        self.settings = self.store.settings()
        if not self.settings:
            self.store.close()
            raise ValueError(f"{path}: no tournament in this database; create one first")

    @classmethod
    def create(
        cls,
        path,
        entries: list[dict],
        schedule: str = "roundrobin",
        rounds: int | None = None,
        games_per_pairing: int = 2,
        size=(9, 5),
        rules="standard",
        max_turns: int = 200,
        limits: Limits | None = None,
        opening_plies: int = 2,
        seed: int | None = None,
    ) -> Tournament:
        """Enter the players and write the schedule, or reopen the same tournament to resume it."""
        rules = Rules.named(rules) if isinstance(rules, str) else rules
        limits = limits or Limits()
        if schedule not in SCHEDULES:
            raise ValueError(f"the schedule is one of {', '.join(SCHEDULES)}; got {schedule!r}")
        if schedule == "swiss" and (not isinstance(rounds, int) or rounds < 1):
            raise ValueError(
                f"a Swiss tournament needs a number of rounds, at least 1; got {rounds!r}"
            )
        if (
            isinstance(games_per_pairing, bool)
            or not isinstance(games_per_pairing, int)
            or games_per_pairing < 1
        ):
            raise ValueError(
                "games_per_pairing is a whole number, at least 1 (even is fair); got"
                f" {games_per_pairing!r}"
            )
        names = [e["name"] for e in entries]
        if len(entries) < 2 or len(set(names)) != len(names):
            repeated = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(
                f"a tournament needs two players or more with different names; repeated: {repeated}"
                if repeated
                else "a tournament needs two players or more"
            )
        store = Store(path)
        old = store.settings()
        if seed is None:  # drawn once; the same command resumes the same tournament
            seed = old.get("seed", random.SystemRandom().randrange(10**6))
        settings = {
            "schedule": schedule,
            "rounds": rounds if schedule == "swiss" else 1,
            "games_per_pairing": games_per_pairing,
            "size": list(size),
            "rules": dataclasses.asdict(rules),
            "max_turns": max_turns,
            "limits": dataclasses.asdict(limits),
            "opening_plies": opening_plies,
            "seed": seed,
            "players": names,
        }
        if not old and store.players():
            store.close()
            raise ValueError(
                f"{path} holds a tournament whose creation was cut short; remove the file and start"
                " again"
            )
        if old:
            if old != settings:
                changed = sorted(k for k in settings if old.get(k) != settings[k])
                store.close()
                raise ValueError(
                    f"{path} holds another tournament (it differs in {', '.join(changed)}); "
                    "resume it with the same settings, or choose a new file"
                )
            store.close()
            return cls(path)
        store.close()
        OpeningBook(
            size, rules, opening_plies, seed
        )  # a bad number of plies fails before anything is written
        store = Store(path)
        ids = [store.add_player(e) for e in entries]
        if schedule == "roundrobin":
            book = OpeningBook(size, rules, opening_plies, seed)
            for p in round_robin(ids, book, seed):
                store.add_pairing(p.round, p.a, p.b, p.opening, games_per_pairing, seed)
        store.save_settings(settings)
        store.close()
        return cls(path)

    def close(self) -> None:
        self.store.close()

    # -- playing -----------------------------------------------------------------------------------

    def _job(self, game, white, black, seed, opening, players) -> dict:
        s = self.settings
        return {
            "game": game,
            "white": players[white],
            "black": players[black],
            "size": s["size"],
            "rules": s["rules"],
            "opening": opening,
            "max_turns": s["max_turns"],
            "limits": s["limits"],
            "seed": seed,
        }

    def play(self, client=None, progress: bool = True) -> int:
        """Play every game still to play (on the Dask ``client``, or one by one here if None) and
        keep each as it finishes; returns how many were played."""
        played = 0
        while True:
            pending = self.store.pending()
            if not pending and not self._pair_next_round():
                return played
            pending = pending or self.store.pending()
            played += self._play_games(pending, client, progress)

    def _pair_next_round(self) -> bool:
        """For a Swiss tournament, pair the next round from the standings; False when all are
        paired."""
        s = self.settings
        next_round = self.store.rounds()
        if s["schedule"] != "swiss" or next_round >= s["rounds"]:
            return False
        standings = sorted(self.store.standings().items())  # ties in the order of entry
        book = OpeningBook(
            s["size"], Rules(**s["rules"]), s["opening_plies"], s["seed"] * 1009 + next_round
        )
        pairings, bye = swiss_round(next_round, standings, self.store.met(), book)
        for p in pairings:
            self.store.add_pairing(p.round, p.a, p.b, p.opening, s["games_per_pairing"], s["seed"])
        if bye is not None:
            self.store.add_pairing(next_round, bye, None, (), 0, s["seed"])
        return True

    def _prepare_builtins(self, players: dict, progress: bool) -> None:
        """Make the built-in levels' endgame tables here once (cached), so no game waits for
        them."""
        from .host import builtin_player

        s = self.settings
        for entry in players.values():
            if "spec" in entry:
                builtin_player(
                    entry["spec"],
                    0,
                    s["size"],
                    Rules(**s["rules"]),
                    s["limits"]["turn_seconds"],
                    progress,
                )

    def _play_games(self, pending, client, progress) -> int:
        from tqdm.auto import tqdm

        players = self.store.players()
        self._prepare_builtins(players, progress)
        jobs = [
            self._job(game, white, black, seed, opening, players)
            for game, white, black, seed, opening in pending
        ]
        bar = tqdm(
            total=len(jobs), desc="games", unit="game", disable=not progress, file=sys.stderr
        )
        try:
            results: Iterable[dict]
            if client is None:
                results = map(play, jobs)
            else:
                from dask.distributed import as_completed

                results = (
                    f.result()
                    for f in as_completed([client.submit(play, job, pure=False) for job in jobs])
                )
            for result in results:
                self.store.record(result)
                bar.update()
        finally:
            bar.close()
        return len(jobs)

    # -- reading the results -----------------------------------------------------------------------

    def ratings(self, anchors: dict | None = None, samples: int = 200):
        """Bradley-Terry ratings of the finished games (see ``ratings.rate``), seeded by the
        tournament."""
        return rate(
            self.store.results(),
            DEFAULT_ANCHORS if anchors is None else anchors,
            samples,
            self.settings["seed"],
        )

    def crosstable(self, ratings=None) -> str:
        ratings = ratings or self.ratings(samples=0)
        return crosstable(self.store.results(), [r.name for r in ratings.rows])

    def forfeits(self) -> list[tuple[int, str, str]]:
        """(game, player, why) for every game a player forfeited."""
        rows = self.store.db.execute(
            "SELECT game, CASE forfeit WHEN 'white' THEN white ELSE black END, reason "
            "FROM results WHERE forfeit IS NOT NULL"
        )
        return [(g, name, reason.split(": ", 1)[1]) for g, name, reason in rows]

    def table(self, anchors: dict | None = None, samples: int = 200) -> str:
        """What ``python -m fanorona.tournament`` prints: the ratings, the crosstable, the
        forfeits."""
        s = self.settings
        ratings = self.ratings(anchors, samples)
        w, h = s["size"]
        finished = len(self.store.results())
        lines = [
            (
                f"{s['schedule']} tournament of {len(s['players'])} players on {w}x{h},"
                f" {Rules(**s['rules']).name() or 'custom'} rules, seed {s['seed']}: {finished}"
                f" games finished, {len(self.store.pending())} to play"
            ),
            *(f"isolation: {line}" for line in self.store.isolations()),
            "",
            ratings.table(),
            "",
            "Crosstable (points/games):",
            self.crosstable(ratings),
        ]
        forfeits = self.forfeits()
        if forfeits:
            lines += ["", "Forfeits:"] + [
                f"  game {g}: {name} lost: {why}" for g, name, why in forfeits
            ]
        return "\n".join(lines)

    def builtin_ratings(self) -> dict[str, float]:
        """The built-in players' fitted ratings, to fix them as anchors in a later tournament."""
        builtin = {p["name"] for p in self.store.players().values() if "spec" in p}
        return {r.name: round(r.elo, 1) for r in self.ratings(samples=0).rows if r.name in builtin}

    def differences(self, other: Tournament) -> list[str]:
        """The settings that make the two tournaments' levels play differently."""
        keys = ("size", "rules", "max_turns", "limits")
        return [k.replace("_", " ") for k in keys if self.settings[k] != other.settings[k]]

    def game(self, number: int) -> Game:
        """A finished game's record, replayed and checked (ready for ``BoardWidget``)."""
        return Game.from_json(self.store.game_record(number))

    def export_csv(self, path) -> int:
        return self.store.export_csv(path)


@contextlib.contextmanager
def dask_client(workers: int | None = None, scheduler: str | None = None, dashboard: bool = True):
    """A Dask client: on ``scheduler`` (an address; TLS settings come from Dask's configuration) or
    on a local cluster of ``workers`` processes (the machine's cores by default), listening on
    127.0.0.1 only, its dashboard too (or no HTTP server at all)."""
    from dask.distributed import Client, LocalCluster

    from .cluster import check_scheduler, cluster_without_http

    if scheduler is not None:
        check_scheduler(scheduler)
        with Client(scheduler, timeout="10s") as client:
            yield client
        return
    workers = workers or os.cpu_count() or 1
    if not dashboard:
        with cluster_without_http(workers) as quiet, Client(quiet) as client:
            yield client
        return
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            scheduler_port=0,
            dashboard_address="127.0.0.1:0",
            worker_dashboard_address="127.0.0.1:0",
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client
