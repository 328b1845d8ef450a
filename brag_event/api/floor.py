"""The floor's API (RULES §4b): a supervisor's misdeal, floor calls, rulings and penalties.
Thin views: parse (a serializer), call the floor's services, present. Dealers call the floor;
only supervisors and organisers take calls, rule and misdeal; only organisers lift a
disqualification; a player sees only their own warnings and penalties."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.access.rules import can, event_of
from brag_event.core.errors import NotFound
from brag_event.events.models import Event
from brag_event.floor.models import FloorCall, Penalty, Ruling
from brag_event.floor.selectors import open_calls, player_penalties
from brag_event.floor.services import (
    floor_call_open,
    floor_call_take,
    hand_misdeal,
    penalty_lift,
    ruling_record,
)
from brag_event.players.models import Player

from . import contract as c
from .idempotency import idempotent
from .serializers import WholeNumberField
from .views import OrganiserOnly, StaffOnly, SupervisorOnly, actor, hand_corrected, table_for, valid

# ------------------------------------------------------------------ inputs


class MisdealIn(serializers.Serializer):
    expected_seq = WholeNumberField(min_value=1, required=False)
    reason = serializers.CharField(max_length=200)


class FloorCallIn(serializers.Serializer):
    hand = WholeNumberField(min_value=1, required=False, help_text="The hand in play, if any")
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


class RulingIn(serializers.Serializer):
    call = WholeNumberField(min_value=1, required=False, help_text="The call it answers")
    table = WholeNumberField(min_value=1, required=False, help_text="Without a call: the table")
    hand = WholeNumberField(min_value=1, required=False)
    what_happened = serializers.CharField(max_length=500)
    decision = serializers.CharField(max_length=500)
    players = serializers.ListField(child=WholeNumberField(min_value=1), max_length=6, default=list)
    penalty = serializers.ChoiceField(choices=[("", "none"), *Penalty.Kind.choices], default="")
    missed_hands = WholeNumberField(min_value=1, max_value=50, required=False)


class LiftIn(serializers.Serializer):
    reason = serializers.CharField(max_length=200)


# ------------------------------------------------------------------ presenters


def call_view(call: FloorCall) -> dict[str, Any]:
    return {
        "id": call.pk,
        "table": {"id": call.table_id, "number": call.table.number},
        "hand": call.hand_id,
        "note": call.note,
        "status": call.status,
        "called_by": call.called_by.get_username() if call.called_by else None,
        "called_at": call.called_at.isoformat(),
        "taken_by": call.taken_by.get_username() if call.taken_by else None,
        "taken_at": call.taken_at.isoformat() if call.taken_at else None,
        "resolved_at": call.resolved_at.isoformat() if call.resolved_at else None,
    }


def penalty_view(penalty: Penalty) -> dict[str, Any]:
    return {
        "id": penalty.pk,
        "player": penalty.player_id,
        "kind": penalty.kind,
        "hands": penalty.hands,
        "hands_left": penalty.hands_left,
        "given_at": penalty.created_at.isoformat(),
        "what_happened": penalty.ruling.what_happened,
        "decision": penalty.ruling.decision,
        "lifted": penalty.lifted_at is not None,
        "lift_reason": penalty.lift_reason,
    }


def ruling_view(ruling: Ruling) -> dict[str, Any]:
    return {
        "id": ruling.pk,
        "call": ruling.call_id,
        "table": ruling.table_id,
        "hand": ruling.hand_id,
        "what_happened": ruling.what_happened,
        "decision": ruling.decision,
        "players": sorted(p.pk for p in ruling.players.all()),
        "ruled_by": ruling.ruled_by.get_username() if ruling.ruled_by else None,
        "ruled_at": ruling.ruled_at.isoformat(),
        "penalties": [penalty_view(p) for p in ruling.penalties.select_related("ruling")],
    }


# ------------------------------------------------------------------ views


class HandMisdeal(APIView):
    permission_classes = [SupervisorOnly]

    @extend_schema(request=MisdealIn, responses={200: c.HandStateOut}, summary="Declare a misdeal")
    @idempotent
    def post(self, request: Request, hand_id: int) -> Response:
        return hand_corrected(request, hand_id, MisdealIn, hand_misdeal)


class TableFloorCalls(APIView):
    permission_classes = [StaffOnly]

    @extend_schema(request=FloorCallIn, responses={201: c.FloorCallOut}, summary="Call the floor")
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        table = table_for(request, table_id)
        data = valid(FloorCallIn, request)
        call = floor_call_open(
            table=table, hand=data.get("hand"), note=data.get("note", ""), by=actor(request)
        )
        return Response(call_view(call), status=201)


class EventFloorCalls(APIView):
    permission_classes = [SupervisorOnly]

    @extend_schema(responses={200: c.FloorCallsOut}, summary="The floor calls not yet resolved")
    def get(self, request: Request, event_id: int) -> Response:
        event = get_object_or_404(Event, pk=event_id)
        return Response({"calls": [call_view(c) for c in open_calls(event)]})


class FloorCallTake(APIView):
    permission_classes = [SupervisorOnly]

    @extend_schema(request=None, responses={200: c.FloorCallOut}, summary="Take a floor call")
    @idempotent
    def post(self, request: Request, call_id: int) -> Response:
        call = floor_call_take(call=call_id, by=actor(request))
        return Response(call_view(call))


class Rulings(APIView):
    permission_classes = [SupervisorOnly]

    @extend_schema(request=RulingIn, responses={201: c.RulingOut}, summary="Record a ruling")
    @idempotent
    def post(self, request: Request) -> Response:
        data = valid(RulingIn, request)
        # The call or table named in the body: a supervisor of that event (not of another).
        named = {f"{k}_id": data[k] for k in ("call", "table", "hand") if data.get(k)}
        event_id = event_of(dict([next(iter(named.items()))])) if named else None
        if event_id is not None and not can(request.user, "floor.rule", event_id):
            raise NotFound("not_found", "No such call or table.")
        ruling = ruling_record(
            call=data.get("call"),
            table=data.get("table"),
            hand=data.get("hand"),
            what_happened=data["what_happened"],
            decision=data["decision"],
            players=data["players"],
            penalty=data["penalty"],
            missed_hands=data.get("missed_hands"),
            by=actor(request),
        )
        return Response(ruling_view(ruling), status=201)


class PenaltyLift(APIView):
    permission_classes = [OrganiserOnly]

    @extend_schema(request=LiftIn, responses={200: c.PenaltyOut}, summary="Lift a disqualification")
    @idempotent
    def post(self, request: Request, penalty_id: int) -> Response:
        data = valid(LiftIn, request)
        penalty = penalty_lift(penalty=penalty_id, reason=data["reason"], by=actor(request))
        return Response(penalty_view(penalty))


class PlayerPenalties(APIView):
    permission_classes = [SupervisorOnly]

    @extend_schema(responses={200: c.PenaltiesOut}, summary="A player's warnings and penalties")
    def get(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id)
        return Response({"penalties": [penalty_view(p) for p in player_penalties(player.pk)]})


class MePenalties(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: c.PenaltiesOut}, summary="Your own warnings and penalties")
    def get(self, request: Request) -> Response:
        player = getattr(request.user, "player", None)
        if player is None:
            return Response({"penalties": []})
        return Response({"penalties": [penalty_view(p) for p in player_penalties(player.pk)]})
