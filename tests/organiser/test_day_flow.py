"""The organiser's day flow through the console: every step that cannot be undone asks once
(a post without the confirmation changes nothing), the pending draw stays in view after the
day opens, a day's rules copied to the days after it, and letting a player back in."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from brag_event.audit.models import AuditEntry, Verb
from brag_event.core.errors import ServiceError
from brag_event.events.models import Day, DayRulesChange, Event
from brag_event.events.services import day_open, event_create_flash
from brag_event.events.setup import day_rules_copy, day_setup_change
from brag_event.players.models import Player, Qualification
from brag_event.players.services import player_register
from brag_event.tables.models import Seat, SeatingDraw
from tests.factories import play_day, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    event = event_create_flash(name="Brag Open 2026", count_at_close=False, by=None)
    for name in ("Ann", "Ben", "Cat", "Dee"):
        player_register(event=event, name=name, starting_money=1000, by=None)
    player_register(event=event, name="Poor", starting_money=50, by=None)
    return event


@pytest.fixture
def organiser() -> Client:
    return signed_in("organiser", "org")


def day(event: Event, number: int) -> Day:
    return Day.objects.get(event=event, number=number)


def page(response: Any) -> str:
    return str(response.content.decode())


# ------------------------------------------------------------------ copying rules


def test_copy_rules_sets_every_later_scheduled_day_and_logs_it(event: Event) -> None:
    d1 = day(event, 1)
    day_setup_change(day=d1, changes={"ante": 7, "min_bet": 7}, date=None, by=None)
    copied = day_rules_copy(day=day(event, 1), by=None)
    assert [d.number for d in copied] == [2, 3]
    for number in (2, 3):
        assert day(event, number).rules_dict() == day(event, 1).rules_dict()
        change = DayRulesChange.objects.filter(day=day(event, number)).latest("id")
        assert change.reason == "copied from day 1"
        assert change.after["ante"] == 7
    assert AuditEntry.objects.filter(verb=Verb.DAY_RULES, day=day(event, 3)).exists()


def test_copy_rules_skips_days_already_open_and_refuses_when_none_is_left(event: Event) -> None:
    d1 = day_open(day=day(event, 1), by=None)
    day_setup_change(day=day(event, 2), changes={"ante": 12}, date=None, by=None)
    copied = day_rules_copy(day=day(event, 2), by=None)
    assert [d.number for d in copied] == [3]
    assert day(event, 3).ante == 12 and day(event, 1).ante == d1.ante  # day 1 froze
    with pytest.raises(ServiceError) as err:
        day_rules_copy(day=day(event, 3), by=None)
    assert err.value.code == "nothing_to_copy_to"


def test_copy_rules_through_the_page_asks_once(event: Event, organiser: Client) -> None:
    url = f"/organiser/days/{day(event, 1).pk}/copy-rules/"
    setup = page(organiser.get(f"/organiser/days/{day(event, 1).pk}/setup/"))
    assert "Copy the rules…" in setup
    before = {n: day(event, n).rules_dict() for n in (2, 3)}
    day_setup_change(day=day(event, 1), changes={"ante": 6}, date=None, by=None)
    asked = organiser.post(url)
    assert asked.status_code == 200
    assert "Copy day 1's rules now?" in page(asked) and "Yes, copy to day 2 and day 3" in page(
        asked
    )
    assert {n: day(event, n).rules_dict() for n in (2, 3)} == before  # nothing changed yet
    done = organiser.post(url, {"confirm": "yes"}, follow=True)
    assert "rules copied to days 2, 3." in page(done)
    assert day(event, 2).ante == 6 and day(event, 3).ante == 6


# ------------------------------------------------------------------ opening a day


def test_opening_a_day_asks_once_and_says_its_rules_freeze(event: Event, organiser: Client) -> None:
    d1 = day(event, 1)
    dashboard = page(organiser.get(f"/organiser/events/{event.pk}/"))
    assert f'href="/organiser/days/{d1.pk}/open/"' in dashboard
    for asked in (
        organiser.get(f"/organiser/days/{d1.pk}/open/"),
        organiser.post(f"/organiser/days/{d1.pk}/open/"),
    ):
        assert asked.status_code == 200
        assert "Open day 1 now?" in page(asked) and "rules freeze" in page(asked)
        assert day(event, 1).status == Day.Status.SCHEDULED
    assert not AuditEntry.objects.filter(verb=Verb.DAY_OPEN).exists()
    organiser.post(f"/organiser/days/{d1.pk}/open/", {"confirm": "yes"})
    assert day(event, 1).status == Day.Status.OPEN
    # Day 2 cannot open before day 1 closes: said on the page, no button to confirm.
    refused = page(organiser.get(f"/organiser/days/{day(event, 2).pk}/open/"))
    assert "the opening of day 2 waits until day 1 has closed" in refused
    assert "Yes, open day 2" not in refused


# ------------------------------------------------------------------ the draw


def test_the_pending_draw_stays_in_view_after_the_day_opens_and_applying_asks(
    event: Event, organiser: Client
) -> None:
    d1 = day(event, 1)
    url = f"/organiser/days/{d1.pk}/seating/"
    organiser.post(url, {"form": "draw", "seed": "early"})
    draw = SeatingDraw.objects.get()
    scheduled = page(organiser.get(url))
    assert "Draw early" in scheduled and "waits for day 1 to open" in scheduled
    opened = organiser.post(f"/organiser/days/{d1.pk}/open/", {"confirm": "yes"})
    assert opened["Location"] == url  # straight to the draw waiting to be applied
    shown = page(organiser.get(url))  # no ?draw=: the pending one is shown
    assert "Draw early" in shown and "Apply this draw…" in shown
    asked = organiser.post(url, {"form": "apply", "draw": draw.pk})
    assert "Apply draw early now?" in page(asked) and "Yes, apply draw early" in page(asked)
    assert not Seat.objects.exists()
    organiser.post(url, {"form": "apply", "draw": draw.pk, "confirm": "yes"})
    assert Seat.objects.filter(left_at__isnull=True).count() == 4  # Poor cannot afford it


# ------------------------------------------------------------------ closing, the cut


def test_closing_previews_the_cut_and_a_post_without_confirmation_changes_nothing(
    event: Event, organiser: Client, django_capture_on_commit_callbacks: Any
) -> None:
    d1 = day_open(day=day(event, 1), by=None)
    play_day(d1, list(Player.objects.filter(name__in=["Ann", "Ben", "Cat", "Dee"])))
    url = f"/organiser/days/{d1.pk}/close/"
    asked = organiser.post(url, {"qualify_rule": "afford"})
    html = page(asked)
    assert asked.status_code == 200 and "Close day 1 now?" in html
    assert 'id="preview-qualified"' in html and "Would miss the cut (1)" in html
    assert "Poor" in html and "did not play day 1 (dealt into no hand)" in html
    assert day(event, 1).status == Day.Status.OPEN
    with django_capture_on_commit_callbacks(execute=True):
        organiser.post(url, {"qualify_rule": "afford", "confirm": "yes"})
    assert day(event, 1).status == Day.Status.CLOSED
    report = page(organiser.get(url))
    assert "Let a player back in for day 2" in report
    poor = Player.objects.get(name="Poor")
    requalify = f"/organiser/days/{day(event, 2).pk}/requalify/"
    # A reason is required: without one, nothing changes.
    refused = organiser.post(requalify, {"player": poor.pk, "reason": ""})
    assert refused.status_code == 400 and "This field is required." in page(refused)
    assert not Qualification.objects.filter(player=poor).exists()
    done = organiser.post(
        requalify, {"player": poor.pk, "reason": "sponsor's invitation"}, follow=True
    )
    assert "Poor is let back in for day 2" in page(done)
    assert "sponsor&#x27;s invitation" in page(done)
    assert Qualification.objects.filter(player=poor, day=day(event, 2)).exists()
    log = page(organiser.get(f"/organiser/events/{event.pk}/audit/"))
    assert "Let back in for day 2 past the cut." in log and "sponsor&#x27;s invitation" in log
