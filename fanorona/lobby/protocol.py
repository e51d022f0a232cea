"""The lobby's messages: JSON objects with a ``type``, checked field by field before anything acts
on them.

A client is untrusted: every message is read here into plain, checked values or refused with one
sentence that says what is wrong and where.  The server never looks at a field this module did not
check.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

from ..geometry import check_size
from ..rules import PRESETS
from .words import Said

#: The longest message a client may send, in bytes (a turn is about 30).
MAX_BYTES = 4096
#: A client may send this many messages in a burst, then this many a second.
BURST, RATE = 40, 20.0
_NAME = re.compile(r"[A-Za-z0-9_.@-]{1,40}")
_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TURN = re.compile(r"[a-z0-9AW]{4,200}")
_CLOCK = re.compile(r"([0-9]{1,3})\+([0-9]{1,2})")


class ProtocolError(Said):
    """A message the lobby will not read: the sentence (by code, ``words``) says why."""


def _text(pattern: re.Pattern, what: str, example: str):
    def check(value):
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise ProtocolError("bad_text", what=what, example=example)
        return value

    return check


def _whole(what: str, low: int, high: int):
    def check(value):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ProtocolError("bad_whole", what=what, low=low, high=high)
        return value

    return check


def _flag(value):
    if not isinstance(value, bool):
        raise ProtocolError("bad_flag")
    return value


def _size(value):
    try:
        w, h = check_size(value)
    except ValueError as e:
        raise ProtocolError("bad_size", reason=str(e)) from None
    if w * h > 81:
        raise ProtocolError("board_too_big", most=81, size=f"{w}x{h}", n=w * h)
    return f"{w}x{h}"


def _rules(value):
    if value not in PRESETS:
        raise ProtocolError("bad_rules", choices=", ".join(PRESETS))
    return value


def _clock(value):
    """A time control, minutes and an increment in seconds a turn: ``"5+3"``."""
    m = _CLOCK.fullmatch(value) if isinstance(value, str) else None
    if not m or not 0 < int(m[1]) <= 180:
        raise ProtocolError("bad_clock")
    return int(m[1]), int(m[2])


def _optional(check):
    def maybe(value):
        return None if value is None else check(value)

    return maybe


def check_name(name) -> str:
    """A player's name as the lobby keeps it, or the sentence why it cannot be one."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ProtocolError("bad_name", name=repr(name))
    return name


GAME = _text(re.compile(r"g[0-9]{1,9}"), "game", "g12")
NAME = _text(_NAME, "a name", "alice")
#: Each message type and its fields (all required unless they have a default below).
FIELDS = {
    "hello": {"token": _text(_CODE, "token", "Xy3...")},
    "invite": {
        "to": _optional(NAME),
        "size": _size,
        "rules": _rules,
        "clock": _clock,
        "ranked": _flag,
    },
    "accept": {"invitation": _text(_CODE, "invitation", "k2Jd9")},
    "turn": {"game": GAME, "ply": _whole("ply", 0, 100_000), "turn": _text(_TURN, "turn", "d2e3A")},
    "resign": {"game": GAME},
    "offer_draw": {"game": GAME},
    "accept_draw": {"game": GAME},
    "watch": {"game": GAME},
    "end_game": {"game": GAME},
    "class_view": {},
    "ladder": {},
    "record": {"game": GAME},
}
DEFAULTS = {"invite": {"to": None, "size": "9x5", "rules": "standard", "clock": "10+5"}}


@dataclass(frozen=True)
class Message:
    """A checked message: its type, its sequence number and its fields, all plain values."""

    type: str
    seq: int
    fields: dict

    def __getitem__(self, name: str):
        return self.fields[name]


def read(raw: str | bytes) -> Message:
    """The message in ``raw``, checked, or ``ProtocolError`` with the sentence why not."""
    size = len(raw) if isinstance(raw, bytes) or len(raw) > MAX_BYTES else len(raw.encode())
    if size > MAX_BYTES:
        raise ProtocolError("too_big", limit=MAX_BYTES, size=size)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("not_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("not_object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError("bad_type", types=", ".join(FIELDS))
    seq = data.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 < seq < 2**53:
        raise ProtocolError("bad_seq", kind=kind)
    spec = FIELDS[kind]
    extra = set(data) - set(spec) - {"type", "seq"}
    if extra:
        raise ProtocolError("extra_field", kind=kind, field=sorted(extra)[0])
    fields = {}
    for name, check in spec.items():
        if name not in data and name not in DEFAULTS.get(kind, {}):
            raise ProtocolError("missing_field", kind=kind, field=name)
        value = data.get(name, DEFAULTS.get(kind, {}).get(name))
        try:
            fields[name] = check(value)
        except ProtocolError as e:
            raise ProtocolError(e.code, **{**e.params, "kind": kind, "field": name}) from None
    return Message(kind, seq, fields)


class Meter:
    """How fast one client sends: a token bucket of ``BURST`` messages refilled at ``RATE`` a
    second, so a burst of clicks passes and a flood does not."""

    def __init__(self, burst: int = BURST, rate: float = RATE, clock=time.monotonic):
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens, self.last = float(burst), clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
