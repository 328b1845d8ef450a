"""Events, their days and rules, and a day's tables."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.access.roles import events_where
from brag_event.events.models import Day, Event
from brag_event.hands.models import Hand
from brag_event.tables.models import Table

from .. import roles
from ..permissions import Can
from .common import nullable_int
from .state import RulesOut

# ------------------------------------------------------------------ answers


class DayOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    status = serializers.ChoiceField(choices=Day.Status.choices)
    status_text = serializers.CharField()
    rules = RulesOut()


class EventOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    currency = serializers.CharField()
    days = DayOut(many=True)


class EventsOut(serializers.Serializer):
    events = EventOut(many=True)


class TableSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    seated = serializers.IntegerField()
    hands = serializers.IntegerField()
    live_hand = nullable_int(help_text="The hand in progress")
    carried_pot = serializers.IntegerField()


class DayTablesOut(serializers.Serializer):
    day = serializers.IntegerField()
    tables = TableSummaryOut(many=True)


# ------------------------------------------------------------------ presenters


def day_view(day: Day) -> dict[str, Any]:
    return {
        "id": day.pk,
        "number": day.number,
        "date": day.date.isoformat() if day.date else None,
        "status": day.status,
        "status_text": day.status_text,
        "rules": day.rules_dict(),
    }


def event_view(event: Event, *, days: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"id": event.pk, "name": event.name, "currency": event.currency}
    if days:
        out["days"] = [day_view(d) for d in event.days.order_by("number")]
    return out


def table_summary(table: Table) -> dict[str, Any]:
    live = table.hands.filter(status=Hand.Status.IN_PROGRESS).values_list("pk", flat=True).first()
    return {
        "id": table.pk,
        "number": table.number,
        "seated": table.seats.filter(left_at__isnull=True).count(),
        "hands": table.hands.count(),
        "live_hand": live,
        "carried_pot": table.carried_pot,
    }


# ------------------------------------------------------------------ views


class EventList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: EventsOut},
        summary="Events with their days and rules",
        operation_id="events_list",
    )
    def get(self, request: Request) -> Response:
        events = Event.objects.order_by("-created_at")
        # Staff of some events only (and no role for every event) see those events, and their
        # own as a player: a tablet lists no other event's days.
        where = events_where(request.user, roles.DEALER)
        if where is not None and roles.event_roles(request.user):
            player = getattr(request.user, "player", None)
            mine = where | ({player.event_id} if player is not None else set())
            events = events.filter(pk__in=mine)
        return Response({"events": [event_view(e) for e in events]})


class EventDetail(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: EventOut})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(event_view(get_object_or_404(Event, pk=event_id)))


class DayTables(APIView):
    permission_classes = [Can("table.operate")]

    @extend_schema(responses={200: DayTablesOut}, summary="The tables of a day that you may see")
    def get(self, request: Request, day_id: int) -> Response:
        day = get_object_or_404(Day, pk=day_id)
        tables = roles.tables_for(request.user).filter(day=day).order_by("number")
        return Response({"day": day.pk, "tables": [table_summary(t) for t in tables]})
