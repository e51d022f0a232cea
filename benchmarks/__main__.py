"""``python -m benchmarks [bench_topic ...]``: run every ``benchmarks/bench_*.py``'s ``main()`` (or
the named ones), each under a heading; a benchmark that fails is reported and the others still
run."""

from __future__ import annotations

import sys
import traceback
from importlib import import_module
from pathlib import Path


def scripts() -> list[str]:
    """The benchmark modules, by name: every ``bench_*.py`` beside this file."""
    return sorted(path.stem for path in Path(__file__).parent.glob("bench_*.py"))


def main(argv: list[str]) -> int:
    known = scripts()
    names = [n.removesuffix(".py").rpartition("/")[2] for n in argv] or known
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"no benchmark {', '.join(unknown)}; choose from {', '.join(known)}", file=sys.stderr)
        return 2
    failed = []
    for name in names:
        print(f"== {name}", flush=True)
        try:
            import_module(f"benchmarks.{name}").main()
        except Exception:  # one broken benchmark must not hide the others' figures
            traceback.print_exc()
            failed.append(name)
        print(flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
