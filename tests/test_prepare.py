"""What ``make lab`` runs to prepare the computer: the compile line moves while numba works, and
level 5's table is started in a process of its own that outlives make."""

import io
import sys
import time

from fanorona.engine import compiled, prepare


def test_the_compile_line_counts_the_seconds_while_numba_says_nothing(monkeypatch):
    monkeypatch.setattr(compiled, "available", lambda: True)
    monkeypatch.setattr(compiled, "warm_up", lambda progress: time.sleep(2.6))
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    prepare.compile_search(every=0.5)
    shown = [part for part in err.getvalue().split("\r") if "compiling the search" in part]
    seconds = {part.rsplit(": ", 1)[1].strip() for part in shown}
    assert {"00:00", "00:01", "00:02"} <= seconds, shown


def test_without_numba_the_compile_step_is_one_sentence(monkeypatch, capsys):
    monkeypatch.setattr(compiled, "available", lambda: False)
    prepare.compile_search()
    assert capsys.readouterr().err.count("\n") == 1


def test_the_table_is_started_in_its_own_session_writing_to_the_log(monkeypatch, tmp_path, capsys):
    started = []

    class Popen:
        pid = 4242

        def __init__(self, command, **options):
            started.append((command, options))

    monkeypatch.setattr(compiled, "available", lambda: True)
    monkeypatch.setattr(prepare, "table_path", lambda: tmp_path / "cache" / "table.bin")
    monkeypatch.setattr(prepare.subprocess, "Popen", Popen)
    log = tmp_path / "logs" / "table.log"
    assert prepare.table_in_background(log) == 4242
    ((command, options),) = started
    assert command == [sys.executable, "-m", "fanorona.engine.prepare", "build-table"]
    assert options["start_new_session"] and options["stdout"].name == str(log)
    assert "process 4242" in capsys.readouterr().out and log.exists()
