"""Tamper resistance: a grade comes from the package as it was imported, not from a patched one.

When ``fanorona.exercises`` is imported, ``SEAL`` notes every function, class, method and checker
of the loaded ``fanorona`` modules (and the builtins the checkers use).  Each checker verifies the
seal before and after it runs: a replaced checker, a patched ``fa.Board.outcome``, a changed code
object or a module swapped in ``sys.modules`` is put back (when the original is known) and the
check fails with ``TAMPERED``.  Once seen, a change stays on record for the kernel's life, so
every later check fails too.  ``fanorona.exercises`` itself refuses to have its checkers
replaced, and in IPython the seal is also verified before every cell runs.

This stops a solution cell from changing the reference; it is no sandbox (code in the kernel can
always reach the interpreter), so a grade still rests on nbgrader's locked test cells.
"""

from __future__ import annotations

import builtins
import sys
import sysconfig
import types
from pathlib import Path

TAMPERED = (
    "The fanorona package was changed in this kernel ({what}), so this check gives no points. "
    "Restart the kernel and run the notebook without changing the package; your grade is"
    " computed separately, by the course's sandboxed grader, which no change here reaches."
)

PACKAGE_DIR = str(Path(__file__).resolve().parent.parent)
#: Where the package's own code comes from: the package, the standard library, installed libraries
#: (a decorator or a base class of another library wraps or makes some of its methods).
TRUSTED_DIRS = tuple(
    sorted(
        {PACKAGE_DIR}
        | {
            str(Path(sysconfig.get_paths()[key]).resolve())
            for key in ("stdlib", "platstdlib", "purelib", "platlib")
        }
    )
)
#: Builtins the checkers rely on.
BUILTINS = (
    "isinstance",
    "len",
    "set",
    "frozenset",
    "dict",
    "list",
    "tuple",
    "str",
    "repr",
    "sorted",
    "iter",
    "next",
    "any",
    "all",
    "max",
    "min",
    "getattr",
    "hasattr",
    "type",
    "range",
    "enumerate",
    "zip",
    "map",
    "sum",
    "round",
    "abs",
    "int",
    "float",
    "bool",
    "print",
    "hash",
    "id",
    "callable",
    "object",
    "vars",
)
DESCRIPTORS = (types.FunctionType, property, classmethod, staticmethod)
#: Names Python itself may add to a class after it is made (typing's protocol checks cache them;
#: copy and pickle cache a slotted class's ``__slotnames__``).
MACHINERY = frozenset(
    (
        "__slotnames__",
        "__protocol_attrs__",
        "__non_callable_proto_members__",
        "__callable_proto_members_only__",
        "_is_protocol",
        "__abstractmethods__",
        "_abc_impl",
    )
)


def _functions_of(value):
    """The plain Python functions behind a sealed value (a function, a descriptor, a cached
    function)."""
    if isinstance(value, types.FunctionType):
        return [value]
    if isinstance(value, property):
        return [
            f for f in (value.fget, value.fset, value.fdel) if isinstance(f, types.FunctionType)
        ]
    if isinstance(value, (classmethod, staticmethod)):
        return _functions_of(value.__func__)
    wrapped = (
        getattr(value, "__wrapped__", None)
        if callable(value) and not isinstance(value, type)
        else None
    )
    return _functions_of(wrapped) if wrapped is not None else []


def _own(function, where: str) -> bool:
    """Whether a function's code is the package's (or an installed library's, or dataclass-made for
    the class it sits on), rather than code written in a notebook."""
    filename = function.__code__.co_filename
    if filename.startswith(TRUSTED_DIRS):
        return True
    return filename == "<string>" and where.endswith(function.__qualname__)


class Seal:
    """The package's objects as imported; ``verify`` lists what changed since and puts it back."""

    __slots__ = ("changed", "classes", "codes", "entries", "modules")

    def __init__(self):
        self.entries: list = []  # (owner: a namespace dict or a class, key, original, label)
        self.codes: list = []  # (function, code, defaults, kwdefaults, label)
        self.modules: dict = {}  # module name -> (module, its class)
        self.classes: dict = {}  # label -> (class, the names in its own namespace)
        self.changed: list = []  # labels of every change seen, in order

    def take(self) -> Seal:
        from .checking import Checker

        self.modules = {
            name: (m, type(m))
            for name, m in sys.modules.items()
            if (name == "fanorona" or name.startswith("fanorona."))
            and isinstance(m, types.ModuleType)
        }
        for name, (module, _cls) in sorted(self.modules.items()):
            for key, value in list(vars(module).items()):
                if key.startswith("__"):
                    continue
                label = f"{name}.{key}"
                if isinstance(value, type) and value.__module__.startswith("fanorona"):
                    self._note(vars(module), key, value, label)
                    if value.__module__ == name:
                        self._seal_class(value, label)
                elif isinstance(value, Checker):
                    self._note(vars(module), key, value, label)
                    for field, part in vars(value).items():
                        self._note(vars(value), field, part, f"{label}.{field}")
                elif callable(value) or isinstance(value, types.ModuleType):
                    self._note(vars(module), key, value, label)
        for key in BUILTINS:
            self._note(vars(builtins), key, getattr(builtins, key), f"builtins.{key}")
        self.changed += [
            f"{label} is not the package's own code"
            for _fn, _code, _d, _k, label in self.codes
            if not _own(_fn, label)
        ]
        return self

    def _seal_class(self, cls, label: str) -> None:
        self.classes[label] = (cls, frozenset(vars(cls)))
        for key, value in list(vars(cls).items()):
            if isinstance(value, DESCRIPTORS) or _functions_of(value):
                self._note(cls, key, value, f"{label}.{key}")

    def _note(self, namespace, key, value, label: str) -> None:
        self.entries.append((namespace, key, value, label))
        for f in _functions_of(value):
            self.codes.append((f, f.__code__, f.__defaults__, f.__kwdefaults__, label))

    def verify(self) -> list[str]:
        """Every change seen so far (put back where the original is known); empty when none."""
        found = []
        for name, (module, cls) in self.modules.items():
            if sys.modules.get(name) is not module:
                found.append(f"sys.modules[{name!r}] was replaced")
                sys.modules[name] = module
            if type(module) is not cls:
                found.append(f"{name} was given another class")
                object.__setattr__(module, "__class__", cls)
        for owner, key, value, label in self.entries:
            now = (owner if isinstance(owner, dict) else vars(owner)).get(key, _MISSING)
            if now is not value:
                found.append(f"{label} was {'deleted' if now is _MISSING else 'replaced'}")
                if isinstance(owner, dict):
                    owner[key] = value
                else:
                    type.__setattr__(owner, key, value)
        for label, (cls, names) in self.classes.items():
            for key in (
                set(vars(cls)) - names - MACHINERY
            ):  # e.g. an __eq__ on a class that inherited it
                found.append(f"{label}.{key} was added")
                type.__delattr__(cls, key)
        for f, code, defaults, kwdefaults, label in self.codes:
            if (
                f.__code__ is not code
                or f.__defaults__ is not defaults
                or f.__kwdefaults__ is not kwdefaults
            ):
                found.append(f"the code of {label} was changed")
                f.__code__, f.__defaults__, f.__kwdefaults__ = code, defaults, kwdefaults
        self.changed += [what for what in found if what not in self.changed]
        return list(self.changed)

    def note_attempt(self, what: str) -> None:
        if what not in self.changed:
            self.changed.append(what)


_MISSING = object()


class SealedModule(types.ModuleType):
    """``fanorona.exercises``: its checkers cannot be replaced or deleted (an attempt is
    recorded)."""

    def __setattr__(self, key, value):
        if key == "__class__" or (key in _SEALED_NAMES and value is not vars(self).get(key)):
            SEAL.note_attempt(f"fanorona.exercises.{key} was replaced")
            return
        super().__setattr__(key, value)

    def __delattr__(self, key):
        if key in _SEALED_NAMES:
            SEAL.note_attempt(f"fanorona.exercises.{key} was deleted")
            return
        super().__delattr__(key)

    def __getattribute__(self, key):
        original = _SEALED_NAMES.get(key)
        if (
            original is not None
            and types.ModuleType.__getattribute__(self, "__dict__").get(key) is not original
        ):
            SEAL.note_attempt(f"fanorona.exercises.{key} was replaced")
            types.ModuleType.__getattribute__(self, "__dict__")[key] = original
        return types.ModuleType.__getattribute__(self, key)


SEAL = Seal()
_SEALED_NAMES: dict = {}


def seal_package(module_name: str) -> None:
    """Take the seal once the package's checkers are imported, guard ``module_name``'s checkers,
    and in
    IPython verify the seal before every cell."""
    module = sys.modules[module_name]
    if type(module) is SealedModule:  # importlib.reload: sealed already, with the same checkers
        return
    _SEALED_NAMES.update(
        {k: v for k, v in vars(module).items() if k.startswith("check_") or k in ("Checker",)}
    )
    module.__class__ = SealedModule
    SEAL.take()
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        shell.events.register("pre_run_cell", _before_cell)


def _before_cell(*_info) -> None:
    """Put the package back before a cell runs, so a locked test cell imports the real checkers."""
    SEAL.verify()


def tampering() -> str:
    """The sentence for a changed package, or "" when nothing was changed."""
    changed = Seal.verify(SEAL)
    if not changed:
        return ""
    shown = "; ".join(changed[:3]) + (f"; and {len(changed) - 3} more" if len(changed) > 3 else "")
    return TAMPERED.format(what=shown)
