"""The results exchange file over the API: an event's file once it has finished (refused in
the one error shape before), and a file imported as a past event, refusals pointing at the
place in the document (docs/results-exchange.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from brag_event.closing.exchange.document import schema_problems
from brag_event.closing.exchange.services import MAX_BYTES
from brag_event.events.models import Event
from brag_event.players.models import Person
from tests.exchange_world import finished_event, minimal_document
from tests.factories import user_in, world

from .conftest import assert_error, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> APIClient:
    api = APIClient()
    api.force_authenticate(user_in("organiser"))
    return api


def test_an_events_file_once_it_has_finished(
    client: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    live = world(3, name="LIVE")
    said = assert_error(
        client.get(f"/api/v1/events/{live.event.pk}/results-exchange/"),
        409,
        "exchange_not_finished",
    )
    assert said["message"].startswith("LIVE's day 1 has not closed yet")
    event = finished_event(django_capture_on_commit_callbacks)
    answer = client.get(f"/api/v1/events/{event.pk}/results-exchange/")
    assert answer.status_code == 200
    document = answer.json()
    assert schema_problems(document) == [] and document["event"]["uid"] == str(event.uid)


def test_a_file_posted_is_imported_as_a_past_event(client: APIClient) -> None:
    made = post(client, "/api/v1/results-exchange/", minimal_document(), key="x1")
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["name"] == "Club night" and body["days"] == 1
    assert body["people_new"] == [4001, 4002] and body["people_known"] == []
    assert body["message"].startswith("Club night imported as a past event: 1 day, 2 players")
    assert Event.objects.get(pk=body["event"]).imported
    # The same key again: the same answer, nothing imported twice (Idempotency-Key).
    replay = post(client, "/api/v1/results-exchange/", minimal_document(), key="x1")
    assert replay.status_code == 201 and replay.json() == body
    again = post(client, "/api/v1/results-exchange/", minimal_document(), key="x2")
    assert_error(again, 409, "exchange_event_here")


def test_a_file_of_a_whole_event_is_larger_than_other_bodies_and_still_taken(
    client: APIClient,
) -> None:
    """An event of 300 players over three days is over 100 KB: over the 64 KB every other body
    of the API may have, under the results file's own limit through the API (Django's 2.5 MB on
    a request's body; the console's upload takes 4 MB)."""
    document = minimal_document("FLASH 2023")
    people = [{"number": 5000 + i, "name": f"Player {i:03d}", "club": "Club"} for i in range(300)]
    rows = [  # as an export writes them
        {
            "rank": i + 1,
            "number": 5000 + i,
            "money": 1000 - i,
            "change": -i,
            "hands_played": 40,
            "hands_won": 5,
            "qualified": True,
            "disqualified": False,
        }
        for i in range(300)
    ]
    document["people"] = people
    document["days"] = [{**document["days"][0], "number": n, "results": rows} for n in (1, 2, 3)]
    body = json.dumps(document).encode()
    limit = min(MAX_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    assert settings.BRAG_JSON_MAX_BYTES < len(body) < limit
    made = post(client, "/api/v1/results-exchange/", document, key="big")
    assert made.status_code == 201, made.json()
    assert made.json()["days"] == 3 and len(made.json()["people_new"]) == 300
    # Over the file's own limit: refused before it is read, in the error shape.
    too_large = client.generic(
        "POST",
        "/api/v1/results-exchange/",
        '{"format": "brag-results/1", "pad": "' + "x" * limit + '"}',
        content_type="application/json",
    )
    error = assert_error(too_large, 413, "request_too_large")
    assert error["details"]["limit_bytes"] == limit


def test_a_refusal_says_where_in_the_file(client: APIClient) -> None:
    document = minimal_document()
    document["days"][0]["results"][1]["number"] = 1043
    said = assert_error(
        post(client, "/api/v1/results-exchange/", document, key="y1"),
        400,
        "exchange_unknown_number",
    )
    assert said["message"] == (
        "Day 1's results name membership number 1043, who is not among the event's people."
    )
    assert said["details"]["at"] == "/days/0/results/1/number"
    for body, code in (([1, 2], "exchange_not_results"), ({"format": "csv"}, "exchange_format")):
        assert_error(post(client, "/api/v1/results-exchange/", body, key=code), 400, code)
    assert not Event.objects.exists() and not Person.objects.exists()
