"""The lobby's page in each of the kit's languages (Chromium): every sentence and label it can show,
rendered in each language, has no English word in the others; choosing a language redraws the
page in it."""

from __future__ import annotations

import re

import pytest

from fanorona.lobby import LobbyClient
from fanorona.lobby.run import Background
from fanorona.lobby.store import Store

pytestmark = pytest.mark.browser

SAMPLE = {
    "name": "zoe", "game": "g7", "white": "zoe", "black": "yan", "size": "5x5", "rules": "R",
    "clock": "5+3", "link": "L", "point": "c3", "n": 3, "total": 9, "w": 4, "b": 2,
    "rating": 25, "deviation": 8, "change": "+1.00", "side": "white", "why": "qq",
}  # fmt: skip
#: Words the other languages share with English as loanwords, not as untranslated English.
LOANWORDS = {"lobby", "link", "rating", "fanorona"}
#: Words spelled as English ones that are the language's own: Danish "at" (to) and "for" (for),
#: "invitation"; German "in", "Name" and "Code".
NATIVE = {"da": {"at", "for", "invitation"}, "de": {"in", "name", "code"}, "cs": set()}
WORD = re.compile(r"[^\W\d_]{2,}")


@pytest.fixture(scope="module")
def page(browser):
    with Background(Store()) as lobby:
        context = browser.new_context()
        page = context.new_page()
        page.goto(lobby.page)
        yield page
        context.close()


def rendered(page, language: str) -> dict[str, str]:
    return page.evaluate(
        """([language, sample]) => { lang = language; const out = {};
           for (const key of Object.keys(TEXT.en)) out[key] = t(key, sample); return out; }""",
        [language, SAMPLE],
    )


@pytest.mark.parametrize("language", ["da", "de", "cs"])
def test_no_english_word_in_another_language(page, language):
    english = rendered(page, "en")
    words = {w.lower() for text in english.values() for w in WORD.findall(text)}
    words -= LOANWORDS | {"zoe", "yan", "qq"}
    other = rendered(page, language)
    words -= NATIVE[language]
    assert set(other) == set(english)
    found = {
        key: sorted({w for w in WORD.findall(text) if w.lower() in words})
        for key, text in other.items()
    }
    assert {k: v for k, v in found.items() if v} == {}
    worded = [k for k, text in english.items() if {w.lower() for w in WORD.findall(text)} & words]
    assert [k for k in worded if other[k] == english[k]] == []


def test_choosing_a_language_redraws_the_page(page):
    page.select_option("#language", "de")
    assert page.inner_text("#connect") == "Anmelden"
    assert page.title() == "Fanorona-Klassenlobby"
    page.select_option("#language", "en")
    assert page.inner_text("#connect") == "Sign in"


def test_the_servers_sentences_on_the_page_have_no_english_word_in_another_language(page):
    from test_lobby_words import LANGUAGES, SAMPLE, english_words
    from test_lobby_words import NATIVE as SERVER_NATIVE

    from fanorona.lobby import words

    def render(language):
        return page.evaluate(
            """([language, codes, sample]) => { lang = language; const out = {};
               for (const c of codes) out[c] = serverText(c, sample, null); return out; }""",
            [language, list(words.WORDS["en"]), SAMPLE],
        )

    english = render("en")
    assert english == {c: words.render("en", c, SAMPLE) for c in words.WORDS["en"]}
    for language in LANGUAGES:
        other = render(language)
        assert None not in other.values(), language  # every code known in every language
        leaked = english_words() - SERVER_NATIVE[language]
        found = {
            code: sorted({w for w in WORD.findall(text) if w.lower() in leaked})
            for code, text in other.items()
        }
        assert {k: v for k, v in found.items() if v} == {}, language
    page.evaluate("lang = 'en'")


def test_a_refusal_is_shown_in_the_pages_language(browser):
    store = Store()
    token = store.add_player("zoe")
    yan = store.add_player("yan")
    with Background(store) as lobby:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(lobby.page)
            page.select_option("#language", "da")
            page.fill("#token", token)
            page.click("#connect")
            page.wait_for_selector("#me:text('zoe')")
            page.fill("#to", "zoe")
            page.click("#invite")  # refused: you cannot invite yourself
            page.wait_for_function("document.getElementById('error').textContent !== ''")
            said = page.inner_text("#error")
            assert (
                said
                == "Du kan ikke invitere dig selv: inviter en klassekammerat eller med et link."
            )
            page.fill("#to", "nobody")
            page.click("#invite")
            page.wait_for_function(
                "document.getElementById('error').textContent.includes('nobody')"
            )
            assert page.inner_text("#error") == "Der er ingen ved navn nobody i denne klasse."
            page.select_option("#language", "de")
            page.click("#invite")
            page.wait_for_function("document.getElementById('error').textContent.includes('heißt')")
            assert page.inner_text("#error") == "In dieser Klasse heißt niemand nobody."
            page.select_option("#language", "da")
            # an invitation whose host leaves is withdrawn: gone from the list, said in Danish
            with LobbyClient(lobby.url, yan, timeout=30) as host:
                host.invite(to="zoe", size="5x5", clock="10+0", ranked=True)
                page.wait_for_selector("#invitations button")
            page.wait_for_selector("#invitations button", state="detached")
            assert page.inner_text("#error") == (
                "En invitation blev trukket tilbage: yan forlod lobbyen."
            )
            # a ranked game resigned at once: won, and why it is not rated, in Danish
            with LobbyClient(lobby.url, yan, timeout=30) as host:
                lobby.lobby.coin = lambda n: 0  # the host, yan, plays White
                code = host.invite(to="zoe", size="5x5", clock="10+0", ranked=True)
                page.click(f"#invitations button[data-invitation='{code}']")
                game = host.wait_for(lambda m: m["type"] == "game")["game"]
                host.ask("resign", "over", game=game)
                page.wait_for_selector("#status:has-text('Du vandt')")
                assert page.inner_text("#status") == (
                    "Du vandt. Hvid opgav. Ikke ratet: et parti bliver ratet, når hver side har "
                    "spillet 2 træk."
                )
        finally:
            context.close()
