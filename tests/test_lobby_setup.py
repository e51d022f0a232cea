"""Setting a lobby up as the how-to says, from a terminal: the token command makes its folder, a
taken port is said in one sentence, and ``make lobby PORT=...`` passes the port on."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from fanorona.lobby.store import Store

ROOT = Path(__file__).resolve().parents[1]
RUN = [sys.executable, "-m", "fanorona.lobby"]


def test_the_token_command_makes_the_folder_of_a_new_class_file(tmp_path):
    db = tmp_path / "build" / "deeper" / "lobby.sqlite"
    out = subprocess.run([*RUN, "tokens", str(db), "ann"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    name, role, token = out.stdout.split()
    assert Store(db).who(token) == (name, role) == ("ann", "student")


def test_a_taken_port_is_one_sentence_and_nothing_else(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(
            [*RUN, "serve", str(tmp_path / "c.sqlite"), "--port", str(port)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().startswith(f"port {port} on 127.0.0.1 is taken")
    assert "--port (make lobby PORT=...)" in out.stderr


def test_make_lobby_takes_its_port_and_installs_only_the_lobby_extra():
    out = subprocess.run(
        ["make", "-n", "lobby", "PORT=9123", "LOBBY_DB=x.sqlite"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert "-m fanorona.lobby serve x.sqlite --port 9123" in out.stdout
    target = next(line for line in (ROOT / "Makefile").read_text().splitlines()
                  if line.startswith("lobby:"))  # fmt: skip
    assert target.split("##")[0].split(":", 1)[1].split() == ["$(VENV)/.installed-lobby"]
