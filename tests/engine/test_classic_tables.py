"""The two betting tables of the classic rules (seeds/000), replayed as brag-hh/1 fixtures, and
each illegal move that the text points out rejected with the right code."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from brag_event.engine import IllegalAction, replay

FIXTURES = Path(__file__).parent / "fixtures"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def test_open_five_player_table_replays_with_the_right_pot() -> None:
    state = replay(load("classic_open_five.json"))
    outcome = state.outcome
    assert outcome is not None
    (pot,) = outcome.pots
    # Antes 5; rounds 5 + 8 + 8 + 9 + 15 + 15 + 15 + 20 + 20, and 20 to see.
    assert pot.amount == 140
    assert pot.how == "see" and pot.winners == [1]
    assert outcome.stacks == {1: 177, 2: 94, 3: 82, 4: 99, 5: 48}
    assert outcome.next_dealer == 1


def test_blind_five_player_table_replays_with_the_right_pot() -> None:
    state = replay(load("classic_blind_five.json"))
    outcome = state.outcome
    assert outcome is not None
    (pot,) = outcome.pots
    assert pot.amount == 96
    assert pot.winners == [2]
    # "after 4 rounds B has only spent 4 chips compared to C who has spent 10" (plus antes).
    paid = {s: 100 - outcome.stacks[s] for s in (1, 3, 4, 5)}
    assert paid == {1: 12, 3: 41, 4: 6, 5: 7}
    assert outcome.stacks[2] == 100 - 30 + 96


def with_illegal(name: str, index: int, action: dict[str, Any]) -> tuple[dict[str, Any], int]:
    doc = copy.deepcopy(load(name))
    doc["actions"].insert(index, action)
    return doc, index


def _round_start(round_no: int, looks: int, sizes: list[int]) -> int:
    return looks + sum(sizes[: round_no - 1])


OPEN_ROUNDS = [5, 4, 4, 4, 3, 3, 3, 2, 2, 1]
BLIND_ROUNDS = [5, 5, 5, 5, 4, 3, 2, 1]

# The illegal moves the classic tables' text points out (round, offset within the round, the
# action, its code); tests/api/test_classic_http.py plays the same over HTTP.
OPEN_ILLEGAL: list[tuple[int, int, dict[str, Any], str]] = [
    # Round 2: Andy must bet 2 again although he already put in 1.
    (2, 0, {"seat": 1, "action": "bet", "amount": 1}, "bet_below_stake"),
    # Rounds 5-6: A, C and E are all in: no-one can see.
    (5, 0, {"seat": 1, "action": "see", "amount": 10}, "see_needs_two_players"),
    (6, 1, {"seat": 3, "action": "see", "amount": 10}, "see_needs_two_players"),
    # Round 4: Eddie may raise the stake of 2 by at most 5.
    (4, 3, {"seat": 5, "action": "bet", "amount": 8}, "raise_above_max"),
    # Never fold out of turn.
    (1, 1, {"seat": 4, "action": "fold"}, "not_your_turn"),
    # Round 10: seeing costs twice Eddie's 10.
    (10, 0, {"seat": 1, "action": "see", "amount": 10}, "see_wrong_amount"),
]
BLIND_ILLEGAL: list[tuple[int, int, dict[str, Any], str]] = [
    # C is not allowed to see B in round 6 or 7, even though only two players are left.
    (6, 2, {"seat": 3, "action": "see", "amount": 20}, "cannot_see_blind"),
    (7, 1, {"seat": 3, "action": "see", "amount": 20}, "cannot_see_blind"),
    # Looking at a blind hand out of turn (B during C's raise in round 4).
    (4, 2, {"seat": 2, "action": "look"}, "look_not_your_turn"),
    # Round 5: after B's blind 5 the stake is 10; C's 9 is not enough.
    (5, 2, {"seat": 3, "action": "bet", "amount": 9}, "bet_below_stake"),
    # Round 8: blind B sees for the stake (10), not for twice it.
    (8, 0, {"seat": 2, "action": "see", "amount": 20}, "see_wrong_amount"),
]


# Each table: its fixture, its looks before the first round, its rounds' sizes.
TABLES: dict[str, tuple[str, int, list[int]]] = {
    "open": ("classic_open_five.json", 5, OPEN_ROUNDS),
    "blind": ("classic_blind_five.json", 3, BLIND_ROUNDS),
}


@pytest.mark.parametrize(
    ("table", "round_no", "offset", "action", "code"),
    [("open", *move) for move in OPEN_ILLEGAL] + [("blind", *move) for move in BLIND_ILLEGAL],
)
def test_illegal_moves_in_the_classic_tables(
    table: str, round_no: int, offset: int, action: dict[str, Any], code: str
) -> None:
    name, looks, rounds = TABLES[table]
    doc, index = with_illegal(name, _round_start(round_no, looks, rounds) + offset, action)
    with pytest.raises(IllegalAction) as err:
        replay(doc)
    assert err.value.code == code
    assert err.value.index == index


def test_the_round_bookkeeping_matches_the_fixtures() -> None:
    assert 5 + sum(OPEN_ROUNDS) == len(load("classic_open_five.json")["actions"])
    assert 3 + sum(BLIND_ROUNDS) == len(load("classic_blind_five.json")["actions"])
