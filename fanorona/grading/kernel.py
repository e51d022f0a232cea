"""What a Jupyter kernel gives a cell, in the sandboxed worker: magics, ``display``, ``help``, the
cells' source for ``inspect``, so innocent notebook code costs no points.

A cell with IPython syntax (``%time``, ``%%writefile``, ``!ls``, ``obj?``) is turned into Python
by IPython's own transformer (imported only then: it is slow to import); the magics it calls go
to ``Shell``, which runs the ones that do something to the student's code or files (``%time``,
``%timeit``, ``%%capture``, ``%%writefile``, ``%run``) and skips the rest (``%matplotlib``,
``%load_ext``, ``%autoreload``, ``%pip``, ...) with no effect, as nothing here is shown.
"""

from __future__ import annotations

import linecache
import re
import runpy
import time
from pathlib import Path

#: Lines that are not Python but IPython: a magic, a shell escape, a help request.
_IPYTHON = re.compile(r"^\s*(%|!)|^\s*\w[\w.]*\s*=\s*[%!]|\?\s*$", re.MULTILINE)
_EXPAND = re.compile(r"\{([^{}]+)\}")


def python_of(source: str) -> str:
    """The cell's source as Python, as IPython would run it."""
    if not _IPYTHON.search(source):
        return source
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(source)


def remember(filename: str, source: str) -> None:
    """Keep a cell's source where ``inspect.getsource`` and tracebacks look, as IPython does."""
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)


class Shell:
    """``get_ipython()`` in the worker: the magics a notebook uses, run or skipped."""

    def __init__(self, namespace: dict):
        self.user_ns = namespace

    def expand(self, text: str) -> str:
        """``{expression}`` in a magic's line, from the notebook's names, as IPython expands it."""
        return _EXPAND.sub(lambda m: str(eval(m.group(1), self.user_ns)), text)

    def run_line_magic(self, name: str, line: str):
        line = self.expand(line)
        if name in ("time", "timeit"):
            return self._timed(line)
        if name == "run":
            path = line.split()[-1]
            found = runpy.run_path(path, init_globals=None, run_name="__main__")
            self.user_ns.update({k: v for k, v in found.items() if not k.startswith("__")})
            return None
        if name in ("pinfo", "pinfo2"):
            return help_text(eval(line, self.user_ns))
        return None  # %matplotlib, %load_ext, %autoreload, %pip, %config: nothing to do here

    def run_cell_magic(self, name: str, line: str, cell: str):
        line = self.expand(line)
        if name in ("time", "timeit", "capture"):
            return self._timed(cell, quiet=name == "capture")
        if name == "writefile":
            words = line.split()
            mode = "a" if "-a" in words or "--append" in words else "w"
            path = Path(words[-1])
            with path.open(mode, encoding="utf-8") as f:
                f.write(cell)
            print(("Appended to " if mode == "a" else "Writing ") + str(path))
            return None
        return None  # %%html, %%javascript, %%markdown: nothing to show here

    def _timed(self, code: str, quiet: bool = False):
        started = time.perf_counter()
        exec(compile(code, "<magic>", "exec"), self.user_ns)
        if not quiet:
            print(f"Wall time: {time.perf_counter() - started:.3g} s")

    def system(self, _command: str) -> None:
        """``!command``: no shell for graded code."""

    def getoutput(self, _command: str) -> list:
        return []


def display(*objects, **_options) -> None:
    """Jupyter's ``display``: here, as IPython shows it without a front end (its text)."""
    for obj in objects:
        print(repr(obj)[:2000])


def help_text(obj=None) -> None:
    """``help(obj)`` without a pager (there is no terminal), and ``help()`` with nothing to ask."""
    if obj is None:
        return
    import pydoc

    print(pydoc.plain(pydoc.render_doc(obj))[:4000])


def prepare(namespace: dict) -> None:
    """The names a kernel puts in a notebook's namespace."""
    shell = Shell(namespace)
    namespace.setdefault("get_ipython", lambda: shell)
    namespace.setdefault("display", display)
    namespace.setdefault("help", help_text)
