"""The lobby as a JupyterHub managed service: who a student is comes from the hub's own OAuth
(``jupyterhub.services.auth.HubOAuth``), not from the lobby's tokens.

Entry point: ``python -m fanorona.lobby hub`` (the service's ``command``).  It reads what the hub
sets for a managed service (``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_API_URL``,
``JUPYTERHUB_SERVICE_PREFIX``, ``JUPYTERHUB_SERVICE_URL``, ``JUPYTERHUB_CLIENT_ID``,
``JUPYTERHUB_OAUTH_CALLBACK_URL``, ``JUPYTERHUB_HOST``) and three of its own:
``FANORONA_LOBBY_DB`` (the SQLite file, ``lobby.sqlite``), ``FANORONA_LOBBY_INSTRUCTORS`` (names,
comma-separated; hub admins are instructors too) and ``FANORONA_LOBBY_INSTRUCTOR_GROUP`` (a hub
group whose members are instructors, ``instructors``).

A browser signs in through the hub (``/oauth_callback`` takes the code, with PKCE) and keeps the
hub's token in an HttpOnly cookie the WebSocket sends; a notebook's ``LobbyClient`` sends its
server's ``JUPYTERHUB_API_TOKEN`` as the hello token.  Either way the hub says whose it is.
"""

from __future__ import annotations

import os
import secrets
import sys
import time
from urllib.parse import urlencode, urlsplit

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.websockets import WebSocket

from .server import Identities, board_page, create_app
from .store import Store

COOKIE = "fanorona-lobby-token"
#: Seconds a sign-in through the hub may take.
STATE_AGE = 600


def same_origin(origin: str, own: str) -> bool:
    """Whether two origins (``scheme://host[:port]``) are one: scheme, host and port compared,
    a missing port read as its scheme's default."""
    a, b = urlsplit(origin), urlsplit(own)
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}
    try:
        ports = (a.port or default.get(a.scheme), b.port or default.get(b.scheme))
    except ValueError:  # a port that is not a number
        return False
    return bool(a.scheme) and (a.scheme, a.hostname, ports[0]) == (b.scheme, b.hostname, ports[1])


class HubIdentities(Identities):
    """Whose a hub token is, by asking the hub (``auth.user_for_token``), if the token carries the
    lobby's own service scope (``auth.access_scopes``, ``access:services!service=<name>``); the
    role from the hub's admin flag, a group, or the instructors' names.  ``origin`` is the
    lobby's public origin, the only one whose pages may use its cookie (by default the request's
    own ``Host``, in the scheme the request came in)."""

    def __init__(self, store: Store, auth, instructors=(), group="instructors", origin=""):
        super().__init__(store)
        self.auth, self.instructors, self.group = auth, set(instructors), group
        self.origin = origin

    async def user(self, token: str) -> tuple[str, str] | None:
        if not token:
            return None
        user = await self.auth.user_for_token(token, sync=False)
        if not user or "name" not in user:
            return None
        wanted = set(self.auth.access_scopes or ())
        if not wanted or not self.auth.check_scopes(wanted, user):
            return None  # a token of this user, but not one for the lobby
        name = user["name"]
        instructor = (
            user.get("admin") or name in self.instructors or self.group in user.get("groups", [])
        )
        role = "instructor" if instructor else "student"
        self.store.ensure_player(name, role)
        return name, role

    async def from_headers(self, ws: WebSocket) -> tuple[str, str] | None:
        origin = ws.headers.get("origin")
        scheme = "https" if ws.url.scheme == "wss" else "http"
        own = self.origin or f"{scheme}://{ws.headers.get('host', '')}"
        if origin and not same_origin(origin, own):
            return None  # a page of another origin cannot use the student's cookie
        return await self.user(ws.cookies.get(COOKIE, ""))

    async def from_token(self, token: str) -> tuple[str, str] | None:
        return await self.user(token)


def hub_app(
    store: Store, auth, prefix: str, instructors=(), group="instructors", origin=""
) -> Starlette:
    """The lobby under ``prefix`` with the hub's sign-in in front of its page; ``origin``: the
    public origin its pages are served from (see ``public_origin``; empty: the request's Host)."""
    identities = HubIdentities(store, auth, instructors, group, origin)
    lobby = create_app(store, identities, signin="hub")
    pending: dict[str, tuple[str, float]] = {}  # state -> (PKCE verifier, when)
    secure = urlsplit(os.environ.get("JUPYTERHUB_HOST", "")).scheme == "https"

    async def login(request):
        state = secrets.token_urlsafe(16)
        verifier, challenge, method = auth.generate_pkce_code_challenge()
        now = time.monotonic()
        for old in [s for s, (_, t) in pending.items() if now - t > STATE_AGE]:
            del pending[old]
        pending[state] = (verifier, now)
        query = {"state": state, "code_challenge": challenge, "code_challenge_method": method}
        response = RedirectResponse(auth.login_url + "&" + urlencode(query))
        response.set_cookie(COOKIE + "-state", state, httponly=True, secure=secure, path=prefix)
        return response

    async def callback(request):
        state, code = request.query_params.get("state"), request.query_params.get("code")
        if not state or not code or request.cookies.get(COOKIE + "-state") != state:
            return PlainTextResponse("this sign-in did not start here: open the lobby again", 400)
        verifier, _ = pending.pop(state, (None, 0.0))
        if verifier is None:
            return PlainTextResponse("this sign-in took too long: open the lobby again", 400)
        token = await auth.token_for_code(code, code_verifier=verifier, sync=False)
        response = RedirectResponse(prefix)
        response.set_cookie(
            COOKIE, token, httponly=True, secure=secure, samesite="lax", path=prefix
        )
        response.delete_cookie(COOKIE + "-state", path=prefix)
        return response

    async def page(request):
        if await identities.user(request.cookies.get(COOKIE, "")) is None:
            return await login(request)
        return board_page("hub")

    base = prefix.rstrip("/")
    app = Starlette(
        routes=[
            Route(base + "/", page),
            Route(base + "/oauth_callback", callback),
            Mount(base, app=lobby),
        ],
        lifespan=lambda _: lobby.router.lifespan_context(lobby),  # type: ignore[arg-type]
    )
    app.state.lobby, app.state.door = lobby.state.lobby, lobby.state.door
    return app


def public_origin() -> str:
    """The origin the hub serves the lobby's page from: ``FANORONA_LOBBY_ORIGIN`` if set, else
    ``JUPYTERHUB_PUBLIC_URL``'s or ``JUPYTERHUB_HOST``'s scheme, host and port, else empty
    (the request's own Host)."""
    for variable in ("FANORONA_LOBBY_ORIGIN", "JUPYTERHUB_PUBLIC_URL", "JUPYTERHUB_HOST"):
        url = urlsplit(os.environ.get(variable, ""))
        if url.scheme and url.netloc:
            return f"{url.scheme}://{url.netloc}"
    return ""


def main() -> int:
    """Run as the hub's managed service, on the address the hub gave it."""
    if not os.environ.get("JUPYTERHUB_API_TOKEN"):
        print(
            "python -m fanorona.lobby hub runs as a JupyterHub service: JUPYTERHUB_API_TOKEN "
            "is not set (see fanorona.lobby.hub for the variables it reads)",
            file=sys.stderr,
        )
        return 2
    import uvicorn
    from jupyterhub.services.auth import HubOAuth

    from .run import FRAME_LIMIT, MeteredPings, more_files, steady_collection

    auth = HubOAuth(api_token=os.environ["JUPYTERHUB_API_TOKEN"], cache_max_age=60)
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/fanorona-lobby/")
    where = urlsplit(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    names = [n.strip() for n in os.environ.get("FANORONA_LOBBY_INSTRUCTORS", "").split(",")]
    app = hub_app(
        Store(os.environ.get("FANORONA_LOBBY_DB", "lobby.sqlite")),
        auth,
        prefix,
        [n for n in names if n],
        os.environ.get("FANORONA_LOBBY_INSTRUCTOR_GROUP", "instructors"),
        public_origin(),
    )
    more_files()
    steady_collection()
    uvicorn.run(
        app, host=where.hostname or "127.0.0.1", port=where.port or 10101,
        ws=MeteredPings, ws_max_size=FRAME_LIMIT, ws_per_message_deflate=False,
    )  # fmt: skip
    return 0
