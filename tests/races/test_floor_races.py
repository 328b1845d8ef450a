"""The floor against the tablets: a supervisor's misdeal and a dealer's action on the same hand
at the same moment, from two devices. Whichever comes first wins; the other is refused with a
clean ``409 stale_sequence`` (both name the sequence their screen showed), never a raw error,
and the ledger audit passes after every run."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.floor.models import Misdeal, Penalty
from brag_event.floor.services import hand_misdeal, ruling_record
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_apply_action
from brag_event.ledger.models import Transfer
from brag_event.tables.models import Seat

from .floor import SETTLING, act, floor, one_to_settle, problems
from .harness import interleave, race

# slow: races on PostgreSQL
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

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


# ---------------------------------------------------------------------------- disqualification
#
# The floor disqualifies Andy (seat 1) while the dealer enters the action that settles the
# hand: in the betting, Andy's own fold; after Andy saw Chris, Chris's shown cards (Andy's are
# still to come). A ruling names no sequence — it stands whatever the hand's state — so it
# always goes through; the dealer's entry goes through only if it came first, and is otherwise
# refused with a clean ``409 stale_sequence`` (the floor's fold moved the hand on and settled
# it). Either way Andy is out of the hand once, his stack leaves once, Chris wins the same pot.

MOMENTS = {
    # moment: (the dealer's entry, Andy's stack when he leaves, Chris's stack at the end)
    "betting": (SETTLING, 195, 200 - 10 + 20),
    "showing": ({"seat": 3, "action": "show", "cards": "As Ks Qs"}, 185, 200 - 10 + 30),
}


def at(f: Any, moment: str) -> Hand:
    hand = one_to_settle(f)
    if moment == "showing":
        act(hand.pk, seat=1, action="look")
        hand = act(hand.pk, seat=1, action="see", amount=10)
        assert hand_state(hand).cards_needed == [3, 1]
    return hand


def disqualify(f: Any) -> Any:
    def job() -> Any:
        andy = f.player("Andy")
        ruling = ruling_record(
            table=f.t1.pk,
            what_happened="showed his cards to his neighbour",
            decision="disqualified",
            players=[andy.pk],
            penalty="disqualified",
            by=None,
        )
        return ruling.pk

    return job


def entry(hand_id: int, seq: int, moment: str) -> Any:
    return lambda: (
        hand_apply_action(hand=hand_id, action=MOMENTS[moment][0], expected_seq=seq, by=None)[
            0
        ].status
    )


def _disqualified_once(f: Any, hand: Hand, moment: str, dealer_first: bool) -> None:
    found = problems(f.event)
    assert not found, "\n".join(found)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert Penalty.objects.filter(player__event=f.event, kind="disqualified").count() == 1
    assert hand.actions.filter(action="disqualify").count() == (
        0 if dealer_first and moment == "betting" else 1
    )
    assert hand.actions.filter(action="fold", seat=1).count() == (
        1 if dealer_first and moment == "betting" else 0
    )
    _entry, andy_stack, chris_stack = MOMENTS[moment]
    andy = Seat.objects.get(player__event=f.event, player__name="Andy")
    assert andy.left_at is not None
    leaves = Transfer.objects.filter(kind=Transfer.Kind.LEAVE, source__seat=andy)
    assert [t.amount for t in leaves] == [andy_stack]
    assert f.seat("Chris").stack == chris_stack
    assert [p["winners"] for p in hand.result["pots"]] == [[3]]


@pytest.mark.parametrize("moment", sorted(MOMENTS))
@pytest.mark.parametrize("disqualify_first", [True, False])
def test_a_disqualification_against_an_action_forced_both_ways(
    disqualify_first: bool, moment: str
) -> None:
    f = floor()
    hand = at(f, moment)
    jobs = (disqualify(f), entry(hand.pk, hand.next_seq, moment))
    first, second = jobs if disqualify_first else jobs[::-1]
    outcomes, _seen = interleave(first, second, after=HAND_LOCK)
    ruled, dealt = outcomes if disqualify_first else outcomes[::-1]
    assert ruled.kind == "ok", outcomes
    if disqualify_first:
        assert dealt.kind == "refused" and dealt.value == "stale_sequence", outcomes
    else:
        assert dealt.kind == "ok", outcomes
    _disqualified_once(f, hand, moment, dealer_first=not disqualify_first)


@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_a_disqualification_against_an_action_at_the_same_instant(moment: str) -> None:
    f = floor()
    hand = at(f, moment)
    ruled, dealt = race(disqualify(f), entry(hand.pk, hand.next_seq, moment))
    assert ruled.kind == "ok", (ruled, dealt)
    assert dealt.kind == "ok" or (dealt.kind, dealt.value) == ("refused", "stale_sequence")
    _disqualified_once(f, hand, moment, dealer_first=dealt.kind == "ok")
