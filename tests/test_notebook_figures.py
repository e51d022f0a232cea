"""Every figure the course's notebooks draw keeps its words inside its own bounds (a title, an
axis label or a point's name past the edge is cut in half by any backend that shows the figure as
it is, such as the interactive board's ipympl canvas), and panels drawn side by side to be
compared (one quantity on their y axes, labelled once or alike) share one y scale.

Each notebook runs top to bottom in a Jupyter kernel with matplotlib's ``Figure.draw`` watched:
after every draw the extents of the figure's texts, as its renderer laid them out, are read
against the figure's box.
"""

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = [pytest.mark.notebook, pytest.mark.slow]

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CHECKED = sorted(NOTEBOOKS.glob("0[0-6]_*.ipynb")) + [
    NOTEBOOKS / name for name in ("13_puzzles.ipynb", "14_review.ipynb", "15_strategy.ipynb")
]

WATCH = """
import matplotlib.figure as watched_figure
import matplotlib.text as watched_text

FIGURE_REPORT = {"draws": 0, "outside": [], "scales": []}
unwatched_draw = watched_figure.Figure.draw


def outside(extent, box):
    return (
        extent.x0 < box.x0 - 1
        or extent.y0 < box.y0 - 1
        or extent.x1 > box.x1 + 1
        or extent.y1 > box.y1 + 1
    )


def watched_draw(figure, renderer):
    unwatched_draw(figure, renderer)
    FIGURE_REPORT["draws"] += 1
    box = figure.bbox
    of_axes = {
        id(text)
        for ax in figure.axes
        for axis in (ax.xaxis, ax.yaxis)
        for text in axis.findobj(watched_text.Text)
    }  # ticks and axis labels, drawn only where the axis is on: read from each axes below
    for text in figure.findobj(watched_text.Text):
        words = text.get_text().strip()
        if words and text.get_visible() and id(text) not in of_axes:
            extent = text.get_window_extent(renderer)
            if outside(extent, box):
                FIGURE_REPORT["outside"].append([words, list(extent.bounds), list(box.bounds)])
    for ax in figure.axes:
        drawn = ax.get_tightbbox(renderer) if ax.axison else None
        if drawn is not None and outside(drawn, box):
            FIGURE_REPORT["outside"].append(
                [f"axes {ax.get_title()!r}, its labels", list(drawn.bounds), list(box.bounds)]
            )
    shown = [ax for ax in figure.axes if ax.axison and (ax.lines or ax.patches or ax.collections)]
    named = {ax.get_ylabel() for ax in shown} - {""}
    for name in named:  # a panel without a y label shows the one quantity its neighbours name
        alike = [ax for ax in shown if ax.get_ylabel() in (name, "" if len(named) == 1 else name)]
        if len({tuple(round(y, 9) for y in ax.get_ylim()) for ax in alike}) > 1:
            FIGURE_REPORT["scales"].append([ax.get_title() for ax in alike])


watched_figure.Figure.draw = watched_draw
"""


def report(path):
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(WATCH))
    nb.cells.append(nbformat.v4.new_code_cell("print(json.dumps(FIGURE_REPORT))"))
    nb.cells.insert(1, nbformat.v4.new_code_cell("import json"))
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    ).execute()
    return json.loads(nb.cells[-1].outputs[0]["text"])


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: p.stem)
def test_every_figure_keeps_its_words_inside_and_compared_panels_share_a_scale(path):
    found = report(path)
    assert found["outside"] == []
    assert found["scales"] == []
    if path.stem in ("01_board_graph", "14_review", "15_strategy"):
        assert found["draws"] > 0, "the watch saw the notebook's figures"
