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
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from brag_event.access.selectors import dealers_of
from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.core.words import counted
from brag_event.events.models import Day
from brag_event.events.zones import zone

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
    before = day_rota(day.pk)
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
    moved = [*ids, *(before.dealers if before is not None else [])]
    # Forgotten now (this transaction's own reads) and once it commits (anyone's read between).
    rota_reach_forget(moved)
    transaction.on_commit(lambda: rota_reach_forget(moved))
    return rota


def day_rota(day_id: int) -> DealerRota | None:
    """The rota the day's tablets follow: its newest."""
    return DealerRota.objects.filter(day_id=day_id).order_by("-created_at", "-id").first()


# Where the rota lets a dealer in ----------------------------------------------------------------

REACH_CACHE = "throttle"
"""The cache kept for the rota's reach: this process's memory without Redis, else the shared
Redis — never the database's cache, so that a tablet's read or action costs no statement more
(tests/api/test_hot_path.py counts them)."""
REACH_SECONDS = 60
"""At most this long before the reach is read again (a role given or a day opened since)."""


def rota_places(rota: DealerRota, user_id: int, now: datetime) -> set[int]:
    """The tables (ids) the rota puts ``user_id`` at, at ``now``: the turn's table, and from
    ``WARN_BEFORE`` before a change, the next turn's (the next dealer may take over a little
    early, as ``rota_change_due`` says)."""
    tables, dealers = list(rota.tables), list(rota.dealers)
    if user_id not in dealers or len(dealers) < len(tables) or not tables:
        return set()
    step = timedelta(minutes=rota.minutes)
    k = (now - rota.starts_at) // step if now >= rota.starts_at else -1
    out = set()
    for turn in (k, k + 1):
        if not 0 <= turn < rota.changes:
            continue
        if turn == k + 1 and rota.starts_at + step * turn - now > WARN_BEFORE:
            continue
        at, _breaks = rota_turn(tables, dealers, turn)
        out |= {table for table, dealer in at.items() if dealer == user_id}
    return out


def _next_boundary(rota: DealerRota, now: datetime) -> datetime | None:
    """The next moment ``rota_places`` may answer otherwise for somebody: a turn starts, or
    the warning before one."""
    step = timedelta(minutes=rota.minutes)
    times = []
    for k in range(rota.changes + 1):
        start = rota.starts_at + step * k
        times += [start - WARN_BEFORE, start]
    ahead = [t for t in times if t > now]
    return min(ahead) if ahead else None


def _reach_key(user_id: int) -> str:
    return f"rota-reach:{user_id}"


def rota_reach(user_id: int, events: set[int] | None, now: datetime | None = None) -> set[int]:
    """The tables (ids) of ``events`` (``None``: every event) that the rotas of their days not
    yet closing put ``user_id`` at now (``rota_places`` of each day's newest rota). Kept in the
    cache until the next change of turn (at most ``REACH_SECONDS``); drawing a rota forgets
    it for its dealers (``rota_reach_forget``). Whether the day is open is not decided here."""
    from django.core.cache import caches

    now = now or timezone.now()
    cache = caches[REACH_CACHE]
    key = _reach_key(user_id)
    try:
        kept = cache.get(key)
    except Exception:  # a cache that does not answer is a miss (docs/operations.md)
        kept = None
    if kept is not None and kept[0] > now:
        return {t for t, event in kept[1] if events is None or event in events}
    rotas = (
        DealerRota.objects.filter(day__status__in=[Day.Status.SCHEDULED, Day.Status.OPEN])
        .select_related("day")
        .order_by("day_id", "-created_at", "-id")
    )
    newest: dict[int, DealerRota] = {}
    for rota in rotas:
        newest.setdefault(rota.day_id, rota)
    places: list[tuple[int, int]] = []
    until = now + timedelta(seconds=REACH_SECONDS)
    for rota in newest.values():
        boundary = _next_boundary(rota, now)
        if boundary is not None:
            until = min(until, boundary)
        places += [(t, rota.day.event_id) for t in rota_places(rota, user_id, now)]
    with suppress(Exception):  # nothing kept: the next request reads the rotas again
        cache.set(key, (until, places), timeout=max(1, int((until - now).total_seconds()) + 1))
    return {t for t, event in places if events is None or event in events}


def rota_reach_forget(user_ids: Sequence[int]) -> None:
    """Forget the kept reach of these dealers (a rota drawn: theirs changed)."""
    from django.core.cache import caches

    # Not forgotten (a cache that does not answer): the kept reach ends at the next turn anyway.
    with suppress(Exception):
        caches[REACH_CACHE].delete_many([_reach_key(pk) for pk in user_ids])


# What the Dealers page and the floor read of a rota ---------------------------------------------


@dataclass(frozen=True)
class RotaNow:
    """A day's rota as it stands at a moment: the turn (``None``: not begun, or over), each
    table's dealer in it (table number → dealer), and who is on a break."""

    rota: DealerRota
    turn_at: datetime | None
    next_at: datetime | None
    tables: dict[int, User]
    breaks: list[User]


def rota_now(day: Day, now: datetime | None = None) -> RotaNow | None:
    """The day's rota at ``now`` (its newest): the turn in play, else the first turn before
    the rota begins; ``None`` with no rota, or when its dealers are gone."""
    rota = day_rota(day.pk)
    if rota is None:
        return None
    now = now or timezone.now()
    users = {u.pk: u for u in User.objects.filter(pk__in=rota.dealers)}
    numbers = dict(Table.objects.filter(pk__in=rota.tables).values_list("pk", "number"))
    tables = list(rota.tables)
    dealers = [pk for pk in rota.dealers if pk in users]
    if len(dealers) < len(tables) or not tables or len(numbers) < len(tables):
        return None
    step = timedelta(minutes=rota.minutes)
    k = max(0, (now - rota.starts_at) // step) if now >= rota.starts_at else 0
    if k >= rota.changes:
        return RotaNow(rota=rota, turn_at=None, next_at=None, tables={}, breaks=[])
    at, breaks = rota_turn(tables, dealers, k)
    nxt = rota.starts_at + step * (k + 1) if k + 1 < rota.changes else None
    return RotaNow(
        rota=rota,
        turn_at=rota.starts_at + step * k,
        next_at=nxt,
        tables={numbers[t]: users[d] for t, d in at.items()},
        breaks=[users[d] for d in breaks],
    )


def rota_problems(day: Day, *, signs_in: set[int], now: datetime | None = None) -> list[str]:
    """Why a dealer on the day's rota could not open their table, in words — each naming the
    dealer, the table and when they are due there — and the tables the rota leaves out.
    ``signs_in``: the users who can sign in on a tablet without a password (a live device
    token); a dealer with neither a password nor a token cannot sign in."""
    rota = day_rota(day.pk)
    if rota is None:
        return []
    now = now or timezone.now()
    local = zone(day.event.time_zone)
    users = {u.pk: u for u in User.objects.filter(pk__in=rota.dealers)}
    numbers = dict(Table.objects.filter(pk__in=rota.tables).values_list("pk", "number"))
    allowed = set(dealers_of(day.event_id).filter(pk__in=rota.dealers).values_list("pk", flat=True))
    out: list[str] = []
    gone = [pk for pk in rota.tables if pk not in numbers]
    if gone or len([pk for pk in rota.dealers if pk in users]) < len(rota.tables):
        return [
            "The rota no longer matches this day's tables or dealers: draw it again, or the "
            "tablets follow only the dealers ticked below."
        ]
    step = timedelta(minutes=rota.minutes)
    current = (now - rota.starts_at) // step if now >= rota.starts_at else 0
    for pk in rota.dealers:
        user = users[pk]
        due = None
        for k in range(max(0, current), rota.changes):
            at, _breaks = rota_turn(list(rota.tables), list(rota.dealers), k)
            mine = [t for t, d in at.items() if d == pk]
            if mine:
                due = (numbers[mine[0]], rota.starts_at + step * k)
                break
        if due is None:
            continue  # no table left for them on this rota
        when = f"table {due[0]} at {due[1].astimezone(local):%H:%M %Z}"
        name = user.get_full_name() or user.get_username()
        if pk not in allowed:
            out.append(
                f"{name} is on the rota but is no longer a dealer of this event (or their "
                f"account is switched off): they cannot open {when}. Draw the rota again."
            )
        elif not user.has_usable_password() and pk not in signs_in:
            out.append(
                f"{name} has neither a password nor a tablet token: they cannot sign in to "
                f"open {when}. Set a password on the Staff page."
            )
    missing = Table.objects.filter(day=day).exclude(pk__in=rota.tables).order_by("number")
    for table in missing:
        out.append(
            f"Table {table.number} is not on the rota: only the dealers ticked for it below "
            "can open it. Draw the rota again to put it on."
        )
    return out
