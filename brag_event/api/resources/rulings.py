"""The floor's rulings and penalties (RULES §4b): only supervisors and organisers rule; only
organisers lift a disqualification; a player sees only their own warnings and penalties."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.core.errors import ServiceError
from brag_event.floor.models import FloorCall, Penalty, Ruling
from brag_event.floor.selectors import player_penalties
from brag_event.floor.services import penalty_lift, ruling_record
from brag_event.hands.models import Hand
from brag_event.players.models import Player
from brag_event.tables.models import Table

from ..idempotency import idempotent
from ..permissions import Can
from .common import actor, nullable_int, valid
from .fields import EventScopedId, WholeNumberField

# ------------------------------------------------------------------ inputs


# A ruling's call, table, hand and players: each of an event in which the caller rules, and
# agreeing with each other — the call made at the table, the hand played there, the players of
# its event (``validate``).
class RulingIn(serializers.Serializer):
    call = EventScopedId(model="floor.FloorCall", required=False, help_text="The call it answers")
    table = EventScopedId(
        model="tables.Table", required=False, help_text="Without a call: the table"
    )
    hand = EventScopedId(model="hands.Hand", required=False)
    what_happened = serializers.CharField(max_length=500)
    decision = serializers.CharField(max_length=500)
    players = serializers.ListField(
        child=EventScopedId(model="players.Player"), max_length=6, default=list
    )
    penalty = serializers.ChoiceField(choices=[("", "none"), *Penalty.Kind.choices], default="")
    missed_hands = WholeNumberField(min_value=1, max_value=50, required=False)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        call: FloorCall | None = data.get("call")
        table: Table | None = data.get("table")
        hand: Hand | None = data.get("hand")
        if call is not None and table is not None and call.table_id != table.pk:
            raise ServiceError(
                "wrong_table",
                f"That floor call was made at {_where(call.table)}, not at {_where(table)}: "
                "name its table, or leave the table out.",
                details={"field": "table"},
            )
        at = table if table is not None else call.table if call is not None else None
        if at is not None and hand is not None and hand.table_id != at.pk:
            raise ServiceError(
                "wrong_table",
                f"Hand {hand.number} was not played at {_where(at)}.",
                details={"field": "hand"},
            )
        if at is not None and any(p.event_id != at.day.event_id for p in data["players"]):
            raise ServiceError(
                "invalid_players",
                "Name the players involved (players of this event).",
                details={"field": "players"},
            )
        return data


def _where(table: Table) -> str:
    return f"table {table.number} of day {table.day.number}"


class LiftIn(serializers.Serializer):
    reason = serializers.CharField(max_length=200)


# ------------------------------------------------------------------ answers


class PenaltyOut(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["warning", "missed_hands", "disqualified"])
    hands = serializers.IntegerField(help_text="Missed hands given (0 for the other kinds)")
    hands_left = serializers.IntegerField()
    given_at = serializers.DateTimeField()
    what_happened = serializers.CharField()
    decision = serializers.CharField()
    lifted = serializers.BooleanField()
    lift_reason = serializers.CharField(allow_blank=True)


class PenaltiesOut(serializers.Serializer):
    penalties = PenaltyOut(many=True)


class RulingOut(serializers.Serializer):
    id = serializers.IntegerField()
    call = nullable_int()
    table = serializers.IntegerField()
    hand = nullable_int()
    what_happened = serializers.CharField()
    decision = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField())
    ruled_by = serializers.CharField(allow_null=True)
    ruled_at = serializers.DateTimeField()
    penalties = PenaltyOut(many=True)


# ------------------------------------------------------------------ presenters


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


class Rulings(APIView):
    permission_classes = [Can("floor.rule")]

    @extend_schema(request=RulingIn, responses={201: RulingOut}, summary="Record a ruling")
    @idempotent
    def post(self, request: Request) -> Response:
        # Its call, table, hand and players: of an event in which the caller rules (``RulingIn``).
        data = valid(RulingIn, request)
        ruling = ruling_record(
            call=data.get("call"),
            table=data.get("table"),
            hand=data.get("hand"),
            what_happened=data["what_happened"],
            decision=data["decision"],
            players=[player.pk for player in data["players"]],
            penalty=data["penalty"],
            missed_hands=data.get("missed_hands"),
            by=actor(request),
        )
        return Response(ruling_view(ruling), status=201)


class PenaltyLift(APIView):
    permission_classes = [Can("penalty.lift")]

    @extend_schema(request=LiftIn, responses={200: PenaltyOut}, summary="Lift a disqualification")
    @idempotent
    def post(self, request: Request, penalty_id: int) -> Response:
        data = valid(LiftIn, request)
        penalty = penalty_lift(penalty=penalty_id, reason=data["reason"], by=actor(request))
        return Response(penalty_view(penalty))


class PlayerPenalties(APIView):
    permission_classes = [Can("player.penalties")]

    @extend_schema(responses={200: PenaltiesOut}, summary="A player's warnings and penalties")
    def get(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id)
        return Response({"penalties": [penalty_view(p) for p in player_penalties(player.pk)]})


class MePenalties(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: PenaltiesOut}, summary="Your own warnings and penalties")
    def get(self, request: Request) -> Response:
        player = getattr(request.user, "player", None)
        if player is None:
            return Response({"penalties": []})
        return Response({"penalties": [penalty_view(p) for p in player_penalties(player.pk)]})
