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
    actor = by or SYSTEM
    return AuditEntry.objects.create(
        actor=actor.user if getattr(actor.user, "pk", None) else None,
        device=actor.device[:200],
        device_token_id=actor.token_id,
        verb=verb,
        target=(str(subject) if target is None and subject is not None else target or "")[:120],
        data=data or {},
        **{f"{field}_id": value for field, value in refs.items()},
    )
