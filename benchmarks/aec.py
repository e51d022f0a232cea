"""fanorona-aec (the PettingZoo environment) as a reference: its whole turns and its perft, for the
perft benchmark and the differential tests."""

from __future__ import annotations

AEC_START = "WWWWWWWWW/WWWWWWWWW/BWBW1BWBW/BBBBBBBBB/BBBBBBBBB W - - - 0"


def aec_turn_ends(text: str):
    """Every state text that fanorona-aec reaches at the end of a whole turn from ``text``.

    Its actions are single steps: a capture keeps the turn (and always offers END_TURN_ACTION
    next), a paika or END_TURN_ACTION ends it; so a depth-first walk over actions until the turn
    ends lists each complete turn once.  Mid-chain it lists the chain stone's captures twice,
    hence the ``set``.
    """
    from env.fanorona_move import END_TURN_ACTION, FanoronaMove, MoveType
    from env.fanorona_state import FanoronaState

    stack = [text]
    while stack:
        state_text = stack.pop()
        for action in sorted(set(FanoronaState().set_from_board_str(state_text).legal_moves)):
            state = FanoronaState().set_from_board_str(state_text)
            move = FanoronaMove.from_action(action)
            state.push(move)
            if action == END_TURN_ACTION or move.move_type == MoveType.PAIKA:
                yield str(state)
            else:
                stack.append(str(state))


def aec_perft(text: str, depth: int) -> int:
    """perft through fanorona-aec, its half-move counter reset so its draw rule never applies."""
    if depth == 0:
        return 1
    total = 0
    for end in aec_turn_ends(text):
        fields = end.split()
        total += aec_perft(" ".join(fields[:5] + ["0"]), depth - 1)
    return total
