"""The course hub's figures: seconds to start a class's servers, memory a student, grading time.

``python benchmarks/bench_hub.py`` (``make bench-hub``) starts the hub of ``hub/`` on free ports of
127.0.0.1 in a temporary state folder, then for each class size (10 and 30): makes the students
through the REST API, asks for all their servers at once and times until every one is ready,
starts one kernel in each (as a student who opens a notebook) and reads the memory of each
student's server and kernel (resident and proportional set sizes), then stops them.  Last, the
class of 10 hands in week 1 through nbgrader's exchange (the kinds of benchmarks/hub_class.py)
and the instructor's ``nbgrader autograde`` is timed (wall, and CPU: nbgrader's process, its
children, and the sandboxed workers it reports in its log).  Printed, with the load average; every
wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.grade_class import worker_cpu  # noqa: E402
from benchmarks.hub_class import KINDS, WEEK, hand_in  # noqa: E402
from benchmarks.servers import free_port  # noqa: E402
from hub.api import HubAPI  # noqa: E402
from hub.course import GRADER, PORTS, STUDENTS, Layout, run_as, warm_up  # noqa: E402
from hub.running import new_token, running_hub, running_in  # noqa: E402


def start_kernel(url: str, api: HubAPI, user: str) -> None:
    """A kernel in ``user``'s server, started through the server's API with a token of theirs."""
    token = api.call("POST", f"/users/{user}/tokens", {"expires_in": 600})["token"]
    request = urllib.request.Request(
        f"{url}/user/{user}/api/kernels",
        data=json.dumps({"name": "python3"}).encode(),
        method="POST",
        headers={"Authorization": f"token {token}"},
    )
    with urllib.request.urlopen(request, timeout=300) as answer:
        answer.read()


def memory_by_user(layout: Layout, users: list[str]) -> dict[str, tuple[float, float]]:
    """{user: (resident MiB, proportional MiB)} of the processes running in their home."""
    found = {}
    for user in users:
        rss = pss = 0
        for pid in running_in(layout.home(user)):
            try:
                info = psutil.Process(pid).memory_full_info()
            except psutil.Error:
                continue
            rss, pss = rss + info.rss, pss + info.pss
        found[user] = (rss / 2**20, pss / 2**20)
    return found


def class_of(layout, url, api, size: int, timeout: float) -> None:
    students = [f"student{n:02d}" for n in range(1, size + 1)]
    api.add_users(students, STUDENTS)
    load = os.getloadavg()[0]
    seconds = api.start_servers(students, timeout=timeout)
    print(f"{size} students: every server ready in {seconds:.0f} s (load average {load:.1f})")
    for student in students:
        start_kernel(url, api, student)
    time.sleep(5)
    memory = memory_by_user(layout, students)
    rss = statistics.median(r for r, _ in memory.values())
    pss = statistics.median(p for _, p in memory.values())
    print(
        f"  a student's server and kernel: median {rss:.0f} MiB resident, {pss:.0f} MiB "
        f"proportional (shared library pages split); {sum(p for _, p in memory.values()):.0f} MiB "
        "for the class"
    )
    api.stop_servers(students)


def autograde_minutes(layout: Layout, size: int) -> None:
    students = [f"student{n:02d}" for n in range(1, size + 1)]
    course = layout.course
    run_as(layout, GRADER, "generate_assignment", WEEK, cwd=course)
    run_as(layout, GRADER, "release_assignment", WEEK, cwd=course)
    for n, student in enumerate(students):
        hand_in(layout, student, KINDS[n % len(KINDS)])
    run_as(layout, GRADER, "collect", WEEK, cwd=course)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    done = run_as(layout, GRADER, "autograde", WEEK, cwd=course)
    wall, cpu = time.perf_counter() - start, done.cpu + worker_cpu(done.output)
    print(
        f"autograde {WEEK} for {size} students: {wall / 60:.1f} minutes wall "
        f"({wall / 60 / size:.2f} a student), {cpu / 60:.1f} CPU minutes "
        f"(load average {load:.1f} at the start, {os.cpu_count()} cores)"
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 30], help="class sizes")
    parser.add_argument("--timeout", type=float, default=900, help="most seconds for one start")
    args = parser.parse_args(argv)
    if any(not 1 <= size <= 60 for size in args.sizes):
        parser.exit(1, f"error: class sizes must be 1 to 60, not {args.sizes}\n")
    with tempfile.TemporaryDirectory() as tmp:
        layout = Layout(Path(tmp) / "state")
        ports = {name: free_port() for name in PORTS}
        token = new_token()
        url = f"http://127.0.0.1:{ports['port']}"
        start = time.perf_counter()
        warm_up()
        with running_hub(layout, ports, Path(tmp) / "hub.log", admin_token=token):
            print(f"hub and the formgrader service up in {time.perf_counter() - start:.0f} s")
            api = HubAPI(url, token)
            for size in args.sizes:
                class_of(layout, url, api, size, args.timeout)
            autograde_minutes(layout, 10)


if __name__ == "__main__":
    main()
