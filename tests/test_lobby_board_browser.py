"""A ranked lobby game on the kit's own board in Chromium: two students, each in a browser context
of their own, open a Voilà page of the board (``fa.BoardWidget`` with the lobby in the opponent's
seat, as notebook 12 plays it), sign in with their own tokens and click a whole game on the
canvas, while a third student watches on the lobby's page; the ladder then shows both new ratings
with their deviations, the same as the lobby's store."""

from __future__ import annotations

import re

import pytest
from test_browser import OnPage, open_page
from test_lobby_browser import SCRIPT, sign_in, stones

import fanorona as fa
from benchmarks.servers import free_port, serving, voila_command, write_notebooks
from fanorona.lobby import LobbyClient
from fanorona.lobby.ratings import MODEL
from fanorona.lobby.run import Background
from fanorona.lobby.store import Store

pytestmark = pytest.mark.browser

#: A small Voilà page of the board for a lobby game: the lobby's address comes in the page's link
#: (``?lobby=ws://...``, as an instructor would post it), the student types the token; with a
#: classmate's name the page invites them, without one it accepts the invitation that comes.
PAGE = [
    """\
import os
from urllib.parse import parse_qs

import ipywidgets as widgets
from IPython.display import display

from fanorona.lobby import LobbyClient, remote_board

address = parse_qs(os.environ.get("QUERY_STRING", ""))["lobby"][0]
token = widgets.Password(description="Your token")
classmate = widgets.Text(description="Invite", placeholder="empty: accept an invitation")
play = widgets.Button(description="Sign in and play")
shown = widgets.Output()


def start(_button):
    me = LobbyClient(address, token.value)
    mark = len(me.messages)
    if classmate.value:
        me.invite(to=classmate.value, size="5x5", clock="10+0", ranked=True)
    else:
        invitation = me.wait_for(lambda m: m["type"] == "invitation", timeout=120)
        me.accept(invitation["invitation"])
    board = remote_board(me, me.wait_for(lambda m: m["type"] == "game", mark, timeout=120))
    board.delay = 0
    with shown:
        display(board)


play.on_click(start)
widgets.VBox([token, classmate, play, shown])"""
]
ANSWER_MS = 30_000  # for a turn to reach the lobby, a watcher and the other board
STUDENTS = ("alice", "bob", "carol")
TURN_TEXT = re.compile(r"(?:[a-e][1-5][AW]?)+…?")


@pytest.fixture(scope="module")
def lobby():
    store = Store()
    tokens = {n: store.add_player(n) for n in STUDENTS}
    with Background(store) as server:
        server.lobby.coin = lambda n: 0  # the host plays White
        server.tokens, server.store = tokens, store
        yield server


@pytest.fixture(scope="module")
def voila(tmp_path_factory):
    folder = tmp_path_factory.mktemp("voila-lobby")
    write_notebooks(folder, {"lobby_board.ipynb": PAGE})
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = voila_command(folder / "lobby_board.ipynb", port)
    with serving(command, url + "/", folder / "voila.log", 180):
        yield url


def board_page(browser, voila, lobby, name, invite=""):
    """A student's own browser context on the board's page, signed in with their token."""
    page = open_page(browser, 1280, 1000)
    page.goto(f"{voila}/?lobby={lobby.url}")
    page.get_by_label("Your token").fill(lobby.tokens[name])
    page.get_by_label("Invite").fill(invite)
    page.get_by_role("button", name="Sign in and play").click()
    return page


def played(board: OnPage) -> list[str]:
    """The turns in the board's move list, a chain in progress ending with "…"."""
    return TURN_TEXT.findall(board.moves())


def shown_by(board: OnPage, count: int) -> None:
    """Wait until the board's move list has ``count`` turns."""
    board.page.wait_for_function(
        "([root, count]) => root.querySelector('.fanorona-moves').innerText"
        ".split(/\\s+/).filter(w => /^([a-e][1-5][AW]?)+$/.test(w)).length >= count",
        arg=[board.root.element_handle(), count],
        timeout=ANSWER_MS,
    )


def beyond(a: str, b: str) -> str:
    """The point one step past ``b`` on the line from ``a``."""
    return chr(2 * ord(b[0]) - ord(a[0])) + str(2 * int(b[1]) - int(a[1]))


def click_turn(board: OnPage, position: fa.Board, turn: str) -> None:
    """Click ``turn`` of ``position`` point by point; where a step captures both ways, click a
    stone of the string it takes (past the destination for approach, behind the origin for
    withdrawal); a chain that could go on is ended with End turn."""
    position = position.copy()
    steps = position.parse_turn(turn).steps
    board.click(steps[0].origin)
    for step in steps:
        both = [
            s
            for s in position.legal_steps()
            if (s.origin, s.destination) == (step.origin, step.destination)
        ]
        board.click(step.destination)
        if len(both) > 1:
            approach = step.capture == "approach"
            a, b = (step.origin, step.destination) if approach else (step.destination, step.origin)
            board.click(beyond(a, b))
        position.push(step)
    if position.chain:
        board.press("End turn")


def test_two_students_play_a_ranked_game_on_the_kits_board_while_a_third_watches(
    lobby, voila, browser
):
    pages = {"alice": board_page(browser, voila, lobby, "alice", invite="bob")}
    pages["bob"] = board_page(browser, voila, lobby, "bob")
    watching = browser.new_context()
    try:
        boards = {
            n: OnPage(p, p.locator(".fanorona-board").first).ready() for n, p in pages.items()
        }
        [game] = lobby.lobby.games  # the one live game, which both boards show
        watcher = sign_in(watching, lobby, "carol")
        watcher.fill("#watchid", game)
        watcher.click("#watch")
        replay = fa.Board((5, 5))
        for n, turn in enumerate(SCRIPT):
            mover, other = ("alice", "bob") if n % 2 == 0 else ("bob", "alice")
            click_turn(boards[mover], replay, turn)
            replay.push(turn)
            so_far = SCRIPT[: n + 1]
            watcher.wait_for_selector(f"#turns:text-is('{' '.join(so_far)}')", timeout=ANSWER_MS)
            shown_by(boards[other], n + 1)
            assert played(boards[other]) == played(boards[mover]) == so_far
            expected = {p: replay.stone_at(p).value for p in replay.points if replay.stone_at(p)}
            assert stones(watcher) == expected, turn
        outcome = replay.outcome()
        assert outcome is not None and outcome.winner == "black"
        watcher.wait_for_selector(f"#status:has-text('{outcome.reason}')")
        why = outcome.reason[:1].upper() + outcome.reason[1:] + "."
        verdicts = sorted(board.status().split(why)[0] for board in boards.values())
        assert verdicts == ["You lost. ", "You won. "], [b.status() for b in boards.values()]
        new = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[2.0, 1.0])
        said = watcher.inner_text("#status")
        for name, [rated] in zip(("alice", "bob"), new):
            mu, sigma = lobby.store.rating(name)
            assert sigma < MODEL.rating().sigma  # one game has narrowed the guess
            assert (mu, sigma) == pytest.approx((rated.mu, rated.sigma))
            assert f"{name}: {round(mu, 2)} ± {round(sigma, 2)}" in said, said
        with LobbyClient(lobby.url, lobby.tokens["carol"]) as carol:
            ladder = carol.ladder()
            assert [tuple(row) for row in ladder] == lobby.store.ladder()
            assert [(row[0], row[3]) for row in ladder] == [("bob", 1), ("alice", 1)]
            assert carol.record(game).turns == SCRIPT
    finally:
        for page in pages.values():
            page.context.close()
        watching.close()


def test_board_and_page_finish_a_game_through_a_lost_link_a_second_sign_in_and_a_restart(
    voila, browser, tmp_path
):
    import os
    import signal
    from types import SimpleNamespace

    from test_lobby_browser import play_turn
    from test_lobby_restart import start

    db = tmp_path / "class" / "lobby.sqlite"
    store = Store(db)
    tokens = {n: store.add_player(n) for n in ("alice", "bob")}
    store.close()
    port = free_port()
    lobby = SimpleNamespace(
        url=f"ws://127.0.0.1:{port}/ws", page=f"http://127.0.0.1:{port}/", tokens=tokens
    )
    server = start(db, port)
    paper = browser.new_context()
    board_tab = None
    try:
        bob = sign_in(paper, lobby, "bob")  # the lobby's page
        board_tab = board_page(browser, voila, lobby, "alice", invite="bob")  # the kit's board
        bob.click("#invitations button")
        bob.wait_for_selector("#players:has-text('you play')")
        board = OnPage(board_tab, board_tab.locator(".fanorona-board").first).ready()
        white = "bob" if "you play white" in bob.inner_text("#players") else "alice"
        replay = fa.Board((5, 5))

        def connected(page):
            page.wait_for_function("() => ws && ws.readyState === 1 && me", timeout=ANSWER_MS)
            page.wait_for_selector("#status:not(:has-text('onnect'))", timeout=ANSWER_MS)

        for n, turn in enumerate(SCRIPT):
            mover = white if n % 2 == 0 else ("alice" if white == "bob" else "bob")
            if mover == "alice":
                click_turn(board, replay, turn)
            else:
                connected(bob)
                play_turn(bob, turn)
            replay.push(turn)
            so_far = SCRIPT[: n + 1]
            bob.wait_for_selector(f"#turns:text-is('{' '.join(so_far)}')", timeout=ANSWER_MS)
            shown_by(board, n + 1)
            assert played(board) == so_far  # both pictures are the game, after every turn
            expected = {p: replay.stone_at(p).value for p in replay.points if replay.stone_at(p)}
            assert stones(bob) == expected, turn
            if n == 2:  # the page's connection is lost: it connects again by itself
                bob.evaluate("ws.close()")
            if n == 4:  # alice signs in somewhere else, then takes the board's seat back
                elsewhere = LobbyClient(lobby.url, tokens["alice"])
                line = board_tab.locator(
                    "span.fanorona-text", has_text="You signed in somewhere else"
                )
                line.wait_for(timeout=ANSWER_MS)
                board_tab.get_by_role("button", name="Take the seat back").click()
                board_tab.locator("span.fanorona-text", has_text="Connected again.").wait_for(
                    timeout=ANSWER_MS
                )
                elsewhere.close()
            if n == 6:  # the lobby is killed and started again on its file
                os.kill(server.pid, signal.SIGKILL)
                server.wait(10)
                server = start(db, port)
                board_tab.locator("span.fanorona-text", has_text="Connected again.").wait_for(
                    timeout=ANSWER_MS
                )
        outcome = replay.outcome()
        assert outcome is not None
        winner = white if outcome.winner == "white" else ("alice" if white == "bob" else "bob")
        verdict = {"alice": "You won." if winner == "alice" else "You lost."}
        verdict["bob"] = "You won." if winner == "bob" else "You lost."
        bob.wait_for_selector(f"#status:has-text('{verdict['bob']}')", timeout=ANSWER_MS)
        board_tab.get_by_text(verdict["alice"]).first.wait_for(timeout=ANSWER_MS)
        assert (
            "Your rating:"
            in board_tab.locator(".fanorona-text", has_text="Your rating").first.inner_text()
        )
        with LobbyClient(lobby.url, tokens["bob"]) as client:
            assert client.record(bob.inner_text("#players").split(":")[0]).turns == SCRIPT
            assert {row[0] for row in client.ladder()} == {"alice", "bob"}
    finally:
        if board_tab is not None:
            board_tab.context.close()
        paper.close()
        server.kill()
        server.wait(10)
