"""Small builders shared by the engine tests."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from brag_event.engine import SHOWING, Action, HandState, IllegalAction, Rules, SeatSetup

R = Rules(ante=5, min_bet=5, max_bet=20, max_raise=20)
NAMES = ["Andy", "Bill", "Chris", "Dan", "Eddie", "Fred"]
ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The engine's command line (``python -m brag_event.engine``), run from the repository."""
    return subprocess.run(
        [sys.executable, "-m", "brag_event.engine", *args],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=ROOT,
        check=False,
    )


def table(
    n: int = 3,
    stack: int = 100,
    *,
    rules: Rules = R,
    dealer: int | None = None,
    seats: Sequence[int] | None = None,
    stacks: Sequence[int] | None = None,
    sitting_out: Sequence[int] = (),
    carried_pot: int = 0,
    carried_seat: int | None = None,
    first_deal: bool = False,
) -> HandState:
    if seats is None:
        seats = range(1, (len(stacks) if stacks is not None else n) + 1)
    numbers = list(seats)
    amounts = list(stacks) if stacks is not None else [stack] * len(numbers)
    setups = [
        SeatSetup(s, NAMES[(s - 1) % 6], a, s in sitting_out)
        for s, a in zip(numbers, amounts, strict=True)
    ]
    return HandState(
        rules,
        dealer if dealer is not None else numbers[-1],
        setups,
        carried_pot=carried_pot,
        carried_seat=carried_seat,
        first_deal=first_deal,
    )


def rejects(state: HandState, action: Action, code: str) -> IllegalAction:
    """Assert that ``action`` is refused with ``code`` and that nothing changed."""
    before = state.snapshot()
    assert not state.can(action)
    with pytest.raises(IllegalAction) as err:
        state.verify(action)
    assert err.value.code == code, err.value.message
    with pytest.raises(IllegalAction) as err2:
        state.apply(action)
    assert err2.value.code == code
    assert state.snapshot() == before
    assert err.value.message and "{" not in err.value.message
    return err.value


def everyone_looks(state: HandState) -> HandState:
    for p in state.players:
        if p.blind and p.hands == 1:
            state.look(p.seat)
    return state


def total_money(state: HandState) -> int:
    """Stacks of everyone seated plus everything in the middle."""
    seated = {s.seat: s.stack for s in state.seats}
    for p in state.players:
        seated[p.seat] = p.stack
    return sum(seated.values()) + state.pot_total


def settled_total(state: HandState) -> int:
    outcome = state.outcome
    assert outcome is not None
    return sum(outcome.stacks.values()) + outcome.house + outcome.carried_pot


def start_total(state: HandState) -> int:
    return sum(s.stack for s in state.seats) + state.carried_in


def seen_two_way() -> HandState:
    """Andy bets 5 open, Bill (open) sees him for 10: Andy's hand is shown first."""
    state = everyone_looks(table(2))
    state.bet(1, 5).see(2, 10)
    assert state.phase == SHOWING and state.cards_needed == [1, 2]
    return state


def covered_three_way() -> HandState:
    """Bill covers pot 0 (37); Andy and Chris bet on in pot 1; Chris sees Andy."""
    state = everyone_looks(table(4, stacks=[100, 12, 100, 100], dealer=4))
    state.bet(1, 10).cover(2)
    state.bet(3, 10).fold(4).bet(1, 10).see(3, 20)
    assert state.cards_needed == [1, 3, 2]
    return state
