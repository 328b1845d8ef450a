"""The results exchange file in the console: the download from the final results (or, before
the last close, the page saying why), the import page's form and its refusals, and every page
of a past event opening (docs/results-exchange.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from brag_event.closing.exchange.document import event_results_document
from brag_event.events.models import Event
from brag_event.players.models import Person
from brag_event.series.services import series_create, series_event_add
from tests.exchange_world import finished_event, minimal_document, past_event
from tests.factories import signed_in, world

pytestmark = pytest.mark.django_db


def upload(data: bytes, name: str = "results.json") -> dict[str, Any]:
    return {"file": SimpleUploadedFile(name, data, content_type="application/json")}


def test_the_final_results_offer_the_file_and_it_is_the_events_document(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = finished_event(django_capture_on_commit_callbacks)
    client = signed_in("organiser")
    url = reverse("organiser:results_exchange", args=[event.pk])
    page = client.get(reverse("organiser:results_event", args=[event.pk])).content.decode()
    assert f'href="{url}"' in page
    last = event.days.get(number=3)
    close = client.get(reverse("organiser:day_close", args=[last.pk])).content.decode()
    assert f'href="{url}"' in close
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="results-{event.pk}-{event.uid.hex[:8]}.json"'
    )
    sent = json.loads(response.content)
    expected = event_results_document(event)
    sent.pop("exported_at"), expected.pop("exported_at")
    assert sent == expected


def test_before_the_last_close_the_download_says_why() -> None:
    w = world(3)
    client = signed_in("organiser")
    response = client.get(reverse("organiser:results_exchange", args=[w.event.pk]), follow=True)
    assert response.redirect_chain == [(reverse("organiser:results_event", args=[w.event.pk]), 302)]
    assert "an event&#x27;s results file is written once its last day has closed" in (
        response.content.decode()
    )


def test_the_import_page_imports_a_file_and_says_what_it_made() -> None:
    client = signed_in("organiser")
    url = reverse("organiser:results_import")
    assert client.get(url).status_code == 200
    data = json.dumps(minimal_document()).encode()
    response = client.post(url, upload(data, "club-night.json"), follow=True)
    past = Event.objects.get(name="Club night")
    assert response.redirect_chain == [(reverse("organiser:results_event", args=[past.pk]), 302)]
    html = response.content.decode()
    assert (
        "Club night imported as a past event: 1 day, 2 players (0 already registered here, "
        "2 new)." in html
    )
    assert 'id="imported-note"' in html


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\xff\xfe not text", "The file is not a results file: it is not text (UTF-8)."),
        (b"name,money\nAnn,10\n", "The file is not JSON: expecting value at line 1, column 1."),
        (b'{"format": "brag-results/9"}', "a version this installation does not read"),
    ],
)
def test_a_refused_file_is_said_on_the_form_and_nothing_is_imported(
    data: bytes, words: str
) -> None:
    client = signed_in("organiser")
    response = client.post(reverse("organiser:results_import"), upload(data))
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Event.objects.exists() and not Person.objects.exists()


def test_no_file_chosen_is_said_in_place() -> None:
    client = signed_in("organiser")
    response = client.post(reverse("organiser:results_import"), {})
    assert response.status_code == 400 and "This field is required." in response.content.decode()


def test_every_page_of_a_past_event_opens() -> None:
    past = past_event()
    series = series_create(name="Winter", points=[3, 2, 1], by=None)
    series_event_add(series=series, event=past, by=None)
    client = signed_in("organiser")
    day = past.days.get()
    player = past.players.order_by("pk").first()
    assert player is not None
    pages = [
        reverse("organiser:events"),
        reverse("organiser:dashboard", args=[past.pk]),
        reverse("organiser:players", args=[past.pk]),
        reverse("organiser:player", args=[player.pk]),
        reverse("organiser:person", args=[player.person_id]),
        reverse("organiser:day_close", args=[day.pk]),
        reverse("organiser:results_day", args=[day.pk]),
        reverse("organiser:results_event", args=[past.pk]),
        reverse("organiser:series_detail", args=[series.pk]),
        f"/standings/{past.pk}/",
        f"/series/{series.pk}/",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
    board = client.get(reverse("organiser:dashboard", args=[past.pk])).content.decode()
    assert "A past event, imported" in board
    person = client.get(reverse("organiser:person", args=[player.person_id])).content.decode()
    assert "Club night" in person
    standings = client.get(f"/standings/{past.pk}/").content.decode()
    assert "Bo" in standings and "300" in standings
