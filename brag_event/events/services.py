"""Creating events and days, and changing a day's rules (logged; hands keep their frozen copy)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.names import name_key, player_name_clean
from brag_event.core.transactions import service_transaction
from brag_event.engine import FLASH_DAYS, MONEY_MAX, EngineError, Rules

from .models import FLOOR_FIELDS, Day, DayRulesChange, Event
from .states import (
    day_for_change,
    refuse_count_setting_mid_close,
    refuse_if_imported,
    refuse_once_closing,
    refuse_until_day_before_closed,
)
from .zones import default_time_zone, validate_time_zone


def rules_validate(values: dict[str, Any]) -> Rules:
    """A full set of day rules checked by the engine (``Rules.validate``, the one check); a
    problem is ``invalid_rules`` with ``details.field`` naming the field. The floor's settings
    among ``values`` (``FLOOR_FIELDS``) are checked here, not by the engine."""
    floor_settings_check(values)
    try:
        return Rules.validate({k: v for k, v in values.items() if k not in FLOOR_FIELDS})
    except EngineError as err:
        raise ServiceError.from_engine(err) from None


def floor_settings_check(values: dict[str, Any]) -> None:
    """The day's floor settings: ``award_confirm_from`` is ``None`` (never) or a whole amount
    from 1 to the money bound; else ``invalid_rules`` on that field."""
    amount = values.get("award_confirm_from")
    if amount is None:
        return
    if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= MONEY_MAX:
        raise ServiceError(
            "invalid_rules",
            "The pot that needs a second confirmation is a whole amount from 1 to "
            f"{MONEY_MAX:,}, or empty for never.",
            details={"field": "award_confirm_from"},
        )


def time_zone_checked(name: str | None) -> str:
    """``name`` if it is a time zone's IANA name, the settings' TIME_ZONE if None; else
    ``invalid_time_zone``."""
    if name is None:
        return default_time_zone()
    try:
        validate_time_zone(name)
    except ValidationError:
        raise ServiceError(
            "invalid_time_zone",
            f"{name!r} is not a time zone; choose one such as Europe/London.",
            details={"field": "time_zone"},
        ) from None
    return name


def event_name_checked(name: str) -> str:
    """An event's name as stored (cleaned as a player's name is: invisible characters gone,
    white space collapsed), refused (``event_exists``) when another event has it or a name
    that looks the same ("FLАSH" with a Cyrillic "А" beside "FLASH": core.names.name_key)."""
    clean = player_name_clean(name)
    key = name_key(clean)
    for other in Event.objects.values_list("name", flat=True).iterator():
        if name_key(other) != key:
            continue
        if other == clean:
            said = f"An event called “{clean}” already exists: choose another name."
        else:
            said = (
                f"An event called “{other}” already exists, and “{clean}” looks the same: "
                "choose a name that reads differently."
            )
        raise ServiceError("event_exists", said, details={"field": "name", "other": other})
    return clean


@service_transaction
def event_create_flash(
    *,
    name: str = "FLASH",
    currency: str = "MB",
    start: dt.date | None = None,
    time_zone: str | None = None,
    starting_money: int | None = None,
    count_at_close: bool = True,
    by: Actor | None,
) -> Event:
    """Create an event with the three days exactly as the FLASH event sheet sets them, all
    scheduled: day 1 opens with ``day_open``. Its times are in ``time_zone`` (default: the
    settings' TIME_ZONE); ``starting_money`` is what a player is registered with unless said
    otherwise (``None``: every registration says); ``count_at_close``: each day's close waits
    for the end-of-day count (``closing.count``)."""
    zone_name = time_zone_checked(time_zone)
    check_starting_money(starting_money)
    name = event_name_checked(name)
    try:
        with transaction.atomic():
            event = Event.objects.create(
                name=name,
                currency=currency,
                time_zone=zone_name,
                starting_money=starting_money,
                count_at_close=count_at_close,
            )
    except IntegrityError:
        raise ServiceError(
            "event_exists",
            f"An event called “{name}” already exists: choose another name.",
            details={"field": "name"},
        ) from None
    for number, rules in enumerate(FLASH_DAYS, start=1):
        date = start + dt.timedelta(days=number - 1) if start else None
        Day.objects.create(
            event=event, number=number, date=date, status=Day.Status.SCHEDULED, **rules.to_dict()
        )
    audit_record(
        by=by,
        verb=Verb.EVENT_CREATE,
        subject=event,
        data={"preset": "FLASH", "time_zone": zone_name},
    )
    return event


def check_starting_money(amount: Any) -> None:
    """An event's starting money: ``None`` (none set) or a whole number within the money
    bound."""
    if amount is None:
        return
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= MONEY_MAX:
        raise ServiceError(
            "invalid_amount",
            f"The starting money is a whole number from 0 to {MONEY_MAX:,}.",
            details={"field": "starting_money"},
        )


@service_transaction
def event_set_count_at_close(*, event: Event, count: bool, by: Actor | None) -> Event:
    """Whether each day's close of ``event`` waits for the end-of-day chip count. Refused while
    a day's close is under way (``refuse_count_setting_mid_close``): that close keeps what its
    request recorded, and skipping the count is a waiver with a reason."""
    refuse_if_imported(event, "its closes")
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.count_at_close == bool(count):
        return event
    refuse_count_setting_mid_close(event)
    event.count_at_close = bool(count)
    event.save(update_fields=["count_at_close"])
    audit_record(
        by=by,
        verb=Verb.EVENT_UPDATE,
        subject=event,
        data={"count_at_close": event.count_at_close},
        event_id=event.pk,
    )
    return event


@service_transaction
def event_set_starting_money(*, event: Event, amount: int, by: Actor | None) -> Event:
    """Set what players of ``event`` are registered with unless said otherwise (players
    registered already keep what they were given)."""
    check_starting_money(amount)
    refuse_if_imported(event, "its starting money")
    event = Event.objects.select_for_update().get(pk=event.pk)
    before = event.starting_money
    if before == amount:
        return event
    event.starting_money = amount
    event.save(update_fields=["starting_money"])
    audit_record(
        by=by,
        verb=Verb.EVENT_STARTING_MONEY,
        subject=event,
        data={"before": before, "after": amount},
        event_id=event.pk,
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
    before = day.settings_dict()
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
    audit_record(by=by, verb=Verb.DAY_RULES, subject=day, data={"changed": changed})
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
        verb=Verb.DAY_QUALIFICATION,
        subject=day,
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
    audit_record(by=by, verb=Verb.DAY_OPEN, subject=day)
    return day
