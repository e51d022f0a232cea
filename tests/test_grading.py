"""The sandboxed grader's walls, tried directly (the nbgrader route tests are in test_nbgrader):
plain data read strictly, a package edited on disk refused before grading, and student code that
never returns, ignores its alarm or loops in C stopped with the checker's sentence."""

import json
import shutil

import pytest

import fanorona as fa
from fanorona.grading import package, plain
from fanorona.grading.grade import Notebook
from fanorona.grading.remote import Session

CHECK = "from fanorona.exercises import check_neighbours\ncases = check_neighbours(neighbours)"


def nobody(number, kind):
    raise AssertionError("no object handle expected")


@pytest.mark.parametrize(
    "line",
    [
        b"NaN",
        b"[" * 200 + b"]" * 200,
        b'{"set": [1, 2]' + b" " * (plain.MAX_LINE) + b"}",
        b"not json",
    ],
)
def test_a_reply_that_is_not_plain_json_is_refused(line):
    with pytest.raises(plain.ProtocolError):
        plain.loads(line)


@pytest.mark.parametrize(
    "data",
    [[1, 2], {"pickle": "gASV"}, {"set": 3}, {"step": ["a1", "a2"]}, {"dict": [[1]]}],
)
def test_a_value_that_is_not_one_of_the_tags_is_refused(data):
    with pytest.raises(plain.ProtocolError):
        plain.decode(data, nobody)


def test_boards_steps_and_collections_cross_as_they_were():
    board = fa.Board((5, 5), fa.Rules.danish())
    board.push(board.legal_steps()[0])
    value = {"a": (fa.Step("a1", "a2"), frozenset({"b2"})), 3: [board, None, 1.5]}
    back = plain.decode(json.loads(json.dumps(plain.encode(value, nobody))), nobody)
    again = back[3][0]
    assert back["a"] == value["a"] and back[3][1:] == [None, 1.5]
    assert again.key() == board.key() and again.chain_stone == board.chain_stone


def test_a_package_edited_after_its_hashes_were_recorded_is_refused(tmp_path, monkeypatch):
    copy = tmp_path / "fanorona"
    shutil.copytree(package.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(package, "PACKAGE", copy)
    record = tmp_path / package.RECORD_NAME
    package.verify(record)
    package.verify(record)  # unchanged: accepted again
    with (copy / "exercises" / "model.py").open("a") as f:
        f.write("\nNEIGHBOUR_SIZES = ()\n")
    with pytest.raises(package.PackageChanged, match=r"exercises/model\.py"):
        package.verify(record)


def test_graded_code_sees_neither_the_checkers_nor_a_writable_package():
    with Session() as session:
        assert "fanorona.exercises" in str(session.run("import fanorona.exercises"))
        error = session.run(f"open({str(package.PACKAGE / 'board.py')!r}, 'a').write('# changed')")
        assert error is not None and error.kind in ("OSError", "PermissionError")


@pytest.mark.parametrize(
    "body",
    [
        "return sum(range(10**12))",  # in C: no signal handler runs until it ends
        "import signal\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    time.sleep(60)",
    ],
)
def test_a_call_that_never_returns_gets_the_call_limit_sentence_and_the_next_check_runs(body):
    notebook = Notebook()
    try:
        notebook.run(f"import time\ndef neighbours(width, height, point):\n    {body}")
        first = notebook.check(CHECK, 2)
        assert first.refused and "the time limit for one call" in (first.sentence or "")
        notebook.run("def neighbours(width, height, point):\n    return set()")
        second = notebook.check(CHECK, 2)
        assert second.score == 0 and "differ from the rules" in (second.sentence or "")
    finally:
        notebook.close()
