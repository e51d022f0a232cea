"""The kit's optional parts by role (pyproject.toml's extras): where one is missing, the import says
which extra to install, in one sentence, instead of a bare ``ModuleNotFoundError``."""

from __future__ import annotations

import importlib.util


def require(extra: str, what: str, *modules: str) -> None:
    """Raise ``ModuleNotFoundError`` naming the ``pip install`` line if any of ``modules`` is
    missing."""
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        raise ModuleNotFoundError(
            f"{what} needs the kit's {extra!r} extra, and {', '.join(missing)} is not installed "
            f"here: pip install 'fanorona[{extra}]'",
            name=missing[0],
        )
