"""A hand: its state and history, the actions and shown cards entered, a void and a take-back.
The action path is rendered without a serializer (docs/api.md)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.access.roles import role_of
from brag_event.access.rules import can
from brag_event.access.scoping import event_of_row
from brag_event.engine import ACTIONS, Action
from brag_event.engine.history import dump
from brag_event.events.models import Day
from brag_event.hands.models import Hand
from brag_event.hands.selectors import cards_shown_to, hand_state, without_cards_not_shown
from brag_event.hands.services import hand_apply_action, hand_take_back, hand_void_last_action

from .. import roles
from ..idempotency import idempotent
from ..permissions import Can
from ..refusals import records_refusals
from .common import ErrorOut, actor, nullable_int, valid
from .fields import WholeNumberField
from .state import (
    ActionOut,
    CarriedOut,
    HandOut,
    RulesOut,
    TableOut,
    hand_corrected,
    hand_view,
    table_after,
    table_etag_field,
)

# ------------------------------------------------------------------ inputs


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


# ------------------------------------------------------------------ answers


class VoidOut(serializers.Serializer):
    reason = serializers.CharField()
    at = serializers.DateTimeField()
    seq = nullable_int(help_text="The hand's sequence number the void took")
    by = serializers.CharField(allow_null=True)
    by_name = serializers.CharField(
        allow_null=True, help_text="Who voided it: the full name, else the user name"
    )
    by_role = serializers.CharField(allow_null=True, help_text="Who voided it: their highest role")


class HandEntryOut(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = nullable_int()
    action = serializers.ChoiceField(choices=list(ACTIONS))
    amount = nullable_int()
    hand = serializers.CharField(allow_null=True)
    cards = serializers.CharField(allow_null=True)
    entered_at = serializers.DateTimeField()
    entered_by = serializers.CharField(allow_null=True)
    entered_by_name = serializers.CharField(
        allow_null=True, help_text="Who entered it: the full name, else the user name"
    )
    entered_by_role = serializers.CharField(
        allow_null=True, help_text="Who entered it: their highest role"
    )
    device = serializers.CharField(allow_blank=True)
    void = VoidOut(allow_null=True)


class HandDetailOut(HandOut):
    entries = HandEntryOut(
        many=True, required=False, help_text="Every entry, voided ones too (staff only)"
    )


class ActionAcceptedOut(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The sequence number the action got")
    hand = HandOut()
    table = TableOut(
        required=False,
        help_text="The table's state after the action, as GET /tables/{id}/ answers it",
    )
    table_etag = table_etag_field()


class HandStateOut(serializers.Serializer):
    hand = HandOut()


class HistorySeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    stack = serializers.IntegerField()
    sitting_out = serializers.BooleanField(required=False)


class HistoryOut(serializers.Serializer):
    """A ``brag-hh/1`` document (docs/hand-history.md)."""

    format = serializers.CharField()
    rules = RulesOut()
    dealer = serializers.IntegerField()
    seats = HistorySeatOut(many=True)
    carried = CarriedOut()
    actions = ActionOut(many=True)
    cards = serializers.DictField(
        child=serializers.CharField(), help_text="Seat number → card text"
    )
    meta = serializers.DictField(child=serializers.JSONField())


# ------------------------------------------------------------------ presenters


def _person(user: Any) -> str | None:
    """A user's name as people say it: the full name where it is set, else the user name."""
    if user is None:
        return None
    return str(user.get_full_name() or user.get_username())


def hand_entries(hand: Hand) -> list[dict[str, Any]]:
    """Every entry of a hand's log, voided ones too, with who entered it and when."""
    return [
        {
            "seq": a.seq,
            "seat": a.seat,
            "action": a.action,
            "amount": a.amount,
            "hand": a.hand_choice or None,
            "cards": a.cards or None,
            "entered_at": a.entered_at.isoformat(),
            "entered_by": a.entered_by.get_username() if a.entered_by else None,
            "entered_by_name": _person(a.entered_by),
            "entered_by_role": role_of(a.entered_by) if a.entered_by else None,
            "device": a.device,
            "void": {
                "reason": a.void.reason,
                "at": a.void.voided_at.isoformat(),
                "seq": a.void.seq,
                "by": a.void.voided_by.get_username() if a.void.voided_by else None,
                # Who took it back, in words for the tablet's conflict notice ("The supervisor
                # Sam Lee took back …"): the person's name, and their role.
                "by_name": _person(a.void.voided_by),
                "by_role": role_of(a.void.voided_by) if a.void.voided_by else None,
            }
            if hasattr(a, "void")
            else None,
        }
        for a in hand.actions.select_related("void__voided_by", "entered_by").order_by("seq")
    ]


# ------------------------------------------------------------------ views


def apply(request: Request, hand_id: int, action: Action, seq: int) -> Response:
    """Apply an action. A stale screen gets a 409 with the current state (``StaleHand``, turned
    into that answer after the attempt was rolled back — see ``api.errors``).

    The answer also carries the table's new state, exactly as the table's read answers it, and
    that read's ETag (``table_etag``): the tablet keeps both, so its next poll is a 304 rather
    than a second rendering of what it just did. The rendering is also kept in the cache once
    the action commits, for the table's other screens."""
    hand, row, state = hand_apply_action(
        hand=hand_id,
        action=action,
        expected_seq=seq,
        by=actor(request),
        access=roles.TableAccess(request.user),
    )
    shown = hand_view(hand, state)
    view, etag = table_after(hand.table_id, shown)
    return Response(
        {"seq": row.seq, "hand": shown, "table": view, "table_etag": etag},
        status=201,
    )


def history_meta(hand: Hand) -> dict[str, Any]:
    """Where a hand was played, for its ``brag-hh/1`` document's ``meta``."""
    return {
        "event": hand.table.day.event.name,
        "day": hand.table.day.number,
        "table": hand.table.number,
        "hand": hand.number,
    }


def _as_seen_by(user: Any, hand: Hand, data: dict[str, Any]) -> dict[str, Any]:
    """A hand's answer to ``user``: whole for the staff of its table; for a player who reads it
    as a hand they were dealt, only the cards ``cards_shown_to`` lets them see."""
    if roles.tables_for(user).filter(pk=hand.table_id).exists():
        return data
    player = getattr(user, "player", None)
    closed = hand.table.day.status == Day.Status.CLOSED
    shown = cards_shown_to(player.pk, hand, day_closed=closed) if player is not None else {}
    cleaned: dict[str, Any] = without_cards_not_shown(data, shown)
    return cleaned


class HandDetail(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: HandDetailOut})
    def get(self, request: Request, hand_id: int) -> Response:
        hand = get_object_or_404(roles.hands_for(request.user), pk=hand_id)
        view = hand_view(hand)
        if can(request.user, "hand.entries", hand.table.day.event_id):
            view["entries"] = hand_entries(hand)
        return Response(_as_seen_by(request.user, hand, view))


class HandHistory(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: HistoryOut}, summary="The hand as a brag-hh/1 document")
    def get(self, request: Request, hand_id: int) -> Response:
        hand = get_object_or_404(roles.hands_for(request.user), pk=hand_id)
        document = dump(hand_state(hand), meta=history_meta(hand))
        return Response(_as_seen_by(request.user, hand, document))


class HandActions(APIView):
    permission_classes = [Can("hand.entries")]

    @extend_schema(request=ActionIn, responses={201: ActionAcceptedOut}, summary="Enter an action")
    @records_refusals
    @idempotent
    def post(self, request: Request, hand_id: int) -> Response:
        data = valid(ActionIn, request)
        action = Action(data["action"], data.get("seat"), data.get("amount"), data.get("hand"))
        return apply(request, hand_id, action, data["expected_seq"])


class HandCards(APIView):
    permission_classes = [Can("hand.entries")]

    @extend_schema(request=CardsIn, responses={201: ActionAcceptedOut}, summary="Enter shown cards")
    @records_refusals
    @idempotent
    def post(self, request: Request, hand_id: int) -> Response:
        data = valid(CardsIn, request)
        action = Action("show", data["seat"], cards=data["cards"])
        return apply(request, hand_id, action, data["expected_seq"])


class HandVoid(APIView):
    permission_classes = [Can("hand.correct")]

    @extend_schema(request=VoidIn, responses={200: HandStateOut}, summary="Void the last action")
    @idempotent
    def post(self, request: Request, hand_id: int) -> Response:
        return hand_corrected(request, hand_id, VoidIn, hand_void_last_action)


def may_take_back_anyones_entry(user: Any, hand_id: int) -> bool:
    """The take-back's permission, beside the undo's (``HandVoid``: "hand.correct"): any member
    of staff who operates the table may take back the hand's last entry (``HandTakeBack``) — a
    dealer only their own; whoever may correct the hand's event's hands, anyone's."""
    return can(user, "hand.correct", event_of_row("hands.Hand", hand_id))


class HandTakeBack(APIView):
    permission_classes = [Can("hand.entries")]

    @extend_schema(
        request=TakeBackIn,
        responses={
            200: HandStateOut,
            403: OpenApiResponse(
                ErrorOut,
                description="A supervisor's to correct: the hand is settled "
                "(hand_settled_supervisor_only), something was entered after the action "
                "(earlier_entry_supervisor_only), or another person entered it (not_your_entry)",
            ),
        },
        summary="The dealer takes back their own last entry of the hand in play (a void)",
    )
    @idempotent
    def post(self, request: Request, hand_id: int) -> Response:
        data = valid(TakeBackIn, request)
        hand, state = hand_take_back(
            hand=hand_id,
            reason=data["reason"],
            expected_seq=data.get("expected_seq"),
            by=actor(request),
            access=roles.TableAccess(request.user),
            anyones=may_take_back_anyones_entry(request.user, hand_id),
        )
        return Response({"hand": hand_view(hand, state)})
