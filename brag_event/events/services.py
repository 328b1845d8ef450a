"""Creating events and days, and changing a day's rules (logged; hands keep their frozen copy)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction

from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.engine import MONEY_MAX, EngineError, Rules

from .models import RULE_FIELDS, Day, DayRulesChange, Event
from .states import day_for_change, refuse_once_closing, refuse_until_day_before_closed

# The event sheet (seeds/004, "Three Card Brag (FLASH)"): day 1, then days 2 and 3.
FLASH_DAYS: tuple[dict[str, Any], ...] = (
    {"number": 1, "ante": 5, "min_bet": 5, "max_bet": 20, "max_raise": 20, "house_fee": 10,
     "table_min": 90, "table_max": 240},
    {"number": 2, "ante": 10, "min_bet": 10, "max_bet": 40, "max_raise": 40, "house_fee": 25,
     "table_min": 180, "table_max": 475},
    {"number": 3, "ante": 10, "min_bet": 10, "max_bet": 40, "max_raise": 40, "house_fee": 25,
     "table_min": 180, "table_max": 475},
)  # fmt: skip


def rules_validate(values: dict[str, Any]) -> Rules:
    """Check a full set of day rules; raise ``invalid_rules`` naming the field."""
    unknown = sorted(set(values) - set(RULE_FIELDS))
    if unknown:
        raise ServiceError(
            "invalid_rules", f"Unknown rule {unknown[0]!r}.", details={"field": unknown[0]}
        )
    problems = _field_problems(values)
    if problems:
        field, message = problems[0]
        raise ServiceError("invalid_rules", message, details={"field": field})
    try:
        return Rules(**values)
    except (EngineError, TypeError) as err:
        message = getattr(err, "message", str(err))
        raise ServiceError("invalid_rules", message) from None


LABELS = {
    "ante": "The ante",
    "min_bet": "The minimum first bet",
    "max_bet": "The maximum first bet",
    "max_raise": "The maximum raise",
    "house_fee": "The house fee",
    "table_min": "The least money on the table",
    "table_max": "The most money on the table",
    "rake_cap": "The rake cap",
}


def _field_problems(values: dict[str, Any]) -> list[tuple[str, str]]:
    """Plain checks with the field each one is about (for forms and the API)."""
    out: list[tuple[str, str]] = []

    def get(name: str) -> Any:
        return values.get(name)

    for name in ("ante", "min_bet", "max_bet", "max_raise", "house_fee", "table_min", "table_max"):
        value = get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            out.append((name, f"{LABELS[name]} must be a whole number."))
        elif value < 0:
            out.append((name, f"{LABELS[name]} must not be negative."))
        elif value > MONEY_MAX:
            out.append((name, f"{LABELS[name]} must be at most {MONEY_MAX:,}."))
    cap = get("rake_cap")
    if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 0):
        out.append(("rake_cap", "The rake cap must be empty or a whole number, not negative."))
    elif cap is not None and cap > MONEY_MAX:
        out.append(("rake_cap", f"The rake cap must be at most {MONEY_MAX:,}."))
    seats = get("seats")
    if seats is not None and (not isinstance(seats, int) or not 2 <= seats <= 10):
        out.append(("seats", "A table has from 2 to 10 seats."))
    if out:
        return out
    if get("min_bet") < 1:
        out.append(("min_bet", "The minimum first bet must be at least 1."))
    if get("min_bet") > get("max_bet"):
        message = "The minimum first bet must not be more than the maximum."
        out += [("min_bet", message), ("max_bet", message)]
    if get("table_min") > get("table_max"):
        message = "The least money on the table must not be more than the most."
        out += [("table_min", message), ("table_max", message)]
    rake = get("rake_percent")
    if isinstance(rake, int) and not 0 <= rake <= 100:
        out.append(("rake_percent", "The rake is a percentage from 0 to 100."))
    return out


@service_transaction
def event_create_flash(
    *, name: str = "FLASH", currency: str = "MB", start: dt.date | None = None, by: Actor | None
) -> Event:
    """Create an event with the three days exactly as the FLASH event sheet sets them, all
    scheduled: day 1 opens with ``day_open``."""
    try:
        with transaction.atomic():
            event = Event.objects.create(name=name, currency=currency)
    except IntegrityError:
        raise ServiceError("event_exists", f"An event called {name!r} already exists.") from None
    for spec in FLASH_DAYS:
        number = spec["number"]
        date = start + dt.timedelta(days=number - 1) if start else None
        values = {k: v for k, v in spec.items() if k != "number"}
        Day.objects.create(
            event=event, number=number, date=date, status=Day.Status.SCHEDULED, **values
        )
    audit_record(
        by=by, verb="event.create", target=str(event), data={"preset": "FLASH"}, event_id=event.pk
    )
    return event


@service_transaction
def day_update_rules(
    *, day: Day, changes: dict[str, Any], reason: str = "", by: Actor | None
) -> Day:
    """Change some of a day's rules, until the day starts closing. Hands already started keep
    the rules they were dealt with; the change applies to hands not yet started, and it is
    logged."""
    day = day_for_change(day.pk)
    refuse_once_closing(day, "its rules")
    before = day.rules_dict()
    after = {**before, **changes}
    rules_validate(after)
    if after == before:
        return day
    for name, value in changes.items():
        setattr(day, name, value)
    day.save(update_fields=list(changes))
    DayRulesChange.objects.create(
        day=day,
        changed_by=by.user if by and by.user_id else None,
        before=before,
        after=after,
        reason=reason[:200],
    )
    changed = {k: [before[k], after[k]] for k in changes if before[k] != after[k]}
    audit_record(
        by=by, verb="day.rules", target=str(day), data={"changed": changed}, event_id=day.event_id
    )
    return day


@service_transaction
def day_set_qualification(*, day: Day, rule: str, top: int | None, by: Actor | None) -> Day:
    """How the next day's players are chosen when this day closes: everyone who can afford its
    table minimum plus fee (``afford``), or the top ``top`` of those (``top``)."""
    day = day_for_change(day.pk)
    refuse_once_closing(day, "who qualifies for the next day")
    if rule not in ("afford", "top") or (rule == "top" and (not isinstance(top, int) or top < 1)):
        raise ServiceError(
            "invalid_rule",
            "Choose who plays the next day: everyone who can afford it, or the top N of them "
            "— and for the top N, say how many players go through (1 or more).",
            details={"field": "qualify_rule"},
        )
    day.qualify_rule = rule
    day.qualify_top = top if rule == "top" else None
    day.save(update_fields=["qualify_rule", "qualify_top"])
    audit_record(
        by=by,
        verb="day.qualification",
        target=str(day),
        data={"rule": rule, "top": day.qualify_top},
        event_id=day.event_id,
    )
    return day


@service_transaction
def day_open(*, day: Day, by: Actor | None) -> Day:
    """Open a scheduled day for play, once the day before it (if any) has closed: from then on
    its tables are created, its players sit down (day 2 on: only that close's qualifiers) and
    its hands are played."""
    day = day_for_change(day.pk)
    if day.status != Day.Status.SCHEDULED:
        raise ServiceError(
            "day_not_scheduled",
            f"Day {day.number} is {day.status}: only a scheduled day can be opened.",
            details={"day": day.number, "status": day.status},
        )
    refuse_until_day_before_closed(day, "the opening")
    day.status = Day.Status.OPEN
    day.save(update_fields=["status"])
    audit_record(by=by, verb="day.open", target=str(day), data={}, event_id=day.event_id)
    return day
