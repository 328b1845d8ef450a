"""Each event's own time zone: chosen when the event is created (an IANA name, by default the
settings' TIME_ZONE, from BRAG_TIME_ZONE), and active for every page and export of that event —
the console, the tablets, the standings, the big screen, a player's page and the CSV files —
whatever zone the server or the browser is in (docs/operations.md, "Time zones")."""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone


@functools.cache
def zone_names() -> frozenset[str]:
    """Every IANA zone name this machine knows (the system's zoneinfo, or the tzdata package)."""
    return frozenset(zoneinfo.available_timezones())


def zone_choices() -> list[tuple[str, str]]:
    """The zones an organiser chooses from, by name (Europe/London), as a form's choices."""
    names = sorted(n for n in zone_names() if "/" in n and not n.startswith(("Etc/", "SystemV/")))
    names += sorted({"UTC", settings.TIME_ZONE} - set(names))
    return [(n, n.replace("_", " ")) for n in names]


def default_time_zone() -> str:
    """A new event's zone unless chosen: the settings' TIME_ZONE (BRAG_TIME_ZONE)."""
    return str(settings.TIME_ZONE)


def validate_time_zone(value: str) -> None:
    if value not in zone_names():
        raise ValidationError(
            "%(value)s is not a time zone; choose one such as Europe/London.",
            code="invalid_time_zone",
            params={"value": value},
        )


def zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(name)


# The URL parameters that name something of one event, and how to reach its event from it (the
# reverse relations' names: events imports none of the apps that play on a day).
_EVENT_BY: dict[str, str] = {
    "event_id": "pk",
    "day_id": "days",
    "table_id": "days__tables",
    "hand_id": "days__tables__hands",
    "player_id": "players",
    "call_id": "floor_calls",
    "penalty_id": "penalties",
}


def event_zone_for(kwargs: dict[str, Any]) -> str | None:
    """The time zone of the event a page's URL parameters name, or None (no event, or none
    found: the page answers 404 itself)."""
    from .models import Event

    for key, lookup in _EVENT_BY.items():
        if key in kwargs:
            found = Event.objects.filter(**{lookup: kwargs[key]}).values_list("time_zone")[:1]
            row = next(iter(found), None)
            return row[0] if row else None
    return None


class EventTimeZoneMiddleware:
    """Activates the zone of the event a page belongs to (by its URL: ``_EVENT_BY``) for the
    request, so that every time on the page, in its template and in a CSV it streams is the
    event's local time. Pages named otherwise (a player's signed link) activate it themselves
    (``activate_for``). The API answers in ISO 8601 with offsets and is left alone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()  # whatever an earlier request of this thread left
        response = self.get_response(request)
        # A streamed body (a CSV) is written after this returns, still in the event's zone; the
        # thread's next request starts from the default again (above).
        if not response.streaming:
            timezone.deactivate()
        return response

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        if request.path_info.startswith("/api/"):
            return
        name = event_zone_for(kwargs)
        if name:
            timezone.activate(zone(name))


def activate_for(event: Any) -> None:
    """Show this request's times in ``event``'s zone (for pages whose URL names no event)."""
    timezone.activate(zone(event.time_zone))
