"""The floor's API (RULES §4b): a supervisor's misdeal, a large pot's second confirmation, floor
calls (rulings and penalties: ``rulings``). Thin views: parse (a serializer), call the floor's
services, present. Dealers call the floor; only supervisors and organisers take calls and
misdeal."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.security import LOCKED_CODE, lockout_message
from brag_event.events.models import Event
from brag_event.floor.awards import award_view
from brag_event.floor.models import FloorCall
from brag_event.floor.selectors import open_calls
from brag_event.floor.services import (
    floor_call_open,
    floor_call_take,
    hand_award_confirm,
    hand_misdeal,
)
from brag_event.hands.models import Hand

from .. import roles
from ..idempotency import idempotent
from ..permissions import Can
from .common import ErrorOut, actor, nullable_int, table_for, valid
from .fields import EventScopedId, WholeNumberField
from .hands import HandStateOut
from .state import AwardOut, HandOut, hand_corrected, hand_view

# ------------------------------------------------------------------ inputs


class MisdealIn(serializers.Serializer):
    expected_seq = WholeNumberField(min_value=1, required=False)
    reason = serializers.CharField(max_length=200)


class FloorCallIn(serializers.Serializer):
    hand = EventScopedId(model="hands.Hand", required=False, help_text="The hand in play, if any")
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


class AwardConfirmIn(serializers.Serializer):
    """Empty from the confirmer's own device; on the table's tablet, the confirmer signs in
    (their username and password, never the dealer's)."""

    username = serializers.CharField(max_length=150, required=False)
    password = serializers.CharField(max_length=128, required=False, trim_whitespace=False)


# ------------------------------------------------------------------ answers


class FloorTableRef(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()


class FloorCallOut(serializers.Serializer):
    id = serializers.IntegerField()
    table = FloorTableRef()
    hand = nullable_int(help_text="The hand in play when the floor was called")
    note = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(choices=["open", "taken", "resolved"])
    called_by = serializers.CharField(allow_null=True)
    called_at = serializers.DateTimeField()
    taken_by = serializers.CharField(allow_null=True)
    taken_at = serializers.DateTimeField(allow_null=True)
    resolved_at = serializers.DateTimeField(allow_null=True)


class FloorCallsOut(serializers.Serializer):
    calls = FloorCallOut(many=True)


class AwardConfirmedOut(serializers.Serializer):
    award = AwardOut()
    hand = HandOut()


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


# ------------------------------------------------------------------ views


class HandMisdeal(APIView):
    permission_classes = [Can("hand.correct")]

    @extend_schema(request=MisdealIn, responses={200: HandStateOut}, summary="Declare a misdeal")
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
            200: AwardConfirmedOut,
            400: OpenApiResponse(
                ErrorOut,
                description="The confirmer's username and password do not match "
                "(confirmer_not_recognised), or only one of them was sent",
            ),
            403: OpenApiResponse(
                ErrorOut,
                description="Not a supervisor or organiser of the event (forbidden), or the "
                "confirmer entered the hand (award_confirm_own_hand)",
            ),
            409: OpenApiResponse(
                ErrorOut,
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

    @extend_schema(request=FloorCallIn, responses={201: FloorCallOut}, summary="Call the floor")
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

    @extend_schema(responses={200: FloorCallsOut}, summary="The floor calls not yet resolved")
    def get(self, request: Request, event_id: int) -> Response:
        event = get_object_or_404(Event, pk=event_id)
        return Response({"calls": [call_view(c) for c in open_calls(event)]})


class FloorCallTake(APIView):
    permission_classes = [Can("floor.rule")]

    @extend_schema(request=None, responses={200: FloorCallOut}, summary="Take a floor call")
    @idempotent
    def post(self, request: Request, call_id: int) -> Response:
        call = floor_call_take(call=call_id, by=actor(request))
        return Response(call_view(call))
