"""A tablet's write really commits here (no test transaction around it): the action's writes
and its idempotency record commit together, or not at all. Retries, races and refusals must
behave exactly as in the other API tests: nothing doubled, nothing half-written."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import IntegrityError, connection, connections
from django.test.utils import CaptureQueriesContext

from brag_event.api.models import IdempotencyRecord
from brag_event.core.errors import StaleHand
from brag_event.core.transactions import owned_transaction
from brag_event.hands import statements
from brag_event.hands.models import Hand, HandAction
from brag_event.hands.services import _write
from brag_event.ledger.models import Transfer
from tests.factories import assert_audit_ok

from .conftest import Api, post
from .conftest import start_hand as start_hand_with

# Real transactions on their own connections: each test empties every table afterwards (a
# second or two each), so the module is `slow` (not in make test-fast; make test runs it).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_idempotency_record_is_the_last_write_before_the_commit(api: Api) -> None:
    hand = start_hand_with(api, key="s")  # through the owned transaction too
    url = f"/api/v1/hands/{hand['id']}/actions/"
    body = {"seat": 2, "action": "bet", "amount": 5, "expected_seq": hand["next_seq"]}
    with CaptureQueriesContext(connection) as queries:
        first = post(api.client("dealer"), url, body, key="c-1")
    assert first.status_code == 201, first.json()
    run = [q["sql"] for q in queries]
    claims = [i for i, q in enumerate(run) if q.startswith('INSERT INTO "api_idempotencyrecord"')]
    assert len(claims) == 1
    # The record is written last, with the answer; after it only the COMMIT (if logged), then
    # what runs once committed: the table's answer kept in the cache (a database cache in the
    # tests: its own statements, in a transaction of their own).
    after = run[claims[0] + 1 :]
    assert after[:1] in ([], ["COMMIT"])
    assert all(q in ("BEGIN", "COMMIT") or '"brag_cache"' in q for q in after[1:]), after
    assert not connection.in_atomic_block and connection.get_autocommit()
    # Committed: another connection sees the action, its money and the record.
    assert HandAction.objects.filter(hand_id=hand["id"]).count() == 1
    assert Transfer.objects.filter(kind="bet").count() == 1
    assert IdempotencyRecord.objects.filter(key="c-1").count() == 1
    again = post(api.client("dealer"), url, body, key="c-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert HandAction.objects.filter(hand_id=hand["id"]).count() == 1
    reused = post(api.client("dealer"), url, {**body, "amount": 6}, key="c-1")
    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"
    assert_audit_ok(api.world.event)


def test_a_stale_screen_writes_nothing_and_its_refusal_is_replayed(api: Api) -> None:
    hand = start_hand_with(api, key="s")  # through the owned transaction too
    url = f"/api/v1/hands/{hand['id']}/actions/"
    ok = post(api.client("dealer"), url, {"seat": 2, "action": "look", "expected_seq": 1}, "a")
    assert ok.status_code == 201
    body = {"seat": 2, "action": "bet", "amount": 5, "expected_seq": 1}
    stale = post(api.client("dealer"), url, body, key="b")
    assert stale.status_code == 409
    assert stale.json()["error"]["details"]["hand"]["next_seq"] == 2
    again = post(api.client("dealer"), url, body, key="b")
    assert again.status_code == 409 and again["Idempotent-Replayed"] == "true"
    assert HandAction.objects.filter(hand_id=hand["id"]).count() == 1
    assert_audit_ok(api.world.event)


def race(*jobs: Any) -> list[Any]:
    barrier = threading.Barrier(len(jobs))
    out: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            out[i] = jobs[i]()
        except Exception as err:  # reported by the assertions
            out[i] = err
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return out


@pytest.fixture
def postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers are tested on PostgreSQL (SQLite serialises them)")


def race_the_first_bet(api: Api, *senders: tuple[Any, str]) -> list[Any]:
    """Start a hand and send its first action (seat 2 bets 5) from each ``(client, key)`` at
    once; the bet must be entered once, its money once, the audit clean. The answers, in order."""
    hand = start_hand_with(api, key="s")  # through the owned transaction too
    url = f"/api/v1/hands/{hand['id']}/actions/"
    body = {"seat": 2, "action": "bet", "amount": 5, "expected_seq": 1}
    results = race(*[lambda c=c, k=k: post(c, url, body, key=k) for c, k in senders])
    assert HandAction.objects.filter(hand_id=hand["id"]).count() == 1, results
    assert Transfer.objects.filter(kind="bet").count() == 1
    assert_audit_ok(api.world.event)
    return results


@pytest.mark.parametrize("round_", range(3))
def test_one_key_sent_twice_at_once_is_entered_once(
    api: Api, postgresql_only: None, round_: int
) -> None:
    client = api.client("dealer")
    results = race_the_first_bet(api, *[(client, f"twin-{round_}")] * 2)
    statuses = sorted(r.status_code for r in results)
    assert statuses == [201, 201], results
    assert results[0].json() == results[1].json()
    assert sorted(r.get("Idempotent-Replayed", "") for r in results) == ["", "true"]


@pytest.mark.parametrize("round_", range(3))
def test_two_tablets_with_the_same_sequence_one_wins_one_is_told(
    api: Api, postgresql_only: None, round_: int
) -> None:
    dealer, supervisor = api.client("dealer"), api.client("supervisor")
    results = race_the_first_bet(api, (dealer, f"d-{round_}"), (supervisor, f"s-{round_}"))
    assert sorted(r.status_code for r in results) == [201, 409], results


def test_a_violation_of_the_action_sequence_becomes_the_stale_answer_and_keeps_nothing(
    api: Api,
) -> None:
    hand = start_hand_with(api, key="s")  # through the owned transaction too
    url = f"/api/v1/hands/{hand['id']}/actions/"
    look = {"seat": 2, "action": "look", "expected_seq": 1}
    assert post(api.client("dealer"), url, look).status_code == 201
    existing = HandAction.objects.get(hand_id=hand["id"])
    insert, _row = statements.insert_action(
        hand_id=hand["id"],
        seq=existing.seq,  # taken: the (hand, seq) constraint fails
        seat=3,
        action="look",
        amount=None,
        hand_choice="",
        cards="",
        entered_by_id=None,
        device="",
        digest="",
    )
    bump = ("UPDATE hands_hand SET next_seq = next_seq + 100 WHERE id = %s", [hand["id"]])
    with pytest.raises(StaleHand) as stale, owned_transaction():
        _write([bump, insert], hand_id=hand["id"], seq=existing.seq)
    assert stale.value.details["expected_seq"] == existing.seq + 1
    assert not connection.in_atomic_block
    assert HandAction.objects.filter(hand_id=hand["id"]).count() == 1
    assert Hand.objects.get(pk=hand["id"]).next_seq == existing.seq + 1  # the bump is undone
    if connection.vendor != "postgresql":
        return  # SQLite does not name the constraint: any violation counts
    # Another constraint is not taken for that one: the IntegrityError itself comes out.
    other = (
        "INSERT INTO api_idempotencyrecord (user_id, key, method, path, fingerprint, "
        "status_code, created_at) VALUES (%s, '', 'POST', '/', '', 0, now()) RETURNING id",
        [api.users["dealer"].pk],
    )
    with pytest.raises(IntegrityError), owned_transaction():
        _write([other], hand_id=hand["id"], seq=existing.seq)
    assert HandAction.objects.filter(hand_id=hand["id"]).count() == 1
