"""The caller: who they are, a player's balance and seat, the hands they were dealt."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.events.models import Day
from brag_event.hands.models import Hand
from brag_event.hands.selectors import cards_shown_to, without_cards_not_shown

from .. import roles
from .common import ROLES

# ------------------------------------------------------------------ answers


class MySeatOut(serializers.Serializer):
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    stack = serializers.IntegerField()


class MyPlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    balance = serializers.IntegerField()
    seat = MySeatOut(allow_null=True)


class MeOut(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=ROLES)
    player = MyPlayerOut(required=False, help_text="Players only")


class MyShownHandOut(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    own = serializers.BooleanField(help_text="Your own hand")
    cards = serializers.CharField(help_text='As shown at the table, e.g. "As Ad 2c"')


class MyHandOut(serializers.Serializer):
    id = serializers.IntegerField()
    day = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Hand.Status.choices)
    result = serializers.DictField(
        child=serializers.JSONField(),
        allow_null=True,
        help_text="The engine's outcome, with the cards of hands you may not see taken out",
    )
    cards = MyShownHandOut(
        many=True,
        help_text="Once the day is over: the hands shown at the table (at a see, for a covered "
        "pot or at an agreed showdown), yours among them; never a folded or unshown hand",
    )


class MyHandsOut(serializers.Serializer):
    hands = MyHandOut(many=True)


# ------------------------------------------------------------------ views


class Me(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: MeOut}, summary="Who you are; a player's balance and seat")
    def get(self, request: Request) -> Response:
        user = request.user
        out: dict[str, Any] = {"username": user.get_username(), "role": roles.role_of(user)}
        player = getattr(user, "player", None)
        if player is not None:
            seat = player.seats.filter(left_at__isnull=True).select_related("table").first()
            out["player"] = {
                "id": player.pk,
                "name": player.name,
                "balance": player.balance,
                "seat": {"table": seat.table.number, "seat": seat.number, "stack": seat.stack}
                if seat
                else None,
            }
        return Response(out)


class MeHands(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: MyHandsOut}, summary="The hands you were dealt")
    def get(self, request: Request) -> Response:
        player = getattr(request.user, "player", None)
        if player is None:
            return Response({"hands": []})
        hands = player.hands_dealt.select_related("table__day").order_by("-started_at")[:200]
        out = []
        for h in hands:
            # One rule decides which cards a player sees (hands.selectors.cards_shown_to).
            shown = cards_shown_to(player.pk, h, day_closed=h.table.day.status == Day.Status.CLOSED)
            names = {int(s["seat"]): s.get("player", "") for s in h.seats or []}
            mine = [int(s["seat"]) for s in h.seats or [] if s.get("player_id") == player.pk]
            out.append(
                {
                    "id": h.pk,
                    "day": h.table.day.number,
                    "table": h.table.number,
                    "number": h.number,
                    "status": h.status,
                    "result": without_cards_not_shown(h.result, shown),
                    "cards": [
                        {
                            "seat": seat,
                            "player": names.get(seat, ""),
                            "own": seat in mine,
                            "cards": cards,
                        }
                        for seat, cards in shown.items()
                    ],
                }
            )
        return Response({"hands": out})
