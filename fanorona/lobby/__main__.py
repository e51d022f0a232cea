"""The class lobby: students play each other online, the class watches, ranked games make a ladder.

python -m fanorona.lobby tokens class.sqlite alice bob carol --instructor teacher
python -m fanorona.lobby serve class.sqlite                  # on 127.0.0.1:8765
python -m fanorona.lobby serve class.sqlite --host 0.0.0.0 --port 9000
python -m fanorona.lobby ladder class.sqlite
python -m fanorona.lobby demo                                # two computers, a ranked game
python -m fanorona.lobby hub                                 # as a JupyterHub service

Tokens are printed once and kept only as hashes; a student types theirs into the lobby's page or
passes it to fanorona.lobby.LobbyClient.  The page is at http://HOST:PORT/.
"""

from __future__ import annotations

import argparse
import sys

from .store import Store


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m fanorona.lobby",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the lobby until Ctrl-C")
    serve.add_argument("db", help="the class's SQLite file (players, games, ratings)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8765, help="port to listen on (8765)")
    tokens = sub.add_parser("tokens", help="make a token for each student and print the list")
    tokens.add_argument("db", help="the class's SQLite file (created if new)")
    tokens.add_argument("students", nargs="*", help="the students' names")
    tokens.add_argument("--instructor", action="append", default=[], help="an instructor's name")
    ladder = sub.add_parser("ladder", help="print the class ladder")
    ladder.add_argument("db", help="the class's SQLite file")
    demo = sub.add_parser("demo", help="a lobby and two computer clients playing a ranked game")
    demo.add_argument("--db", default=":memory:", help="the SQLite file (default: in memory)")
    demo.add_argument("--size", default="5x5", help="board size (5x5)")
    demo.add_argument("--levels", default="2,3", help="the two computers' levels (2,3)")
    demo.add_argument("--games", type=int, default=2, help="ranked games to play (2)")
    sub.add_parser("hub", help="run as a JupyterHub service (see fanorona.lobby.hub)")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if args.command == "hub":
        from .hub import main as hub_main

        return hub_main()
    if args.command == "demo":
        from .demo import demo

        return demo(args.db, args.size, args.levels, args.games)
    store = Store(args.db)
    if args.command == "tokens":
        from .protocol import check_name

        for name, role in [(n, "student") for n in args.students] + [
            (n, "instructor") for n in args.instructor
        ]:
            try:
                check_name(name)
            except ValueError as e:
                print(e, file=sys.stderr)
                return 2
            print(f"{name:<20} {role:<11} {store.add_player(name, role)}")
        return 0
    if args.command == "ladder":
        from .ratings import ladder_text

        print(ladder_text(store.ladder()))
        return 0
    import uvicorn

    from .run import config, more_files, port_taken, steady_collection

    taken = port_taken(args.host, args.port)
    if taken:
        print(taken, file=sys.stderr)
        return 2
    more_files()
    server = uvicorn.Server(config(store, args.host, args.port))
    steady_collection()
    server.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
