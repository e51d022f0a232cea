"""The board graph: lines, strong points, edges, start positions and the sizes a board may have."""

import pytest

import fanorona as fa
from fanorona.geometry import DIRECTIONS, geometry, opposite

SIZES = [(9, 5), (5, 5), (3, 3), (7, 3), (3, 7), (5, 3), (3, 5)]


def expected_edges(w, h):
    """Orthogonal links, plus one diagonal in every unit square (the one joining its strong
    corners)."""
    return (w - 1) * h + w * (h - 1) + (w - 1) * (h - 1)


def test_the_9x5_board_has_24_lines_of_45_points():
    g = geometry(9, 5)
    assert len(g.names) == 45
    assert len(g.lines) == 24


def test_lines_by_direction_on_9x5():
    """5 rows, 9 columns and 5 diagonals each way."""
    g = geometry(9, 5)
    rows = [line for line in g.lines if len({g.coordinates(p)[1] for p in line}) == 1]
    columns = [line for line in g.lines if len({g.coordinates(p)[0] for p in line}) == 1]
    assert (len(rows), len(columns), len(g.lines) - len(rows) - len(columns)) == (5, 9, 10)


@pytest.mark.parametrize("size", SIZES)
def test_every_edge_lies_on_exactly_one_line(size):
    g = geometry(*size)
    on_lines = [frozenset(pair) for line in g.lines for pair in zip(line, line[1:])]
    assert len(on_lines) == len(set(on_lines))
    assert set(on_lines) == {frozenset(e) for e in g.edges()}


@pytest.mark.parametrize("size", SIZES)
def test_edge_count(size):
    assert len(geometry(*size).edges()) == expected_edges(*size)


def test_edge_count_of_9x5_is_108():
    assert len(geometry(9, 5).edges()) == 108


@pytest.mark.parametrize("size", SIZES)
def test_lines_are_straight_and_maximal(size):
    g = geometry(*size)
    for line in g.lines:
        steps = {
            (g.coordinates(b)[0] - g.coordinates(a)[0], g.coordinates(b)[1] - g.coordinates(a)[1])
            for a, b in zip(line, line[1:])
        }
        assert len(steps) == 1, line
        d = DIRECTIONS.index(steps.pop())
        assert g.neighbour[line[0]][opposite(d)] == -1
        assert g.neighbour[line[-1]][d] == -1


def test_strong_points():
    g = geometry(9, 5)
    strong = {g.names[i] for i in range(45) if g.strong[i]}
    assert len(strong) == 23
    assert {"a1", "e3", "i5", "b2", "c1"} <= strong
    assert not strong & {"b1", "a2", "e2", "d3", "i4"}


@pytest.mark.parametrize("size", SIZES)
def test_weak_points_have_no_diagonals(size):
    g = geometry(*size)
    for p in range(len(g.names)):
        diagonal = [q for d, q in enumerate(g.neighbour[p]) if d % 2 == 1 and q >= 0]
        if not g.strong[p]:
            assert diagonal == [], g.names[p]


def test_neighbours_of_a_corner_centre_and_weak_point():
    g = geometry(9, 5)

    def around(name):
        return {g.names[q] for q in g.neighbour[g.index[name]] if q >= 0}

    assert around("a1") == {"b1", "a2", "b2"}
    assert around("e3") == {"d2", "e2", "f2", "d3", "f3", "d4", "e4", "f4"}
    assert around("e2") == {"d2", "f2", "e1", "e3"}


def test_rays_run_to_the_edge():
    g = geometry(9, 5)
    east = 0
    assert [g.names[p] for p in g.ray[g.index["f3"]][east]] == ["g3", "h3", "i3"]
    north_east = 1
    assert [g.names[p] for p in g.ray[g.index["a1"]][north_east]] == ["b2", "c3", "d4", "e5"]


def test_point_names_and_index_agree():
    g = geometry(9, 5)
    assert g.names[0] == "a1" and g.names[8] == "i1" and g.names[44] == "i5"
    assert all(g.index[name] == i for i, name in enumerate(g.names))
    assert g.coordinates(g.index["c4"]) == (2, 3)


# -- start positions ---------------------------------------------------------------------------

MIDDLE_ROWS = {
    (9, 5): "BWBW.BWBW",
    (5, 5): "BW.BW",
    (3, 3): "B.W",
    (7, 3): "BWB.WBW",
    (3, 7): "B.W",
}


@pytest.mark.parametrize("size", sorted(MIDDLE_ROWS))
def test_start_position(size):
    w, h = size
    rows = fa.Board(size).diagram().split("\n")  # top row first
    assert rows[h // 2] == MIDDLE_ROWS[size]
    assert all(row == "B" * w for row in rows[: h // 2])
    assert all(row == "W" * w for row in rows[h // 2 + 1 :])


@pytest.mark.parametrize("size", sorted(MIDDLE_ROWS))
def test_start_is_symmetric_under_half_turn_with_colours_swapped(size):
    board = fa.Board(size)
    turned = board.diagram()[::-1].translate(str.maketrans("WB", "BW"))
    assert turned == board.diagram()


@pytest.mark.parametrize("size", sorted(MIDDLE_ROWS))
def test_start_has_equal_armies_and_the_centre_empty(size):
    board = fa.Board(size)
    w, h = size
    each = (w * h - 1) // 2
    assert board.count("white") == board.count("black") == each
    centre = fa.Board(size).points[(h // 2) * w + w // 2]
    assert [p for p in board.points if board.stone_at(p) is None] == [centre]


def test_22_stones_each_on_9x5_and_white_moves_first():
    board = fa.Board()
    assert board.count("white") == board.count("black") == 22
    assert board.to_move == "white"
    assert board.stone_at("e3") is None


# -- sizes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, words",
    [
        ((8, 5), ["width", "odd", "8"]),
        ((9, 4), ["height", "odd", "4"]),
        ((1, 5), ["width", "at least 3", "1"]),
        ((9, 1), ["height", "at least 3"]),
        ((2, 2), ["width", "odd"]),
        ((27, 3), ["width", "26"]),
    ],
)
def test_bad_sizes_are_rejected_with_a_reason(size, words):
    with pytest.raises(ValueError) as err:
        fa.Board(size)
    for word in words:
        assert word in str(err.value)


@pytest.mark.parametrize(
    "size, words",
    [
        ("9 by 5", "width, height"),
        ((9,), "width, height"),
        (None, "width, height"),
        ((9, "five"), "whole number"),
    ],
)
def test_a_size_that_is_not_two_numbers_is_rejected(size, words):
    with pytest.raises(ValueError, match=words):
        fa.Board(size)


def test_an_even_diagram_is_rejected():
    with pytest.raises(ValueError, match="odd"):
        fa.Board.from_diagram("WW\nBB")


def test_geometry_is_shared_per_size():
    assert geometry(9, 5) is fa.Board().geometry
