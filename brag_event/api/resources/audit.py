"""An event's audit log (organisers), with the audit page's filters."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.access.scoping import rows_of_events
from brag_event.audit.models import AuditEntry, Verb
from brag_event.audit.selectors import audit_entries
from brag_event.core.errors import ServiceError
from brag_event.events.models import Event

from ..permissions import Can
from .common import PAGE_PARAMETERS, nullable_int, page_of, paged
from .fields import NOT_IN_EVENT, USER, EventScopedId, request_events, unknown_id
from .state import PlayerRef

# ------------------------------------------------------------------ inputs


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


# ------------------------------------------------------------------ answers


class DayNumberRef(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()


class TableRef(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    day = serializers.IntegerField(help_text="The table's day's number")


class HandRef(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()


class SeatRef(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()


class TokenRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class AuditEntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    actor = serializers.CharField(
        allow_null=True, help_text="Who did it (user name); null: the system"
    )
    actor_id = nullable_int()
    verb = serializers.ChoiceField(choices=Verb.choices)
    verb_label = serializers.CharField(help_text="The kind of change in words")
    target = serializers.CharField(
        allow_blank=True, help_text="What it was done to, as it read then"
    )
    # What it was done to, as references (null where it does not apply); a seat's entry names
    # its table and player too.
    day = DayNumberRef(allow_null=True)
    table = TableRef(allow_null=True)
    hand = HandRef(allow_null=True)
    seat = SeatRef(allow_null=True)
    player = PlayerRef(allow_null=True)
    token = TokenRef(allow_null=True, help_text="The device token the change was about")
    data = serializers.DictField(child=serializers.JSONField())  # type: ignore[assignment]  # a field
    device = serializers.CharField(allow_blank=True, help_text="Device, IP and user agent")
    device_token = nullable_int(help_text="The device token the change came through, if any")


AuditPage = page_of(AuditEntryOut, "AuditPage")


# ------------------------------------------------------------------ presenters


def audit_entry_view(e: AuditEntry) -> dict[str, Any]:
    """An audit entry with what it was done to as references (``AuditEntryOut``); the
    selector (``audit.selectors.audit_entries``) has fetched them with it."""
    table = e.table
    return {
        "id": e.pk,
        "at": e.at.isoformat(),
        "actor": e.actor.get_username() if e.actor else None,
        "actor_id": e.actor_id,
        "verb": e.verb,
        "verb_label": e.verb_label,
        "target": e.target,
        "day": {"id": e.day.pk, "number": e.day.number} if e.day else None,
        "table": (
            {"id": table.pk, "number": table.number, "day": table.day.number} if table else None
        ),
        "hand": {"id": e.hand.pk, "number": e.hand.number} if e.hand else None,
        "seat": {"id": e.seat.pk, "number": e.seat.number} if e.seat else None,
        "player": {"id": e.player.pk, "name": e.player.name} if e.player else None,
        "token": {"id": e.token.pk, "name": e.token.name} if e.token else None,
        "data": e.data,
        "device": e.device,
        "device_token": e.device_token_id,
    }


# ------------------------------------------------------------------ views


class EventAudit(APIView):
    permission_classes = [Can("audit.read")]

    @extend_schema(
        responses={200: AuditPage},
        parameters=[AuditQueryIn, *PAGE_PARAMETERS],
        summary="Audit log (organisers), newest first: everything about a table (its hands and "
        "seats too), a player, by a user, of a kind — the organisers' audit page's filters",
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = get_object_or_404(Event, pk=event_id)
        query = AuditQueryIn(data=request.query_params, context={"request": request})
        if not query.is_valid():
            _refuse_filter(query.errors)
        given = query.validated_data
        rows = audit_entries(
            event_id=event.pk,
            table_id=_pk(given.get("table")),
            player_id=_pk(given.get("player")),
            actor_id=_pk(given.get("actor")),
            verb=given.get("verb"),
        )
        return paged(request, self, rows, audit_entry_view)


def _pk(row: Any) -> int | None:
    return None if row is None else int(row.pk)


def _refuse_filter(errors: dict[str, Any]) -> None:
    """A filter that is not an id (or a kind), or names a table or player of another event, or
    a user who does not appear in this event's log, is refused in words (the organisers' page
    offers only those as choices)."""
    unknown = [name for name, problems in errors.items() if unknown_id({name: problems})]
    if unknown and len(unknown) == len(errors):
        named = ", ".join(unknown)
        raise ServiceError(
            "invalid_filter",
            f"Nothing to filter by: no such {named} in this event (an actor: not in its log).",
            details={"fields": {name: [NOT_IN_EVENT] for name in unknown}},
        )
    raise ServiceError(
        "invalid_filter",
        "table, player and actor are ids (digits 0–9), verb one of the kinds listed in the schema",
        details={"fields": errors},
    )
