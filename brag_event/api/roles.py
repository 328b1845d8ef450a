"""Who may do what. Roles come from groups (organiser, supervisor, dealer) and the player link.

Access is enforced in querysets (lists and lookups never see other tables) and in object checks."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import Exists, OuterRef, Q, QuerySet

from brag_event.core.sql import qn
from brag_event.events.models import Day
from brag_event.hands.models import Hand
from brag_event.tables.models import Table

ORGANISER = "organiser"
SUPERVISOR = "supervisor"
DEALER = "dealer"
PLAYER = "player"
PUBLIC = "public"

RANK = {PUBLIC: 0, PLAYER: 1, DEALER: 2, SUPERVISOR: 3, ORGANISER: 4}


STAFF_GROUPS = (ORGANISER, SUPERVISOR, DEALER)


def _decide(user: Any, groups: set[str], has_player: bool | None = None) -> str:
    if user.is_superuser or ORGANISER in groups:
        return ORGANISER
    if SUPERVISOR in groups:
        return SUPERVISOR
    if DEALER in groups:
        return DEALER
    if has_player if has_player is not None else hasattr(user, "player"):
        return PLAYER
    return PUBLIC


def group_flags_sql(user_id: str) -> tuple[str, list[Any]]:
    """SQL selecting, for the user whose id is the expression ``user_id``, one boolean per staff
    group (in ``STAFF_GROUPS`` order) — for hand-written look-ups such as the token's."""
    through = qn(get_user_model().groups.through._meta.db_table)
    group_table = qn(Group._meta.db_table)
    exists = (
        f"EXISTS (SELECT 1 FROM {through} ug JOIN {group_table} g ON g.{qn('id')} = "  # nosec B608
        f"ug.{qn('group_id')} WHERE ug.{qn('user_id')} = {user_id} AND g.{qn('name')} = %s)"
    )
    return ", ".join([exists] * len(STAFF_GROUPS)), list(STAFF_GROUPS)


def remember_role_from_flags(user: Any, flags: Any, has_player: bool) -> None:
    groups = {name for name, flag in zip(STAFF_GROUPS, flags, strict=True) if flag}
    user._brag_role = _decide(user, groups, has_player)


def role_annotations(user_ref: str) -> dict[str, Any]:
    """Annotations that bring a user's staff groups along with the query that loads the user
    (a token or a session look-up), so no request spends a query of its own on its role.
    ``user_ref`` is the path to the user's id in that query (``"pk"`` or ``"user_id"``)."""
    return {
        f"_in_{name}": Exists(Group.objects.filter(user=OuterRef(user_ref), name=name))
        for name in STAFF_GROUPS
    }


def remember_role(user: Any, holder: Any) -> None:
    """Decide the role from annotations made by ``role_annotations`` on ``holder``."""
    groups = {name for name in STAFF_GROUPS if getattr(holder, f"_in_{name}", False)}
    user._brag_role = _decide(user, groups)


def role_of(user: Any) -> str:
    if user is None or not getattr(user, "is_authenticated", False):
        return PUBLIC
    cached = getattr(user, "_brag_role", None)
    if cached is not None:
        return str(cached)
    role = _decide(user, set(user.groups.values_list("name", flat=True)))
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


def table_of_any_day(user: Any, table_id: int) -> Table | None:
    """A table the user would see if its day were open (``tables_for`` without the day's
    state): to say that its day is not open, rather than that there is no such table."""
    tables = Table.objects.select_related("day__event").filter(pk=table_id)
    role = role_of(user)
    if role in (ORGANISER, SUPERVISOR):
        return tables.first()
    if role == DEALER:
        return tables.filter(dealers=user).first()
    return None


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
        if self.role == ORGANISER:
            return "1 = 1", []
        is_open = f"{day}.{qn('status')} = %s"
        if self.role == SUPERVISOR:
            return is_open, [Day.Status.OPEN.value]
        if self.role == DEALER:
            through = Table.dealers.through._meta
            assigned = (
                f"EXISTS (SELECT 1 FROM {qn(through.db_table)} x WHERE x.{qn('table_id')} = "  # nosec B608
                f"{table}.{qn('id')} AND x.{qn('user_id')} = %s)"
            )
            return f"{is_open} AND {assigned}", [Day.Status.OPEN.value, self.user.pk]
        return "1 = 0", []


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
