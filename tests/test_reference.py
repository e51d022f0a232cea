"""The reference pages keep up with the code: every command and target, every setting."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ROOT / "docs" / "reference" / "settings.md"


def variables_read(folders=("fanorona", "hub", "docs")) -> set[str]:
    """Every ``FANORONA_*`` name the code spells out (a prefix such as ``FANORONA_HUB_`` for a
    family of names is left to the page's row for it)."""
    found = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(
                re.findall(r"FANORONA_[A-Z_]*[A-Z](?![A-Z_])", path.read_text(encoding="utf-8"))
            )
    return found


def test_every_setting_the_code_reads_is_on_the_settings_page():
    page = SETTINGS.read_text(encoding="utf-8")
    found = variables_read()
    assert {"FANORONA_COMPILED", "FANORONA_CACHE_DIR", "FANORONA_HUB_STATE"} <= found
    missing = sorted(name for name in found if f"`{name}`" not in page)
    assert not missing, f"docs/reference/settings.md does not name {missing}"


@pytest.mark.slow
def test_the_commands_page_is_what_the_commands_say():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import commands
    finally:
        sys.path.remove(str(ROOT / "docs"))
    written = (ROOT / "docs" / "reference" / "commands.md").read_text(encoding="utf-8")
    fresh = commands.page()
    assert "make lab" in fresh and "python -m fanorona.tournament run" in fresh
    assert written == fresh, "run `python docs/commands.py`: the commands page is behind the code"
