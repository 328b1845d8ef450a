"""The dealer's own correction at the table (``hand_take_back``): the last entry of the hand in
play, before anything else is entered, voided exactly as a supervisor's undo voids it —
reversing entries, a void on the hand's record, the audit log, the integrity monitor's counts.
Anything further back, a settled hand or someone else's entry stays the supervisor's."""

from __future__ import annotations

import pytest

from brag_event.audit.models import AuditEntry
from brag_event.core.actors import Actor
from brag_event.core.errors import Forbidden, ServiceError
from brag_event.hands import chain
from brag_event.hands.models import ActionVoid, Hand, HandAction
from brag_event.hands.services import hand_start, hand_take_back, hand_void_last_action
from brag_event.integrity.selectors import event_data
from brag_event.ledger.models import Transfer
from tests.factories import World, act, assert_audit_ok, start, user_in, world

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, int, int, int]:
    return (
        HandAction.objects.count(),
        Transfer.objects.count(),
        ActionVoid.objects.count(),
        AuditEntry.objects.filter(verb="hand.void").count(),
    )


def test_a_dealer_takes_back_their_own_last_entry_with_reversing_entries() -> None:
    w = world(3)
    dealer = Actor(user_in("dealer"), "tablet 1")
    hand = start(w)  # seat 1 deals: seat 2 speaks first
    act(hand, by=dealer, seat=2, action="look")
    hand, _ = act(hand, by=dealer, seat=2, action="bet", amount=20)
    assert w.seat(2).stack == 175
    hand, state = hand_take_back(
        hand=hand, reason="wrong_amount", expected_seq=hand.next_seq, by=dealer
    )
    assert state.to_act == 2 and state.stake == 0  # the look stays, the bet is gone
    assert w.seat(2).stack == 195
    bet = Transfer.objects.get(kind="bet")
    assert Transfer.objects.get(kind="reversal").reverses == bet
    void = ActionVoid.objects.get()
    assert void.reason == "wrong amount (taken back at the table)"
    assert void.voided_by == dealer.user and void.action.action == "bet"
    entry = AuditEntry.objects.get(verb="hand.void")
    assert entry.data["at_table"] == "wrong_amount" and entry.actor == dealer.user
    (chained,) = chain.chains(Hand.objects.filter(pk=hand.pk))  # the void is on its record
    assert chained.problems == [] and [e[1] for e in chained.entries] == [1, 2, 3]
    act(hand, by=dealer, seat=2, action="bet", amount=10)  # re-entered as it was
    assert_audit_ok(w.event)


def test_the_take_back_counts_in_the_integrity_monitors_dealer_counts() -> None:
    w = world(2)
    dealer = Actor(user_in("dealer"), "tablet 1")
    hand = hand_start_by(w, dealer)
    act(hand, by=dealer, seat=2, action="fold")  # settles: seat 1 wins
    hand_void_last_action(hand=hand, reason="misheard", by=None)  # reopened by the floor
    hand, _ = act(hand, by=dealer, seat=2, action="look")
    hand_take_back(hand=hand, reason="wrong_seat", by=dealer)
    act(hand, by=dealer, seat=2, action="fold")
    events = [(e.dealer, e.kind) for e in event_data(w.event).dealer_events]
    assert events.count((dealer.user.pk, "voids")) == 2  # the floor's and the dealer's own
    assert_audit_ok(w.event)


def hand_start_by(w: World, by: Actor) -> Hand:
    return hand_start(table=w.table, by=by)


def test_two_actions_back_a_settled_hand_and_another_persons_entry_are_the_supervisors() -> None:
    w = world(3)
    dealer = Actor(user_in("dealer"), "tablet 1")
    hand = start(w)
    act(hand, by=dealer, seat=2, action="look")
    hand, _ = act(hand, by=dealer, seat=2, action="bet", amount=10)
    hand_take_back(hand=hand, reason="wrong_action", by=dealer)
    before = counts()
    with pytest.raises(Forbidden) as err:  # the look, now two entries back
        hand_take_back(hand=hand, reason="wrong_action", by=dealer)
    assert err.value.code == "earlier_entry_supervisor_only"
    assert "supervisor" in err.value.message
    assert counts() == before
    # Someone else's entry (a supervisor's, another dealer's tablet).
    hand, _ = act(hand, by=Actor(user_in("supervisor"), "floor"), seat=2, action="bet", amount=10)
    with pytest.raises(Forbidden) as err:
        hand_take_back(hand=hand, reason="other", by=dealer)
    assert err.value.code == "not_your_entry"
    # ... which a supervisor's tablet may take back.
    hand_take_back(hand=hand, reason="other", by=dealer, anyones=True)
    # A settled hand.
    hand, _ = act(hand, by=dealer, seat=2, action="fold")
    hand, _ = act(hand, by=dealer, seat=3, action="fold")
    assert hand.status == Hand.Status.SETTLED
    before = counts()
    with pytest.raises(Forbidden) as err:
        hand_take_back(hand=hand, reason="wrong_seat", by=dealer)
    assert err.value.code == "hand_settled_supervisor_only"
    assert counts() == before
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    assert_audit_ok(w.event)


def test_a_reason_from_the_list_and_an_up_to_date_screen() -> None:
    w = world(2)
    dealer = Actor(user_in("dealer"), "tablet 1")
    hand = start(w)
    hand, _ = act(hand, by=dealer, seat=2, action="look")
    before = counts()
    for reason in ("", "because", "Wrong seat"):
        with pytest.raises(ServiceError) as err:
            hand_take_back(hand=hand, reason=reason, by=dealer)
        assert err.value.code == "invalid_reason"
        assert "wrong seat, wrong amount, wrong action, other" in err.value.message
    with pytest.raises(ServiceError) as err:
        hand_take_back(hand=hand, reason="other", expected_seq=hand.next_seq - 1, by=dealer)
    assert err.value.code == "stale_sequence"
    assert counts() == before
    empty = world(2, name="OTHER")
    with pytest.raises(ServiceError) as err:
        hand_take_back(hand=start(empty), reason="other", by=dealer)
    assert err.value.code == "nothing_to_void"
