"""The lobby's computer seat plays a player in a program of its own through the text protocol's
client: a whole game through the real lobby server, and a program that breaks the protocol
resigning with the sentence that names it and its line."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from fanorona.lobby import LobbyClient
from fanorona.lobby.bot import play_game
from fanorona.lobby.run import Background
from fanorona.lobby.store import Store

PAGE = Path(__file__).parent.parent / "docs" / "reference" / "player-protocol.md"
FIRST_LEGAL = PAGE.read_text().split("```sh\n")[1].split("```")[0]


@pytest.fixture(scope="module")
def lobby():
    store = Store()
    tokens = {name: store.add_player(name) for name in ("program", "kit")}
    with Background(store) as server:
        server.tokens = tokens
        yield server


def _program(tmp_path, text: str) -> str:
    path = tmp_path / "bot.sh"
    path.write_text(text)
    path.chmod(0o755)
    return f"program:{path}"


def _game(lobby, spec: str) -> tuple[dict, dict, LobbyClient]:
    """The program's seat plays a game against level 1: both ``over`` messages and the kit's
    client (open, for the record)."""
    a = LobbyClient(lobby.url, lobby.tokens["program"], timeout=10)
    b = LobbyClient(lobby.url, lobby.tokens["kit"], timeout=10)
    mark_a, mark_b = len(a.messages), len(b.messages)
    code = a.invite(to="kit", size="5x5", clock="30+0", ranked=False)
    b.wait_for(lambda m: m.get("invitation") == code, mark_b)
    state_b = b.accept(code)
    state_a = a.wait_for(lambda m: m["type"] == "game" and m["game"] == state_b["game"], mark_a)
    ended: dict = {}
    thread = threading.Thread(target=lambda: ended.update(play_game(a, state_a, spec)))
    thread.start()
    over_kit = play_game(b, state_b, 1, 1)
    thread.join(60)
    a.close()
    return ended, over_kit, b


def test_a_program_plays_a_whole_lobby_game_over_the_protocol(lobby, tmp_path):
    over, over_kit, kit = _game(lobby, _program(tmp_path, FIRST_LEGAL))
    with kit:
        record = kit.record(over_kit["game"])
    assert "fault" not in over and over["outcome"] == over_kit["outcome"]
    assert len(record.turns) > 2 and "resigned" not in record.outcome.reason


def test_a_program_that_breaks_the_protocol_resigns_with_the_sentence_naming_it(lobby, tmp_path):
    bad = FIRST_LEGAL.replace('echo "turn $first"', "echo 'I resign'")
    assert bad != FIRST_LEGAL, "the page's player answers 'go' with 'turn $first'"
    over, over_kit, kit = _game(lobby, _program(tmp_path, bad))
    kit.close()
    assert over["fault"].startswith(f"{_program(tmp_path, bad)}: answered 'I resign' where")
    assert "resigned" in over_kit["outcome"]["reason"]
