"""Two tablets racing: threads with their own PostgreSQL connections act on one hand at once.
Exactly one wins; the other gets a clean conflict; nothing is entered twice."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from brag_event.core.errors import Conflict, ServiceError
from brag_event.hands.models import Hand, HandAction
from brag_event.hands.services import hand_apply_action
from brag_event.ledger.models import Transfer
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_buy_in, table_create
from tests.factories import assert_audit_ok, start, world

# Real transactions on their own connections: each test empties every table afterwards (a
# second or two each), so the module is `slow` (not in make test-fast; make test runs it).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("the concurrency tests must run on PostgreSQL in CI")
        pytest.skip("row locks are tested on PostgreSQL (set DATABASE_URL)")


def race(*jobs: Callable[[], Any]) -> list[tuple[str, Any]]:
    barrier = threading.Barrier(len(jobs))
    results: list[tuple[str, Any]] = []
    lock = threading.Lock()

    def run(job: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            value = job()
            outcome: tuple[str, Any] = ("ok", value)
        except Conflict as err:
            outcome = ("conflict", err.code)
        except ServiceError as err:
            outcome = ("error", err.code)
        except Exception as err:  # pragma: no cover - reported by the assertion below
            outcome = ("crash", repr(err))
        finally:
            connections.close_all()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


def apply(hand_id: int, action: dict[str, Any], seq: int) -> Callable[[], int]:
    def job() -> int:
        hand = Hand.objects.get(pk=hand_id)
        _hand, row, _state = hand_apply_action(hand=hand, action=action, expected_seq=seq, by=None)
        return row.seq

    return job


@pytest.mark.parametrize("round_", range(5))
def test_the_same_action_from_two_tablets_is_entered_once(round_: int) -> None:
    w = world(3, name=f"Race {round_}")
    hand = start(w)
    bet = {"seat": 2, "action": "bet", "amount": 5}
    results = race(apply(hand.pk, bet, 1), apply(hand.pk, bet, 1))
    assert sorted(r[0] for r in results) == ["conflict", "ok"], results
    assert ("conflict", "stale_sequence") in results
    assert HandAction.objects.filter(hand=hand).count() == 1
    assert Transfer.objects.filter(hand=hand, kind="bet").count() == 1
    assert_audit_ok(w.event)


def test_two_different_actions_on_the_same_state_one_wins() -> None:
    w = world(3)
    hand = start(w)
    results = race(
        apply(hand.pk, {"seat": 2, "action": "bet", "amount": 5}, 1),
        apply(hand.pk, {"seat": 2, "action": "fold"}, 1),
    )
    assert sorted(r[0] for r in results) == ["conflict", "ok"], results
    hand.refresh_from_db()
    assert hand.next_seq == 2
    assert_audit_ok(w.event)


def test_one_player_bought_in_at_two_tables_at_once_sits_once() -> None:
    w = world(2)
    newcomer = player_register(event=w.event, name="Zed", starting_money=1000, by=None)
    other = table_create(day=w.day, by=None)

    def buy(table_id: int) -> int:
        from brag_event.tables.models import Table

        seat = seat_buy_in(
            table=Table.objects.get(pk=table_id),
            seat_number=5,
            player=newcomer,
            amount=100,
            by=None,
        )
        return seat.pk

    results = race(lambda: buy(w.table.pk), lambda: buy(other.pk))
    assert sorted(r[0] for r in results) == ["conflict", "ok"], results
    assert Seat.objects.filter(player=newcomer, left_at__isnull=True).count() == 1
    newcomer.refresh_from_db()
    assert newcomer.balance == 1000 - 110
    assert_audit_ok(w.event)


def test_a_tablet_that_waited_for_the_lock_sees_the_action_it_waited_for() -> None:
    """``lock_hand`` reads the hand and its log in one statement; a statement that had to wait
    for another device's action has an older snapshot, and must not replay without it."""
    from django.db import transaction

    from brag_event.hands import statements

    w = world(3)
    hand = start(w)
    entered, release = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}

    def first() -> None:
        try:
            with transaction.atomic():
                hand_apply_action(
                    hand=hand.pk, action={"seat": 2, "action": "look"}, expected_seq=1, by=None
                )
                entered.set()
                release.wait(timeout=10)
        finally:
            connections.close_all()

    def second() -> None:
        try:
            with transaction.atomic():
                found = statements.lock_hand(hand.pk, None)
                assert found is not None
                seen["next_seq"], seen["log"] = found[0].next_seq, found[1]
        finally:
            connections.close_all()

    a = threading.Thread(target=first)
    a.start()
    assert entered.wait(timeout=10)
    b = threading.Thread(target=second)
    b.start()
    waited = False
    for _ in range(100):  # the second reader is blocked on the hand's row lock
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            waited = cursor.fetchone()[0] == 1
        if waited:
            break
        threading.Event().wait(0.05)
    release.set()
    a.join(timeout=10)
    b.join(timeout=10)
    assert waited, "the second reader never waited for the lock"
    assert seen["next_seq"] == 2
    assert [(r[0], r[2]) for r in seen["log"]] == [(1, "look")]
