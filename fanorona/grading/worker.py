"""The sandboxed side of grading: runs the student's notebook code and answers questions about it.

``python -m fanorona.grading.worker`` (started by ``remote.Session`` inside the sandbox, from a
copy of the package without the checkers or the grader) reads one JSON request a line on stdin
and writes one JSON reply a line: run a cell's source, look up a name, call a function or a
method, read an attribute.  Answers are plain data (``plain.encode``); the student's own objects
stay here and cross as numbers.  Whatever the student's code does to this process, it can only
change the answers it gives: the references, the comparison and the points are in the grader.
"""

from __future__ import annotations

import io
import json
import math
import os
import signal
import sys
import traceback
from contextlib import contextmanager, redirect_stderr, redirect_stdout

#: Characters of what the student's code prints that go back with a reply.
PRINTED = 4000
#: Characters of a file the notebook wrote that the grader reads (a tournament player).
PLAYER_BYTES = 2**20


class TimeUp(BaseException):
    """A call ran past its limit (a BaseException: ``except Exception`` does not stop it)."""


@contextmanager
def time_limit(seconds: float):
    """SIGALRM after ``seconds``, and every tenth of a second after that (the student's code may
    catch the first); the grader's own limit on the whole request holds if this one is undone."""

    def ring(_signum, _frame):
        raise TimeUp

    previous = _signal(signal.SIGALRM, ring)
    _setitimer(signal.ITIMER_REAL, seconds, 0.1)
    try:
        yield
    finally:
        _setitimer(signal.ITIMER_REAL, 0)
        _signal(signal.SIGALRM, previous)


#: Taken before the student's code runs, so patching ``signal`` does not turn the limit off.
_signal, _setitimer = signal.signal, signal.setitimer


class Objects:
    """The student's objects the grader holds a number for."""

    def __init__(self):
        self.by_number: dict[int, object] = {}
        self.numbers: dict[int, int] = {}

    def handle(self, value) -> int:
        number = self.numbers.get(id(value))
        if number is None:
            number = self.numbers[id(value)] = len(self.by_number) + 1
            self.by_number[number] = value
        return number

    def get(self, number: int, _kind: str = ""):
        try:
            return self.by_number[number]
        except KeyError:
            raise LookupError(f"no object number {number}") from None


class Printed(io.StringIO):
    """The student's prints during one request, kept to ``PRINTED`` characters."""

    def write(self, text) -> int:
        text = str(text)
        if self.tell() < PRINTED:
            super().write(text[: PRINTED - self.tell()])
        return len(text)


def error_of(e: BaseException) -> dict:
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename.startswith("<cell")]
    where = "".join(traceback.format_list(frames[-3:]))
    return {
        "type": type(e).__name__,
        "message": str(e)[:600] if not isinstance(e, SystemExit) else "",
        "unfinished": isinstance(e, NotImplementedError),
        "missing": getattr(e, "name", None) if isinstance(e, ImportError) else None,
        "where": where[-1500:],
    }


class Tree:
    """The game tree a student's search is handed here, built from the grader's plain dict: as
    ``fanorona.exercises.search.Tree`` does in the kernel, ``look(node)`` records the node and
    gives an inner node's children (a list) or a leaf's value."""

    def __init__(self, nodes: dict, limit: int):
        self.nodes, self.limit = nodes, limit
        self.looked: list[str] = []

    def look(self, node: str):
        if node not in self.nodes:
            raise LookupError(f"the tree has no node {node!r}")
        if len(self.looked) >= self.limit:
            raise RuntimeError(f"the search looked at more than {self.limit} nodes: a loop?")
        self.looked.append(node)
        seen = self.nodes[node]
        return list(seen) if isinstance(seen, list) else seen


class Worker:
    """One notebook's namespace and the answers about it."""

    def __init__(self, channel):
        from fanorona.grading import plain

        self.channel = channel
        self.plain = plain
        self.objects = Objects()
        self.namespace: dict = {"__name__": "__main__"}
        from fanorona.grading import kernel

        kernel.prepare(self.namespace)
        self.cells = 0
        self.current = None  # the number of the request being answered, named in each reply
        self.pid = os.getpid()  # the worker itself, not a child forked by the student's code

    def send(self, message: dict) -> None:
        """One line to the grader (JSON: a value JSON cannot hold is sent as an error)."""
        try:
            text = json.dumps(message, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as e:
            text = json.dumps({"error": error_of(e), "printed": "", "id": self.current})
        self.channel.write(text + "\n")
        self.channel.flush()

    def value(self, value):
        return self.plain.encode(value, self.objects.handle)

    def argument(self, data):
        return self.plain.decode(data, self.objects.get)

    def answer(self, request: dict, target=None) -> dict:
        op = request.get("op")
        boards: list = []
        if op == "run":
            from fanorona.grading import kernel

            self.cells += 1
            name = f"<cell {self.cells}>"
            source = kernel.python_of(request["source"])
            kernel.remember(name, source)
            with time_limit(float(request.get("limit", 3600))):
                exec(compile(source, name, "exec"), self.namespace)
            return {"value": None}
        if op == "read":
            return {"value": self.read(request["expression"])}
        if op == "get":
            return {"value": self.value(self.namespace[request["name"]])}
        if target is None:
            target = self.objects.get(request["target"])
        if op == "call":
            args = [self.argument(a) for a in request.get("args", [])]
            kwargs = {k: self.argument(v) for k, v in request.get("kwargs", {}).items()}
            Board = self.plain.Board
            boards = [
                (i, a, a.key(), len(a._history)) for i, a in enumerate(args) if type(a) is Board
            ]
            result = target(*args, **kwargs)
            if hasattr(result, "__next__"):  # a generator's code runs here, not in the grader
                result = list(result)
            changed = [i for i, a, key, n in boards if a.key() != key or len(a._history) != n]
            return {"value": self.value(result), "changed": changed}
        if op == "map":
            return {"value": self.map(target, request["calls"], request["limit"])}
        if op == "attr":
            return {"value": self.value(getattr(target, request["name"]))}
        if op == "setattr":
            setattr(target, request["name"], self.argument(request["value"]))
            return {"value": None}
        if op == "special":
            return {
                "value": self.value(self.special(target, request["name"], request.get("args", [])))
            }
        if op == "search":
            nodes, limit = self.argument(request["args"][0]), int(request["limit"])
            return {"value": self.value(self.search(target, nodes, request["alphabeta"], limit))}
        if op in self.FIGURES:
            args = [self.argument(a) for a in request.get("args", [])]
            return {"value": self.value(self.figure(op, target, args, request))}
        raise ValueError(f"no such request {op!r}")

    #: Requests about drawings (``fanorona.readback``): the picture crosses as plain data.
    FIGURES = ("draw", "is_figure", "click", "look")

    def figure(self, op: str, target, args: list, request: dict):
        """``draw``: the picture ``target(board, ax)`` draws on a new Axes of ``figsize``, and
        whether it changed the board; ``is_figure``, ``click`` (at a point) and ``look`` (the
        picture) on a figure the student's code returned."""
        from fanorona import readback

        if op == "draw":
            board = args[0]
            before = (board.key(), len(board._history))
            shot = readback.take(lambda ax: target(board, ax), request["figsize"])
            return {**shot, "changed": (board.key(), len(board._history)) != before}
        if op == "is_figure":
            return readback.figure_axes(target) is not None
        if op == "click":
            return readback.click_at(target, str(args[0]))
        return readback.laid_out(readback.figure_axes(target))

    def read(self, expression: str) -> str | None:
        """The text of the file at the path ``expression`` names in the notebook (a player the
        notebook wrote, by any means), at most ``PLAYER_BYTES``; None if there is none."""
        try:
            path = eval(expression, self.namespace)
            with open(path, encoding="utf-8") as f:
                return f.read(PLAYER_BYTES)
        except Exception:  # no such name or file: the grader says so
            return None

    @staticmethod
    def search(target, nodes: dict, alphabeta: bool, limit: int) -> dict:
        """The student's search ``target`` on a ``Tree`` of ``nodes`` from its root ``"A"``, max
        to move (alpha-beta's window open if ``alphabeta``): its value and, at most ``limit`` of
        them, the nodes it looked at, in order."""
        tree = Tree(nodes, limit)
        if alphabeta:
            value = target(tree, "A", True, -math.inf, math.inf)
        else:
            value = target(tree, "A", True)
        return {"value": value, "looked": tree.looked[:limit]}

    def map(self, target, calls: list, limit: float) -> int:
        """Call ``target`` on each argument list, each call under ``limit`` seconds, and send each
        answer on its own line as soon as it is known (so the grader times each call, even one
        stuck in C code); a call that runs out of time or is unfinished ends the list."""
        sent = 0
        for args in calls:
            try:
                with time_limit(limit):
                    entry = self.answer({"op": "call", "target": None, "args": args}, target)
                stop = False
            except TimeUp:
                entry, stop = {"error": {"type": "TimeUp", "message": ""}}, True
            except BaseException as e:  # the student's exception is the answer
                entry = {"error": error_of(e)}
                stop = isinstance(e, (NotImplementedError, SystemExit, KeyboardInterrupt))
            if os.getpid() != self.pid:  # a child the student's call forked: it must not answer
                os._exit(0)
            self.send({"entry": entry, "printed": "", "id": self.current})
            sent += 1
            if stop:
                break
        return sent

    def special(self, target, name: str, args: list):
        """The few built-in operations the checkers use on a student's object."""
        args = [self.argument(a) for a in args]
        operations = {
            "str": lambda: str(target),
            "repr": lambda: repr(target),
            "len": lambda: len(target),
            "bool": lambda: bool(target),
            "iter": lambda: list(target),
            "getitem": lambda: target[args[0]],
            "contains": lambda: args[0] in target,
            "eq": lambda: target == args[0],
            "callable": lambda: callable(target),
            "hash": lambda: hash(target),
        }
        return operations[name]()


def main() -> None:
    os.environ.setdefault("MPLBACKEND", "Agg")
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the student's os.write(1, ...) cannot garble the replies
    worker = Worker(channel)
    for line in sys.stdin:
        printed = Printed()
        try:
            request = json.loads(line)
            worker.current = request.get("id")
            with redirect_stdout(printed), redirect_stderr(printed):
                reply = worker.answer(request)
        except BaseException as e:
            reply = {"error": error_of(e)}
        if os.getpid() != worker.pid:  # a child the student's code forked, back out here: it
            os._exit(0)  # must not answer, nor read the grader's next question
        reply["printed"] = printed.getvalue()
        reply["id"] = worker.current
        worker.send(reply)


if __name__ == "__main__":
    main()
