"""Game records: they replay, they survive JSON, and a broken one is refused with the reason."""

import json
import random

import pytest

import fanorona as fa
from fanorona import Board, Game, GameRecordError, Rules


class SeededRandom:
    """A stand-in player: any legal turn, reproducibly."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.name = f"random-{seed}"

    def choose_turn(self, board):
        return self.rng.choice(board.legal_turns())


def played(turns=6, seed=3, rules=None):
    b = Board(rules=rules)
    rng = random.Random(seed)
    for _ in range(turns):
        b.push(rng.choice(b.legal_turns()))
    return b


def test_a_record_replays_to_the_same_board():
    b = played()
    game = Game.from_board(b, white="Ada", black="Bo")
    assert game.start == Board().fen() and len(game.turns) == 6
    assert game.board().key() == b.key()
    assert game.board(turns=2).key() == b.root().after(b.turns[0]).after(b.turns[1]).key()


def test_json_round_trip():
    game = Game.from_board(played(rules=Rules.czech()), white="Ada", black="Bo")
    again = Game.from_json(game.to_json())
    assert again == game
    assert again.rules == Rules.czech()


def test_save_and_load(tmp_path):
    game = Game.from_board(played())
    path = tmp_path / "game.json"
    game.save(path)
    assert Game.load(path) == game


def test_a_record_that_does_not_replay_names_the_turn_and_the_reason():
    data = json.loads(Game.from_board(played()).to_json())
    data["turns"][2] = "a1a2"
    with pytest.raises(GameRecordError) as err:
        Game.from_json(json.dumps(data))
    message = str(err.value)
    assert message.startswith("turn 3 (a1a2) does not replay: ")
    assert "a2 is not empty" in message


def test_unreadable_turn_text_in_a_record():
    data = json.loads(Game.from_board(played(2)).to_json())
    data["turns"].append("e2?e3")
    with pytest.raises(GameRecordError, match=r"turn 3 \(e2\?e3\) does not replay: cannot read"):
        Game.from_json(json.dumps(data))


def test_a_record_whose_result_disagrees_with_the_replay():
    b = Board.from_diagram("""
        .....
        .....
        .....
        .....
        W.B..
    """)
    b.push("a1b1A")
    data = json.loads(Game.from_board(b).to_json())
    assert data["outcome"]["winner"] == "white"
    data["outcome"]["winner"] = "black"
    with pytest.raises(GameRecordError, match="the record says black wins.*ends white wins"):
        Game.from_json(json.dumps(data))


@pytest.mark.parametrize(
    "text, words",
    [
        ("{not json", "not a game record: invalid JSON at line 1, column 2"),
        ("[1, 2]", "must be a JSON object"),
        ('{"format": "chess/1"}', 'must be a JSON object with "format": "fanorona-game/1"'),
        ('{"format": "fanorona-game/1", "turns": []}', "has no 'start' field"),
        (
            '{"format": "fanorona-game/1", "start": "BBB/B.W/WWW w", "turns": [], '
            '"rules": {"direction": "up"}}',
            "damaged: Rules.direction",
        ),
        (
            '{"format": "fanorona-game/1", "start": "BBB/B.W/WW w", "turns": []}',
            "damaged: diagram line 3",
        ),
    ],
)
def test_damaged_records_give_a_sentence(text, words):
    with pytest.raises(GameRecordError) as err:
        Game.from_json(text)
    assert words in str(err.value)


def test_record_errors_are_value_errors():
    assert issubclass(GameRecordError, ValueError)


# -- playing a game ----------------------------------------------------------------------------


def test_play_game_to_the_end_on_3x3():
    seen = []
    game = fa.play_game(
        SeededRandom(1),
        SeededRandom(2),
        board=Board((3, 3)),
        on_turn=lambda board, turn: seen.append((board.fen(), str(turn))),
    )
    final = game.board()
    assert final.outcome() == game.outcome is not None
    assert [t for _, t in seen] == game.turns
    assert seen[-1][0] == final.fen()
    assert (game.white, game.black) == ("random-1", "random-2")


def test_play_game_cut_short_is_adjudicated():
    game = fa.play_game(SeededRandom(4), SeededRandom(5), max_turns=4)
    assert len(game.turns) == 4
    assert "adjudicated" in game.outcome.reason
    assert game.outcome == game.board().adjudicate()


def test_play_game_does_not_touch_the_given_board():
    start = Board((5, 5))
    before = start.fen()
    game = fa.play_game(SeededRandom(6), SeededRandom(7), board=start, max_turns=3)
    assert start.fen() == before and start.turns == []
    assert game.start == before


# -- outcomes by termination -------------------------------------------------------------------


def unfinished_record(outcome: dict | None) -> str:
    """A record of an unfinished 5x5 game in the format of before terminations, claiming
    ``outcome``."""
    game = fa.play_game(SeededRandom(1), SeededRandom(2), Board((5, 5)), max_turns=3)
    assert game.board().outcome() is None
    data = json.loads(game.to_json())
    data["outcome"] = outcome
    return json.dumps(data)


@pytest.mark.parametrize(
    "winner, reason",
    [
        ("black", "White has no stones left."),
        ("black", "white has no stones left "),
        ("black", "white has no stones left\n"),
        ("white", "BLACK HAS NO LEGAL TURN"),
        (None, "50 turns in a row without a capture."),
    ],
)
def test_an_old_record_cannot_claim_a_rule_ending_in_other_spelling_on_an_unfinished_game(
    winner, reason
):
    with pytest.raises(GameRecordError, match="not over"):
        Game.from_json(unfinished_record({"winner": winner, "reason": reason}))


@pytest.mark.parametrize(
    "winner, reason",
    [
        ("white", "Adjudicated on stones, 9 white to 1 black"),
        ("white", "Adjudicated on stones…"),
        ("white", "adjudicated on stones, 9 white to 1 black "),
    ],
)
def test_an_old_record_cannot_claim_a_wrong_adjudication_in_other_spelling(winner, reason):
    with pytest.raises(GameRecordError, match="adjudicat"):
        Game.from_json(unfinished_record({"winner": winner, "reason": reason}))


def test_an_old_record_keeps_loading_and_gets_its_termination():
    game = fa.play_game(SeededRandom(4), SeededRandom(5), max_turns=4)
    data = json.loads(game.to_json())
    data["outcome"] = {
        "winner": game.outcome.winner,
        "reason": game.outcome.reason,
    }  # as written before
    again = Game.from_json(json.dumps(data))
    assert again.outcome == game.outcome and again.outcome.termination is fa.Termination.ADJUDICATED
    data["outcome"] = {"winner": None, "reason": "agreed by both players"}
    assert Game.from_json(json.dumps(data)).outcome.termination is fa.Termination.DECLARED


def test_a_record_stores_the_termination_and_a_claimed_rule_ending_must_be_reached():
    board = Board((3, 3))
    rng = random.Random(8)
    while board.outcome() is None:
        board.push(rng.choice(board.legal_turns()))
    data = json.loads(Game.from_board(board).to_json())
    assert data["outcome"]["termination"] == board.outcome().termination.value
    assert Game.from_json(json.dumps(data)).outcome == board.outcome()
    claimed = {"winner": "white", "termination": "no_stones", "reason": "anything at all"}
    with pytest.raises(GameRecordError, match="not over"):
        Game.from_json(unfinished_record(claimed))


def test_the_termination_is_what_a_record_compares_not_the_words():
    """A record's sentence is for people: the termination, winner and counts make the outcome."""
    game = fa.play_game(SeededRandom(4), SeededRandom(5), max_turns=4)
    data = json.loads(game.to_json())
    data["outcome"]["reason"] = "the words are not read back"
    assert Game.from_json(json.dumps(data)).outcome.reason == game.outcome.reason
    data["outcome"]["counts"] = [data["outcome"]["counts"][0] + 1, data["outcome"]["counts"][1]]
    with pytest.raises(GameRecordError):
        Game.from_json(json.dumps(data))


@pytest.mark.parametrize(
    "value, words",
    [
        ({"winner": "white", "termination": "checkmate", "reason": "x"}, "termination is one of"),
        ({"winner": None, "termination": "no_stones", "reason": "x"}, "NO_STONES: a side wins it"),
        (
            {"winner": "white", "termination": "quiet_draw", "reason": "x", "counts": [5]},
            "QUIET_DRAW",
        ),
        ({"winner": "white", "termination": "declared", "reason": " "}, "say in words"),
        (
            {"winner": "white", "reason": "white has no stones left"},
            "says white lost, but the winner is white",
        ),
    ],
)
def test_a_damaged_outcome_is_refused_with_a_sentence(value, words):
    with pytest.raises(GameRecordError, match=words):
        Game.from_json(unfinished_record(value))


def test_an_outcome_makes_its_sentence_from_its_termination():
    assert fa.Outcome("white", fa.Termination.NO_STONES).reason == "black has no stones left"
    assert fa.Outcome("black", fa.Termination.NO_LEGAL_TURN).reason == "white has no legal turn"
    assert (
        fa.Outcome(None, fa.Termination.QUIET_DRAW, (50,)).reason
        == "50 turns in a row without a capture"
    )
    assert (
        str(fa.Outcome("white", fa.Termination.ADJUDICATED, (3, 2)))
        == "white wins: adjudicated on stones, 3 white to 2 black"
    )
    agreed = fa.Outcome(None, "agreed by both players")
    assert (agreed.termination, agreed.winner, agreed.reason) == (
        fa.Termination.DECLARED,
        None,
        "agreed by both players",
    )
    assert fa.Outcome("white", "Black has no stones left.") == fa.Outcome(
        "white", fa.Termination.NO_STONES
    )
    with pytest.raises(ValueError, match="not won by black"):
        fa.Outcome("black", fa.Termination.ADJUDICATED, (3, 2))
