"""Versions built from the repository for the strength match: a commit in its own worktree and
environment, its fanorona its own, serving its players over the protocol."""

import subprocess

import pytest

from benchmarks import builds
from fanorona import Board
from fanorona.engine.remote import RemotePlayer


def test_a_reference_that_names_no_commit_is_one_sentence():
    with pytest.raises(ValueError, match="'no-such-tag-anywhere' names no commit of"):
        builds.commit_of("no-such-tag-anywhere")


def test_the_working_tree_is_served_from_this_environment():
    build = builds.build(builds.WORKTREE)
    assert build.label == "WORKTREE" and build.serve("level5")[1:] == [
        "-m",
        "fanorona.engine.serve",
        "level5",
    ]


@pytest.mark.slow
def test_a_commit_is_built_in_its_own_worktree_and_serves_its_own_code(tmp_path):
    """The first commit with the protocol would serve itself; an older one gets today's protocol
    files; either way the code that plays is the commit's, installed in the build's environment."""
    commit = builds.commit_of("HEAD")
    build = builds.build("HEAD", tmp_path, log=lambda _: None)
    try:
        assert build.commit == commit and build.folder.parent == tmp_path
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=build.folder, capture_output=True, text=True
        ).stdout.strip()
        assert head == commit
        where = subprocess.run(
            [build.python, "-c", "import fanorona; print(fanorona.__file__)"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        ).stdout.strip()
        assert where.startswith(str(build.folder / ".venv")), where
        player = RemotePlayer(build.serve("greedy"), cwd=str(build.folder))
        try:
            board = Board((5, 3))
            assert str(player.choose_turn(board)) in {str(t) for t in board.legal_turns()}
        finally:
            player.close()
        assert builds.build("HEAD", tmp_path).folder == build.folder, "built once, then reused"
    finally:
        builds.remove(build)
