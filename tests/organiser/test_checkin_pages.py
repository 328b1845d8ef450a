"""The check-in pages (issue 47): the console's window form (times in the event's zone), the
desk's search and check-in, the late arrivals; the player's own page and its button; the
hall's "Check in now" — and each page changes when the window opens or closes by the clock
alone (their versions carry where the clock stands against the window)."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from brag_event.access.models import StaffRole
from brag_event.audit.models import AuditEntry, Verb
from brag_event.events.models import Day, Event
from brag_event.events.services import day_open, event_create_flash
from brag_event.players.checkin import checkin_window_set, player_check_in
from brag_event.players.links import player_path
from brag_event.players.models import CheckIn, CheckInWindow, Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.seating import seating_apply, seating_draw
from tests.factories import signed_in, user_in

pytestmark = pytest.mark.django_db


def make(n: int = 3) -> tuple[Event, Day, list[Player]]:
    event = event_create_flash(name="FLASH", by=None)
    Event.objects.filter(pk=event.pk).update(time_zone="Europe/Paris")
    day = Day.objects.select_related("event").get(event=event, number=1)
    players = [
        player_register(event=event, name=f"Player {i:02d}", starting_money=1000, by=None)
        for i in range(n)
    ]
    return event, day, players


def url(day: Day) -> str:
    return f"/organiser/days/{day.pk}/seating/check-in/"


def open_window(day: Day, *, opened: int = -5, closes: int = 60) -> None:
    now = timezone.now()
    checkin_window_set(
        day=day,
        opens_at=now + timedelta(minutes=opened),
        closes_at=now + timedelta(minutes=closes),
        by=None,
    )


def test_the_window_form_reads_its_times_in_the_events_zone() -> None:
    _event, day, _players = make()
    client = signed_in()
    page = client.get(url(day)).content.decode()
    assert "Check-in is not open" in page and "Europe/Paris" in page
    answer = client.post(
        url(day),
        {
            "form": "window",
            "opens_at": "2026-11-28T18:00",
            "closes_at": "2026-11-28T19:30",
            "draw_checked_in_only": "on",
        },
    )
    assert answer.status_code == 302
    window = CheckInWindow.objects.get(day=day)
    assert window.opens_at.isoformat() == "2026-11-28T17:00:00+00:00"  # 18:00 in Paris
    assert window.draw_checked_in_only
    # Closing before it opens: refused on the field, in words, nothing changed.
    answer = client.post(
        url(day),
        {"form": "window", "opens_at": "2026-11-28T18:00", "closes_at": "2026-11-28T17:00"},
    )
    assert answer.status_code == 400
    assert "Check-in must close after it opens." in answer.content.decode()
    assert CheckInWindow.objects.get(day=day).closes_at.isoformat() == "2026-11-28T18:30:00+00:00"
    assert AuditEntry.objects.filter(verb=Verb.CHECKIN_WINDOW).count() == 1


def desk(page: str) -> str:
    """The desk's list of players found (what the page's script puts in place as you type)."""
    return page.split('id="desk-results"', 1)[1].split("</section>", 1)[0]


def test_the_desk_finds_a_player_and_checks_them_in_once() -> None:
    event, day, players = make()
    sam = player_register(event=event, name="Samira Okafor", starting_money=1000, by=None)
    open_window(day)
    client = signed_in()
    found = desk(client.get(url(day), {"q": "okaf"}).content.decode())
    assert "Check in Samira Okafor" in found and "Player 00" not in found
    assert "Nobody of day 1 matches" in desk(client.get(url(day), {"q": "zzz"}).content.decode())
    answer = client.post(f"{url(day)}?q=okaf", {"form": "desk", "player": sam.pk})
    assert answer.status_code == 302 and answer["Location"].endswith("?q=okaf#desk")
    page = client.get(answer["Location"]).content.decode()
    assert "Samira Okafor checked in." in page and "at the desk" in page
    again = client.post(f"{url(day)}?q=okaf", {"form": "desk", "player": sam.pk}, follow=True)
    assert "Samira Okafor was already checked in at" in again.content.decode()
    assert CheckIn.objects.filter(day=day).count() == 1
    page = client.get(url(day)).content.decode()
    assert "Not checked in (3)" in page and players[0].name in page


def test_a_floor_supervisor_of_the_event_works_the_desk_but_not_the_window() -> None:
    """``checkin.desk`` and ``checkin.seat_late`` are a supervisor's; the window stays the
    organisers' ("event.manage"): not on their page, and refused when posted."""
    event, day, players = make()
    open_window(day)
    supervisor = user_in("nobody", "floor")
    StaffRole.objects.create(user=supervisor, event=event, role="supervisor")
    client = Client()
    client.force_login(supervisor)
    page = client.get(url(day), {"q": "Player 01"}).content.decode()
    assert "Check in Player 01" in desk(page)
    assert 'value="window"' not in page and "Seating draw" not in page
    answer = client.post(url(day), {"form": "desk", "player": players[1].pk}, follow=True)
    assert "Player 01 checked in." in answer.content.decode()
    made = CheckIn.objects.get(day=day, player=players[1])
    assert made.how == CheckIn.How.DESK and made.by == supervisor
    window = CheckInWindow.objects.get(day=day)
    now = timezone.localtime().strftime("%Y-%m-%dT%H:%M")
    refused = client.post(url(day), {"form": "window", "opens_at": now, "closes_at": now})
    assert refused.status_code == 403
    assert CheckInWindow.objects.get(day=day).closes_at == window.closes_at
    # A supervisor of another event: not this event's desk.
    other = event_create_flash(name="OTHER", by=None)
    away = user_in("nobody", "away")
    StaffRole.objects.create(user=away, event=other, role="supervisor")
    client.force_login(away)
    assert client.get(url(day)).status_code == 403
    assert client.post(url(day), {"form": "desk", "player": players[2].pk}).status_code == 403
    assert CheckIn.objects.filter(day=day).count() == 1


def test_a_late_arrival_is_seated_from_the_page() -> None:
    _event, day, players = make(8)
    day = day_open(day=day, by=None)
    open_window(day)
    for p in players[:7]:
        player_check_in(day=day, player=p, how="page", by=None)
    seating_apply(draw=seating_draw(day=day, seed="x", by=None), by=None)
    late = players[7]
    player_check_in(day=day, player=late, how="desk", by=None)
    client = signed_in()
    page = client.get(url(day)).content.decode()
    assert "Checked in after the draw" in page and f"Seat {late.name}" in page
    answer = client.post(url(day), {"form": "late", "player": late.pk}, follow=True)
    seat = Seat.objects.get(player=late, left_at__isnull=True)
    assert f"{late.name} seated at table {seat.table.number}, seat {seat.number}." in (
        answer.content.decode()
    )


def test_a_player_checks_in_from_their_own_page() -> None:
    _event, day, players = make()
    phone = Client(enforce_csrf_checks=True)
    path = player_path(players[0])
    assert "Check-in for day" not in phone.get(path).content.decode()
    open_window(day)
    page = phone.get(path).content.decode()
    assert "Check in for day 1" in page
    answer = phone.post(f"{path}check-in/")
    assert answer.status_code == 302 and answer["Location"] == f"{path}#checkin"
    assert answer["Referrer-Policy"] == "no-referrer"
    page = phone.get(path).content.decode()
    assert "You are checked in" in page and "from their own page" in page
    (made,) = CheckIn.objects.filter(day=day)
    assert made.how == "page" and made.player == players[0]


def test_a_player_is_refused_in_words_once_check_in_has_closed() -> None:
    _event, day, players = make()
    open_window(day, opened=-60, closes=-1)
    phone = Client()
    path = player_path(players[0])
    assert "Check-in closed at" in phone.get(path).content.decode()
    answer = phone.post(f"{path}check-in/")
    assert answer.status_code == 400
    assert "see the tournament desk" in answer.content.decode()
    assert not CheckIn.objects.exists()
    assert phone.get(f"{path}check-in/").status_code == 405


def test_the_hall_says_check_in_now_with_the_count_only_while_it_is_open() -> None:
    event, day, players = make()
    hall = f"/standings/{event.pk}/hall/"
    screen = Client()
    assert "Check in now" not in screen.get(hall).content.decode()
    now = timezone.now()
    opens, closes = now + timedelta(seconds=3), now + timedelta(seconds=9)
    checkin_window_set(day=day, opens_at=opens, closes_at=closes, by=None)
    assert "Check in now" not in screen.get(hall).content.decode()
    until(opens)  # no row changes: the clock alone
    page = screen.get(hall).content.decode()
    assert "Check in now" in page and "0 of 3" in page
    # The player's page too turns with the clock (it is kept by version).
    assert "Check in for day 1" in Client().get(player_path(players[0])).content.decode()
    player_check_in(day=day, player=players[1], how="page", by=None)
    assert "1 of 3" in screen.get(hall).content.decode()
    until(closes)
    assert "Check in now" not in screen.get(hall).content.decode()
    assert "Check-in closed at" in Client().get(player_path(players[0])).content.decode()


def until(moment: datetime) -> None:
    time.sleep(max(0.0, (moment - timezone.now()).total_seconds()) + 0.2)
