"""Running a lobby: uvicorn serving the application on a store, in the foreground or on a thread
of its own (for a notebook, the demo and the tests)."""

from __future__ import annotations

import asyncio
import gc
import socket
import threading
import time

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .protocol import Meter
from .server import POLICY, create_app
from .store import Store

#: The largest WebSocket frame uvicorn reads at all; the lobby refuses anything over
#: ``protocol.MAX_BYTES`` itself, with a sentence.
FRAME_LIMIT = 65536
#: WebSocket pings a connection may send: a burst, then this many a second.
PING_BURST, PING_RATE = 10, 2.0
#: Seconds a client has to answer the lobby's closing frame before its connection is cut.
CLOSE_WAIT = 3.0


class MeteredPings(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with the client's pings metered: a ping is answered below the
    application, so no message meter sees it; past the limit the connection is closed.  A
    client that does not answer the closing frame is cut after ``CLOSE_WAIT`` seconds.  A lost
    connection's frame parser is closed, so the connection is freed at once, not left as a cycle
    (the parser's generator holds its protocol) for the next full garbage collection: a thousand
    reconnecting strangers made that collection walk a hundred thousand objects."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.close_timeout = CLOSE_WAIT

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        parser = getattr(getattr(self, "conn", None), "parser", None)
        if parser is not None:
            parser.close()

    def handle_ping(self) -> None:
        if self.close_sent:
            return  # the closing handshake is under way: what the client still sends is dropped
        if not hasattr(self, "pings"):
            self.pings = Meter(PING_BURST, PING_RATE)
        if self.pings.allow():
            super().handle_ping()
            return
        # The closing handshake, as when the application closes: the client's echo (or
        # CLOSE_WAIT) ends the connection.  Cutting it at once, with the flood's frames still
        # unread, made the kernel reset the connection, and the client lost the closing frame.
        reason = f"too many pings: at most {PING_RATE:g} a second"
        self.queue.put_nowait({"type": "websocket.disconnect", "code": POLICY, "reason": reason})
        self.conn.send_close(POLICY, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)


#: Seconds between the full garbage collections of the lobby's own process (``steady_collection``).
FULL_COLLECTION_EVERY = 60.0


def steady_collection(every: float = FULL_COLLECTION_EVERY) -> threading.Thread:
    """In the lobby's own process: what is loaded at the start is frozen out of the garbage
    collector's sight, and the full collection runs once every ``every`` seconds, on a thread,
    instead of whenever young garbage piles up; young collections go on as usual.  A full
    collection walks every live object, and hundreds of connections make that 100 to 300 ms
    during which no turn is relayed (measured in bench_lobby's hostile run: eight such pauses in
    20 s, the relay's p99); once a minute they cost a turn in three hundred at most."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 10**9)  # the full collection left to the thread

    def collect() -> None:
        while True:
            time.sleep(every)
            gc.collect()

    thread = threading.Thread(target=collect, daemon=True, name="lobby-collector")
    thread.start()
    return thread


def more_files() -> None:
    """Raise this process's limit of open files to its hard limit (a class is hundreds of
    connections, and the usual soft limit is 1,024); nothing where there is no such limit."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def config(
    store: Store, host: str = "127.0.0.1", port: int = 8765, app=None, **options
) -> uvicorn.Config:
    """uvicorn's settings for the lobby on ``store`` (or for ``app``, a lobby made elsewhere)."""
    app = app if app is not None else create_app(store)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        ws=MeteredPings,
        ws_max_size=FRAME_LIMIT,
        ws_per_message_deflate=False,  # a turn is tens of bytes: compressing costs, saves nothing
        ws_ping_interval=20,
        log_level=options.pop("log_level", "info"),
        **options,
    )


def port_taken(host: str, port: int) -> str | None:
    """The sentence to say when ``host:port`` cannot be listened on, or None when it can."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            return (
                f"port {port} on {host} is taken ({e.strerror}): another lobby, or another "
                f"program, listens there; choose another with --port (make lobby PORT=...)"
            )
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Background:
    """A lobby on a thread of this process, on 127.0.0.1 and a free port, stopped by ``stop``
    (or by leaving the ``with`` block)."""

    def __init__(self, store: Store, port: int | None = None, **options):
        self.port = port or free_port()
        settings = config(store, "127.0.0.1", self.port, log_level="warning", **options)
        #: The lobby's state (``lobby.Lobby``), for a test to look at.
        self.lobby = settings.app.state.lobby  # type: ignore[union-attr]
        #: Its door for connections not signed in yet (``server.Door``).
        self.door = settings.app.state.door  # type: ignore[union-attr]
        self.server = uvicorn.Server(settings)
        self.thread = threading.Thread(target=self._run, daemon=True, name="lobby-server")
        self.url = f"ws://127.0.0.1:{self.port}/ws"
        self.page = f"http://127.0.0.1:{self.port}/"

    def _run(self) -> None:
        asyncio.run(self.server.serve())

    def start(self) -> Background:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the lobby did not start on port {self.port}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def __enter__(self) -> Background:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
