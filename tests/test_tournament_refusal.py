"""Tournament night refuses to run players without bubblewrap, in one sentence saying what to
install; told to run anyway, no player runs as root and every output names the isolation."""

import csv
import os
import sqlite3
import subprocess
import sys

import pytest

from fanorona.tournament.players import TEMPLATE

#: A player that tells, in its printed output, which user it runs as.
WHO = TEMPLATE.replace(
    "    def choose_turn(self, board):\n",
    "    def choose_turn(self, board):\n        import os\n        print('uid', os.getuid())\n",
)
NIGHT = ["--levels", "1", "--size", "5x5", "--max-turns", "2", "--time", "1", "--workers", "0"]


def without_bubblewrap(tmp_path) -> dict:
    """An environment whose PATH holds Python's folder and no bwrap."""
    return dict(os.environ, PATH=os.path.dirname(sys.executable), HOME=str(tmp_path))


def night(tmp_path, *extra, env=None):
    player = tmp_path / "who.py"
    player.write_text(WHO)
    command = [sys.executable, "-m", "fanorona.tournament", "run", str(tmp_path / "n.sqlite")]
    command += [str(player), *NIGHT, "--seed", "1", "--samples", "5", "--quiet", *extra]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)


def test_without_bubblewrap_it_refuses_in_one_sentence_and_writes_nothing(tmp_path):
    run = night(tmp_path, "--csv", str(tmp_path / "n.csv"), env=without_bubblewrap(tmp_path))
    assert run.returncode == 1
    error = run.stderr.strip()
    assert error.startswith("error: bubblewrap (bwrap) is not on PATH")
    assert "apt-get install bubblewrap" in error and error.count(". ") == 0, error
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "n.sqlite").exists() and not (tmp_path / "n.csv").exists()


@pytest.mark.slow
def test_allowed_the_weak_mode_no_player_is_root_and_every_output_says_so(tmp_path):
    csv_file = tmp_path / "n.csv"
    flag = night(
        tmp_path, "--allow-weak-isolation", "--csv", str(csv_file), env=without_bubblewrap(tmp_path)
    )
    assert flag.returncode == 0, flag.stderr
    weak = flag.stderr.split("isolation: ", 1)[1].splitlines()[0]
    assert "bubblewrap:" not in weak
    assert f"isolation: {weak}" in flag.stdout  # the table's heading
    rows = list(csv.DictReader(csv_file.open()))
    assert rows and {row["isolation"] for row in rows} == {weak}
    with sqlite3.connect(tmp_path / "n.sqlite") as db:
        printed = [
            o
            for (o,) in db.execute(
                "SELECT coalesce(white_output, '') || coalesce(black_output, '') FROM games"
            )
        ]
    uids = {
        int(line.split()[1]) for o in printed for line in o.splitlines() if line.startswith("uid")
    }
    assert uids and 0 not in uids, printed


@pytest.mark.slow
def test_the_variable_allows_it_as_the_flag_does(tmp_path):
    env = dict(without_bubblewrap(tmp_path), FANORONA_ALLOW_WEAK_ISOLATION="1")
    run = night(tmp_path, env=env)
    assert run.returncode == 0, run.stderr
    assert "isolation: " in run.stdout


@pytest.mark.slow
def test_with_bubblewrap_the_table_names_it(tmp_path):
    if subprocess.run(["bwrap", "--version"], capture_output=True).returncode != 0:
        pytest.skip("bubblewrap is not installed here")
    run = night(tmp_path)
    assert run.returncode == 0, run.stderr
    assert "isolation: bubblewrap:" in run.stdout
