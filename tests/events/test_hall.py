"""Announcements and the day's clock (events.hall): logged, bumping the event's version (so the
hall's screen and the players' pages are rendered again), bad input refused with a code and
nothing changed."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from brag_event.audit.models import AuditEntry, Verb
from brag_event.events.hall import (
    announcement_post,
    announcement_remove,
    announcements_shown,
    day_clock_set,
)
from brag_event.events.models import Announcement, Event
from brag_event.tables.versions import standings_version
from tests.factories import refused, signed_in, world

pytestmark = pytest.mark.django_db


def test_an_announcement_is_shown_logged_and_bumps_the_version() -> None:
    w = world(2)
    before = standings_version(w.event.pk)
    said = announcement_post(event=w.event, text="  Dinner   at 19:30 ", by=None)
    assert said.text == "Dinner at 19:30"
    assert announcements_shown(w.event.pk) == [said]
    assert standings_version(w.event.pk) != before
    entry = AuditEntry.objects.get(verb=Verb.ANNOUNCEMENT_POST)
    assert entry.event_id == w.event.pk and entry.data["text"] == "Dinner at 19:30"
    bumped = standings_version(w.event.pk)
    announcement_remove(announcement=said, by=None)
    assert announcements_shown(w.event.pk) == []
    assert standings_version(w.event.pk) != bumped
    assert AuditEntry.objects.filter(verb=Verb.ANNOUNCEMENT_REMOVE, event=w.event).count() == 1
    err = refused("already_removed", lambda: announcement_remove(announcement=said, by=None))
    assert "already" in err.message


@pytest.mark.parametrize(("text", "code"), [("   ", "empty_text"), ("x" * 201, "text_too_long")])
def test_a_bad_announcement_is_refused_and_changes_nothing(text: str, code: str) -> None:
    w = world(2)
    version = Event.objects.get(pk=w.event.pk).version
    refused(code, lambda: announcement_post(event=w.event, text=text, by=None))
    assert Announcement.objects.count() == 0
    assert Event.objects.get(pk=w.event.pk).version == version


def test_the_days_clock_is_set_logged_and_checked() -> None:
    w = world(2)
    version = Event.objects.get(pk=w.event.pk).version
    day_clock_set(day=w.day, break_at=dt.time(19, 30), ends_at=dt.time(23, 0), by=None)
    w.day.refresh_from_db()
    assert (w.day.break_at, w.day.ends_at) == (dt.time(19, 30), dt.time(23, 0))
    assert Event.objects.get(pk=w.event.pk).version == version + 1
    assert AuditEntry.objects.get(verb=Verb.DAY_CLOCK).data == {
        "break_at": "19:30",
        "ends_at": "23:00",
    }
    refused(
        "break_after_end",
        lambda: day_clock_set(day=w.day, break_at=dt.time(23, 30), ends_at=dt.time(23, 0), by=None),
    )
    w.day.refresh_from_db()
    assert w.day.break_at == dt.time(19, 30)


def test_the_console_page_posts_takes_down_and_refuses_in_words(settings: Any) -> None:
    w = world(2)
    client: Client = signed_in("organiser")
    url = f"/organiser/events/{w.event.pk}/hall/"
    assert client.get(url).status_code == 200
    answer = client.post(url, {"form": "announce", "text": "Seats for day 2 are drawn"})
    assert answer.status_code == 302
    said = Announcement.objects.get()
    page = client.get(f"/standings/{w.event.pk}/hall/").content.decode()
    assert "Seats for day 2 are drawn" in page
    bad = client.post(url, {"form": "clock", "break_at": "23:30", "ends_at": "23:00"})
    assert bad.status_code == 400
    assert "The break must come before the day&#x27;s end." in bad.content.decode()
    client.post(url, {"form": "remove", "announcement": str(said.pk)})
    assert Announcement.objects.get().removed_at is not None
    assert client.post(url, {"form": "nonsense"}).status_code == 400
    # Not for a dealer.
    dealer = signed_in("dealer", "dan")
    assert dealer.get(url).status_code in (302, 403)


def test_the_hall_is_answered_by_version() -> None:
    w = world(2)
    client = Client()
    first = client.get(f"/standings/{w.event.pk}/hall/")
    etag = first["ETag"]
    again = client.get(f"/standings/{w.event.pk}/hall/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    day_clock_set(day=w.day, break_at=dt.time(19, 30), ends_at=None, by=None)
    changed = client.get(f"/standings/{w.event.pk}/hall/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "Break at 19:30" in changed.content.decode()
