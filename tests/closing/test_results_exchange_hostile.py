"""Hostile results files (issue 43): a 5,001-digit number, a closing time in 9999 or before
1970, a root of an unknown version, a document saying another version of its format, the time
zone "localtime" — each refused in words where it stands, in the console (400, the form), over
the API (400, the error shape) and by the service, never a 500, and nothing imported."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from brag_event.closing.exchange.services import document_from_file, event_import_results
from brag_event.events.models import Event
from brag_event.players.models import Person
from tests.exchange_world import minimal_document
from tests.factories import refused, signed_in, user_in

pytestmark = pytest.mark.django_db

HUGE = "9" * 5001


def _raw(text: str, old: str, new: str) -> bytes:
    assert old in text
    return text.replace(old, new, 1).encode()


def _file(change: Callable[[dict[str, Any]], Any]) -> bytes:
    document = minimal_document()
    change(document)
    return json.dumps(document).encode()


def _base() -> str:
    return json.dumps(minimal_document())


def _root(version: Any) -> Callable[[dict[str, Any]], Any]:
    def change(d: dict[str, Any]) -> None:
        d["days"][0]["root"] = {"version": version, "value": "ab" * 32}

    return change


HOSTILE: list[tuple[str, Callable[[], bytes], str, str, str]] = [
    (
        "a 5,001-digit number",
        lambda: _raw(_base(), '"number": 4002', f'"number": {HUGE}'),
        "exchange_invalid",
        "The membership number of person 2 of the event's people must be a whole number from "
        "1 to 99,999,999, not a number of 5,001 digits.",
        "/people/1/number",
    ),
    (
        "a 5,001-digit number where text goes",
        lambda: _raw(_base(), '"name": "Bo"', f'"name": -{HUGE}'),
        "exchange_invalid",
        "The name of person 2 of the event's people must be text, not a number of 5,001 digits.",
        "/people/1/name",
    ),
    (
        "a 5,001-digit number in a field not read",
        lambda: _raw(_base(), '"format"', f'"colour": {HUGE}, "format"'),
        "",
        "",
        "",
    ),
    (
        "a closing time in 9999",
        lambda: _file(lambda d: d["days"][0].update(closed_at="9999-12-31T23:59:59+00:00")),
        "exchange_invalid",
        "The closing time of day 1 must be from 01 January 1970 to now, not "
        '"9999-12-31T23:59:59+00:00": a results file tells what has happened.',
        "/days/0/closed_at",
    ),
    (
        "a closing time before the first moment",
        lambda: _file(lambda d: d["days"][0].update(closed_at="0001-01-01T00:00:00+05:00")),
        "exchange_invalid",
        "The closing time of day 1 must be from 01 January 1970 to now",
        "/days/0/closed_at",
    ),
    (
        "a day's date in 9999",
        lambda: _file(lambda d: d["days"][0].update(date="9999-01-01")),
        "exchange_invalid",
        "The date of day 1 must be from 01 January 1970 to ",
        "/days/0/date",
    ),
    (
        "a document of version 99",
        lambda: _file(lambda d: d.update(version=99)),
        "exchange_format",
        "This file says it is version 99 of its format: this installation reads "
        "brag-results/1 (version 1).",
        "/version",
    ),
    (
        "a root of version 99",
        lambda: _file(_root(99)),
        "exchange_invalid",
        "Day 1's root is of version 99, which this installation does not know: it reads "
        "versions 1 to 3 (brag-day/1 to brag-day/3).",
        "/days/0/root/version",
    ),
    (
        "the time zone localtime",
        lambda: _file(lambda d: d["event"].update(time_zone="localtime")),
        "exchange_invalid",
        'The event\'s time zone must be an IANA name such as Europe/London, not "localtime".',
        "/event/time_zone",
    ),
    (
        "the time zone Factory",
        lambda: _file(lambda d: d["event"].update(time_zone="Factory")),
        "exchange_invalid",
        'not "Factory".',
        "/event/time_zone",
    ),
]
IDS = [h[0] for h in HOSTILE]


def nothing_imported() -> bool:
    return not Event.objects.exists() and not Person.objects.exists()


@pytest.mark.parametrize(("case", "data", "code", "words", "at"), HOSTILE, ids=IDS)
def test_the_service_refuses_in_words_where_it_stands(
    case: str, data: Callable[[], bytes], code: str, words: str, at: str
) -> None:
    if not code:  # a field no reader knows is left out, whatever it holds
        event_import_results(document=document_from_file(data()), by=None)
        assert Event.objects.get().name == "Club night"
        return
    err = refused(code, lambda: event_import_results(document=document_from_file(data()), by=None))
    assert words in err.message, err.message
    assert err.details["at"] == at
    assert nothing_imported()


@pytest.mark.parametrize(("case", "data", "code", "words", "at"), HOSTILE, ids=IDS)
def test_the_console_says_it_on_the_form(
    case: str, data: Callable[[], bytes], code: str, words: str, at: str
) -> None:
    client = signed_in("organiser")
    upload = SimpleUploadedFile("results.json", data(), content_type="application/json")
    response = client.post(reverse("organiser:results_import"), {"file": upload})
    if not code:
        assert response.status_code == 302
        return
    assert response.status_code == 400
    html = response.content.decode()
    assert json.dumps(words)[1:-1].replace("'", "&#x27;").replace('\\"', "&quot;") in html
    assert nothing_imported()


@pytest.mark.parametrize(("case", "data", "code", "words", "at"), HOSTILE, ids=IDS)
def test_the_api_answers_400_with_the_words(
    case: str, data: Callable[[], bytes], code: str, words: str, at: str
) -> None:
    client = APIClient()
    client.force_authenticate(user_in("organiser"))
    response = client.post("/api/v1/results-exchange/", data(), content_type="application/json")
    if not code:
        assert response.status_code == 201, response.content
        return
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"]["code"] == code and words in body["error"]["message"]
    assert nothing_imported()
