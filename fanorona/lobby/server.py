"""The lobby as an ASGI application (Starlette): one WebSocket endpoint for every client, and the
pages it serves itself (the class view, a spectator's and a player's board).

Who a client is comes from its first message (``{"type": "hello", "token": ...}``) or an
``Authorization: Bearer`` header, never from the URL, so no token lands in an access log.  Each
client's messages are read one at a time and checked (size, JSON, fields, rate) before the lobby
sees them; a client that breaks the protocol is told why in one sentence and dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import OrderedDict, deque
from importlib import resources

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .lobby import Lobby, Member
from .protocol import ProtocolError, read
from .store import Store
from .words import SIDES, WORDS, Said

#: Seconds a new connection has to say who it is.
HELLO_WAIT = 3.0
#: Connections not signed in yet, at most: a quarter of the files this process may open (at
#: most ``STRANGERS``), three quarters of that from one address; past either, the oldest of them is
#: closed, so the newcomer (who says hello at once) gets in.
STRANGERS = 4096


def stranger_caps() -> tuple[int, int]:
    """The caps on connections not signed in, in all and from one address, from this process's
    limit of open files (so the students' own connections always find one)."""
    try:
        import resource

        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except ImportError:  # Windows: no such limit
        files = 4 * STRANGERS
    cap = max(16, min(STRANGERS, files // 4 if files > 0 else STRANGERS))
    return cap, cap * 3 // 4


#: Messages queued for a client that does not read them before it is dropped.
BACKLOG = 500
#: The WebSocket close code for a broken protocol (RFC 6455: policy violation).
POLICY = 1008


class Relay:
    """The lobby's own measure of a turn's relay: from reading the mover's message to writing the
    turn to each player's socket, for the last ``KEPT`` turns written, and how late its event
    loop wakes (``lag``: a message waits that long before it is read); ``/relay`` shows both."""

    KEPT = 20_000
    TICK = 0.01  # seconds between the lag meter's wake-ups

    def __init__(self):
        self.arrived: float | None = None  # when the message being handled was read
        self.times: deque = deque(maxlen=self.KEPT)
        self.lags: deque = deque(maxlen=self.KEPT)

    async def metering(self) -> None:
        """Sleep a tick at a time, and keep how much later than asked each wake-up came."""
        while True:
            before = time.perf_counter()
            await asyncio.sleep(self.TICK)
            self.lags.append(time.perf_counter() - before - self.TICK)

    def summary(self) -> dict:
        said: dict = {"turns": len(self.times)}
        for name, kept in (("relay", self.times), ("lag", self.lags)):
            ms = sorted(1000 * t for t in kept)
            for q, key in ((0.5, "p50_ms"), (0.99, "p99_ms"), (1.0, "max_ms")):
                said[f"{name}_{key}"] = (
                    round(ms[min(len(ms) - 1, int(q * len(ms)))], 2) if ms else None
                )
        return said


class Client:
    """One connection: who it is, and a queue of messages a task writes to the socket, so the
    lobby never waits for a slow reader."""

    def __init__(self, ws: WebSocket, name: str, role: str, relay: Relay | None = None):
        self.ws, self.name, self.role = ws, name, role
        self.relay = relay or Relay()
        self.queue: asyncio.Queue = asyncio.Queue()
        self.gone = False

    def send(self, message: dict) -> None:
        if self.gone:
            return
        if self.queue.qsize() >= BACKLOG:
            self.drop(Said("backlog", n=BACKLOG))
            return
        arrived = self.relay.arrived if message.get("type") == "turn" else None
        self.queue.put_nowait((json.dumps(message), arrived))

    def drop(self, why: Said) -> None:
        """Say ``why`` and close the connection after it."""
        if not self.gone:
            self.queue.put_nowait((json.dumps({"type": "error", **why.fields()}), None))
            self.queue.put_nowait(None)
            self.gone = True

    async def pump(self) -> None:
        while (item := await self.queue.get()) is not None:
            text, arrived = item
            await self.ws.send_text(text)
            if arrived is not None:
                self.relay.times.append(time.perf_counter() - arrived)
        await self.ws.close(POLICY)


class Identities:
    """Who a token belongs to: the lobby's own tokens (``Store.who``), or another's word, e.g. the
    hub's (``hub.HubIdentities``)."""

    def __init__(self, store: Store):
        self.store = store

    async def from_headers(self, ws: WebSocket) -> tuple[str, str] | None:
        kind, _, token = ws.headers.get("authorization", "").partition(" ")
        return self.store.who(token.strip()) if kind.lower() == "bearer" and token else None

    async def from_token(self, token: str) -> tuple[str, str] | None:
        return self.store.who(token)


class Door:
    """The connections that have not signed in yet, oldest first, each with its address: a cap
    in all and one per address, the oldest closed to make room.  Every step is O(1): a thousand
    strangers cost each newcomer nothing more than one."""

    def __init__(self, cap: int | None = None, each: int | None = None):
        caps = stranger_caps()
        self.cap, self.each = cap or caps[0], each or caps[1]
        self.waiting: OrderedDict = OrderedDict()  # ws -> (address, the task waiting for hello)
        self.by_address: dict[str, OrderedDict] = {}  # address -> its waiting ws, oldest first

    def enter(self, ws: WebSocket, task: asyncio.Task | None) -> None:
        address = ws.client.host if ws.client else ""
        mine = self.by_address.setdefault(address, OrderedDict())
        if len(mine) >= self.each:
            self._evict(next(iter(mine)))
        elif len(self.waiting) >= self.cap:
            self._evict(next(iter(self.waiting)))
        self.waiting[ws] = (address, task)
        mine[ws] = None

    def _evict(self, ws: WebSocket) -> None:
        _, task = self._forget(ws)
        if task is not None:
            task.cancel()

    def _forget(self, ws: WebSocket) -> tuple:
        address, task = self.waiting.pop(ws, (None, None))
        mine = self.by_address.get(address)
        if mine is not None:
            mine.pop(ws, None)
            if not mine:
                del self.by_address[address]
        return address, task

    def signed_in(self, ws: WebSocket) -> None:
        self._forget(ws)


async def _receive(ws: WebSocket) -> str | bytes | None:
    """The next message's text or bytes, or None when the client has gone."""
    event = await ws.receive()
    if event["type"] == "websocket.disconnect":
        return None
    return event.get("text") if event.get("text") is not None else event.get("bytes", b"")


async def _hello(ws: WebSocket, identities: Identities) -> tuple[str, str] | Said | None:
    """Who the connection is, or the sentence why it is not let in (None: it went)."""
    found = await identities.from_headers(ws)
    if found:
        return found
    try:
        raw = await asyncio.wait_for(_receive(ws), HELLO_WAIT)
    except asyncio.TimeoutError:
        return Said("hello_late", seconds=f"{HELLO_WAIT:.0f}")
    if raw is None:
        return None
    try:
        message = read(raw)
    except ProtocolError as e:
        return e
    if message.type != "hello":
        return Said("hello_first")
    found = await identities.from_token(message["token"])
    return found or Said("unknown_token")


def intake(lobby: Lobby, client: Member, raw: str | bytes) -> None:
    """Read one message from ``client`` and act on it: a broken one drops the client with its
    sentence, an old one (its ``seq`` not above the last) is refused, the rest go to the lobby."""
    try:
        message = read(raw)
    except ProtocolError as e:
        client.drop(e)
        return
    if message.type == "hello":
        client.drop(Said("hello_twice"))
    elif message.seq <= lobby.seqs.get(client.name, 0):
        client.send(
            {"type": "refused", "seq": message.seq, **Said("seq_used", seq=message.seq).fields()}
        )
    else:
        lobby.seqs[client.name] = message.seq
        lobby.handle(client, message)


async def serve_client(
    ws: WebSocket, lobby: Lobby, identities: Identities, door: Door, relay: Relay
) -> None:
    await ws.accept()
    hello = asyncio.ensure_future(_hello(ws, identities))
    door.enter(ws, hello)
    try:
        who = await hello
    except asyncio.CancelledError:
        if not hello.cancelled():
            raise
        who = Said("door_full")
    finally:
        door.signed_in(ws)
    if not isinstance(who, tuple):
        if who is not None:
            with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
                await ws.send_text(json.dumps({"type": "error", **who.fields()}))
                await ws.close(POLICY)
        return
    client = Client(ws, *who, relay)
    pump = asyncio.create_task(client.pump())
    lobby.arrive(client)
    meter = lobby.meter(client.name)
    try:
        while not client.gone and (raw := await _receive(ws)) is not None:
            if not meter.allow():
                client.drop(Said("rate", rate=f"{meter.rate:g}"))
                break
            relay.arrived = time.perf_counter()
            intake(lobby, client, raw)
            relay.arrived = None
    except WebSocketDisconnect:
        pass
    finally:
        lobby.leave(client)
        client.gone = True
        client.queue.put_nowait(None)
        try:
            await asyncio.wait_for(pump, 2.0)
        except (asyncio.TimeoutError, RuntimeError, OSError, WebSocketDisconnect):
            pump.cancel()


def board_page(signin: str = "token") -> HTMLResponse:
    """The lobby's page; ``signin``: "token" (typed in) or "hub" (the hub's cookie)."""
    page = resources.files(__package__).joinpath("pages").joinpath("board.html")
    text = page.read_text(encoding="utf-8")
    said = json.dumps({"words": WORDS, "sides": SIDES}, ensure_ascii=False).replace("</", "<\\/")
    text = text.replace('/*server-words*/{"words": {}, "sides": {}}', said, 1)
    return HTMLResponse(text.replace('data-signin="token"', f'data-signin="{signin}"'))


def create_app(
    store: Store, identities: Identities | None = None, signin: str = "token"
) -> Starlette:
    """The lobby's application on ``store``; ``identities`` says who tokens belong to (by default
    the store's own), ``signin`` how its page signs in."""
    lobby = Lobby(store)
    who = identities or Identities(store)
    door, relay = Door(), Relay()

    async def websocket(ws: WebSocket) -> None:
        await serve_client(ws, lobby, who, door, relay)

    async def page(request) -> HTMLResponse:
        return board_page(signin)

    async def health(request) -> PlainTextResponse:
        return PlainTextResponse(f"{len(lobby.online)} online, {len(lobby.games)} games\n")

    async def relayed(request) -> JSONResponse:
        return JSONResponse(relay.summary())

    @contextlib.asynccontextmanager
    async def lifespan(app):
        """Bring back the live games a stopped lobby left, and beat while serving."""
        lobby.tables.restore()
        beating = asyncio.create_task(lobby.tables.beating())
        metering = asyncio.create_task(relay.metering())
        try:
            yield
        finally:
            beating.cancel()
            metering.cancel()
            lobby.tables.beat()

    app = Starlette(
        routes=[
            WebSocketRoute("/ws", websocket),
            Route("/", page),
            Route("/health", health),
            Route("/relay", relayed),
        ],
        lifespan=lifespan,
    )
    app.state.lobby, app.state.door = lobby, door
    return app
