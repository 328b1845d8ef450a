"""A table: its live state, the next hand dealt, a buy-in, and the dealers' shifts."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.core.errors import Conflict
from brag_event.engine import MONEY_MAX
from brag_event.engine.history import dump
from brag_event.events.models import Day
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_start
from brag_event.tables.services import seat_buy_in
from brag_event.tables.shifts import my_shift_view, shift_sign_in, shift_sign_out, shift_view
from brag_event.tables.versions import table_version

from .. import roles
from ..idempotency import idempotent
from ..permissions import Can
from ..refusals import records_refusals
from .common import IF_NONE_MATCH, NOT_MODIFIED, ErrorOut, actor, json_answer, table_for, valid
from .fields import EventScopedId, WholeNumberField
from .hands import HistoryOut, history_meta
from .state import (
    HandOut,
    SeatOut,
    TableOut,
    hand_view,
    seat_view,
    table_after,
    table_etag_field,
    table_read,
    table_view,
)

# ------------------------------------------------------------------ inputs


class BuyInIn(serializers.Serializer):
    seat = WholeNumberField(min_value=1, max_value=10)
    player = EventScopedId(model="players.Player", help_text="Player id")
    amount = WholeNumberField(min_value=0, max_value=MONEY_MAX)


class ShiftIn(serializers.Serializer):
    leave = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Leave the table you are signed in to deal at, to deal here",
    )


# ------------------------------------------------------------------ answers


class HandStartedOut(HandOut):
    """The hand just dealt, with the table's state after it (its ``table`` is the table's id)."""

    table_state = TableOut(
        required=False,
        help_text="The table's state with the new hand, as GET /tables/{id}/ answers it",
    )
    table_etag = table_etag_field()
    start_history = HistoryOut(
        required=False,
        help_text="The hand's start as a brag-hh/1 document (no actions yet), as GET "
        "/hands/{id}/history/ answers it: a tablet keeps it to go on offline",
    )


class ShiftChangeOut(serializers.Serializer):
    dealer = serializers.CharField(help_text="Who takes the table, by name")
    at = serializers.DateTimeField()
    at_text = serializers.CharField(
        help_text="The time of the change, in the event's time zone (14:30)"
    )
    overdue = serializers.BooleanField(help_text="The time has passed and someone else still deals")
    message = serializers.CharField(help_text="What the tablet says, in words")


class ShiftOut(serializers.Serializer):
    dealer = serializers.CharField(
        allow_null=True, help_text="Who deals at the table now (signed in)"
    )
    dealer_username = serializers.CharField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    change = ShiftChangeOut(allow_null=True, help_text="The change of dealer the rota has due")


class MyShiftRelievedOut(serializers.Serializer):
    by = serializers.CharField(help_text="Who took over the table")
    at = serializers.DateTimeField()
    at_text = serializers.CharField(help_text="When, in the event's time zone (HH:MM)")
    message = serializers.CharField(help_text="The tablet's words")


class MyShiftOut(serializers.Serializer):
    table = serializers.IntegerField(
        allow_null=True, help_text="The table you are signed in to deal at"
    )
    table_number = serializers.IntegerField(allow_null=True)
    dealing_here = serializers.BooleanField(
        help_text="Whether you are signed in to deal at this table"
    )
    relieved = MyShiftRelievedOut(
        allow_null=True, help_text="You were relieved at this table (and have not come back)"
    )


# ------------------------------------------------------------------ views


def refuse_day_not_open(request: Request, table_id: int) -> None:
    """A table of the caller's whose day is not open (not yet, closing or closed): refused with
    the day's state in words (409), so that a tablet can say it and stop asking."""
    found = roles.table_of_any_day(request.user, table_id)
    if found is None or found.day.status == Day.Status.OPEN:
        return
    day = found.day
    codes: dict[str, str] = {
        Day.Status.SCHEDULED: "day_not_open",
        Day.Status.CLOSING: "day_closing",
    }
    said: dict[str, str] = {
        Day.Status.SCHEDULED: f"Day {day.number} has not opened yet.",
        Day.Status.CLOSING: f"Day {day.number} is closing: no more hands at this table.",
    }
    raise Conflict(
        codes.get(day.status, "day_closed"),
        said.get(day.status, f"Day {day.number} is closed: no more hands at this table."),
        details={
            "table": found.number,
            "day": day.number,
            "status": day.status,
            "status_text": day.status_text,
        },
    )


class TableDetail(APIView):
    permission_classes = [Can("table.operate")]

    @extend_schema(
        responses={
            200: TableOut,
            304: NOT_MODIFIED,
            409: OpenApiResponse(
                ErrorOut,
                description="Your table's day is not open (day_not_open, day_closing, "
                "day_closed): details.status_text says its state in words",
            ),
        },
        parameters=[IF_NONE_MATCH],
        summary="A table's live state: seats, stacks, dealer, pots, the hand, whose turn, "
        "the legal actions with amounts and costs",
    )
    def get(self, request: Request, table_id: int) -> HttpResponse:
        # The version first (and the access check with it), then what it shows.
        version = table_version(table_id, roles.TableAccess(request.user))
        if version is None:
            refuse_day_not_open(request, table_id)
            raise Http404
        return json_answer(
            request,
            key=f"table-{table_id}",
            version=str(version),
            data=lambda: table_view(*table_read(table_id)),
        )


class TableHands(APIView):
    permission_classes = [Can("table.operate")]

    @extend_schema(request=None, responses={201: HandStartedOut}, summary="Start the next hand")
    @records_refusals
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        hand = hand_start(table=table_id, by=actor(request), access=roles.TableAccess(request.user))
        # A hand just dealt has no actions yet: its state needs no read of the log.
        state = hand_state(hand, log=[])
        shown = hand_view(hand, state)
        view, etag = table_after(hand.table_id, shown)
        # The start's brag-hh/1 document too: the tablet goes on offline from it without
        # asking for the hand's history (a drop right after the start left it without).
        return Response(
            {
                **shown,
                "table_state": view,
                "table_etag": etag,
                "start_history": dump(state, meta=history_meta(hand)),
            },
            status=201,
        )


class TableSeats(APIView):
    permission_classes = [Can("table.operate")]

    @extend_schema(request=BuyInIn, responses={201: SeatOut}, summary="Buy-in at a seat")
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        table = table_for(request, table_id)
        data = valid(BuyInIn, request)
        seat = seat_buy_in(
            table=table,
            seat_number=data["seat"],
            player=data["player"],
            amount=data["amount"],
            by=actor(request),
        )
        return Response(seat_view(seat), status=201)


class TableShift(APIView):
    permission_classes = [Can("shift.sign")]

    @extend_schema(
        responses={200: ShiftOut},
        summary="Who deals at the table, and the change of dealer the rota has due",
    )
    def get(self, request: Request, table_id: int) -> Response:
        return Response(shift_view(table_for(request, table_id)))

    @extend_schema(
        request=ShiftIn,
        responses={
            200: ShiftOut,
            409: OpenApiResponse(
                ErrorOut,
                description="You deal at another table until relieved or signed out "
                "(dealing_elsewhere: details.table, details.number); send leave: true to "
                "leave it for this one",
            ),
        },
        summary="Sign in to deal at the table (starts a shift; relieves the dealer before)",
    )
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        table = table_for(request, table_id)
        data = valid(ShiftIn, request)
        shift_sign_in(table=table, by=actor(request), leave=data["leave"])
        return Response(shift_view(table))


class TableMyShift(APIView):
    permission_classes = [Can("shift.sign")]

    @extend_schema(
        responses={200: MyShiftOut},
        summary="Your own shift: where you deal, and whether you were relieved at this table",
    )
    def get(self, request: Request, table_id: int) -> Response:
        # The caller's own shifts only: readable after a relief took the table away from them.
        return Response(my_shift_view(request.user, table_id))


class TableShiftEnd(APIView):
    permission_classes = [Can("shift.sign")]

    @extend_schema(
        request=None, responses={200: ShiftOut}, summary="Sign out of dealing at the table"
    )
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        table = table_for(request, table_id)
        shift_sign_out(by=actor(request), table=table)
        return Response(shift_view(table))
