"""The exercise, not the kit, gets the points: a check refuses graded code that answers it with the
kit's own engine (geometry's neighbours, the board's strings, the board's controller and
drawing, the built-in players).

The grader reads the student's cells as text, outside the sandbox, so nothing the student's code
does at run time changes what is found (in a notebook, ``kit_use_in_kernel`` reads the kernel's
cells the same way, so the student hears it first).  From the names a check is called on
(``neighbours``, ``play`` and ``MyGame``) it follows every definition they use, through the
notebook's cells, each name's binding in force; a use of a part this check forbids, or a name
computed at run time (``getattr`` with a computed name, ``eval``, ``__import__``, ...) that could
reach one, refuses the check with one sentence naming it.  Which parts a notebook may not use is
written in its first cell (or its exercise) and in ``docs/reference/graded-code.md``.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class KitParts:
    """What a check refuses: modules (and everything below them), names and attributes (as
    ``fa.BoardWidget`` or ``board.strings``), what they are in words, and what the notebook asks
    the student to use instead."""

    modules: tuple[str, ...]
    names: tuple[str, ...]
    what: str
    instead: str


GRAPH = KitParts(
    ("fanorona.geometry", "fanorona.movegen"),
    ("geometry", "Geometry", "neighbour", "edges", "lines", "strong", "legal_steps", "legal_turns"),
    "the kit's board graph",
    "work the neighbours out from the point's column and row",
)
STRINGS = KitParts(
    ("fanorona.geometry", "fanorona.movegen"),
    (
        "strings",
        "geometry",
        "Geometry",
        "neighbour",
        "lines",
        "captures",
        "legal_steps",
        "legal_turns",
        "after",
    ),
    "the kit's strings and board graph",
    "walk the lines yourself with board.size and board.stone_at",
)
VIEW_AND_CONTROL = KitParts(
    ("fanorona.ui", "fanorona.readback"),
    ("ui", "BoardWidget", "Controller", "draw_board", "board_png", "BoardPicture", "readback"),
    "the kit's own board (its controller or its drawing)",
    "write your own with matplotlib, your Clicks and your draw_position",
)
PLAYERS = KitParts(
    ("fanorona.engine", "fanorona.tournament", "fanorona.lobby"),
    ("engine", "tournament", "lobby"),
    "the kit's computer players",
    "choose the turn with your own code (fa.Board's rules may help)",
)

#: The parts each check refuses, by the name of the function its check cell calls.
REFUSED = {
    "check_neighbours": GRAPH,
    "check_strings_through": STRINGS,
    "check_view": VIEW_AND_CONTROL,
    "check_simple_control": VIEW_AND_CONTROL,
    "check_control": VIEW_AND_CONTROL,
    "check_simple_clickable": VIEW_AND_CONTROL,
    "check_clickable": VIEW_AND_CONTROL,
    "check_tournament_player": PLAYERS,
}

#: Names that reach code by a name computed at run time (a way around every list above).
COMPUTED = frozenset({"eval", "exec", "compile", "__import__", "globals", "vars", "__builtins__"})
#: Modules that load or build code at run time (``importlib`` is not one: its ``reload`` of an
#: imported module is innocent, and its ways to load code by name or path are attributes below).
COMPUTED_MODULES = frozenset(
    {
        "runpy",
        "marshal",
        "ctypes",
        "code",
        "codeop",
        "gc",
        "pickle",
        "copyreg",
        "shelve",
        "dill",
        "cloudpickle",
        "builtins",
    }
)
COMPUTED_ATTRIBUTES = frozenset(
    {
        "__dict__",
        "__getattribute__",
        "__bases__",
        "__base__",
        "__mro__",
        "__subclasses__",
        "getmembers",
        "getmodule",
        "__code__",
        "__globals__",
        "__builtins__",
        "modules",
        "import_module",
        "spec_from_file_location",
        "spec_from_loader",
        "module_from_spec",
        "exec_module",
        "find_spec",
        "SourceFileLoader",
        "machinery",
        "FunctionType",
        "CodeType",
    }
)
BY_NAME = frozenset(
    {"getattr", "setattr", "delattr", "attrgetter", "methodcaller", "getattr_static"}
)
#: What lets a statement bind or change a name without naming it (``globals()[...] = ...``).
REBINDS = frozenset({"setattr", "delattr", "__dict__", "modules", "__globals__", "builtins"})


def _parsed(source: str) -> ast.Module | None:
    """A cell's code as a tree, its magics (``%time``, ``!ls``, ``%%writefile``) left out; None
    when it is no Python."""
    lines = source.splitlines()
    if lines and lines[0].lstrip().startswith("%%"):
        lines = lines[1:]
    kept = ["" if line.lstrip().startswith(("%", "!")) else line for line in lines]
    try:
        return ast.parse("\n".join(kept))
    except (SyntaxError, ValueError):
        return None


def _binds(statement: ast.stmt) -> Iterator[str]:
    """The names a top-level statement binds, also inside ``if``, ``try``, ``with`` or ``for``."""
    todo: list[ast.AST] = [statement]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            yield from ((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif not isinstance(node, ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))


def _computed(statement: ast.stmt) -> bool:
    """Whether a statement run at the top level may bind or change names by computing them (as
    ``globals()["neighbours"] = ...`` or ``exec(...)`` do): it is read with every check."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    for node in ast.walk(statement):
        modules = [m.split(".")[0] for m in _imported(node)]
        if any(m in COMPUTED_MODULES or m in REBINDS for m in modules):
            return True
        if isinstance(node, ast.Name) and (node.id in COMPUTED or node.id in REBINDS):
            return True
        if isinstance(node, ast.Attribute) and node.attr in REBINDS:
            return True
    return False


def _changes(statement: ast.stmt) -> Iterator[str]:
    """The top-level names whose attributes or items a statement sets (``Clicks.click = ...``)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return
    for node in ast.walk(statement):
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, ast.Store):
            root = node.value
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if isinstance(root, ast.Name):
                yield root.id


#: The name under which ``bindings`` files the top-level statements that compute names.
EVERY_CHECK = "<read with every check>"


def bindings(sources: Iterable[str]) -> dict[str, list[ast.stmt]]:
    """Each top-level name with the statements whose binding is the one in force (the last, and
    the one before it while a binding uses the name itself, as ``f = wrapped(f)`` does), and
    after them every statement that sets one of its attributes or items; under ``EVERY_CHECK``,
    the statements that compute names."""
    bound: dict[str, list[ast.stmt]] = {}
    changed: dict[str, list[ast.stmt]] = {EVERY_CHECK: []}
    for source in sources:
        tree = _parsed(source)
        for statement in tree.body if tree is not None else []:
            for name in _binds(statement):
                bound.setdefault(name, []).append(statement)
            for name in _changes(statement):
                changed.setdefault(name, []).append(statement)
            if _computed(statement):
                changed[EVERY_CHECK].append(statement)
    bound.setdefault(EVERY_CHECK, [])
    return {name: [*_in_force(name, bound.get(name, [])), *changed.get(name, [])] for name in bound}


def _in_force(name: str, bound: list[ast.stmt]) -> list[ast.stmt]:
    """The last binding of ``name``, and each earlier one the later ones take ``name`` from."""
    kept = bound[-1:]
    for statement in reversed(bound[:-1]):
        if name not in free_names(kept[-1]):
            break
        kept.append(statement)
    return kept


def _imported(node: ast.AST) -> Iterator[str]:
    """The modules an import statement reaches, and each name it takes from one, dotted."""
    if isinstance(node, ast.Import):  # ``import a.b`` binds ``a``: its uses go through ``.b``
        yield from (alias.name for alias in node.names if alias.asname or "." not in alias.name)
    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
        yield node.module
        yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _uses(node: ast.AST, parts: KitParts) -> Iterator[str]:
    """What of ``parts`` (or of the ways to compute a name) the code of ``node`` uses, as text."""
    called = set()  # getattr and the like, called with a name given as text: not computed
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and _name_of(sub.func) in BY_NAME:
            named = sub.args[1] if len(sub.args) > 1 else (sub.args[0] if sub.args else None)
            text = named.value if isinstance(named, ast.Constant) else None
            if isinstance(text, str) and text not in parts.names + tuple(COMPUTED_ATTRIBUTES):
                called.add(id(sub.func))
    for sub in ast.walk(node):
        for module in _imported(sub):
            top, last = module.split(".")[0], module.split(".")[-1]
            below = any(module == m or module.startswith(m + ".") for m in parts.modules)
            if below or last in parts.names or top in COMPUTED_MODULES:
                yield module
            elif not _installed(top):
                yield f"{module} (a module of its own, written at run time)"
        if isinstance(sub, ast.Attribute) and (
            sub.attr in parts.names or sub.attr in COMPUTED_ATTRIBUTES
        ):
            yield f".{sub.attr}"
        elif isinstance(sub, ast.Name) and sub.id in COMPUTED:
            yield sub.id
        elif _name_of(sub) in BY_NAME and id(sub) not in called:  # computed, or handed on
            yield f"{_name_of(sub)}(...) with a name computed at run time"


def _installed(top: str) -> bool:
    """Whether a top-level module is one Python or the kit's environment has (not one graded
    code wrote at run time)."""
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        return True
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return False


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _locals(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """The names local to a function, as Python decides them: its parameters and every name its
    own body binds (not those of the functions and classes inside it, only their names)."""
    args = function.args
    found = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    found |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    declared: set[str] = set()
    body = function.body
    todo: list[ast.AST] = list(body) if isinstance(body, list) else [body]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((a.asname or a.name).split(".")[0] for a in node.names)
        todo.extend(ast.iter_child_nodes(node))
    return found - declared


def free_names(node: ast.AST) -> set[str]:
    """The names ``node``'s code loads from the module's namespace (not a function's own)."""
    found: set[str] = set()

    def visit(n: ast.AST, scopes: list[set[str]]) -> None:
        if isinstance(n, FUNCTIONS):
            outer = [*getattr(n, "decorator_list", []), *n.args.defaults]
            outer += [d for d in n.args.kw_defaults if d is not None]
            for part in outer:
                visit(part, scopes)
            inner = scopes + [_locals(n)]
            for part in n.body if isinstance(n.body, list) else [n.body]:
                visit(part, inner)
            return
        name = n.id if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) else None
        if name is not None and not any(name in scope for scope in scopes):
            found.add(name)
        for child in ast.iter_child_nodes(n):
            visit(child, scopes)

    visit(node, [])
    return found


def _name_of(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def kit_use(check: str, sources: Iterable[str], names: Iterable[str] | None) -> str | None:
    """The sentence refusing the check ``check`` when the code reached from ``names`` (the whole
    of ``sources`` when None, as for a player's file) uses a part of the kit the check refuses;
    None when it uses none, or the check refuses nothing."""
    parts = REFUSED.get(check)
    if parts is None:
        return None
    sources = list(sources)
    if names is None:
        trees = [t for t in map(_parsed, sources) if t is not None]
        found = [use for tree in trees for use in _uses(tree, parts)]
        where = "your player's file"
    else:
        found, where = _reached(bindings(sources), list(names), parts)
    if not found:
        return None
    named = ", ".join(dict.fromkeys(found))
    return (
        f"{where[:1].upper()}{where[1:]} uses {named}: {parts.what}, or a way to reach it by a"
        f" name computed at run time. This exercise is to write that part yourself, so the check"
        f" gives no points for it: {parts.instead}."
    )


def _reached(defined: dict[str, list[ast.stmt]], names: list[str], parts: KitParts):
    """What of ``parts`` the definitions reached from ``names`` use, and the words for where."""
    seen: set[str] = set()
    todo, found, culprits = [*names, EVERY_CHECK], [], []
    while todo:
        name = todo.pop()
        if name in seen or name not in defined:
            continue
        seen.add(name)
        for statement in defined[name]:
            uses = list(_uses(statement, parts))
            if uses:
                found += uses
                culprits.append(name)
            todo += sorted(free_names(statement))
    named = ["a cell run at the top" if c == EVERY_CHECK else c for c in culprits]
    where = f"your code ({', '.join(dict.fromkeys(named))})" if culprits else ""
    return found, where


def kit_use_in_kernel(check: str, *objects) -> None:
    """In a notebook, fail the check at once with ``kit_use``'s sentence when the cells run so
    far answer it with the kit's own parts, as the grader will; elsewhere do nothing."""
    from .checking import in_notebook
    from .guard import ExerciseFailed

    if not in_notebook():
        return
    from IPython import get_ipython

    shell = get_ipython()
    cells = shell.user_ns.get("In", []) if shell is not None else []
    names = [n for n in (getattr(o, "__name__", None) for o in objects) if isinstance(n, str)]
    sentence = kit_use(check, [c for c in cells if isinstance(c, str)], names)
    if sentence is not None:
        raise ExerciseFailed(sentence)
