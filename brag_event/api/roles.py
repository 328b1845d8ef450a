"""The API's rows: which tables and hands a user reaches. Who holds which role — for every
event or for one — and every permission are decided in ``brag_event.access``; this module turns
those decisions into querysets and SQL. Access is enforced in querysets (lists and lookups
never see other tables) and in object checks."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from brag_event.access.roles import (
    DEALER,
    ORGANISER,
    PLAYER,
    PUBLIC,
    RANK,
    STAFF_GROUPS,
    SUPERVISOR,
    at_least,
    event_roles,
    events_where,
    group_flags_sql,
    remember_role_from_flags,
    role_of,
)
from brag_event.core.sql import qn
from brag_event.events.models import Day
from brag_event.hands.models import Hand
from brag_event.tables.models import DealerShift, Table
from brag_event.tables.rota import rota_reach

__all__ = [
    "DEALER",
    "ORGANISER",
    "PLAYER",
    "PUBLIC",
    "RANK",
    "STAFF_GROUPS",
    "SUPERVISOR",
    "TableAccess",
    "at_least",
    "event_roles",
    "group_flags_sql",
    "hands_for",
    "remember_role_from_flags",
    "role_of",
    "table_of_any_day",
    "tables_for",
]


def _in(events: set[int] | None, path: str) -> Q:
    """Rows of these events (``None``: every event)."""
    return Q() if events is None else Q(**{f"{path}__in": sorted(events)})


def _reach(user: Any) -> tuple[set[int] | None, set[int] | None, set[int] | None]:
    """The events in which the user is organiser; supervisor (and not organiser); dealer (and
    neither): ``None`` is every event (left), an empty set none — a role held for every event
    makes the lower ones say nothing more."""
    organising = events_where(user, ORGANISER)
    if organising is None:
        return None, set(), set()
    supervising = events_where(user, SUPERVISOR)
    if supervising is None:
        return organising, None, set()
    supervising -= organising
    dealing = events_where(user, DEALER)
    if dealing is not None:
        dealing -= organising | supervising
    return organising, supervising, dealing


def _assigned(user: Any) -> Exists:
    through = Table.dealers.through
    return Exists(through.objects.filter(table_id=OuterRef("pk"), user_id=user.pk))


def _on_shift(user: Any) -> Exists:
    return Exists(
        DealerShift.objects.filter(table_id=OuterRef("pk"), dealer_id=user.pk, ended_at=None)
    )


def _dealer_may(user: Any, dealing: set[int] | None) -> Q:
    """A dealer's tables (of the events where they deal): those ticked for them on the Dealers
    page, the one the day's rota puts them at now (``tables.rota.rota_reach``: at their turn,
    without a tick), and the one they are signed in to deal at until relieved or signed out."""
    reach = rota_reach(user.pk, dealing)
    condition = Q(_assigned(user)) | Q(_on_shift(user))
    return condition | Q(pk__in=sorted(reach)) if reach else condition


def _table_condition(user: Any, *, open_only: bool = True) -> Q | None:
    """The tables a user reaches as a condition (``None``: none at all): an organiser's events'
    tables; a supervisor's events' tables of an open day; a dealer's events' tables of an open
    day that are assigned to them. ``open_only=False`` leaves out the day's state."""
    if not getattr(user, "is_authenticated", False):
        return None
    organising, supervising, dealing = _reach(user)
    if organising is None:
        return Q()
    is_open = Q(day__status=Day.Status.OPEN) if open_only else Q()
    parts = []
    if organising:
        parts.append(_in(organising, "day__event_id"))
    if supervising is None or supervising:
        parts.append(_in(supervising, "day__event_id") & is_open)
    if dealing is None or dealing:
        parts.append(_in(dealing, "day__event_id") & is_open & _dealer_may(user, dealing))
    if not parts:
        return None
    condition = parts[0]
    for part in parts[1:]:
        condition |= part
    return condition


def tables_for(user: Any) -> QuerySet[Table]:
    """The tables a user may see and operate: an organiser's events' tables; a supervisor's
    events' tables of an open day; a dealer's tables (of their events) on open days; nobody
    else's any."""
    tables = Table.objects.select_related("day__event")
    condition = _table_condition(user)
    if condition is None:
        return tables.none()
    return tables.filter(condition)


def table_of_any_day(user: Any, table_id: int) -> Table | None:
    """A table the user would see if its day were open (``tables_for`` without the day's
    state): to say that its day is not open, rather than that there is no such table."""
    condition = _table_condition(user, open_only=False)
    if condition is None:
        return None
    tables = Table.objects.select_related("day__event").filter(pk=table_id)
    return tables.filter(condition).first()


class TableAccess:
    """The tables a user may operate, in both forms the services need: a queryset
    (``tables_for``) and the same condition as SQL for the hand-written hot path. A test checks
    that the two agree for every role."""

    def __init__(self, user: Any) -> None:
        self.user = user
        self.role = role_of(user)

    def tables(self) -> QuerySet[Table]:
        return tables_for(self.user)

    def sql(self, table: str, day: str) -> tuple[str, list[Any]]:
        """A condition on the aliases ``table`` and ``day`` (events_day) with its parameters."""
        if not getattr(self.user, "is_authenticated", False):
            return "1 = 0", []
        organising, supervising, dealing = _reach(self.user)
        if organising is None:
            return "1 = 1", []

        def of(events: set[int] | None) -> tuple[str, list[Any]]:
            if events is None:
                return "1 = 1", []
            marks = ", ".join(["%s"] * len(events))
            return f"{day}.{qn('event_id')} IN ({marks})", sorted(events)

        is_open = f"{day}.{qn('status')} = %s"
        through = Table.dealers.through._meta
        assigned = (
            f"EXISTS (SELECT 1 FROM {qn(through.db_table)} x WHERE x.{qn('table_id')} = "  # nosec B608
            f"{table}.{qn('id')} AND x.{qn('user_id')} = %s)"
        )
        shifts = DealerShift._meta
        on_shift = (
            f"EXISTS (SELECT 1 FROM {qn(shifts.db_table)} s WHERE s.{qn('table_id')} = "  # nosec B608
            f"{table}.{qn('id')} AND s.{qn('dealer_id')} = %s AND s.{qn('ended_at')} IS NULL)"
        )
        parts: list[tuple[str, list[Any]]] = []
        if organising:
            parts.append(of(organising))
        if supervising is None or supervising:
            where, params = of(supervising)
            parts.append((f"{where} AND {is_open}", [*params, Day.Status.OPEN.value]))
        if dealing is None or dealing:
            where, params = of(dealing)
            # The same three ways in as ``_dealer_may``; the rota's tables as ids (ints only).
            reach = sorted(rota_reach(self.user.pk, dealing))
            by_rota = (
                f" OR {table}.{qn('id')} IN ({', '.join(str(int(t)) for t in reach)})"
                if reach
                else ""
            )
            parts.append(
                (
                    f"{where} AND {is_open} AND ({assigned} OR {on_shift}{by_rota})",
                    [*params, Day.Status.OPEN.value, self.user.pk, self.user.pk],
                )
            )
        if not parts:
            return "1 = 0", []
        if len(parts) == 1:
            return parts[0]
        return (
            " OR ".join(f"({where})" for where, _ in parts),
            [p for _, params in parts for p in params],
        )


def hands_for(user: Any) -> QuerySet[Hand]:
    """Hands a user may read: their tables' hands (staff), and the ones they were dealt (a
    player — also a member of staff who plays)."""
    hands = Hand.objects.select_related("table__day__event")
    role = role_of(user)
    player = getattr(user, "player", None) if role != PUBLIC else None
    staff = role in (ORGANISER, SUPERVISOR, DEALER)
    if staff and player is not None:
        return hands.filter(Q(table__in=tables_for(user)) | Q(dealt_players=player)).distinct()
    if staff:
        return hands.filter(table__in=tables_for(user))
    if player is not None:
        return hands.filter(dealt_players=player)
    return hands.none()
