"""The one-page rules sheet in the kit's four languages, as a PDF: ``make rules-sheet`` (or
``python docs/rules_sheet.py OUT.pdf``).  Its diagrams are drawn by the kit (``ui.draw``) from
real positions, so they show what the rules package plays.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.backends.backend_pdf import PdfPages

from fanorona import Board
from fanorona.ui.draw import draw_board

OUT = Path(__file__).resolve().parent.parent / "build" / "rules-sheet.pdf"

#: The capture diagrams: White's c2-c3 takes c4 and c5 by approach; c3-c4 takes c2 and c1 by
#: withdrawal.
APPROACH = """\
..B..
..B..
.....
..W..
....."""
WITHDRAWAL = """\
.....
.....
..W..
..B..
..B.."""

#: Each capture diagram's step (from, to) and the stones the sheet marks as taken.
STEPS = {"approach": ("c2", "c3", ["c4", "c5"]), "withdrawal": ("c3", "c4", ["c1", "c2"])}

#: The rules in each language, in the sheet's own words (the terms are the sources' own).
TEXTS = {
    "English": [
        "Fanorona is played on a grid of 9 x 5 points; each side has 22 stones, only the centre"
        " is empty. White starts.",
        "A stone steps along a line to a free neighbouring point.",
        "Approach: the step ends next to an enemy stone on its line; that stone and the unbroken"
        " row of enemy stones behind it are captured.",
        "Withdrawal: the step moves away from an enemy stone on its line; that stone and its row"
        " are captured. If both, choose one.",
        "Capture is compulsory. The capturing stone may go on capturing, never in the same"
        " direction twice in a row nor onto a point it visited this turn; it may stop at any time.",
        "Capture every enemy stone, or leave the opponent without a move, to win.",
    ],
    "Dansk": [
        "Brættet har 9 x 5 knuder på gitterlinier; hver spiller har 22 sten, kun midten er ledig."
        " Hvid starter.",
        "Et træk flytter en sten langs en gitterlinie til en tilstødende, ledig knude.",
        "Pres: stenen flyttes hen til en modstander-streng på trækkets linie; strengen fjernes.",
        "Sug: stenen flyttes væk fra en modstander-streng på linien; strengen fjernes. Er begge"
        " mulige, vælger man én.",
        "Man skal indfange, hvis man kan. Samme sten kan fortsætte med nye indfangende træk, dog"
        " ikke tilbage til en knude, den har besat i turen.",
        "Den, der ikke kan trække eller har mistet alle sten, taber.",
    ],
    "Deutsch": [
        "Ein Gitter aus 9 x 5 Punkten; jede Seite hat 22 Steine, nur die Mitte bleibt frei. Weiß"
        " beginnt.",
        "Ein Stein zieht einen Schritt entlang einer Linie auf einen freien Nachbarpunkt.",
        "Annäherung: Der Schritt endet vor einem gegnerischen Stein auf derselben Linie; er und"
        " die lückenlose Reihe dahinter werden geschlagen.",
        "Rückzug: Der Schritt entfernt sich von einem gegnerischen Stein; er und seine Reihe"
        " werden geschlagen. Geht beides, wählt man.",
        "Schlagpflicht. Der Stein darf in einer Schlagkette weiterschlagen, nie zweimal in"
        " dieselbe Richtung, nie auf einen schon besuchten Punkt; aufhören darf er jederzeit.",
        "Wer alle Steine verliert oder nicht mehr ziehen kann, verliert.",
    ],
    "Čeština": [
        "Hraje se na desce 9 x 5 bodů; každý hráč má 22 kamenů, volné je jen středové pole."
        " Začíná bílý.",
        "Kámen se posune po čáře na sousední volné pole.",
        "Přiblížením: kámen se přisune těsně k soupeřovu kameni na své linii; ten i kameny za"
        " ním bez mezery jsou zajaty.",
        "Odsunem: kámen se od soupeřova kamene odsune po téže linii; ten i jeho řada jsou"
        " zajaty. Jde-li obojí, hráč si vybere.",
        "Zajímat se musí. Týž kámen smí zajímat dál, vždy jiným směrem a ne na pole, kde už"
        " v tahu byl; přestat smí kdykoli.",
        "Kdo přijde o všechny kameny nebo nemůže táhnout, prohrál.",
    ],
}
TITLES = {
    "English": "Fanorona: the rules",
    "Dansk": "Fanorona: reglerne",
    "Deutsch": "Fanorona: die Regeln",
    "Čeština": "Fanorona: pravidla",
}


def sheet() -> plt.Figure:
    """The A4 page: three diagrams on top, the rules in four languages below."""
    fig = plt.figure(figsize=(8.27, 11.69))
    fig.suptitle("Fanorona  ·  Fanoron-Sivy (9 x 5)", fontsize=16, y=0.985)
    start = Board()
    approach = Board.from_diagram(APPROACH, "white")
    withdrawal = Board.from_diagram(WITHDRAWAL, "white")
    diagrams = [
        (start, {}, "start  ·  start  ·  Aufbau  ·  výchozí situace", (0.03, 0.77, 0.46, 0.19)),
        (
            approach,
            {"arrows": [STEPS["approach"][:2]], "captures": STEPS["approach"][2]},
            "approach · pres · Annäherung · přiblížením",
            (0.52, 0.77, 0.22, 0.19),
        ),
        (
            withdrawal,
            {"arrows": [STEPS["withdrawal"][:2]], "captures": STEPS["withdrawal"][2]},
            "withdrawal · sug · Rückzug · odsunem",
            (0.76, 0.77, 0.22, 0.19),
        ),
    ]
    for board, marks, title, box in diagrams:
        ax = fig.add_axes(box)
        draw_board(board, ax, **marks)
        ax.set_title(title, fontsize=7)
    for n, (language, lines) in enumerate(TEXTS.items()):
        top = 0.72 - n * 0.178
        fig.text(0.05, top, TITLES[language], fontsize=11, weight="bold", va="top")
        body = "\n".join(textwrap.fill(f"• {line}", 135, subsequent_indent="   ") for line in lines)
        fig.text(0.05, top - 0.018, body, fontsize=7.4, va="top", linespacing=1.35)
    fig.text(
        0.05,
        0.012,
        "Made by the Fanorona course kit (docs/rules_sheet.py); the diagrams are drawn by"
        " fanorona.ui.draw from positions the rules package plays.",
        fontsize=6,
        color="0.4",
    )
    return fig


def main(argv=None) -> None:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    fig = sheet()
    # No creation date: the same sheet is the same bytes, so the site sees no change to render.
    with PdfPages(out, metadata={"CreationDate": None}) as pdf:
        pdf.savefig(fig)
    plt.close(fig)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
