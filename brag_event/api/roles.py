"""Who may do what. Roles come from groups (organiser, supervisor, dealer) and the player link.

Access is enforced in querysets (lists and lookups never see other tables) and in object checks."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from brag_event.events.models import Day
from brag_event.hands.models import Hand
from brag_event.tables.models import Table

ORGANISER = "organiser"
SUPERVISOR = "supervisor"
DEALER = "dealer"
PLAYER = "player"
PUBLIC = "public"

RANK = {PUBLIC: 0, PLAYER: 1, DEALER: 2, SUPERVISOR: 3, ORGANISER: 4}


def role_of(user: Any) -> str:
    if user is None or not getattr(user, "is_authenticated", False):
        return PUBLIC
    cached = getattr(user, "_brag_role", None)
    if cached is not None:
        return str(cached)
    groups = set(user.groups.values_list("name", flat=True))
    if user.is_superuser or ORGANISER in groups:
        role = ORGANISER
    elif SUPERVISOR in groups:
        role = SUPERVISOR
    elif DEALER in groups:
        role = DEALER
    elif hasattr(user, "player"):
        role = PLAYER
    else:
        role = PUBLIC
    user._brag_role = role
    return role


def at_least(user: Any, role: str) -> bool:
    return RANK[role_of(user)] >= RANK[role]


def tables_for(user: Any) -> QuerySet[Table]:
    """The tables a user may see and operate: organisers all; supervisors every table of an open
    day; dealers the tables assigned to them on open days; nobody else any."""
    tables = Table.objects.select_related("day__event")
    role = role_of(user)
    if role == ORGANISER:
        return tables
    if role == SUPERVISOR:
        return tables.filter(day__status=Day.Status.OPEN)
    if role == DEALER:
        return tables.filter(day__status=Day.Status.OPEN, dealers=user)
    return tables.none()


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
