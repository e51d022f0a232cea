"""A real class on one server: a Unix account per student from a class list, and what only root
sets up (``python -m hub accounts students.csv --instructor NAME``, as root).

Idempotent: accounts already there are kept (their homes made private), nobody is removed.  The
course folder, its solutions and gradebook belong to the grader account, in its private home;
nbgrader's exchange is the one nbgrader documents; login shells get the kit's Python and the
course's nbgrader settings from /etc/profile.d.
"""

from __future__ import annotations

import csv
import json
import os
import pwd
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from .course import BIN, COURSE, GRADER, ROOT, Layout, prepare

#: What useradd accepts everywhere: a lower-case letter or _, then letters, digits, _ and -.
NAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}\Z")
PROFILE = Path("/etc/profile.d/fanorona-kit.sh")
PROFILE_TEXT = """# The Fanorona course kit (python -m hub accounts): its Python first on PATH, the
# course's nbgrader settings, in every login shell (Debian's /etc/profile resets PATH).
case ":$PATH:" in *":{bin}:"*) ;; *) PATH="{bin}:$PATH" ;; esac
export PATH
if [ "$(id -un)" = "{grader}" ]; then
    JUPYTER_CONFIG_PATH="{grader_config}"
else
    JUPYTER_CONFIG_PATH="{student_config}"
fi
export JUPYTER_CONFIG_PATH
"""


def read_class_list(path: Path) -> list[str]:
    """The student ids of a class list (nbgrader's CSV: a column ``id``, then any others).
    ValueError in one sentence naming the file and line of the first bad or repeated id."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: cannot read the class list ({e})") from None
    if rows and "id" not in rows[0]:
        raise ValueError(f"{path}: the first line must name the columns, one of them 'id'")
    ids: list[str] = []
    for line, row in enumerate(rows, 2):
        name = (row.get("id") or "").strip()
        if not NAME.match(name):
            raise ValueError(
                f"{path}, line {line}: {name!r} is not a Unix user name (a lower-case letter or"
                " _, then up to 31 lower-case letters, digits, _ or -)"
            )
        if name in ids:
            raise ValueError(f"{path}, line {line}: {name} is in the list twice")
        ids.append(name)
    return ids


def account(name: str, system: bool = False) -> str:
    """Make the Unix account ``name`` (its home private) unless it exists; what was done, as a
    line.  RuntimeError if it exists as root: no student's code may run as root."""
    try:
        found = pwd.getpwnam(name)
    except KeyError:
        found = None
    if found is not None and found.pw_uid == 0:
        raise RuntimeError(f"{name} is root: choose another name for this account")
    if found is None:
        options = ["--system", "--home-dir", f"/home/{name}"] if system else []
        subprocess.run(
            ["useradd", "--create-home", "--shell", "/bin/bash", "--user-group", *options, name],
            check=True,
            capture_output=True,
        )
    home = Path(pwd.getpwnam(name).pw_dir)
    home.chmod(0o700)
    return f"{name}: {'kept' if found else 'made'}, home {home} (mode 0700)"


def as_login(user: str, command: str, check: bool = True) -> subprocess.CompletedProcess:
    """``command`` in a login shell of ``user``, as the user's terminal would run it."""
    return subprocess.run(
        ["su", "-", user, "-c", command], capture_output=True, text=True, check=check
    )


def reachable(user: str) -> bool:
    """Whether ``user`` can run the kit's Python and import the kit (not if it lies in a home
    only root reads)."""
    probe = f"{shlex.quote(str(BIN / 'python'))} -c 'import fanorona, nbgrader'"
    return as_login(user, probe, check=False).returncode == 0


def set_up(layout: Layout, class_list: Path, instructors: list[str]) -> list[str]:
    """Accounts for the grader, the instructors and every student of ``class_list``; the hub's
    state folder, exchange and settings; the course folder in the grader's home with the class
    list imported into its gradebook.  The lines of what was done."""
    if os.geteuid() != 0:
        raise RuntimeError("making accounts needs root: run it with sudo")
    students = read_class_list(class_list)
    for name in instructors:
        if not NAME.match(name):
            raise ValueError(f"--instructor {name!r} is not a Unix user name")
    done = [account(GRADER, system=True)]
    if not reachable(GRADER):
        raise RuntimeError(
            f"the kit's Python ({BIN / 'python'}) cannot be run by other accounts (it lies in a "
            "folder only its owner reads): install the kit where every account can read it, "
            "e.g. in a virtual environment under /opt"
        )
    done += [account(name) for name in [*instructors, *students]]
    prepare(layout)
    grader = pwd.getpwnam(GRADER)
    course_in_exchange = layout.exchange / COURSE  # made now, so no student can take the name
    course_in_exchange.mkdir(exist_ok=True)
    os.chown(course_in_exchange, grader.pw_uid, grader.pw_gid)
    course_in_exchange.chmod(0o755)
    if not (layout.course / "nbgrader_config.py").exists():
        from fanorona.exercises.__main__ import course

        course(ROOT / "notebooks", layout.course, ROOT / "nbgrader_config.py")
        done.append(f"course folder made: {layout.course}")
    shutil.copyfile(class_list, layout.course / "students.csv")
    for folder, _, files in os.walk(layout.course):
        for name in [folder, *(os.path.join(folder, f) for f in files)]:
            os.chown(name, grader.pw_uid, grader.pw_gid)
    (layout.state / "etc" / "class.json").write_text(
        json.dumps({"instructors": instructors, "students": students}, indent=1)
    )
    PROFILE.write_text(
        PROFILE_TEXT.format(
            bin=BIN,
            grader=GRADER,
            grader_config=layout.grader_config,
            student_config=layout.student_config,
        )
    )
    done.append(f"login shells get the kit's Python and settings: {PROFILE}")
    imported = as_login(GRADER, "cd ~/fanorona && nbgrader db student import students.csv", False)
    if imported.returncode != 0:
        raise RuntimeError(f"nbgrader could not import the class list:\n{imported.stderr[-2000:]}")
    done.append(f"class list imported into the gradebook ({len(students)} students)")
    return done
