"""Our move generator against fanorona-aec, a separately written implementation of the 9x5 rules.

fanorona-aec plays ``Rules.standard()`` except for its draw: the game is drawn once its
``half_moves`` field (turns played, captures or not) reaches 44.  Every position handed to it
here has that counter at 0, so neither side's draw rule takes part.

The comparison: for positions from seeded random games, the multiset of positions (stones and
side to move) reached by every complete turn.  We list each capture choice, step path and
stopping point once (``Board.legal_turns``); fanorona-aec offers single steps, a capture keeping
the turn and END_TURN_ACTION always offered after one, so ``benchmarks.aec.aec_turn_ends`` walks
its actions depth first.  The chain rules match exactly: its visited set includes the start point
(our ``no_revisit``), it forbids only the direction of the step just before (our "no-repeat"),
continuing is optional, and every chain step must capture.

Differences found, and what the rule sources say:

* Mid-chain, fanorona-aec lists each capture of the chain stone twice (once as the chain's
  continuation, once more in its scan of all stones).  The same action id twice: a listing
  quirk, not a rule difference; ``aec_turn_ends`` takes the set.
* A side that has stones but no legal step: we score it a loss, as the course assignment and the
  game club's rules page both do.  fanorona-aec's end test only asks whether both sides have
  stones (its source calls a stuck side a conjecture that cannot happen), so it offers no action
  and does not end the game.  ``test_a_side_that_cannot_move`` pins the position down.

fanorona-aec knows only 9x5 and one rule set, so the end of this file compares the same way with
a plain second implementation written in the test (other sizes, every rule option).
"""

from collections import Counter
from functools import cache

import pytest

from fanorona import Board, Rules, Step, perft

pytest.importorskip("env.fanorona_state", reason="fanorona-aec is a test dependency")
from env.fanorona_move import END_TURN_ACTION, FanoronaMove, MoveType
from env.fanorona_state import FanoronaState

from benchmarks.aec import AEC_START, aec_perft, aec_turn_ends

CAPTURE = {MoveType.PAIKA: None, MoveType.APPROACH: "approach", MoveType.WITHDRAWAL: "withdrawal"}


def aec_text(board):
    """Our position in fanorona-aec's text: rank 1 first, runs of empty points as digits, no
    chain."""
    rows = []
    for row in reversed(board.diagram().split("\n")):
        text, empty = "", 0
        for ch in row + "|":
            if ch == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + (ch if ch != "|" else "")
            empty = 0
        rows.append(text)
    return f"{'/'.join(rows)} {'W' if board.to_move == 'white' else 'B'} - - - 0"


def fen_of_aec(text):
    """fanorona-aec's state text as our position text (stones and side to move only)."""
    rows, side = text.split()[:2]
    expanded = [
        "".join("." * int(ch) if ch.isdigit() else ch for ch in row) for row in rows.split("/")
    ]
    return "/".join(reversed(expanded)) + " " + side.lower()


def aec_results(board):
    return Counter(aec_results_from(aec_text(board)))


@cache
def aec_results_from(text):
    """fanorona-aec is slow: walk each position's turns once per test run."""
    return Counter(fen_of_aec(end) for end in aec_turn_ends(text))


def our_results(board):
    return Counter(position_after(board, turn) for turn in board.legal_turns())


def position_after(board, turn):
    """Play the turn step by step (the same as ``push(turn)``, see test_properties, but without
    checking the whole turn against every legal turn, which is slow where there are thousands)."""
    b = board.copy()
    for step in turn.steps:
        b.push(step)
    if b.chain:
        b.end_turn()
    return b.fen()


def aec_first_steps(board):
    """fanorona-aec's legal actions at the start of a turn, as our Steps."""
    steps = set()
    for action in FanoronaState().set_from_board_str(aec_text(board)).legal_moves:
        move = FanoronaMove.from_action(action)
        to = move.position.displace(move.direction)
        steps.add(
            Step(move.position.to_human().lower(), to.to_human().lower(), CAPTURE[move.move_type])
        )
    return steps


def sample(positions, seed):
    return positions(10, (9, 5), Rules.standard(), seed=seed, every=4)


# -- the translation between the two texts -------------------------------------------------------


def test_the_start_positions_agree():
    state = FanoronaState()
    state.reset()
    assert str(state) == aec_text(Board()) == AEC_START


def test_texts_translate_both_ways(positions):
    for b in sample(positions, seed=1):
        assert fen_of_aec(aec_text(b)) == b.fen()
        assert str(FanoronaState().set_from_board_str(aec_text(b))) == aec_text(b)


# -- the rules -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_same_positions_after_every_complete_turn(positions, seed):
    for b in sample(positions, seed):
        ours, theirs = our_results(b), aec_results(b)
        assert ours == theirs, (b.fen(), ours - theirs, theirs - ours)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_same_first_steps(positions, seed):
    for b in sample(positions, seed):
        assert set(b.legal_steps()) == aec_first_steps(b), b.fen()


def test_the_sample_has_chains_paikas_and_two_way_captures(positions):
    """The comparison above means something only if the sample shows every kind of turn."""
    turns = [t for seed in (1, 2, 3) for b in sample(positions, seed) for t in b.legal_turns()]
    assert any(len(t.steps) >= 3 for t in turns)
    assert any(not t.is_capture for t in turns)
    pairs = Counter(
        (t.start, t.steps[0].destination) for t in turns if len(t.steps) == 1 and t.is_capture
    )
    assert any(n == 2 for n in pairs.values())


CHAIN_RULE_POSITIONS = {
    # the chain could return to its start b2: no revisit
    "revisit": (
        """
        .........
        ..B......
        ....B....
        .W.B.....
        B........
    """
    ),
    # east after east: no repeat (east, north, east is allowed)
    "direction": (
        """
        .........
        .........
        ..B......
        B...B....
        BW..B....
    """
    ),
    # a long chain across the board with both capture kinds at several steps
    "long chain": (
        """
        BBBBBBBBB
        B.B.B.B.B
        .W.......
        BB.B.B.BB
        .........
    """
    ),
}


@pytest.mark.parametrize("name", CHAIN_RULE_POSITIONS)
def test_same_turns_where_the_chain_rules_matter(name):
    for side in ("white", "black"):
        b = Board.from_diagram(CHAIN_RULE_POSITIONS[name], side)
        assert our_results(b) == aec_results(b), (name, side)


@pytest.mark.parametrize(
    "other_rule",
    [
        {"no_revisit": False},
        {"direction": "free"},
        {"direction": "no-reuse"},
        {"must_continue": True},
    ],
    ids=["revisits allowed", "free direction", "no reuse", "must continue"],
)
def test_any_other_chain_rule_would_disagree_with_aec(other_rule):
    """So the agreement above pins down each chain rule, not just the common cases."""
    diagram = CHAIN_RULE_POSITIONS["long chain"]
    ours = our_results(Board.from_diagram(diagram, rules=Rules.standard().with_(**other_rule)))
    assert ours != aec_results(Board.from_diagram(diagram))


def test_perft_agrees_at_depth_2():
    assert aec_perft(AEC_START, 2) == perft(Board(), 2) == 39


# -- the difference ------------------------------------------------------------------------------


def test_a_side_that_cannot_move():
    """Black's only stone is boxed in: a loss for Black here; fanorona-aec just has no action."""
    b = Board.from_diagram(
        """
        BW.......
        WW.......
        .........
        .........
        ........W
    """,
        "black",
    )
    assert b.outcome().winner == "white" and "no legal turn" in b.outcome().reason
    state = FanoronaState().set_from_board_str(aec_text(b))
    assert state.legal_moves == [] and not state.done
    assert our_results(b) == aec_results(b) == Counter()


def test_aec_draws_after_44_turns_whatever_happens():
    """Why every position handed to it has its turn counter at 0."""
    text = aec_text(Board()).rsplit(" ", 1)[0]
    assert not FanoronaState().set_from_board_str(text + " 43").done
    assert FanoronaState().set_from_board_str(text + " 44").done
    assert END_TURN_ACTION not in FanoronaState().set_from_board_str(AEC_START).legal_moves


# -- a plain second implementation, for the sizes and options fanorona-aec does not have ---------
#
# Written again from the rule sources, as plainly as possible: a dict from (column, row) to
# colour, and a recursive walk over a capturing stone's next steps.  Slow, and shares nothing
# with the package but the diagram text.

EIGHT = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def plain_position(board):
    rows = board.diagram().split("\n")[::-1]
    stones = {(c, r): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
    return stones, len(rows[0]), len(rows), "W" if board.to_move == "white" else "B"


def plain_fen(stones, width, height, side):
    rows = ["".join(stones.get((c, r), ".") for c in range(width)) for r in range(height)]
    return "/".join(reversed(rows)) + " " + side.lower()


def line_from(stones, width, height, point, direction, colour):
    """The unbroken run of ``colour`` stones starting at ``point`` and going ``direction``."""
    (c, r), (dc, dr) = point, direction
    run = []
    while 0 <= c < width and 0 <= r < height and stones.get((c, r)) == colour:
        run.append((c, r))
        c, r = c + dc, r + dr
    return run


def plain_steps(stones, width, height, point):
    """(direction, destination, captured points or None) for each step the stone on ``point`` can
    take."""
    c, r = point
    me = stones[point]
    enemy = "B" if me == "W" else "W"
    for dc, dr in EIGHT:
        if dc and dr and (c + r) % 2:
            continue  # a weak point has no diagonals
        to = (c + dc, r + dr)
        if not (0 <= to[0] < width and 0 <= to[1] < height) or to in stones:
            continue
        approach = line_from(stones, width, height, (c + 2 * dc, r + 2 * dr), (dc, dr), enemy)
        withdrawal = line_from(stones, width, height, (c - dc, r - dr), (-dc, -dr), enemy)
        if not approach and not withdrawal:
            yield (dc, dr), to, None
        for captured in (approach, withdrawal):
            if captured:
                yield (dc, dr), to, captured


def moved(stones, origin, to, captured):
    after = {p: s for p, s in stones.items() if p != origin and p not in captured}
    after[to] = stones[origin]
    return after


def plain_turns(board):
    """The position text after each complete turn, under ``board.rules``."""
    rules = board.rules
    stones, width, height, side = plain_position(board)
    other = "B" if side == "W" else "W"
    one_capture_only = rules.opening_single_capture and len(board.turns) < 2
    captures, paikas = [], []

    def chain(stones, point, visited, directions):
        """Every way to go on from ``point``, stopping wherever the rules allow."""
        nexts = []
        if rules.chains and not one_capture_only:
            for d, to, captured in plain_steps(stones, width, height, point):
                if captured is None or (rules.no_revisit and to in visited):
                    continue
                if rules.direction == "no-repeat" and d == directions[-1]:
                    continue
                if rules.direction == "no-reuse" and d in directions:
                    continue
                nexts.append((moved(stones, point, to, captured), to, d))
        if not (nexts and rules.must_continue):
            captures.append(plain_fen(stones, width, height, other))
        for after, to, d in nexts:
            chain(after, to, visited | {to}, directions + [d])

    for point in [p for p, s in stones.items() if s == side]:
        for d, to, captured in plain_steps(stones, width, height, point):
            if captured is None:
                paikas.append(plain_fen(moved(stones, point, to, []), width, height, other))
            else:
                chain(moved(stones, point, to, captured), to, {point, to}, [d])
    return Counter(captures + (paikas if not (captures and rules.mandatory_capture) else []))


PLAIN_CASES = {
    "9x5 standard": ((9, 5), Rules.standard()),
    "5x5 standard": ((5, 5), Rules.standard()),
    "3x3 standard": ((3, 3), Rules.standard()),
    "7x3 standard": ((7, 3), Rules.standard()),
    "3x7 standard": ((3, 7), Rules.standard()),
    "9x5 simple": ((9, 5), Rules.simple()),
    "9x5 czech": ((9, 5), Rules.czech()),
    "9x5 no reuse": ((9, 5), Rules.standard().with_(direction="no-reuse")),
    "9x5 free direction": ((9, 5), Rules.standard().with_(direction="free")),
    "9x5 revisits allowed": ((9, 5), Rules.standard().with_(no_revisit=False)),
    "9x5 must continue": ((9, 5), Rules.standard().with_(must_continue=True)),
    "5x5 optional capture, chains": ((5, 5), Rules.standard().with_(mandatory_capture=False)),
}


@pytest.mark.parametrize("case", PLAIN_CASES)
def test_same_turns_as_a_plain_second_implementation(positions, case):
    size, rules = PLAIN_CASES[case]
    start = Board(size, rules)
    replies = [start.after(t) for t in start.legal_turns()]  # Black's first turn: the Czech rule
    for b in positions(8, size, rules, seed=21, every=2) + replies:
        assert our_results(b) == plain_turns(b), b.fen()


def test_the_plain_implementation_agrees_with_aec_on_the_chain_positions():
    """Checks the checker: on 9x5 standard rules it must give what fanorona-aec gives."""
    for diagram in CHAIN_RULE_POSITIONS.values():
        b = Board.from_diagram(diagram)
        assert plain_turns(b) == aec_results(b)
