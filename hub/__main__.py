"""``python -m hub`` (``make hub``): the trial course hub on 127.0.0.1 with a few demo students;
``python -m hub accounts CLASS.csv --instructor NAME`` (as root): a real class's Unix accounts
and folders (``hub.accounts``); ``python -m hub class`` (as root): the real class's hub.

The trial prepares the state folder (``build/hub``: homes, the exchange, the course folder), starts
JupyterHub with ``hub/jupyterhub_config.py``, makes the demo students and the instructor through
the REST API, imports the class list into the gradebook, prints how to log in, and serves until
Ctrl-C (which stops every server it started).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from .api import HubAPI
from .course import (
    COURSE,
    GRADER,
    PORTS,
    STUDENTS,
    Layout,
    ports,
    prepare,
    run_as,
    write_class_list,
)
from .running import new_token, running_hub

TRIAL_WARNING = (
    "THE TRIAL HUB: every student's server runs as this one Unix user, so students are NOT "
    "separated from each other or from the solutions.  For a real class: "
    "docs/how-to/deploy-a-real-class.md."
)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["accounts"]:
        return accounts(argv[1:])
    if argv[:1] == ["class"]:
        return real_class(argv[1:])
    return trial(argv)


def accounts(argv) -> int:
    """Make a real class's accounts and folders from a class list (as root)."""
    from .accounts import set_up

    parser = argparse.ArgumentParser(
        prog="python -m hub accounts",
        description="A Unix account per student of a class list (nbgrader's CSV: id,"
        "first_name,last_name,email), and the class's folders; nobody is removed.",
    )
    parser.add_argument("class_list", type=Path, help="the class list (CSV with a column id)")
    parser.add_argument(
        "--instructor", action="append", default=[], help="an instructor's account (repeat)"
    )
    args = parser.parse_args(argv)
    os.environ["FANORONA_HUB_ACCOUNTS"] = "1"
    try:
        for line in set_up(Layout.from_environment(), args.class_list, args.instructor):
            print(line)
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def real_class(argv) -> int:
    """Serve the real class made by ``accounts`` until Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m hub class", description="The real class's hub (after accounts)."
    )
    parser.parse_args(argv)
    os.environ["FANORONA_HUB_ACCOUNTS"] = "1"
    layout = Layout.from_environment()
    if not (layout.state / "etc" / "class.json").exists():
        print(
            "error: no class here yet: run `python -m hub accounts CLASS.csv` first",
            file=sys.stderr,
        )
        return 1
    scheme = "https" if os.environ.get("FANORONA_HUB_SSL_CERT") else "http"
    url = f"{scheme}://{os.environ.get('FANORONA_HUB_IP', '127.0.0.1')}:{ports()['port']}"
    return until_stopped(
        running_hub(layout, ports(), layout.private / "hub.log"),
        lambda: print(
            f"The class's hub is at {url}/ (its log: {layout.private / 'hub.log'}).\n"
            f"The formgrader, in its own tab: {url}/services/{COURSE}/formgrader\n"
            "Ctrl-C stops the hub and every server it started."
        ),
    )


def until_stopped(hub, started) -> int:
    """Run the ``hub`` (a ``running_hub`` context), call ``started`` in it, then serve until
    Ctrl-C: 0, or 1 with the hub's error in one line."""
    try:
        with hub:
            started()
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        print("stopped")
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def trial(argv) -> int:
    """The trial hub with demo students, until Ctrl-C."""
    print(TRIAL_WARNING)
    parser = argparse.ArgumentParser(
        prog="python -m hub", description="The course hub on 127.0.0.1 with a few demo students."
    )
    parser.add_argument("--students", type=int, default=3, help="demo students (default 3)")
    parser.add_argument("--instructor", default="teacher", help="the instructor's name")
    parser.add_argument(
        "--password",
        default=os.environ.get("FANORONA_HUB_PASSWORD", "fanorona"),
        help="the trial authenticator's shared password",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.students <= 100:
        parser.exit(1, f"error: --students must be 0 to 100, not {args.students}\n")
    layout = Layout.from_environment()
    prepare(layout)
    students = [f"student{n:02d}" for n in range(1, args.students + 1)]
    hub_ports = ports()
    token = new_token()
    url = f"http://127.0.0.1:{hub_ports['port']}"
    print(f"starting the course hub in {layout.state} (its log: {layout.state / 'hub.log'}) ...")
    hub = running_hub(
        layout,
        hub_ports,
        layout.state / "hub.log",
        admin_token=token,
        password=args.password,
        instructors=args.instructor,
    )

    def started() -> None:
        HubAPI(url, token).add_users(students, STUDENTS)
        class_list = write_class_list(layout.course / "students.csv", students)
        run_as(layout, GRADER, "db", "student", "import", str(class_list), cwd=layout.course)
        print(
            f"\nThe course hub is at {url}/ (only on this machine; ports in "
            f"FANORONA_HUB_PORT etc., defaults {PORTS}).\n"
            f"Log in as {args.instructor} (the instructor) or as "
            f"{', '.join(students) or 'a student you add'}, password {args.password!r}.\n"
            f"The class list is already in the gradebook ({len(students)} students).\n"
            f"The formgrader, in its own tab: {url}/services/{COURSE}/formgrader"
            f" (not Nbgrader > Formgrader: JupyterHub forbids showing it inside the lab);"
            f" the course folder: {layout.course}.\n"
            "docs/how-to/weekly-cycle.md goes through a week.\n"
            f"{TRIAL_WARNING}\n"
            "Ctrl-C stops the hub and every server it started."
        )

    return until_stopped(hub, started)


if __name__ == "__main__":
    sys.exit(main())
