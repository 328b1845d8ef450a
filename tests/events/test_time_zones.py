"""One time zone per event: chosen when the event is created (a validated IANA name, the settings'
TIME_ZONE unless chosen), and every page and export of that event shows its times in it, with
the zone's name — here an event in Tokyo on a server whose TIME_ZONE is Europe/London."""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import re
import zoneinfo
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from brag_event.audit.models import AuditEntry
from brag_event.core.errors import ServiceError
from brag_event.events.models import Event
from brag_event.events.services import event_create_flash
from brag_event.hands.models import Hand
from brag_event.ledger.models import LedgerCheck, Transfer
from brag_event.players.links import player_path
from brag_event.tables.models import SeatingDraw
from tests.factories import World, played, signed_in, world
from tests.processes import python_code

pytestmark = pytest.mark.django_db

TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")
LONDON = zoneinfo.ZoneInfo("Europe/London")


@pytest.fixture(autouse=True)
def _london(settings: Any) -> None:
    settings.TIME_ZONE = "Europe/London"


@pytest.fixture
def w() -> World:
    w = world(3, name="Tokyo Open", time_zone="Asia/Tokyo")
    played(w)
    return w


def tokyo(at: dt.datetime, fmt: str = "%H:%M") -> str:
    return timezone.localtime(at, TOKYO).strftime(fmt) + " JST"


def london(at: dt.datetime, fmt: str = "%H:%M") -> str:
    return timezone.localtime(at, LONDON).strftime(fmt)


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_an_event_gets_the_settings_zone_unless_one_is_chosen(settings: Any) -> None:
    assert event_create_flash(name="Here", by=None).time_zone == "Europe/London"
    settings.TIME_ZONE = "America/New_York"
    assert event_create_flash(name="There", by=None).time_zone == "America/New_York"
    assert event_create_flash(name="Far", time_zone="Asia/Tokyo", by=None).time_zone == (
        "Asia/Tokyo"
    )


@pytest.mark.parametrize("bad", ["Mars/Olympus", "asia/tokyo", "", "Europe/London "])
def test_a_zone_that_is_not_one_is_refused_and_nothing_is_created(bad: str) -> None:
    with pytest.raises(ServiceError) as refused:
        event_create_flash(name="Nowhere", time_zone=bad, by=None)
    assert refused.value.code == "invalid_time_zone"
    assert refused.value.details == {"field": "time_zone"}
    assert not Event.objects.exists()


def test_the_organiser_chooses_the_zone_when_creating_the_event() -> None:
    organiser = signed_in("organiser")
    form = page(organiser, "/organiser/events/new/")
    assert '<option value="Asia/Tokyo">Asia/Tokyo</option>' in form
    assert '<option value="Europe/London" selected>' in form
    base = {
        "form": "flash",
        "name": "Tokyo Open",
        "currency": "MB",
        "start": "",
        "starting_money": "500",
    }
    refused = organiser.post("/organiser/events/new/", {**base, "time_zone": "Mars/Olympus"})
    assert refused.status_code == 400
    assert "Choose a time zone from the list" in refused.content.decode()
    assert not Event.objects.exists()
    done = organiser.post("/organiser/events/new/", {**base, "time_zone": "Asia/Tokyo"})
    assert done.status_code == 302
    event = Event.objects.get()
    assert event.time_zone == "Asia/Tokyo"
    assert "Time zone: <strong>Asia/Tokyo</strong>" in page(organiser, done["Location"])


def test_the_console_shows_the_events_local_times_with_the_zone(w: World) -> None:
    organiser = signed_in("organiser")
    entry = AuditEntry.objects.filter(event_id=w.event.pk).latest("at")
    log = page(organiser, f"/organiser/events/{w.event.pk}/audit/")
    assert tokyo(entry.at, "%H:%M:%S") in log
    assert london(entry.at, "%H:%M:%S") not in log
    # The seating draw, on a page named by the day.
    organiser.post(f"/organiser/days/{w.day.pk}/seating/", {"form": "draw", "seed": "tz"})
    draw = SeatingDraw.objects.get()
    seating = page(organiser, f"/organiser/days/{w.day.pk}/seating/?draw={draw.pk}")
    assert f"Drawn {timezone.localtime(draw.created_at, TOKYO):%-d %b %Y %H:%M} JST" in seating
    # The integrity monitor's page of a hand, named by the hand.
    hand = Hand.objects.get()
    dealt = page(organiser, f"/organiser/hands/{hand.pk}/")
    assert tokyo(hand.started_at, "%H:%M:%S") in dealt
    # The dashboard's clock.
    dashboard = page(organiser, f"/organiser/events/{w.event.pk}/")
    assert 'data-time-zone="Asia/Tokyo" data-zone-label="JST"' in dashboard
    assert re.search(r"Updated \d\d:\d\d JST", dashboard)


def test_a_failed_ledger_audits_alert_says_the_events_time(w: World) -> None:
    check = LedgerCheck.objects.create(event=w.event, ok=False, lines=["[FAIL] a check"])
    dashboard = page(signed_in("organiser"), f"/organiser/events/{w.event.pk}/")
    assert f"The ledger audit of {tokyo(check.at)} FAILED" in dashboard
    assert f"What the ledger audit of {tokyo(check.at)} found" in dashboard


def test_the_players_page_and_the_standings_show_the_events_times(w: World, client: Client) -> None:
    hand = Hand.objects.get()
    mine = page(client, player_path(w.players[1]))
    assert hand.settled_at is not None
    assert f"<td>{tokyo(hand.settled_at)}</td>" in mine
    for url in (f"/standings/{w.event.pk}/", f"/standings/{w.event.pk}/?big=1"):
        standings = page(client, url)
        assert 'data-time-zone="Asia/Tokyo" data-zone-label="JST"' in standings
        assert re.search(r"Updated \d\d:\d\d:\d\d JST", standings)


def test_the_ledger_csv_is_in_the_events_local_time_with_its_zone(w: World) -> None:
    organiser = signed_in("organiser")
    answer = organiser.get(f"/organiser/events/{w.event.pk}/ledger.csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(answer.streaming_content).decode())))  # type: ignore[attr-defined]
    transfers = {t.pk: t for t in Transfer.objects.filter(event=w.event)}
    assert len(rows) == len(transfers) > 0
    for row in rows:
        at = dt.datetime.fromisoformat(row["at"])
        assert row["at"].endswith("+09:00") and row["time_zone"] == "Asia/Tokyo"
        assert at == transfers[int(row["id"])].created_at.replace(microsecond=0)


def test_an_events_zone_stays_with_its_pages(w: World) -> None:
    """The zone is the request's, not the thread's: the next page of another event (or of none)
    is in its own."""
    organiser = signed_in("organiser")
    page(organiser, f"/organiser/events/{w.event.pk}/audit/")
    assert timezone.get_current_timezone_name() == "Europe/London"
    other = world(3, name="At home")
    played(other)
    entry = AuditEntry.objects.filter(event_id=other.event.pk).latest("at")
    log = page(organiser, f"/organiser/events/{other.event.pk}/audit/")
    assert london(entry.at, "%H:%M:%S") in log and "JST" not in log


def test_the_default_zone_comes_from_the_environment() -> None:
    code = "from django.conf import settings; print(settings.TIME_ZONE)"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "brag_event.settings"}
    done = python_code(code, {**env, "BRAG_TIME_ZONE": "Europe/Paris"}, timeout=60)
    assert done.stdout.strip() == "Europe/Paris", done.stderr
    done = python_code(code, {**env, "BRAG_TIME_ZONE": "Paris"}, timeout=60)
    assert done.returncode != 0
    assert "BRAG_TIME_ZONE is not a time zone's IANA name: 'Paris'" in done.stderr
