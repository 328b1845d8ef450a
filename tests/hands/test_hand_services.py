"""Hands through the services: frozen rules, engine validation, money posted, voids, refusals."""

from __future__ import annotations

import pytest

from brag_event.api.resources.state import table_view
from brag_event.audit.models import AuditEntry
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, ServiceError
from brag_event.events.models import DayRulesChange
from brag_event.events.services import day_update_rules
from brag_event.hands.models import ActionVoid, Hand, HandAction
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_apply_action, hand_start, hand_void_last_action
from brag_event.ledger.models import Transfer
from brag_event.tables.services import seat_sit_out
from tests.factories import act, assert_audit_ok, start, world

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, int, int]:
    return HandAction.objects.count(), Transfer.objects.count(), ActionVoid.objects.count()


def test_start_takes_antes_and_freezes_the_rules() -> None:
    w = world(3)
    hand = start(w)
    assert hand.number == 1 and hand.dealer_seat == 1
    assert hand.rules["ante"] == 5 and hand.rules["max_bet"] == 20
    assert [s.stack for s in (w.seat(1), w.seat(2), w.seat(3))] == [195, 195, 195]
    antes = Transfer.objects.filter(hand=hand, kind="ante")
    assert antes.count() == 3 and {t.amount for t in antes} == {5}
    assert_audit_ok(w.event)


def test_changing_the_days_rules_never_rewrites_a_started_hand() -> None:
    w = world(3)
    hand = start(w)
    day_update_rules(day=w.day, changes={"max_bet": 30}, reason="faster", by=None)
    assert DayRulesChange.objects.filter(day=w.day).count() == 1
    change = DayRulesChange.objects.get(day=w.day)
    assert (change.before["max_bet"], change.after["max_bet"]) == (20, 30)
    act(hand, seat=2, action="look")
    with pytest.raises(ServiceError) as err:
        act(hand, seat=2, action="bet", amount=30)  # this hand still has max_bet 20
    assert err.value.code == "bet_above_max"
    act(hand, seat=2, action="bet", amount=20)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")
    nxt = start(w)
    assert nxt.rules["max_bet"] == 30


def test_invalid_rule_changes_are_refused_with_the_field() -> None:
    w = world(2)
    with pytest.raises(ServiceError) as err:
        day_update_rules(day=w.day, changes={"min_bet": 50}, by=None)
    assert err.value.code == "invalid_rules" and err.value.details["field"] == "min_bet"
    with pytest.raises(ServiceError) as err:
        day_update_rules(day=w.day, changes={"table_min": 500}, by=None)
    assert err.value.details["field"] == "table_min"
    with pytest.raises(ServiceError) as err:
        day_update_rules(day=w.day, changes={"ante": -1}, by=None)
    assert err.value.details["field"] == "ante"
    w.day.refresh_from_db()
    assert (w.day.min_bet, w.day.table_min, w.day.ante) == (5, 90, 5)
    assert not DayRulesChange.objects.exists()


def test_an_illegal_action_writes_nothing() -> None:
    w = world(3)
    hand = start(w)
    before = counts()
    for action, code in (
        ({"seat": 3, "action": "bet", "amount": 5}, "not_your_turn"),
        ({"seat": 2, "action": "bet", "amount": 2}, "bet_below_min"),
        ({"seat": 2, "action": "see", "amount": 10}, "see_needs_two_players"),
        ({"seat": 2, "action": "raise", "amount": 10}, "unknown_action"),
        # The engine checks every field, once (the service only passes them on).
        ({"seat": "2", "action": "bet", "amount": 10}, "unknown_seat"),
        ({"seat": 2, "action": "bet", "amount": "10"}, "invalid_amount"),
        ({"seat": 2, "action": ["bet"], "amount": 10}, "unknown_action"),
        ({"seat": 9, "action": "fold"}, "unknown_seat"),
        ([], "invalid_action"),
    ):
        with pytest.raises(ServiceError) as err:
            hand_apply_action(hand=hand, action=action, expected_seq=1, by=None)  # type: ignore[arg-type]
        assert err.value.code == code
    assert counts() == before
    hand.refresh_from_db()
    assert hand.next_seq == 1
    assert_audit_ok(w.event)


def test_a_stale_sequence_is_a_conflict_and_writes_nothing() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="fold")
    before = counts()
    with pytest.raises(Conflict) as err:
        hand_apply_action(hand=hand, action={"seat": 3, "action": "fold"}, expected_seq=1, by=None)
    assert err.value.code == "stale_sequence" and err.value.details["expected_seq"] == 2
    assert err.value.status == 409
    assert counts() == before


def test_a_settled_hand_posts_winnings_and_moves_the_button() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    hand, _state = act(hand, seat=1, action="fold")
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert hand.result["pots"][0]["winners"] == [2]
    assert w.seat(2).stack == 195 - 10 + 25
    w.table.refresh_from_db()
    assert w.table.button == 2 and not w.table.shuffle_next
    assert Transfer.objects.filter(hand=hand, kind="pot_won").get().amount == 25
    assert start(w).dealer_seat == 2
    assert_audit_ok(w.event)


def test_a_blind_win_carries_the_pot_to_the_next_hand_with_two_hands() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="bet", amount=5)  # blind: stake 10
    act(hand, seat=3, action="fold")
    hand, state = act(hand, seat=1, action="fold")
    assert state.outcome is not None and state.outcome.carried_seat == 2
    w.table.refresh_from_db()
    assert (w.table.carried_pot, w.table.carried_seat) == (20, 2)
    nxt = start(w)
    assert nxt.carried_pot == 20 and nxt.carried_seat == 2
    state = hand_state(nxt)
    assert state.by_seat[2].hands == 2 and state.pot_total == 20 + 15
    w.table.refresh_from_db()
    assert w.table.carried_pot == 0
    assert_audit_ok(w.event)


def test_void_last_action_reverses_its_money_and_replays_without_it() -> None:
    w = world(3)
    supervisor = Actor(None, "floor tablet")
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    with pytest.raises(ServiceError) as err:
        hand_void_last_action(hand=hand, reason="  ", by=supervisor)
    assert err.value.code == "reason_required"
    hand, state = hand_void_last_action(hand=hand, reason="misheard amount", by=supervisor)
    assert state.stake == 0 and state.to_act == 2
    assert w.seat(2).stack == 195
    bet = Transfer.objects.get(kind="bet")
    assert Transfer.objects.get(kind="reversal").reverses == bet
    assert ActionVoid.objects.get().reason == "misheard amount"
    assert AuditEntry.objects.filter(verb="hand.void").exists()
    act(hand, seat=2, action="bet", amount=15)
    assert_audit_ok(w.event)


def test_voiding_the_settling_action_reopens_the_hand() -> None:
    w = world(2)
    hand = start(w)  # dealer 1: seat 2 first
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=1, action="look")
    hand, _ = act(hand, seat=1, action="fold")
    assert hand.status == Hand.Status.SETTLED
    hand, _state = hand_void_last_action(hand=hand, reason="folded by mistake", by=None)
    assert hand.status == Hand.Status.IN_PROGRESS and hand.result is None
    assert [w.seat(1).stack, w.seat(2).stack] == [195, 185]
    w.table.refresh_from_db()
    assert w.table.button == 1
    act(hand, seat=1, action="bet", amount=10)
    assert_audit_ok(w.event)


def test_void_is_refused_once_a_later_hand_started_or_with_nothing_to_void() -> None:
    w = world(2)
    hand = start(w)
    with pytest.raises(ServiceError) as err:
        hand_void_last_action(hand=hand, reason="x", by=None)
    assert err.value.code == "nothing_to_void"
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=1, action="fold")
    start(w)
    with pytest.raises(Conflict) as err2:
        hand_void_last_action(hand=hand, reason="late", by=None)
    assert err2.value.code == "newer_hand"


def test_one_live_hand_per_table() -> None:
    w = world(2)
    start(w)
    with pytest.raises(Conflict) as err:
        hand_start(table=w.table, by=None)
    assert err.value.code == "hand_in_progress"


def test_actions_record_who_entered_them_and_are_their_own_audit_record() -> None:
    from django.contrib.auth import get_user_model

    dealer = get_user_model().objects.create_user("dealer1", password="x")
    w = world(2)
    hand = start(w)
    act(hand, by=Actor(dealer, "tablet 3"), seat=2, action="look")
    row = HandAction.objects.get()
    # The action's own row is its audit record (who, from which device, when): the audit log
    # is not written twice for it. Starting the hand is in the audit log.
    assert row.entered_by == dealer and row.device == "tablet 3" and row.entered_at is not None
    assert not AuditEntry.objects.filter(verb="hand.action").exists()
    assert AuditEntry.objects.filter(verb="hand.start").count() == 1


def test_a_see_given_up_is_posted_like_any_action_and_the_ledger_follows() -> None:
    """RULES §3.6: Bill sees Cat, Cat's hand is shown, Bill gives up without showing."""
    w = world(3)
    hand = start(w)  # dealer seat 1: seat 2 acts first
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="look")
    act(hand, seat=3, action="bet", amount=10)
    act(hand, seat=1, action="fold")
    before = counts()
    with pytest.raises(ServiceError) as err:
        act(hand, seat=2, action="concede")
    assert err.value.code == "concede_not_now"
    assert counts() == before
    act(hand, seat=2, action="see", amount=20)
    with pytest.raises(ServiceError) as err:
        act(hand, seat=2, action="concede")  # Cat's hand is not shown yet
    assert err.value.code == "concede_too_early"
    act(hand, seat=3, cards="Kh Kd 4c", action="show")
    hand, state = act(hand, seat=2, action="concede")
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert hand.result["conceded"] == [2] and set(hand.result["shown"]) == {"3"}
    assert hand.result["pots"][0]["winners"] == [3]
    row = HandAction.objects.get(hand=hand, action="concede")
    assert (row.seat, row.amount, row.cards) == (2, None, "")
    pot = 15 + 10 + 10 + 20
    assert Transfer.objects.filter(hand=hand, kind="pot_won").get().amount == pot
    assert [w.seat(n).stack for n in (1, 2, 3)] == [195, 195 - 30, 195 - 10 + pot]
    assert_audit_ok(w.event)
    # A void takes the concession back, as any action: Bill may show instead.
    hand_void_last_action(hand=hand, reason="he meant to show", by=None)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.IN_PROGRESS
    hand, state = act(hand, seat=2, cards="As Ad 2c", action="show")
    assert state.outcome is not None and state.outcome.pots[0].winners == [2]
    assert_audit_ok(w.event)


def test_the_deal_passes_over_a_player_who_sits_out_at_the_button() -> None:
    """RULES §3.12 Decision: the button is seat 2's, who now sits out: seat 3 deals."""
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")
    w.table.refresh_from_db()
    assert w.table.button == 2
    seat_sit_out(seat=w.seat(2), sitting_out=True, by=None)
    assert table_view(w.table)["next_dealer"] == 3
    assert start(w).dealer_seat == 3
    assert_audit_ok(w.event)
