"""Plain data between the grader and the sandboxed worker: what may cross, and how it is read.

The worker runs the student's code; every value it hands back is turned into JSON made of
numbers, strings, lists and one-key tagged objects (``{"set": [...]}``, ``{"step": [...]}``),
so no object of the student's ever exists in the grader's process.  ``loads`` reads a reply
strictly: one line, at most ``MAX_LINE`` bytes, nested at most ``MAX_DEPTH`` deep, only the tags
below; anything else is a ``ProtocolError``.  A value that is not plain data (the student's own
object) stays in the worker and crosses as a handle the grader can ask about.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable

from ..board import Board, Color, Step, Turn
from ..rules import Rules

#: Bytes of one message, and how deep its lists may nest: a larger answer is refused, not read.
MAX_LINE = 32 * 2**20
MAX_DEPTH = 24
#: Members of one collection sent back (a longer one is cut, and says so by its length).
MAX_ITEMS = 100_000


class ProtocolError(ValueError):
    """A message that is not the plain data the other side was promised."""


# -- the worker's side: any value to plain data ----------------------------------------------------


def encode(value, handle: Callable[[object], int], depth: int = 0):
    """``value`` as JSON-ready plain data; ``handle(obj)`` keeps an object that is not plain data
    in the worker and returns its number."""
    if depth > MAX_DEPTH:
        raise ProtocolError(f"the answer nests more than {MAX_DEPTH} levels deep")
    if value is None or type(value) is bool:
        return value
    if isinstance(value, Color):
        return {"color": value.value}
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return (
            int.__int__(value) if abs(value) < 2**63 else {"object": handle(value), "type": "int"}
        )
    if isinstance(value, float):
        number = float.__float__(value)
        return number if math.isfinite(number) else {"float": repr(number)}
    if isinstance(value, str):
        return str.__str__(value)
    if type(value) is Step:
        return {"step": [value.origin, value.destination, value.capture]}
    if type(value) is Turn:
        return {"turn": [encode(s, handle, depth + 1) for s in value.steps]}
    if type(value) is Board:
        return {"board": board_data(value)}
    kind = _COLLECTIONS.get(type(value))
    if kind == "dict":
        items = list(value.items())[:MAX_ITEMS]
        return {
            "dict": [[encode(k, handle, depth + 1), encode(v, handle, depth + 1)] for k, v in items]
        }
    if kind is not None:
        return {kind: [encode(v, handle, depth + 1) for v in list(value)[:MAX_ITEMS]]}
    return {"object": handle(value), "type": type(value).__name__}


_COLLECTIONS: dict[type, str] = {
    list: "list",
    tuple: "tuple",
    set: "set",
    frozenset: "frozenset",
    dict: "dict",
}


def board_data(board: Board) -> dict:
    """A board as plain data: its position, rules and the turns played; a board in the middle of
    a capture chain also its first position and every move since (replayed: it costs more)."""
    data: dict = {"rules": dataclasses.asdict(board.rules)}
    if board.chain_stone is None:
        data["fen"] = board.fen()
        data["turns"] = [_steps(turn) for turn in board.turns]
        return data
    data["root"] = board.root().fen()
    data["moves"] = [
        "end_turn"
        if isinstance(move, str)
        else {"turn" if isinstance(move, Turn) else "step": _steps(move)}
        for move, _snapshot in board._history
    ]
    return data


def _steps(move) -> list:
    steps = move.steps if isinstance(move, Turn) else (move,)
    return [[s.origin, s.destination, s.capture] for s in steps]


def _turn(steps) -> Turn:
    return Turn(tuple(Step(*_strings(s, 3)) for s in steps))


def board_from(data) -> Board:
    """The board ``board_data`` described (in either process: it is the grader's own data)."""
    if not isinstance(data, dict) or "rules" not in data:
        raise ProtocolError("a board is sent as its rules and position")
    rules = Rules(**data["rules"])
    if "fen" in data:
        board = Board.from_fen(data["fen"], rules)
        board.turns = [_turn(t) for t in data["turns"]]
        return board
    board = Board.from_fen(data["root"], rules)
    for move in data["moves"]:
        if move == "end_turn":
            board.end_turn()
        elif isinstance(move, dict) and len(move) == 1 and ("step" in move or "turn" in move):
            turn = _turn(move.get("step") or move["turn"])
            board.push(turn.steps[0] if "step" in move else turn)
        else:
            raise ProtocolError("a move is a step, a turn or end_turn")
    return board


# -- the grader's side: a reply read strictly ------------------------------------------------------


def loads(line: bytes):
    """One message, read strictly (its size, its depth, only JSON's own types)."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a message of {len(line):,} bytes is more than {MAX_LINE:,}")
    try:
        message = json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        raise ProtocolError(f"a message that is not JSON ({type(e).__name__})") from None
    _check_depth(message, 0)
    return message


def _no_constant(name: str):
    raise ProtocolError(f"{name} is not a number JSON allows")


def _check_depth(value, depth: int) -> None:
    if depth > MAX_DEPTH + 4:
        raise ProtocolError(f"a message nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, list):
        for v in value:
            _check_depth(v, depth + 1)
    elif isinstance(value, dict):
        for v in value.values():
            _check_depth(v, depth + 1)


def decode(data, remote: Callable[[int, str], object]):
    """Plain data back into values the checkers compare: lists, tuples, sets, dicts, fanorona's
    own ``Step``, ``Turn``, ``Board`` and ``Color`` (built here, from text); ``remote(number,
    type_name)`` stands for an object that stayed in the worker."""
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        raise ProtocolError("a bare list where a tagged value belongs")
    if isinstance(data, dict) and "object" in data and len(data) == 2:
        return _object(data, remote)
    if not isinstance(data, dict) or len(data) != 1:
        raise ProtocolError("a value that is not one tagged object")
    tag, body = next(iter(data.items()))
    try:
        return _DECODE[tag](body, remote)
    except KeyError:
        raise ProtocolError(f"an unknown kind of value {tag!r}") from None
    except (TypeError, ValueError) as e:
        if isinstance(e, ProtocolError):
            raise
        raise ProtocolError(f"a {tag} that cannot be read ({e})") from None


def _items(body, remote) -> list:
    if not isinstance(body, list):
        raise ProtocolError("a collection's members come as a list")
    return [decode(v, remote) for v in body]


def _object(data: dict, remote):
    number, kind = data.get("object"), data.get("type")
    if type(number) is not int or not isinstance(kind, str):
        raise ProtocolError("an object handle is a number and a type name")
    return remote(number, kind)


_DECODE: dict[str, Callable] = {
    "list": _items,
    "tuple": lambda body, remote: tuple(_items(body, remote)),
    "set": lambda body, remote: set(_items(body, remote)),
    "frozenset": lambda body, remote: frozenset(_items(body, remote)),
    "dict": lambda body, remote: {
        decode(k, remote): decode(v, remote) for k, v in (_pair(p) for p in body)
    },
    "float": lambda body, remote: float(body) if body in ("inf", "-inf", "nan") else _bad(body),
    "color": lambda body, remote: Color(body),
    "step": lambda body, remote: Step(*_strings(body, 3)),
    "turn": lambda body, remote: Turn(tuple(decode(s, remote) for s in body)),
    "board": lambda body, remote: board_from(body),
}


def _pair(pair):
    if not (isinstance(pair, list) and len(pair) == 2):
        raise ProtocolError("a dict's items come as [key, value] pairs")
    return pair


def _strings(body, n: int) -> list:
    if not (isinstance(body, list) and len(body) == n):
        raise ProtocolError(f"{n} parts expected")
    return body


def _bad(body):
    raise ProtocolError(f"{body!r} is not a float's text")
