"""A seat: a re-buy, sitting out, leaving."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.tables.models import Seat
from brag_event.tables.services import seat_leave, seat_rebuy, seat_sit_out

from .. import roles
from ..idempotency import idempotent
from ..permissions import Can
from .common import actor, valid
from .fields import EventScopedId
from .state import SeatOut, seat_view

# ------------------------------------------------------------------ inputs


class RebuyIn(serializers.Serializer):
    consenting = serializers.ListField(
        child=EventScopedId(model="players.Player"),
        allow_empty=True,
        max_length=20,
        help_text="Ids of the other seated players who agree",
    )


class SitOutIn(serializers.Serializer):
    sitting_out = serializers.BooleanField()


# ------------------------------------------------------------------ views


def seat_for(request: Request, seat_id: int) -> Seat:
    return get_object_or_404(
        Seat.objects.select_related("table__day__event", "player").filter(
            table__in=roles.tables_for(request.user)
        ),
        pk=seat_id,
    )


class SeatRebuy(APIView):
    permission_classes = [Can("seat.manage")]

    @extend_schema(
        request=RebuyIn,
        responses={200: SeatOut},
        summary="Re-buy, with consents (the table's dealer, between hands, a run-out seat)",
    )
    @idempotent
    def post(self, request: Request, seat_id: int) -> Response:
        seat = seat_for(request, seat_id)
        data = valid(RebuyIn, request)
        consenting = [player.pk for player in data["consenting"]]
        seat = seat_rebuy(seat=seat, consenting=consenting, by=actor(request))
        return Response(seat_view(seat))


class SeatSitOut(APIView):
    permission_classes = [Can("seat.manage")]

    @extend_schema(request=SitOutIn, responses={200: SeatOut}, summary="Sit out, or come back")
    @idempotent
    def post(self, request: Request, seat_id: int) -> Response:
        seat = seat_for(request, seat_id)
        data = valid(SitOutIn, request)
        seat = seat_sit_out(seat=seat, sitting_out=data["sitting_out"], by=actor(request))
        return Response(seat_view(seat))


class SeatLeave(APIView):
    permission_classes = [Can("seat.manage")]

    @extend_schema(request=None, responses={200: SeatOut}, summary="Leave: the stack goes back")
    @idempotent
    def post(self, request: Request, seat_id: int) -> Response:
        seat = seat_leave(seat=seat_for(request, seat_id), by=actor(request))
        return Response(seat_view(seat))
