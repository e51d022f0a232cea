"""The board's words: every language has every key, the same fields, and every key is used."""

import re
from pathlib import Path
from string import Formatter

import pytest

from fanorona.ui.labels import LABELS, LANGUAGES, labels, say

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
    source = "\n".join((PACKAGE / name).read_text() for name in USERS)
    quoted = set(re.findall(r'"(\w+)"', source))
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
