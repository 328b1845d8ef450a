"""The organiser's console: its own sign-in and sign-out, role-aware pages (a dealer is sent to
the tablet), the day close's confirmation step and report in words, and the dashboard's ledger
audit after a close."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from brag_event.events.models import Day, DayClose
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import LedgerCheck
from tests.factories import played, start, user_in, world
from tests.factories import signed_in as signed_in_as

pytestmark = pytest.mark.django_db


def user(role: str, name: str | None = None) -> User:
    return user_in(role, name, password=f"{role}-pw")


def signed_in(role: str) -> Client:
    return signed_in_as(role, password=f"{role}-pw")


# ------------------------------------------------------------------ signing in and out


def test_anonymous_users_are_sent_to_the_consoles_own_login() -> None:
    w = world(2)
    response = Client().get(f"/organiser/events/{w.event.pk}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/organiser/login/?next=")
    page = Client().get(response["Location"]).content.decode()
    assert "Sign in to the console" in page and "Django administration" not in page


def test_an_organiser_signs_in_to_the_dashboard_and_out_again() -> None:
    w = world(2)
    user("organiser")
    client = Client()
    response = client.post(
        "/organiser/login/", {"username": "organiser", "password": "organiser-pw"}
    )
    # One event still being played: its dashboard straight away.
    assert response.status_code == 302
    assert response["Location"] == f"/organiser/events/{w.event.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert 'aria-current="page">Dashboard<' in page and "Log out" in page
    assert client.get("/organiser/logout/").status_code == 405  # signing out is a POST
    response = client.post("/organiser/logout/")
    assert response.status_code == 302 and response["Location"] == "/organiser/login/"
    assert "_auth_user_id" not in client.session
    assert client.get(f"/organiser/events/{w.event.pk}/").status_code == 302


def test_a_wrong_password_is_said_in_words_and_counted_by_axes() -> None:
    user("organiser")
    client = Client()
    response = client.post("/organiser/login/", {"username": "organiser", "password": "no"})
    assert response.status_code == 200
    assert "That user name and password do not match" in response.content.decode()
    from axes.models import AccessAttempt

    assert AccessAttempt.objects.filter(username="organiser").get().failures_since_start == 1


def test_a_dealer_is_sent_to_the_tablet_with_a_sentence() -> None:
    world(2)
    dealer = signed_in("dealer")
    response = dealer.get("/organiser/")
    page = response.content.decode()
    assert response.status_code == 403
    assert "Your tables are on the tablet" in page and 'href="/tablet/"' in page
    assert 'aria-label="Console"' not in page and "/organiser/tokens/" not in page  # no console nav
    # Signing in on the console as a dealer says where to go instead.
    user("dealer", "dealer2")
    response = Client().post("/organiser/login/", {"username": "dealer2", "password": "dealer-pw"})
    assert "Dealers enter hands on the tablet" in response.content.decode()
    assert "_auth_user_id" not in response.wsgi_request.session


# ------------------------------------------------------------------ the day close


def test_the_close_asks_for_confirmation_then_reports_in_words(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3, money=1000, buy_in=200)
    played(w)
    organiser = signed_in("organiser")
    url = f"/organiser/days/{w.day.pk}/close/"
    page = organiser.get(url).content.decode()
    assert "What closing does" in page and 'name="confirm"' not in page
    # The first post only shows what will happen.
    response = organiser.post(url, {"qualify_rule": "top", "qualify_top": "1"})
    page = response.content.decode()
    assert response.status_code == 200 and "Close day 1 now?" in page
    assert "The <strong>top 1</strong>" in page and "Yes, close day 1" in page
    assert Day.objects.get(pk=w.day.pk).is_open and not DayClose.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser.post(
            url, {"qualify_rule": "top", "qualify_top": "1", "confirm": "yes"}
        )
    assert response.status_code == 302
    page = organiser.get(url).content.decode()
    assert "Report of day 1" in page and "Passed" in page
    assert "Qualified (1)" in page and "Missed the cut (2)" in page
    assert "below the top 1" in page
    status = organiser.get(url + "status/").json()
    assert status["status"] == "done" and status["step"] == ""  # no "done done"
    assert ledger_audit(event=w.event).ok


def test_an_empty_top_n_is_answered_in_words() -> None:
    w = world(2)
    response = signed_in("organiser").post(
        f"/organiser/days/{w.day.pk}/close/", {"qualify_rule": "top", "qualify_top": ""}
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Say how many players go through (the top N)." in page
    assert "afford" not in page.split("Say how many")[1][:80]


def test_a_close_refused_for_a_hand_in_play_names_and_links_the_table() -> None:
    w = world(3)
    start(w)
    response = signed_in("organiser").post(
        f"/organiser/days/{w.day.pk}/close/", {"qualify_rule": "afford", "confirm": "yes"}
    )
    page = response.content.decode()
    assert response.status_code == 409
    assert "a hand is still in play at table 1" in page
    assert f'href="/tablet/tables/{w.table.pk}/"' in page
    assert Day.objects.get(pk=w.day.pk).is_open


def test_the_dashboard_shows_the_closes_audit(django_capture_on_commit_callbacks: Any) -> None:
    w = world(3)
    played(w)
    organiser = signed_in("organiser")
    board = f"/organiser/events/{w.event.pk}/"
    assert "Not run yet" in organiser.get(board).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        organiser.post(
            f"/organiser/days/{w.day.pk}/close/", {"qualify_rule": "afford", "confirm": "yes"}
        )
    check = LedgerCheck.objects.get()
    assert check.ok
    page = organiser.get(board).content.decode()
    assert "Not run yet" not in page and ">PASS<" in page
    assert f"at {timezone.localtime(check.at):%H:%M}" in page


def test_the_dashboard_runs_the_periodic_audit_where_no_beat_runs(settings: Any) -> None:
    w = world(2)
    organiser = signed_in("organiser")
    board = f"/organiser/events/{w.event.pk}/live/"
    organiser.get(board)
    assert not LedgerCheck.objects.exists()  # off unless asked (make run asks)
    settings.BRAG_DASHBOARD_AUDIT = True
    organiser.get(board)
    organiser.get(board)
    assert LedgerCheck.objects.count() == 1  # due once, then not again within the period
    assert LedgerCheck.objects.get().ok
