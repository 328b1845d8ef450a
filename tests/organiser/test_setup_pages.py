"""The event set-up pages: a new event from FLASH or from scratch, a day's rules edited until it
opens (refused in words after), the change log shown."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from brag_event.audit.models import AuditEntry
from brag_event.events.models import Day, DayRulesChange, Event
from brag_event.events.services import day_open
from brag_event.events.setup import flash_preset
from tests.factories import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Client:
    return signed_in("organiser", "org")


def rules_post(**changes: Any) -> dict[str, Any]:
    """A rules form as a browser posts it: unticked boxes are left out."""
    values = {**flash_preset()[0], "rake_cap": "", **changes}
    return {k: v for k, v in values.items() if v is not False and v is not None}


def test_only_organisers_set_events_up(organiser: Client) -> None:
    assert Client().get("/organiser/events/new/").status_code == 302
    dealer = User.objects.create_user("d", password="x")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    client = Client()
    client.force_login(dealer)
    assert client.post("/organiser/events/new/", {"form": "flash", "name": "X"}).status_code in (
        302,
        403,
    )
    assert not Event.objects.exists()


def test_an_event_from_the_flash_preset(organiser: Client) -> None:
    page = organiser.get("/organiser/events/new/").content.decode()
    assert "From the FLASH preset" in page and "From scratch" in page
    response = organiser.post(
        "/organiser/events/new/",
        {"form": "flash", "name": "FLASH 2027", "currency": "MB", "start": "2027-03-05"},
    )
    assert response.status_code == 400  # the starting money is asked for, never taken as 0
    assert "Say how much money each player starts with." in response.content.decode()
    assert not Event.objects.exists()
    response = organiser.post(
        "/organiser/events/new/",
        {
            "form": "flash",
            "name": "FLASH 2027",
            "currency": "MB",
            "start": "2027-03-05",
            "starting_money": "1000",
        },
        follow=True,
    )
    event = Event.objects.get(name="FLASH 2027")
    assert event.starting_money == 1000
    assert response.redirect_chain[-1][0] == f"/organiser/events/{event.pk}/setup/"
    page = response.content.decode()
    assert "FLASH 2027 is set up with 3 days, all scheduled." in page
    assert page.count("Edit day") == 3
    assert "Fri 5 Mar 2027" in page


def test_an_event_from_scratch_with_field_errors_first(organiser: Client) -> None:
    data = {
        "form": "scratch",
        "name": "Club",
        "currency": "MB",
        "days": "2",
        "start": "",
        "starting_money": "500",
    }
    bad = organiser.post("/organiser/events/new/", {**data, **rules_post(min_bet=30)})
    assert bad.status_code == 400
    page = bad.content.decode()
    assert "The minimum first bet must not be more than the maximum." in page
    assert 'value="Club"' in page  # what was typed is kept
    assert not Event.objects.exists()
    organiser.post("/organiser/events/new/", {**data, **rules_post(ante=3)})
    event = Event.objects.get(name="Club")
    assert list(event.days.values_list("ante", flat=True)) == [3, 3]


def test_a_day_is_edited_until_it_opens_with_the_log(organiser: Client) -> None:
    organiser.post(
        "/organiser/events/new/",
        {
            "form": "flash",
            "name": "E",
            "currency": "MB",
            "start": "2027-01-01",
            "starting_money": "1000",
        },
    )
    day1 = Day.objects.get(number=1)
    url = f"/organiser/days/{day1.pk}/setup/"
    page = organiser.get(url).content.decode()
    assert 'name="ante"' in page and "Event created from the FLASH preset." in page
    post = {**rules_post(house_fee=12), "date": "2027-01-01", "reason": "club's price"}
    response = organiser.post(url, post, follow=True)
    page = response.content.decode()
    assert "Day 1 saved." in page
    assert "House fee: 10 → <strong>12</strong>" in page and "club&#x27;s price" in page
    assert DayRulesChange.objects.get(day=day1).after["house_fee"] == 12
    # Refused by the engine's rules, on the field.
    bad = organiser.post(url, {**post, "table_min": "300"})
    assert bad.status_code == 400
    assert "The least money on the table must not be more than the most." in bad.content.decode()
    # Once open: shown, not editable, and a post is refused in words.
    day_open(day=day1, by=None)
    page = organiser.get(url).content.decode()
    assert 'name="ante"' not in page
    assert "Day 1 is open: its rules\nand date can no longer be changed." in page
    refused = organiser.post(url, {**post, "house_fee": "13"})
    assert refused.status_code == 400
    assert "it is open: its tables play by the rules it opened with" in refused.content.decode()
    assert Day.objects.get(pk=day1.pk).house_fee == 12


def test_the_second_confirmation_is_set_checked_logged_and_copied_with_the_rules(
    organiser: Client,
) -> None:
    organiser.post(
        "/organiser/events/new/",
        {"form": "flash", "name": "E", "currency": "MB", "start": "", "starting_money": "1000"},
    )
    day1 = Day.objects.get(number=1)
    url = f"/organiser/days/{day1.pk}/setup/"
    page = organiser.get(url).content.decode()
    assert "<legend>The floor</legend>" in page and 'name="award_confirm_from"' in page
    post = {**rules_post(), "date": "", "reason": ""}
    bad = organiser.post(url, {**post, "award_confirm_from": "0"})
    assert (
        bad.status_code == 400 and "At least 1 (or leave it empty: never)." in bad.content.decode()
    )
    page = organiser.post(url, {**post, "award_confirm_from": "640"}, follow=True).content.decode()
    assert "Second confirmation for pots from: — → <strong>640</strong>" in page
    copy = f"/organiser/days/{day1.pk}/copy-rules/"
    organiser.post(copy, {"confirm": "yes"})
    assert list(Day.objects.order_by("number").values_list("award_confirm_from", flat=True)) == [
        640,
        640,
        640,
    ]
    # Left empty: never (and logged as such).
    organiser.post(url, post)
    assert Day.objects.get(pk=day1.pk).award_confirm_from is None


def test_the_starting_money_is_set_on_the_set_up_page(organiser: Client) -> None:
    event = Event.objects.create(name="Old")  # an event from before it was asked for
    url = f"/organiser/events/{event.pk}/setup/"
    assert "Not set yet" in organiser.get(url).content.decode()
    for bad in ("", "-5", "abc"):
        refused = organiser.post(url, {"starting_money": bad})
        assert refused.status_code == 400
    event.refresh_from_db()
    assert event.starting_money is None
    done = organiser.post(url, {"starting_money": "1200"}, follow=True).content.decode()
    assert "Players are now registered with 1200 MB unless you say otherwise." in done
    event.refresh_from_db()
    assert event.starting_money == 1200
    entry = AuditEntry.objects.get(verb="event.starting_money")
    assert entry.data == {"before": None, "after": 1200}
