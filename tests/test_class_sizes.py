"""No class of the package outgrows a screen or two: at most 300 lines and 30 methods, read from
the source with ``ast``.  A class is counted with its bases from the package (a mixin's methods
are the class's own to a reader), and every property is a method, however it is written
(``@property``, ``x = property(...)``, or a module function that returns a property).  The few
classes over that on purpose are listed with why, each with a ceiling near its present size, so
they cannot grow unnoticed either.

The checker is also run on a small made-up package with classes too big in each of those ways,
so a checker that stopped finding any of them would fail here.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "fanorona"

MAX_LINES, MAX_METHODS = 300, 30
#: Classes over the aim on purpose: qualified name -> (most lines, most methods, why).  The
#: ceilings are their sizes when listed plus about a tenth.
EXCEPTIONS = {
    "fanorona.movegen.Generator": (
        530,
        25,
        "the bit-set move generator: its hot loops share the precomputed tables as attributes, and"
        " compiled.CompiledGenerator mirrors it function for function",
    ),
    "fanorona.board.Board": (
        630,
        70,
        "the reference model every notebook uses: the Model protocol, notation, records and the"
        " rules' refusal sentences, all public names students call on one object",
    ),
}


def property_makers(tree: ast.Module) -> set[str]:
    """The module's functions that return a property (like ``widget._setting``): a class-level
    ``x = maker(...)`` is a property too."""
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any(
            isinstance(n, ast.Return) and is_call_to(n.value, {"property"}) for n in ast.walk(node)
        )
    }


def is_call_to(node, names: set[str]) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names


def imported_names(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """What each name a module imports from the package stands for, as a qualified name."""
    package = module if is_package else module.rpartition(".")[0]
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                above = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{above}.{base}" if base else above
            for alias in node.names:
                names[alias.asname or alias.name] = f"{base}.{alias.name}"
    return names


def qualified(base: ast.expr, known: dict[str, str]) -> str:
    """A base class's qualified name (``Half``, ``parts.Half``), as the module's names say."""
    if isinstance(base, ast.Attribute):
        return f"{qualified(base.value, known)}.{base.attr}"
    return known.get(base.id, base.id) if isinstance(base, ast.Name) else ""


def read_classes(root: Path) -> dict[str, tuple[int, set[str], list[str]]]:
    """Every class under ``root`` (nested ones too) by qualified name: its own lines, its members
    (the functions of its body, and the properties assigned in it, however made) and the
    qualified names of its bases."""
    classes = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        module = ".".join(parts)
        tree = ast.parse(path.read_text("utf-8"))
        makers = property_makers(tree) | {"property"}
        known = imported_names(tree, module, is_package)
        known.update(
            {n.name: f"{module}.{n.name}" for n in tree.body if isinstance(n, ast.ClassDef)}
        )
        todo = [(module, node) for node in tree.body]
        while todo:
            prefix, node = todo.pop()
            if not isinstance(node, ast.ClassDef):
                continue
            name = f"{prefix}.{node.name}"
            members = set()
            for n in node.body:
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    members.add(n.name)  # a property's setter is the same member as its getter
                elif isinstance(n, (ast.Assign, ast.AnnAssign)) and is_call_to(n.value, makers):
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    members |= {t.id for t in targets if isinstance(t, ast.Name)}
            bases = [qualified(base, known) for base in node.bases]
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            classes[name] = (lines, members, bases)
            todo += [(name, child) for child in node.body]
    return classes


def class_sizes(root: Path) -> dict[str, tuple[int, int]]:
    """Every class under ``root`` by qualified name: its lines and its members, each counted with
    those of its bases from the package (a mixin's methods are the class's methods too)."""
    classes = read_classes(root)
    sizes = {}
    for name in classes:
        lines, members, seen, todo = 0, set(), set(), [name]
        while todo:
            here = todo.pop()
            if here in seen or here not in classes:
                continue
            seen.add(here)
            own_lines, own_members, bases = classes[here]
            lines, members = lines + own_lines, members | own_members
            todo += bases
        sizes[name] = (lines, len(members))
    return sizes


def too_big(sizes: dict[str, tuple[int, int]], exceptions: dict = EXCEPTIONS) -> list[str]:
    """The classes over their limit, one sentence each."""
    found = []
    for name, (lines, methods) in sorted(sizes.items()):
        most_lines, most_methods, _why = exceptions.get(name, (MAX_LINES, MAX_METHODS, ""))
        if lines > most_lines or methods > most_methods:
            found.append(
                f"{name} has {lines} lines and {methods} methods (at most {most_lines} and"
                f" {most_methods}): split it along its jobs"
            )
    return found


def test_no_class_of_the_package_is_too_big():
    assert too_big(class_sizes(PACKAGE)) == []


def test_every_exception_is_still_over_the_aim():
    """An exception that shrank under the aim, or whose class is gone, comes off the list."""
    sizes = class_sizes(PACKAGE)
    stale = [
        name
        for name in EXCEPTIONS
        if name not in sizes or (sizes[name][0] <= MAX_LINES and sizes[name][1] <= MAX_METHODS)
    ]
    assert stale == []


def made_up_class(methods: int, lines_each: int) -> str:
    body = "".join(
        f"    def m{n}(self):\n" + "        pass\n" * (lines_each - 1) for n in range(methods)
    )
    return f"class Big:\n{body}"


def test_a_class_too_long_or_with_too_many_methods_is_found(tmp_path):
    root = tmp_path / "fanorona"
    (root / "inner").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "fine.py").write_text(made_up_class(30, 9))  # 271 lines, 30 methods
    (root / "long.py").write_text(made_up_class(10, 30))  # 301 lines
    (root / "inner" / "many.py").write_text(
        "class Outer:\n    " + made_up_class(31, 2).replace("\n", "\n    ")
    )
    sizes = class_sizes(root)
    assert sizes["fanorona.fine.Big"] == (271, 30)
    assert too_big(sizes) == [
        "fanorona.inner.many.Outer.Big has 63 lines and 31 methods (at most 300 and 30): split it"
        " along its jobs",
        "fanorona.long.Big has 301 lines and 10 methods (at most 300 and 30): split it along its"
        " jobs",
    ]


def test_a_class_is_counted_with_its_mixins_from_the_package(tmp_path):
    root = tmp_path / "fanorona"
    (root / "ui").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "ui" / "__init__.py").write_text("")
    half = made_up_class(16, 2).replace("def m", "def h").replace("Big", "Half")
    (root / "ui" / "parts.py").write_text(half)
    (root / "ui" / "whole.py").write_text(
        "from .parts import Half\nfrom json import JSONDecoder\n\n"
        + made_up_class(15, 2).replace("class Big:", "class Whole(Half, JSONDecoder):")
    )
    (root / "wide.py").write_text(
        "from .ui import parts\n\n"
        + made_up_class(20, 2).replace("class Big:", "class Wide(parts.Half):")
    )
    sizes = class_sizes(root)
    assert sizes["fanorona.ui.whole.Whole"] == (31 + 33, 31), "JSONDecoder is not the package's"
    assert too_big(sizes) == [
        "fanorona.ui.whole.Whole has 64 lines and 31 methods (at most 300 and 30): split it along"
        " its jobs",
        "fanorona.wide.Wide has 74 lines and 36 methods (at most 300 and 30): split it along its"
        " jobs",
    ]


def test_every_property_is_a_method_however_it_is_written(tmp_path):
    root = tmp_path / "fanorona"
    root.mkdir()
    (root / "__init__.py").write_text("")
    setting = (
        "def setting(name):\n"
        "    return property(lambda self: getattr(self, name), doc=name)\n\n"
        "def plain(name):\n"
        "    return name\n\n"
    )
    properties = (
        "    @property\n    def p(self):\n        return 1\n"
        "    @p.setter\n    def p(self, value):\n        pass\n"
        "    q = property(lambda self: 2)\n"
        "    r: property = property(lambda self: 3)\n"
        "    s = setting('s')\n"
        "    t, u = plain('t'), 'not a property'\n"
        "    v = plain('v')\n"
    )
    (root / "props.py").write_text(
        setting + made_up_class(27, 2).replace("class Big:\n", "class Big:\n" + properties)
    )
    sizes = class_sizes(root)
    assert sizes["fanorona.props.Big"][1] == 31, "p (once for getter and setter), q, r, s"
    assert too_big(sizes) == [
        "fanorona.props.Big has 66 lines and 31 methods (at most 300 and 30): split it along its"
        " jobs"
    ]
