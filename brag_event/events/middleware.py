"""The event time zone of each console and public page (``EventTimeZoneMiddleware``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from .models import Event
from .zones import zone

_EVENT_BY: dict[str, str] = {
    "event_id": "pk",
    "day_id": "days",
    "table_id": "days__tables",
    "hand_id": "days__tables__hands",
    "player_id": "players",
    "call_id": "floor_calls",
    "penalty_id": "penalties",
    "batch_id": "import_batches",  # a players' file imported into the event
}


def event_zone_for(kwargs: dict[str, Any]) -> str | None:
    """The time zone of the event a page's URL parameters name, or None (no event, or none
    found: the page answers 404 itself)."""
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
