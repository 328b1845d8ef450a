"""Regressions found by the permission matrix: each of these failed before its fix."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from rest_framework.throttling import ScopedRateThrottle

from brag_event.events.services import event_create_flash
from tests.factories import start

from .conftest import Api, assert_error
from .test_auth import browser, csrf, login, rows_containing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unthrottled")]


@pytest.fixture
def api(shared_api: Api) -> Api:
    """The module's world, built once and rolled back after each test (tests/api/conftest.py)."""
    return shared_api


def test_a_token_issued_with_an_idempotency_key_is_shown_once_and_not_stored(api: Api) -> None:
    organiser = api.client("organiser")
    body = {"user": api.users["dealer"].pk, "name": "Table 1 tablet"}
    first = organiser.post("/api/v1/tokens/", body, format="json", HTTP_IDEMPOTENCY_KEY="t-1")
    assert first.status_code == 201
    key = first.json()["key"]
    assert not rows_containing(key)
    again = organiser.post("/api/v1/tokens/", body, format="json", HTTP_IDEMPOTENCY_KEY="t-1")
    assert key not in again.content.decode()  # and a replay shows it a second time


def test_login_without_csrf_is_refused_in_the_error_shape(api: Api) -> None:
    client = browser(api)
    assert_error(login(client, "dealer", "dealer-pw"), 403, "csrf_failed")


def test_the_login_throttle_cannot_be_dodged_with_a_forwarded_for_header(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"login": "3/min"})
    client = browser(api)
    statuses = [
        login(
            client, "dealer", "wrong", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}", **csrf(client)
        ).status_code
        for i in range(5)
    ]
    assert statuses == [401, 401, 401, 429, 429]


def test_a_dealer_who_also_plays_sees_the_hands_they_were_dealt(api: Api) -> None:
    player = api.users["player"]
    player.groups.add(Group.objects.get(name="dealer"))  # Andy also deals, at no table today
    hand = start(api.world)
    assert [h["id"] for h in api.client("player").get("/api/v1/me/hands/").json()["hands"]] == [
        hand.pk
    ]
    response = api.client("player").get(f"/api/v1/hands/{hand.pk}/")
    assert response.status_code == 200


def test_an_events_audit_lists_only_that_events_entries(api: Api) -> None:
    other = event_create_flash(name="OTHER", by=None)
    rows = api.client("organiser").get(f"/api/v1/events/{api.world.event.pk}/audit/").json()
    targets = [r["target"] for r in rows["results"]]
    assert not [t for t in targets if "OTHER" in t], targets
    assert other.pk


def test_a_session_write_without_csrf_says_so(api: Api) -> None:
    client = browser(api)
    assert login(client, "dealer", "dealer-pw", **csrf(client)).status_code == 200
    hand = start(api.world)
    response = client.post(
        f"/api/v1/hands/{hand.pk}/actions/",
        {"expected_seq": 1, "seat": 2, "action": "fold"},
        format="json",
    )
    assert_error(response, 403, "csrf_failed")
