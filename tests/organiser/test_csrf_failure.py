"""A form that fails the CSRF check (the page stayed open while its user signed in again in
another tab): the console draws the form's page again, in words, with a fresh token and what
was typed; one press of the form's button sends it. A form sent from another site, a page
outside the console and the API get no values back."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from brag_event.players.models import Player
from tests.factories import user_in, world

pytestmark = pytest.mark.django_db

HOST = "http://testserver"
TYPED = {
    "form": "register",
    "name": "Asha Verma",
    "starting_money": "1500",
    "group": "Pune Brag Club",
    "number": "",
}


def token_of(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found, "no form token on the page"
    return found.group(1)


def resend_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="resend-data" type="application/json">(.*?)</script>', html)
    assert found, "the page carries no values to put back"
    return dict(json.loads(found.group(1)))


@pytest.fixture
def open_then_signed_in_again() -> tuple[Client, str, str]:
    """An organiser's players page, then a sign-in again (another tab): the page's token is
    now old. Returns the browser, the page's address and its old token."""
    w = world(0)
    user_in("organiser", "olga", password="olga-pw")
    browser = Client(enforce_csrf_checks=True)
    login = browser.get("/organiser/login/")
    signed = browser.post(
        "/organiser/login/",
        {"username": "olga", "password": "olga-pw", "csrfmiddlewaretoken": token_of(login.text)},
    )
    assert signed.status_code == 302
    page = f"/organiser/events/{w.event.pk}/players/"
    old = token_of(browser.get(page).text)
    again = browser.post(  # the other tab: signed in again, a new token
        "/organiser/login/",
        {"username": "olga", "password": "olga-pw", "csrfmiddlewaretoken": old},
    )
    assert again.status_code == 302
    return browser, page, old


def test_the_form_comes_back_on_its_page_with_what_was_typed_and_sends_once(
    open_then_signed_in_again: tuple[Client, str, str],
) -> None:
    browser, page, old = open_then_signed_in_again
    refused = browser.post(
        page,
        {**TYPED, "csrfmiddlewaretoken": old},
        HTTP_ORIGIN=HOST,
        HTTP_REFERER=HOST + page,
    )
    assert refused.status_code == 403
    html = refused.text
    assert "Your form was not sent" in html and "signed in again" in html
    assert 'id="register-form"' in html  # the players page itself, its form in place
    assert "no-store" in refused["Cache-Control"]
    assert "DEBUG" not in html and "CSRF" not in html.split("<script", 1)[0]
    assert resend_data(html) == {
        "action": page,
        "fields": {k: [v] for k, v in TYPED.items()},
        "files": False,
    }
    assert not Player.objects.filter(name="Asha Verma").exists()  # nothing sent by itself
    sent = browser.post(page, {**TYPED, "csrfmiddlewaretoken": token_of(html)})
    assert sent.status_code == 302
    assert Player.objects.filter(name="Asha Verma", balance=1500).count() == 1


def test_passwords_are_never_sent_back_to_the_page(
    open_then_signed_in_again: tuple[Client, str, str],
) -> None:
    browser, _, old = open_then_signed_in_again
    refused = browser.post(
        "/organiser/login/",
        {"username": "olga", "password": "olga-pw", "csrfmiddlewaretoken": old + "x"},
        HTTP_ORIGIN=HOST,
    )
    assert refused.status_code == 403
    assert resend_data(refused.text)["fields"] == {"username": ["olga"]}
    assert "olga-pw" not in refused.text


def test_a_form_from_another_site_gets_nothing_back(
    open_then_signed_in_again: tuple[Client, str, str],
) -> None:
    browser, page, old = open_then_signed_in_again
    for origin in ("https://evil.example", None):  # another site; no Origin said at all
        headers = {"Origin": origin} if origin else {}
        refused = browser.post(page, {**TYPED, "csrfmiddlewaretoken": old}, headers=headers)
        assert refused.status_code == 403
        html = refused.text
        assert "Your form was not sent" in html and "Asha Verma" not in html
        assert "resend-data" not in html and 'id="register-form"' not in html
    assert not Player.objects.exists()


def test_outside_the_console_a_page_in_words_and_the_api_its_error_shape() -> None:
    browser = Client(enforce_csrf_checks=True)
    page = browser.post("/tablet/login/", {"username": "d"}, HTTP_ORIGIN=HOST)
    assert page.status_code == 403
    assert "Your form was not sent" in page.text and "DEBUG" not in page.text
    api = browser.post("/api/v1/no-such-thing/", HTTP_ORIGIN=HOST)  # not a DRF view
    assert api.status_code == 403 and api.json()["error"]["code"] == "csrf_failed"
