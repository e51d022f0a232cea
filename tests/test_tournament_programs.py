"""Players written in other languages enter a tournament: run in the sandbox, spoken to over the
text protocol like every player in another process; their faults are forfeits in one sentence
naming the player and the line."""

import dataclasses
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import fanorona as fa
from fanorona.tournament.play import play
from fanorona.tournament.players import from_file

# The POSIX shell player of the protocol's page: it plays the first legal turn the client lists.
PAGE = Path(__file__).parent.parent / "docs" / "reference" / "player-protocol.md"
FIRST_LEGAL = PAGE.read_text().split("```sh\n")[1].split("```")[0]
#: A C player that plays the last legal turn the client lists.
LAST_LEGAL_C = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    static char line[70000], last[64];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "fanorona ", 9)) puts("fanorona 1 name clast");
        else if (!strncmp(line, "newgame ", 8)) puts("ready");
        else if (!strncmp(line, "legal ", 6)) {
            char *word = strrchr(line, ' ');
            sscanf(word + 1, "%63s", last);
            puts("ok");
        }
        else if (!strncmp(line, "go", 2)) printf("turn %s\n", last);
        else if (!strncmp(line, "quit", 4)) return 0;
        else puts("ok");
    }
    return 0;
}
"""
#: Answers the protocol, except ``go``: what it says there is the test's.
SHELL_ANSWERING_GO = """#!/bin/sh
while read -r command rest; do
  case "$command" in
    fanorona) echo "fanorona 1 name shellbot";;
    newgame) echo ready;;
    legal) first=${rest%% *}; echo ok;;
    go) GO;;
    quit) exit 0;;
    *) echo ok;;
  esac
done
"""


def _program(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    path.chmod(0o755)
    return path


def _c_program(tmp_path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler here")
    (tmp_path / "last.c").write_text(LAST_LEGAL_C)
    built = [compiler, "-O", "-o", str(tmp_path / "clast"), str(tmp_path / "last.c")]
    subprocess.run(built, check=True)
    return tmp_path / "clast"


def _game(entry: dict) -> dict:
    return play(
        {
            "game": 1,
            "white": entry,
            "black": {"name": "level1", "spec": "level1"},
            "size": [5, 5],
            "rules": dataclasses.asdict(fa.Rules()),
            "opening": [],
            "max_turns": 20,
            "limits": {"turn_seconds": 1.0, "memory_mb": 256},
            "seed": 1,
        }
    )


def test_a_shell_and_a_c_program_enter_a_tournament_from_the_command_line(tmp_path):
    os.chmod(tmp_path, 0o755)  # the instructor's folder, which the players' users may not write
    shell = _program(tmp_path, "firstsh", FIRST_LEGAL)
    c = _c_program(tmp_path)
    db = tmp_path / "night.sqlite"
    command = [sys.executable, "-m", "fanorona.tournament", "run", str(db), str(shell), str(c)]
    command += ["--levels", "1", "--size", "5x5", "--max-turns", "12", "--seed", "1"]
    command += ["--workers", "0", "--quiet", "--samples", "10"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "firstsh" in run.stdout and "clast" in run.stdout, run.stdout
    games = sqlite3.connect(db).execute("SELECT white, black, reason, forfeit FROM results")
    played = {(white, black): (reason, forfeit) for white, black, reason, forfeit in games}
    programs = [pair for pair in played if {"firstsh", "clast"} & set(pair)]
    assert len(programs) == 6, played  # each program against the other two, with each colour
    assert all(played[pair][1] is None for pair in programs), played


@pytest.mark.parametrize(
    "go, said",
    [
        (
            "echo 'I resign'",
            "answered 'I resign' where 'turn TURN' (or an 'info' line) was expected",
        ),
        ("echo 'turn a1a1'", "answered 'turn a1a1', which is not a legal turn here"),
        # the program is stopped as soon as it has answered, so its extra line comes out either
        # before its next turn or, when the stop came first, in the middle of it
        (
            'echo "turn $first"; echo ok',
            "wrote 'ok' by itself, between its turns|answered 'ok' where 'turn TURN'",
        ),
        (
            "echo oops >&2; exit 3",
            "ended (exit code 3) in the middle of the game without answering",
        ),
        ("while :; do :; done", "did not answer 'go' within 1 s"),
    ],
)
def test_bad_output_from_a_program_is_a_forfeit_in_one_sentence_naming_it_and_the_line(
    tmp_path, go, said
):
    os.chmod(tmp_path, 0o755)
    program = _program(tmp_path, "shellbot", SHELL_ANSWERING_GO.replace("GO", go))
    result = _game(from_file(program))
    assert result["forfeit"] == "white" and result["winner"] == "black", result["reason"]
    assert result["reason"].startswith("white forfeits: shellbot: "), result["reason"]
    assert any(one in result["reason"] for one in said.split("|")), result["reason"]
    assert "\n" not in result["reason"], result["reason"]
    assert "Traceback" not in result["reason"]


def test_a_file_that_is_no_player_is_refused_with_what_a_submission_is(tmp_path):
    data = tmp_path / "notes.txt"
    data.write_text("not a player")
    with pytest.raises(ValueError, match="or a program that speaks the player protocol"):
        from_file(data)


def test_a_program_that_cannot_be_run_forfeits_before_its_first_turn(tmp_path):
    os.chmod(tmp_path, 0o755)
    program = _program(tmp_path, "garbage", "\x7fELF not really\n")
    result = _game(from_file(program))
    assert result["forfeit"] == "white" and result["turns"] == 0, result["reason"]
    assert result["reason"].startswith("white forfeits: garbage: "), result["reason"]
    assert "cannot be run" in result["reason"], result["reason"]
