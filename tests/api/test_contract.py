"""The answers are what the schema says: a whole hand and every read, real answers (the action
path's and the versioned reads' hand-rendered ones too), each checked against the schema —
status code documented, content type, body — as schemathesis checks them."""

from __future__ import annotations

from typing import Any

import pytest
from schemathesis.core.failures import Failure, FailureGroup

from brag_event.api.models import DeviceToken
from tests.factories import assert_audit_ok

from .conftest import SEEN_HAND, Api, post, start_hand
from .contract import conforms

pytestmark = pytest.mark.django_db


def test_a_whole_hand_answers_as_documented(api: Api) -> None:
    dealer = api.client("dealer")
    w = api.world
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/"
    conforms(post(dealer, f"/api/v1/tables/{w.table.pk}/hands/"))  # 409: a hand is live
    seq = hand["next_seq"]
    for body in SEEN_HAND:
        response = conforms(
            post(dealer, url + "actions/", {**body, "expected_seq": seq}, key=f"a{seq}")
        )
        assert response.status_code == 201, response.json()
        seq = response.json()["hand"]["next_seq"]
    stale = conforms(
        post(dealer, url + "actions/", {"seat": 1, "action": "fold", "expected_seq": 1})
    )
    assert stale.status_code == 409 and stale.json()["error"]["details"]["hand"]["id"] == hand["id"]
    assert (
        conforms(
            post(dealer, url + "cards/", {"seat": 1, "cards": "Kh Kd 4c", "expected_seq": seq})
        ).status_code
        == 201
    )
    final = conforms(
        post(dealer, url + "cards/", {"seat": 2, "cards": "Qs Js Ts", "expected_seq": seq + 1})
    )
    assert final.status_code == 201 and final.json()["hand"]["result"]["settled"] is True

    table = conforms(dealer.get(f"/api/v1/tables/{w.table.pk}/"))
    assert table.status_code == 200
    again = conforms(dealer.get(f"/api/v1/tables/{w.table.pk}/", HTTP_IF_NONE_MATCH=table["ETag"]))
    assert again.status_code == 304
    for path in (url, url + "history/", f"/api/v1/days/{w.day.pk}/tables/"):
        assert conforms(dealer.get(path)).status_code == 200
    player = api.client("player")
    assert conforms(player.get("/api/v1/me/")).json()["player"]["id"] == w.players[0].pk
    assert conforms(player.get("/api/v1/me/hands/")).json()["hands"][0]["id"] == hand["id"]
    assert conforms(player.get(url)).status_code == 200
    assert_audit_ok(w.event)


def test_every_read_answers_as_documented(api: Api) -> None:
    w = api.world
    start_hand(api)
    organiser = api.client("organiser")
    anonymous = api.client("anonymous")
    for path in (
        "/api/v1/events/",
        f"/api/v1/events/{w.event.pk}/",
        f"/api/v1/events/{w.event.pk}/ledger/?limit=5",
        f"/api/v1/events/{w.event.pk}/audit/",
        "/api/v1/tokens/",
        "/api/v1/me/",
        "/api/v1/me/hands/",
    ):
        assert conforms(organiser.get(path)).status_code == 200, path
    standings = conforms(anonymous.get(f"/api/v1/events/{w.event.pk}/standings/?day=1"))
    assert standings.status_code == 200 and standings.json()["scope"] == "day"
    again = anonymous.get(
        f"/api/v1/events/{w.event.pk}/standings/?day=1", HTTP_IF_NONE_MATCH=standings["ETag"]
    )
    assert conforms(again).status_code == 304
    assert (
        conforms(anonymous.get(f"/api/v1/events/{w.event.pk}/standings/?day=x")).status_code == 400
    )
    assert conforms(anonymous.get("/api/v1/events/")).status_code in (401, 403)
    assert (
        conforms(
            anonymous.get(
                "/api/v1/csrf-typo/",
            ),
            "GET",
            "/api/v1/events/",
        ).status_code
        == 404
    )


def test_every_other_write_answers_as_documented(api: Api) -> None:
    w = api.world
    organiser = api.client("organiser")
    issued = conforms(
        post(organiser, "/api/v1/tokens/", {"user": api.users["dealer"].pk, "name": "T9"})
    )
    assert issued.status_code == 201 and issued.json()["key"]
    token = DeviceToken.objects.get(name="T9")
    assert conforms(post(organiser, f"/api/v1/tokens/{token.pk}/revoke/")).json()["active"] is False
    seat = w.seat(3).pk
    assert (
        conforms(
            post(organiser, f"/api/v1/seats/{seat}/sit-out/", {"sitting_out": True})
        ).status_code
        == 200
    )
    assert conforms(post(organiser, f"/api/v1/seats/{seat}/leave/")).json()["left"] is True
    bought: Any = conforms(
        post(
            organiser,
            f"/api/v1/tables/{w.table.pk}/seats/",
            {"seat": 3, "player": w.players[2].pk, "amount": 100},
        )
    )
    assert bought.status_code == 201, bought.json()
    refused = conforms(post(organiser, f"/api/v1/seats/{seat}/rebuy/", {"consenting": "no"}))
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_input"
    assert conforms(post(organiser, "/api/v1/auth/logout/")).status_code in (200, 403)
    assert_audit_ok(w.event)


def test_an_answer_that_is_not_the_documented_shape_fails() -> None:
    """The check can fail: a table read answered with a body missing its fields."""
    from django.http import JsonResponse
    from django.test import RequestFactory

    response: Any = JsonResponse({"id": 1})
    response.wsgi_request = RequestFactory().get("/api/v1/tables/1/")
    with pytest.raises((Failure, FailureGroup)):
        conforms(response)
