"""A turn typed in the notation (``d2e3A``, ``b4c3Ad3A``) and played as the clicks it stands for,
so the whole board can be played from the keyboard.

The text is read and checked against the position first, so a typo or an illegal turn is one
sentence in the status line and changes nothing; only then are its clicks made, through the
controller's own ``click``, ``choose`` and ``end_turn``, so the game, the move list and the
computer's reply follow as after a mouse.
"""

from __future__ import annotations

from .reply import Action, Reply


def play_typed(controller, text: str) -> Reply | None:
    """Play the turn ``text`` for the side to move; None (and a sentence said) if it cannot be."""
    model = controller.model
    text = text.strip() if isinstance(text, str) else text
    problem, turn = None, None
    if controller.pending or model.chain:
        problem = "finish the turn in progress first (or undo its steps), then type a whole turn"
    elif not hasattr(model, "parse_turn"):
        problem = "typed turns need the package's Board: this model cannot read turn text"
    else:
        try:
            turn = model.parse_turn(text)
        except ValueError as e:  # NotationError and IllegalMoveError both say what is wrong
            problem = str(e)
    if turn is None:
        controller.report("illegal", reason=problem or "no turn")
        return None
    if controller.selected:
        controller.click(controller.selected)  # a stone picked by mouse first: let it go
    reply = controller.click(turn.steps[0].origin)
    for step in turn.steps:
        if reply.action == Action.REFUSED:
            return reply  # the board takes no move now (the computer's turn, a replay)
        reply = controller.click(step.destination)
        if reply.action == Action.CHOOSE:
            reply = controller.choose(step.capture)
    if reply.action == Action.CHAIN:
        reply = controller.end_turn()
    return reply
