"""Series: created with a points table, events added and taken out, the table changed. Each a
service of one transaction, recorded in the audit log."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.core.words import at_most
from brag_event.events.models import Event

from .models import Series, SeriesEvent
from .points import points_parse, points_text

NAME_MAX = 80


def _user(by: Actor | None) -> Any:
    return by.user if by is not None else None


def _name(name: str) -> str:
    clean = " ".join(str(name).split())
    if not clean:
        raise ServiceError("field_required", "Give the series a name.", details={"field": "name"})
    if len(clean) > NAME_MAX:
        raise ServiceError(
            "name_too_long",
            at_most("A series' name", NAME_MAX),
            details={"field": "name"},
        )
    return clean


@service_transaction
def series_create(*, name: str, points: list[int], by: Actor | None) -> Series:
    """A new series with its points table (checked as typed: ``points.points_parse``)."""
    clean = _name(name)
    table = points_parse(points_text(points))
    if Series.objects.filter(name__iexact=clean).exists():
        raise ServiceError(
            "series_name_taken",
            f"There is already a series called “{clean}”.",
            details={"field": "name"},
            status=409,
        )
    series = Series.objects.create(name=clean, points=table, created_by=_user(by))
    audit_record(by=by, verb=Verb.SERIES_CREATE, target=f"series {clean}", data={"points": table})
    return series


@service_transaction
def series_points_set(*, series: Series, points: list[int], by: Actor | None) -> Series:
    """Change the series' points table: the standings are counted again from it."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    table = points_parse(points_text(points))
    before = series.points
    series.points = table
    series.save(update_fields=["points"])
    audit_record(
        by=by,
        verb=Verb.SERIES_CHANGE,
        target=f"series {series.name}",
        data={"changed": {"points": [points_text(before), points_text(table)]}},
    )
    return series


@service_transaction
def series_event_add(*, series: Series, event: Event, by: Actor | None) -> SeriesEvent:
    """Count ``event`` in ``series``; an event may be in several series, once in each."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    if SeriesEvent.objects.filter(series=series, event=event).exists():
        raise ServiceError(
            "event_in_series",
            f"{event.name} is already in the series {series.name}.",
            details={"field": "event"},
            status=409,
        )
    try:
        entry = SeriesEvent.objects.create(series=series, event=event)
    except IntegrityError:  # a second request at the same moment, past the check above
        raise ServiceError(
            "event_in_series",
            f"{event.name} is already in the series {series.name}.",
            details={"field": "event"},
            status=409,
        ) from None
    audit_record(
        by=by,
        verb=Verb.SERIES_CHANGE,
        target=f"series {series.name}",
        data={"added": event.name},
        event_id=event.pk,
    )
    return entry


@service_transaction
def series_event_remove(*, series: Series, event: Event, by: Actor | None) -> None:
    """Stop counting ``event`` in ``series`` (its results stay the event's)."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    deleted, _ = SeriesEvent.objects.filter(series=series, event=event).delete()
    if not deleted:
        raise ServiceError(
            "event_not_in_series",
            f"{event.name} is not in the series {series.name}.",
            details={"field": "event"},
            status=404,
        )
    audit_record(
        by=by,
        verb=Verb.SERIES_CHANGE,
        target=f"series {series.name}",
        data={"removed": event.name},
        event_id=event.pk,
    )
