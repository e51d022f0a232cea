"""Each preset option traced to the sentence of the source it comes from, and the Czech page's
game counted by a generator that reads the page, not the kit.

The sources are the three texts the kit started from (a Danish course assignment, a German game
club's rules page, a Czech rules page) and the rules of the published solution. Each sentence is
paraphrased, with the section where it stands. Where a source is silent on an option the entry
says so and gives the kit's reading; the preset's docstring must say it too.
"""

from dataclasses import fields
from typing import NamedTuple

import pytest

import fanorona as fa
from fanorona import Board, Rules


class Sentence(NamedTuple):
    preset: str
    option: str
    value: object
    source: str
    where: str
    says: str  # the rule in the source's sense, paraphrased; "silent: ..." for the kit's reading


DANISH = "Danish course assignment (Indledende Programmering, January 2004)"
CLUB = "German game club's rules page"
CZECH = "Czech rules page"
PAPER = "Schadd et al., Best Play in Fanorona Leads to Draw (2008)"

SENTENCES = [
    # -- the Czech page -----------------------------------------------------------------------
    Sentence(
        "czech",
        "chains",
        True,
        CZECH,
        "Hra, fourth bullet",
        "after a capture the same stone may at once capture again, so one move can take"
        " two or more groups",
    ),
    Sentence(
        "czech",
        "must_continue",
        False,
        CZECH,
        "Hra, fourth bullet",
        "the player *may* go on capturing ('může hned pokračovat'), not must",
    ),
    Sentence(
        "czech",
        "direction",
        "no-repeat",
        CZECH,
        "Hra, fourth bullet",
        "every further move of the capturing stone goes in another direction than the"
        " move before it",
    ),
    Sentence(
        "czech",
        "no_revisit",
        False,
        CZECH,
        "Hra, fourth bullet",
        "a turn of 180 degrees counts as a change of direction, and no sentence forbids"
        " returning to a point: the stone may step straight back",
    ),
    Sentence(
        "czech",
        "opening_single_capture",
        True,
        CZECH,
        "Hra, fourth bullet",
        "on the first move at the start of the game the players may capture one group only",
    ),
    Sentence(
        "czech",
        "mandatory_capture",
        True,
        CZECH,
        "silent",
        "silent: the page neither demands nor forbids a quiet move beside a capture; the kit"
        " takes compulsory capture, as the traditional game and the solution do",
    ),
    Sentence(
        "czech",
        "quiet_draw",
        None,
        CZECH,
        "Konec hry",
        "who loses all stones loses; with an agreed time limit the side with more stones"
        " wins; no draw rule",
    ),
    # -- the Danish assignment, base game -----------------------------------------------------
    Sentence(
        "simple",
        "mandatory_capture",
        False,
        DANISH,
        "Spillets gang (simplificeret)",
        "a move shifts one stone to a free neighbouring point; a move that captures nothing"
        " is a simple move, allowed whenever there is one",
    ),
    Sentence(
        "simple",
        "chains",
        False,
        DANISH,
        "Spillets gang (simplificeret)",
        "a player's move is one step of one stone",
    ),
    Sentence(
        "simple",
        "quiet_draw",
        None,
        DANISH,
        "Spillets afslutning",
        "the game ends when the player to move cannot move; a draw only by agreement",
    ),
    Sentence(
        "simple",
        "no_revisit",
        True,
        DANISH,
        "not applicable",
        "without chains no option of a chain changes a turn (checked below)",
    ),
    Sentence(
        "simple",
        "direction",
        "no-repeat",
        DANISH,
        "not applicable",
        "without chains no option of a chain changes a turn (checked below)",
    ),
    Sentence(
        "simple",
        "must_continue",
        False,
        DANISH,
        "not applicable",
        "without chains no option of a chain changes a turn (checked below)",
    ),
    Sentence(
        "simple",
        "opening_single_capture",
        False,
        DANISH,
        "not applicable",
        "one step captures one string, so a first-turn limit changes nothing (checked below)",
    ),
    # -- the Danish assignment with both extensions -------------------------------------------
    Sentence(
        "danish",
        "mandatory_capture",
        True,
        DANISH,
        "Udvidelser, first bullet",
        "a simple move is allowed only if no capturing move is possible",
    ),
    Sentence(
        "danish",
        "chains",
        True,
        DANISH,
        "Udvidelser, second bullet",
        "after a capture the same stone may make a further capturing move, recursively",
    ),
    Sentence(
        "danish",
        "must_continue",
        False,
        DANISH,
        "Udvidelser, second bullet",
        "the player *can choose* to make the continuation move",
    ),
    Sentence(
        "danish",
        "no_revisit",
        True,
        DANISH,
        "Udvidelser, second bullet",
        "a continuation never comes back to a point this stone has occupied during the turn",
    ),
    Sentence(
        "danish",
        "direction",
        "free",
        DANISH,
        "silent",
        "silent: the continuation rule names only the no-return condition, so the kit sets"
        " no direction rule",
    ),
    Sentence(
        "danish",
        "opening_single_capture",
        False,
        DANISH,
        "silent",
        "silent: no rule for the first turn",
    ),
    Sentence(
        "danish",
        "quiet_draw",
        None,
        DANISH,
        "Spillets afslutning",
        "a draw only by agreement, by stopping the game",
    ),
    # -- the game club ------------------------------------------------------------------------
    Sentence(
        "standard",
        "mandatory_capture",
        True,
        CLUB,
        "Einen Zug machen; Schlagpflicht",
        "capturing is compulsory: a quiet step only when no capture is possible",
    ),
    Sentence(
        "standard",
        "chains",
        True,
        CLUB,
        "Regeln dieser Seite; Schlagketten",
        "the capturing stone may move on, each step capturing",
    ),
    Sentence(
        "standard",
        "must_continue",
        False,
        CLUB,
        "Regeln dieser Seite; Schlagketten",
        "you may stop at any time",
    ),
    Sentence(
        "standard",
        "direction",
        "no-repeat",
        CLUB,
        "Regeln dieser Seite; Schlagketten",
        "no step repeats the direction of the step before",
    ),
    Sentence(
        "standard",
        "no_revisit",
        True,
        CLUB,
        "Regeln dieser Seite; Schlagketten",
        "no step enters a point visited in this turn",
    ),
    Sentence(
        "standard",
        "opening_single_capture",
        False,
        CLUB,
        "silent",
        "silent: no rule for the first turn",
    ),
    Sentence(
        "standard",
        "quiet_draw",
        50,
        CLUB,
        "Regeln dieser Seite",
        "50 half-moves (turns) without a capture are a draw",
    ),
    # -- the solution -------------------------------------------------------------------------
    Sentence(
        "solved",
        "quiet_draw",
        None,
        PAPER,
        "the rules solved",
        "no repetition or move-count rule: only endless play is a draw",
    ),
]
SENTENCES.extend(
    Sentence(
        "solved",
        option,
        getattr(Rules.standard(), option),
        PAPER,
        "the rules solved",
        "as the game club: compulsory capture, optional chains, no return, no direction"
        " twice in a row",
    )
    for option in (
        "mandatory_capture",
        "chains",
        "must_continue",
        "direction",
        "no_revisit",
        "opening_single_capture",
    )
)

SOURCED = sorted({s.preset for s in SENTENCES})
OPTIONS = [f.name for f in fields(Rules)]


@pytest.mark.parametrize("sentence", SENTENCES, ids=lambda s: f"{s.preset}-{s.option}")
def test_each_sentence_gives_its_presets_option(sentence):
    assert getattr(Rules.named(sentence.preset), sentence.option) == sentence.value


@pytest.mark.parametrize("preset", SOURCED)
def test_every_option_of_a_sourced_preset_has_exactly_one_sentence(preset):
    options = sorted(s.option for s in SENTENCES if s.preset == preset)
    assert options == sorted(OPTIONS)


@pytest.mark.parametrize(
    "sentence",
    [s for s in SENTENCES if s.says.startswith("silent")],
    ids=lambda s: f"{s.preset}-{s.option}",
)
def test_where_a_source_is_silent_the_docstring_says_the_kits_reading(sentence):
    doc = getattr(Rules, sentence.preset).__doc__
    words = {
        "mandatory_capture": "compulsory",
        "direction": "direction",
        "opening_single_capture": "first",
        "quiet_draw": "draw",
    }
    assert words[sentence.option] in doc


@pytest.mark.parametrize(
    "option, other",
    [
        ("no_revisit", False),
        ("direction", "free"),
        ("must_continue", True),
        ("opening_single_capture", True),
    ],
)
def test_options_the_simple_game_cannot_use_change_no_count(option, other):
    simple = Board((5, 5), Rules.simple())
    changed = Board((5, 5), Rules.simple().with_(**{option: other}))
    assert [fa.perft(simple, d) for d in (1, 2, 3)] == [fa.perft(changed, d) for d in (1, 2, 3)]


# -- the Czech page, read plainly --------------------------------------------------------------
# "Kameny se posunují po čarách na sousední volné pole": stones move along the drawn lines to a
# free neighbouring point; the 9x5 board's diagonals pass through every other point (those whose
# column and row add up to an even number, the centre among them).

WIDTH, HEIGHT = 9, 5
LINES = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def page_start(middle_first="B"):
    """Black in the upper half, White in the lower, the middle line alternating, the centre free.

    The page does not say which colour stands on a3: both readings are mirror images.
    """
    stones = {}
    for x in range(WIDTH):
        for y in (0, 1):
            stones[x, y] = "W"
        for y in (3, 4):
            stones[x, y] = "B"
    other = "W" if middle_first == "B" else "B"
    middle = [p for p in range(WIDTH) if p != WIDTH // 2]
    for i, x in enumerate(middle):
        stones[x, 2] = middle_first if i % 2 == 0 else other
    return stones


def name(p):
    return "abcdefghi"[p[0]] + str(p[1] + 1)


def group(stones, p, d, colour):
    """The stone at p and every enemy stone right behind it along d, with no gap."""
    taken = []
    while stones.get(p) == colour:
        taken.append(p)
        p = (p[0] + d[0], p[1] + d[1])
    return taken


def one_point_moves(stones, p):
    """(destination, direction, letter, captured stones) for every move of the stone at p;
    a move that could capture both ways appears once for each, the player choosing."""
    me = stones[p]
    enemy = "B" if me == "W" else "W"
    for d in LINES:
        if d[0] and d[1] and (p[0] + p[1]) % 2:
            continue  # no diagonal line through this point
        q = (p[0] + d[0], p[1] + d[1])
        if not (0 <= q[0] < WIDTH and 0 <= q[1] < HEIGHT) or q in stones:
            continue
        ahead = group(stones, (q[0] + d[0], q[1] + d[1]), d, enemy)  # přiblížením
        behind = group(stones, (p[0] - d[0], p[1] - d[1]), (-d[0], -d[1]), enemy)  # odsunem
        if ahead:
            yield q, d, "A", ahead
        if behind:
            yield q, d, "W", behind
        if not ahead and not behind:
            yield q, d, "", []


def moved(stones, p, q, taken):
    after = {k: v for k, v in stones.items() if k not in taken}
    after[q] = after.pop(p)
    return after


def page_turns(stones, side, first_move, compulsory):
    """Every whole turn: (text in the kit's notation, stones after it)."""
    capturing, quiet = [], []

    def go_on(now, at, last, text):
        capturing.append((text, now))
        if first_move:
            return  # on the first move one group only
        for q, d, letter, taken in list(one_point_moves(now, at)):
            # each further move in another direction; a half turn is another direction
            if taken and d != last:
                go_on(moved(now, at, q, taken), q, d, text + name(q) + letter)

    for p in [p for p, c in stones.items() if c == side]:
        for q, d, letter, taken in list(one_point_moves(stones, p)):
            if taken:
                go_on(moved(stones, p, q, taken), q, d, name(p) + name(q) + letter)
            else:
                quiet.append((name(p) + name(q), moved(stones, p, q, [])))
    return capturing if compulsory and capturing else capturing + quiet


def page_perft(stones, side, depth, moves_made=0, compulsory=True):
    if depth == 0:
        return 1
    if side not in stones.values():
        return 0  # "Kdo přijde o všechny kameny, prohraje"
    first = moves_made < 2  # each side's first move
    other = "B" if side == "W" else "W"
    return sum(
        page_perft(after, other, depth - 1, moves_made + 1, compulsory)
        for _, after in page_turns(stones, side, first, compulsory)
    )


def test_the_czech_preset_counts_the_pages_own_game_to_depth_four():
    page = [page_perft(page_start(), "W", d) for d in (1, 2, 3, 4)]
    kit = [fa.perft(Board(rules=Rules.czech()), d) for d in (1, 2, 3, 4)]
    assert kit == page


def test_the_czech_preset_has_the_pages_turns_where_a_stone_steps_straight_back():
    board = Board(rules=Rules.czech())
    stones, side = page_start(), "W"
    for text in ("d2e3A", "g4g5W"):
        stones = dict(page_turns(stones, side, True, True))[text]
        side = "B" if side == "W" else "W"
        board.push(text)
    page = {text for text, _ in page_turns(stones, side, False, True)}
    assert {str(t) for t in board.legal_turns()} == page
    assert "e3f4Ag4Af4A" in page  # f4 to g4 and straight back


def test_the_literal_reading_without_compulsory_capture_is_one_option_away():
    literal = Board(rules=Rules.czech().with_(mandatory_capture=False))
    page = [page_perft(page_start(), "W", d, compulsory=False) for d in (1, 2, 3)]
    assert [fa.perft(literal, d) for d in (1, 2, 3)] == page


def test_which_colour_starts_the_middle_line_does_not_change_the_count():
    assert page_perft(page_start("B"), "W", 3) == page_perft(page_start("W"), "W", 3)
    assert Board(rules=Rules.czech()).fen().split("/")[2] == "".join(
        page_start("B").get((x, 2), ".") for x in range(WIDTH)
    )


def test_the_pages_time_limit_ending_gives_the_game_to_more_stones():
    board = Board(rules=Rules.czech())
    board.push("d2e3A")
    result = board.adjudicate()
    assert result.winner == "white"
    assert result.counts[0] > result.counts[1]
