"""``python -m fanorona``: the kit's own commands (the course copied out; the version).

``python -m fanorona course DEST [--force]`` copies the course the wheel holds into DEST and
prints each file it wrote; the other commands live with their parts (``python -m
fanorona.exercises``, ``fanorona.tournament``, ``fanorona.lobby``).
"""

from __future__ import annotations

import argparse
import sys

from . import __version__
from .course import CourseError, copy_course


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fanorona", description="The Fanorona course kit's commands."
    )
    parser.add_argument("--version", action="version", version=f"fanorona {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    course = commands.add_parser(
        "course",
        help="copy the course (notebooks, their data files, nbgrader_config.py) into a folder",
        description="Copy the course into DEST: DEST/notebooks/ and DEST/nbgrader_config.py. "
        "A file in DEST that differs from the kit's is kept and nothing is written, "
        "unless --force.",
    )
    course.add_argument("dest", metavar="DEST", help="the folder to copy into (made if missing)")
    course.add_argument(
        "--force", action="store_true", help="overwrite files in DEST that differ from the kit's"
    )
    args = parser.parse_args(argv)
    try:
        done = copy_course(args.dest, force=args.force)
    except CourseError as e:
        print(f"python -m fanorona course: {e}", file=sys.stderr)
        return 1
    for path in done.written:
        print(f"wrote {path}")
    for path in done.replaced:
        print(f"overwrote {path} (it differed from the kit's)")
    print(
        f"{len(done.written) + len(done.replaced)} file(s) written, {len(done.unchanged)} already "
        f"the same, in {args.dest}.  Next: jupyter lab {args.dest}/notebooks"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
