"""Tournament night: students' players and the built-in levels in a rated tournament.

python -m fanorona.tournament run night.sqlite submitted/ --levels 1,2,3 --time 1
python -m fanorona.tournament run night.sqlite          # resumes a killed tournament
python -m fanorona.tournament table night.sqlite --csv night.csv --plot night.png
python -m fanorona.tournament check my_player.py         # before you submit
python -m fanorona.tournament template my_player.py      # a player to start from
"""

from __future__ import annotations

import argparse
import os
import sys

from ..engine.arena import _size
from ..rules import PRESETS


def _anchor(text: str):
    name, _, value = text.partition("=")
    try:
        return name.strip(), float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"an anchor is written NAME=RATING, like level1=0; got {text!r}"
        ) from None


def _levels(text: str) -> list[str]:
    try:
        return [f"level{int(n)}" for n in text.split(",") if n.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"levels are numbers separated by commas, like 1,2,3; got {text!r}"
        ) from None


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m fanorona.tournament",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="play a tournament (or resume one) and print its table")
    run.add_argument("db", help="the tournament's SQLite file (created, or resumed if it exists)")
    run.add_argument(
        "submissions",
        nargs="*",
        help=(
            "player files (.py, .ipynb, or an executable program that speaks the player"
            " protocol) or folders of them, e.g. nbgrader's submitted/ (one player per student"
            " folder)"
        ),
    )
    run.add_argument("--assignment", help="in nbgrader folders, the assignment holding the player")
    run.add_argument(
        "--allow-weak-isolation",
        action="store_true",
        help="where bubblewrap cannot isolate the players, run them with rlimits only (as does"
        " FANORONA_ALLOW_WEAK_ISOLATION=1); every result then says so",
    )
    run.add_argument(
        "--levels", type=_levels, default=[], help="built-in levels to enter, e.g. 1,2,3"
    )
    run.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="SPEC",
        help="a built-in player to enter, e.g. alphabeta:depth=3 (repeatable)",
    )
    run.add_argument("--schedule", choices=("roundrobin", "swiss"), default="roundrobin")
    run.add_argument("--rounds", type=int, help="rounds of a Swiss tournament")
    run.add_argument(
        "--games-per-pairing",
        type=int,
        default=2,
        help="games a pairing plays, colours alternating (default 2)",
    )
    run.add_argument(
        "--size", type=_size, default=(9, 5), help="board size, e.g. 9x5 (default), 5x5"
    )
    run.add_argument("--rules", choices=PRESETS, default="standard")
    run.add_argument(
        "--max-turns",
        type=int,
        default=200,
        help="turn cap; a game reaching it is decided on stones",
    )
    run.add_argument(
        "--time",
        type=float,
        default=1.0,
        help="seconds a turn may take, wall clock and CPU (default 1)",
    )
    run.add_argument(
        "--memory", type=int, default=512, help="megabytes a player's process may use (default 512)"
    )
    run.add_argument(
        "--opening-plies",
        type=int,
        default=2,
        help="random legal turns each pairing's opening plays (default 2)",
    )
    run.add_argument(
        "--seed", type=int, help="makes the schedule, the openings and seeded players replay"
    )
    run.add_argument(
        "--workers",
        type=int,
        help="local Dask workers (default: the machine's cores); 0 plays here, one game at a time",
    )
    run.add_argument(
        "--scheduler", metavar="ADDRESS", help="an existing Dask scheduler, e.g. tls://host:8786"
    )
    run.add_argument(
        "--no-dashboard", action="store_true", help="no Dask dashboard for the local cluster"
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    _table_options(run)
    table = sub.add_parser(
        "table", help="print a tournament's ratings and crosstable from its database"
    )
    table.add_argument("db")
    _table_options(table)
    check = sub.add_parser(
        "check", help="play a few games against level 1 and report illegal turns, crashes, time"
    )
    check.add_argument("file", help="your player's .py file")
    check.add_argument("--games", type=int, default=4)
    check.add_argument(
        "--time", type=float, default=1.0, help="seconds a turn may take (default 1)"
    )
    template = sub.add_parser("template", help="write a player to start from")
    template.add_argument("file")
    return p


def _table_options(p) -> None:
    p.add_argument(
        "--anchor",
        type=_anchor,
        action="append",
        metavar="NAME=RATING",
        help="fix a player's rating (default level1=0; repeatable, e.g. last year's levels)",
    )
    p.add_argument(
        "--anchors-from",
        metavar="DB",
        help=(
            "fix the built-in players at their ratings in an earlier "
            "tournament (last year's), so that ratings mean the same from year to year"
        ),
    )
    p.add_argument(
        "--samples", type=int, default=200, help="bootstrap samples for the intervals (default 200)"
    )
    p.add_argument("--csv", metavar="FILE", help="also write every game's result to FILE")
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the ratings with their intervals to FILE (.png, .svg)",
    )


def main(argv=None) -> int:
    p = parser()
    args = p.parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except (ValueError, OSError, KeyError) as e:
        p.error(str(e).strip("'\""))


def _run(args) -> int:
    from ..sandbox import IsolationUnavailable, Sandbox, require_isolation
    from ..sandbox.policy import ALLOW_VARIABLE
    from .players import builtin, from_file, readable_by_others, submissions
    from .run import Tournament, dask_client
    from .sandbox import Limits

    try:  # before anything is read or written: no player runs without isolation unless allowed
        isolation = require_isolation(args.allow_weak_isolation)
    except IsolationUnavailable as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.allow_weak_isolation:
        os.environ[ALLOW_VARIABLE] = "1"  # for the sandboxes of this run and its workers
    print(f"isolation: {isolation}", file=sys.stderr)
    if args.scheduler is not None:  # a bad address is refused before anything is written
        from .cluster import check_scheduler

        check_scheduler(args.scheduler)
    entries = [builtin(spec) for spec in args.levels + args.player]
    left_out: list[str] = []
    for path in args.submissions:
        if os.path.isdir(path):
            entries += submissions(path, args.assignment, left_out)
        else:
            entries.append(from_file(path))
        if not Sandbox().namespaces and readable_by_others(path):
            print(
                f"warning: {path} is readable by every user, so a player could read another's file;"
                f" run `chmod -R go-rwx {path}` first",
                file=sys.stderr,
            )
    for sentence in left_out:
        print(f"warning: {sentence}", file=sys.stderr)
    if entries:
        tournament = Tournament.create(
            args.db,
            entries,
            args.schedule,
            args.rounds,
            args.games_per_pairing,
            args.size,
            args.rules,
            args.max_turns,
            Limits(args.time, args.memory),
            args.opening_plies,
            args.seed,
        )
    elif os.path.exists(args.db):
        tournament = Tournament(args.db)
    else:
        raise ValueError("name the players: submissions, --levels or --player")
    if args.workers == 0 and args.scheduler is None:
        tournament.play(None, progress=not args.quiet)
    else:
        with dask_client(args.workers, args.scheduler, dashboard=not args.no_dashboard) as client:
            if "dashboard" in client.scheduler_info().get("services", {}):
                print(f"Dask dashboard: {client.dashboard_link}", file=sys.stderr)
            tournament.play(client, progress=not args.quiet)
    return _print_table(tournament, args)


def _table(args) -> int:
    from .run import Tournament

    if not os.path.exists(args.db):
        raise ValueError(f"{args.db}: no such tournament database")
    return _print_table(Tournament(args.db), args)


def _print_table(tournament, args) -> int:
    anchors = None
    if args.anchors_from:
        from .run import Tournament

        if not os.path.exists(args.anchors_from):
            raise ValueError(f"{args.anchors_from}: no such tournament database")
        earlier = Tournament(args.anchors_from)
        anchors, differ = earlier.builtin_ratings(), earlier.differences(tournament)
        earlier.close()
        if differ:
            print(
                f"warning: {args.anchors_from} was played with other {', '.join(differ)}: its"
                " levels' ratings may not hold here",
                file=sys.stderr,
            )
    if args.anchor:
        anchors = (anchors or {}) | dict(args.anchor)
    print(tournament.table(anchors, args.samples))
    if args.csv:
        print(f"{tournament.export_csv(args.csv)} games written to {args.csv}")
    if args.plot:
        ax = tournament.ratings(anchors, args.samples).plot()
        ax.figure.savefig(args.plot, bbox_inches="tight")
        print(f"ratings plotted in {args.plot}")
    tournament.close()
    return 0


def _check(args) -> int:
    from .check import check_player
    from .sandbox import Limits

    report = check_player(args.file, args.games, limits=Limits(turn_seconds=args.time))
    print(report)
    return 0 if report.ok else 1


def _template(args) -> int:
    from .players import TEMPLATE

    if os.path.exists(args.file):
        raise ValueError(f"{args.file} exists already; choose another name")
    with open(args.file, "w", encoding="utf-8") as f:
        f.write(TEMPLATE)
    print(
        f"wrote {args.file}: improve choose_turn, then: python -m fanorona.tournament check"
        f" {args.file}"
    )
    return 0


COMMANDS = {"run": _run, "table": _table, "check": _check, "template": _template}

if __name__ == "__main__":
    sys.exit(main())
