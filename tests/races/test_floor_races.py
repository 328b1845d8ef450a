"""The floor against the tablets: a supervisor's misdeal and a dealer's action on the same hand
at the same moment, from two devices. Whichever comes first wins; the other is refused with a
clean ``409 stale_sequence`` (both name the sequence their screen showed), never a raw error,
and the ledger audit passes after every run."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.floor.models import Misdeal
from brag_event.floor.services import hand_misdeal
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_apply_action

from .floor import SETTLING, floor, one_to_settle, problems
from .harness import interleave, race

pytestmark = pytest.mark.django_db(transaction=True)

HAND_LOCK = r'FROM "hands_hand".* FOR (NO KEY )?UPDATE'


def misdeal(hand_id: int, seq: int) -> Any:
    return lambda: (
        hand_misdeal(hand=hand_id, reason="cards exposed", expected_seq=seq, by=None)[0].status
    )


def action(hand_id: int, seq: int) -> Any:
    return lambda: (
        hand_apply_action(hand=hand_id, action=SETTLING, expected_seq=seq, by=None)[0].status
    )


@pytest.mark.parametrize("misdeal_first", [True, False])
def test_a_misdeal_against_an_action_forced_both_ways(misdeal_first: bool) -> None:
    f = floor()
    hand = one_to_settle(f)
    seq = hand.next_seq
    jobs = (misdeal(hand.pk, seq), action(hand.pk, seq))
    first, second = jobs if misdeal_first else jobs[::-1]
    outcomes, _seen = interleave(first, second, after=HAND_LOCK)
    assert outcomes[0].kind == "ok" and outcomes[1].kind == "refused", outcomes
    assert outcomes[1].value == "stale_sequence"
    assert not problems(f.event)
    assert Misdeal.objects.filter(hand=hand).exists() == misdeal_first


def test_a_misdeal_against_an_action_at_the_same_instant() -> None:
    f = floor()
    hand = one_to_settle(f)
    seq = hand.next_seq
    outcomes = race(misdeal(hand.pk, seq), action(hand.pk, seq))
    assert sorted(o.kind for o in outcomes) == ["ok", "refused"], outcomes
    assert next(o for o in outcomes if o.kind == "refused").value == "stale_sequence"
    found = problems(f.event)
    assert not found, "\n".join(found)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    assert Misdeal.objects.filter(hand=hand).exists() == (outcomes[0].kind == "ok")
