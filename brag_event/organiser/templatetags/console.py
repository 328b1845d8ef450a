"""The console's navigation: which event and day the top bar links to."""

from __future__ import annotations

from typing import Any

from django import template

from brag_event.events.models import Day, Event

register = template.Library()


@register.simple_tag
def console_day(event: Any, day: Any = None) -> Day | None:
    """The day the navigation's "Seating" and "Close" links open: the page's own day, else the
    event's open day, else the first that is not closed, else its last day."""
    if isinstance(day, Day):
        return day
    if not isinstance(event, Event):
        return None
    days = list(event.days.order_by("number"))
    for wanted in ("open", "closing"):
        for d in days:
            if d.status == wanted:
                return d
    for d in days:
        if d.status != "closed":
            return d
    return days[-1] if days else None


@register.simple_tag
def console_event(event: Any, day: Any = None) -> Event | None:
    """The page's event: its own, or its day's."""
    if isinstance(event, Event):
        return event
    if isinstance(day, Day):
        return day.event
    return None


@register.simple_tag
def console_role(user: Any) -> str:
    """The user's role (``access.roles``): organiser, supervisor, dealer, player or public —
    the highest they hold in any event."""
    from brag_event.access.roles import PUBLIC, role_of

    return role_of(user) if getattr(user, "is_authenticated", False) else PUBLIC


@register.simple_tag
def console_can(user: Any, permission: str, event: Any = None) -> bool:
    """Whether ``user`` holds ``permission`` (``access.rules``) in ``event``."""
    from brag_event.access.rules import can

    return can(user, permission, event)
