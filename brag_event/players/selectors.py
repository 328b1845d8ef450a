"""Read side of players."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum

from brag_event.events.models import Event
from brag_event.tables.models import Seat

from .models import Player


def standings(event: Event) -> list[dict[str, Any]]:
    """Players ranked by money held: event balance plus what is on the table now."""
    stacks = dict(
        Seat.objects.filter(player__event=event, left_at__isnull=True)
        .values("player_id")
        .annotate(s=Sum("stack"))
        .values_list("player_id", "s")
    )
    rows: list[dict[str, Any]] = [
        {"player": p.pk, "name": p.name, "total": p.balance + int(stacks.get(p.pk) or 0)}
        for p in Player.objects.filter(event=event)
    ]
    rows.sort(key=lambda r: (-r["total"], r["name"]))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows
