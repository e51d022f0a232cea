"""Plain data between the grader and the sandboxed worker: what may cross, and how it is read.

The worker runs the student's code; every value it hands back is turned into JSON made of
numbers, strings, lists and one-key tagged objects (``{"set": [...]}``, ``{"step": [...]}``),
so no object of the student's ever exists in the grader's process.  ``loads`` reads a reply
strictly: one line, at most ``MAX_LINE`` bytes, nested at most ``MAX_DEPTH`` deep, only the tags
below; anything else is a ``ProtocolError``.  A value that is not plain data (the student's own
object) stays in the worker and crosses as a handle the grader can ask about.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import json
import math
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

from ..board import Board, Color, Step, Turn
from ..rules import Rules

#: Bytes of one message, and how deep its lists may nest: a larger answer is refused, not read.
MAX_LINE = 8 * 2**20
MAX_DEPTH = 24
#: Members of one collection sent back (a longer one is refused).
MAX_ITEMS = 100_000
#: Values in one message (numbers, strings, collections), and digits of one number: what the
#: grader may build from one reply, whatever its text.
MAX_VALUES = 400_000
MAX_DIGITS = 20
MAX_BIG_DIGITS = 60  # an integer past 2**63 crosses as text, at most this long
#: Objects of the student's (not plain data) in one message: each costs a question to read.
MAX_HANDLES = 1_000
#: Distinct members of one collection that may share a hash: more were built to be slow to hash.
MAX_SHARED_HASH = 8


class ProtocolError(ValueError):
    """A message that is not the plain data the other side was promised."""


# -- the worker's side: any value to plain data ----------------------------------------------------


def encode(value, handle: Callable[[object], int], depth: int = 0):
    """``value`` as JSON-ready plain data; ``handle(obj)`` keeps an object that is not plain data
    in the worker and returns its number.  A collection a student reasonably returns (a subclass
    of a built-in one, a dict view, a deque, a range, a numpy array, an iterator) crosses as the
    built-in collection it stands for, read through the built-in's own methods."""
    if depth > MAX_DEPTH:
        raise ProtocolError(f"the answer nests more than {MAX_DEPTH} levels deep")
    if value is None or type(value) is bool:
        return value
    if isinstance(value, Color):
        return {"color": value.value}
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        number = int.__int__(value)
        return number if abs(number) < 2**63 else {"int": _digits(number)}
    if isinstance(value, float):
        real = float.__float__(value)
        return real if math.isfinite(real) else {"float": repr(real)}
    if isinstance(value, str):
        return str.__str__(value)
    if type(value) is Step:
        return {"step": [value.origin, value.destination, value.capture]}
    if type(value) is Turn:
        return {"turn": [encode(s, handle, depth + 1) for s in value.steps]}
    if type(value) is Board:
        return {"board": board_data(value)}
    found = _collection(value)
    if found is None:
        return {"object": handle(value), "type": type(value).__name__}
    kind, members = found
    if kind == "dict":
        pairs = [[encode(k, handle, depth + 1), encode(v, handle, depth + 1)] for k, v in members]
        return {"dict": pairs}
    if kind == "scalar":
        return encode(members, handle, depth + 1)
    return {kind: [encode(v, handle, depth + 1) for v in members]}


def _digits(number: int) -> str:
    """A large integer as its digits, refused past ``MAX_BIG_DIGITS`` (the grader would be)."""
    if number.bit_length() > MAX_BIG_DIGITS * 3.33:
        raise ProtocolError(f"an integer of more than {MAX_BIG_DIGITS} digits")
    return str(number)


def _first(members) -> list:
    """At most ``MAX_ITEMS`` members; more is refused (the grader would refuse them too)."""
    taken = list(itertools.islice(members, MAX_ITEMS + 1))
    if len(taken) > MAX_ITEMS:
        raise ProtocolError(f"an answer of more than {MAX_ITEMS:,} members")
    return taken


_VIEWS: tuple[type, ...] = (type({}.keys()), type({}.values()), type({}.items()), range)


def _collection(value: Any) -> tuple[str, Any] | None:
    """(kind, members) of a collection, through the built-in type's own methods (a subclass's
    ``__iter__`` is not asked); a numpy value as ("scalar", the Python number) or a list."""
    if isinstance(value, dict):
        return "dict", _first(dict.items(value))
    for base, kind in _COLLECTIONS:
        if isinstance(value, base):
            return kind, _first(base.__iter__(value))
    if isinstance(value, collections.deque):
        return "list", _first(collections.deque.__iter__(value))
    if type(value) in _VIEWS:  # none of these can be subclassed
        return "list", _first(value.__iter__())
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.generic):
        return "scalar", numpy.generic.item(value)
    if numpy is not None and isinstance(value, numpy.ndarray):
        if value.size > MAX_ITEMS:
            raise ProtocolError(f"an answer of more than {MAX_ITEMS:,} members")
        as_list = numpy.ndarray.tolist(value)
        return ("list", as_list) if isinstance(as_list, list) else ("scalar", as_list)
    if isinstance(value, Iterator) and type(value).__module__ in ("builtins", "itertools"):
        return "list", _first(value)  # a generator, map, zip, filter: its code runs here
    return None


_COLLECTIONS: tuple[tuple[Any, str], ...] = (
    (list, "list"),
    (tuple, "tuple"),
    (set, "set"),
    (frozenset, "frozenset"),
)


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


def board_state(
    board,
    _get=object.__getattribute__,
    _type=type,
    _list=list,
    _len=len,
    _Board=Board,
    _vars=vars,
) -> list | None:
    """What a student's function must leave as it was on a board it is given, as plain data read
    from the board's own attributes (not through its methods, which graded code may replace):
    its stones, side to move, chain, counters, turns and rules; None when it is no longer a
    board.  The worker reports it after a call; the grader compares it with the same reading of
    the board it sent (the arguments here bind what it uses before any student code runs)."""
    try:
        if _type(board) is not _Board:
            return None
        state = [_get(board, name) for name in ("_white", "_black", "_quiet", "_ply", "_chain")]
        if not all(_type(v) is int for v in state[:4]):
            return None
        chain = state[4]
        if chain is not None and not (
            _type(chain) is tuple and _len(chain) == 4 and all(_type(v) is int for v in chain)
        ):
            return None
        state[4] = None if chain is None else _list(chain)
        to_move = _get(board, "_to_move")
        turns = _get(board, "turns")
        history = _get(board, "_history")
        rules = _get(board, "rules")
        geometry = _get(board, "geometry")
        if _type(turns) is not _list or _type(history) is not _list:
            return None
        plain_turns = []
        for turn in _list.copy(turns):
            steps = _get(turn, "steps")
            if _type(steps) is not tuple:
                return None
            plain_turns.append(
                [[_get(s, "origin"), _get(s, "destination"), _get(s, "capture")] for s in steps]
            )
        settings = sorted(
            (k, v) for k, v in dict.items(_vars(rules)) if _type(v) in (bool, int, str, _type(None))
        )
        return [
            *state,
            _get(to_move, "_value_"),
            _len(history),
            plain_turns,
            [list(kv) for kv in settings],
            [_get(geometry, "width"), _get(geometry, "height")],
        ]
    except Exception:  # an attribute the student's code took away or made unreadable
        return None


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


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_LONG_NUMBER = re.compile(rb"[0-9]{%d,}" % (MAX_DIGITS + 1))
_BRACKETS = re.compile(rb"[\[\]{}]")


def loads(line: bytes):
    """One message, measured before any Python object is built from it (its bytes, the depth of
    its brackets, the digits of its numbers, how many values it holds), then read strictly."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a message of {len(line):,} bytes is more than {MAX_LINE:,}")
    bare = _STRING.sub(b"", line)  # what is left outside strings: numbers, brackets, commas
    if _LONG_NUMBER.search(bare):
        raise ProtocolError(f"a number of more than {MAX_DIGITS} digits")
    values = bare.count(b",") + bare.count(b":") + 1
    if values > MAX_VALUES:
        raise ProtocolError(f"a message of more than {MAX_VALUES:,} values")
    depth = deepest = 0
    for bracket in _BRACKETS.findall(bare):
        depth += 1 if bracket in (b"[", b"{") else -1
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH + 4:
        raise ProtocolError(f"a message nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        raise ProtocolError(f"a message that is not JSON ({type(e).__name__})") from None


def _no_constant(name: str):
    raise ProtocolError(f"{name} is not a number JSON allows")


def spread(members: list) -> list:
    """``members`` unchanged, unless more than ``MAX_SHARED_HASH`` distinct ones share a hash (a
    set or dict of them would take the grader quadratic time to build): then refused."""
    sharing: dict[int, list] = {}
    for member in members:
        try:
            key = hash(member)
        except TypeError:
            continue  # not hashable: no set or dict is built of it
        same = sharing.setdefault(key, [])
        if any(type(other) is type(member) and other == member for other in same):
            continue
        same.append(member)
        if len(same) > MAX_SHARED_HASH:
            raise ProtocolError(
                f"an answer with more than {MAX_SHARED_HASH} different members of one hash (a"
                " collection built to be slow to compare)"
            )
    return members


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
    if len(body) > MAX_ITEMS:
        raise ProtocolError(f"a collection of more than {MAX_ITEMS:,} members")
    return spread([decode(v, remote) for v in body])


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
    "dict": lambda body, remote: _dict(body, remote),
    "float": lambda body, remote: float(body) if body in ("inf", "-inf", "nan") else _bad(body),
    "int": lambda body, remote: _big(body),
    "color": lambda body, remote: Color(body),
    "step": lambda body, remote: Step(*_strings(body, 3)),
    "turn": lambda body, remote: Turn(tuple(decode(s, remote) for s in body)),
    "board": lambda body, remote: board_from(body),
}


def _dict(body, remote) -> dict:
    if not isinstance(body, list) or len(body) > MAX_ITEMS:
        raise ProtocolError(f"a dict's items come as a list of at most {MAX_ITEMS:,}")
    pairs = [(decode(k, remote), decode(v, remote)) for k, v in map(_pair, body)]
    spread([k for k, _v in pairs])
    return dict(pairs)


def _pair(pair):
    if not (isinstance(pair, list) and len(pair) == 2):
        raise ProtocolError("a dict's items come as [key, value] pairs")
    return pair


def _strings(body, n: int) -> list:
    if not (isinstance(body, list) and len(body) == n):
        raise ProtocolError(f"{n} parts expected")
    return body


def _big(body) -> int:
    if not (isinstance(body, str) and len(body) <= MAX_BIG_DIGITS + 1):
        raise ProtocolError(f"an integer of more than {MAX_BIG_DIGITS} digits")
    if not re.fullmatch(r"-?[0-9]+", body):
        raise ProtocolError(f"{body[:20]!r} is not an integer's digits")
    return int(body)


def _bad(body):
    raise ProtocolError(f"{body!r} is not a float's text")
