"""A user's roles: one for every event (the groups "organiser", "supervisor", "dealer", or the
superuser flag) and one per event (``StaffRole``); and a player's link.

A user's role *in an event* is the higher of the two; a user's role with no event named (a
first, coarse check — "is this a dealer at all?") is the highest they hold anywhere. Which
event's rows they then reach is decided with the event (``rules.can``, ``events_where``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from brag_event.core.sql import qn

from .models import StaffRole

ORGANISER = "organiser"
SUPERVISOR = "supervisor"
DEALER = "dealer"
PLAYER = "player"
PUBLIC = "public"

RANK = {PUBLIC: 0, PLAYER: 1, DEALER: 2, SUPERVISOR: 3, ORGANISER: 4}

STAFF_GROUPS = (ORGANISER, SUPERVISOR, DEALER)

# Set on a user object by the query that loaded it (a session's or a token's), so that a
# request spends no query of its own on roles: the role for every event, and whether the user
# has any role of one event (only then are those read, once, by ``event_roles``).
_GLOBAL = "_brag_role"
_HAS_EVENT_ROLES = "_brag_has_event_roles"
_EVENT_ROLES = "_brag_event_roles"


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


def highest(*roles: str) -> str:
    return max(roles, key=RANK.__getitem__, default=PUBLIC)


def group_flags_sql(user_id: str) -> tuple[str, list[Any]]:
    """SQL selecting, for the user whose id is the expression ``user_id``, one boolean per staff
    group (in ``STAFF_GROUPS`` order) and a last one: whether they have a role of one event —
    for hand-written look-ups such as the token's."""
    through = qn(get_user_model().groups.through._meta.db_table)
    group_table = qn(Group._meta.db_table)
    exists = (
        f"EXISTS (SELECT 1 FROM {through} ug JOIN {group_table} g ON g.{qn('id')} = "  # nosec B608
        f"ug.{qn('group_id')} WHERE ug.{qn('user_id')} = {user_id} AND g.{qn('name')} = %s)"
    )
    staff = (
        f"EXISTS (SELECT 1 FROM {qn(StaffRole._meta.db_table)} sr "  # nosec B608
        f"WHERE sr.{qn('user_id')} = {user_id})"
    )
    return ", ".join([exists] * len(STAFF_GROUPS) + [staff]), list(STAFF_GROUPS)


def remember_role_from_flags(user: Any, flags: Any, has_player: bool) -> None:
    """Keep on ``user`` what ``group_flags_sql``'s columns say."""
    *group_flags, has_event_roles = flags
    groups = {name for name, flag in zip(STAFF_GROUPS, group_flags, strict=True) if flag}
    setattr(user, _GLOBAL, _decide(user, groups, has_player))
    setattr(user, _HAS_EVENT_ROLES, bool(has_event_roles))


def _signed_in(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def global_role(user: Any) -> str:
    """The user's role in every event (groups, superuser), or player / public."""
    if not _signed_in(user):
        return PUBLIC
    cached = getattr(user, _GLOBAL, None)
    if cached is not None:
        return str(cached)
    role = _decide(user, set(user.groups.values_list("name", flat=True)))
    setattr(user, _GLOBAL, role)
    return role


def event_roles(user: Any) -> dict[int, str]:
    """The user's roles of one event each: {event id: role}."""
    if not _signed_in(user):
        return {}
    cached = getattr(user, _EVENT_ROLES, None)
    if cached is not None:
        return dict(cached)
    if getattr(user, _HAS_EVENT_ROLES, None) is False:
        found: dict[int, str] = {}
    else:
        found = dict(StaffRole.objects.filter(user=user).values_list("event_id", "role"))
    setattr(user, _EVENT_ROLES, found)
    return dict(found)


def forget_roles(user: Any) -> None:
    """Drop what was kept on ``user`` (after its roles changed)."""
    for name in (_GLOBAL, _HAS_EVENT_ROLES, _EVENT_ROLES):
        if hasattr(user, name):
            delattr(user, name)


def role_of(user: Any) -> str:
    """The highest role the user holds anywhere (no event named)."""
    return highest(global_role(user), *event_roles(user).values())


def role_in(user: Any, event_id: int | None) -> str:
    """The user's role in the event ``event_id`` (``None``: ``role_of``)."""
    if event_id is None:
        return role_of(user)
    return highest(global_role(user), event_roles(user).get(int(event_id), PUBLIC))


def at_least(user: Any, role: str, event_id: int | None = None) -> bool:
    return RANK[role_in(user, event_id)] >= RANK[role]


def events_where(user: Any, role: str) -> set[int] | None:
    """The events in which the user is at least ``role``: ``None`` for every event (their role
    for every event is enough), else the ids (maybe none)."""
    if RANK[global_role(user)] >= RANK[role]:
        return None
    return {event for event, held in event_roles(user).items() if RANK[held] >= RANK[role]}


def is_global(user: Any, role: str) -> bool:
    """At least ``role`` in every event (not through roles of one event)."""
    return RANK[global_role(user)] >= RANK[role]
