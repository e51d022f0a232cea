"""The lobby under a real JupyterHub: the hub starts it as a managed service (``python -m
fanorona.lobby hub``, as the reference page's service entry has it), tokens with different scopes
are made through the hub's REST API, and only a token that carries the lobby's own scope
(``access:services!service=fanorona-lobby``) signs in, as its user; a token of the same user
without it (only reading activity, or the scopes of the token a student's server gets when the
instructor opens it) is refused with a sentence; and a student who logs in to the hub in Chromium
finds the lobby's page signed in as her, through the hub's OAuth."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from websockets.sync.client import connect

from fanorona.lobby.run import free_port
from hub.course import BIN
from hub.running import PROXY

pytestmark = pytest.mark.slow  # starts a hub, its proxy and the lobby: about 15 s

SERVICE = "fanorona-lobby"
SCOPE = f"access:services!service={SERVICE}"
CONFIG = """\
c = get_config()  # noqa: F821
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.pid_file = {folder!r} + "/proxy.pid"
c.JupyterHub.pid_file = {folder!r} + "/hub.pid"
c.JupyterHub.db_url = "sqlite:///" + {folder!r} + "/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = {folder!r} + "/cookie_secret"
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allowed_users = {{"ann", "ms_lee"}}
c.Authenticator.admin_users = {{"ms_lee"}}
c.JupyterHub.services = [
    {{
        "name": {service!r},
        "url": "http://127.0.0.1:{lobby_port}",
        "command": [{python!r}, "-m", "fanorona.lobby", "hub"],
        "oauth_no_confirm": True,
        "environment": {{"FANORONA_LOBBY_DB": {folder!r} + "/lobby.sqlite"}},
    }},
    {{"name": "tester", "api_token": {token!r}}},
]
c.JupyterHub.load_roles = [
    {{"name": "user", "scopes": ["self", {scope!r}]}},
    {{"name": "tester", "services": ["tester"], "scopes": ["admin:users", "tokens"]}},
]
"""


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    if not PROXY.exists():
        pytest.fail(f"the hub's proxy is not installed: run `npm ci --prefix {PROXY.parents[2]}`")
    folder = tmp_path_factory.mktemp("lobby-hub")
    ports = {n: free_port() for n in ("port", "hub_port", "proxy_port", "lobby_port")}
    token = secrets.token_hex(32)
    settings = dict(proxy=str(PROXY), folder=str(folder), service=SERVICE, python=sys.executable)
    settings |= dict(token=token, scope=SCOPE, **ports)
    (folder / "jupyterhub_config.py").write_text(CONFIG.format(**settings))
    url = f"http://127.0.0.1:{ports['port']}"
    with open(folder / "hub.log", "w") as log:
        hub = subprocess.Popen(
            [str(BIN / "jupyterhub"), "-f", "jupyterhub_config.py"],
            cwd=folder,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 120
            while not answers(f"{url}/services/{SERVICE}/health"):
                if hub.poll() is not None or time.monotonic() > deadline:
                    end = (folder / "hub.log").read_text()[-3000:]
                    raise RuntimeError(f"the hub or its lobby did not start:\n{end}")
                time.sleep(0.3)
            yield url, token
        finally:
            hub.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                hub.wait(30)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(hub.pid, signal.SIGKILL)  # the proxy and the lobby too
            hub.wait(10)


def log_end(folder) -> str:
    return (folder / "hub.log").read_text()[-3000:]


def new_token(hub, user: str, scopes: list[str]) -> str:
    """A token of ``user`` with ``scopes``, made through the hub's REST API."""
    url, admin = hub
    request = urllib.request.Request(
        f"{url}/hub/api/users/{user}/tokens",
        data=json.dumps({"scopes": scopes, "note": "lobby scope test"}).encode(),
        method="POST",
        headers={"Authorization": f"token {admin}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        made = json.loads(answer.read())
    assert set(scopes) <= set(made["scopes"]), made["scopes"]  # the hub adds its identify scopes
    assert (SCOPE in made["scopes"]) == (SCOPE in scopes), made["scopes"]
    return made["token"]


def hello(hub, token: str) -> dict:
    """The lobby's first answer to a hello with ``token``, through the hub's proxy."""
    url, _ = hub
    with connect(f"ws{url[4:]}/services/{SERVICE}/ws", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "seq": 1, "token": token}))
        return json.loads(ws.recv(30))


def test_a_token_with_the_lobbys_scope_signs_in_as_its_user(hub):
    said = hello(hub, new_token(hub, "ann", [SCOPE]))
    assert (said["type"], said["name"], said["role"]) == ("welcome", "ann", "student")
    said = hello(hub, new_token(hub, "ms_lee", [SCOPE]))
    assert (said["type"], said["name"], said["role"]) == ("welcome", "ms_lee", "instructor")


@pytest.mark.parametrize(
    ("user", "scopes"),
    [
        ("ann", ["read:users:activity!user=ann"]),
        # the scopes of the token a student's server gets when the instructor opens it
        ("ms_lee", ["access:servers!server=ann/", "read:users:name!user=ann"]),
    ],
)
def test_a_token_of_the_same_user_without_the_lobbys_scope_is_refused(hub, user, scopes):
    said = hello(hub, new_token(hub, user, scopes))
    assert said == {
        "type": "error",
        "message": "that token belongs to nobody in this class: ask your instructor for yours",
        "code": "unknown_token",
        "params": {},
    }


@pytest.mark.browser
def test_a_student_signs_in_through_the_hub_and_the_lobby_page_knows_her(hub, browser):
    """Chromium logs in to the hub, opens the lobby's page: the hub's OAuth (with PKCE) gives the
    lobby a token with its scope in an HttpOnly cookie, and the page's WebSocket signs in by it."""
    url, _ = hub
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{url}/hub/login")
        page.fill("#username_input", "ann")
        page.fill("#password_input", "any")
        page.click("#login_submit")
        page.wait_for_url("**/hub/**")
        page.goto(f"{url}/services/{SERVICE}/")
        page.wait_for_selector("#me:text('ann')", timeout=30_000)
        assert page.inner_text("#role") == "student"
        cookies = {c["name"]: c for c in context.cookies()}
        assert cookies["fanorona-lobby-token"]["httpOnly"]
        assert page.evaluate("document.cookie").find("fanorona-lobby-token") == -1
    finally:
        context.close()
