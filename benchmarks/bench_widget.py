"""What a click on the board costs inside the kernel: ``python -m benchmarks bench_widget``.

Each click selects or deselects d3 on the 9x5 start and is timed until the picture is rendered
and encoded as the PNG that ipympl sends (``canvas.draw()`` with a browser attached), with the
overlays off and with every overlay on.  What a user sees in a browser is larger: the browser
benchmark (``make bench-browser``) measures from the mouse click to the changed pixels.
"""

from __future__ import annotations

import time
import warnings
from statistics import median

TARGET_CLICK_MS = 40


def main(clicks: int = 40) -> None:
    from tqdm import tqdm

    from fanorona.ui.widget import BoardWidget

    with warnings.catch_warnings():  # ipympl 0.10 makes traitlets warn about its Toolbar
        warnings.filterwarnings("ignore", "Passing unrecognized arguments", DeprecationWarning)
        w = BoardWidget()
    w.canvas.syncing_data_url = (
        False  # as when a browser shows the canvas: every click renders at once
    )
    rows = []
    for name, overlays in (
        ("plain", {}),
        ("all overlays", dict(strings=True, names=True, strong=True, legal=True)),
    ):
        w.show(**overlays)
        walls, cpus = [], []
        for _ in tqdm(range(clicks), desc=f"widget clicks, {name}", leave=False):
            wall, cpu = time.perf_counter(), time.process_time()
            w.click("d3")
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        rows.append((name, median(walls), median(cpus)))
    w.close()
    print(
        f"widget: a click, its redraw and the PNG sent, on the 9x5 board, median of {clicks} clicks"
    )
    for name, wall, cpu in rows:
        print(f"  {name:<13} {wall * 1000:6.1f} ms wall {cpu * 1000:6.1f} ms CPU")
    worst = max(cpu for _, _, cpu in rows)
    print(
        f"kernel-side target < {TARGET_CLICK_MS} ms CPU: "
        f"{'met' if worst * 1000 < TARGET_CLICK_MS else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
