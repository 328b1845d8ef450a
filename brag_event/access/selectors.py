"""Read-side questions about staff: who an organiser manages, an event's staff and dealers, and
who is signed in on which device."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import StaffRole
from .roles import DEALER, ORGANISER, STAFF_GROUPS, events_where

# What the session keeps of the device that signed in (``access.signals``).
SESSION_DEVICE = "brag_device"


def staff_manageable(user: Any) -> QuerySet[Any]:
    """The users whose accounts ``user`` may manage (a password, switched off, a device token):
    every user, for an organiser of every event; for an organiser of some events, the staff of
    those events who are staff of no other event and hold no role for every event."""
    users = get_user_model().objects.all()
    where = events_where(user, ORGANISER)
    if where is None:
        return users
    elsewhere = StaffRole.objects.exclude(event_id__in=where).values("user_id")
    return (
        users.filter(staff_roles__event_id__in=where)
        .exclude(is_superuser=True)
        .exclude(groups__name__in=STAFF_GROUPS)
        .exclude(pk__in=elsewhere)
        .distinct()
    )


def event_staff(event: Any) -> QuerySet[StaffRole]:
    """The staff of one event (their ``StaffRole`` rows, with their users), by role and name."""
    return (
        StaffRole.objects.filter(event=event)
        .select_related("user", "created_by")
        .order_by("role", "user__username")
    )


def site_staff() -> QuerySet[Any]:
    """Staff for every event: superusers and the members of the staff groups."""
    return (
        get_user_model()
        .objects.filter(Q(is_superuser=True) | Q(groups__name__in=STAFF_GROUPS))
        .prefetch_related("groups")
        .distinct()
        .order_by("username")
    )


def dealers_of(event: Any) -> QuerySet[Any]:
    """The active users who may deal at the event's tables: its dealers, and the dealers for
    every event (the "dealer" group)."""
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(
            Q(groups__name=DEALER)
            | Q(staff_roles__event=event, staff_roles__role=StaffRole.Role.DEALER)
        )
        .distinct()
        .order_by("username")
    )


# Hand-written, not a user-agent library: the staff page needs two words for a person ("Safari
# on an iPad"), and nothing is decided by them. Checked in this order: Edge and Chrome say
# "Safari" too, an iPad may say "Macintosh".
_DEVICES = (
    ("iPad", "an iPad"),
    ("iPhone", "an iPhone"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Macintosh", "a Mac"),
    ("CrOS", "a Chromebook"),
    ("Linux", "Linux"),
)
_BROWSERS = (
    ("Edg/", "Edge"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("CriOS/", "Chrome"),
    ("Safari/", "Safari"),
)


def device_name(agent: str) -> str:
    """A browser's self-description in a few words ("Chrome on Linux"), or "a browser"."""
    browser = next((name for key, name in _BROWSERS if key in agent), "a browser")
    device = next((name for key, name in _DEVICES if key in agent), "")
    return f"{browser} on {device}" if device else browser


@dataclass(frozen=True)
class SignedIn:
    user_id: int
    agent: str  # the browser, as it named itself
    address: str
    since: datetime | None
    expires: datetime

    @property
    def device(self) -> str:
        return device_name(self.agent)


def sessions_of(user_ids: set[int]) -> list[SignedIn]:
    """The live browser sessions of these users, newest first, with the device each signed in
    from. Sessions are read one by one (Django keeps their data encoded): fine for an event's
    staff, not for a site of millions."""
    out = []
    wanted = {str(pk) for pk in user_ids}
    for session in Session.objects.filter(expire_date__gt=timezone.now()).order_by("-expire_date"):
        data = session.get_decoded()
        user_id = data.get("_auth_user_id")
        if user_id not in wanted:
            continue
        device = data.get(SESSION_DEVICE) or {}
        since = device.get("at")
        out.append(
            SignedIn(
                user_id=int(user_id),
                agent=str(device.get("agent", "")),
                address=str(device.get("address", "")),
                since=datetime.fromisoformat(since) if since else None,
                expires=session.expire_date,
            )
        )
    return out


def session_keys_of(user_id: int) -> list[str]:
    """The keys of the user's live sessions (to end them when the account is switched off)."""
    keys = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()):
        if session.get_decoded().get("_auth_user_id") == str(user_id):
            keys.append(session.session_key)
    return keys
