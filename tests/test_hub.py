"""The course on a real JupyterHub: week 1 handed out, handed in, graded and handed back through
nbgrader's exchange, exactly as the teacher's guide ("The course on a JupyterHub") tells it.

One hub (``hub/jupyterhub_config.py``) on free ports of 127.0.0.1 with its own state folder; ten
students made through the hub's REST API with the course-admin token; nbgrader's own commands
run as those users (their name, home and settings, as in a terminal of their server), the
instructor's in the course's grader account.  Nine students work on the command line, one in
Chromium (logs in, fetches from the Assignments panel, answers a cell, runs the notebook,
submits).  Every student's score and feedback is checked against what their submission earns.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import re
import shutil
import sys
import time

import nbformat
import pytest
from nbgrader.api import Gradebook

from benchmarks.grade_class import points_table, solved
from benchmarks.hub_class import WEEK, expected_points, hand_in
from benchmarks.servers import CHROMIUM, LAUNCH_ARGS, free_port
from hub.api import HubAPI
from hub.course import (
    COURSE,
    GRADER,
    PORTS,
    STUDENTS,
    Layout,
    prepare,
    run_as,
    warm_up,
    write_class_list,
)
from hub.running import new_token, running_hub

PASSWORD = "class-password"
#: Ten students, what each hands in: the teacher's answers, one plausible mistake, the copy as
#: fetched, correct but three times slower, and a tamperer who rewrites the checker cell and its
#: points; the tenth works in the browser and answers only the first notebook.
KINDS = {
    "student01": "correct",
    "student02": "partly-wrong",
    "student03": "unfinished",
    "student04": "slow",
    "student05": "tampering",
    "student06": "correct",
    "student07": "partly-wrong",
    "student08": "unfinished",
    "student09": "tampering",
    "student10": "browser",
}
BROWSER = "student10"
#: Tournament night: two students hand in the teacher's player, one the released stub.
NIGHT = "tournament"
PLAYERS = {"student01": "teacher's", "student05": "unfinished", "student06": "teacher's"}
pytestmark = [
    pytest.mark.browser,
    pytest.mark.nbgrader,
    pytest.mark.slow,
    pytest.mark.xdist_group("course-hub"),  # every test reads the one hub's week
]
NOTEBOOK_OF = {"check_neighbours": "01_board_graph", "check_strings_through": "02_strings"}


def student_in_browser(url: str, student: str, picture) -> str:
    """Log in, fetch week 1 from the Assignments panel, answer ``neighbours`` in notebook 01, run
    every cell, save and submit; return the checker's output as the page showed it.  If it
    fails, the page is saved as ``picture`` and the error names any dialog that was open."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        try:
            page.set_default_timeout(240_000)
            page.goto(f"{url}/hub/login")
            page.fill("#username_input", student)
            page.fill("#password_input", PASSWORD)
            page.click("#login_submit")
            page.wait_for_url(f"**/user/{student}/lab**", timeout=600_000)
            page.wait_for_selector(".jp-LabShell", state="attached")
            page.locator("div.lm-MenuBar-itemLabel", has_text="Nbgrader").click()
            page.locator(".lm-Menu-itemLabel", has_text="Assignment List").click()
            released = page.locator("#released_assignments_list > .list_item", has_text=WEEK)
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
            page.keyboard.press("Control+s")
            page.locator(".jp-mod-dirty").wait_for(state="detached")
            page.locator(".lm-TabBar-tab", has_text="Assignments").click()
            page.locator("#fetched_assignments_list button", has_text="Submit").click()
            page.locator("#submitted_assignments_list .item_status").first.wait_for()
        except Exception as e:
            page.screenshot(path=str(picture))
            dialogs = page.locator("dialog.jp-Dialog").all_inner_texts()
            raise AssertionError(
                f"the browser student stopped ({picture}); dialogs: {dialogs}"
            ) from e
        finally:
            browser.close()
    return shown


def hand_in_player(layout: Layout, student: str) -> None:
    """Fetch the tournament assignment, write the player (the teacher's, or none), submit."""
    run_as(layout, student, "fetch_assignment", NIGHT)
    path = layout.home(student) / NIGHT / "11_tournament.ipynb"
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        mine = cell.metadata.get("nbgrader", {}).get("grade_id") == "tournament_player"
        if mine and PLAYERS[student] == "teacher's":
            cell.source = solved(path.name, "tournament_player", "correct")
    nbformat.write(notebook, path)
    run_as(layout, student, "submit", NIGHT)


@contextlib.contextmanager
def phase(name: str):
    """Print how long one step of the week took, and the load then (where the time goes)."""
    start = time.monotonic()
    try:
        yield
    finally:
        seconds, load = time.monotonic() - start, os.getloadavg()[0]
        print(f"test_hub: {name} {seconds:.0f} s (load {load:.1f})", file=sys.stderr)


def feedback_scores(html: str) -> dict[str, float]:
    """{checker grade id: score} from an nbgrader feedback page's list of graded cells."""
    return {
        grade_id: float(score)
        for grade_id, score in re.findall(r'href="#(\w+)">Test cell</a> \(Score: ([\d.]+) /', html)
    }


@pytest.fixture(scope="module")
def cycle(tmp_path_factory):
    """The week as the teacher's guide runs it; yields what the checks read."""
    layout = Layout(tmp_path_factory.mktemp("hub") / "state")
    ports = {name: free_port() for name in PORTS}
    token = new_token()
    url = f"http://127.0.0.1:{ports['port']}"
    students = list(KINDS)
    log = layout.state.parent / "hub.log"
    warm_up()  # nbgrader imported, for every command to fork from, while the hub starts
    with contextlib.ExitStack() as hub:
        hub.enter_context(phase("all of it, the checks and the hub's stop included"))
        with phase("the hub and the formgrader up"):
            hub.enter_context(running_hub(layout, ports, log, admin_token=token, password=PASSWORD))
        api = HubAPI(url, token)
        api.add_users(["teacher"])
        api.add_users(students, STUDENTS)
        course = layout.course
        class_list = write_class_list(layout.state.parent / "students.csv", students)

        def instructor(*args):
            with phase(f"nbgrader {' '.join(args[:2])}"):
                return run_as(layout, GRADER, *args, cwd=course)

        def in_browser():
            with phase("the browser student"):
                return student_in_browser(url, BROWSER, layout.state.parent / "page.png")

        def every(name, work, names):
            with phase(name), concurrent.futures.ThreadPoolExecutor(3) as pool:
                list(pool.map(work, names))

        instructor("db", "student", "import", str(class_list))
        instructor("generate_assignment", WEEK)
        instructor("release_assignment", WEEK)
        with concurrent.futures.ThreadPoolExecutor(1) as browser:
            shown = browser.submit(in_browser)
            on_the_command_line = [s for s in students if s != BROWSER]
            every(
                "nine students hand in", lambda s: hand_in(layout, s, KINDS[s]), on_the_command_line
            )
            instructor("generate_assignment", NIGHT)
            instructor("release_assignment", NIGHT)
            every("three players handed in", lambda s: hand_in_player(layout, s), PLAYERS)
            browser_output = shown.result()
        instructor("collect", NIGHT)
        instructor("collect", WEEK)
        instructor("autograde", WEEK)
        instructor("generate_feedback", WEEK)
        instructor("release_feedback", WEEK)
        every(
            "ten students fetch feedback",
            lambda s: run_as(layout, s, "fetch_feedback", WEEK),
            students,
        )
        tokens = {
            user: api.call("POST", f"/users/{user}/tokens", {"expires_in": 600})["token"]
            for user in ("teacher", BROWSER)
        }
        server_pid = api.user(BROWSER)["servers"][""]["state"]["pid"]
        yield {
            "layout": layout,
            "url": url,
            "tokens": tokens,
            "browser_output": browser_output,
            "server_pid": server_pid,
        }
    shutil.rmtree(layout.state, ignore_errors=True)


def stated_share(course, student: str, grade_id: str) -> float:
    """The points a checker cell's own sentence gives a partly wrong answer in the graded
    notebook ("N of M cases agree: S of P points.")."""
    path = course / "autograded" / student / WEEK / f"{NOTEBOOK_OF[grade_id]}.ipynb"
    cell = next(
        c
        for c in nbformat.read(path, as_version=4).cells
        if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id
    )
    text = "".join(output.get("text", "") for output in cell.outputs)
    found = re.search(r"\d+ of \d+ cases agree: ([\d.]+) of", text)
    assert found, f"{student}'s {grade_id} states no share: {text[-500:]}"
    return float(found.group(1))


def earned(course) -> dict[str, dict[str, float]]:
    """{student: {checker: points}} as each student's submission earns them: a partly wrong
    answer the share its checker states, strictly between nothing and full points."""
    checks = points_table()[WEEK]
    table = {}
    for student, kind in KINDS.items():
        points = expected_points(kind, checks)
        for grade_id, value in points.items():
            if value is None:
                points[grade_id] = stated_share(course, student, grade_id)
                assert 0 < points[grade_id] < checks[grade_id], (student, grade_id)
        table[student] = points
    return table


def test_every_student_gets_the_points_their_submission_earns(cycle):
    checks = points_table()[WEEK]
    course = cycle["layout"].course
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        got = {
            student: {
                grade_id: gradebook.find_grade(grade_id, NOTEBOOK_OF[grade_id], WEEK, student).score
                for grade_id in checks
            }
            for student in KINDS
        }
        assert {s.id for s in gradebook.students} == set(KINDS)
        maximum = gradebook.find_assignment(WEEK).max_score
    assert got == earned(course)
    assert maximum == sum(checks.values())  # the tamperer's 100 points were not taken


def test_each_student_fetches_feedback_with_their_own_scores(cycle):
    expected = earned(cycle["layout"].course)
    for student in KINDS:
        pages = list((cycle["layout"].home(student) / WEEK / "feedback").glob("*/*.html"))
        assert sorted(p.name for p in pages) == ["01_board_graph.html", "02_strings.html"], student
        shown = {}
        for page in pages:
            shown.update(feedback_scores(page.read_text()))
        assert shown == expected[student], student


def test_the_browser_student_ran_the_notebook_and_submitted_it_as_themself(cycle):
    assert "cases agree" in cycle["browser_output"]
    inbound = cycle["layout"].exchange / "fanorona" / "inbound"
    mine = [p for p in inbound.iterdir() if p.name.startswith(f"{BROWSER}+{WEEK}+")]
    assert len(mine) == 1
    handed_in = nbformat.read(mine[0] / "01_board_graph.ipynb", as_version=4)
    assert any(
        "cases agree" in output.get("text", "")
        for cell in handed_in.cells
        for output in cell.get("outputs", [])
    )


def test_every_submission_is_in_the_exchange_under_the_students_own_name(cycle):
    inbound = cycle["layout"].exchange / "fanorona" / "inbound"
    handed_in = [p.name.split("+")[:2] for p in inbound.iterdir()]  # student+week+time+random
    assert sorted(student for student, week in handed_in if week == WEEK) == sorted(KINDS)
    assert sorted(student for student, week in handed_in if week == NIGHT) == sorted(PLAYERS)


def test_only_instructors_reach_the_formgrader(cycle):
    import urllib.error
    import urllib.request

    def status(user, path):
        request = urllib.request.Request(
            cycle["url"] + path, headers={"Authorization": f"token {cycle['tokens'][user]}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                return answer.status
        except urllib.error.HTTPError as e:
            return e.code

    assert status("teacher", "/services/fanorona/formgrader/api/assignments") == 200
    assert status(BROWSER, "/services/fanorona/formgrader/api/assignments") == 403
    assert status(BROWSER, f"/user/{BROWSER}/api/status") == 200
    assert status(BROWSER, f"/user/{BROWSER}/formgrader/api/assignments") == 404


def test_a_students_server_and_its_kernels_have_the_memory_limit(cycle):
    import psutil

    server = psutil.Process(cycle["server_pid"])
    processes = [server, *server.children(recursive=True)]
    assert any("ipykernel" in " ".join(p.cmdline()) for p in processes)  # the notebook's kernel
    for process in processes:
        assert process.rlimit(psutil.RLIMIT_AS) == (2 * 2**30, 2 * 2**30), process.cmdline()


def test_tournament_night_on_the_collected_players(cycle):
    """The instructor's command of the teacher's guide, in the grader's course folder: every
    player in the sandbox; the unfinished one forfeits and the night goes on."""
    import csv
    import subprocess
    import sys

    from hub.course import user_environment

    layout = cycle["layout"]
    night = layout.state.parent / "night"
    night.mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fanorona.tournament",
            "run",
            str(night / "night.sqlite"),
            "submitted/",
            "--assignment",
            NIGHT,
            "--levels",
            "1",
            "--size",
            "5x5",
            "--max-turns",
            "30",
            "--time",
            "1",
            "--workers",
            "0",
            "--seed",
            "1",
            "--samples",
            "20",
            "--csv",
            str(night / "night.csv"),
        ],
        cwd=layout.course,
        env=user_environment(layout, GRADER),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    with open(night / "night.csv", newline="") as table:
        games = list(csv.DictReader(table))
    entries = {*PLAYERS, "level1"}
    played = {name: [g for g in games if name in (g["white"], g["black"])] for name in entries}
    assert {len(g) for g in played.values()} == {2 * (len(entries) - 1)}, played
    won = [g.get(g["winner"]) for g in games if g["winner"] in ("white", "black")]
    assert "student05" not in won and {"student01", "student06"} & set(won)
    assert all(name in done.stdout for name in entries)


def test_a_failing_command_names_itself_its_user_and_what_nbgrader_said(tmp_path):
    """The command runs in the user's settings (their exchange), and its failure is one message."""
    layout = Layout(tmp_path / "state")
    prepare(layout)
    with pytest.raises(RuntimeError) as failed:
        run_as(layout, "student01", "fetch_assignment", "week9")
    said = str(failed.value)
    assert said.startswith("nbgrader fetch_assignment week9 as student01 failed (exit status 1):")
    assert f"Assignment not found at: {layout.exchange / COURSE / 'outbound' / 'week9'}" in said


def test_a_command_that_runs_too_long_is_stopped(tmp_path):
    layout = Layout(tmp_path / "state")
    prepare(layout)
    with pytest.raises(RuntimeError, match=r"nbgrader list as student01 failed \(stopped after"):
        run_as(layout, "student01", "list", timeout=0.001)
