"""The ledger audit's named checks: each catches its own kind of tampering; the replay streams
(no query per hand); the periodic check replays only new or changed hands, while a full audit
replays them all."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from brag_event.hands.models import Hand
from brag_event.hands.services import hand_void_last_action
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.checks import ledger_check_run
from brag_event.ledger.models import Account, AuditedHand, Transfer
from brag_event.ledger.services import (
    account_pot,
    account_stack,
    transfer_post,
    transfer_reverse,
)
from brag_event.players.services import player_register
from brag_event.tables.services import seat_buy_in, table_create
from tests.factories import World, act, assert_audit_ok, start, world

pytestmark = pytest.mark.django_db


def settled_hand(w: World) -> Hand:
    """The seat after the dealer looks and bets, everyone else folds: that seat takes the pot."""
    hand = start(w)
    n = len(w.seats)
    first, *others = [(hand.dealer_seat + i) % n + 1 for i in range(n)]
    act(hand, seat=first, action="look")
    act(hand, seat=first, action="bet", amount=10)
    for seat in others:
        hand, state = act(hand, seat=seat, action="fold")
    assert state.outcome is not None and hand.status == Hand.Status.SETTLED
    return hand


def failed(report: Any) -> list[str]:
    return [c.name for c in report.checks if not c.ok]


def test_every_check_is_named_and_passes_on_honest_money() -> None:
    w = world(3)
    settled_hand(w)
    start(w)
    report = ledger_audit(event=w.event)
    assert [c.name for c in report.checks] == [
        "transfers balance",
        "money is conserved",
        "cached balances match",
        "pot transfers name their hand",
        "money record is intact",
        "settled hands' pots are empty",
        "hands replay to their transfers",
        "hand records are intact",
        "closes kept their count",
        "standings are on the record",
    ]
    assert report.ok, "\n".join(report.lines())
    said = {c.name: c.detail for c in report.checks}
    assert "2 hands replayed" in said["hands replay to their transfers"]
    assert "2 hands' records recomputed" in said["hand records are intact"]


def test_a_reversal_that_does_not_mirror_is_caught() -> None:
    w = world(2)
    original = Transfer.objects.filter(kind="buy_in").first()
    assert original is not None
    # A "reversal" of a buy-in that gives back more than was paid in.
    Transfer.objects.create(
        event=w.event,
        kind="reversal",
        source=original.target,
        target=original.source,
        amount=original.amount + 1,
        reverses=original,
    )
    report = ledger_audit(event=w.event)
    assert "transfers balance" in failed(report)
    assert any("does not mirror" in p for p in report.problems)


def test_money_put_into_a_settled_hands_pot_is_caught() -> None:
    w = world(3)
    hand = settled_hand(w)
    # Posted on the hand, from seat 3's stack: the replay and the settled pot both disagree.
    transfer_post(
        kind="bet",
        source=account_stack(w.seat(3)),
        target=account_pot(hand, 0),
        amount=5,
        hand=hand,
    )
    report = ledger_audit(event=w.event)
    assert set(failed(report)) == {
        "settled hands' pots are empty",
        "hands replay to their transfers",
    }
    assert any("still holds 5" in p for p in report.problems)


def test_a_pot_transfer_posted_on_another_hand_is_caught() -> None:
    w = world(3)
    first = settled_hand(w)
    second = start(w)
    act(second, seat=3, action="look")
    # Money moved into the first hand's pot but booked on the second hand, and then out again
    # (so no pot is left holding anything): only the booking is wrong.
    stack = account_stack(w.seat(3))
    transfer_post(kind="bet", source=stack, target=account_pot(first, 0), amount=5, hand=second)
    transfer_post(kind="pot_won", source=account_pot(first, 0), target=stack, amount=5, hand=second)
    report = ledger_audit(event=w.event)
    assert "pot transfers name their hand" in failed(report)
    assert any("names hand" in p for p in report.problems)


def test_a_stack_of_another_table_never_passes_for_this_hands_seat() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    hand, _state = act(hand, seat=2, action="bet", amount=10)
    # Swap the source of seat 2's bet for the same-numbered seat at another table: the old audit
    # compared seat numbers only, so this passed for seat 2's own money.
    other = table_create(day=w.day, by=None)
    player = player_register(event=w.event, name="Gus", starting_money=1000, by=None)
    other_seat = seat_buy_in(table=other, seat_number=2, player=player, amount=100, by=None)
    bet = Transfer.objects.get(hand=hand, kind="bet")
    transfer_reverse(transfer=bet, by=None, memo="test: replace the source")
    transfer_post(
        kind="bet",
        source=account_stack(other_seat),
        target=account_pot(hand, 0),
        amount=10,
        hand=hand,
    )
    report = ledger_audit(event=w.event)
    assert failed(report) == ["hands replay to their transfers"]
    assert any("stack of another table" in p for p in report.problems)


def test_the_replay_makes_no_query_per_hand() -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert ledger_audit(event=w.event).ok
        return len(captured.captured_queries)

    w = world(3)
    settled_hand(w)
    one = queries()
    for _ in range(4):
        settled_hand(w)
    assert Hand.objects.count() == 5
    assert queries() == one


def test_the_periodic_check_replays_only_new_or_changed_hands() -> None:
    w = world(3)
    first = settled_hand(w)
    check = ledger_check_run(event=w.event)
    assert check.ok and any("1 hand replayed (0 settled" in line for line in check.lines)
    assert AuditedHand.objects.filter(hand=first).exists()

    second = settled_hand(w)
    third = start(w)
    check = ledger_check_run(event=w.event)
    # The second (new, settled) and third (in play) hands replay; the first does not.
    assert check.ok and any("2 hands replayed (1 settled" in line for line in check.lines)
    assert set(AuditedHand.objects.values_list("hand", flat=True)) == {first.pk, second.pk}
    assert not AuditedHand.objects.filter(hand=third).exists()

    # Money posted on the second (settled, recorded) hand changes its fingerprint: replayed.
    transfer_post(
        kind="bet",
        source=account_stack(w.seat(1)),
        target=account_pot(second, 0),
        amount=5,
        hand=second,
    )
    check = ledger_check_run(event=w.event)
    assert not check.ok
    assert any(
        f"Hand {second.number} at table" in line and "differs" in line for line in check.lines
    )
    # It failed, so it is not recorded as clean: the next periodic check replays it again.
    check = ledger_check_run(event=w.event)
    assert not check.ok and any("2 hands replayed (1 settled" in line for line in check.lines)


def test_a_voided_settled_hand_is_replayed_again() -> None:
    w = world(3)
    hand = settled_hand(w)
    assert ledger_check_run(event=w.event).ok
    before = AuditedHand.objects.get(hand=hand).next_seq
    hand_void_last_action(hand=hand, reason="wrong seat folded", by=None)
    check = ledger_check_run(event=w.event)
    assert check.ok and any("1 hand replayed (0 settled" in line for line in check.lines)
    act(hand, seat=1, action="fold")
    check = ledger_check_run(event=w.event)
    assert check.ok and any("1 hand replayed (0 settled" in line for line in check.lines)
    assert AuditedHand.objects.get(hand=hand).next_seq == before + 2  # the void and the fold
    assert_audit_ok(w.event)


def test_a_full_check_replays_every_hand() -> None:
    w = world(3)
    settled_hand(w)
    settled_hand(w)
    assert ledger_check_run(event=w.event).ok
    check = ledger_check_run(event=w.event, full=True)
    assert check.ok and any("2 hands replayed" in line for line in check.lines)
    assert not any("unchanged" in line for line in check.lines)
    assert ledger_check_run(event=w.event).lines != check.lines


def test_a_day_scoped_audit_checks_that_days_hands_only() -> None:
    w = world(3)
    settled_hand(w)
    report = ledger_audit(event=w.event, day=w.day)
    assert report.ok and "1 hand replayed" in next(
        c.detail for c in report.checks if c.name == "hands replay to their transfers"
    )
    day2 = w.event.days.get(number=2)
    report = ledger_audit(event=w.event, day=day2)
    assert report.ok and "0 hands replayed" in next(
        c.detail for c in report.checks if c.name == "hands replay to their transfers"
    )
    assert Account.objects.filter(kind="pot").count() == 1


def test_many_changed_hands_are_read_from_the_whole_event_and_the_others_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from brag_event.hands import audit

    monkeypatch.setattr(audit, "MANY_CHANGED", 1)  # more than one changed hand counts as many
    w = world(3)
    hands = [settled_hand(w) for _ in range(3)]
    check = ledger_check_run(event=w.event)
    assert check.ok and any("3 hands replayed (0 settled" in line for line in check.lines)
    transfer_post(
        kind="bet",
        source=account_stack(w.seat(1)),
        target=account_pot(hands[1], 0),
        amount=5,
        hand=hands[1],
    )
    fourth = settled_hand(w)
    check = ledger_check_run(event=w.event)  # two changed: the tampered hand and the new one
    assert not check.ok and any("2 hands replayed (2 settled" in line for line in check.lines)
    assert any(f"Hand {hands[1].number} at table" in line for line in check.lines)
    assert AuditedHand.objects.filter(hand=fourth).exists()
