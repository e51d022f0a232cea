"""No class of the package outgrows a screen or two: at most 300 lines and 30 methods, read from
the source with ``ast``.  The few classes over that on purpose are listed with why, each with a
ceiling near its present size, so they cannot grow unnoticed either.

The checker is also run on a small made-up package with a class too big, so a checker that
stopped finding anything would fail here.
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
    "fanorona.engine.ai._AlphaBetaSearch": (
        360,
        16,
        "one search's state and its recursive alpha-beta, kept in step node for node with"
        " compiled.CompiledSearch by tests/test_compiled.py",
    ),
    "fanorona.board.Board": (
        630,
        70,
        "the reference model every notebook uses: the Model protocol, notation, records and the"
        " rules' refusal sentences, all public names students call on one object",
    ),
}


def class_sizes(root: Path) -> dict[str, tuple[int, int]]:
    """Every class under ``root`` (nested ones too) by qualified name: its lines and its methods
    (functions defined in its body; properties made with ``property(...)`` are not counted)."""
    sizes = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        todo = [(".".join(parts), node) for node in ast.parse(path.read_text("utf-8")).body]
        while todo:
            prefix, node = todo.pop()
            if isinstance(node, ast.ClassDef):
                name = f"{prefix}.{node.name}"
                methods = [
                    n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                ]
                sizes[name] = ((node.end_lineno or node.lineno) - node.lineno + 1, len(methods))
                todo += [(name, child) for child in node.body]
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
