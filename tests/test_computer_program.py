"""The board's computer seat with a player in a program of its own (``RemotePlayer``): its turns
come through the text protocol's client, an undo stops its search, and a broken answer is the
client's sentence on the status line."""

from pathlib import Path

from fanorona.engine.remote import RemotePlayer

PAGE = Path(__file__).parent.parent / "docs" / "reference" / "player-protocol.md"
FIRST_LEGAL = PAGE.read_text().split("```sh\n")[1].split("```")[0]


def _program(tmp_path, text: str) -> RemotePlayer:
    path = tmp_path / "bot.sh"
    path.write_text(text)
    path.chmod(0o755)
    return RemotePlayer([str(path)], name="shellbot")


def test_the_board_plays_a_program_through_the_protocol(made, tmp_path):
    player = _program(tmp_path, FIRST_LEGAL)
    try:
        c = made(opponent=player)
        c.model.push("d3e3W")
        c.runner.kick()
        c.runner.wait()
        assert len(c.model.turns) == 2 and c.error is None, c.status
        assert c.status.startswith(f"shellbot played {c.model.turns[1]}"), c.status
    finally:
        player.close()


def test_a_program_that_answers_nonsense_is_named_on_the_status_line(made, tmp_path):
    player = _program(tmp_path, FIRST_LEGAL.replace('echo "turn $first"', "echo 'I resign'"))
    try:
        c = made(opponent=player)
        c.model.push("d3e3W")
        c.runner.kick()
        c.runner.wait()
        assert len(c.model.turns) == 1 and not c.runner.busy()
        assert c.status.startswith(
            "The computer failed: shellbot: answered 'I resign' where 'turn TURN'"
        ), c.status
    finally:
        player.close()
