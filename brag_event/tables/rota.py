"""The dealers' rota: every ``minutes`` each dealer moves on to the next table, the last table's
dealer to the first break when there are more dealers than tables (a break lasts one turn per
dealer beyond the tables), and back to the first table after the last break. Pure: the plan of
a turn, and when the next change is due, from the rota's figures alone; ``rota_draw`` (below the
plan) keeps a day's rota.

Turn ``k`` (from 0, starting at ``starts_at + k × minutes``) puts dealer ``j`` (in the rota's
order) at place ``(j + k) mod D`` of ``D`` places: the tables in order, then the breaks. So table
``i`` is dealt in turn ``k`` by dealer ``(i − k) mod D``: everyone deals every table and takes
every break in turn, the same number of turns each, and the change at a table is one dealer
taking over from the one before in the list."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from django.contrib.auth.models import User
from django.utils import timezone

from brag_event.access.selectors import dealers_of
from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.core.words import counted
from brag_event.events.models import Day

from .models import DealerRota, Table

T = TypeVar("T")
D = TypeVar("D")

MINUTES = (10, 240)  # a turn: at least, at most
CHANGES_MAX = 48
WARN_BEFORE = timedelta(minutes=10)
"""The tablet says a change is due this long before it (and until the next dealer signs in)."""


@dataclass(frozen=True)
class Turn(Generic[T, D]):
    at: datetime
    tables: dict[T, D]  # table → its dealer this turn
    breaks: list[D]  # the dealers on a break this turn


def rota_turn(tables: Sequence[T], dealers: Sequence[D], k: int) -> tuple[dict[T, D], list[D]]:
    """Who deals each table, and who is on a break, in turn ``k``."""
    count = len(dealers)
    if count < len(tables) or not tables:
        raise ValueError("a rota needs a dealer for every table")
    at = {table: dealers[(i - k) % count] for i, table in enumerate(tables)}
    breaks = [dealers[(p - k) % count] for p in range(len(tables), count)]
    return at, breaks


def rota_plan(
    *,
    tables: Sequence[T],
    dealers: Sequence[D],
    starts_at: datetime,
    minutes: int,
    changes: int,
) -> list[Turn[T, D]]:
    """Every turn of the rota, in order (``changes`` turns)."""
    out = []
    for k in range(changes):
        at, breaks = rota_turn(tables, dealers, k)
        out.append(Turn(at=starts_at + timedelta(minutes=minutes * k), tables=at, breaks=breaks))
    return out


@dataclass(frozen=True)
class Change(Generic[D]):
    """A change of dealer at a table: ``dealer`` takes it at ``at``; ``overdue``: that time has
    passed and somebody else still deals there."""

    dealer: D
    at: datetime
    overdue: bool


def rota_change_due(
    *,
    tables: Sequence[T],
    dealers: Sequence[D],
    starts_at: datetime,
    minutes: int,
    changes: int,
    table: T,
    dealing: D | None,
    now: datetime,
    warn: timedelta = WARN_BEFORE,
) -> Change[D] | None:
    """The change the tablet of ``table`` announces at ``now``, ``dealing`` being whoever is
    signed in there (``None``: nobody). The turn's own dealer, overdue, while someone else
    deals; else the next turn's dealer from ``warn`` before it; else none (outside the rota,
    the same dealer goes on, or the next dealer has taken over a little early)."""
    if table not in tables:
        return None
    step = timedelta(minutes=minutes)
    k = (now - starts_at) // step if now >= starts_at else -1
    following = k + 1
    coming = None
    if following < changes:
        at = starts_at + step * following
        coming = rota_turn(tables, dealers, following)[0][table] if at - now <= warn else None
    if coming is not None and dealing == coming:
        return None  # the next dealer took over a little early
    if 0 <= k < changes:
        current = rota_turn(tables, dealers, k)[0][table]
        if dealing != current:
            return Change(dealer=current, at=starts_at + step * k, overdue=True)
    if coming is not None:
        return Change(dealer=coming, at=starts_at + step * following, overdue=False)
    return None


# The rota kept for a day ---------------------------------------------------------------------


@service_transaction
def rota_draw(
    *,
    day: Day,
    starts_at: datetime,
    minutes: int,
    changes: int,
    dealers: Sequence[User],
    by: Actor | None,
) -> DealerRota:
    """Keep a rota for ``day``'s tables (all of them, by number) and ``dealers`` (in that
    order): the newest rota of a day is the one the tablets follow."""
    tables = list(Table.objects.filter(day=day).order_by("number").values_list("pk", flat=True))
    if not tables:
        raise ServiceError(
            "no_tables", f"Day {day.number} has no tables yet: draw the seating first."
        )
    if not MINUTES[0] <= minutes <= MINUTES[1]:
        raise ServiceError(
            "invalid_minutes",
            f"A turn lasts {MINUTES[0]} to {MINUTES[1]} minutes.",
            details={"field": "minutes"},
        )
    if not 1 <= changes <= CHANGES_MAX:
        raise ServiceError(
            "invalid_changes",
            f"A rota has 1 to {CHANGES_MAX} turns.",
            details={"field": "changes"},
        )
    ids = list(dict.fromkeys(u.pk for u in dealers))
    if len(ids) < len(tables):
        raise ServiceError(
            "too_few_dealers",
            f"{counted(len(tables), 'table')} need at least {counted(len(tables), 'dealer')}; "
            f"{len(ids)} chosen.",
            details={"field": "dealers", "tables": len(tables), "dealers": len(ids)},
        )
    allowed = set(dealers_of(day.event_id).filter(pk__in=ids).values_list("pk", flat=True))
    strangers = [pk for pk in ids if pk not in allowed]
    if strangers:
        raise ServiceError(
            "not_a_dealer",
            "Only the event's dealers can be on the rota.",
            details={"field": "dealers", "users": strangers},
        )
    rota = DealerRota.objects.create(
        day=day,
        starts_at=starts_at,
        minutes=minutes,
        changes=changes,
        tables=tables,
        dealers=ids,
        created_by=by.user if by is not None and by.user_id else None,
    )
    audit_record(
        by=by,
        verb=Verb.DEALER_ROTA,
        subject=day,
        target=f"rota of day {day.number}",
        data={
            "starts_at": timezone.localtime(starts_at).isoformat(),
            "minutes": minutes,
            "changes": changes,
            "tables": len(tables),
            "dealers": len(ids),
        },
        event_id=day.event_id,
    )
    return rota


def day_rota(day_id: int) -> DealerRota | None:
    """The rota the day's tablets follow: its newest."""
    return DealerRota.objects.filter(day_id=day_id).order_by("-created_at", "-id").first()
