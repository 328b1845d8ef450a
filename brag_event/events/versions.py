"""The event's own version counter (``Event.version``; ``tables.versions`` explains the
counters and who reads them). Here so that ``events`` bumps it without importing ``tables``;
``tables.versions.event_changed`` calls it, and with ``tables=True`` bumps every table too."""

from __future__ import annotations

from django.db.models import F

from .models import Event


def event_changed(event_id: int) -> None:
    """Something event-wide changed (the standings and the dashboard), nothing the tables show."""
    Event.objects.filter(pk=event_id).update(version=F("version") + 1)
