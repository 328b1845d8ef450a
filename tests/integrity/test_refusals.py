"""Refused entries are kept, per dealer, without changing what a refusal does: the refused
request's own transaction is rolled back whole (nothing of the entry is written), the record is
written after it, a replayed refusal is not counted twice, and an accepted action does not
pay for any of it. These requests really commit (no test transaction around them)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, InternalError, connection, transaction
from django.test.utils import CaptureQueriesContext

from brag_event.hands.models import HandAction
from brag_event.integrity.models import RefusedEntry
from brag_event.ledger.models import Transfer
from tests.api.conftest import Api, post, start_hand
from tests.factories import assert_audit_ok

pytestmark = pytest.mark.django_db(transaction=True)


def written(hand_id: int) -> tuple[int, int]:
    return (
        HandAction.objects.filter(hand_id=hand_id).count(),
        Transfer.objects.filter(hand_id=hand_id).exclude(kind="ante").count(),
    )


@pytest.mark.parametrize("key", [None, "k-refused"])
def test_a_refused_action_writes_nothing_but_its_record(api: Api, key: str | None) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    body = {"seat": 2, "action": "bet", "amount": 2, "expected_seq": 1}  # below the least bet
    response = post(api.client("dealer"), url, body, key=key)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bet_below_min"
    assert written(hand["id"]) == (0, 0)
    (record,) = RefusedEntry.objects.all()
    assert (record.hand_id, record.table_id, record.seq, record.action) == (
        hand["id"],
        api.world.table.pk,
        1,
        "bet",
    )
    assert (record.code, record.status, record.user) == ("bet_below_min", 400, api.users["dealer"])
    assert record.device.startswith("token:dealer tablet") and record.counts
    assert "least" in record.message or record.message
    if key:
        # The retry gets the same refusal back from the key; it is not a second refusal.
        again = post(api.client("dealer"), url, body, key=key)
        assert again.status_code == 400 and again["Idempotent-Replayed"] == "true"
        assert RefusedEntry.objects.count() == 1
    assert_audit_ok(api.world.event)


def test_wrong_cards_and_a_stale_screen_are_kept_apart(api: Api) -> None:
    hand = start_hand(api)
    dealer = api.client("dealer")
    url = f"/api/v1/hands/{hand['id']}/"
    assert post(dealer, url + "actions/", {"seat": 2, "action": "look", "expected_seq": 1}, "a")
    stale = post(dealer, url + "actions/", {"seat": 2, "action": "fold", "expected_seq": 1}, "b")
    assert stale.status_code == 409
    cards = post(dealer, url + "cards/", {"seat": 2, "cards": "As As Kd", "expected_seq": 2}, "c")
    assert cards.status_code == 400
    rows = list(RefusedEntry.objects.order_by("id").values_list("code", "status", "action"))
    assert rows == [("stale_sequence", 409, "fold"), (cards.json()["error"]["code"], 400, "show")]
    assert written(hand["id"]) == (1, 0)  # only the look


def test_who_and_where_refusals_are_not_entries(api: Api) -> None:
    hand = start_hand(api)
    body = {"seat": 2, "action": "look", "expected_seq": 1}
    url = f"/api/v1/hands/{hand['id']}/actions/"
    assert post(api.client("other_dealer"), url, body).status_code == 404  # not their table
    assert post(api.client("player"), url, body).status_code == 403
    assert post(api.client("dealer"), "/api/v1/hands/999999/actions/", body).status_code == 404
    assert RefusedEntry.objects.count() == 0


def test_a_refused_start_is_kept_against_the_table(api: Api) -> None:
    start_hand(api)
    again = post(api.client("dealer"), f"/api/v1/tables/{api.world.table.pk}/hands/", key="s2")
    assert again.status_code == 409
    (record,) = RefusedEntry.objects.all()
    assert (record.code, record.hand_id, record.action) == ("hand_in_progress", None, "start")


def test_an_accepted_action_costs_no_statement_more(api: Api) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    with CaptureQueriesContext(connection) as queries:
        ok = post(api.client("dealer"), url, {"seat": 2, "action": "look", "expected_seq": 1}, "l")
    assert ok.status_code == 201
    assert not [q for q in queries if "integrity" in q["sql"]]
    assert not [q for q in queries if 'FROM "hands_hand"' in q["sql"] and "LIMIT" in q["sql"]]
    assert RefusedEntry.objects.count() == 0


def test_a_refused_entry_cannot_be_changed_or_deleted(api: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the append-only trigger on DELETE is PostgreSQL's")
    hand = start_hand(api)
    post(
        api.client("dealer"),
        f"/api/v1/hands/{hand['id']}/actions/",
        {"seat": 9, "action": "look", "expected_seq": 1},
    )
    record = RefusedEntry.objects.get()
    for change in (
        lambda: RefusedEntry.objects.filter(pk=record.pk).update(code="nothing"),
        lambda: RefusedEntry.objects.filter(pk=record.pk).delete(),
    ):
        with pytest.raises((IntegrityError, InternalError)), transaction.atomic():
            change()
    assert RefusedEntry.objects.get().code == record.code


def test_the_same_refusal_sent_again_and_again_is_one_entry_counted(api: Api) -> None:
    """A device sending one refused entry in a loop grows one row, and the integrity monitor
    sees one mistake (issue 29: 2,853 refusals in 20 s used to be 2,853 rows)."""
    from brag_event.integrity.selectors import event_data, refusals_by_dealer

    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    body = {"seat": 2, "action": "bet", "amount": 2, "expected_seq": 1}
    for _ in range(25):
        assert post(api.client("dealer"), url, body).status_code == 400
    (burst,) = RefusedEntry.objects.all()
    assert burst.count == 25 and burst.last_at is not None and burst.last_at >= burst.at
    # Another refusal ends the burst; the same one again after it starts a new entry.
    other = {"seat": 9, "action": "look", "expected_seq": 1}
    assert post(api.client("dealer"), url, other).status_code == 400
    assert post(api.client("dealer"), url, body).status_code == 400
    assert list(RefusedEntry.objects.order_by("id").values_list("count", flat=True)) == [25, 1, 1]
    # The monitor counts entries: three mistakes of this dealer, not 27.
    mine = [e for e in event_data(api.world.event).dealer_events if e.kind == "refusals"]
    assert len(mine) == 3
    assert refusals_by_dealer(api.world.event) == [{"dealer": "dealer", "wrong": 3, "stale": 0}]


def test_another_device_starts_its_own_entry(api: Api) -> None:
    from tests.api.conftest import token_client

    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    body = {"seat": 2, "action": "bet", "amount": 2, "expected_seq": 1}
    second = token_client(api.users["dealer"], "second tablet")
    for client in (api.client("dealer"), second, api.client("dealer")):
        assert post(client, url, body).status_code == 400
    assert sorted(RefusedEntry.objects.values_list("count", flat=True)) == [1, 2]


def test_only_a_growing_count_may_change_a_refused_entry(api: Any) -> None:
    hand = start_hand(api)
    post(
        api.client("dealer"),
        f"/api/v1/hands/{hand['id']}/actions/",
        {"seat": 9, "action": "look", "expected_seq": 1},
    )
    record = RefusedEntry.objects.get()
    for change in (
        lambda: RefusedEntry.objects.filter(pk=record.pk).update(count=5, code="nothing"),
        lambda: RefusedEntry.objects.filter(pk=record.pk).update(count=0),
        lambda: RefusedEntry.objects.filter(pk=record.pk).update(message="edited"),
    ):
        with pytest.raises((IntegrityError, InternalError)), transaction.atomic():
            change()
    RefusedEntry.objects.filter(pk=record.pk).update(count=2)
    assert RefusedEntry.objects.get().count == 2
