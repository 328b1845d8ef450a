"""Reading the audit log: one event's entries, narrowed by what they were done to and who did
them (the organisers' audit page and the API read through here)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from .models import AuditEntry, Verb


def audit_entries(
    *,
    event_id: int,
    table_id: int | None = None,
    player_id: int | None = None,
    actor_id: int | None = None,
    verb: Verb | str | None = None,
) -> QuerySet[AuditEntry]:
    """The event's entries, newest first: those about a table (its hands and seats too), a
    player, by an actor, of a kind — each filter only when given."""
    filters: dict[str, Any] = {"event_id": event_id}
    if table_id is not None:
        filters["table_id"] = table_id
    if player_id is not None:
        filters["player_id"] = player_id
    if actor_id is not None:
        filters["actor_id"] = actor_id
    if verb:
        filters["verb"] = verb
    return (
        AuditEntry.objects.filter(**filters)
        .select_related("actor", "day", "table__day", "hand", "seat", "player", "token")
        .order_by("-at", "-id")
    )


def audit_actors(*, event_id: int) -> QuerySet[Any]:
    """The people who appear in the event's log (for the actor filter)."""
    ids = AuditEntry.objects.filter(event_id=event_id, actor__isnull=False).values("actor_id")
    return get_user_model().objects.filter(pk__in=ids).order_by("username")
