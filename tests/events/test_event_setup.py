"""Event set-up services (``events/setup.py``): a new event from the FLASH preset or from
scratch, a day's date and rules changed only while it is scheduled, and the change log."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User

from brag_event.audit.models import AuditEntry
from brag_event.core.actors import Actor
from brag_event.events.models import Day, DayRulesChange, Event
from brag_event.events.services import day_open, day_update_rules
from brag_event.events.setup import (
    day_setup_change,
    day_setup_log,
    event_create,
    event_create_from_preset,
    flash_preset,
)
from tests.factories import refused

pytestmark = pytest.mark.django_db

RULES: dict[str, Any] = {
    **flash_preset()[0],
    "ante": 2,
    "min_bet": 2,
    "max_bet": 10,
    "max_raise": 10,
    "house_fee": 5,
    "table_min": 50,
    "table_max": 100,
}


def test_the_flash_preset_has_the_event_sheets_three_days() -> None:
    preset = flash_preset()
    assert [(d["ante"], d["house_fee"], d["table_min"], d["table_max"]) for d in preset] == [
        (5, 10, 90, 240),
        (10, 25, 180, 475),
        (10, 25, 180, 475),
    ]
    assert all(d["seats"] == 6 and d["rebuy_needs_consent"] for d in preset)


def test_an_event_from_the_preset_has_three_scheduled_days_on_following_dates() -> None:
    event = event_create_from_preset(
        preset="flash", name="  FLASH   2027 ", currency="MB", start=dt.date(2027, 3, 5), by=None
    )
    assert event.name == "FLASH 2027"
    days = list(event.days.order_by("number"))
    assert [d.status for d in days] == ["scheduled"] * 3
    assert [d.date for d in days] == [dt.date(2027, 3, d) for d in (5, 6, 7)]
    assert (days[1].ante, days[1].table_min, days[1].table_max, days[1].house_fee) == (
        10,
        180,
        475,
        25,
    )
    refused("invalid_preset", lambda: event_create_from_preset(
        preset="other", name="X", currency="MB", start=None, by=None
    ))  # fmt: skip
    err = refused("event_exists", lambda: event_create_from_preset(
        preset="flash", name="FLASH 2027", currency="MB", start=None, by=None
    ))  # fmt: skip
    assert err.message == "An event called “FLASH 2027” already exists: choose another name."
    # Issue 43: a look-alike name ("FLАSH 2027" with a Cyrillic "А", an invisible space,
    # another case) is the same name to a reader.
    for alike in ("FL\u0410SH 2027", "flash\u200b 2027", "FLASH  2027"):
        err = refused("event_exists", lambda n=alike: event_create_from_preset(  # type: ignore[misc]
            preset="flash", name=n, currency="MB", start=None, by=None
        ))  # fmt: skip
        assert "An event called “FLASH 2027” already exists" in err.message
    err = refused("event_exists", lambda: event_create(
        name="FL\u0410SH 2027", currency="MB", start=None, days=[RULES], by=None
    ))  # fmt: skip
    assert err.message == (
        "An event called “FLASH 2027” already exists, and “FL\u0410SH 2027” looks the same: "
        "choose a name that reads differently."
    )


def test_an_event_from_scratch_has_the_days_and_rules_asked_for() -> None:
    event = event_create(
        name="Club night", currency="chips", start=None, days=[RULES, RULES], by=None
    )
    assert event.currency == "chips"
    assert [d.settings_dict() for d in event.days.order_by("number")] == [RULES, RULES]
    assert AuditEntry.objects.filter(event=event, verb="event.create").count() == 1


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"min_bet": 20, "max_bet": 10}, "min_bet", "not be more than the maximum"),
        ({"table_min": 200}, "table_min", "not be more than the most"),
        ({"ante": -1}, "ante", "must not be negative"),
        ({"seats": 11}, "seats", "from 2 to 10 seats"),
        ({"ante": 1_000_000_001}, "ante", "at most 1,000,000,000"),
    ],
)
def test_rules_the_engine_refuses_are_refused_naming_the_field(
    change: dict[str, Any], field: str, message: str
) -> None:
    err = refused("invalid_rules", lambda: event_create(
        name="Bad", currency="MB", start=None, days=[{**RULES, **change}], by=None
    ))  # fmt: skip
    assert err.details["field"] == field and message in err.message
    assert not Event.objects.filter(name="Bad").exists()


def test_event_fields_are_checked() -> None:
    refused("invalid_name", lambda: event_create(
        name=" ", currency="MB", start=None, days=[RULES], by=None
    ))  # fmt: skip
    refused("invalid_currency", lambda: event_create(
        name="E", currency="", start=None, days=[RULES], by=None
    ))  # fmt: skip
    refused("invalid_days", lambda: event_create(
        name="E", currency="MB", start=None, days=[], by=None
    ))  # fmt: skip
    refused("invalid_days", lambda: event_create(
        name="E", currency="MB", start=None, days=[RULES] * 11, by=None
    ))  # fmt: skip


def test_a_scheduled_day_changes_and_every_change_is_logged() -> None:
    user = User.objects.create_user("org")
    by = Actor(user, "test")
    event = event_create_from_preset(
        preset="flash", name="E", currency="MB", start=dt.date(2027, 1, 1), by=by
    )
    day2 = event.days.get(number=2)
    before_version = Event.objects.get(pk=event.pk).version
    day_setup_change(
        day=day2,
        changes={"house_fee": 30, "table_max": 500},
        date=dt.date(2027, 1, 3),
        reason="agreed with the club",
        by=by,
    )
    day2.refresh_from_db()
    assert (day2.house_fee, day2.table_max, day2.date) == (30, 500, dt.date(2027, 1, 3))
    assert Event.objects.get(pk=event.pk).version > before_version
    change = DayRulesChange.objects.get(day=day2)
    assert change.changed_by == user and change.reason == "agreed with the club"
    # The same values again change nothing and log nothing.
    day_setup_change(
        day=day2, changes={"house_fee": 30}, date=dt.date(2027, 1, 3), reason="", by=by
    )
    assert DayRulesChange.objects.filter(day=day2).count() == 1
    log = day_setup_log(day2)
    assert [e.who for e in log] == ["org", "org", "org"]
    whats = [w for e in log for w in e.what]
    assert ("House fee", "25", "30") in whats
    assert ("Most money at the table", "475", "500") in whats
    assert ("Date", "2027-01-02", "2027-01-03") in whats
    assert log[-1].note == "Event created from the FLASH preset."
    assert {e.reason for e in log} >= {"agreed with the club"}
    # A change made elsewhere (the admin, the API) is in the same log.
    day_update_rules(day=day2, changes={"ante": 12}, reason="admin", by=None)
    assert ("Ante", "10", "12") in [w for e in day_setup_log(day2) for w in e.what]
    # Day 1's log does not show day 2's changes.
    assert all(not e.what for e in day_setup_log(event.days.get(number=1)))


def test_dates_stay_in_the_days_order() -> None:
    event = event_create_from_preset(
        preset="flash", name="E", currency="MB", start=dt.date(2027, 1, 1), by=None
    )
    day2 = event.days.get(number=2)
    err = refused("invalid_date", lambda: day_setup_change(
        day=day2, changes={}, date=dt.date(2026, 12, 31), by=None
    ))  # fmt: skip
    assert err.message == "Day 2 must not come before day 1 (01 Jan 2027)."
    err = refused("invalid_date", lambda: day_setup_change(
        day=day2, changes={}, date=dt.date(2027, 1, 9), by=None
    ))  # fmt: skip
    assert err.message == "Day 2 must not come after day 3 (03 Jan 2027)."


def test_a_day_that_has_opened_keeps_its_rules_said_in_words() -> None:
    event = event_create_from_preset(preset="flash", name="E", currency="MB", start=None, by=None)
    day1 = day_open(day=event.days.get(number=1), by=None)
    err = refused("day_not_scheduled", lambda: day_setup_change(
        day=day1, changes={"ante": 6}, date=None, by=None
    ))  # fmt: skip
    assert err.message == (
        "Day 1's rules and date can no longer be changed: it is open: its tables play by the "
        "rules it opened with. They can be changed only until the day opens."
    )
    assert Day.objects.get(pk=day1.pk).ante == 5
    for status in ("closing", "closed"):
        Day.objects.filter(pk=day1.pk).update(status=status)
        err = refused("day_not_scheduled", lambda: day_setup_change(
            day=day1, changes={"ante": 6}, date=None, by=None
        ))  # fmt: skip
        assert f"it is {status}." in err.message
    assert not DayRulesChange.objects.exists()
