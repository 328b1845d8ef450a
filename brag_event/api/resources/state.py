"""A table's live state and its hand's: the answer of the table's read (``tables.TableDetail``)
and part of every write to a hand (an action's answer carries the table's new state; a
correction's, the hand's). The shapes (for the schema) and the presenters that build them as
plain data."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from brag_event.core.conditional import keep_on_commit
from brag_event.engine import ACTIONS, HandState
from brag_event.engine.tablet import hand_live
from brag_event.events.models import Day
from brag_event.floor.awards import award_of, award_view
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import next_dealer_seat
from brag_event.tables.models import Seat, Table
from brag_event.tables.selectors import table_live

from .. import roles
from .common import actor, nullable_int, valid

# ------------------------------------------------------------------ answers


PLAYER_STATUSES = ["active", "folded", "covered"]


class RulesOut(serializers.Serializer):
    ante = serializers.IntegerField()
    min_bet = serializers.IntegerField()
    max_bet = serializers.IntegerField()
    max_raise = serializers.IntegerField()
    house_fee = serializers.IntegerField()
    table_min = serializers.IntegerField()
    table_max = nullable_int()
    seats = serializers.IntegerField()
    blind_allowed = serializers.BooleanField()
    see_cost = serializers.ChoiceField(choices=["double", "equal"])
    pot_limit = serializers.BooleanField()
    rake_percent = serializers.IntegerField()
    rake_cap = nullable_int()
    cover_allowed = serializers.BooleanField()
    rebuy_needs_consent = serializers.BooleanField()
    rebuy_pays_fee = serializers.BooleanField()


class CarriedOut(serializers.Serializer):
    pot = serializers.IntegerField()
    seat = nullable_int()


class PotOut(serializers.Serializer):
    amount = serializers.IntegerField()
    coverers = serializers.ListField(child=serializers.IntegerField())


class HandPlayerOut(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    stack = serializers.IntegerField()
    paid = serializers.IntegerField()
    status = serializers.ChoiceField(choices=PLAYER_STATUSES)
    blind = serializers.BooleanField()
    hands = serializers.IntegerField(
        help_text="2 while holding a retained blind hand beside a new one"
    )
    looked = serializers.CharField(
        allow_null=True, help_text="The hand looked at, awaiting keep or throw"
    )


class LegalActionOut(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(ACTIONS))
    seat = nullable_int()
    allowed = serializers.BooleanField()
    min_amount = serializers.IntegerField(required=False)
    max_amount = serializers.IntegerField(required=False)
    cost = serializers.IntegerField(required=False)
    blind = serializers.BooleanField(required=False)
    hands = serializers.ListField(child=serializers.CharField(), required=False)
    code = serializers.CharField(
        required=False, allow_null=True, help_text="Why not (when not allowed)"
    )
    reason = serializers.CharField(required=False, allow_null=True)


class ActionOut(serializers.Serializer):
    seat = serializers.IntegerField(required=False)
    action = serializers.ChoiceField(choices=list(ACTIONS))
    amount = serializers.IntegerField(required=False)
    hand = serializers.CharField(required=False)
    cards = serializers.CharField(required=False)


class AwardPotOut(serializers.Serializer):
    pot = serializers.IntegerField()
    amount = serializers.IntegerField(help_text="Paid out of the pot (after any rake)")
    seats = serializers.ListField(child=serializers.IntegerField())
    players = serializers.ListField(child=serializers.CharField())


class AwardOut(serializers.Serializer):
    """A large pot's second confirmation (the day's ``award_confirm_from``)."""

    status = serializers.ChoiceField(choices=["waiting", "confirmed"])
    amount = serializers.IntegerField(help_text="The largest pot at or above the day's amount")
    threshold = serializers.IntegerField(help_text="The day's amount when the hand settled")
    awards = AwardPotOut(many=True)
    message = serializers.CharField(help_text="In words, for the tablet's banner")
    confirmed_by = serializers.CharField(allow_null=True)
    confirmed_at = serializers.DateTimeField(allow_null=True)


class HandOut(serializers.Serializer):
    """A hand's live state, straight from the engine: everything to draw the table and the
    action bar."""

    id = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Hand.Status.choices)
    dealer = serializers.IntegerField()
    next_seq = serializers.IntegerField(help_text="The expected_seq of the next action")
    shuffle_before = serializers.BooleanField()
    carried = CarriedOut()
    rules = RulesOut()
    phase = serializers.ChoiceField(choices=["betting", "choosing", "showing", "settled"])
    to_act = nullable_int()
    stake = serializers.IntegerField()
    pots = PotOut(many=True)
    players = HandPlayerOut(many=True)
    pending = nullable_int(help_text="The seat that looked and must keep or throw")
    must_choose = serializers.ListField(child=serializers.IntegerField())
    cards_needed = serializers.ListField(child=serializers.IntegerField())
    legal_actions = LegalActionOut(many=True)
    result = serializers.DictField(
        child=serializers.JSONField(),
        allow_null=True,
        help_text="The settlement (see brag-hh/1 replay)",
    )
    actions = ActionOut(many=True, help_text="The live log (voided actions left out)")
    award = AwardOut(
        allow_null=True,
        help_text="A settled hand's large pot and its second confirmation (null: none asked)",
    )


class PlayerRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SeatOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    player = PlayerRef()
    stack = serializers.IntegerField()
    buy_in = serializers.IntegerField()
    sitting_out = serializers.BooleanField()
    left = serializers.BooleanField()


class DayRef(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Day.Status.choices)


class EventRef(serializers.Serializer):
    id = serializers.IntegerField()
    currency = serializers.CharField()


class TableOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    day = DayRef()
    event = EventRef()
    button = serializers.IntegerField()
    shuffle_next = serializers.BooleanField()
    rules = RulesOut(help_text="The day's rules (the next hand is dealt with them)")
    carried = CarriedOut()
    seats = SeatOut(many=True)
    hand = HandOut(allow_null=True, help_text="The latest hand")


def table_etag_field() -> serializers.CharField:
    """The ETag of the table's state a write answers with (its read's)."""
    return serializers.CharField(
        required=False,
        help_text="The ETag of that state: sent as If-None-Match, the table's read answers 304 "
        "until something else changes",
    )


# ------------------------------------------------------------------ presenters


# The keys of a hand's view that are the engine's alone (``engine.tablet.hand_live``).
LIVE_KEYS = (
    "phase",
    "to_act",
    "stake",
    "pots",
    "players",
    "pending",
    "must_choose",
    "cards_needed",
    "legal_actions",
)


def seat_view(seat: Seat) -> dict[str, Any]:
    return {
        "id": seat.pk,
        "number": seat.number,
        "player": {"id": seat.player_id, "name": seat.player.name},
        "stack": seat.stack,
        "buy_in": seat.buy_in,
        "sitting_out": seat.sitting_out,
        "left": seat.left_at is not None,
    }


def hand_view(hand: Hand, state: HandState | None = None) -> dict[str, Any]:
    """A hand's live state for a tablet: everything to draw the table and the action bar.
    ``actions`` is the live log (voided actions left out); ``hand_entries`` has every entry,
    voided ones too (``hands.HandDetail`` adds them for staff). Its shape is described for the
    schema by ``HandOut``."""
    state = state or hand_state(hand)
    live = hand_live(state)  # the engine's part, the same function the tablet runs offline
    return {
        "id": hand.pk,
        "table": hand.table_id,
        "number": hand.number,
        "status": hand.status,
        "dealer": hand.dealer_seat,
        "next_seq": hand.next_seq,
        "shuffle_before": hand.shuffle_before,
        "carried": {"pot": hand.carried_pot, "seat": hand.carried_seat},
        "rules": hand.rules,
        **{key: live[key] for key in LIVE_KEYS},
        "result": hand.result,
        "actions": live["actions"],
        # A large pot's second confirmation (floor.awards): read only once the hand settled.
        "award": award_view(award_of(hand)) if hand.status == Hand.Status.SETTLED else None,
    }


def table_view(
    table: Table, seats: list[Seat] | None = None, *, latest: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A table's live state (the tablet's read). ``seats``: its occupied seats by number with
    their players, if already read (``tables.selectors.table_live``). ``latest``: the view of
    the table's latest hand, already computed (an action's answer: a hand in play is always its
    table's latest), so that neither the hand nor its log is read again."""
    if seats is None:
        seats = list(
            table.seats.filter(left_at__isnull=True).select_related("player").order_by("number")
        )
    if latest is not None:
        shown: dict[str, Any] | None = latest
    else:
        hand = table.hands.order_by("-number").first()
        shown = hand_view(hand) if hand is not None else None
    return {
        "id": table.pk,
        "number": table.number,
        "day": {"id": table.day_id, "number": table.day.number, "status": table.day.status},
        "event": {"id": table.day.event_id, "currency": table.day.event.currency},
        "button": table.button,
        # Who deals the next hand (between hands, the tablet's dealer button).
        "next_dealer": next_dealer_seat(
            table, [s.number for s in seats], [s.number for s in seats if s.sitting_out]
        ),
        "shuffle_next": table.shuffle_next,
        # The day's rules: what the tablet's engine deals the next hand with when offline.
        "rules": table.day.rules().to_dict(),
        "carried": {"pot": table.carried_pot, "seat": table.carried_seat},
        "seats": [seat_view(s) for s in seats],
        "hand": shown,
    }


# ------------------------------------------------------------------ views


def table_read(table_id: int) -> tuple[Table, list[Seat]]:
    """The table and its seats (access was checked with its version, in this request)."""
    found = table_live(table_id)
    if found is None:
        raise Http404
    return found


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
