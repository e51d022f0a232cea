"""The sandboxed side of grading: runs the student's notebook code and answers questions about it.

``python -m fanorona.grading.worker`` (started by ``remote.Session`` inside the sandbox, from a
copy of the package without the checkers or the grader) reads one JSON request a line on stdin
and writes one JSON reply a line: run a cell's source, look up a name, call a function or a
method, read an attribute.  Answers are plain data (``plain.encode``); the student's own objects
stay here and cross as numbers.  The worker judges nothing: after a call it reports the state of
each board it was given (``plain.board_state``), for a figure its layout and picture
(``readback``), and the grader compares them with what it sent.  The loop and everything it
reports with are bound in ``serve`` before the student's code runs, as local names, from copies
of ``plain`` and ``readback`` of its own, so a cell that replaces a function of this module, of
``plain`` or ``readback``, or a method of the board, changes nothing the worker reports.
"""

from __future__ import annotations

import importlib.util
import io
import json
import math
import os
import signal
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


def private(name: str):
    """A copy of the module ``name`` of the worker's own, not in ``sys.modules``: what graded code
    changes in the module it imports by that name does not reach this one."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"the worker needs {name}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def serve(fd_in: int, fd_out: int) -> None:
    """Answer the grader's requests on ``fd_in`` with one line each on ``fd_out`` until the input
    ends.  Every name the loop uses is bound here, before any cell runs, as a local of this call."""
    from fanorona.board import Board
    from fanorona.grading import kernel

    readback, plain = private("fanorona.readback"), private("fanorona.grading.plain")

    dumps, loads, write, read, getpid, leave = (
        json.dumps,
        json.loads,
        os.write,
        os.read,
        os.getpid,
        os._exit,
    )
    encode, decode, board_state = plain.encode, plain.decode, plain.board_state
    take, laid_out, layout, press = (
        readback.take,
        readback.laid_out,
        readback.layout,
        readback.press,
    )
    python_of, remember, limit, errors = kernel.python_of, kernel.remember, time_limit, error_of
    is_, str_, int_, float_, list_, dict_, len_, type_ = (
        isinstance,
        str,
        int,
        float,
        list,
        dict,
        len,
        type,
    )
    redirect_out, redirect_err, printed_of = redirect_stdout, redirect_stderr, Printed
    namespace: dict = {"__name__": "__main__"}
    kernel.prepare(namespace)
    by_number: dict[int, object] = {}
    numbers: dict[int, int] = {}
    pid = getpid()  # the worker itself, not a child forked by the student's code
    current: list = [None]  # the number of the request being answered, named in each reply
    cells = [0]

    def handle(value) -> int:
        number = numbers.get(id(value))
        if number is None:
            number = numbers[id(value)] = len_(by_number) + 1
            by_number[number] = value
        return number

    def get(number, _kind: str = ""):
        try:
            return by_number[number]
        except (KeyError, TypeError):
            raise LookupError(f"no object number {number}") from None

    def send(message: dict) -> None:
        """One line to the grader (JSON: a value JSON cannot hold is sent as an error)."""
        try:
            text = dumps(message, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as e:
            text = dumps({"error": errors(e), "printed": "", "id": current[0]})
        data = (text + "\n").encode()
        while data:
            data = data[write(fd_out, data) :]

    def value(result):
        return encode(result, handle)

    def argument(data):
        return decode(data, get)

    def call(target, request: dict) -> dict:
        """The student's function on the arguments, and the state of each board among them
        after the call (the grader compares it with the board it sent)."""
        args = [argument(a) for a in request.get("args", [])]
        kwargs = {str_(k): argument(v) for k, v in dict_.items(request.get("kwargs", {}))}
        boards = [i for i, a in enumerate(args) if type_(a) is Board]
        result = target(*args, **kwargs)
        if hasattr(result, "__next__"):  # a generator's code runs here, not in the grader
            result = list_(result)
        answer = value(result)
        return {"value": answer, "after": [[i, board_state(args[i])] for i in boards]}

    def figure(op: str, target, args: list, request: dict):
        """``draw``: the picture ``target(board, ax)`` draws on a new Axes of ``figsize``, and
        the board's state after it; ``layout``, ``press`` (at display pixels the grader worked
        out) and ``look`` (the picture) on a figure the student's code returned."""
        if op == "draw":
            board = args[0]
            shot = take(lambda ax: target(board, ax), request["figsize"])
            return {**shot, "after": board_state(board)}
        if op == "layout":
            return layout(target)
        if op == "press":
            x, y = (float_(v) for v in args)
            press(target, x, y)
            return None
        return laid_out(target.axes[0]) if layout(target) is not None else {}

    def search(target, nodes: dict, alphabeta: bool, most: int) -> dict:
        """The student's search ``target`` on a ``Tree`` of ``nodes`` from its root ``"A"``, max
        to move (alpha-beta's window open if ``alphabeta``): its value and, at most ``most`` of
        them, the nodes it looked at, in order."""
        tree = Tree(nodes, most)
        if alphabeta:
            found = target(tree, "A", True, -math.inf, math.inf)
        else:
            found = target(tree, "A", True)
        return {"value": found, "looked": list_(tree.looked[:most])}

    def each(target, calls: list, seconds: float) -> int:
        """Call ``target`` on each argument list, each call under ``seconds``, and send each
        answer on its own line as soon as it is known (so the grader times each call, even one
        stuck in C code); a call that runs out of time or is unfinished ends the list."""
        sent = 0
        for args in calls:
            try:
                with limit(seconds):
                    entry = call(target, {"args": args})
                stop = False
            except TimeUp:
                entry, stop = {"error": {"type": "TimeUp", "message": ""}}, True
            except BaseException as e:  # the student's exception is the answer
                entry = {"error": errors(e)}
                stop = is_(e, (NotImplementedError, SystemExit, KeyboardInterrupt))
            if getpid() != pid:  # a child the student's call forked: it must not answer
                leave(0)
            send({"entry": entry, "printed": "", "id": current[0]})
            sent += 1
            if stop:
                break
        return sent

    def special(target, name: str, args: list):
        """The few built-in operations the checkers use on a student's object."""
        args = [argument(a) for a in args]
        operations = {
            "str": lambda: str_(target),
            "repr": lambda: repr(target),
            "len": lambda: len_(target),
            "bool": lambda: bool(target),
            "iter": lambda: list_(target),
            "getitem": lambda: target[args[0]],
        }
        return operations[name]()

    def file_text(expression: str) -> str | None:
        """The text of the file at the path ``expression`` names in the notebook (a player the
        notebook wrote, by any means), at most ``PLAYER_BYTES``; None if there is none."""
        try:
            path = eval(expression, namespace)
            with open(path, encoding="utf-8") as f:
                return f.read(PLAYER_BYTES)
        except Exception:  # no such name or file: the grader says so
            return None

    def answer(request: dict) -> dict:
        op = request.get("op")
        if op == "run":
            cells[0] += 1
            name = f"<cell {cells[0]}>"
            source = python_of(request["source"])
            remember(name, source)
            with limit(float_(request.get("limit", 3600))):
                exec(compile(source, name, "exec"), namespace)
            return {"value": None}
        if op == "read":
            return {"value": file_text(request["expression"])}
        if op == "get":
            return {"value": value(namespace[request["name"]])}
        target = get(request["target"])
        if op == "call":
            return call(target, request)
        if op == "map":
            return {"value": each(target, request["calls"], request["limit"])}
        if op == "attr":
            return {"value": value(getattr(target, request["name"]))}
        if op == "setattr":
            setattr(target, request["name"], argument(request["value"]))
            return {"value": None}
        if op == "special":
            return {"value": value(special(target, request["name"], request.get("args", [])))}
        if op == "search":
            nodes, most = argument(request["args"][0]), int_(request["limit"])
            return {"value": value(search(target, nodes, request["alphabeta"], most))}
        if op in FIGURES:
            args = [argument(a) for a in request.get("args", [])]
            return {"value": value(figure(op, target, args, request))}
        raise ValueError(f"no such request {op!r}")

    buffer = b""
    while True:
        while b"\n" not in buffer:
            chunk = read(fd_in, 1 << 16)
            if not chunk:
                return
            buffer += chunk
        line, _, buffer = buffer.partition(b"\n")
        printed = printed_of()
        try:
            request = loads(line)
            current[0] = request.get("id")
            with redirect_out(printed), redirect_err(printed):
                reply = answer(request)
        except BaseException as e:
            reply = {"error": errors(e)}
        if getpid() != pid:  # a child the student's code forked, back out here: it must not
            leave(0)  # answer, nor read the grader's next question
        reply["printed"] = printed.getvalue()
        reply["id"] = current[0]
        send(reply)


#: Requests about drawings (``fanorona.readback``): the picture crosses as plain data.
FIGURES = ("draw", "layout", "press", "look")


def main() -> None:
    os.environ.setdefault("MPLBACKEND", "Agg")
    channel = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the student's os.write(1, ...) cannot garble the replies
    serve(0, channel)


if __name__ == "__main__":
    main()
