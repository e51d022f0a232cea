"""The lobby's own sentences by code: every code the server raises is in the catalogue in each of
the kit's languages, rendered with its values it has no English word in another language, and the
English rendering is the sentence the server sends beside the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fanorona.lobby import words
from fanorona.lobby.protocol import ProtocolError, read
from fanorona.lobby.room import Refusal

LANGUAGES = ("da", "de", "cs")
#: A value for every name a sentence takes: none of them an English word.
SAMPLE = {
    "name": "zoe", "game": "g7", "reason": "qq", "ply": 3, "now": 5, "side": "white",
    "minutes": 10, "n": 3, "seq": 4, "rate": 20, "seconds": 3, "limit": 4096, "size": "5x5",
    "types": "tt", "kind": "kk", "field": "ff", "what": "ww", "example": "g12", "low": 0,
    "high": 9, "most": 81, "choices": "cc", "white": "zoe", "black": "yan", "hours": 12,
}  # fmt: skip
#: Words the other languages share with English as loanwords, not as untranslated English.
LOANWORDS = {"lobby", "link", "rating", "json", "zoe", "yan"}
#: Words spelled as English ones that are the language's own: Danish "at" (to), "for" (for),
#: "end" (than), "have" (have), "side" (side) and "invitation"; German "in", "an" (a verb's
#: particle) and "Name"; Czech "to" (it, that).
NATIVE = {
    "da": {"at", "for", "end", "have", "side", "invitation"},
    "de": {"in", "an", "name"},
    "cs": {"to"},
}
WORD = re.compile(r"[^\W\d_]{2,}")


def english_words() -> set[str]:
    return (
        {
            w.lower()
            for code in words.WORDS["en"]
            for w in WORD.findall(words.render("en", code, SAMPLE) or "")
        }
        - LOANWORDS
        - {str(v).lower() for v in SAMPLE.values()}
    )


def test_every_code_the_server_raises_is_in_every_language():
    source = "\n".join(p.read_text() for p in Path(words.__file__).parent.glob("*.py"))
    raised = set(re.findall(r'(?:Said|Refusal|ProtocolError)\(\s*"(\w+)"', source))
    raised |= set(re.findall(r'_instructor\(client, "(\w+)"\)', source))
    assert raised and raised <= set(words.WORDS["en"]), raised - set(words.WORDS["en"])
    for language in LANGUAGES:
        assert set(words.WORDS[language]) == set(words.WORDS["en"]), language


def test_every_value_a_sentence_takes_has_a_sample():
    for language, sentences in words.WORDS.items():
        for code, text in sentences.items():
            assert set(re.findall(r"\{(\w+)\}", text)) <= set(SAMPLE), (language, code)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_word_in_another_language(language):
    english = english_words() - NATIVE[language]
    found = {}
    for code in words.WORDS[language]:
        text = words.render(language, code, SAMPLE) or ""
        leaked = sorted({w for w in WORD.findall(text) if w.lower() in english})
        if leaked:
            found[code] = leaked
    assert found == {}


def test_a_refusal_is_its_english_sentence_and_its_code():
    e = Refusal("not_your_turn", side="black", game="g2")
    assert str(e) == "it is black's turn in game g2, not yours"
    assert e.fields() == {
        "message": str(e),
        "code": "not_your_turn",
        "params": {"side": "black", "game": "g2"},
    }
    assert words.say("da", e.code, e.params, str(e)) == "Det er sorts tur i parti g2, ikke din."
    assert words.say("de", "no_such_code", {}, "an english one") == "An english one."


def test_a_field_error_names_its_message_and_field_in_every_language():
    with pytest.raises(ProtocolError) as e:
        read('{"type": "invite", "seq": 2, "clock": "soon"}')
    assert str(e.value).startswith("in a invite message, clock is minutes and seconds a turn")
    assert e.value.params["field"] == "clock"
    danish = words.say("da", e.value.code, e.value.params, str(e.value))
    assert danish.startswith("I en invite-besked er uret minutter og sekunder pr. træk")


@pytest.mark.parametrize(
    ("reason", "danish"),
    [
        ("white resigned", "hvid opgav"),
        ("black ran out of time", "sort løb tør for tid"),
        ("ended by the instructor ms_lee", "afsluttet af læreren ms_lee"),
        ("aborted: white did not play a first turn within 2 minutes",
         "afbrudt: hvid spillede ikke et første træk inden 2 minutter"),
    ],
)  # fmt: skip
def test_the_endings_the_lobby_declares_are_read_back_by_code(reason, danish):
    code, params = words.declared(reason)
    assert words.render("en", code, params) == reason
    assert words.render("da", code, params) == danish
