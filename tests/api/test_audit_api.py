"""The API's audit log (``GET /api/v1/events/{id}/audit/``): each entry with what it was done to
as references (day, table, hand, seat, player, token), the actor and the device token; filtered
like the organisers' page by table, player, actor and kind, bad filters refused in words."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from brag_event.api.services import token_issue
from brag_event.audit.models import AuditEntry, Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.tables.services import seat_sit_out, table_create
from tests.factories import act, start, world

from .conftest import Api, assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(shared_api: Api) -> Api:
    """The module's world, built once and rolled back after each test (tests/api/conftest.py)."""
    return shared_api


def audit(api: Api, **filters: Any) -> list[dict[str, Any]]:
    url = f"/api/v1/events/{api.world.event.pk}/audit/"
    response = api.client("organiser").get(url, {"limit": 1000, **filters})
    assert response.status_code == 200, response.content[:300]
    body = response.json()
    assert body["count"] == len(body["results"])
    rows: list[dict[str, Any]] = body["results"]
    return rows


def test_an_entry_names_its_subjects_its_actor_and_its_device(api: Api) -> None:
    w = api.world
    hand = start(w)
    dealer = User.objects.create_user("d1")
    token, _key = token_issue(name="Table 1 tablet", user_id=dealer.pk, by=None)
    by = Actor(dealer, "token:Table 1 tablet 10.0.0.1", token.pk)
    act(hand, by=by, seat=2, action="look")
    seat_sit_out(seat=w.seat(1), sitting_out=True, by=by)
    rows = audit(api)
    assert len(rows) == AuditEntry.objects.filter(event=w.event).count()
    sat_out = next(r for r in rows if r["verb"] == Verb.SEAT_SIT_OUT)
    seat = w.seat(1)
    assert sat_out == {
        **sat_out,
        "actor": "d1",
        "actor_id": dealer.pk,
        "verb_label": "sat out",
        "table": {"id": w.table.pk, "number": w.table.number, "day": w.day.number},
        "seat": {"id": seat.pk, "number": 1},
        "player": {"id": w.players[0].pk, "name": w.players[0].name},
        "device": "token:Table 1 tablet 10.0.0.1",
        "device_token": token.pk,
    }
    started = next(r for r in rows if r["verb"] == Verb.HAND_START)
    assert started["hand"] == {"id": hand.pk, "number": hand.number}
    assert started["day"] == {"id": w.day.pk, "number": w.day.number}
    assert (started["actor"], started["actor_id"], started["device_token"]) == (None, None, None)
    opened = next(r for r in rows if r["verb"] == Verb.DAY_OPEN)
    assert (opened["table"], opened["hand"], opened["player"]) == (None, None, None)


def test_the_token_an_entry_is_about(api: Api) -> None:
    """Tokens belong to no event; an entry about one recorded under the event shows it."""
    token, _key = token_issue(name="Spare tablet", user_id=api.users["dealer"].pk, by=None)
    audit_record(by=None, verb=Verb.TOKEN_REVOKE, subject=token, event_id=api.world.event.pk)
    revoked = next(r for r in audit(api) if r["verb"] == Verb.TOKEN_REVOKE)
    assert revoked["token"] == {"id": token.pk, "name": "Spare tablet"}


def test_filters_by_table_player_actor_and_kind_as_the_page_does(api: Api) -> None:
    w = api.world
    other = table_create(day=w.day, number=2, by=None)
    dealer = User.objects.create_user("d2")
    by = Actor(dealer, "web 10.0.0.2")
    seat_sit_out(seat=w.seat(2), sitting_out=True, by=by)
    everything = audit(api)

    at_table = audit(api, table=w.table.pk)
    assert at_table and {r["table"]["id"] for r in at_table} == {w.table.pk}
    assert len(at_table) == sum(1 for r in everything if (r["table"] or {}).get("id") == w.table.pk)
    assert audit(api, table=other.pk) == [
        r for r in everything if r["table"] and r["table"]["id"] == other.pk
    ]

    bill = w.players[1]
    about_bill = audit(api, player=bill.pk)
    assert about_bill and {r["player"]["id"] for r in about_bill} == {bill.pk}

    by_d2 = audit(api, actor=dealer.pk)
    assert [r["verb"] for r in by_d2] == [Verb.SEAT_SIT_OUT]

    buy_ins = audit(api, verb=Verb.SEAT_BUY_IN)
    assert len(buy_ins) == len(w.players) and {r["verb"] for r in buy_ins} == {Verb.SEAT_BUY_IN}

    both = audit(api, player=bill.pk, verb=Verb.SEAT_SIT_OUT, actor=dealer.pk)
    assert [(r["player"]["id"], r["verb"]) for r in both] == [(bill.pk, Verb.SEAT_SIT_OUT)]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"table": "abc"}, "table"),
        ({"player": "-1"}, "player"),
        ({"actor": "١٢"}, "actor"),
        ({"verb": "day.opened"}, "verb"),
    ],
)
def test_a_malformed_filter_is_refused_in_words(
    api: Api, query: dict[str, str], field: str
) -> None:
    url = f"/api/v1/events/{api.world.event.pk}/audit/"
    error = assert_error(api.client("organiser").get(url, query), 400, "invalid_filter")
    assert set(error["details"]["fields"]) == {field}


def test_a_filter_outside_the_event_is_refused_not_answered_empty(api: Api) -> None:
    elsewhere = world(2, name="Another event")
    url = f"/api/v1/events/{api.world.event.pk}/audit/"
    client = api.client("organiser")
    error = assert_error(client.get(url, {"table": elsewhere.table.pk}), 400, "invalid_filter")
    assert error["details"]["fields"] == {"table": ["not in this event"]}
    assert "table" in error["message"]
    error = assert_error(
        client.get(url, {"player": elsewhere.players[0].pk}), 400, "invalid_filter"
    )
    assert error["details"]["fields"] == {"player": ["not in this event"]}
    nobody = User.objects.create_user("never-did-anything")
    error = assert_error(client.get(url, {"actor": nobody.pk}), 400, "invalid_filter")
    assert error["details"]["fields"] == {"actor": ["not in this event"]}
