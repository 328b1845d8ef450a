"""Input fields shared by the resources' bodies: whole numbers, and every id resolved within the
request's event (``EventScopedId``, on ``access.scoping``); whether an action, an amount or a seat
is allowed is the engine's and the services' to say."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.fields import empty
from rest_framework.request import Request

from brag_event.access.rules import EVENT_OF, event_of, events_where_can
from brag_event.access.scoping import noun_of, rows_of_events
from brag_event.core.errors import ServiceError


class WholeNumberField(serializers.IntegerField):
    """A whole number: a JSON integer, or a string of the digits 0–9 (DRF's own field also takes
    "²", "١٢", "1_000" and 7.0)."""

    default_error_messages = {"invalid": "A whole number is required (digits 0–9)."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        if isinstance(data, str):
            text = data.strip()
            if not (text.isascii() and text.isdigit()) or len(text) > 30:
                self.fail("invalid")
            data = int(text)
        return int(super().to_internal_value(data))


EVENTS_OF_REQUEST = "_brag_events"  # kept on the request: asked once


def request_events(request: Request) -> set[int] | None:
    """The events in which a request's ids are resolved: the event of what its address names
    (none, if that names nothing); else every event in which the caller holds the role the
    view asks for (``Can``; ``None``: every event). Asked once per request, and only by a body that
    sends an id."""
    cached: set[int] | None
    if hasattr(request, EVENTS_OF_REQUEST):
        cached = getattr(request, EVENTS_OF_REQUEST)
        return cached
    context = request.parser_context or {}
    kwargs = context.get("kwargs") or {}
    if "event_id" in kwargs or any(name in kwargs for name in EVENT_OF):
        event = event_of(kwargs)
        cached = set() if event is None else {event}
    else:
        view = context.get("view")
        asked = [getattr(p, "permission", None) for p in getattr(view, "permission_classes", ())]
        named = [name for name in asked if name is not None]
        # A view that asks no permission (``Can``) resolves no id (a route of the whole site's
        # names ids of nothing an event owns).
        cached = set() if not named else events_where_can(request.user, named[0])
    setattr(request, EVENTS_OF_REQUEST, cached)
    return cached


UNKNOWN = "unknown"


USER = settings.AUTH_USER_MODEL


class EventScopedId(WholeNumberField):
    """The id of a row of ``model`` that belongs to the request's event (``request_events``,
    ``access.scoping.rows_of_events``) — and to ``among(request)`` if given; the row itself is
    the value. An id of another event is refused as one that names nothing:
    ``unknown_<model>`` (400), "No such hand in this event." (``unknown_id``)."""

    def __init__(
        self,
        *,
        model: str,
        among: Callable[[Request], QuerySet[Any]] | None = None,
        message: str = "",
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("min_value", 1)
        super().__init__(**kwargs)
        self.model = model
        self.among = among
        self.message = message

    def run_validation(self, data: Any = empty) -> Any:
        # A whole number first (its bounds checked on the number), then the row it names.
        pk = super().run_validation(data)
        if pk is None or pk is empty:
            return pk
        request = self.context["request"]  # a serializer with ids is built with its request
        rows = rows_of_events(self.model, request_events(request))
        if self.among is not None:
            rows = self.among(request).filter(pk__in=rows.values("pk"))
        found = rows.filter(pk=pk).first()
        if found is None:
            noun = noun_of(self.model)
            code = f"{UNKNOWN}_{noun.replace(' ', '_')}"
            raise serializers.ValidationError(
                self.message or f"No such {noun} in this event.", code=code
            )
        return found


def unknown_id(errors: Any, field: str = "") -> ServiceError | None:
    """The first id in a body's ``errors`` that named nothing in the request's event, as its
    refusal (``unknown_<model>``, 400, ``details.field``); ``None`` if none did."""
    if isinstance(errors, ErrorDetail):
        if (errors.code or "").startswith(f"{UNKNOWN}_"):
            return ServiceError(str(errors.code), str(errors), details={"field": field})
        return None
    items = errors.items() if isinstance(errors, dict) else enumerate(errors or ())
    for key, value in items:
        inner = key if isinstance(key, str) and not field else field
        found = unknown_id(value, inner)
        if found is not None:
            return found
    return None


NOT_IN_EVENT = "not in this event"
