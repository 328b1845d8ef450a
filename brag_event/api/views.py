"""The REST API. Views are thin: parse → call a service → serialize.

Access: querysets are scoped by role (``roles.tables_for`` / ``hands_for``), so lists and lookups
never see other tables; writes also check the role needed."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_protect, ensure_csrf_cookie
from django.views.decorators.gzip import gzip_page
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.access.roles import events_where
from brag_event.access.rules import can
from brag_event.access.scoping import event_of_row
from brag_event.access.selectors import staff_manageable
from brag_event.audit.selectors import audit_entries
from brag_event.core.actors import Actor
from brag_event.core.conditional import keep_on_commit, versioned_answer
from brag_event.core.errors import Conflict, ServiceError
from brag_event.core.security import LOCKED_CODE, lockout_message
from brag_event.engine import Action
from brag_event.engine.history import dump
from brag_event.events.models import Day, Event
from brag_event.hands.models import Hand
from brag_event.hands.selectors import cards_shown_to, hand_state, without_cards_not_shown
from brag_event.hands.services import (
    hand_apply_action,
    hand_start,
    hand_take_back,
    hand_void_last_action,
)
from brag_event.ledger.models import Transfer
from brag_event.players.selectors import current_day
from brag_event.standings.results import since_close, standings_marked
from brag_event.tables.models import Seat, Table
from brag_event.tables.selectors import table_live
from brag_event.tables.services import seat_buy_in, seat_leave, seat_rebuy, seat_sit_out
from brag_event.tables.shifts import my_shift_view, shift_sign_in, shift_sign_out, shift_view
from brag_event.tables.versions import standings_version, table_version

from . import contract as c
from . import roles
from .idempotency import idempotent
from .models import DeviceToken
from .permissions import Can
from .presenters import (
    audit_entry_view,
    event_view,
    hand_entries,
    hand_view,
    seat_view,
    table_summary,
    table_view,
)
from .refusals import records_refusals
from .serializers import (
    NOT_IN_EVENT,
    ActionIn,
    AuditQueryIn,
    BuyInIn,
    CardsIn,
    LoginIn,
    RebuyIn,
    ShiftIn,
    SitOutIn,
    StandingsQueryIn,
    TakeBackIn,
    TokenIn,
    VoidIn,
    unknown_id,
)
from .services import token_issue, token_revoke

# Who acts, from which device (the tablet's token by name): the one builder, ``core.actors``.
actor = Actor.from_request


def valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The body, parsed; its ids resolved within the request's event (``EventScopedId``): an id
    that names nothing there is refused as ``unknown_<model>``, any other problem is
    ``invalid_input``."""
    serializer = serializer_class(data=request.data, context={"request": request})
    if not serializer.is_valid():
        raise unknown_id(serializer.errors) or serializers.ValidationError(serializer.errors)
    return dict(serializer.validated_data)


def json_answer(
    request: Request, *, key: str, version: str, data: Any, private: bool = True
) -> HttpResponse:
    """A JSON read that changes only with ``version`` (``core.conditional``): 304, the cached
    body, or ``data()`` rendered as DRF's renderer renders any other answer."""
    return versioned_answer(
        request,
        key=key,
        version=version,
        render=lambda: JSONRenderer().render(data()),
        content_type="application/json",
        private=private,
    )


def table_for(request: Request, table_id: int) -> Any:
    return get_object_or_404(roles.tables_for(request.user), pk=table_id)


def seat_for(request: Request, seat_id: int) -> Seat:
    return get_object_or_404(
        Seat.objects.select_related("table__day__event", "player").filter(
            table__in=roles.tables_for(request.user)
        ),
        pk=seat_id,
    )


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


def table_read(table_id: int) -> tuple[Table, list[Seat]]:
    """The table and its seats (access was checked with its version, in this request)."""
    found = table_live(table_id)
    if found is None:
        raise Http404
    return found


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


def table_after(table_id: int, shown: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The table's state right after a write to its latest hand (``shown``), as its read answers
    it, and that read's ETag; the rendering is kept for the table's other screens once the write
    commits. Read inside the write's transaction (the table's row with the version the write
    just bumped, its seats, and the hand just shown — always the table's latest): two
    statements more for the write, a whole request less for the tablet."""
    table, seats = table_read(table_id)
    view = table_view(table, seats, latest=shown)
    etag = keep_on_commit(
        key=f"table-{table.pk}", version=str(table.version), body=JSONRenderer().render(view)
    )
    return view, etag


# ------------------------------------------------------------------ events and tables


class EventList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: c.EventsOut},
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

    @extend_schema(responses={200: c.EventOut})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(event_view(get_object_or_404(Event, pk=event_id)))


class DayTables(APIView):
    permission_classes = [Can("table.operate")]

    @extend_schema(responses={200: c.DayTablesOut}, summary="The tables of a day that you may see")
    def get(self, request: Request, day_id: int) -> Response:
        day = get_object_or_404(Day, pk=day_id)
        tables = roles.tables_for(request.user).filter(day=day).order_by("number")
        return Response({"day": day.pk, "tables": [table_summary(t) for t in tables]})


class TableDetail(APIView):
    permission_classes = [Can("table.operate")]

    @extend_schema(
        responses={
            200: c.TableOut,
            304: c.NOT_MODIFIED,
            409: OpenApiResponse(
                c.ErrorOut,
                description="Your table's day is not open (day_not_open, day_closing, "
                "day_closed): details.status_text says its state in words",
            ),
        },
        parameters=[c.IF_NONE_MATCH],
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

    @extend_schema(request=None, responses={201: c.HandStartedOut}, summary="Start the next hand")
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

    @extend_schema(request=BuyInIn, responses={201: c.SeatOut}, summary="Buy-in at a seat")
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


# ------------------------------------------------------------------ hands


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

    @extend_schema(responses={200: c.HandDetailOut})
    def get(self, request: Request, hand_id: int) -> Response:
        hand = get_object_or_404(roles.hands_for(request.user), pk=hand_id)
        view = hand_view(hand)
        if can(request.user, "hand.entries", hand.table.day.event_id):
            view["entries"] = hand_entries(hand)
        return Response(_as_seen_by(request.user, hand, view))


class HandHistory(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: c.HistoryOut}, summary="The hand as a brag-hh/1 document")
    def get(self, request: Request, hand_id: int) -> Response:
        hand = get_object_or_404(roles.hands_for(request.user), pk=hand_id)
        document = dump(hand_state(hand), meta=history_meta(hand))
        return Response(_as_seen_by(request.user, hand, document))


def history_meta(hand: Hand) -> dict[str, Any]:
    """Where a hand was played, for its ``brag-hh/1`` document's ``meta``."""
    return {
        "event": hand.table.day.event.name,
        "day": hand.table.day.number,
        "table": hand.table.number,
        "hand": hand.number,
    }


class HandActions(APIView):
    permission_classes = [Can("hand.entries")]

    @extend_schema(
        request=ActionIn, responses={201: c.ActionAcceptedOut}, summary="Enter an action"
    )
    @records_refusals
    @idempotent
    def post(self, request: Request, hand_id: int) -> Response:
        data = valid(ActionIn, request)
        action = Action(data["action"], data.get("seat"), data.get("amount"), data.get("hand"))
        return apply(request, hand_id, action, data["expected_seq"])


class HandCards(APIView):
    permission_classes = [Can("hand.entries")]

    @extend_schema(
        request=CardsIn, responses={201: c.ActionAcceptedOut}, summary="Enter shown cards"
    )
    @records_refusals
    @idempotent
    def post(self, request: Request, hand_id: int) -> Response:
        data = valid(CardsIn, request)
        action = Action("show", data["seat"], cards=data["cards"])
        return apply(request, hand_id, action, data["expected_seq"])


class HandVoid(APIView):
    permission_classes = [Can("hand.correct")]

    @extend_schema(request=VoidIn, responses={200: c.HandStateOut}, summary="Void the last action")
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
            200: c.HandStateOut,
            403: OpenApiResponse(
                c.ErrorOut,
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


def hand_corrected(
    request: Request, hand_id: int, body: type[serializers.Serializer], service: Any
) -> Response:
    """A supervisor's correction to a hand (a void, a misdeal): the reason and the expected
    ``seq`` from ``body``, the ``service`` called on the tables the caller may operate; the
    hand as it is now."""
    data = valid(body, request)
    hand, state = service(
        hand=hand_id,
        reason=data["reason"],
        expected_seq=data.get("expected_seq"),
        by=actor(request),
        access=roles.TableAccess(request.user),
    )
    return Response({"hand": hand_view(hand, state)})


# ------------------------------------------------------------------ seats


class SeatRebuy(APIView):
    permission_classes = [Can("seat.manage")]

    @extend_schema(
        request=RebuyIn,
        responses={200: c.SeatOut},
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

    @extend_schema(request=SitOutIn, responses={200: c.SeatOut}, summary="Sit out, or come back")
    @idempotent
    def post(self, request: Request, seat_id: int) -> Response:
        seat = seat_for(request, seat_id)
        data = valid(SitOutIn, request)
        seat = seat_sit_out(seat=seat, sitting_out=data["sitting_out"], by=actor(request))
        return Response(seat_view(seat))


class SeatLeave(APIView):
    permission_classes = [Can("seat.manage")]

    @extend_schema(request=None, responses={200: c.SeatOut}, summary="Leave: the stack goes back")
    @idempotent
    def post(self, request: Request, seat_id: int) -> Response:
        seat = seat_leave(seat=seat_for(request, seat_id), by=actor(request))
        return Response(seat_view(seat))


# ------------------------------------------------------------------ ledger, audit, standings


class Page(LimitOffsetPagination):
    default_limit = 100
    max_limit = 1000


def paged(request: Request, view: APIView, rows: QuerySet[Any], shape: Any) -> Response:
    pager = Page()
    page = pager.paginate_queryset(rows, request, view=view) or []
    return pager.get_paginated_response([shape(r) for r in page])


class EventLedger(APIView):
    permission_classes = [Can("ledger.read")]

    @extend_schema(
        responses={200: c.TransferPage},
        parameters=c.PAGE_PARAMETERS,
        summary="Ledger transfers (organisers)",
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = get_object_or_404(Event, pk=event_id)
        rows = Transfer.objects.filter(event=event).order_by("id")

        def shape(t: Transfer) -> dict[str, Any]:
            return {
                "id": t.pk,
                "kind": t.kind,
                "amount": t.amount,
                "source": t.source_id,
                "target": t.target_id,
                "hand": t.hand_id,
                "action": t.action_id,
                "reverses": t.reverses_id,
                "memo": t.memo,
                "at": t.created_at.isoformat(),
            }

        return paged(request, self, rows, shape)


class EventAudit(APIView):
    permission_classes = [Can("audit.read")]

    @extend_schema(
        responses={200: c.AuditPage},
        parameters=[AuditQueryIn, *c.PAGE_PARAMETERS],
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


# Compressed here for nginx's copy of the public reads (see public.views.standings_page).
@method_decorator(gzip_page, name="dispatch")
class EventStandings(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(
        responses={200: c.StandingsOut, 304: c.NOT_MODIFIED},
        summary="Public standings: balance plus table stack (a hand in play counts when it "
        "ends), change today, hands played and won (overall, or of one day with ?day=N)",
        parameters=[StandingsQueryIn, c.IF_NONE_MATCH],
    )
    def get(self, request: Request, event_id: int) -> HttpResponse:
        query = StandingsQueryIn(data=request.query_params)
        if not query.is_valid():
            raise ServiceError(
                "invalid_day",
                "day is a day's number, e.g. ?day=1",
                details={"field": "day", "fields": query.errors},
            )
        number: int | None = query.validated_data.get("day")
        version = standings_version(event_id)  # first: what follows is at least this new
        if version is None:
            raise Http404

        def data() -> dict[str, Any]:
            event = get_object_or_404(Event, pk=event_id)
            day = get_object_or_404(event.days, number=number) if number is not None else None
            current = day or current_day(event)
            rows, cut = standings_marked(event, day)
            return {
                "event": event.pk,
                "name": event.name,
                "currency": event.currency,
                "day": current.number if current else None,
                "scope": "day" if day else "event",
                "standings": rows,
                "cut": cut,
                "since_close": since_close(day) if day else [],
            }

        return json_answer(
            request,
            key=f"standings-{event_id}" + (f"-day{number}" if number is not None else ""),
            version="{}.{}".format(*version),
            data=data,
            private=False,
        )


# ------------------------------------------------------------------ me


class Me(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: c.MeOut}, summary="Who you are; a player's balance and seat")
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

    @extend_schema(responses={200: c.MyHandsOut}, summary="The hands you were dealt")
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


# ------------------------------------------------------------------ device tokens


class Tokens(APIView):
    permission_classes = [Can("tokens.manage")]

    @extend_schema(responses={200: c.TokensOut}, summary="Device tokens (organisers)")
    def get(self, request: Request) -> Response:
        # An organiser of some events sees the tokens of those events' staff only.
        mine = staff_manageable(request.user)
        tokens = DeviceToken.objects.filter(user__in=mine).select_related("user")
        return Response(
            {
                "tokens": [
                    {
                        "id": t.pk,
                        "name": t.name,
                        "user": t.user.get_username(),
                        "prefix": t.prefix,
                        "active": t.is_active,
                        "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
                    }
                    for t in tokens
                ]
            }
        )

    @extend_schema(
        request=TokenIn, responses={201: c.TokenIssuedOut}, summary="Issue a device token"
    )
    @idempotent(redact=("key",))
    def post(self, request: Request) -> Response:
        data = valid(TokenIn, request)  # a user the caller manages (``TokenIn``)
        token, key = token_issue(user_id=data["user"].pk, name=data["name"], by=actor(request))
        # The key is shown once, here; only its hash is stored.
        return Response({"id": token.pk, "name": token.name, "key": key}, status=201)


class TokenRevoke(APIView):
    permission_classes = [Can("tokens.manage")]

    @extend_schema(
        request=None, responses={200: c.TokenRevokedOut}, summary="Revoke a device token"
    )
    @idempotent
    def post(self, request: Request, token_id: int) -> Response:
        mine = DeviceToken.objects.filter(user__in=staff_manageable(request.user))
        token = token_revoke(token=get_object_or_404(mine, pk=token_id), by=actor(request))
        return Response({"id": token.pk, "active": token.is_active})


# ------------------------------------------------------------------ session login


class Csrf(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: c.OkOut}, summary="Sets the CSRF cookie for browser sessions")
    @method_decorator(ensure_csrf_cookie)
    def get(self, request: Request) -> Response:
        return Response({"ok": True})


class Login(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_scope = "login"

    @extend_schema(request=LoginIn, responses={200: c.LoggedInOut}, summary="Browser session login")
    @method_decorator(csrf_protect)
    def post(self, request: Request) -> Response:
        data = valid(LoginIn, request)
        # Django's request, not DRF's: django-axes counts the attempt and marks a lockout on it.
        http = request._request
        user = authenticate(http, username=data["username"], password=data["password"])
        if getattr(http, "axes_locked_out", False):
            raise ServiceError(
                LOCKED_CODE,
                lockout_message(),
                details={"retry_after": int(settings.AXES_COOLOFF_TIME.total_seconds())},
                status=429,
            )
        if user is None:
            raise ServiceError("bad_credentials", "Wrong username or password.", status=401)
        login(request._request, user)
        return Response({"username": user.get_username(), "role": roles.role_of(user)})


class Logout(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: c.OkOut})
    def post(self, request: Request) -> Response:
        shift_sign_out(by=actor(request))  # a dealer signing out of the tablet ends their shift
        logout(request._request)
        return Response({"ok": True})


# ------------------------------------------------------------------ dealers' shifts


class TableShift(APIView):
    permission_classes = [Can("shift.sign")]

    @extend_schema(
        responses={200: c.ShiftOut},
        summary="Who deals at the table, and the change of dealer the rota has due",
    )
    def get(self, request: Request, table_id: int) -> Response:
        return Response(shift_view(table_for(request, table_id)))

    @extend_schema(
        request=ShiftIn,
        responses={
            200: c.ShiftOut,
            409: OpenApiResponse(
                c.ErrorOut,
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
        responses={200: c.MyShiftOut},
        summary="Your own shift: where you deal, and whether you were relieved at this table",
    )
    def get(self, request: Request, table_id: int) -> Response:
        # The caller's own shifts only: readable after a relief took the table away from them.
        return Response(my_shift_view(request.user, table_id))


class TableShiftEnd(APIView):
    permission_classes = [Can("shift.sign")]

    @extend_schema(
        request=None, responses={200: c.ShiftOut}, summary="Sign out of dealing at the table"
    )
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        table = table_for(request, table_id)
        shift_sign_out(by=actor(request), table=table)
        return Response(shift_view(table))
