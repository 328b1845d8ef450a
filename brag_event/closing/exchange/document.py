"""The results exchange format (``brag-results/1``) and its export.

Strict when it writes: ``event_results_document`` builds the document of a finished event and
checks it against the format's JSON Schema (``results-exchange.schema.json`` beside this file,
published as docs/results-exchange.schema.json) before anyone is given it; a document that does
not fit is a bug, refused as ``exchange_not_written`` rather than handed out."""

from __future__ import annotations

import datetime as dt
import functools
import json
from importlib import resources
from typing import Any

import jsonschema
from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone

from brag_event.core.errors import Conflict, ServiceError
from brag_event.events.models import RULE_FIELDS, Day, DayClose, Event
from brag_event.floor.models import Penalty, Ruling
from brag_event.players.models import Player, Qualification, StandingSnapshot

FORMAT = "brag-results/1"
SCHEMA_FILE = "results-exchange.schema.json"
SOFTWARE = "Brag Event"
# The rules a day carries in the file: the engine's and the floor's (``events.models``).
DAY_RULES = (*RULE_FIELDS, "award_confirm_from")


@functools.cache
def schema() -> dict[str, Any]:
    """The format's JSON Schema (draft 2020-12)."""
    text = resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def schema_problems(document: Any) -> list[str]:
    """What in ``document`` does not fit the schema, each as "where: what" (none: it fits)."""
    validator = jsonschema.Draft202012Validator(
        schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    return [
        f"/{'/'.join(str(p) for p in error.absolute_path)}: {error.message}"
        for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    ]


def document_checked(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` if it fits the schema; else ``exchange_not_written``, naming what does not
    (a writer's bug: nothing is handed out)."""
    problems = schema_problems(document)
    if problems:
        raise ServiceError(
            "exchange_not_written",
            "The results file could not be written: it did not fit its own format. Nothing was "
            "exported; please report this.",
            details={"problems": problems[:20]},
            status=500,
        )
    return document


def moment(value: dt.datetime | None) -> str | None:
    """A time in the file: UTC, to the second, ISO 8601."""
    if value is None:
        return None
    return value.astimezone(dt.UTC).replace(microsecond=0).isoformat()


def refuse_unless_finished(event: Event) -> list[Day]:
    """The event's days, once every one of them has closed; else ``exchange_not_finished``."""
    days = list(event.days.order_by("number"))
    waiting = [d for d in days if d.status != Day.Status.CLOSED]
    if not days or waiting:
        number = waiting[0].number if waiting else 1
        raise Conflict(
            "exchange_not_finished",
            f"{event.name}'s day {number} has not closed yet: an event's results file is "
            "written once its last day has closed.",
            details={"event": event.pk, "day": number},
        )
    return days


def event_results_document(event: Event) -> dict[str, Any]:
    """The results exchange document of ``event`` (every day closed), checked against the
    format's schema. Reads only: the same event gives the same document, but for
    ``exported_at``."""
    days = refuse_unless_finished(event)
    players = list(
        Player.objects.filter(event=event, removed_at__isnull=True)
        .select_related("person")
        .order_by("person__number")
    )
    number = {p.pk: p.person.number for p in players}
    closes = {c.day_id: c for c in DayClose.objects.filter(day__in=days)}
    source: dict[str, Any] = {"software": SOFTWARE}
    if settings.BRAG_PUBLIC_BASE_URL:
        source["site"] = str(settings.BRAG_PUBLIC_BASE_URL)[:200]
    if event.imported_from:
        source["imported_from"] = event.imported_from
    document: dict[str, Any] = {
        "format": FORMAT,
        "exported_at": moment(timezone.now()),
        "source": source,
        "event": {
            "uid": str(event.uid),
            "name": event.name,
            "currency": event.currency,
            "time_zone": event.time_zone,
            "starting_money": event.starting_money,
        },
        "people": [
            {
                "number": p.person.number,
                "uid": str(p.person.uid),
                "name": p.name,
                "club": p.person.club,
                "group": p.group,
                "withdrawn": p.withdrawn_at is not None,
            }
            for p in players
        ],
        "days": [_day(day, closes.get(day.pk), number) for day in days],
        "rulings": _rulings(event, number),
    }
    return document_checked(document)


def _day(day: Day, close: DayClose | None, number: dict[int, int]) -> dict[str, Any]:
    report = close.report if close is not None and isinstance(close.report, dict) else {}
    hands = report.get("record_hands")
    root: dict[str, Any] | None = None
    if day.record_root:
        root = {
            "version": day.record_version,
            "value": day.record_root,
            "hands": hands if isinstance(hands, int) and hands >= 0 else 0,
            "money_seq": day.record_money_seq,
            "money_head": day.record_money_head,
        }
    field: list[dict[str, Any]] = [
        {"number": number[q.player_id], "reason": q.reason}
        for q in Qualification.objects.filter(day=day, player_id__in=number)
    ]
    snaps = list(StandingSnapshot.objects.filter(day=day, player_id__in=number))
    # The close's order (a close from before it was kept: by rank, the disqualified last).
    if all(s.position for s in snaps):
        snaps.sort(key=lambda s: s.position)
    else:
        snaps.sort(key=lambda s: (s.rank == 0, s.rank, number[s.player_id]))
    results: list[dict[str, Any]] = [
        {
            "rank": s.rank or None,  # 0: disqualified, outside the ranking
            "number": number[s.player_id],
            "money": s.total,
            "change": s.change,
            "hands_played": s.hands_played,
            "hands_won": s.hands_won,
            "qualified": s.qualified,
            "disqualified": s.rank == 0,
        }
        | ({"mark": s.mark} if s.mark else {})
        for s in snaps
    ]
    field.sort(key=lambda f: f["number"])
    return {
        "number": day.number,
        "date": day.date.isoformat() if day.date else None,
        "closed_at": moment(close.finished_at) if close is not None else None,
        "rules": {name: getattr(day, name) for name in DAY_RULES},
        "qualification": {"rule": day.qualify_rule, "top": day.qualify_top},
        "root": root,
        "field": field,
        "results": results,
    }


def _rulings(event: Event, number: dict[int, int]) -> list[dict[str, Any]]:
    penalties = Penalty.objects.filter(player_id__in=number).select_related("day")
    rulings = (
        Ruling.objects.filter(event=event, penalties__isnull=False)
        .distinct()
        .prefetch_related(Prefetch("penalties", queryset=penalties))
        .order_by("ruled_at", "pk")
    )
    out = []
    for ruling in rulings:
        given = [
            {
                "number": number[p.player_id],
                "day": p.day.number if p.day else None,
                "kind": p.kind,
                "hands": p.hands,
                "lifted": {"at": moment(p.lifted_at), "reason": p.lift_reason}
                if p.lifted_at is not None
                else None,
            }
            for p in ruling.penalties.all()
        ]
        if not given:
            continue
        given.sort(key=lambda p: (p["number"], p["kind"]))
        out.append(
            {
                "at": moment(ruling.ruled_at),
                "what_happened": ruling.what_happened,
                "decision": ruling.decision,
                "penalties": given,
            }
        )
    return out
