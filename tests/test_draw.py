"""The board picture: what draw_board puts on the Axes, where, and the PNG for rich display."""

import pytest
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.figure import Figure
from matplotlib.text import Annotation

import fanorona as fa
from fanorona.ui.draw import COLORS, HIGHLIGHT, MARK, board_png, draw_board, xy


def scatter_points(ax, **match):
    """The (x, y) places of every scatter whose face colour is the given one, as a set."""
    found = set()
    for c in ax.collections:
        faces = c.get_facecolor() if isinstance(c, PathCollection) else []
        if len(faces) and tuple(faces[0]) == match["face"]:
            found |= {(float(x), float(y)) for x, y in c.get_offsets()}
    return found


def rgba(color):
    from matplotlib.colors import to_rgba

    return to_rgba(color)


def test_points_sit_at_column_and_row():
    b = fa.Board()
    assert xy(b, "a1") == (0, 0) and xy(b, "e3") == (4, 2) and xy(b, "i5") == (8, 4)


def test_every_stone_is_drawn_at_its_point():
    b = fa.Board((5, 3))
    ax = draw_board(b)
    for color in ("white", "black"):
        expected = {xy(b, p) for p in b.stones(color)}
        assert scatter_points(ax, face=rgba(COLORS[color])) == expected


def test_the_lines_are_the_board_edges():
    b = fa.Board()
    ax = draw_board(b)
    lines = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(lines) == 1
    segments = {tuple(map(tuple, s.tolist())) for s in lines[0].get_segments()}
    g = b.geometry
    assert segments == {(g.coordinates(p), g.coordinates(q)) for p, q in g.edges()}
    assert len(segments) == len(g.edges()) > 9 * 4 + 8 * 5, "diagonals included"


def test_highlights_marks_and_captures_are_at_their_points():
    b = fa.Board()
    ax = draw_board(b, highlight=["e3"], marked=["d2", "f2"], captures=["e4", "e5"])
    assert scatter_points(ax, face=rgba(MARK)) == {(3, 1), (5, 1)}
    rings = [
        c
        for c in ax.collections
        if isinstance(c, PathCollection) and tuple(c.get_edgecolor()[0]) == rgba(HIGHLIGHT)
    ]
    assert {tuple(o) for c in rings for o in c.get_offsets().tolist()} == {(4.0, 2.0)}


def test_strings_are_bands_along_their_points():
    b = fa.Board()
    run = b.strings("white", min_length=2)[0]
    ax = draw_board(b, strings=[run, ("e3",)])
    bands = [c for c in ax.collections if isinstance(c, LineCollection)][1]
    assert [tuple(map(tuple, s.tolist())) for s in bands.get_segments()] == [
        tuple(xy(b, p) for p in run)
    ]
    blot = [c for c in ax.collections if isinstance(c, PathCollection) and c.get_alpha() == 0.35]
    assert blot and blot[0].get_offsets().tolist() == [[4.0, 2.0]]


def test_names_point_names_and_notes_are_texts():
    b = fa.Board((3, 3))
    plain = draw_board(b, names=False)
    assert len(plain.texts) == 0
    ax = draw_board(b)
    assert sorted(t.get_text() for t in ax.texts) == ["1", "2", "3", "a", "b", "c"]
    ax = draw_board(b, names=False, point_names=True, notes=[("b2", "A")])
    texts = {t.get_text(): t.get_position() for t in ax.texts}
    assert set(texts) == set(b.points) | {"A"}
    assert texts["c3"][0] > texts["a3"][0] and texts["a3"][1] > texts["a1"][1]


def test_arrows_follow_a_turn():
    b = fa.Board()
    turn = b.parse_turn("d3e3W")
    ax = draw_board(b, arrows=list(zip(turn.path, turn.path[1:])))
    annotations = [t for t in ax.texts if isinstance(t, Annotation)]
    assert len(annotations) == 1 and annotations[0].xy == (4, 2) and annotations[0].xyann == (3, 2)
    assert annotations[0].arrow_patch is not None


def test_scale_enlarges_the_stones_and_title_is_kept():
    b = fa.Board((3, 3))
    small, big = draw_board(b, title="small"), draw_board(b, scale=2.0)

    def size(ax):
        return max(c.get_sizes()[0] for c in ax.collections if isinstance(c, PathCollection))

    assert size(big) == pytest.approx(4 * size(small))
    assert small.get_title() == "small"


def test_drawing_on_a_given_axes_uses_it():
    fig = Figure()
    ax = fig.add_subplot()
    assert draw_board(fa.Board(), ax) is ax
    assert ax.get_xlim() == (-0.6, 8.6) and ax.get_ylim() == (-0.6, 4.6)


def test_board_png_is_a_png_and_the_board_shows_itself():
    b = fa.Board((5, 3))
    data = board_png(b)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
    assert b._repr_png_()[:4] == b"\x89PNG"


@pytest.mark.parametrize("scale", [0.5, 0.7, 1.0])
def test_k_text_stays_readable_on_small_drawings(scale):
    b = fa.Board((3, 3))
    ax = draw_board(b, Figure().add_subplot(), title="3x3", scale=scale, point_names=True)
    sizes = [t.get_fontsize() for t in ax.texts] + [ax.title.get_fontsize()]
    assert len(sizes) == 3 + 3 + 9 + 1
    assert min(sizes) >= 8 and ax.title.get_fontsize() >= 12
    coordinates = [
        t.get_fontsize() for t in ax.texts if t.get_text() in {"a", "b", "c", "1", "2", "3"}
    ]
    assert min(coordinates) >= 10, "column letters and row numbers never shrink below 10 pt"


def test_arrows_join_their_points_as_one_shaft_and_one_head_each():
    """The interactive board's arrows: a shaft from just off the origin, a head whose tip stops
    just short of the destination, pointing along the step; none shown hides both collections."""
    import numpy as np

    from fanorona.ui.draw import ARROW_SHRINK, Arrows

    b = fa.Board()
    ax = Figure().add_subplot()
    arrows = Arrows(ax, HIGHLIGHT, 2.0)
    pairs = [("d3", "e3"), ("d2", "e3"), ("e2", "e3")]
    arrows.show(b, pairs)
    assert arrows.pairs == pairs and arrows.shafts.get_visible() and arrows.heads.get_visible()
    segments, heads = arrows.shafts.get_segments(), arrows.heads.get_paths()
    assert len(segments) == len(heads) == 3
    for (a, z), (start, end), head in zip(pairs, segments, heads):
        origin, destination = np.array(xy(b, a), float), np.array(xy(b, z), float)
        along = (destination - origin) / np.hypot(*(destination - origin))
        tip = head.vertices[0]
        assert np.allclose(start, origin + ARROW_SHRINK * along)
        assert np.allclose(tip, destination - ARROW_SHRINK * along)
        assert np.allclose(end, tip - arrows.head * along), "the shaft ends at the head's base"
    arrows.show(b, [])
    assert not arrows.shafts.get_visible() and not arrows.heads.get_visible()


def test_the_interactive_boards_round_marks_are_polygons_as_round_as_circles():
    """Stones and round marks are drawn from a polygon (matplotlib measures a curved marker's extent
    at every draw); its corners lie on the circle and no two are a hundredth of a stone apart
    from the arc between them."""
    import numpy as np
    from matplotlib.path import Path

    from fanorona.ui.draw import BoardPicture

    picture = BoardPicture(Figure().add_subplot(), fa.Board().geometry)
    for name in ("white", "black", "must", "selected", "targets", "waiting"):
        (path,) = picture.dots[name].get_paths()
        assert not np.isin(path.codes, [Path.CURVE3, Path.CURVE4]).any(), name
        radii = np.hypot(*path.vertices[:-1].T)
        assert np.allclose(radii, radii[0]), name
        corners = len(radii)
        assert 1 - np.cos(np.pi / corners) < 0.01 / 2, f"{name}: {corners} corners"


def test_a_scene_shown_again_sets_no_collection_and_a_changed_one_only_what_changed():
    """Setting a collection's points costs a tenth of a click's drawing: what a scene leaves as
    it was is not set again, and what it changes is."""
    from fanorona.ui.controller import Controller
    from fanorona.ui.draw import BoardPicture

    controller = Controller(None)
    picture = BoardPicture(Figure().add_subplot(), controller.model.geometry)
    collections = [*picture.dots.values(), *(c for pair in picture.bands.values() for c in pair)]
    collections += [c for arrows in picture.arrows.values() for c in (arrows.shafts, arrows.heads)]
    picture.update(controller.scene())
    set_ = []
    for collection in collections:
        for name in ("set_offsets", "set_segments", "set_verts"):
            if hasattr(collection, name):
                method = getattr(collection, name)
                setattr(
                    collection, name, lambda *a, m=method, c=collection: (set_.append(c), m(*a))
                )
    picture.update(controller.scene())
    assert set_ == []
    controller.click("d3")
    picture.update(controller.scene())
    assert picture.dots["selected"] in set_ and picture.dots["white"] not in set_
    assert list(picture.dots["selected"].get_offsets()[0]) == [3, 2]
