"""A student's call that will not return is ended and named, and the kernel goes on: in a kernel a
check runs in a forked child (``exercises.apart``), so that a loop inside C code
(``sum(range(10**12))``) or code that ignores signals can be stopped from outside."""

import os
import signal
import textwrap
import threading
import time

import pytest
from jupyter_client.manager import start_new_kernel

from fanorona.exercises import ExerciseFailed, Guard
from fanorona.exercises.apart import GRACE, apart

LIMIT = 1.0
#: What a loaded two-core machine may add to the limit and the grace before the sentence comes.
SLACK = 3.0


def student_call(body, text="stuck(board)"):
    """The work of a check whose one student call is ``body()``, under a guard of its own."""

    def work():
        guard = Guard(call_limit=LIMIT)
        try:
            with guard.running(text):
                return body()
        finally:
            guard.report_output()

    return work


def in_c():
    return sum(range(10**12))


def deaf():
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        pass


@pytest.mark.parametrize("body", [in_c, deaf], ids=["a loop inside C", "signals ignored"])
def test_a_call_that_will_not_stop_is_ended_and_named_and_the_next_call_works(body):
    started = time.monotonic()
    with pytest.raises(ExerciseFailed, match=r"^stuck\(board\) took longer than 1 s, the time"):
        apart(student_call(body))
    assert time.monotonic() - started < LIMIT + GRACE + SLACK
    assert apart(student_call(lambda: 6 * 7)) == 42
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)


def test_a_function_that_cannot_be_pickled_keeps_its_state_across_calls_in_the_child():
    lock, seen = threading.Lock(), []

    def stateful():
        with lock:
            seen.append(len(seen))
            return list(seen)

    def work():
        guard = Guard(call_limit=LIMIT)
        for _ in range(3):
            with guard.running("stateful()"):
                answer = stateful()
        return answer

    assert apart(work) == [0, 1, 2]
    assert seen == []  # the calls ran in the child


def test_a_call_that_ends_the_process_is_named(capsys):
    def printing_then_exit():
        print("about to go")
        os._exit(3)

    with pytest.raises(ExerciseFailed, match=r"^stuck\(board\) ended Python \(exit code 3\)"):
        apart(student_call(printing_then_exit))


def test_prints_come_back_and_a_students_error_keeps_its_type_and_its_lines(capsys):
    def noisy():
        print("looking")
        return {}["x"]

    with pytest.raises(KeyError) as info:
        apart(student_call(noisy))
    assert "Your code printed" in capsys.readouterr().out
    assert 'return {}["x"]' in "".join(info.value._render_traceback_())


KERNEL_CELLS = [
    """
    import time
    import fanorona.exercises.guard as guard
    from fanorona.exercises import Checker
    guard.CALL_LIMIT = 2.0
    check = Checker("double", lambda n: 2 * n, lambda: [1, 2, 3])
    def double(n):
        return sum(range(10**12))
    began = time.monotonic()
    """,
    "check(double)",
    "print(round(time.monotonic() - began, 1))",
    "check(lambda n: n + n)",
    """
    from fanorona.exercises import check_neighbours
    check_neighbours(lambda width, height, point: set())
    """,
]


def run_in(client, source):
    """Run a cell as the notebook does: its streams, its error, the seconds it took, and the
    pictures it displayed."""
    started = time.monotonic()
    msg_id = client.execute(textwrap.dedent(source))
    out, error, shown = [], None, []
    while True:
        msg = client.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            error = content
        elif kind == "display_data":
            shown.append(content["data"])
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(out), error, time.monotonic() - started, shown


@pytest.mark.notebook
@pytest.mark.slow
def test_in_a_real_kernel_a_c_loop_gets_the_sentence_within_its_limit_and_the_next_cell_runs():
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        setup, stuck, elapsed, fine, wrong = (run_in(client, cell) for cell in KERNEL_CELLS)
        assert setup[1] is None, setup
        assert stuck[1]["ename"] == "ExerciseFailed"
        assert "double(1) took longer than 2 s, the time limit for one call" in stuck[1]["evalue"]
        assert stuck[2] < 2.0 + GRACE + SLACK
        assert float(elapsed[0]) < 2.0 + GRACE + SLACK
        assert fine[1] is None and "All 3 cases agree." in fine[0]
        assert wrong[1]["ename"] == "ExerciseFailed" and "Expected:" in wrong[0]
        assert any("image/png" in data for data in wrong[3]), "the board came back as a picture"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


@pytest.mark.slow
def test_the_game_tree_check_in_a_kernel_ends_a_search_that_loops_in_c(monkeypatch):
    """``check_search`` is called directly by notebook 07's graded cell: in a kernel it too runs
    apart, so a search stuck inside C gets the sentence and the kernel goes on."""
    from fanorona.exercises import checking, search

    monkeypatch.setattr(checking, "in_notebook", lambda: True)
    limit = Guard().call_limit
    started = time.monotonic()
    with pytest.raises(ExerciseFailed, match=r"^search\(tree, 'A', True\) took longer than"):
        search.check_search(lambda tree, node, maximizing: in_c())
    assert time.monotonic() - started < limit + GRACE + SLACK
    assert search.check_search(search.reference_minimax) == len(search.TREES)
