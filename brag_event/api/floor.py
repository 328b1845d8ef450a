"""The floor's API (RULES §4b): a supervisor's misdeal, floor calls, rulings and penalties.
Thin views: parse (a serializer), call the floor's services, present. Dealers call the floor;
only supervisors and organisers take calls, rule and misdeal; only organisers lift a
disqualification; a player sees only their own warnings and penalties."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.security import LOCKED_CODE, lockout_message
from brag_event.events.models import Event
from brag_event.floor.awards import award_view
from brag_event.floor.models import FloorCall, Penalty, Ruling
from brag_event.floor.selectors import open_calls, player_penalties
from brag_event.floor.services import (
    floor_call_open,
    floor_call_take,
    hand_award_confirm,
    hand_misdeal,
    penalty_lift,
    ruling_record,
)
from brag_event.hands.models import Hand
from brag_event.players.models import Player
from brag_event.tables.models import Table

from . import contract as c
from . import roles
from .idempotency import idempotent
from .permissions import Can
from .presenters import hand_view
from .serializers import EventScopedId, WholeNumberField
from .views import actor, hand_corrected, table_for, valid

# ------------------------------------------------------------------ inputs


class MisdealIn(serializers.Serializer):
    expected_seq = WholeNumberField(min_value=1, required=False)
    reason = serializers.CharField(max_length=200)


class FloorCallIn(serializers.Serializer):
    hand = EventScopedId(model="hands.Hand", required=False, help_text="The hand in play, if any")
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


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


class AwardConfirmIn(serializers.Serializer):
    """Empty from the confirmer's own device; on the table's tablet, the confirmer signs in
    (their username and password, never the dealer's)."""

    username = serializers.CharField(max_length=150, required=False)
    password = serializers.CharField(max_length=128, required=False, trim_whitespace=False)


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
    permission_classes = [Can("hand.correct")]

    @extend_schema(request=MisdealIn, responses={200: c.HandStateOut}, summary="Declare a misdeal")
    @idempotent
    def post(self, request: Request, hand_id: int) -> Response:
        return hand_corrected(request, hand_id, MisdealIn, hand_misdeal)


class HandAwardConfirm(APIView):
    """A large pot's second confirmation: by the caller (a supervisor or organiser on their own
    device), or — with ``username`` and ``password`` — by the member of staff who signs in on
    the table's tablet (checked by Django's ``authenticate``, counted by the login lockout).
    The service decides who may: never someone who entered the hand."""

    permission_classes = [Can("table.operate")]

    @extend_schema(
        request=AwardConfirmIn,
        responses={
            200: c.AwardConfirmedOut,
            400: OpenApiResponse(
                c.ErrorOut,
                description="The confirmer's username and password do not match "
                "(confirmer_not_recognised), or only one of them was sent",
            ),
            403: OpenApiResponse(
                c.ErrorOut,
                description="Not a supervisor or organiser of the event (forbidden), or the "
                "confirmer entered the hand (award_confirm_own_hand)",
            ),
            409: OpenApiResponse(
                c.ErrorOut,
                description="Nothing waits (no_award_waiting), or it was confirmed already "
                "(award_already_confirmed)",
            ),
        },
        summary="Confirm a large pot as a second member of staff",
    )
    @idempotent(secret=True)  # the confirmer's password may be in the body
    def post(self, request: Request, hand_id: int) -> Response:
        data = valid(AwardConfirmIn, request)
        by, where = actor(request), "floor"
        if "username" in data or "password" in data:
            by, where = _signed_in_confirmer(request, data), "tablet"
        award = hand_award_confirm(
            hand=hand_id, by=by, where=where, access=roles.TableAccess(request.user)
        )
        hand = Hand.objects.select_related("table__day").get(pk=award.hand_id)
        return Response({"award": award_view(award), "hand": hand_view(hand)})


def _signed_in_confirmer(request: Request, data: dict[str, Any]) -> Actor:
    """The member of staff who signed in on the tablet to confirm, acting from the tablet's
    device; refused in words if the username and password do not match."""
    username, password = data.get("username", ""), data.get("password", "")
    if not username or not password:
        raise ServiceError(
            "confirmer_not_recognised",
            "Type the confirming supervisor's username and password.",
            details={"field": "username" if not username else "password"},
        )
    # Django's request, not DRF's: django-axes counts the attempt and locks out a guesser.
    http = request._request
    user = authenticate(http, username=username, password=password)
    if getattr(http, "axes_locked_out", False):
        raise ServiceError(
            LOCKED_CODE,
            lockout_message(),
            details={"retry_after": int(settings.AXES_COOLOFF_TIME.total_seconds())},
            status=429,
        )
    if user is None:
        raise ServiceError(
            "confirmer_not_recognised",
            "That username and password do not match a member of staff: the confirming "
            "supervisor types their own.",
            details={"field": "password"},
        )
    device = actor(request)
    return Actor(user, f"{device.device} (signed in on the tablet)", device.token_id)


class TableFloorCalls(APIView):
    permission_classes = [Can("floor.call")]

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
    permission_classes = [Can("floor.view")]

    @extend_schema(responses={200: c.FloorCallsOut}, summary="The floor calls not yet resolved")
    def get(self, request: Request, event_id: int) -> Response:
        event = get_object_or_404(Event, pk=event_id)
        return Response({"calls": [call_view(c) for c in open_calls(event)]})


class FloorCallTake(APIView):
    permission_classes = [Can("floor.rule")]

    @extend_schema(request=None, responses={200: c.FloorCallOut}, summary="Take a floor call")
    @idempotent
    def post(self, request: Request, call_id: int) -> Response:
        call = floor_call_take(call=call_id, by=actor(request))
        return Response(call_view(call))


class Rulings(APIView):
    permission_classes = [Can("floor.rule")]

    @extend_schema(request=RulingIn, responses={201: c.RulingOut}, summary="Record a ruling")
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

    @extend_schema(request=LiftIn, responses={200: c.PenaltyOut}, summary="Lift a disqualification")
    @idempotent
    def post(self, request: Request, penalty_id: int) -> Response:
        data = valid(LiftIn, request)
        penalty = penalty_lift(penalty=penalty_id, reason=data["reason"], by=actor(request))
        return Response(penalty_view(penalty))


class PlayerPenalties(APIView):
    permission_classes = [Can("player.penalties")]

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
