"""Recording the audit log. Every change calls ``audit_record`` with a ``Verb`` and its subject
(a model object): the entry gets real references to it and to what it belongs to."""

from __future__ import annotations

from typing import Any

from brag_event.core.actors import SYSTEM, Actor

from .models import AuditEntry, Verb

# The references a subject of each model fills: (entry field, path of ids on the subject).
# Paths use only ``*_id`` attributes and the subject's own pk, so no query is made.
_REFERENCES: dict[str, tuple[tuple[str, str], ...]] = {
    "events.event": (("event", "pk"),),
    "events.day": (("day", "pk"), ("event", "event_id")),
    "events.announcement": (("event", "event_id"),),
    "tables.table": (("table", "pk"), ("day", "day_id")),
    "tables.seat": (("seat", "pk"), ("table", "table_id"), ("player", "player_id")),
    "hands.hand": (("hand", "pk"), ("table", "table_id")),
    "players.player": (("player", "pk"), ("event", "event_id")),
    "api.devicetoken": (("token", "pk"),),
}
SUBJECT_FIELDS = ("event", "day", "table", "hand", "seat", "player", "token")


def _references(subject: Any) -> dict[str, int]:
    """The entry's references to ``subject`` and to what it belongs to (by ids it carries)."""
    if subject is None:
        return {}
    label = getattr(getattr(subject, "_meta", None), "label_lower", "")
    out: dict[str, int] = {}
    for field, attr in _REFERENCES.get(label, ()):
        value = getattr(subject, attr, None)
        if value is not None:
            out[field] = int(value)
    if "event" not in out:  # through the objects already loaded, if any
        for path in ("table.day.event_id", "day.event_id", "player.event_id"):
            value = subject
            for part in path.split("."):
                value = getattr(value, part, None)
            if value is not None:
                out["event"] = int(value)
                break
    return out


def _day_of(subject: Any, day: Any) -> Any:
    """The day object a subject belongs to: the one passed, or the subject's table's (a hand,
    a seat, a rebuy's seat)."""
    if getattr(day, "number", None) is not None:
        return day
    for path in (("table", "day"), ("seat", "table", "day"), ("hand", "table", "day")):
        value = subject
        for part in path:
            value = getattr(value, part, None)
            if value is None:
                break
        if value is not None and getattr(value, "number", None) is not None:
            return value
    return None


def _with_day(words: str, subject: Any, day: Any) -> str:
    """``words`` naming the day too — "Hand 15 at table 1, day 2" — when the subject belongs to
    a day and does not say which already (a table or a day says it)."""
    found = _day_of(subject, day)
    if found is None or f"day {found.number}" in words:
        return words
    return f"{words}, day {found.number}"


def audit_record(
    *,
    by: Actor | None,
    verb: Verb,
    subject: Any = None,
    target: str | None = None,
    data: dict[str, Any] | None = None,
    event_id: int | None = None,
    **references: Any,
) -> AuditEntry:
    """Record a change made by a person (or the system): ``verb`` (a member of ``Verb``), what
    it was done to (``subject``, a model object; more with ``table=``, ``player=`` …, objects
    or ids), ``target`` in words (``str(subject)`` by default), under its event (given, or
    found from the subject). Call inside the service's transaction."""
    if not isinstance(verb, Verb):
        raise TypeError(f"audit_record needs a Verb, not {verb!r}")
    unknown = set(references) - set(SUBJECT_FIELDS)
    if unknown:
        raise TypeError(f"audit_record has no reference {sorted(unknown)[0]!r}")
    refs = _references(subject)
    for field, value in references.items():
        if value is not None:
            refs[field] = int(getattr(value, "pk", value))
    if event_id is not None:
        refs["event"] = event_id
    if target is None and subject is not None:
        target = _with_day(str(subject), subject, references.get("day"))
    entry = _entry(by, verb, subject, target, data, refs)
    entry.save(force_insert=True)
    return entry


def _entry(
    by: Actor | None,
    verb: Verb,
    subject: Any,
    target: str | None,
    data: dict[str, Any] | None,
    refs: dict[str, int],
) -> AuditEntry:
    actor = by or SYSTEM
    return AuditEntry(
        actor=actor.user if getattr(actor.user, "pk", None) else None,
        device=actor.device[:200],
        device_token_id=actor.token_id,
        verb=verb,
        target=(str(subject) if target is None and subject is not None else target or "")[:120],
        data=data or {},
        **{f"{field}_id": value for field, value in refs.items()},
    )


def audit_record_each(
    *, by: Actor | None, verb: Verb, subjects: list[tuple[Any, dict[str, Any]]], event_id: int
) -> None:
    """``audit_record`` for many subjects of one change at once — (subject, data) each, the
    same verb, actor and event — in a few INSERTs rather than one a subject (an import
    registers two thousand players). Call inside the service's transaction."""
    if not isinstance(verb, Verb):
        raise TypeError(f"audit_record_each needs a Verb, not {verb!r}")
    entries = [
        _entry(by, verb, subject, None, data, {**_references(subject), "event": event_id})
        for subject, data in subjects
    ]
    AuditEntry.objects.bulk_create(entries, batch_size=500)
