"""A large pot's second confirmation (issue 31): the day's amount, an award at or above it waiting
for a second member of staff (a supervisor or organiser of the event who did not enter the hand),
the next hand refused until then, the confirmation on the hand's record and in the audit log —
and the ledger audit passing in every state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from brag_event.access.models import StaffRole
from brag_event.audit.models import AuditEntry, Verb
from brag_event.closing.services import day_close_request
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.engine.chain import Tampered, verify_day
from brag_event.events.models import Day
from brag_event.events.services import day_update_rules, event_create_flash
from brag_event.events.setup import day_rules_copy
from brag_event.floor.models import AwardConfirmation
from brag_event.floor.services import hand_award_confirm
from brag_event.hands import chain
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_start, hand_void_last_action
from brag_event.ledger.audit import ledger_audit
from brag_event.organiser.audit_words import Names, audit_sentence
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_leave
from tests.factories import World, act, assert_audit_ok, disqualify, refused, user_in, world
from tests.integrity.test_record import RECORDS, _export, _insider, failed

pytestmark = pytest.mark.django_db


def _play(w: World, by: Actor) -> Hand:
    """Seat 2 (Bill) looks and bets 10, the others fold: Bill wins the pot of 25 (antes 3 × 5,
    his 10). Every entry is the dealer's."""
    hand = hand_start(table=w.table, by=by)
    act(hand, by=by, seat=2, action="look")
    act(hand, by=by, seat=2, action="bet", amount=10)
    act(hand, by=by, seat=3, action="fold")
    hand, state = act(hand, by=by, seat=1, action="fold")
    assert state.is_settled and hand.result is not None
    assert [p["shares"] for p in hand.result["pots"]] == [{"2": 25}]
    return hand


def _with_threshold(amount: int | None) -> tuple[World, Actor, Actor]:
    w = world(3)
    day_update_rules(day=w.day, changes={"award_confirm_from": amount}, by=None)
    w.day.refresh_from_db()
    dealer = Actor(user_in("dealer", "dee"), "tablet 1")
    supervisor = Actor(user_in("supervisor", "sue"), "sue's phone")
    return w, dealer, supervisor


def test_a_pot_above_the_amount_waits_and_the_next_hand_is_refused_until_it_is_confirmed() -> None:
    w, dealer, supervisor = _with_threshold(20)
    hand = _play(w, dealer)
    award = AwardConfirmation.objects.get(hand=hand)
    assert award.status == "waiting" and award.amount == 25 and award.threshold == 20
    assert award.words == "Pot of 25 to Bill" and award.entered_by_id == dealer.user_id
    # Settled in the record, the money moved: the audit passes while it waits.
    assert hand.status == Hand.Status.SETTLED and w.seat(2).stack == 210
    assert_audit_ok(w.event)
    err = refused("award_unconfirmed", lambda: hand_start(table=w.table, by=dealer))
    assert "Pot of 25 to Bill waits for a second member of staff" in err.message
    assert err.status == 409 and err.details == {"hand": hand.pk, "amount": 25}
    # The pot stays at the table: nobody leaves, and the day does not close.
    gone = refused("award_unconfirmed", lambda: seat_leave(seat=w.seat(2), by=dealer))
    assert "Nobody leaves the table until" in gone.message
    closing = refused("award_unconfirmed", lambda: day_close_request(day=w.day, by=None))
    # The floor's disqualification still sends a player away (Chris, who folded).
    disqualify(w.table, w.players[2])
    assert Seat.objects.get(pk=w.seats[2].pk).left_at is not None
    assert closing.details == {"tables": [w.table.number]}
    assert Day.objects.get(pk=w.day.pk).status == Day.Status.OPEN

    confirmed = hand_award_confirm(hand=hand, by=supervisor)
    assert confirmed.status == "confirmed" and confirmed.confirmed_by_id == supervisor.user_id
    assert confirmed.where == "floor" and confirmed.device == "sue's phone"
    assert_audit_ok(w.event)
    nxt = hand_start(table=w.table, by=dealer)  # the table moves on
    assert nxt.number == hand.number + 1
    words = [
        audit_sentence(e, Names([e]))
        for e in AuditEntry.objects.filter(
            verb__in=[Verb.HAND_AWARD_WAITS, Verb.HAND_AWARD_CONFIRM]
        ).order_by("id")
    ]
    assert words == [
        "Settled with the pot of 25 to Bill, at or above the day's 20: it waits for a second "
        "member of staff to confirm it.",
        "Confirmed the pot of 25 to Bill, entered by dee, as second member of staff, on the "
        "floor board.",
    ]


def test_a_pot_equal_to_the_amount_waits_too() -> None:
    w, dealer, _supervisor = _with_threshold(25)
    hand = _play(w, dealer)
    assert AwardConfirmation.objects.get(hand=hand).status == "waiting"
    refused("award_unconfirmed", lambda: hand_start(table=w.table, by=dealer))


@pytest.mark.parametrize("amount", [26, None])
def test_below_the_amount_or_with_none_set_nothing_changes(amount: int | None) -> None:
    w, dealer, _supervisor = _with_threshold(amount)
    hand = _play(w, dealer)
    assert not AwardConfirmation.objects.exists()
    hand.refresh_from_db()
    assert hand_start(table=w.table, by=dealer).number == hand.number + 1
    assert not AuditEntry.objects.filter(verb=Verb.HAND_AWARD_WAITS).exists()


def test_the_dealer_who_entered_it_cannot_confirm_it_even_as_a_supervisor() -> None:
    w, _dealer, supervisor = _with_threshold(20)
    hand = _play(w, supervisor)  # a supervisor dealing: still the one who entered it
    err = refused("award_confirm_own_hand", lambda: hand_award_confirm(hand=hand, by=supervisor))
    assert err.status == 403 and "second member of staff" in err.message
    assert AwardConfirmation.objects.get(hand=hand).status == "waiting"
    assert Hand.objects.get(pk=hand.pk).next_seq == hand.next_seq  # nothing chained


def test_a_dealer_and_staff_of_another_event_are_refused() -> None:
    w, dealer, _supervisor = _with_threshold(20)
    hand = _play(w, dealer)
    other_dealer = Actor(user_in("dealer", "dan"), "tablet 2")
    assert (
        refused("forbidden", lambda: hand_award_confirm(hand=hand, by=other_dealer)).status == 403
    )
    other = event_create_flash(name="Other", starting_money=100, by=None)
    away = User.objects.create_user("away", password="x")
    StaffRole.objects.create(user=away, event=other, role="supervisor")
    refused("forbidden", lambda: hand_award_confirm(hand=hand, by=Actor(away, "phone")))
    here = User.objects.create_user("here", password="x")
    StaffRole.objects.create(user=here, event=w.event, role="supervisor")
    assert hand_award_confirm(hand=hand, by=Actor(here, "phone")).confirmed_by_id == here.pk


def test_confirming_twice_or_with_nothing_waiting_is_refused_in_words() -> None:
    w, dealer, supervisor = _with_threshold(20)
    hand = _play(w, dealer)
    hand_award_confirm(hand=hand, by=supervisor)
    again = refused("award_already_confirmed", lambda: hand_award_confirm(hand=hand, by=supervisor))
    assert again.status == 409 and "already confirmed by sue" in again.message
    assert AwardConfirmation.objects.filter(hand=hand).count() == 1
    # The amount raised: the next pot is under it, and nothing waits.
    day_update_rules(day=w.day, changes={"award_confirm_from": 100}, by=None)
    small = hand_start(table=w.table, by=dealer)
    while not hand_state(small).is_settled:
        small, _state = act(small, by=dealer, seat=hand_state(small).to_act, action="fold")
    refused("no_award_waiting", lambda: hand_award_confirm(hand=small, by=supervisor))
    refused("not_found", lambda: hand_award_confirm(hand=10**9, by=supervisor))


def test_undoing_the_settlement_withdraws_the_award_and_settling_again_asks_again() -> None:
    w, dealer, supervisor = _with_threshold(20)
    hand = _play(w, dealer)
    hand, _state = hand_void_last_action(hand=hand, reason="seat 1 did not fold", by=supervisor)
    assert AwardConfirmation.objects.get(hand=hand).status == "withdrawn"
    assert_audit_ok(w.event)
    hand, state = act(hand, by=dealer, seat=1, action="fold")
    assert state.is_settled
    assert list(
        AwardConfirmation.objects.filter(hand=hand).order_by("id").values_list("status", flat=True)
    ) == ["withdrawn", "waiting"]
    hand_award_confirm(hand=hand, by=supervisor)
    assert_audit_ok(w.event)


def test_the_confirmation_is_on_the_hands_record_and_tampering_with_it_is_caught() -> None:
    w, dealer, supervisor = _with_threshold(20)
    hand = _play(w, dealer)
    award = hand_award_confirm(hand=hand, by=supervisor)
    hand.refresh_from_db()
    assert award.seq == hand.next_seq - 1 and hand.chain_head == award.hash
    (chained,) = chain.chains(Hand.objects.filter(pk=hand.pk))
    assert chained.problems == []
    assert chained.entries[-1][2] == {
        "kind": "award_confirm",
        "seq": award.seq,
        "settled_by": award.settled_seq,
        "awards": [{"pot": 0, "amount": 25, "seats": [2], "players": ["Bill"]}],
        "confirmed_by": supervisor.user_id,
        "confirmed_at": award.confirmed_at.isoformat(),  # type: ignore[union-attr]
        "where": "floor",
    }
    assert_audit_ok(w.event)
    # Another confirmer written behind the application: the record no longer matches.
    other = user_in("supervisor", "mallory")
    _insider(
        "UPDATE floor_awardconfirmation SET confirmed_by_id = %s WHERE id = %s",
        [other.pk, award.pk],
    )
    report = ledger_audit(event=w.event)
    assert RECORDS in failed(report), "\n".join(report.lines())
    assert any(f"award_confirm seq {award.seq}" in p for p in report.problems), report.problems


def test_the_amount_is_checked_and_copied_to_the_days_after_with_the_rules() -> None:
    event = event_create_flash(name="Copy", starting_money=1000, by=None)
    day1, day2, day3 = event.days.order_by("number")
    for bad in (0, -5, "many", 10**13):
        err: Any = refused(
            "invalid_rules",
            lambda b=bad: day_update_rules(  # type: ignore[misc]
                day=day1, changes={"award_confirm_from": b}, by=None
            ),
        )
        assert err.details == {"field": "award_confirm_from"}
    day_update_rules(day=day1, changes={"award_confirm_from": 500}, by=None)
    copied = day_rules_copy(day=day1, by=None)
    assert [d.award_confirm_from for d in copied] == [500, 500]
    day3.refresh_from_db()
    assert day3.award_confirm_from == 500
    # The engine's rules are untouched by it: a hand's frozen rules never carry it.
    assert "award_confirm_from" not in day2.rules().to_dict()
    with pytest.raises(ServiceError):
        day_update_rules(day=day1, changes={"award_confirm_from": True}, by=None)


def test_a_closed_days_export_carries_the_confirmation_and_verify_catches_it_altered(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w, dealer, supervisor = _with_threshold(20)
    hand = _play(w, dealer)
    award = hand_award_confirm(hand=hand, by=supervisor)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    day = Day.objects.get(pk=w.day.pk)
    assert day.status == Day.Status.CLOSED
    lines = _export(day)
    assert verify_day(lines, day.record_root).hands == 1
    doc = json.loads(lines[0])
    (entry,) = [o for o in doc["others"] if o["kind"] == "award_confirm"]
    assert entry["seq"] == award.seq and entry["confirmed_by"] == supervisor.user_id
    entry["confirmed_by"] = dealer.user_id  # as if the dealer had confirmed their own pot
    with pytest.raises(Tampered):
        verify_day([json.dumps(doc), *lines[1:]], day.record_root)
