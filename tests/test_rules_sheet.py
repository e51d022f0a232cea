"""The printable rules sheet (``make rules-sheet``): one PDF page, the rules in the kit's four
languages, and capture diagrams that mark what the rules package really captures."""

import re
import sys
from pathlib import Path

import pytest

from fanorona import Board, Step

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs"))
import rules_sheet


def test_the_sheet_is_one_pdf_page(tmp_path):
    out = tmp_path / "sheet.pdf"
    rules_sheet.main([str(out)])
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 1
    rules_sheet.main([str(tmp_path / "again.pdf")])
    assert (tmp_path / "again.pdf").read_bytes() == data, "a rebuild is the same file"


def test_every_language_has_its_rules_and_title():
    fig = rules_sheet.sheet()
    texts = " ".join(t.get_text() for t in fig.texts)
    titles = " ".join(ax.get_title() for ax in fig.axes)
    for language, lines in rules_sheet.TEXTS.items():
        assert rules_sheet.TITLES[language] in texts
        assert len(lines) == len(rules_sheet.TEXTS["English"])
    for word in ("Annäherung", "Rückzug", "Pres", "Sug", "Přiblížením", "Odsunem", "Withdrawal"):
        assert word in texts
    assert "approach · pres · Annäherung · přiblížením" in titles


@pytest.mark.parametrize(
    "kind, diagram", [("approach", rules_sheet.APPROACH), ("withdrawal", rules_sheet.WITHDRAWAL)]
)
def test_a_capture_diagram_marks_what_the_rules_capture(kind, diagram):
    origin, destination, marked = rules_sheet.STEPS[kind]
    board = Board.from_diagram(diagram, "white")
    step = Step(origin, destination, kind)
    assert step in board.legal_steps()
    assert sorted(board.captures(step)) == sorted(marked)
