"""The workflow holes of issue 16, through the console's pages: a day's seating cannot be drawn
and a day cannot open before the day before it has closed; the dashboard offers to open only
the day that may; a day's rules are edited in the console only until it opens."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from brag_event.events.models import Day, Event
from brag_event.players.services import player_register
from brag_event.tables.models import SeatingDraw
from brag_event.tables.services import seat_leave
from tests.factories import play_day, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Client:
    return signed_in("organiser", "org")


def day(event: Event, number: int) -> Day:
    return Day.objects.get(event=event, number=number)


def text(response: Any) -> str:
    return str(response.content.decode())


def test_days_follow_each_other_through_the_console(
    organiser: Client, django_capture_on_commit_callbacks: Any
) -> None:
    organiser.post(
        "/organiser/events/new/",
        {"form": "flash", "name": "E", "currency": "MB", "starting_money": "1000"},
    )
    event = Event.objects.get(name="E")
    for name in ("Ann", "Ben", "Cat"):
        player_register(event=event, name=name, starting_money=1000, by=None)
    d1, d2, d3 = day(event, 1), day(event, 2), day(event, 3)
    dashboard = text(organiser.get(f"/organiser/events/{event.pk}/"))
    assert "Open day 1" in dashboard and "Open day 2" not in dashboard

    # Day 2 cannot open, nor be drawn, while day 1 is scheduled or open.
    refused = text(organiser.post(f"/organiser/days/{d2.pk}/open/", follow=True))
    assert "Day 1 is scheduled: the opening of day 2 waits until day 1 has closed." in refused
    organiser.post(f"/organiser/days/{d1.pk}/open/", {"confirm": "yes"})
    assert day(event, 1).status == "open"
    refused = text(organiser.post(f"/organiser/days/{d2.pk}/open/", follow=True))
    assert "Day 1 is open: the opening of day 2 waits until day 1 has closed." in refused
    draw = organiser.post(f"/organiser/days/{d2.pk}/seating/", {"form": "draw", "seed": ""})
    assert draw.status_code == 400
    assert "Day 1 is open: the seating draw of day 2 waits until day 1 has closed." in text(draw)
    assert not SeatingDraw.objects.filter(day=d2).exists()
    assert day(event, 2).status == "scheduled"

    # Day 1's rules are fixed now; day 2's can still change.
    rules = organiser.get(f"/organiser/days/{d1.pk}/setup/")
    assert 'name="ante"' not in text(rules) and "can no longer be changed" in text(rules)
    assert 'name="ante"' in text(organiser.get(f"/organiser/days/{d2.pk}/setup/"))

    # Ann, Ben and Cat play a hand and leave the table (only the players of a day can qualify).
    table = play_day(day(event, 1), list(event.players.order_by("name")))
    for seat in table.seats:
        seat_leave(seat=seat, by=None)
    # Day 1 closes (nobody seated: at once); now day 2 may open, day 3 still may not.
    with django_capture_on_commit_callbacks(execute=True):
        organiser.post(
            f"/organiser/days/{d1.pk}/close/", {"qualify_rule": "afford", "confirm": "yes"}
        )
    assert day(event, 1).status == "closed"
    dashboard = text(organiser.get(f"/organiser/events/{event.pk}/"))
    assert "Open day 2" in dashboard and "Open day 3" not in dashboard
    refused = text(organiser.post(f"/organiser/days/{d3.pk}/open/", follow=True))
    assert "Day 2 is scheduled: the opening of day 3 waits until day 2 has closed." in refused
    organiser.post(f"/organiser/days/{d2.pk}/seating/", {"form": "draw", "seed": "s"})
    drawn = SeatingDraw.objects.get(day=d2)
    # Drawn from day 1's qualifiers: everyone can afford day 2's 180 plus the fee of 25.
    assert sorted(s["name"] for t in drawn.plan for s in t["seats"]) == ["Ann", "Ben", "Cat"]
    assert {s["amount"] for t in drawn.plan for s in t["seats"]} == {475}
