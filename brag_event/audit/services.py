from __future__ import annotations

from typing import Any

from brag_event.core.actors import SYSTEM, Actor

from .models import AuditEntry


def audit_record(
    *, by: Actor | None, verb: str, target: str = "", data: dict[str, Any] | None = None
) -> AuditEntry:
    """Record a change made by a person (or the system). Call inside the service's transaction."""
    actor = by or SYSTEM
    return AuditEntry.objects.create(
        actor=actor.user if getattr(actor.user, "pk", None) else None,
        verb=verb,
        target=target[:120],
        data=data or {},
        device=actor.device[:200],
    )
