"""The board's words: every language has every key, the same fields, and every key is used."""

import re
from pathlib import Path
from string import Formatter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fanorona.ui.labels import LABELS, LANGUAGES, ending, labels, say

PACKAGE = Path(__file__).resolve().parent.parent / "fanorona" / "ui"
#: Every module of the board that asks for a sentence by its key (all of them but the sentences').
USERS = tuple(sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "labels.py"))


def fields(template):
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def test_every_language_has_every_label_and_template():
    english = LABELS["en"]
    assert set(LABELS) == set(LANGUAGES)
    for language, table in LABELS.items():
        assert set(table) == set(english), language
        for key, text in table.items():
            assert fields(text) == fields(english[key]), (language, key)
        if language != "en":
            translated = sum(table[k] != english[k] for k in english)
            assert translated > 0.8 * len(english), language


def test_every_sentence_the_code_asks_for_exists():
    source = "\n".join((PACKAGE / name).read_text() for name in USERS)
    asked = set(re.findall(r'(?:sentence|report|say)\((?:[^"()]*?,\s*)?"(\w+)"', source))
    asked |= set(re.findall(r'\(\s*"(\w+)",\s*\{', source))  # a sentence kept as (key, values)
    asked |= set(re.findall(r'"(legend_\w+)"', source))
    assert {"select", "chain", "thinking", "legend_must"} <= asked, "the scan finds the calls"
    assert asked <= set(LABELS["en"]), asked - set(LABELS["en"])


def test_every_label_is_used():
    own = (PACKAGE / "labels.py").read_text()
    source = "\n".join((PACKAGE / name).read_text() for name in USERS)
    source += own[own.index("\ndef labels(") :]  # the endings are named in labels' own code
    quoted = set(re.findall(r'"([\w-]+)"', source))
    presets = {key for key in LABELS["en"] if key.startswith("preset_")}
    unused = set(LABELS["en"]) - quoted - presets
    assert not unused, f"labels nobody uses: {sorted(unused)}"


def test_sentences_capitalise_except_after_a_point_name():
    assert say("en", "nothing_to_undo") == "Nothing to undo"
    assert say("en", "select", point="d3").startswith("d3 selected")
    assert say("de", "turn", side="white") == "Weiß ist am Zug"
    with pytest.raises(
        ValueError, match="language must be one of 'en', 'da', 'de', 'cs'; got 'fr'"
    ):
        labels("fr")


@pytest.mark.parametrize(
    "query, language",
    [
        ("lang=da", "da"),
        ("x=1&lang=CS", "cs"),
        ("", "en"),
        (None, "en"),
        ("lang=fr", "en"),
        ("lang=de&lang=da", "da"),
    ],
)
def test_a_page_starts_in_the_language_its_address_asks_for(query, language):
    from fanorona.ui.labels import page_language

    assert page_language(query) == language


# -- no sentence left in English ---------------------------------------------------------------

#: Values the templates take: points and turns are names in every language.
SAMPLE = {
    "point": "d3",
    "points": "c1, d3",
    "step": "d3-e3",
    "move": "d3e3W",
    "played": "d3e3W",
    "better": "f2e3A",
    "turn": "1. d3e3W",
    "side": "white",
    "name": ("computer_level", {"level": 3}),
}
#: Templates that carry another program's own error text (the rules package's reasons, a
#: student's model's failure): the template is translated, the text it carries is not.
CARRIERS = {"illegal", "load_error", "import_error", "redo_failed", "model_error", "computer_error"}


#: Words English shares with another language: the game's name, loanwords, Danish "for" and "side".
SHARED = {"fanorona", "computer", "standard", "diagram", "for", "orange", "side"}


def words(text):
    """The words of a sentence or a template (its {fields} left out), in lower case."""
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{\w+\}", " ", text))}


ENGLISH = set().union(*(words(t) for t in LABELS["en"].values()))


def english_left(language, sentence):
    """The English words in a sentence of another language (those the two share aside)."""
    return sorted((words(sentence) & ENGLISH) - SHARED)


def endings():
    """A finished board for each way a game ends: by the rules, on stones."""
    import fanorona as fa
    from fanorona import positions

    shuffle = fa.Board.from_diagram("....B\n.....\n.....\n.....\nW....")
    for n in range(50):
        shuffle.push(["a1a2", "e5e4", "a2a1", "e4e5"][n % 4])
    return {
        "no_stones": fa.Board.from_diagram("W....\n.....\n....."),
        "no_legal_turn": fa.Board.from_fen(positions.load("blocked").fen(), fa.Rules.simple()),
        "quiet_draw": shuffle,
    }


@pytest.mark.parametrize("language", [k for k in LANGUAGES if k != "en"])
def test_every_template_renders_without_english_in_another_language(language):
    for key, template in LABELS[language].items():
        values = {name: SAMPLE.get(name, 7) for name in fields(template)}
        if "reason" in values:  # said apart: the endings below; the carriers' errors as they are
            assert key in CARRIERS | {"win", "draw"}, key
            values["reason"] = ""
        sentence = say(language, key, **values)
        assert english_left(language, sentence) == [], (key, sentence)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_end_of_a_game_is_said_in_the_boards_language(language):
    from fanorona.ui.controller import Controller

    for termination, board in endings().items():
        outcome = board.outcome()
        assert outcome is not None and outcome.termination.value == termination
        title = Controller(board, language=language).scene()["title"]
        if language == "en":
            assert outcome.reason in title
        else:
            assert english_left(language, title) == [], title
            assert ending(language, outcome) in title
    adjudicated = endings()["no_stones"].adjudicate()
    assert english_left(language, ending(language, adjudicated)) == [] or language == "en"


def test_the_danish_end_of_a_game_is_all_danish():
    from fanorona.ui.controller import Controller

    board = Controller(endings()["no_stones"].copy(), language="da")
    assert board.scene()["title"] == "Hvid vinder: sort har ingen brikker tilbage"


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_review_speaks_the_boards_language(language):
    import fanorona as fa
    from fanorona.engine.ai import level
    from fanorona.game import play_game
    from fanorona.ui.reviewpanel import ReviewPanel

    game = play_game(level(2, seed=3), level(3, seed=4), fa.Board((3, 5), fa.Rules.solved()), 40)
    board = fa.BoardWidget(size=(3, 5), language=language)
    try:
        board.import_game(game.to_json())
        panel = ReviewPanel(board)
        said = [panel.text.value, panel.button.description, panel.button.tooltip]
        said.append(panel.chooser.description)
        result = panel.run()
        said.append(panel.text.value)
        for text, number in panel.chooser.options:
            panel.chooser.value = number
            said += [text, panel.text.value]
        for verdict in result.verdicts:
            said.append(panel.sentence(verdict))
        assert len(result.mistakes()) > 0 and len(said) > 6
        for sentence in said:
            if language != "en":
                assert english_left(language, sentence) == [], sentence
        assert any(str(v.move) + ". " in s for v in result.verdicts for s in said)
    finally:
        board.close()


def refusals():
    """Every reason the rules package gives for a step on a few boards: the start, a compulsory
    capture, and a capture chain after its first and its second step (so the chain's rules)."""
    import fanorona as fa
    from fanorona import positions

    boards = [fa.Board(), positions.load("compulsory-capture")]
    for steps in (1, 2):
        chain = positions.load("long-chain")
        for _ in range(steps):
            chain.push(chain.legal_steps()[0])
        boards.append(chain)
    found = {"there is no capture chain in progress to end"}
    for board in boards:
        names = [board.geometry.names[p] for p in range(len(board.geometry.names))]
        for origin in names:
            for destination in names:
                try:
                    board.captures(fa.Step(origin, destination))
                except fa.IllegalMoveError as error:
                    found.add(str(error))
    return sorted(found)


#: Reasons no click can meet (the controller asks which capture, and never names a wrong one).
TYPED_ONLY = re.compile(r".* (captures by \w+.*: say which, as .*|does not capture by .*)")


def test_every_reason_a_click_meets_is_said_in_each_language():
    from fanorona.ui.labels import reason

    said = [r for r in refusals() if not TYPED_ONLY.fullmatch(r)]
    assert len(said) >= 9, said
    assert any("may not return" in r for r in said) and any("compulsory" in r for r in said)
    for text in said:
        assert reason("en", text) == text
        for language in ("da", "de", "cs"):
            translated = reason(language, text)
            assert english_left(language, translated) == [], (text, translated)
            points = set(re.findall(r"\b[a-i][1-5]\b", text))
            assert points <= set(re.findall(r"\b[a-i][1-5]\b", translated)), translated


def test_a_refused_click_is_refused_in_the_boards_language():
    from fanorona import positions
    from fanorona.ui.controller import Controller

    for language in ("da", "de", "cs"):
        control = Controller(positions.load("long-chain"), language=language)
        control.click("b2")
        assert control.click("e5").action == "refused"  # not a neighbour
        assert "b2" in control.status and "e5" in control.status
        assert english_left(language, control.status) == [], control.status
        control.click("c1")  # b2-c1 takes by withdrawal, and the chain may go on
        assert control.click("b1").action == "refused"  # a chain's step must capture
        assert english_left(language, control.status) == [], control.status


WHY = sorted(key for key in LABELS["en"] if key.startswith("why_"))
POINT = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("abcdefghi"), st.integers(1, 13))
DIRECTION = st.sampled_from(["east", "north-east", "north", "north-west", "west", "south-west"])


@given(
    key=st.sampled_from(WHY),
    language=st.sampled_from(["da", "de", "cs"]),
    a=POINT,
    b=POINT,
    side=st.sampled_from(["white", "black"]),
    stone=st.sampled_from(["white", "black"]),
    direction=DIRECTION | st.just("south") | st.just("south-east"),
    turns=st.lists(st.sampled_from(["c1c2A", "d3e3W", "b2c1Wd2A"]), min_size=1, max_size=3),
)
def test_a_reason_read_back_is_the_same_sentence_in_the_other_language(
    key, language, a, b, side, stone, direction, turns
):
    """Each English reason the board knows is read back into its parts: said in another language
    it names the same points, colours and direction."""
    from fanorona.ui.labels import reason

    english, other = LABELS["en"], LABELS[language]
    values = dict(a=a, b=b, weak=a, side=side, stone=stone, direction=direction)
    values["turns"] = ", ".join(turns)
    said = {
        k: other[v] if v in other and k in ("side", "stone", "direction") else v
        for k, v in values.items()
    }
    assert reason(language, english[key].format(**values)) == other[key].format(**said)
