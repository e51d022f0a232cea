"""``fanorona.exercises`` as graded code sees it: a stand-in, so that a solution cell that imports
or reloads the checkers (to try one while working) costs nothing.

The grader copies this file into the package it hands its worker, in place of the checkers, with
``NAMES`` filled in.  Every name imports; a checker called here only says that the checks run
outside; what the checkers hold (their cases, references, limits) is not here to be read, and
what a cell changes here reaches nothing that grades.
"""

import importlib.abc
import importlib.machinery
import sys

#: The real package's public names (``from fanorona.exercises import *``), filled in by the grader.
NAMES: list[str] = []
NOT_HERE = (
    "{name} is not there while grading: the checkers, their cases and their reference answers"
    " run outside your code"
)


class StandIn:
    """A checker or other name of the real package, standing in while grading."""

    def __init__(self, name: str):
        object.__setattr__(self, "_name", name)

    def __call__(self, *args, **kwargs):
        name = object.__getattribute__(self, "_name")
        if name.rpartition(".")[2].startswith("check_"):
            print(f"{name}: the checks run outside your code when the notebook is graded.")

    def __getattr__(self, attribute: str):
        """A checker's own parts (its reference, its cases) are not here; anything else (the
        notebook's questions, ``questions.predict``) stands in too, silently."""
        name = object.__getattribute__(self, "_name")
        if name.rpartition(".")[2].startswith("check_") or attribute.startswith("_"):
            raise AttributeError(NOT_HERE.format(name=f"{name}.{attribute}"))
        return StandIn(f"{name}.{attribute}")

    def __setattr__(self, attribute: str, value) -> None:
        """Changes nothing that grades."""

    def __repr__(self) -> str:
        return f"<{object.__getattribute__(self, '_name')}, a stand-in while grading>"


def __getattr__(name: str):
    if name.startswith(("__", "pytest")):  # Python's and pytest's own names are not stand-ins
        raise AttributeError(name)
    if name.endswith(("Failed", "Error")):  # caught in ``except`` clauses: a real exception
        return type(name, (Exception,), {})
    return StandIn(name)


__all__ = NAMES


class _Submodules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import fanorona.exercises.model`` and the like: stand-ins too."""

    def find_spec(self, fullname, path, target=None):
        if fullname.startswith(f"{__name__}."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        module.__getattr__ = __getattr__
        module.__path__ = []


if not any(type(f).__name__ == "_Submodules" for f in sys.meta_path):
    sys.meta_path.insert(0, _Submodules())
