"""The API's throttles (``api.throttles``): writes per device token, answered ``429 throttled``
with ``Retry-After`` and nothing kept; and, with the cache unreachable (Redis down), every
throttle lets the request through — the sign-in works, lockouts still hold (django-axes keeps
them in the database)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from brag_event.api.models import IdempotencyRecord
from brag_event.api.throttles import LoginThrottle, WriteThrottle
from brag_event.integrity.models import RefusedEntry

from .conftest import Api, assert_error, post, token_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unthrottled")]

UNREACHABLE = {
    "default": {
        "BACKEND": "brag_event.core.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}
UNREACHABLE["throttle"] = UNREACHABLE["default"]  # as production shares one Redis


@pytest.fixture
def api(shared_api: Api) -> Api:
    return shared_api


@pytest.fixture
def cache_down(unthrottled: None) -> Iterator[None]:
    """Django's cache on a Redis that is not there (put back before ``unthrottled`` clears)."""
    with override_settings(CACHES=UNREACHABLE):
        yield


def test_writes_beyond_the_rate_get_429_with_retry_after_and_nothing_is_kept(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"write": "3/min"})
    dealer = api.client("dealer")
    table = api.world.table.pk
    for n in range(3):
        answer = post(dealer, f"/api/v1/tables/{table}/hands/", {"x": 1}, key=f"k{n}")
        assert answer.status_code != 429, answer.json()
    records, refused = IdempotencyRecord.objects.count(), RefusedEntry.objects.count()
    throttled = post(dealer, f"/api/v1/tables/{table}/hands/", key="k3")
    error = assert_error(throttled, 429, "throttled")
    wait = int(throttled["Retry-After"])
    assert 0 < wait <= 60 and error["details"]["retry_after"] == pytest.approx(wait, abs=1)
    assert str(wait) in error["message"]
    # Nothing of the throttled write is kept: no answer under its key, no refused entry.
    assert IdempotencyRecord.objects.count() == records
    assert RefusedEntry.objects.count() == refused
    assert not IdempotencyRecord.objects.filter(key="k3").exists()
    # Reads are not throttled, nor is another device.
    assert dealer.get(f"/api/v1/tables/{table}/").status_code == 200
    other = token_client(api.users["dealer"], "second tablet")
    assert post(other, f"/api/v1/tables/{table}/hands/").status_code != 429


def test_the_write_rate_comes_from_settings(settings: Any) -> None:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["write"]
    assert SimpleRateThrottle.THROTTLE_RATES["write"] == rate  # tests/conftest.py turns it off
    allowed, period = WriteThrottle().parse_rate(rate)
    assert allowed is not None and period is not None and allowed / period >= 2  # per second


def test_with_the_cache_unreachable_sign_in_and_writes_go_through_with_a_warning(
    api: Api, cache_down: None, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"write": "240/min"})
    client = APIClient(enforce_csrf_checks=True)
    assert client.get("/api/v1/auth/csrf/").status_code == 200
    csrf: dict[str, Any] = {"HTTP_X_CSRFTOKEN": client.cookies["csrftoken"].value}
    with caplog.at_level(logging.WARNING, logger="brag_event.api"):
        signed_in = client.post(
            "/api/v1/auth/login/",
            {"username": "dealer", "password": "dealer-pw"},
            format="json",
            **csrf,
        )
        assert signed_in.status_code == 200, signed_in.content
        assert signed_in.json()["role"] == "dealer"
        started = post(api.client("dealer"), f"/api/v1/tables/{api.world.table.pk}/hands/")
        assert started.status_code == 201, started.json()
    warned = [r.getMessage() for r in caplog.records if "cache unavailable" in r.getMessage()]
    assert any("throttle login" in m for m in warned), warned
    assert any("throttle write" in m for m in warned), warned


def test_with_the_cache_unreachable_a_lockout_still_holds(
    api: Api, cache_down: None, settings: Any
) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    client = APIClient()
    for _ in range(2):
        wrong = client.post(
            "/api/v1/auth/login/", {"username": "dealer", "password": "no"}, format="json"
        )
        assert wrong.status_code in (401, 429), wrong.content
    locked = client.post(
        "/api/v1/auth/login/", {"username": "dealer", "password": "dealer-pw"}, format="json"
    )
    assert_error(locked, 429, "login_locked")


def test_sign_ins_at_a_windows_end_and_the_next_ones_start_get_exactly_the_allowance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sign-in's throttle counts in windows of the rate's length, the window before weighed
    by how much of it the sliding minute still covers: a burst across the edge of two windows
    gets the allowance once, not twice; a refusal says how long to wait; a minute later the
    allowance is whole again."""
    monkeypatch.setattr(LoginThrottle, "THROTTLE_RATES", {"login": "3/min"})
    now = [60 * 1000 + 59.0]  # the last second of a window
    monkeypatch.setattr(LoginThrottle, "timer", lambda self: now[0])
    client = APIClient()
    names = (f"nobody{i}" for i in range(100))  # never locked out: every 429 is the throttle's

    def attempt() -> Any:
        body = {"username": next(names), "password": "no"}
        return client.post("/api/v1/auth/login/", body, format="json")

    assert [attempt().status_code for _ in range(2)] == [401, 401]
    now[0] += 2  # one second into the next window: the sliding minute still holds both
    assert attempt().status_code == 401
    refused = attempt()
    error = assert_error(refused, 429, "throttled")
    wait = int(refused["Retry-After"])
    assert 0 < wait <= 120 and error["details"]["retry_after"] == pytest.approx(wait, abs=1)
    now[0] += 120  # two windows on: nothing of the burst is weighed any more
    assert [attempt().status_code for _ in range(4)] == [401, 401, 401, 429]
