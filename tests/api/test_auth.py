"""Authentication: organiser-issued device tokens (hash only stored, revocable), browser session
login with CSRF, throttled login attempts; every refusal in the one error shape."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from brag_event.api.models import DeviceToken, token_hash
from brag_event.hands.models import HandAction
from tests.factories import start

from .conftest import Api, assert_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unthrottled")]


@pytest.fixture
def api(shared_api: Api) -> Api:
    """The module's world, built once and rolled back after each test (tests/api/conftest.py)."""
    return shared_api


def rows_containing(text: str) -> list[str]:
    """Every row, of every table, whose text contains ``text``."""
    found = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            found += [f"{table}: {row}" for row in cursor.fetchall() if text in str(row)]
    return found


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


# ------------------------------------------------------------------ device tokens


def test_an_organiser_issues_a_token_shown_once_and_stored_only_as_a_hash(api: Api) -> None:
    dealer = api.users["dealer"]
    organiser = api.client("organiser")
    issued = organiser.post(
        "/api/v1/tokens/", {"user": dealer.pk, "name": "Table 1 tablet"}, format="json"
    )
    assert issued.status_code == 201, issued.json()
    body = issued.json()
    key = body["key"]
    assert set(body) == {"id", "name", "key"} and body["name"] == "Table 1 tablet"
    assert isinstance(key, str) and len(key) >= 32

    token = DeviceToken.objects.get(pk=body["id"])
    assert token.user == dealer and token.key_hash == token_hash(key) and token.key_hash != key
    assert token.created_by == api.users["organiser"] and token.revoked_at is None
    # The plaintext key is stored nowhere (only its first characters, to tell tokens apart).
    assert not rows_containing(key)
    assert token.prefix == key[:6]

    # The key works, as the dealer; using it is recorded.
    me = with_token(key).get("/api/v1/me/")
    assert me.status_code == 200 and me.json() == {"username": "dealer", "role": "dealer"}
    token.refresh_from_db()
    assert token.last_used_at is not None

    # The list shows it, without the key (or its hash).
    listed = organiser.get("/api/v1/tokens/").json()["tokens"]
    mine = next(t for t in listed if t["id"] == token.pk)
    assert mine == {
        "id": token.pk,
        "name": "Table 1 tablet",
        "user": "dealer",
        "prefix": key[:6],
        "active": True,
        "last_used_at": token.last_used_at.isoformat(),
    }
    assert key not in str(listed) and token.key_hash not in str(listed)

    # Revoked: the next request with it fails; the list says so; revoking again is harmless.
    revoked = organiser.post(f"/api/v1/tokens/{token.pk}/revoke/")
    assert revoked.status_code == 200 and revoked.json() == {"id": token.pk, "active": False}
    refused = with_token(key).get("/api/v1/me/")
    assert_error(refused, 401, "authentication_failed")
    assert refused["WWW-Authenticate"] == "Token"
    listed = organiser.get("/api/v1/tokens/").json()["tokens"]
    assert next(t for t in listed if t["id"] == token.pk)["active"] is False
    assert organiser.post(f"/api/v1/tokens/{token.pk}/revoke/").status_code == 200
    assert_error(organiser.post("/api/v1/tokens/999999/revoke/"), 404, "not_found")


def test_a_token_for_an_unknown_or_inactive_user_is_refused(api: Api) -> None:
    organiser = api.client("organiser")
    gone = User.objects.create_user("gone", password="gone-pw", is_active=False)
    before = DeviceToken.objects.count()
    for user in (gone.pk, 999999):
        response = organiser.post("/api/v1/tokens/", {"user": user, "name": "x"}, format="json")
        assert assert_error(response, 400, "unknown_user")["details"] == {"field": "user"}
    bad = organiser.post("/api/v1/tokens/", {"name": "x"}, format="json")
    assert "user" in assert_error(bad, 400, "invalid_input")["details"]["fields"]
    assert DeviceToken.objects.count() == before


def test_a_token_of_a_user_made_inactive_stops_working(api: Api) -> None:
    dealer = api.client("dealer")
    assert dealer.get("/api/v1/me/").status_code == 200
    User.objects.filter(pk=api.users["dealer"].pk).update(is_active=False)
    assert_error(dealer.get("/api/v1/me/"), 401, "authentication_failed")


@pytest.mark.parametrize(
    "header",
    [
        "Token not-a-real-key",
        f"Token {'x' * 43}",
        "Token",
        "Token two parts",
        "token not-a-real-key",
        b"Token \xff\xfe".decode("latin-1"),
    ],
)
def test_garbage_tokens_get_401_in_the_error_shape(api: Api, header: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/me/")
    assert_error(response, 401, "authentication_failed")
    assert response["WWW-Authenticate"] == "Token"


def test_no_credentials_or_another_scheme_is_not_authenticated(api: Api) -> None:
    assert_error(APIClient().get("/api/v1/me/"), 401, "not_authenticated")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer something")
    assert_error(client.get("/api/v1/me/"), 401, "not_authenticated")


# ------------------------------------------------------------------ browser sessions


def browser(api: Api) -> APIClient:
    """A browser: CSRF enforced, the cookie fetched first."""
    client = APIClient(enforce_csrf_checks=True)
    response = client.get("/api/v1/auth/csrf/")
    assert response.status_code == 200 and response.json() == {"ok": True}
    assert client.cookies["csrftoken"].value
    return client


def csrf(client: APIClient) -> dict[str, Any]:
    return {"HTTP_X_CSRFTOKEN": client.cookies["csrftoken"].value}


def login(client: APIClient, username: str, password: str, **extra: Any) -> Any:
    body = {"username": username, "password": password}
    return client.post("/api/v1/auth/login/", body, format="json", **extra)


def test_the_csrf_endpoint_sets_the_cookie(api: Api) -> None:
    response = APIClient().get("/api/v1/auth/csrf/")
    assert response.status_code == 200
    assert response.cookies["csrftoken"].value


def test_login_without_the_csrf_token_is_refused(api: Api) -> None:
    client = browser(api)
    response = login(client, "dealer", "dealer-pw")
    # (Its body is Django's HTML CSRF page, not the API's error shape: reported separately.)
    assert response.status_code == 403
    assert "sessionid" not in client.cookies
    assert_error(client.get("/api/v1/me/"), 401, "not_authenticated")


def test_session_login_then_writes_need_the_csrf_header(api: Api) -> None:
    client = browser(api)
    response = login(client, "dealer", "dealer-pw", **csrf(client))
    assert response.status_code == 200, response.content
    assert response.json() == {"username": "dealer", "role": "dealer"}
    assert client.cookies["sessionid"].value
    # Login rotates the CSRF token; the browser reads the new cookie.
    me = client.get("/api/v1/me/")
    assert me.status_code == 200 and me.json()["username"] == "dealer"

    hand = start(api.world)
    url = f"/api/v1/hands/{hand.pk}/actions/"
    body = {"seat": 2, "action": "look", "expected_seq": hand.next_seq}
    refused = client.post(url, body, format="json")
    assert_error(refused, 403, "csrf_failed")
    forged = client.post(url, body, format="json", HTTP_X_CSRFTOKEN="x" * 32)
    assert_error(forged, 403, "csrf_failed")
    assert HandAction.objects.count() == 0
    accepted = client.post(url, body, format="json", **csrf(client))
    assert accepted.status_code == 201, accepted.json()
    assert HandAction.objects.count() == 1

    # The session user's role still applies: a dealer may not void.
    void = client.post(
        f"/api/v1/hands/{hand.pk}/void/", {"reason": "oops"}, format="json", **csrf(client)
    )
    assert_error(void, 403, "forbidden")

    # Logout also needs the header; afterwards the session is gone.
    assert_error(client.post("/api/v1/auth/logout/"), 403, "csrf_failed")
    out = client.post("/api/v1/auth/logout/", **csrf(client))
    assert out.status_code == 200 and out.json() == {"ok": True}
    assert_error(client.get("/api/v1/me/"), 401, "not_authenticated")


@pytest.mark.parametrize(
    ("username", "password"),
    [
        ("dealer", "wrong"),
        ("nobody", "dealer-pw"),
        ("dealer", "DEALER-PW"),
        ("dealer", "dealer-pw "),
    ],
)
def test_wrong_credentials_get_401_bad_credentials(api: Api, username: str, password: str) -> None:
    client = browser(api)
    response = login(client, username, password, **csrf(client))
    assert_error(response, 401, "bad_credentials")
    assert "sessionid" not in client.cookies


def test_an_inactive_user_cannot_log_in(api: Api) -> None:
    User.objects.filter(pk=api.users["dealer"].pk).update(is_active=False)
    client = browser(api)
    assert_error(login(client, "dealer", "dealer-pw", **csrf(client)), 401, "bad_credentials")


def test_login_input_is_validated(api: Api) -> None:
    client = browser(api)
    response = client.post(
        "/api/v1/auth/login/", {"username": "dealer"}, format="json", **csrf(client)
    )
    assert "password" in assert_error(response, 400, "invalid_input")["details"]["fields"]


# ------------------------------------------------------------------ throttling


def test_the_login_rate_comes_from_settings(settings: Any) -> None:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["login"]
    assert ScopedRateThrottle.THROTTLE_RATES["login"] == rate
    allowed, period = ScopedRateThrottle().parse_rate(rate)
    assert allowed is not None and period is not None and allowed >= 1


def test_login_attempts_beyond_the_rate_get_429_with_retry_after(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"login": "3/min"})
    client = browser(api)
    for _ in range(3):
        assert_error(login(client, "dealer", "wrong", **csrf(client)), 401, "bad_credentials")
    throttled = login(client, "dealer", "dealer-pw", **csrf(client))
    error = assert_error(throttled, 429, "throttled")
    wait = int(throttled["Retry-After"])
    # Until the sliding minute's estimate leaves room (api.throttles): within two windows.
    assert 0 < wait <= 120
    assert error["details"]["retry_after"] == pytest.approx(wait, abs=1)
    assert "sessionid" not in client.cookies
    # The throttle is per login, not per API: other endpoints still answer.
    assert client.get("/api/v1/events/1/standings/").status_code in (200, 404)
