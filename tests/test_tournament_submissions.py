"""Submissions are read as the files their students handed in, never with the instructor's
rights: a link, a special file, a file name that is not UTF-8 or an oversized file is left out
with one sentence naming the student, the others play on, and no text of a refused file reaches
the output."""

import os
import subprocess
import sys

import pytest

from fanorona.tournament.players import MAX_BYTES, TEMPLATE, submissions

SECRET = "the-instructors-private-words"


@pytest.fixture
def submitted(tmp_path):
    """nbgrader's submitted/ with one good student and one of each fault."""
    private = tmp_path / "private.py"
    private.write_text(f"{SECRET} = 1\n")
    private.chmod(0o600)
    folder = tmp_path / "submitted"
    for student in ("alice", "link", "folderlink", "fifo", "latin", "huge"):
        (folder / student / "night").mkdir(parents=True)
    (folder / "alice" / "night" / "player.py").write_text(TEMPLATE)
    (folder / "link" / "night" / "player.py").symlink_to(private)
    (folder / "folderlink" / "night").rmdir()
    (folder / "folderlink" / "night").symlink_to(tmp_path)
    os.mkfifo(folder / "fifo" / "night" / "player.py")
    latin = os.path.join(os.fsencode(folder / "latin" / "night"), b"pl\xe9yer.py")
    with open(latin, "w") as f:
        f.write(TEMPLATE)
    (folder / "huge" / "night" / "player.py").write_text(TEMPLATE + "#" * MAX_BYTES)
    return folder


def test_each_fault_is_left_out_with_one_sentence_naming_the_student(submitted):
    left_out: list[str] = []
    entries = submissions(submitted, "night", left_out)
    assert [e["name"] for e in entries] == ["alice"]
    said = {line.split("'s submission")[0]: line for line in left_out}
    assert set(said) == {"link", "folderlink", "fifo", "latin", "huge"}, left_out
    assert "a symbolic link" in said["link"]
    assert "a symbolic link" in said["folderlink"]
    assert "not a regular file" in said["fifo"]
    assert "not UTF-8" in said["latin"] and "b'pl\\xe9yer.py'" in said["latin"]
    assert f"the limit is {MAX_BYTES // 1024} KB" in said["huge"]
    assert not any(SECRET in line for line in left_out)
    for line in left_out:
        line.encode("utf-8")  # every sentence prints and stores as it is


def test_the_night_goes_on_and_says_nothing_of_the_refused_files(submitted, tmp_path):
    db, csv = tmp_path / "night.sqlite", tmp_path / "night.csv"
    run = subprocess.run(
        [sys.executable, "-m", "fanorona.tournament", "run", str(db), str(submitted)]
        + ["--assignment", "night", "--levels", "1", "--size", "5x5", "--max-turns", "4"]
        + ["--time", "1", "--workers", "0", "--seed", "1", "--samples", "5", "--csv", str(csv)]
        + ["--quiet", "--allow-weak-isolation"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert "alice" in run.stdout
    for student in ("link", "fifo", "latin", "huge"):
        assert f"warning: {student}'s submission is left out" in run.stderr
    everything = run.stdout + run.stderr + csv.read_text()
    assert SECRET not in everything
