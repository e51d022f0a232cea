"""The lobby's own page in Chromium: two browser contexts play a whole ranked game through one
lobby (a capture that goes both ways, chains), a third watches every turn, the player whose page
is killed mid-game signs in again and plays on, and the instructor's class view follows it."""

from __future__ import annotations

import re

import pytest

import fanorona as fa
from fanorona.lobby import LobbyClient
from fanorona.lobby.run import Background
from fanorona.lobby.store import Store

#: A short game on 5x5, found with two greedy players: White's first turn captures by approach
#: where it could withdraw, and three turns are chains.
SCRIPT = [
    "b3c3A", "b4b3A", "c1b2Ab1W", "a4a3Ab3Ab2Aa2W", "e3e2W",
    "a2b2", "e1d2", "d4d3A", "e2d2", "d3d4W",
]  # fmt: skip
TOKENS = re.compile(r"[a-z][0-9]+[AW]?")


@pytest.fixture(scope="module")
def lobby():
    store = Store()
    tokens = {n: store.add_player(n) for n in ("alice", "bob", "carol")}
    tokens["teacher"] = store.add_player("teacher", "instructor")
    with Background(store) as server:
        server.tokens = tokens
        yield server


def sign_in(context, lobby, name):
    page = context.new_page()
    page.goto(lobby.page)
    page.fill("#token", lobby.tokens[name])
    page.click("#connect")
    page.wait_for_selector(f"#me:text('{name}')")
    return page


def play_turn(page, turn: str) -> None:
    """Click a turn's points one by one, choosing the capture where the page asks."""
    points = TOKENS.findall(turn)
    page.click(f"[data-point={points[0]}]")
    for token in points[1:]:
        page.click(f"[data-point={token[:-1] if token[-1] in 'AW' else token}]")
        if page.is_visible("#choice"):
            page.click("#approach" if token.endswith("A") else "#withdrawal")
    if page.is_visible("#endturn"):
        page.click("#endturn")


def stones(page) -> dict:
    drawn = page.eval_on_selector_all(
        "#board [data-stone]", "es => es.map(e => [e.dataset.stone, e.getAttribute('class')])"
    )
    return dict(drawn)


def test_two_browsers_play_a_ranked_game_while_a_third_watches(lobby, browser):
    contexts = {n: browser.new_context() for n in ("alice", "bob", "carol", "teacher")}
    try:
        pages = {n: sign_in(contexts[n], lobby, n) for n in ("alice", "bob")}
        pages["alice"].fill("#to", "bob")
        pages["alice"].fill("#clock", "10+0")
        pages["alice"].click("#invite")
        pages["bob"].click("#invitations button")
        pages["alice"].wait_for_selector("#players:has-text('you play')")
        text = pages["alice"].inner_text("#players")
        game = text.split(":")[0]
        white = "alice" if "you play white" in text else "bob"
        black = "bob" if white == "alice" else "alice"
        watcher = sign_in(contexts["carol"], lobby, "carol")
        watcher.fill("#watchid", game)
        watcher.click("#watch")
        teacher = sign_in(contexts["teacher"], lobby, "teacher")
        teacher.click("#classbutton")
        replay = fa.Board((5, 5))
        for n, turn in enumerate(SCRIPT):
            mover = white if n % 2 == 0 else black
            play_turn(pages[mover], turn)
            replay.push(turn)
            played = " ".join(SCRIPT[: n + 1])
            watcher.wait_for_selector(f"#turns:text-is('{played}')")
            expected = {p: replay.stone_at(p).value for p in replay.points if replay.stone_at(p)}
            assert stones(watcher) == expected, turn
            if n == 3:  # black's page dies mid-game; black signs in again on a new page
                pages[black].close()
                pages[black] = sign_in(contexts[black], lobby, black)
                pages[black].wait_for_selector(f"#turns:text-is('{played}')")
                figure = teacher.locator(f"#classview figure[data-game={game}]")
                assert re.search(r"turn 4$", figure.inner_text())
                assert white in figure.inner_text() and black in figure.inner_text()
                figure.click()
                teacher.wait_for_selector(f"#turns:text-is('{played}')")
        outcome = replay.outcome()
        assert outcome is not None
        reason = outcome.reason[0].upper() + outcome.reason[1:] + "."
        for page in (pages["alice"], pages["bob"], watcher):
            page.wait_for_selector(f"#status:has-text('{reason}')")
        winner = white if outcome.winner == "white" else black
        loser = black if winner == white else white
        assert pages[winner].inner_text("#status").startswith(f"You won. {reason} ")
        assert pages[loser].inner_text("#status").startswith(f"You lost. {reason} ")
        assert re.search(
            r"Your rating: [0-9.]+ ± [0-9.]+ \(\+[0-9.]+\)", pages[winner].inner_text("#status")
        )
        last = SCRIPT[-1]
        assert watcher.get_attribute("#board polyline.last", "data-last") == last
        # the last turn step by step: first the position before it
        page = pages[white]
        page.click("#lastturn")
        before = fa.Board((5, 5))
        for turn in SCRIPT[:-1]:
            before.push(turn)
        assert stones(page) == {
            p: before.stone_at(p).value for p in before.points if before.stone_at(p)
        }
        # the ladder and the replay of the finished game, on the page
        page.click("#ladderbutton")
        page.wait_for_selector("#ladder tbody tr >> nth=1")
        rows = [r.split("\t") for r in page.inner_text("#ladder tbody").splitlines()]
        assert [r[1] for r in rows] == [winner, loser] and [r[4] for r in rows] == ["1", "1"]
        page.fill("#replayid", game)
        page.click("#replaybutton")
        page.wait_for_selector("#replaytext:has-text('turn 10 of 10')")
        page.fill("#replayturn", "4")
        page.dispatch_event("#replayturn", "input")
        four = fa.Board((5, 5))
        for turn in SCRIPT[:4]:
            four.push(turn)
        drawn = dict(
            page.eval_on_selector_all(
                "#replayboard [data-stone]",
                "es => es.map(e => [e.dataset.stone, e.getAttribute('class')])",
            )
        )
        assert drawn == {p: four.stone_at(p).value for p in four.points if four.stone_at(p)}
        assert teacher.inner_text("#turns") == " ".join(SCRIPT)
        with LobbyClient(lobby.url, lobby.tokens["carol"]) as c:
            ladder = {row[0]: row for row in c.ladder()}
            assert ladder[white][3] == ladder[black][3] == 1
            assert c.record(game).turns == SCRIPT
    finally:
        for context in contexts.values():
            context.close()


def test_a_lost_connection_is_said_retried_and_loses_no_turn_and_a_link_asks_first(lobby, browser):
    contexts = {n: browser.new_context() for n in ("alice", "bob")}
    try:
        alice = sign_in(contexts["alice"], lobby, "alice")
        assert alice.is_checked("#ranked")
        alice.fill("#clock", "10+0")
        alice.click("#link")
        alice.wait_for_selector("#linktext:has-text('#join=')")
        link = alice.inner_text("#linktext").split("Share this link: ")[1]
        bob = contexts["bob"].new_page()
        bob.goto(link)
        bob.fill("#token", lobby.tokens["bob"])
        bob.click("#connect")
        bob.wait_for_selector("#joinask:visible")
        bob.wait_for_timeout(500)
        assert bob.is_hidden("#game")  # a ranked game is never taken without asking
        bob.click("#joinyes")
        bob.wait_for_selector("#players:has-text('you play')")
        pages = {"alice": alice, "bob": bob}
        white = "alice" if "you play white" in alice.inner_text("#players") else "bob"
        page = pages[white]
        assert page.locator("#board text.coord").count() == 10  # a-e and 1-5
        before = stones(page)
        # the connection is lost, and the student clicks before it is back
        said = page.evaluate("() => { ws.close(); click('b3'); return $('status').textContent; }")
        assert said.startswith("Not connected")
        assert stones(page) == before  # nothing moved, nothing sent
        page.wait_for_selector("#status:has-text('lost: connecting again')")
        page.wait_for_selector("#status:text-is('Your turn.')", timeout=15000)
        play_turn(page, SCRIPT[0])
        other = pages["bob" if white == "alice" else "alice"]
        other.wait_for_selector(f"#turns:text-is('{SCRIPT[0]}')")
        assert other.get_attribute("#board polyline.last", "data-last") == SCRIPT[0]
        page.click("[data-point=a1]")  # during the classmate's turn: whose turn it is, by name
        assert (
            page.inner_text("#status") == f"It is {'bob' if white == 'alice' else 'alice'}'s turn."
        )
    finally:
        for context in contexts.values():
            context.close()
