from __future__ import annotations

from typing import Any

from brag_event.core.actors import SYSTEM, Actor

from .models import AuditEntry


def _event_of(subject: Any) -> int | None:
    """The event a model object belongs to (Event, Day, Table, Seat, Player, Hand …)."""
    if subject is None:
        return None
    if type(subject).__name__ == "Event":
        return int(subject.pk)
    for path in ("event_id", "day.event_id", "table.day.event_id", "player.event_id"):
        value: Any = subject
        try:
            for part in path.split("."):
                value = getattr(value, part)
        except AttributeError:
            continue
        if value is not None:
            return int(value)
    return None


def audit_record(
    *,
    by: Actor | None,
    verb: str,
    target: str = "",
    data: dict[str, Any] | None = None,
    event_id: int | None = None,
    subject: Any = None,
) -> AuditEntry:
    """Record a change made by a person (or the system), under its event (given, or found from
    ``subject``). Call inside the service's transaction."""
    actor = by or SYSTEM
    return AuditEntry.objects.create(
        event_id=event_id if event_id is not None else _event_of(subject),
        actor=actor.user if getattr(actor.user, "pk", None) else None,
        verb=verb,
        target=target[:120],
        data=data or {},
        device=actor.device[:200],
    )
