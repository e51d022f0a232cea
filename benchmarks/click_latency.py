"""What a user waits for after a click on the board, measured in a real browser.

``python benchmarks/click_latency.py`` (``make bench-browser``) serves notebooks/play.ipynb with
Voilà and a one-board notebook with JupyterLab on free localhost ports, opens each in headless
Chromium and clicks d3 on the 9x5 start, selecting and deselecting it in turn.  The latency of a
click runs, on the page's clock, from a capture-phase ``mousedown`` listener to the end of the
first ``drawImage`` after which the board's canvas pixels hash differently; so it covers the trip
to the kernel, the kernel's work, the image's trip back and its drawing.  The kernel-side time is
the sum of the kernel's busy spells (its own status messages, read off the websocket) inside that
interval.  Each figure is measured with no overlay and with every overlay on, and says whether
the goals are met.  Where the time goes: from the picture's arrival in the page to its drawing;
the kernel's busy time per click by the request that caused it (read off the frames the page
sends); and a press's handling timed inside the kernel by a probe cell (wall clock against CPU:
the difference is the kernel waiting for a core, which the page and the server share on a small
machine).  Then one click is split inside the kernel (``benchmarks/widget_clicks.py``: scene,
artists, picture, PNG encode and its size, controls, move list), and the load average is printed:
the machine may be shared.
"""

import argparse
import contextlib
import json
import os
import sys
import tempfile
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from statistics import median, quantiles

from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1
from servers import (  # beside this script
    CHROMIUM,
    LAUNCH_ARGS,
    free_port,
    lab_command,
    lab_folder,
    serving,
    voila_command,
)
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
POINT = "d3"
#: Median latency goals with no overlay, and what every overlay on may add.
GOALS_MS = {"Voilà": 40, "JupyterLab": 60}
OVERLAY_ALLOWANCE_MS = 15

# Installed before any page script runs: remembers each mousedown and each change of a board canvas.
PROBE = """
(() => {
  const probe = window.__latency = {clicks: [], changes: [], arrivals: [], last: new WeakMap()};
  addEventListener('mousedown', () => probe.clicks.push(performance.now()), true);
  const createObjectURL = URL.createObjectURL;
  URL.createObjectURL = function (blob) {  // ipympl makes each picture it receives a blob URL
    if (blob && blob.type === 'image/png') probe.arrivals.push(performance.now());
    return createObjectURL.call(this, blob);
  };
  const drawImage = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    const result = drawImage.apply(this, args);
    const canvas = this.canvas;
    if (canvas.isConnected && canvas.closest('.fanorona-board')) {
      const drawn = performance.now();
      const pixels = new Uint32Array(
        this.getImageData(0, 0, canvas.width, canvas.height).data.buffer);
      let hash = 2166136261;
      for (let i = 0; i < pixels.length; i++) hash = Math.imul(hash ^ pixels[i], 16777619);
      if (probe.last.get(canvas) !== hash) {
        probe.last.set(canvas, hash);
        probe.changes.push(drawn);
      }
    }
    return result;
  };
})();
"""


#: Run in the kernel before the board is made: times each message the board's canvas handles
#: (wall clock, the kernel's main thread's CPU and the whole process's CPU, in ms), one JSON line
#: each in the file ``TIMES`` of the served folder.
KERNEL_PROBE = """
import json as _json, time as _time
from fanorona.ui.picture import _BoardCanvas

def _timed(handle):
    def timed(self, object, content, buffers):
        wall, cpu, process = _time.perf_counter(), _time.thread_time(), _time.process_time()
        try:
            return handle(self, object, content, buffers)
        finally:
            spent = [_time.perf_counter() - wall, _time.thread_time() - cpu,
                     _time.process_time() - process]
            with open({path!r}, "a") as out:
                out.write(_json.dumps([content.get("type"), *(1000 * t for t in spent)]) + "\\n")
    return timed

_BoardCanvas._handle_message = _timed(_BoardCanvas._handle_message)
"""
TIMES = "kernel_times.jsonl"


def probed(notebook, folder: Path):
    """The notebook with KERNEL_PROBE as its first cell."""
    import nbformat

    probe = KERNEL_PROBE.format(path=str(folder / TIMES))
    notebook.cells.insert(0, nbformat.v4.new_code_cell(probe))
    return notebook


def voila(page, folder: Path):
    """Serve play.ipynb with Voilà; yield the board once it is on the page."""
    import nbformat

    notebook = nbformat.read(ROOT / "notebooks" / "play.ipynb", as_version=4)
    nbformat.write(probed(notebook, folder), folder / "play.ipynb")
    port = free_port()
    command = voila_command("play.ipynb", port)
    with serving(command, f"http://127.0.0.1:{port}/", folder / "server.log"):
        page.goto(f"http://127.0.0.1:{port}/")
        yield page.locator(".fanorona-board").first


def lab(page, folder: Path):
    """Serve a notebook holding one board with JupyterLab, run it; yield the board."""
    probe = KERNEL_PROBE.format(path=str(folder / TIMES))
    lab_folder(folder, {"board.ipynb": [probe, "import fanorona as fa\nfa.BoardWidget()"]})
    port = free_port()
    command = lab_command(folder, port)
    with serving(command, f"http://127.0.0.1:{port}/api", folder / "server.log"):
        page.goto(f"http://127.0.0.1:{port}/lab/tree/board.ipynb")
        page.wait_for_function(
            "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
            " const k = w && w.sessionContext && w.sessionContext.session"
            " && w.sessionContext.session.kernel; return k && k.connectionStatus === 'connected'; }"
        )
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        yield page.locator(".fanorona-board").first


class KernelClock:
    """The kernel's busy spells, from the status messages it publishes (kernel clock, epoch ms),
    each with the request that caused it, read off the frames the page sent."""

    def __init__(self, page):
        self.started: dict[str, float] = {}
        self.spells: list[tuple[float, float, str]] = []
        self.requests: dict[str, str] = {}  # msg_id -> what the page asked for
        page.on("websocket", self.watch)

    def watch(self, ws) -> None:
        ws.on("framereceived", self.frame)
        ws.on("framesent", self.sent)

    def sent(self, payload) -> None:
        header, _, content = self.parse(payload, channels=("shell", "control"))
        if header.get("msg_id"):
            self.requests[header["msg_id"]] = self.kind(header.get("msg_type", "?"), content)

    @staticmethod
    def kind(msg_type: str, content: dict) -> str:
        """A request in a few words: its type and, for a comm message, the widget method and the
        ipympl event or the widget state keys it carries."""
        data = content.get("data") or {}
        if msg_type != "comm_msg":
            return msg_type
        if data.get("method") == "custom":
            return f"ipympl {(data.get('content') or {}).get('type', '?')}"
        if data.get("method") == "update":
            return "widget update " + ",".join(sorted(data.get("state") or {}))
        return f"comm {data.get('method', '?')}"

    def frame(self, payload) -> None:
        header, parent_header, content = self.parse(payload)
        state = content.get("execution_state") if header.get("msg_type") == "status" else None
        if state is None:
            return
        when = datetime.fromisoformat(header["date"]).timestamp() * 1000
        parent = parent_header.get("msg_id", "")
        if state == "busy":
            self.started[parent] = when
        elif state == "idle" and parent in self.started:
            self.spells.append((self.started.pop(parent), when, self.requests.get(parent, "?")))

    @staticmethod
    def parse(payload, channels=("iopub",)) -> tuple[dict, dict, dict]:
        """Header, parent header and content of a kernel message on one of ``channels`` in either
        websocket protocol (legacy JSON or v1 binary); empty for anything else."""
        try:
            if isinstance(payload, str):
                message = json.loads(payload)
                if message.get("channel", channels[0]) not in channels:
                    return {}, {}, {}
                return (
                    message.get("header") or {},
                    message.get("parent_header") or {},
                    message.get("content") or {},
                )
            channel, parts = deserialize_msg_from_ws_v1(payload)
            if channel not in channels or len(parts) < 4:
                return {}, {}, {}
            return json.loads(parts[0]), json.loads(parts[1]), json.loads(parts[3])
        except (ValueError, IndexError, UnicodeDecodeError):
            return {}, {}, {}

    def busy(self, start: float, end: float) -> dict[str, float]:
        """Milliseconds the kernel was busy in spells that began between start and end (epoch
        ms), by the request that caused them."""
        spent: dict[str, float] = defaultdict(float)
        for a, b, kind in self.spells:
            if start <= a <= end:
                spent[kind] += b - a
        return spent


def settle(page, quiet_ms: int = 600, limit_ms: int = 30000) -> None:
    """Wait until the board's picture has not changed for quiet_ms."""
    page.wait_for_function(
        f"""() => {{
        const c = window.__latency.changes;
        return c.length > 0 && performance.now() - c[c.length - 1] > {quiet_ms}; }}""",
        timeout=limit_ms,
    )


def measure(page, board, kernel: KernelClock, times: Path, clicks: int, label: str) -> dict:
    """Click POINT clicks times: each click's latency and the kernel's busy time until the picture
    changed, in ms; the kernel's busy time over each whole click (until the picture settled) by
    the request that caused it; and the board canvas's handling of each kind of message, timed
    inside the kernel (``KERNEL_PROBE``, written to ``times``)."""
    handled_before = len(times.read_text().splitlines()) if times.exists() else 0
    canvas = board.locator(".jupyter-matplotlib-canvas-div canvas").first
    points = json.loads(board.locator(".fanorona-points").text_content())
    board.scroll_into_view_if_needed()
    settle(page)
    box = canvas.bounding_box()
    fx, fy = points[POINT]
    origin = page.evaluate("() => performance.timeOrigin")
    latencies, drawing, busy, spent = [], [], [], defaultdict(float)
    for _ in tqdm(range(clicks), desc=label, leave=False):
        page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
        clicked, shown, arrived = page.wait_for_function(
            """() => {
            const p = window.__latency, t = p.clicks[p.clicks.length - 1];
            const after = p.changes.find(c => c > t);
            const arrived = p.arrivals.filter(a => a > t && a <= after).pop();
            return after !== undefined && [t, after, arrived === undefined ? after : arrived]; }""",
            timeout=30000,
        ).json_value()
        settle(page, quiet_ms=300)
        settled = page.evaluate("() => performance.now()")
        latencies.append(shown - clicked)
        drawing.append(shown - arrived)
        busy.append(sum(kernel.busy(origin + clicked, origin + shown).values()))
        for kind, ms in kernel.busy(origin + clicked, origin + settled).items():
            spent[kind] += ms / clicks
    handled = defaultdict(list)
    for line in times.read_text().splitlines()[handled_before:]:
        kind, *spent_ms = json.loads(line)
        handled[kind].append(spent_ms)
    return {
        "latencies": latencies,
        "drawing": drawing,
        "busy": busy,
        "spent": dict(spent),
        "handled": {k: [median(column) for column in zip(*v)] for k, v in handled.items()},
    }


def overlays_on(page, board) -> list[str]:
    """Press every overlay toggle (all toggle buttons but Large); return their names."""
    toggles = board.locator(".widget-toggle-button")
    names = []
    for i in range(toggles.count()):
        toggle = toggles.nth(i)
        name = toggle.inner_text().strip()
        if name.lower() != "large":
            toggle.click()
            names.append(name)
    if not names:
        raise RuntimeError("no overlay toggle found on the board")
    return names


def p90(values: list[float]) -> float:
    return quantiles(values, n=10)[-1]


def run(where: str, clicks: int, browser) -> list[tuple[str, str, dict]]:
    """Measure in one front end: (front end, overlays, ``measure``'s figures) with no overlay and
    with every overlay on."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.add_init_script(PROBE)
    context.route(
        "**/*",
        lambda route: (
            route.continue_() if route.request.url.startswith("http://127.0.0.1") else route.abort()
        ),
    )  # offline: a CDN that cannot be reached must not stall the page
    page = context.new_page()
    page.set_default_timeout(300_000)
    kernel = KernelClock(page)
    rows = []
    with (
        tempfile.TemporaryDirectory() as folder,
        contextlib.closing((voila if where == "Voilà" else lab)(page, Path(folder))) as boards,
    ):
        board = next(boards)
        board.wait_for(state="visible")
        board.locator(".fanorona-points").wait_for(state="attached")
        times = Path(folder) / TIMES
        plain = measure(page, board, kernel, times, clicks, f"{where}, no overlay")
        rows.append((where, "none", plain))
        names = overlays_on(page, board)
        figures = measure(page, board, kernel, times, clicks, f"{where}, all overlays")
        rows.append((where, "all: " + ", ".join(names), figures))
    context.close()
    return rows


def report(rows: list[tuple[str, str, dict]]) -> None:
    """The latencies, whether each goal is met, and where the kernel's time per click goes."""
    print(
        "median and p90 latency; kernel: its busy time until the picture changed; in page: from the"
        " picture's arrival to its drawing"
    )
    print(f"{'front end':<11} {'median':>7} {'p90':>7} {'kernel':>7} {'in page':>7}  overlays")
    for where, overlays, f in rows:
        print(
            f"{where:<11} {median(f['latencies']):4.0f} ms {p90(f['latencies']):4.0f} ms"
            f" {median(f['busy']):4.0f} ms {median(f['drawing']):4.0f} ms  {overlays}"
        )
    for where, goal in GOALS_MS.items():
        medians = [median(f["latencies"]) for w, _, f in rows if w == where]
        if len(medians) != 2:
            continue
        plain, overlaid = medians
        print(
            f"goal in {where}: median <= {goal} ms with no overlay:"
            f" {'met' if plain <= goal else 'NOT met'} ({plain:.0f} ms); every overlay on"
            f" <= {OVERLAY_ALLOWANCE_MS} ms more:"
            f" {'met' if overlaid - plain <= OVERLAY_ALLOWANCE_MS else 'NOT met'}"
            f" ({overlaid - plain:+.0f} ms)"
        )
    kinds = sorted({k for *_, f in rows for k in f["spent"]})
    print("kernel busy per click, from the click until the picture settled, mean ms by request:")
    print(f"  {'request':<44}" + "".join(f" {w[:5]:>5}/{o[:4]:<4}" for w, o, _ in rows))
    for kind in sorted(kinds, key=lambda k: -max(f["spent"].get(k, 0) for *_, f in rows)):
        print(f"  {kind[:44]:<44}" + "".join(f" {f['spent'].get(kind, 0):10.1f}" for *_, f in rows))
    print("the board canvas's handling of a press, in the kernel, median ms:")
    for where, overlays, f in rows:
        wall, thread, process = f["handled"].get("button_press", [float("nan")] * 3)
        print(
            f"  {where:<11} {overlays[:4]:<5} wall {wall:5.1f}, main thread CPU {thread:5.1f},"
            f" process CPU {process:5.1f}"
        )
    mean = {
        w: {k: sum(f["spent"].get(k, 0) for x, _, f in rows if x == w) / 2 for k in kinds}
        for w in GOALS_MS
        if any(x == w for x, *_ in rows)
    }
    if len(mean) == 2:
        lab, voila = mean["JupyterLab"], mean["Voilà"]
        extra = sorted(((lab[k] - voila[k], k) for k in kinds), reverse=True)
        print(
            f"JupyterLab's kernel is busy {sum(lab.values()) - sum(voila.values()):+.1f} ms a click"
            " more than Voilà's; most of it: "
            + (", ".join(f"{k} {d:+.1f} ms" for d, k in extra[:3] if d > 0.5) or "nowhere")
        )
        press = {
            w: [f["handled"].get("button_press", [float("nan")] * 3) for x, _, f in rows if x == w]
            for w in mean
        }
        cpu = {w: median(t[1] for t in press[w]) for w in press}
        waiting = {w: median(t[0] - t[1] for t in press[w]) for w in press}
        print(
            f"  a press handled in the kernel: CPU {cpu['Voilà']:.1f} ms in Voilà,"
            f" {cpu['JupyterLab']:.1f} ms in JupyterLab; waiting for a core (wall less CPU)"
            f" {waiting['Voilà']:.1f} ms and {waiting['JupyterLab']:.1f} ms"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30, help="clicks per figure (default 30)")
    parser.add_argument("--only", choices=["voila", "lab"], help="measure in one front end only")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"no Chromium at {CHROMIUM} (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    wheres = {"voila": ["Voilà"], "lab": ["JupyterLab"], None: ["Voilà", "JupyterLab"]}[args.only]
    rows, load = [], os.getloadavg()[0]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        for where in wheres:
            rows += run(where, args.clicks, browser)
        browser.close()
    print(
        f"Click on {POINT} (select, deselect) to the first changed canvas pixels, headless"
        f" Chromium, {args.clicks} clicks each, 9x5 start; load average {load:.2f} before,"
        f" {os.getloadavg()[0]:.2f} after"
    )
    report(rows)
    from widget_clicks import print_split

    print_split(args.clicks)
    print(f"load average now {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
