"""Input shapes (parsed by DRF, documented in the OpenAPI schema). Shapes, and every id resolved
within the request's event (``EventScopedId``, on ``access.scoping``); whether an action, an
amount or a seat is allowed is the engine's and the services' to say."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.fields import empty
from rest_framework.request import Request

from brag_event.access.rules import EVENT_OF, event_of, events_where_can
from brag_event.access.scoping import noun_of, rows_of_events
from brag_event.access.selectors import staff_manageable
from brag_event.audit.models import Verb
from brag_event.core.errors import ServiceError
from brag_event.engine import ACTIONS, MONEY_MAX


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


@extend_schema_field({"type": "string", "enum": [a for a in ACTIONS if a != "show"]})
class ActionNameField(serializers.CharField):
    """An action's name: a string here; whether it names an action is the engine's to say."""


class ActionIn(serializers.Serializer):
    """The shape of an action. Everything else — the name, the seat, the amount, whether it is
    legal now — is the engine's to check (``HandState.apply``), once, with its coded errors."""

    expected_seq = WholeNumberField(
        min_value=1, help_text="The sequence number this action is expected to get"
    )
    action = ActionNameField(max_length=20)
    seat = WholeNumberField(required=False, allow_null=True, help_text="Not for showdown")
    amount = WholeNumberField(
        required=False, allow_null=True, help_text="What the player pays now (bet, see, cover)"
    )
    hand = serializers.CharField(
        required=False, allow_null=True, max_length=10, help_text="old or new (blind hands)"
    )


class CardsIn(serializers.Serializer):
    expected_seq = WholeNumberField(min_value=1)
    seat = WholeNumberField()
    cards = serializers.CharField(max_length=40, help_text="e.g. 'As 10d 3c'")


class VoidIn(serializers.Serializer):
    expected_seq = WholeNumberField(min_value=1, required=False)
    reason = serializers.CharField(max_length=200)


class TakeBackIn(serializers.Serializer):
    expected_seq = WholeNumberField(
        min_value=1,
        required=False,
        help_text="The hand's next sequence number as the tablet saw it",
    )
    reason = serializers.CharField(
        max_length=20,
        help_text="Why the dealer takes the entry back: wrong_seat, wrong_amount, wrong_action "
        "or other",
    )


class BuyInIn(serializers.Serializer):
    seat = WholeNumberField(min_value=1, max_value=10)
    player = EventScopedId(model="players.Player", help_text="Player id")
    amount = WholeNumberField(min_value=0, max_value=MONEY_MAX)


class RebuyIn(serializers.Serializer):
    consenting = serializers.ListField(
        child=EventScopedId(model="players.Player"),
        allow_empty=True,
        max_length=20,
        help_text="Ids of the other seated players who agree",
    )


class ShiftIn(serializers.Serializer):
    leave = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Leave the table you are signed in to deal at, to deal here",
    )


class SitOutIn(serializers.Serializer):
    sitting_out = serializers.BooleanField()


class LoginIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=200, trim_whitespace=False)


def _manageable(request: Request) -> QuerySet[Any]:
    return staff_manageable(request.user).filter(is_active=True)


class TokenIn(serializers.Serializer):
    user = EventScopedId(
        model=USER,
        among=_manageable,
        message="No such active user.",
        help_text="The user the device acts as",
    )
    name = serializers.CharField(max_length=80)


class StandingsQueryIn(serializers.Serializer):
    day = WholeNumberField(
        required=False, min_value=1, max_value=1000, help_text="A day's number: that day's figures"
    )


NOT_IN_EVENT = "not in this event"


def _in_the_log(request: Request) -> QuerySet[Any]:
    """The users the log of the request's event names as having done something."""
    entries = rows_of_events("audit.AuditEntry", request_events(request))
    return get_user_model().objects.filter(pk__in=entries.values("actor_id"))


class AuditQueryIn(serializers.Serializer):
    """``?table=&player=&actor=&verb=``, as on the organisers' audit page: every filter optional."""

    table = EventScopedId(
        model="tables.Table",
        required=False,
        message=NOT_IN_EVENT,
        help_text="A table's id: its entries",
    )
    player = EventScopedId(
        model="players.Player", required=False, message=NOT_IN_EVENT, help_text="A player's id"
    )
    actor = EventScopedId(
        model=USER,
        among=_in_the_log,
        required=False,
        message=NOT_IN_EVENT,
        help_text="The id of the user who did it",
    )
    verb = serializers.ChoiceField(
        choices=Verb.choices, required=False, help_text="The kind of change"
    )
