"""A real class on one server, as root: Unix accounts from a class list, the hub with one account
per student, the guide's week exactly as written, and a clever student's probes, every one refused.

``python -m hub accounts`` makes the accounts (an instructor, three students, the grader account)
and the test removes them after.  The instructor's steps run in a login shell of the grader
account (``su - grader-fanorona -c ...``), which is what the formgrader's terminal is, so a PATH
that a login shell drops shows here.  Two students work in login shells, one in Chromium through
the system's passwords (PAM).  From the second student's own kernel (the hub's REST and kernel
WebSocket API, as their notebook would run it) come the probes: a classmate's files, the
solutions, the gradebook, the exchange, the hub's secrets, ``/etc/shadow``, and a submission sent
in a classmate's name, which the instructor's collect leaves out and names.

Where the kit's Python lies in a folder only root may enter (``/root`` here), the class could not
run it; the test then runs everything in a mount namespace in which that folder is enterable and
holds only the interpreter's own folder: what installing the kit where every account reads it
does (the accounts command refuses without it, in one sentence).
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from benchmarks.grade_class import points_table, solved
from benchmarks.hub_class import WEEK, fill_in
from benchmarks.servers import CHROMIUM, LAUNCH_ARGS, free_port
from hub.accounts import PROFILE
from hub.api import HubAPI
from hub.course import BIN, COURSE, GRADER, PORTS, ROOT, Layout
from hub.running import new_token, running_hub

INSTRUCTOR = "fz-teacher"
#: What each student does: the teacher's answers in a login shell; the prober, who hands in a
#: wrong answer and then sends it in the first student's name; the browser student.
STUDENTS = {"fz-student01": "correct", "fz-student02": "partly-wrong", "fz-student03": "browser"}
PROBER, BROWSER = "fz-student02", "fz-student03"
PASSWORD = "Real-class-7"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.nbgrader,
    pytest.mark.slow,
    pytest.mark.xdist_group("real-class"),
    pytest.mark.skipif(
        os.geteuid() != 0 or shutil.which("useradd") is None,
        reason="the real class makes Unix accounts: it runs as root with useradd",
    ),
]


def hidden_folder() -> tuple[Path, Path] | None:
    """The first folder above the kit's interpreter that other accounts cannot enter, and the
    folder under it on the way to the interpreter; None if every account reaches it."""
    base = Path(sys.base_prefix).resolve()
    for folder in reversed(base.parents):
        if not folder.stat().st_mode & 0o001:
            return folder, base.parents[len(base.parents) - len(folder.parts) - 1]
    return None


@contextlib.contextmanager
def namespace():
    """The command prefix that runs a command where every account reaches the kit's Python."""
    hidden = hidden_folder()
    if hidden is None:
        yield ()
        return
    folder, inner = hidden
    script = (
        'set -e; keep=$(mktemp -d); mount --bind "$2" "$keep";'
        ' mount -t tmpfs -o mode=0711 tmpfs "$1"; mkdir -p "$2"; mount --bind "$keep" "$2";'
        " echo ready; exec sleep infinity"
    )
    holder = subprocess.Popen(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "-", folder, inner],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        yield ("nsenter", "-t", str(holder.pid), "-m", f"--wd={ROOT}")
    finally:
        holder.kill()
        holder.wait()


def login_shell(prefix, user: str, command: str) -> str:
    """``command`` in a login shell of ``user`` (as the user's terminal runs it); its output.
    AssertionError with the output if it fails."""
    done = subprocess.run(
        [*prefix, "su", "-", user, "-c", command], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, f"{user}$ {command}\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def run_in_kernel(url: str, user: str, token: str, code: str) -> str:
    """Run ``code`` in a new kernel of ``user``'s server (as a notebook cell); what it printed."""
    from websockets.sync.client import connect

    api = HubAPI(url, token)
    api.base = f"{url}/user/{user}/api"
    kernel = api.call("POST", "/kernels", {"name": "python3"})
    msg_id = uuid.uuid4().hex
    request = {
        "header": {
            "msg_id": msg_id,
            "username": user,
            "session": uuid.uuid4().hex,
            "msg_type": "execute_request",
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": {},
        "content": {"code": code, "silent": False, "allow_stdin": False},
        "channel": "shell",
    }
    printed = []
    with connect(
        f"ws://{url.removeprefix('http://')}/user/{user}/api/kernels/{kernel['id']}/channels",
        additional_headers={"Authorization": f"token {token}"},
        open_timeout=120,
    ) as socket:
        socket.send(json.dumps(request))
        while True:
            message = json.loads(socket.recv(timeout=300))
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = message["msg_type"], message["content"]
            if kind == "stream":
                printed.append(content["text"])
            elif kind == "error":
                printed.append(f"{content['ename']}: {content['evalue']}")
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(printed)


def run_in_terminal(base: str, token: str, command: str) -> str:
    """Type ``command`` into a new terminal of the Jupyter server at ``base`` (a user's server or
    the grader's service), as a user would; what the terminal showed until it printed ``DONE``."""
    from websockets.sync.client import connect

    api = HubAPI(base, token)
    api.base = f"{base}/api"
    name = api.call("POST", "/terminals")["name"]
    shown = ""
    try:
        with connect(
            f"ws://{base.removeprefix('http://')}/terminals/websocket/{name}",
            additional_headers={"Authorization": f"token {token}"},
            open_timeout=120,
        ) as socket:
            socket.send(json.dumps(["stdin", f"{command}; echo DO''NE\r"]))
            while "DONE" not in shown:
                message = json.loads(socket.recv(timeout=120))
                if message[0] == "stdout":
                    shown += message[1]
    finally:
        api.call("DELETE", f"/terminals/{name}")
    return shown


def instructor_in_browser(url: str, pictures: Path) -> str:
    """The instructor logs in (landing in the grader server) and opens the formgrader in its own
    tab, as the guide says; the URL they landed on."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        try:
            page.set_default_timeout(240_000)
            page.goto(f"{url}/hub/login")
            page.fill("#username_input", INSTRUCTOR)
            page.fill("#password_input", PASSWORD)
            page.click("#login_submit")
            page.wait_for_selector(".jp-LabShell", state="attached")
            landed = page.url
            page.goto(f"{url}/services/{COURSE}/formgrader")
            page.get_by_text("Manage Assignments").first.wait_for()
            page.get_by_text(WEEK).first.wait_for()
            page.screenshot(path=str(pictures / "class-instructor-formgrader.png"))
        except Exception as e:
            page.screenshot(path=str(pictures / "failed-instructor.png"))
            raise AssertionError(f"the instructor's browser stopped ({pictures})") from e
        finally:
            browser.close()
    return landed


def probes(layout: Layout, homes: dict[str, Path]) -> str:
    """What a clever student tries from their notebook: one line a probe, the error it met."""
    classmate = homes["fz-student01"]
    grader = homes[GRADER]
    inbound = layout.exchange / COURSE / "inbound"
    attempts = {
        "read a classmate's notebook": f"open({str(classmate / WEEK / '01_board_graph.ipynb')!r})",
        "write into a classmate's week": f"open({str(classmate / WEEK / 'note.py')!r}, 'w')",
        "list the solutions": f"os.listdir({str(grader / COURSE / 'source' / WEEK)!r})",
        "change the gradebook": f"open({str(grader / COURSE / 'gradebook.db')!r}, 'r+b')",
        "list the submissions": f"os.listdir({str(inbound)!r})",
        "list the feedback": f"os.listdir({str(layout.exchange / COURSE / 'feedback')!r})",
        "read the hub's cookie secret": f"open({str(layout.private / 'cookie_secret')!r})",
        "read the hub's tokens": f"open({str(layout.private / 'jupyterhub.sqlite')!r}, 'rb')",
        "read /etc/shadow": "open('/etc/shadow')",
    }
    lines = [
        "import os, pwd",
        "print('runs as:', pwd.getpwuid(os.getuid()).pw_name, os.getuid())",
    ]
    for name, action in attempts.items():
        lines += [
            "try:",
            f"    {action}",
            f"    print({name!r} + ': ALLOWED')",
            "except OSError as e:",
            f"    print({name!r} + ': ' + type(e).__name__ + ': ' + str(e))",
        ]
    return "\n".join(lines)


#: The prober's own week sent in the first student's name, from their notebook.
FORGERY = """import os, subprocess
sent = subprocess.run(['nbgrader', 'submit', 'week1', '--student=fz-student01'],
                      cwd=os.path.expanduser('~'), capture_output=True)
print('submit in a classmate name: exit', sent.returncode)
"""


def student_in_browser(url: str, pictures: Path, phase: str) -> str:
    """The browser student: log in with their system password; ``hand in``: fetch week 1 from
    the Assignments panel, answer ``neighbours``, run all, save, submit; ``feedback``: fetch the
    feedback.  A picture of each screen in ``pictures``; returns what the checker printed."""
    from playwright.sync_api import sync_playwright

    shown = ""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        try:
            page.set_default_timeout(240_000)
            page.goto(f"{url}/hub/login")
            page.fill("#username_input", BROWSER)
            page.fill("#password_input", PASSWORD)
            if phase == "hand in":
                page.screenshot(path=str(pictures / "class-student-1-login.png"))
            page.click("#login_submit")
            page.wait_for_url(f"**/user/{BROWSER}/lab**", timeout=600_000)
            page.wait_for_selector(".jp-LabShell", state="attached")
            page.locator("div.lm-MenuBar-itemLabel", has_text="Nbgrader").click()
            page.locator(".lm-Menu-itemLabel", has_text="Assignment List").wait_for()
            menu = page.locator(".lm-Menu-itemLabel").all_inner_texts()
            page.locator(".lm-Menu-itemLabel", has_text="Assignment List").click()
            if phase == "feedback":
                submitted = page.locator("#submitted_assignments_list .list_item", has_text=WEEK)
                submitted.locator("button", has_text="Fetch Feedback").first.click()
                page.locator(
                    "#submitted_assignments_list a", has_text="view feedback"
                ).first.wait_for()
                page.screenshot(path=str(pictures / "class-student-5-feedback.png"))
                return ""
            released = page.locator("#released_assignments_list > .list_item", has_text=WEEK)
            released.wait_for()
            page.screenshot(path=str(pictures / "class-student-2-assignments.png"))
            released.locator("button", has_text="Fetch").click()
            page.locator("#fetched_assignments_list a", has_text=WEEK).click()
            page.locator("#fetched_assignments_list a", has_text="01_board_graph").click()
            answer = page.locator(".jp-CodeCell", has_text="def neighbours(width").first
            answer.locator(".cm-content").click()
            page.keyboard.press("Control+a")
            page.keyboard.insert_text(solved("01_board_graph.ipynb", "neighbours", "correct"))
            page.locator("div.lm-MenuBar-itemLabel", has_text="Run").click()
            page.get_by_text("Run All Cells", exact=True).click()
            check = page.locator(".jp-CodeCell", has_text="cases = check_neighbours").first
            check.locator(".jp-OutputArea-output").wait_for()
            shown = check.locator(".jp-OutputArea").inner_text()
            check.scroll_into_view_if_needed()
            page.screenshot(path=str(pictures / "class-student-3-checked.png"))
            page.keyboard.press("Control+s")
            page.locator(".jp-mod-dirty").wait_for(state="detached")
            page.locator(".lm-TabBar-tab", has_text="Assignments").click()
            page.locator("#fetched_assignments_list button", has_text="Submit").click()
            page.locator("#submitted_assignments_list .item_status").first.wait_for()
            page.screenshot(path=str(pictures / "class-student-4-submitted.png"))
            shown += "\nNbgrader menu: " + ", ".join(menu)
        except Exception as e:
            page.screenshot(path=str(pictures / f"failed-{phase.replace(' ', '-')}.png"))
            dialogs = page.locator("dialog.jp-Dialog").all_inner_texts()
            raise AssertionError(f"the browser student stopped ({pictures}); {dialogs}") from e
        finally:
            browser.close()
    return shown


def hand_in_by_hand(prefix, layout: Layout, student: str) -> None:
    """A student in a terminal: fetch, answer (files theirs, as their editor leaves them),
    submit."""
    login_shell(prefix, student, f"nbgrader fetch_assignment {WEEK}")
    week = layout.home(student) / WEEK
    fill_in(week, STUDENTS[student])
    account = pwd.getpwnam(student)
    for path in week.rglob("*"):
        os.chown(path, account.pw_uid, account.pw_gid)
    login_shell(prefix, student, f"nbgrader submit {WEEK}")


@contextlib.contextmanager
def class_accounts():
    """Remove, on leaving, the accounts and login settings the test's class made."""
    names = [GRADER, INSTRUCTOR, *STUDENTS]
    for name in names:
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            pytest.skip(f"an account named {name} exists already; the test makes its own")
    if PROFILE.exists():
        pytest.skip(f"{PROFILE} exists already; the test writes its own")
    try:
        yield
    finally:
        for name in names:
            subprocess.run(["userdel", "--remove", name], capture_output=True)
        PROFILE.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def real_class():
    """The week as the guide runs it on a real class; yields what the checks read."""
    # Not pytest's temporary folder: only root enters it, and the class must reach the state.
    work = Path(tempfile.mkdtemp(prefix="fanorona-class-"))
    work.chmod(0o755)
    # FANORONA_GUIDE_PICTURES=docs/how-to renews the guide's pictures of each student screen.
    pictures = Path(os.environ.get("FANORONA_GUIDE_PICTURES", work))
    layout = Layout(work / "state", accounts=True)
    class_list = work / "students.csv"
    class_list.write_text(
        "id,first_name,last_name,email\n"
        + "".join(f"{s},Student,{s[-2:]},{s}@example.org\n" for s in STUDENTS)
    )
    class_list.chmod(0o644)
    ports = {name: free_port() for name in PORTS}
    token = new_token()
    url = f"http://127.0.0.1:{ports['port']}"
    times = {}
    start = time.monotonic()
    with class_accounts(), namespace() as prefix, contextlib.ExitStack() as hub:
        made = subprocess.run(
            [*prefix, sys.executable, "-m", "hub", "accounts", str(class_list)]
            + ["--instructor", INSTRUCTOR],
            cwd=ROOT,
            env=dict(os.environ, FANORONA_HUB_STATE=str(layout.state)),
            capture_output=True,
            text=True,
        )
        assert made.returncode == 0, made.stderr
        subprocess.run(
            ["chpasswd"],
            input="".join(f"{n}:{PASSWORD}\n" for n in [INSTRUCTOR, *STUDENTS]),
            text=True,
            check=True,
        )
        again = subprocess.run(
            [*prefix, sys.executable, "-m", "hub", "accounts", str(class_list)]
            + ["--instructor", INSTRUCTOR],
            cwd=ROOT,
            env=dict(os.environ, FANORONA_HUB_STATE=str(layout.state)),
            capture_output=True,
            text=True,
        )
        times["accounts"] = time.monotonic() - start
        hub.enter_context(
            running_hub(layout, ports, work / "hub.log", prefix=prefix, admin_token=token)
        )
        times["hub"] = time.monotonic() - start
        homes = {name: layout.home(name) for name in [GRADER, *STUDENTS]}

        def instructor(command: str) -> str:
            return login_shell(prefix, GRADER, f"cd ~/{COURSE} && {command}")

        instructor(f"nbgrader generate_assignment {WEEK}")
        instructor(f"nbgrader release_assignment {WEEK}")
        hand_in_by_hand(prefix, layout, "fz-student01")
        hand_in_by_hand(prefix, layout, PROBER)
        browser_output = student_in_browser(url, pictures, "hand in")
        times["handed in"] = time.monotonic() - start
        api = HubAPI(url, token)
        api.start_servers([PROBER])
        user_token = api.call("POST", f"/users/{PROBER}/tokens", {"expires_in": 600})["token"]
        forged = run_in_kernel(url, PROBER, user_token, FORGERY)
        collected = instructor(f"nbgrader collect {WEEK}")
        instructor(f"nbgrader autograde {WEEK}")
        instructor(f"nbgrader generate_feedback {WEEK}")
        instructor(f"nbgrader release_feedback {WEEK}")
        probed = run_in_kernel(url, PROBER, user_token, probes(layout, homes))
        exported = instructor("nbgrader export && cat grades.csv")
        landed = instructor_in_browser(url, pictures)
        terminals = {
            PROBER: run_in_terminal(
                f"{url}/user/{PROBER}", user_token, "command -v nbgrader; id -un"
            ),
            GRADER: run_in_terminal(
                f"{url}/services/{COURSE}",
                api.call(
                    "POST",
                    f"/users/{INSTRUCTOR}/tokens",
                    {"expires_in": 600, "scopes": [f"access:services!service={COURSE}"]},
                )["token"],
                "command -v nbgrader; id -un",
            ),
        }
        login_shell(prefix, "fz-student01", f"nbgrader fetch_feedback {WEEK}")
        student_in_browser(url, pictures, "feedback")
        times["graded"] = time.monotonic() - start
        with Gradebook(f"sqlite:///{homes[GRADER] / COURSE / 'gradebook.db'}") as gradebook:
            scores = {s: gradebook.find_submission(WEEK, s).score for s in STUDENTS}
        yield {
            "layout": layout,
            "made": made.stdout,
            "again": again.stdout,
            "homes": homes,
            "probed": probed,
            "forged": forged,
            "collected": collected,
            "exported": exported,
            "scores": scores,
            "browser_output": browser_output,
            "landed": landed,
            "terminals": terminals,
        }
    times["stopped"] = time.monotonic() - start
    shutil.rmtree(work, ignore_errors=True)
    print(f"test_hub_class: {times} (load {os.getloadavg()[0]:.1f})", file=sys.stderr)


def test_accounts_are_made_from_the_class_list_once(real_class):
    assert "fz-student03: made, home /home/fz-student03 (mode 0700)" in real_class["made"]
    assert "fz-student03: kept" in real_class["again"]
    for home in real_class["homes"].values():
        assert home.stat().st_mode & 0o777 == 0o700


def test_every_probe_is_refused_with_the_error_a_user_sees(real_class):
    lines = real_class["probed"].splitlines()
    assert lines[0] == f"runs as: {PROBER} {pwd.getpwnam(PROBER).pw_uid}", lines
    refused = lines[1:]
    assert len(refused) == 9, lines
    for line in refused:
        assert ": PermissionError: [Errno 13] Permission denied: '/" in line, line


def test_a_submission_in_a_classmates_name_is_not_collected_and_named(real_class):
    assert "submit in a classmate name: exit 0" in real_class["forged"]
    collected = real_class["collected"]
    assert "names fz-student01 but was sent by fz-student02" in collected, collected
    scores = real_class["scores"]
    full = float(sum(points_table()[WEEK].values()))
    assert scores["fz-student01"] == full, scores
    assert 0 < scores[PROBER] < full, scores


def test_the_browser_student_is_graded_and_fetches_feedback(real_class):
    assert "cases agree" in real_class["browser_output"]
    menu = real_class["browser_output"].split("Nbgrader menu: ")[1]
    assert "Assignment List" in menu and "Formgrader" not in menu, menu
    assert real_class["scores"][BROWSER] == float(points_table()[WEEK]["check_neighbours"])
    feedback = list((real_class["homes"]["fz-student01"] / WEEK / "feedback").glob("*/*.html"))
    assert feedback


def test_grades_are_exported_for_every_student(real_class):
    exported = real_class["exported"]
    for student in STUDENTS:
        assert f"{WEEK}," in exported and student in exported, exported


def test_the_instructor_lands_in_the_grader_server(real_class):
    assert f"/services/{COURSE}/lab" in real_class["landed"]


def test_terminals_have_the_kit_on_path_and_run_as_their_account(real_class):
    for account, shown in real_class["terminals"].items():
        lines = [line.strip() for line in shown.splitlines()]
        assert str(BIN / "nbgrader") in lines, shown
        assert account in lines, shown


def test_students_keep_their_work_and_their_notebooks_stay_theirs(real_class):
    notebook = real_class["homes"][PROBER] / WEEK / "01_board_graph.ipynb"
    assert notebook.stat().st_uid == pwd.getpwnam(PROBER).pw_uid
    assert nbformat.read(notebook, as_version=4).cells
