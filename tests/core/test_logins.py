"""Login throttling on every way in: django-axes locks a user name from an address after
``AXES_FAILURE_LIMIT`` wrong passwords — on the admin's login page (where organisers sign in
today), on the API's (the tablets), and on any page that calls ``authenticate()``; the right
password is then refused too until the lock expires or an organiser lifts it. Lockouts are
logged, in the audit log, and shown to organisers."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from brag_event.audit.models import AuditEntry
from tests.factories import world

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _users() -> None:
    cache.clear()
    User.objects.create_user("dealer1", password="right-pw")
    organiser = User.objects.create_superuser("boss", password="boss-pw")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])


def admin_login(client: Client, password: str, username: str = "dealer1") -> Any:
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password})


def organiser() -> Client:
    client = Client()
    client.force_login(User.objects.get(username="boss"))
    return client


def test_the_admin_login_locks_after_the_limit_even_for_the_right_password(
    caplog: pytest.LogCaptureFixture,
) -> None:
    User.objects.filter(username="dealer1").update(is_staff=True)
    client = Client()
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        assert admin_login(client, "wrong").status_code == 200  # the form, with its error
    with caplog.at_level(logging.WARNING, logger="axes"):
        locked = admin_login(client, "wrong")
    assert locked.status_code == 429
    assert "locked" in locked.content.decode() and locked["Retry-After"]
    assert any("Locking out" in r.getMessage() for r in caplog.records)
    # The right password does not get in while the lock holds (it did, before).
    response = admin_login(client, "right-pw")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    entry = AuditEntry.objects.filter(verb="login.locked_out").first()
    assert entry is not None
    assert entry.target == "dealer1" and entry.data["ip_address"] == "127.0.0.1"


def test_thirty_wrong_passwords_then_the_right_one_does_not_get_in() -> None:
    User.objects.filter(username="dealer1").update(is_staff=True)
    client = Client()
    for _ in range(30):
        admin_login(client, "wrong")
    assert admin_login(client, "right-pw").status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_api_login_locks_in_the_error_shape(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": "1000/min"},
    }
    client = APIClient(enforce_csrf_checks=True)
    token = client.get("/api/v1/auth/csrf/").cookies["csrftoken"].value
    client.credentials(HTTP_X_CSRFTOKEN=token)

    def login(password: str) -> Any:
        body = {"username": "dealer1", "password": password}
        return client.post("/api/v1/auth/login/", body, format="json")

    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login("wrong").json()["error"]["code"] == "bad_credentials"
    response = login("wrong")
    assert response.status_code == 429
    error = response.json()["error"]
    assert error["code"] == "login_locked" and "locked" in error["message"]
    assert error["details"]["retry_after"] == settings.AXES_COOLOFF_TIME.total_seconds()
    assert login("right-pw").json()["error"]["code"] == "login_locked"
    # Another user name from the same address is not locked: one dealer's typos do not lock
    # the hall's Wi-Fi out.
    User.objects.create_user("dealer2", password="pw-2")
    body = {"username": "dealer2", "password": "pw-2"}
    assert client.post("/api/v1/auth/login/", body, format="json").status_code == 200


def test_a_successful_login_resets_the_count() -> None:
    User.objects.filter(username="dealer1").update(is_staff=True)
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        admin_login(client, "wrong")
    assert admin_login(client, "right-pw").status_code == 302
    other = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert admin_login(other, "wrong").status_code == 200


def test_organisers_see_lockouts_and_lift_them() -> None:
    User.objects.filter(username="dealer1").update(is_staff=True)
    w = world(1)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        admin_login(Client(), "wrong")
    boss = organiser()
    dashboard = boss.get(f"/organiser/events/{w.event.pk}/").content.decode()
    assert "1 login locked" in dashboard and "dealer1" in dashboard
    page = boss.get("/organiser/lockouts/").content.decode()
    assert "dealer1" in page and "127.0.0.1" in page and "locked" in page
    response = boss.post("/organiser/lockouts/", {"username": "dealer1", "ip_address": "127.0.0.1"})
    assert response.status_code == 302
    assert AuditEntry.objects.filter(verb="login.unlock", target="dealer1").exists()
    client = Client()
    assert admin_login(client, "right-pw").status_code == 302
    assert "_auth_user_id" in client.session


def test_unlocking_nothing_or_a_bad_address_is_refused_in_place() -> None:
    boss = organiser()
    response = boss.post("/organiser/lockouts/", {"username": "x", "ip_address": "²"})
    assert response.status_code == 400
    response = boss.post("/organiser/lockouts/", {"username": "x", "ip_address": "10.0.0.1"})
    assert response.status_code == 400
    assert "Nothing is locked" in response.content.decode()


def test_only_organisers_see_the_lockouts() -> None:
    dealer = Client()
    dealer.force_login(User.objects.get(username="dealer1"))
    assert dealer.get("/organiser/lockouts/").status_code == 403
    assert Client().get("/organiser/lockouts/").status_code == 302


def test_the_address_comes_from_the_trusted_proxy_as_for_the_api_throttle(settings: Any) -> None:
    from brag_event.core.security import client_ip

    req = RequestFactory().get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9, 10.0.0.2"
    )

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    from rest_framework.settings import api_settings

    api_settings.reload()
    try:
        assert client_ip(req) == "127.0.0.1"  # type: ignore[arg-type]
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
        api_settings.reload()
        assert client_ip(req) == "10.0.0.2"  # type: ignore[arg-type]
    finally:
        api_settings.reload()
