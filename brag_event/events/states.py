"""The day's life as the services see it: scheduled → open → closing → closed (RULES §4b).

A day opens only after the day before it has closed (``events.services.day_open``); while it is
open, hands are played and players sit down, re-buy and move; closing takes it out of play at
once (``closing.services``), returns every stack and makes it closed. Each service that needs the
day in a state checks it with the day's row locked — ``day_for_play`` (shared: many tablets at
once) or ``day_for_change`` (exclusive) — so a state change waits for every such service under
way, and every later one sees the new state (docs/domain.md, "Concurrency")."""

from __future__ import annotations

from django.db import connection

from brag_event.core import sql
from brag_event.core.errors import Conflict, ServiceError

from .models import Day, DayClose, Event


def day_for_play(day_id: int) -> Day:
    """The day, its row share-locked to the end of the transaction (``FOR SHARE``): it cannot
    change state meanwhile, and services that only play on it do not wait for each other."""
    if connection.vendor != "postgresql":  # SQLite: one writer at a time anyway
        return Day.objects.get(pk=day_id)
    query = f"SELECT * FROM {sql.table(Day)} WHERE {sql.qn('id')} = %s FOR SHARE"  # nosec B608
    found = list(Day.objects.raw(query, [day_id]))
    if not found:
        raise Day.DoesNotExist(f"no day {day_id}")
    return found[0]


def day_for_change(day_id: int) -> Day:
    """The day, its row locked to the end of the transaction against every other service that
    locks it (``FOR NO KEY UPDATE``)."""
    return Day.objects.select_for_update(no_key=True).get(pk=day_id)


def refuse_unless_open(day: Day, what: str) -> None:
    """Refuse, in words, anything that needs the day open: ``what`` names it ("new hands",
    "buy-ins", …)."""
    status = day.status
    if status == Day.Status.OPEN:
        return
    details = {"day": day.number, "status": status}
    if status == Day.Status.SCHEDULED:
        raise ServiceError(
            "day_not_open",
            f"Day {day.number} has not opened yet: no {what} until it opens.",
            details=details,
        )
    if status == Day.Status.CLOSING:
        raise ServiceError(
            "day_closing", f"Day {day.number} is closing: no more {what}.", details=details
        )
    raise ServiceError(
        "day_closed", f"Day {day.number} is closed: no more {what}.", details=details
    )


def refuse_once_closing(day: Day, what: str) -> None:
    """Refuse what may change until the day starts closing (its rules, how it qualifies)."""
    if day.status in (Day.Status.SCHEDULED, Day.Status.OPEN):
        return
    code = "day_closing" if day.status == Day.Status.CLOSING else "day_closed"
    raise ServiceError(
        code,
        f"Day {day.number} is {day.status}: {what} can no longer be changed.",
        details={"day": day.number, "status": day.status},
    )


def day_before(day: Day) -> Day | None:
    """The day before ``day`` in its event (the highest number below it), if any."""
    return (
        Day.objects.filter(event_id=day.event_id, number__lt=day.number).order_by("-number").first()
    )


def refuse_until_day_before_closed(day: Day, what: str) -> Day | None:
    """Refuse ``what`` while the day before ``day`` has not closed; returns that day."""
    before = day_before(day)
    if before is not None and before.status != Day.Status.CLOSED:
        raise ServiceError(
            "previous_day_not_closed",
            f"Day {before.number} is {before.status}: {what} of day {day.number} waits until "
            f"day {before.number} has closed.",
            details={"day": day.number, "previous": before.number, "status": before.status},
        )
    return before


def refuse_if_imported(event: Event | int, what: str) -> None:
    """Refuse, in words, any change to a past event imported from a results exchange file
    (``Event.imported_at``): ``what`` names it ("its players", "its penalties", …). Its days
    are closed, so play is refused already; this covers what does not wait for a day."""
    event_id = event if isinstance(event, int) else event.pk
    found = Event.objects.filter(pk=event_id, imported_at__isnull=False).values_list(
        "name", flat=True
    )
    for name in found:
        raise Conflict(
            "event_imported",
            f"{name} was imported from a results file: it is a past event, and {what} cannot "
            "change here.",
            details={"event": event_id},
        )


def refuse_count_setting_mid_close(event: Event | int) -> None:
    """Refuse, in words, changing whether the event's closes wait for the count
    (``Event.count_at_close``) while a day's close is under way (asked for, not done): that
    close waits for the count as its request recorded it, and skipping it is a waiver with a
    reason (``closing.count.day_count_waive``), never a setting unticked."""
    event_id = event if isinstance(event, int) else event.pk
    under_way = sorted(
        DayClose.objects.filter(day__event_id=event_id)
        .exclude(status=DayClose.Status.DONE)
        .values_list("day__number", flat=True)
    )
    if under_way:
        days = ", ".join(str(n) for n in under_way)
        raise Conflict(
            "count_setting_mid_close",
            f"Day {days} is closing: whether the close waits for the chip count cannot change "
            "until that close is done. To close without the count, waive it with a reason on "
            "the day's close page.",
            details={"field": "count_at_close", "days": under_way},
        )
