"""Staff accounts of one event: created, a password reset, switched off and on — by an
organiser of that event only, each in the audit log; a switched-off dealer's tablet (its token
and its browser session) is refused at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from rest_framework.test import APIClient

from brag_event.access.models import StaffRole
from brag_event.access.roles import role_in, role_of
from brag_event.access.rules import can
from brag_event.access.selectors import sessions_of, staff_manageable
from brag_event.access.services import (
    staff_activate,
    staff_create,
    staff_deactivate,
    staff_password_set,
)
from brag_event.api.models import DeviceToken
from brag_event.api.services import token_issue
from brag_event.audit.models import AuditEntry
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.events.services import event_create_flash
from tests.factories import user_in, world

pytestmark = pytest.mark.django_db

PASSWORD = "felt-green-table-7"


@pytest.fixture
def setup() -> dict[str, Any]:
    w = world(3)
    other = event_create_flash(name="OTHER", by=None)
    boss = staff_create(
        event=w.event,
        username="boss",
        full_name="Barbara Boss",
        role="organiser",
        password=PASSWORD,
        by=Actor(user_in("organiser", "site")),
    ).user
    return {"w": w, "other": other, "boss": boss, "by": Actor(boss, "web test")}


def test_an_organiser_of_the_event_creates_its_staff(setup: dict[str, Any]) -> None:
    w, by = setup["w"], setup["by"]
    made = staff_create(
        event=w.event,
        username="dee",
        full_name="Dee Dealer",
        role="dealer",
        password=PASSWORD,
        by=by,
    )
    dee = made.user
    assert (dee.first_name, dee.last_name, dee.is_active) == ("Dee", "Dealer", True)
    assert dee.check_password(PASSWORD) and not dee.is_staff and not dee.groups.exists()
    assert role_in(dee, w.event.pk) == "dealer" and role_in(dee, setup["other"].pk) == "public"
    assert role_of(dee) == "dealer"
    entry = AuditEntry.objects.filter(verb="staff.create", target="dee").get()
    assert (entry.event_id, entry.actor_id, entry.data) == (
        w.event.pk,
        setup["boss"].pk,
        {"user": dee.pk, "role": "dealer"},
    )
    # The boss is an organiser of this event only.
    assert can(by, "staff.manage", w.event) and not can(by, "staff.manage", setup["other"])
    assert not can(by, "event.create") and not can(by, "logins.unlock")


@pytest.mark.parametrize(
    ("username", "password", "role", "code"),
    [
        ("boss", PASSWORD, "dealer", "username_taken"),
        ("BOSS", PASSWORD, "dealer", "username_taken"),
        ("new", "short", "dealer", "weak_password"),
        ("new", "12345678901", "dealer", "weak_password"),
        ("new", PASSWORD, "admin", "invalid_role"),
        ("   ", PASSWORD, "dealer", "invalid_username"),
        # Issue 43: look-alikes of a taken name, and names with what does not show.
        ("b\u043ess", PASSWORD, "dealer", "username_taken"),  # Cyrillic "о"
        ("B0SS", PASSWORD, "dealer", "username_taken"),  # a zero for the O
        ("bo\u200bss", PASSWORD, "dealer", "invalid_username"),  # a zero-width space
        ("dealer1\u0301", PASSWORD, "dealer", "invalid_username"),  # a combining accent
        ("\ufb01ona", PASSWORD, "dealer", "invalid_username"),  # the "fi" ligature
        ("an n", PASSWORD, "dealer", "invalid_username"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    setup: dict[str, Any], username: str, password: str, role: str, code: str
) -> None:
    before = (User.objects.count(), StaffRole.objects.count(), AuditEntry.objects.count())
    with pytest.raises(ServiceError) as err:
        staff_create(
            event=setup["w"].event,
            username=username,
            full_name="",
            role=role,
            password=password,
            by=setup["by"],
        )
    assert err.value.code == code and err.value.message
    assert (User.objects.count(), StaffRole.objects.count(), AuditEntry.objects.count()) == before


def test_a_look_alike_user_name_is_refused_naming_the_account_it_looks_like(
    setup: dict[str, Any],
) -> None:
    with pytest.raises(ServiceError) as err:
        staff_create(
            event=setup["w"].event,
            username="b\u043ess",
            full_name="",
            role="dealer",
            password=PASSWORD,
            by=setup["by"],
        )
    assert err.value.message == (
        "The user name b\u043ess looks the same as boss, who has an account: choose one that "
        "reads differently."
    )


def test_an_organiser_of_another_event_may_not_touch_this_events_staff(
    setup: dict[str, Any],
) -> None:
    w, other = setup["w"], setup["other"]
    dee = staff_create(
        event=w.event,
        username="dee",
        full_name="",
        role="dealer",
        password=PASSWORD,
        by=setup["by"],
    ).user
    stranger = staff_create(
        event=other,
        username="stranger",
        full_name="",
        role="organiser",
        password=PASSWORD,
        by=None,
    ).user
    by = Actor(stranger)
    before = AuditEntry.objects.count()
    for attempt in (
        lambda: staff_create(
            event=w.event, username="x", full_name="", role="dealer", password=PASSWORD, by=by
        ),
        lambda: staff_password_set(event=w.event, user=dee, password=PASSWORD + "!", by=by),
        lambda: staff_deactivate(event=w.event, user=dee, by=by),
    ):
        with pytest.raises(ServiceError) as err:
            attempt()
        assert (err.value.code, err.value.status) == ("forbidden", 403)
    # Nor through its own event: dee is not on its staff.
    with pytest.raises(ServiceError) as err:
        staff_deactivate(event=other, user=dee, by=by)
    assert err.value.code == "not_staff"
    dee.refresh_from_db()
    assert dee.is_active and dee.check_password(PASSWORD)
    assert AuditEntry.objects.count() == before
    assert not staff_manageable(stranger).filter(pk=dee.pk).exists()
    assert staff_manageable(setup["boss"]).filter(pk=dee.pk).exists()


def test_a_member_of_every_event_is_not_managed_by_an_organiser_of_one(
    setup: dict[str, Any],
) -> None:
    w = setup["w"]
    sam = user_in("supervisor", "sam")
    StaffRole.objects.create(user=sam, event=w.event, role="supervisor")
    with pytest.raises(ServiceError) as err:
        staff_deactivate(event=w.event, user=sam, by=setup["by"])
    assert err.value.code == "forbidden"
    sam.refresh_from_db()
    assert sam.is_active


def test_a_password_reset_signs_the_old_sessions_out(setup: dict[str, Any]) -> None:
    w, by = setup["w"], setup["by"]
    dee = staff_create(
        event=w.event, username="dee", full_name="", role="dealer", password=PASSWORD, by=by
    ).user
    browser = APIClient()
    assert (
        browser.post(
            "/api/v1/auth/login/", {"username": "dee", "password": PASSWORD}, format="json"
        ).status_code
        == 200
    )
    assert browser.get("/api/v1/me/").status_code == 200
    staff_password_set(event=w.event, user=dee, password="another-long-one-9", by=by)
    dee.refresh_from_db()
    assert dee.check_password("another-long-one-9")
    assert browser.get("/api/v1/me/").status_code in (401, 403)
    assert sessions_of({dee.pk}) == []
    entry = AuditEntry.objects.get(verb="staff.password", target="dee")
    assert entry.data == {"user": dee.pk, "sessions_ended": 1}
    with pytest.raises(ServiceError) as err:
        staff_password_set(event=w.event, user=dee, password="password", by=by)
    assert err.value.code == "weak_password"


def test_a_switched_off_dealers_tablet_is_refused(setup: dict[str, Any]) -> None:
    w, by = setup["w"], setup["by"]
    dee = staff_create(
        event=w.event, username="dee", full_name="", role="dealer", password=PASSWORD, by=by
    ).user
    w.table.dealers.add(dee)
    _token, key = token_issue(user_id=dee.pk, name="Table 1 tablet", by=by)
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    browser = APIClient(HTTP_USER_AGENT="Mozilla/5.0 (iPad) tablet test")
    assert (
        browser.post(
            "/api/v1/auth/login/", {"username": "dee", "password": PASSWORD}, format="json"
        ).status_code
        == 200
    )
    table_url = f"/api/v1/tables/{w.table.pk}/"
    assert tablet.get(table_url).status_code == 200
    assert browser.get(table_url).status_code == 200
    seen = sessions_of({dee.pk})
    assert len(seen) == 1 and seen[0].device == "a browser on an iPad"

    staff_deactivate(event=w.event, user=dee, by=by)

    for client in (tablet, browser):
        response = client.get(table_url)
        assert response.status_code in (401, 403), response.content
        assert client.post(f"/api/v1/tables/{w.table.pk}/hands/").status_code in (401, 403)
    assert not w.table.hands.exists()
    assert sessions_of({dee.pk}) == []
    assert not DeviceToken.objects.filter(user=dee, revoked_at__isnull=True).exists()
    entry = AuditEntry.objects.get(verb="staff.deactivate")
    assert entry.data["sessions_ended"] == 1 and len(entry.data["tokens_revoked"]) == 1
    assert (
        APIClient()
        .post("/api/v1/auth/login/", {"username": "dee", "password": PASSWORD}, format="json")
        .status_code
        == 401
    )
    with pytest.raises(ServiceError) as err:
        staff_deactivate(event=w.event, user=setup["boss"], by=by)
    assert err.value.code == "own_account"

    # Switched on again: signs in again; the revoked token stays revoked.
    staff_activate(event=w.event, user=dee, by=by)
    again = APIClient()
    assert (
        again.post(
            "/api/v1/auth/login/", {"username": "dee", "password": PASSWORD}, format="json"
        ).status_code
        == 200
    )
    assert again.get(table_url).status_code == 200
    assert tablet.get(table_url).status_code == 401
    assert AuditEntry.objects.filter(verb="staff.activate").count() == 1
    assert Session.objects.count() >= 1
