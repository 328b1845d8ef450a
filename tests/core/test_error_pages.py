"""Our own error pages with DEBUG off (as in production and under `make run`): a page not found,
a page refused, a request not understood and a failure on our side each answer with their status
and a page in words for people, in the console's look, with a way back — never Django's debug
page or its bare "Server Error"."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.core.error_urls")]


@pytest.fixture(autouse=True)
def _debug_off(settings: Any) -> None:
    settings.DEBUG = False


def assert_our_page(body: str, heading: str) -> None:
    assert f'<h1 id="error-title">{heading}</h1>' in body
    assert "core/brag.css" in body
    assert 'href="/">Go to the start page</a>' in body
    assert "Traceback" not in body and "DEBUG = True" not in body and "Django" not in body


def test_a_page_not_found_is_ours(client: Client) -> None:
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert_our_page(body, "We can't find that page")
    assert "<strong>/no/such/page/</strong>" in body


def test_an_unknown_event_is_our_404(client: Client) -> None:
    response = client.get("/standings/987654/")
    assert response.status_code == 404
    assert_our_page(response.content.decode(), "We can't find that page")


def test_a_refused_page_is_ours(client: Client) -> None:
    response = client.get("/test-errors/forbidden/")
    assert response.status_code == 403
    body = response.content.decode()
    assert "<h1>Not allowed</h1>" in body and "core/brag.css" in body
    assert "Sign in" in body


def test_a_request_not_understood_is_ours(client: Client) -> None:
    response = client.get("/test-errors/bad/")
    assert response.status_code == 400
    assert_our_page(response.content.decode(), "The request was not understood")


def test_a_failure_on_our_side_is_ours() -> None:
    client = Client(raise_request_exception=False)
    response = client.get("/test-errors/boom/")
    assert response.status_code == 500
    body = response.content.decode()
    assert_our_page(body, "Something went wrong on our side")
    assert "the error page test&#x27;s own failure" not in body  # nothing of the error shown


def test_a_database_away_is_a_503_in_words_not_a_500(caplog: Any) -> None:
    """A view that cannot reach the database (PostgreSQL restarting): 503 with Retry-After, our
    page in words; logged in one line, without a traceback."""
    client = Client(raise_request_exception=False)
    with caplog.at_level("WARNING"):
        response = client.get("/test-errors/database-away/")
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    body = response.content.decode()
    assert_our_page(body, "Back in a moment")
    assert "Nothing you sent was saved" in body and "server closed" not in body
    said = [r for r in caplog.records if r.name in ("django.request", "brag_event.db")]
    assert [(r.name, r.levelname) for r in said] == [("brag_event.db", "WARNING")]
    assert not any(r.exc_info for r in said)


def test_a_database_away_before_the_view_is_a_503_too(client: Client) -> None:
    """The event's time zone is looked up by a middleware before the view: the database away
    there is the same 503 (the 500 handler sees every failure, not only the views')."""
    client.raise_request_exception = False
    away = OperationalError("connection refused")
    with mock.patch("brag_event.events.middleware.event_zone_for", side_effect=away):
        response = client.get("/standings/1/")
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert_our_page(response.content.decode(), "Back in a moment")


def test_a_database_away_under_the_api_is_its_error_shape() -> None:
    client = Client(raise_request_exception=False)
    response = client.get("/api/test-errors/database-away/")
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert response.json() == {
        "error": {
            "code": "database_unavailable",
            "message": "The server could not reach its database; nothing was saved. Try again.",
            "details": {},
        }
    }
