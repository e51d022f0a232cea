"""``python -m hub`` (``make hub``): the course hub on 127.0.0.1 with a few demo students.

It prepares the state folder (``build/hub``: homes, the exchange, the course folder), starts
JupyterHub with ``hub/jupyterhub_config.py``, makes the demo students and the instructor through
the REST API, imports the class list into the gradebook, prints how to log in, and serves until
Ctrl-C (which stops every server it started).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from .api import HubAPI
from .course import GRADER, PORTS, STUDENTS, Layout, ports, prepare, run_as, write_class_list
from .running import new_token, running_hub


def main(argv=None) -> int:
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
    try:
        with running_hub(
            layout,
            hub_ports,
            layout.state / "hub.log",
            admin_token=token,
            password=args.password,
            instructors=args.instructor,
        ):
            HubAPI(url, token).add_users(students, STUDENTS)
            class_list = write_class_list(layout.course / "students.csv", students)
            run_as(layout, GRADER, "db", "student", "import", str(class_list), cwd=layout.course)
            print(
                f"\nThe course hub is at {url}/ (only on this machine; ports in "
                f"FANORONA_HUB_PORT etc., defaults {PORTS}).\n"
                f"Log in as {args.instructor} (the instructor) or as "
                f"{', '.join(students) or 'a student you add'}, password {args.password!r}.\n"
                f"The instructor's formgrader: {url}/services/fanorona/ (Nbgrader > Formgrader);"
                f" the course folder: {layout.course}.\n"
                "docs/teachers-guide.md, 'The course on a JupyterHub', goes through a week.\n"
                "Ctrl-C stops the hub and every server it started."
            )
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        print("stopped")
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
