"""The lobby as a JupyterHub service, on its real server, with the hub's side played by a
stand-in that answers as ``HubOAuth`` does (the hub engineer's tests run it under a real hub):
the sign-in redirect with state and PKCE, the callback's cookie, the WebSocket signed in by that
cookie or by a hello token, a foreign page refused, roles from the hub."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest
from jupyterhub.services.auth import check_scopes
from websockets.sync.client import connect

from fanorona.lobby.hub import COOKIE, hub_app, same_origin
from fanorona.lobby.run import Background
from fanorona.lobby.store import Store

PREFIX = "/services/fanorona-lobby/"
LOBBY_SCOPE = "access:services!service=fanorona-lobby"
USERS = {"tok-ann": {"name": "ann", "admin": False, "groups": [], "scopes": [LOBBY_SCOPE]},
         "tok-ms": {"name": "ms_lee", "admin": False, "groups": ["instructors"],
                    "scopes": ["access:services"]},
         # what a student's server gets when the instructor opens it: the instructor's name,
         # the scopes of that server only
         "tok-ms-server": {"name": "ms_lee", "admin": False, "groups": ["instructors"],
                           "scopes": ["access:servers!server=ann/", "read:users:name!user=ann"]},
         "tok-ann-activity": {"name": "ann", "admin": False, "groups": [],
                              "scopes": ["users:activity!user=ann"]}}  # fmt: skip


class HubStandIn:
    """The few members of ``HubOAuth`` the lobby calls, answering from ``USERS``."""

    login_url = "http://hub.example/hub/api/oauth2/authorize?client_id=service-fanorona-lobby"
    access_scopes = frozenset({LOBBY_SCOPE})  # as HubOAuth reads it for the service fanorona-lobby

    def check_scopes(self, required, user):
        return check_scopes(required, set(user["scopes"]))  # the hub's own resolution

    def __init__(self):
        self.codes = {}

    async def user_for_token(self, token, sync=True):
        return USERS.get(token)

    def generate_pkce_code_challenge(self):
        return "the-verifier", "the-challenge", "S256"

    async def token_for_code(self, code, code_verifier=None, sync=True):
        assert code_verifier == "the-verifier"
        return {"code-ann": "tok-ann"}[code]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture(scope="module")
def served():
    store = Store()
    app = hub_app(store, HubStandIn(), PREFIX)
    with Background(store, app=app) as server:
        server.base = f"http://127.0.0.1:{server.port}{PREFIX}"
        server.ws = f"ws://127.0.0.1:{server.port}{PREFIX}ws"
        yield server


def get(url, cookie=None):
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        return urllib.request.build_opener(NoRedirect).open(request, timeout=10)
    except urllib.error.HTTPError as e:
        return e


def test_the_page_sends_a_stranger_to_the_hub_and_the_callback_sets_the_cookie(served):
    answer = get(served.base)
    assert answer.status == 307
    where = urlsplit(answer.headers["location"])
    query = parse_qs(where.query)
    assert where.netloc == "hub.example" and query["code_challenge"] == ["the-challenge"]
    state = query["state"][0]
    assert get(served.base + "oauth_callback?state=forged&code=code-ann").status == 400
    cookie = f"{COOKIE}-state={state}"
    back = get(served.base + f"oauth_callback?state={state}&code=code-ann", cookie)
    assert back.status == 307 and f"{COOKIE}=tok-ann" in back.headers["set-cookie"]
    assert "HttpOnly" in back.headers["set-cookie"]
    page = get(served.base, f"{COOKIE}=tok-ann")
    assert page.status == 200 and 'data-signin="hub"' in page.read().decode()


def test_the_websocket_takes_the_hubs_word_for_who_is_there(served):
    with connect(served.ws, additional_headers={"Cookie": f"{COOKIE}=tok-ann"}) as ws:
        assert json.loads(ws.recv(5))["name"] == "ann"
    with connect(served.ws) as ws:
        ws.send(json.dumps({"type": "hello", "seq": 1, "token": "tok-ms"}))
        welcome = json.loads(ws.recv(5))
        assert (welcome["name"], welcome["role"]) == ("ms_lee", "instructor")


def test_a_page_of_another_site_cannot_use_the_cookie(served):
    headers = {"Cookie": f"{COOKIE}=tok-ann", "Origin": "http://evil.example"}
    with connect(served.ws, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "ladder", "seq": 1}))
        assert "the first message is" in json.loads(ws.recv(5))["message"]


@pytest.mark.parametrize("token", ["tok-ms-server", "tok-ann-activity"])
def test_a_token_without_the_lobbys_scope_signs_in_nobody(served, token):
    for headers in ({"Cookie": f"{COOKIE}={token}"}, {}):
        with connect(served.ws, additional_headers=headers) as ws:
            ws.send(json.dumps({"type": "hello", "seq": 1, "token": token}))
            said = json.loads(ws.recv(5))
            assert said["type"] == "error" and "belongs to nobody" in said["message"]
    assert get(served.base, f"{COOKIE}={token}").status == 307  # sent to sign in for the lobby


@pytest.mark.parametrize(
    "origin",
    ["https://127.0.0.1:{port}", "http://127.0.0.1:{other}", "http://localhost:{port}", "null"],
)
def test_a_page_of_another_scheme_or_port_cannot_use_the_cookie(served, origin):
    origin = origin.format(port=served.port, other=served.port + 1)
    headers = {"Cookie": f"{COOKIE}=tok-ann", "Origin": origin}
    with connect(served.ws, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "ladder", "seq": 1}))
        assert "the first message is" in json.loads(ws.recv(5))["message"]
    same = {"Cookie": f"{COOKIE}=tok-ann", "Origin": f"http://127.0.0.1:{served.port}"}
    with connect(served.ws, additional_headers=same) as ws:
        assert json.loads(ws.recv(5))["name"] == "ann"


def test_origins_are_compared_by_scheme_host_and_port():
    assert same_origin("https://hub.example", "https://hub.example:443")
    assert same_origin("http://hub.example:80", "http://hub.example")
    assert not same_origin("http://hub.example", "https://hub.example")
    assert not same_origin("https://hub.example:8443", "https://hub.example")
    assert not same_origin("https://ann.hub.example", "https://hub.example")
    assert not same_origin("https://hub.example:notaport", "https://hub.example")
    assert not same_origin("null", "https://hub.example")
