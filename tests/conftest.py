"""Shared fixtures: positions reached by seeded random play, for tests that need many positions."""

import random

import pytest

import fanorona as fa


def positions_from_random_games(count, size=(9, 5), rules=None, seed=0, every=3, max_turns=80):
    """``count`` boards met every ``every`` turns along seeded random games (game over excluded).

    Games restart from the start position when they end, so the sample mixes openings,
    middle games and endings.
    """
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = fa.Board(size, rules)
        while board.outcome() is None and len(board.turns) < max_turns and len(found) < count:
            if len(board.turns) % every == 0:
                found.append(board.copy())
            board.push(rng.choice(board.legal_turns()))
    return found


def random_position(size, rules, seed, plies):
    """A position from a random game: up to ``plies`` seeded random turns from the start (fewer if
    it ends)."""
    rng = random.Random(seed)
    board = fa.Board(size, rules)
    for _ in range(plies):
        turns = board.legal_turns()
        if not turns:
            break
        board.push(rng.choice(turns))
    return board


@pytest.fixture(scope="session")
def positions():
    """The factory ``positions(count, size=(9, 5), rules=None, seed=0, every=3)``."""
    return positions_from_random_games


@pytest.fixture
def made():
    """A board controller factory (arguments as ``Controller``, plus ``delay``, 0 by default); every
    controller's computer is stopped after the test, so no thread outlives it."""
    from fanorona.ui.controller import Controller

    controllers = []

    def make(*args, delay=0, **kwargs):
        c = Controller(*args, **kwargs)
        c.set_delay(delay)
        controllers.append(c)
        return c

    yield make
    for c in controllers:
        with c.lock:
            c.runner.cancel()
        c.runner.wait(30)


@pytest.fixture(autouse=True)
def _close_figures():
    """draw_board with no Axes opens a pyplot figure; close them so tests don't pile them up."""
    yield
    import sys

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
