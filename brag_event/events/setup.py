"""Setting an event up from the organisers' console: a new event from the FLASH preset or from
scratch, a day's date and rules changed until the day opens (every change logged), and that log
read back.

The rules are checked once, by ``events.services.rules_validate`` (which builds the engine's
``Rules``); a day's rules change through ``day_update_rules`` (its ``DayRulesChange`` row and
audit entry). The console changes a day only while it is *scheduled*: once it opens, its tables
play by the rules it opened with."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from brag_event.audit.models import AuditEntry, Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.core.words import at_most

from .models import DAY_SETTINGS, Day, DayRulesChange, Event
from .services import (
    FLASH_DAYS,
    check_starting_money,
    day_update_rules,
    event_create_flash,
    event_name_checked,
    rules_validate,
    time_zone_checked,
)
from .states import day_for_change
from .versions import event_changed

DAYS_MAX = 10  # days an event set up in the console may have
NAME_MAX = Event._meta.get_field("name").max_length or 120
CURRENCY_MAX = Event._meta.get_field("currency").max_length or 12

# What the console calls each rule (the log and the refusals use the same words).
RULE_LABELS: dict[str, str] = {
    "ante": "Ante",
    "min_bet": "Minimum first bet",
    "max_bet": "Maximum first bet",
    "max_raise": "Maximum raise",
    "house_fee": "House fee",
    "table_min": "Least money at the table",
    "table_max": "Most money at the table",
    "seats": "Seats a table",
    "blind_allowed": "Blind play allowed",
    "see_cost": "Cost of a see",
    "pot_limit": "Raises limited to the pot",
    "rake_percent": "Rake (%)",
    "rake_cap": "Rake cap",
    "cover_allowed": "Cover allowed",
    "rebuy_needs_consent": "Re-buy needs the table's consent",
    "rebuy_pays_fee": "Re-buy pays the house fee",
    "award_confirm_from": "Second confirmation for pots from",
    "date": "Date",
}


def flash_preset() -> list[dict[str, Any]]:
    """The FLASH event sheet's days (``events.services.FLASH_DAYS``), as full rule sets."""
    defaults = Day().settings_dict()  # the model's defaults (its options)
    return [
        {**defaults, **{k: getattr(spec, k) for k in defaults if hasattr(spec, k)}}
        for spec in FLASH_DAYS
    ]


def _check_event_fields(name: str, currency: str) -> tuple[str, str]:
    name = " ".join(str(name).split())
    currency = " ".join(str(currency).split())
    if not name:
        raise ServiceError("invalid_name", "An event needs a name.", details={"field": "name"})
    if len(name) > NAME_MAX:
        raise ServiceError(
            "invalid_name",
            at_most("An event's name", NAME_MAX),
            details={"field": "name"},
        )
    if not currency or len(currency) > CURRENCY_MAX:
        raise ServiceError(
            "invalid_currency",
            at_most("The money's name", CURRENCY_MAX)
            if currency
            else "The money needs a name (MB, say).",
            details={"field": "currency"},
        )
    return name, currency


@service_transaction
def event_create_from_preset(
    *,
    preset: str,
    name: str,
    currency: str,
    start: dt.date | None,
    time_zone: str | None = None,
    starting_money: int | None = None,
    by: Actor | None,
) -> Event:
    """A new event from a preset (``flash``: the three days of the FLASH event sheet), every
    day scheduled, in ``time_zone`` (default: the settings' TIME_ZONE)."""
    if preset != "flash":
        raise ServiceError(
            "invalid_preset", "The only preset is FLASH.", details={"field": "preset"}
        )
    name, currency = _check_event_fields(name, currency)
    return event_create_flash(
        name=name,
        currency=currency,
        start=start,
        time_zone=time_zone,
        starting_money=starting_money,
        by=by,
    )


@service_transaction
def event_create(
    *,
    name: str,
    currency: str,
    start: dt.date | None,
    days: Sequence[dict[str, Any]],
    time_zone: str | None = None,
    starting_money: int | None = None,
    by: Actor | None,
) -> Event:
    """A new event from scratch: one day per rule set in ``days`` (each checked by the engine's
    rules), on consecutive dates from ``start``, every day scheduled, in ``time_zone``
    (default: the settings' TIME_ZONE)."""
    name, currency = _check_event_fields(name, currency)
    name = event_name_checked(name)
    zone_name = time_zone_checked(time_zone)
    check_starting_money(starting_money)
    if not 1 <= len(days) <= DAYS_MAX:
        raise ServiceError(
            "invalid_days",
            f"An event has from 1 to {DAYS_MAX} days.",
            details={"field": "days"},
        )
    for values in days:
        rules_validate(dict(values))
    try:
        with transaction.atomic():
            event = Event.objects.create(
                name=name, currency=currency, time_zone=zone_name, starting_money=starting_money
            )
    except IntegrityError:
        raise ServiceError(
            "event_exists",
            f"An event called “{name}” already exists: choose another name.",
            details={"field": "name"},
        ) from None
    for number, values in enumerate(days, start=1):
        date = start + dt.timedelta(days=number - 1) if start else None
        Day.objects.create(
            event=event, number=number, date=date, status=Day.Status.SCHEDULED, **dict(values)
        )
    audit_record(
        by=by,
        verb=Verb.EVENT_CREATE,
        subject=event,
        data={"preset": "", "days": len(days), "time_zone": zone_name},
        event_id=event.pk,
    )
    return event


def _refuse_unless_scheduled(day: Day) -> None:
    if day.status == Day.Status.SCHEDULED:
        return
    why = {
        Day.Status.OPEN: "it is open: its tables play by the rules it opened with",
        Day.Status.CLOSING: "it is closing",
        Day.Status.CLOSED: "it is closed",
    }[Day.Status(day.status)]
    raise ServiceError(
        "day_not_scheduled",
        f"Day {day.number}'s rules and date can no longer be changed: {why}. They can be "
        "changed only until the day opens.",
        details={"day": day.number, "status": day.status},
    )


def _check_date(day: Day, date: dt.date | None) -> None:
    """A day's date is not before the day before it, nor after the day after it."""
    if date is None:
        return
    around = Day.objects.filter(event_id=day.event_id, date__isnull=False).exclude(pk=day.pk)
    earlier = around.filter(number__lt=day.number, date__gt=date).order_by("number").first()
    later = around.filter(number__gt=day.number, date__lt=date).order_by("number").first()
    for other, word in ((earlier, "after"), (later, "before")):
        if other is not None:
            raise ServiceError(
                "invalid_date",
                f"Day {day.number} must not come {'before' if word == 'after' else 'after'} "
                f"day {other.number} ({other.date:%d %b %Y}).",
                details={"field": "date"},
            )


@service_transaction
def day_setup_change(
    *,
    day: Day,
    changes: dict[str, Any],
    date: dt.date | None,
    reason: str = "",
    by: Actor | None,
) -> Day:
    """Change a scheduled day's date and rules (``changes``: some of ``RULE_FIELDS``), refused
    in words once it has opened. The rules are checked whole by the engine's rules; each change
    is logged (rules: ``DayRulesChange`` and ``day.rules``; the date: ``day.date``)."""
    day = day_for_change(day.pk)
    _refuse_unless_scheduled(day)
    unknown = sorted(set(changes) - set(DAY_SETTINGS))
    if unknown:
        raise ServiceError(
            "invalid_rules", f"Unknown rule {unknown[0]!r}.", details={"field": unknown[0]}
        )
    rules_validate({**day.settings_dict(), **changes})
    _check_date(day, date)
    reason = " ".join(str(reason).split())[:200]
    changed = {k: v for k, v in changes.items() if getattr(day, k) != v}
    if changed:
        day = day_update_rules(day=day, changes=changed, reason=reason, by=by)
    moved = date != day.date
    if moved:
        before = day.date
        day.date = date
        day.save(update_fields=["date"])
        audit_record(
            by=by,
            verb=Verb.DAY_DATE,
            subject=day,
            data={
                "day_id": day.pk,
                "day": day.number,
                "before": before.isoformat() if before else None,
                "after": date.isoformat() if date else None,
                "reason": reason,
            },
            event_id=day.event_id,
        )
    if changed or moved:
        event_changed(day.event_id)
    return day


def days_to_copy_to(day: Day) -> list[Day]:
    """The days after ``day`` whose rules can still change (scheduled ones), in order."""
    return list(
        Day.objects.filter(
            event_id=day.event_id, number__gt=day.number, status=Day.Status.SCHEDULED
        ).order_by("number")
    )


@service_transaction
def day_rules_copy(*, day: Day, by: Actor | None) -> list[Day]:
    """Copy ``day``'s rules to every later day not yet open (``days_to_copy_to``), each change
    logged like one typed in (``DayRulesChange``, the audit log) with "copied from day N" as its
    reason. Days already open keep theirs. Refused when no later day can take them."""
    source = Day.objects.get(pk=day.pk)
    targets = days_to_copy_to(source)
    if not targets:
        raise ServiceError(
            "nothing_to_copy_to",
            f"No day after day {source.number} is still scheduled: there is nowhere to copy "
            "its rules to (a day's rules freeze when it opens).",
            details={"day": source.number},
        )
    rules = source.settings_dict()
    copied: list[Day] = []
    for target in targets:
        copied.append(
            day_setup_change(
                day=target,
                changes=rules,
                date=target.date,
                reason=f"copied from day {source.number}",
                by=by,
            )
        )
    return copied


# ------------------------------------------------------------------ the change log


@dataclass
class LogEntry:
    """One change of a day's set-up: when, by whom, what (label, before, after), why."""

    at: dt.datetime
    who: str
    what: list[tuple[str, str, str]] = field(default_factory=list)
    reason: str = ""
    note: str = ""


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _who(user: Any) -> str:
    return user.get_username() if user is not None else "the system"


def day_setup_log(day: Day) -> list[LogEntry]:
    """Every change of the day's rules (from the console, the admin or the API) and of its date,
    and the event's creation, newest first."""
    entries: list[LogEntry] = []
    for change in DayRulesChange.objects.filter(day=day).select_related("changed_by"):
        before, after = change.before or {}, change.after or {}
        what = [
            (RULE_LABELS.get(k, k), _shown(before.get(k)), _shown(after.get(k)))
            for k in DAY_SETTINGS
            if k in after and before.get(k) != after.get(k)
        ]
        entries.append(LogEntry(change.changed_at, _who(change.changed_by), what, change.reason))
    audit = AuditEntry.objects.filter(event_id=day.event_id).select_related("actor")
    for entry in audit.filter(verb=Verb.DAY_DATE, data__day_id=day.pk):
        data = entry.data
        what = [("Date", _shown(data.get("before")), _shown(data.get("after")))]
        entries.append(LogEntry(entry.at, _who(entry.actor), what, str(data.get("reason") or "")))
    created = audit.filter(verb=Verb.EVENT_CREATE).order_by("at", "id").first()
    if created is not None:
        preset = created.data.get("preset")
        note = "Event created from the FLASH preset." if preset else "Event created from scratch."
        entries.append(LogEntry(created.at, _who(created.actor), [], "", note))
    entries.sort(key=lambda e: e.at, reverse=True)
    return entries
