"""Our own error pages with DEBUG off (as in production and under `make run`): a page not found,
a page refused, a request not understood and a failure on our side each answer with their status
and a page in words for people, in the console's look, with a way back — never Django's debug
page or its bare "Server Error"."""

from __future__ import annotations

from typing import Any

import pytest
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
