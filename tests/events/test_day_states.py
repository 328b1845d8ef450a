"""The day's life in the services: scheduled → open → closing → closed (RULES §4b). Every refused
step says why, in words; the next day is drawn from the close's qualifiers and nobody else."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.db.models import F

from brag_event.api.resources.events import day_view
from brag_event.closing import services as closing
from brag_event.closing.services import day_close_fail, day_close_request
from brag_event.core.errors import ServiceError
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.services import (
    day_open,
    day_set_qualification,
    day_update_rules,
    event_create_flash,
)
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_start, hand_void_last_action
from brag_event.players.models import Player, Qualification, StandingSnapshot
from brag_event.players.selectors import current_day
from brag_event.players.services import player_register
from brag_event.tables.models import Seat, Table
from brag_event.tables.record import seat_record_sit
from brag_event.tables.seating import (
    balance_apply,
    seat_move,
    seating_apply,
    seating_draw,
)
from brag_event.tables.services import (
    seat_buy_in,
    seat_leave,
    seat_rebuy,
    seat_sit_out,
    table_create,
)
from tests.factories import act, assert_audit_ok, refused, start, world

pytestmark = pytest.mark.django_db


def status(day: Day) -> str:
    return Day.objects.get(pk=day.pk).status


def test_a_new_event_has_its_days_scheduled_and_nothing_happens_on_them() -> None:
    event = event_create_flash(name="New", by=None)
    assert list(event.days.values_list("status", flat=True)) == ["scheduled"] * 3
    day1 = event.days.get(number=1)
    err = refused("day_not_open", lambda: table_create(day=day1, by=None))
    assert err.message == "Day 1 has not opened yet: no new tables until it opens."
    assert err.details == {"day": 1, "status": "scheduled"}
    refused("day_not_open", lambda: day_close_request(day=day1, by=None))
    assert current_day(event) == day1
    view = day_view(day1)
    assert view["status"] == "scheduled" and view["status_text"].startswith("Scheduled: not open")


def test_a_day_opens_only_after_the_day_before_it_has_closed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = event_create_flash(name="Days", by=None)
    day1, day2, day3 = event.days.order_by("number")
    err = refused("previous_day_not_closed", lambda: day_open(day=day2, by=None))
    assert err.message == "Day 1 is scheduled: the opening of day 2 waits until day 1 has closed."
    day_open(day=day1, by=None)
    assert status(day1) == "open"
    refused("day_not_scheduled", lambda: day_open(day=day1, by=None))
    refused("previous_day_not_closed", lambda: day_open(day=day2, by=None))
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=day1, by=None)  # nobody seated: closes at once
    assert status(day1) == "closed" and current_day(event) == day1
    refused("day_not_scheduled", lambda: day_open(day=day1, by=None))
    refused("previous_day_not_closed", lambda: day_open(day=day3, by=None))
    day_open(day=day2, by=None)
    assert current_day(event) == day2


def test_day_two_cannot_be_drawn_applied_or_played_while_day_one_is_open() -> None:
    """Issue 16's hole: day 2's seating drawn and applied while day 1 was still open."""
    w = world(3)
    day2 = w.event.days.get(number=2)
    err = refused("previous_day_not_closed", lambda: seating_draw(day=day2, by=None))
    assert "Day 1 is open" in err.message
    refused("day_not_open", lambda: table_create(day=day2, by=None))
    assert not Table.objects.filter(day=day2).exists()


def test_while_the_day_closes_nothing_can_start_sit_down_or_move(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(4, money=1000, buy_in=90)
    hand = start(w)
    act(hand, seat=2, action="fold")
    act(hand, seat=3, action="fold")
    act(hand, seat=4, action="look")
    act(hand, seat=4, action="bet", amount=5)
    act(hand, seat=1, action="fold")  # Dan wins; the hand is settled
    other = table_create(day=w.day, by=None)
    newcomer = player_register(event=w.event, name="Gina", starting_money=1000, by=None)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        close = day_close_request(day=w.day, by=None)  # the task is not run yet
    assert len(queued) == 1 and status(w.day) == "closing"
    assert DayClose.objects.get(pk=close.pk).status == DayClose.Status.QUEUED
    day = Day.objects.get(pk=w.day.pk)
    seat = w.seat(1)
    closing = [
        (lambda: hand_start(table=w.table, by=None), "no more new hands"),
        (
            lambda: seat_buy_in(table=other, seat_number=1, player=newcomer, amount=100, by=None),
            "no more buy-ins",
        ),
        (lambda: seat_rebuy(seat=seat, consenting=[], by=None), "no more re-buys"),
        (lambda: table_create(day=day, by=None), "no more new tables"),
        (lambda: seat_move(seat=seat, to_table=other, to_seat=1, by=None), "no more moves"),
        (lambda: hand_void_last_action(hand=hand, reason="x", by=None), "no more corrections"),
        (lambda: seating_draw(day=day, by=None), "no more seating draws"),
    ]
    for call, words in closing:
        err = refused("day_closing", call)
        assert err.message == f"Day 1 is closing: {words}.", err.message
    err = refused(
        "day_closing", lambda: day_update_rules(day=day, changes={"max_bet": 30}, by=None)
    )
    assert err.message == "Day 1 is closing: its rules can no longer be changed."
    refused("day_closing", lambda: day_set_qualification(day=day, rule="top", top=2, by=None))
    refused("day_closing", lambda: balance_apply(day=day, proposal_id="x", by=None))
    seat_sit_out(seat=w.seat(2), sitting_out=True, by=None)  # harmless: allowed
    seat_leave(seat=w.seat(3), by=None)  # what the close itself does: allowed
    assert Hand.objects.filter(status=Hand.Status.IN_PROGRESS).count() == 0
    # Asking again while it is queued (its worker died): queued again, and it finishes.
    with django_capture_on_commit_callbacks(execute=True) as again:
        day_close_request(day=day, by=None)
    # The close's task, queued once (the integrity monitor's run after the close comes after it).
    assert [c.__qualname__ for c in again][:1] == ["day_close_request.<locals>.<lambda>"]
    assert sum(c.__qualname__.startswith("day_close_request.") for c in again) == 1
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE and status(w.day) == "closed"
    assert not Seat.objects.filter(table__day=w.day, left_at__isnull=True).exists()
    refused("day_closed", lambda: hand_start(table=w.table, by=None))
    assert_audit_ok(w.event)


def test_the_next_day_is_drawn_from_the_close_qualifiers_and_nobody_else(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3, money=1000, buy_in=200)
    late = player_register(event=w.event, name="Late", starting_money=5000, by=None)
    hand = start(w)
    act(hand, seat=2, action="fold")
    act(hand, seat=3, action="look")
    act(hand, seat=3, action="bet", amount=20)
    act(hand, seat=1, action="fold")  # Chris wins: top 1 (Late, richer, never sat down)
    day_set_qualification(day=w.day, rule="top", top=1, by=None)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    day2 = w.event.days.get(number=2)
    qualified = set(Qualification.objects.filter(day=day2).values_list("player__name", flat=True))
    # The top 1 of those who played day 1 (RULES §4b, "Who can qualify"): Late's 5,000 never
    # sat down, and sitting a day out is no way through its cut.
    assert qualified == {"Chris"}
    draw = seating_draw(day=day2, seed="d2", by=None)  # drawn while day 2 is scheduled
    placed = {e["name"] for t in draw.plan for e in t["seats"]}
    assert placed == {"Chris"}
    excluded = {e["name"]: e["reason"] for e in draw.excluded}
    assert excluded == {"Andy": "not qualified", "Bill": "not qualified", "Late": "not qualified"}
    refused("day_not_open", lambda: seating_apply(draw=draw, by=None))  # applied once open
    day_open(day=day2, by=None)
    table = table_create(day=day2, by=None)
    refused(
        "not_qualified",
        lambda: seat_buy_in(table=table, seat_number=1, player=late, amount=180, by=None),
    )
    chris = Player.objects.get(name="Chris")
    seat_buy_in(table=table, seat_number=1, player=chris, amount=180, by=None)
    assert_audit_ok(w.event)


def test_a_day_whose_close_qualified_nobody_seats_nobody(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(2, money=150, buy_in=90)  # after the close: 140 each, short of day 2's 205
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    day2 = day_open(day=w.event.days.get(number=2), by=None)
    assert not Qualification.objects.filter(day=day2).exists()
    draw = seating_draw(day=day2, by=None)
    assert draw.plan == [] and {e["reason"] for e in draw.excluded} == {"not qualified"}
    table = table_create(day=day2, by=None)
    refused(
        "not_qualified",
        lambda: seat_buy_in(table=table, seat_number=1, player=w.players[0], amount=180, by=None),
    )


def test_a_close_whose_audit_fails_leaves_the_day_closing_and_runs_again_once_right(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3)
    andy = w.players[0]
    Player.objects.filter(pk=andy.pk).update(balance=F("balance") + 1)  # a cache gone wrong
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.FAILED
    assert close.report["error"]["code"] == "audit_failed"
    assert "stays closing" in close.step
    assert status(w.day) == "closing"  # neither open for play nor closed without a snapshot
    assert not StandingSnapshot.objects.filter(day=w.day).exists()
    assert not Qualification.objects.exists()
    Player.objects.filter(pk=andy.pk).update(balance=F("balance") - 1)  # corrected
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE and close.runs == 2
    assert status(w.day) == "closed"
    assert StandingSnapshot.objects.filter(day=w.day).count() == 3


def test_the_migration_schedules_the_later_days_nobody_has_played() -> None:
    module = __import__(
        "brag_event.events.migrations.0003_day_states", fromlist=["schedule_days_not_started"]
    )
    event = event_create_flash(name="Old", by=None)
    Day.objects.filter(event=event).update(status="open")  # as every day was created before
    Table.objects.create(day=event.days.get(number=3), number=1)  # seated through the old hole
    module.schedule_days_not_started(apps, None)
    assert list(event.days.order_by("number").values_list("status", flat=True)) == [
        "open",
        "scheduled",
        "open",
    ]
    assert Event.objects.count() == 1


def test_a_failure_too_long_for_the_step_is_kept_whole_in_the_report() -> None:
    w = world(2)
    close = DayClose.objects.create(day=w.day)
    words = "A refusal that goes on and on. " * 10
    day_close_fail(close_id=close.pk, error=ServiceError("audit_failed", words))
    close.refresh_from_db()
    assert close.status == DayClose.Status.FAILED
    assert len(close.step) == 120 and close.step.endswith("…")
    assert close.report["error"]["message"] == words


def test_a_close_never_leaves_a_seated_player_on_a_closed_day(
    django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    w = world(2)
    stray = player_register(event=w.event, name="Stray", starting_money=0, by=None)
    real = closing._progress

    def progress(close: DayClose, percent: int, step: str, **fields: Any) -> None:
        if percent == 75:  # the stacks are back: a seat no service would give now appears
            seat = Seat.objects.create(table=w.table, number=6, player=stray, buy_in=0)
            seat_record_sit(seat, w.event.pk)  # on the money record: else the audit refuses
        real(close, percent, step, **fields)

    monkeypatch.setattr(closing, "_progress", progress)
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.FAILED
    assert close.report["error"]["code"] == "day_not_empty"
    assert close.report["error"]["details"] == {"tables": [1]}
    assert status(w.day) == "closing"
    monkeypatch.setattr(closing, "_progress", real)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)  # the close returns the stray seat too, this time
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE and status(w.day) == "closed"
    assert not Seat.objects.filter(table__day=w.day, left_at__isnull=True).exists()
