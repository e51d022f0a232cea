"""Write docs/reference/commands.md: every ``make`` target with its line of the Makefile, and
every ``python -m`` command of the package with its own ``--help``, so the reference cannot fall
behind the code (``tests/test_reference.py`` checks that the committed page is what this writes).

Run as ``python docs/commands.py`` after changing a command or a target.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "reference" / "commands.md"
#: The package's commands, in the order a course meets them.
COMMANDS = [
    "fanorona",
    "fanorona.exercises",
    "fanorona.engine.arena",
    "fanorona.engine.prepare",
    "fanorona.engine.puzzles",
    "fanorona.tournament",
    "fanorona.lobby",
    "hub",
]
#: Sub-commands a command takes without listing them as ``{a,b}`` (the hub's, read by hand).
MORE = {"hub": ["accounts", "class"]}
HEAD = """# Commands

Every command the kit has: the `make` targets of a clone, and the `python -m` commands of the
installed package with their own `--help`. This page is written by `python docs/commands.py`;
a test fails when it falls behind the code.
"""


def make_targets() -> list[tuple[str, str]]:
    """(target, what it does) for each target the Makefile documents with ``##``."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return re.findall(r"^([a-z][a-z-]*):[^#\n]*## (.*)$", text, re.M)


def help_text(module: str, *words: str) -> str:
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", module, *words, "--help"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    if done.returncode != 0:
        return ""
    return done.stdout.rstrip()


def subcommands(usage: str) -> list[str]:
    """The sub-commands an argparse usage line lists as ``{a,b,c}``."""
    match = re.search(r"\{([a-z,-]+)\}", usage.split("\n\n", 1)[0])
    return match.group(1).split(",") if match else []


def page() -> str:
    lines = [HEAD, "## make targets", "", "| target | what it does |", "|---|---|"]
    lines += [f"| `make {name}` | {what.replace('|', '/')} |" for name, what in make_targets()]
    lines += ["", "## python -m commands", ""]
    for module in COMMANDS:
        text = help_text(module)
        if not text:
            continue
        where = " (in a clone of the repository)" if module == "hub" else ""
        lines += [f"### `python -m {module}`{where}", "", "```text", text, "```", ""]
        for word in subcommands(text) + MORE.get(module, []):
            sub = help_text(module, word)
            if sub:
                lines += [f"#### `python -m {module} {word}`", "", "```text", sub, "```", ""]
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    PAGE.write_text(page(), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
