"""The bots (``brag_event/bots.py``): each plays hands to the end through the engine with only
actions it accepts, whatever the cards and the seed."""

from __future__ import annotations

import random

import pytest

from brag_event.bots import Casual, Style, fallback, opener_bets, styled_action
from brag_event.engine import DECK, FLASH_DAY_1, SETTLED, HandState, IllegalAction, SeatSetup

SEATS = [SeatSetup(seat, f"P{seat}", 200) for seat in range(1, 7)]


def _deal(state: HandState, rng: random.Random) -> dict[int, tuple[int, ...]]:
    deck = list(DECK)
    rng.shuffle(deck)
    return {p.seat: tuple(deck[3 * i : 3 * i + 3]) for i, p in enumerate(state.players)}


@pytest.mark.parametrize("seed", range(40))
def test_a_casual_player_settles_every_hand_with_allowed_actions(seed: int) -> None:
    rng = random.Random(seed)
    state = HandState(FLASH_DAY_1, 1 + seed % 6, SEATS)
    cards = _deal(state, rng)
    for steps in range(400):
        if state.phase == SETTLED:
            break
        state.apply(Casual().choose(state, cards, rng, force=steps >= 200))  # raises if refused
    assert state.phase == SETTLED


@pytest.mark.parametrize("seed", range(40))
def test_styled_players_end_the_betting_of_every_hand(seed: int) -> None:
    rng = random.Random(seed)
    state = HandState(FLASH_DAY_1, 1, SEATS)
    cards = _deal(state, rng)
    style = Style(look=0.5, tight=0.5, aggression=0.3, blind_see=0.3)
    for steps in range(1, 400):
        if state.phase != "betting" or state.pending is not None:
            break
        p = state.players[state.turn]
        action = styled_action(state, p, style, rng, cards[p.seat], steps, None, {})
        try:
            state.apply(action)
        except IllegalAction:
            state.apply(fallback(state, p.seat))
    assert state.phase != "betting" or state.pending is not None


def test_the_opener_looks_bets_the_least_and_takes_the_pot() -> None:
    state = HandState(FLASH_DAY_1, 1, SEATS)
    first = state.to_act
    seq = 1
    while state.phase != SETTLED:
        state.apply(opener_bets(state, seq, FLASH_DAY_1.min_bet))
        seq += 1
    assert state.outcome is not None
    assert [r.winners for r in state.outcome.pots] == [[first]]
    assert seq - 1 == 2 + len(SEATS) - 1  # a look, a bet, and everyone else folds
