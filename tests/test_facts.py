"""The facts the course states about its sources, checked where a test can, and the board's
words and marks: in the sources' own terms, and never by colour alone."""

import re
from pathlib import Path

import nbformat
import pytest

from fanorona.exercises.samples import NEIGHBOUR_SIZES
from fanorona.ui import draw
from fanorona.ui.labels import LABELS

ROOT = Path(__file__).parent.parent


def notebook(name):
    return "\n".join(c.source for c in nbformat.read(ROOT / "notebooks" / name, as_version=4).cells)


def test_a_capture_takes_a_string_not_a_row_in_every_introduction():
    for text in (ROOT / "README.md", ROOT / "docs/index.md"):
        assert "whole row" not in text.read_text()
    assert "whole rows" not in notebook("00_start_here.ipynb")


def test_the_readme_claims_only_the_variants_the_options_cover():
    assert "every published rule" not in (ROOT / "README.md").read_text()


def test_the_assignment_is_described_as_its_source_says():
    nine = notebook("09_assignment_model.ipynb")
    assert "first-year" not in nine and "Indledende Programmering" in nine
    assert "Det kan vælges" in nine
    assert "end to end" not in notebook("00_start_here.ipynb")


def test_fanoron_telo_is_a_placement_game_in_many_sources_not_most():
    assert "most descriptions make it a placement game" not in notebook("01_board_graph.ipynb")
    assert "many sources" in notebook("05_full_rules.ipynb")


def test_the_teachers_guide_names_the_largest_sizes_the_neighbour_checker_tries():
    guide = (ROOT / "docs/teachers-guide.md").read_text()
    largest = [s for s in NEIGHBOUR_SIZES if s[0] * s[1] > 45]
    assert largest and all(f"{w}\N{MULTIPLICATION SIGN}{h}" in guide for w, h in largest)


def test_no_engine_speed_without_a_source_and_ludii_disagreeing_with_itself():
    assert "searches over a\nmillion" not in notebook("07b_engine_internals.ipynb")
    assert "forbids moving twice in the same direction" in notebook("05_full_rules.ipynb")


def test_the_small_board_draw_is_tied_to_its_middle_row():
    assert "BW.WB" in notebook("08_solving_small_boards.ipynb")


@pytest.mark.parametrize(
    "language, words",
    [("da", ["pres", "sug", "streng"]), ("cs", ["přiblížení", "odsun", "skupink"])],
)
def test_the_interface_uses_the_source_texts_words(language, words):
    labels = LABELS[language]
    text = " ".join(v for v in labels.values() if isinstance(v, str)).lower()
    assert all(word in text for word in words)
    assert words[0] in labels["approach"].lower() and words[1] in labels["withdrawal"].lower()


COLOURS = {
    "en": [r"red\b", r"blue\b", r"teal\b", r"orange\b", r"green\b"],
    "da": ["rød", "blå", "grøn", "orange", "turkis"],
    "de": ["rot", "blau", "grün", "orange", "türkis"],
    "cs": ["červen", "modr", "zelen", "oranž", "tyrkys"],
}
#: What else a sentence may point at: a letter on the mark, or its shape.
SHAPES = re.compile(r"\b[AW]\b|dot|ring|cross|prik|punkt|ring|tečk|kroužek", re.IGNORECASE)


@pytest.mark.parametrize("language", list(COLOURS))
def test_no_sentence_of_the_board_relies_on_a_colour_name_alone(language):
    alone = [
        key
        for key, text in LABELS[language].items()
        if isinstance(text, str)
        and any(re.search(rf"\b{c}", text, re.IGNORECASE) for c in COLOURS[language])
        and not SHAPES.search(text)
    ]
    assert alone == []


# -- the must-capture mark under simulated colour blindness ------------------------------------
#: Machado, Oliveira and Fernandes (2009), full severity, on linear RGB.
SIMULATIONS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def linear(hex_colour):
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def luminance(hex_colour, simulation):
    rgb = linear(hex_colour)
    seen = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in simulation]
    return 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2]


def contrast(a, b, simulation):
    la, lb = sorted((luminance(a, simulation), luminance(b, simulation)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_must_capture_mark_stands_out_on_both_stones_under_colour_blindness():
    """The mark is an orange dot with a dark rim on a stone: on a dark stone the dot must stand
    out, on a light one its rim; WCAG asks 3:1 of a mark that carries meaning."""
    fill, rim = draw.MARK, "#111111"
    print(f"\n{'simulation':13} {'dot/black stone':>16} {'rim/white stone':>16} {'dot/white':>10}")
    worst = []
    for name, simulation in SIMULATIONS.items():
        on_black = contrast(fill, draw.COLORS["black"], simulation)
        on_white = contrast(rim, draw.COLORS["white"], simulation)
        dot_white = contrast(fill, draw.COLORS["white"], simulation)
        print(f"{name:13} {on_black:16.2f} {on_white:16.2f} {dot_white:10.2f}")
        worst.append(min(on_black, on_white))
    assert min(worst) >= 3
