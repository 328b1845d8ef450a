"""The API's answers, described for the OpenAPI schema (and so for generated clients).

These serializers are never instantiated on a request: the answers are built as plain data by
``presenters`` and the views (the action path and the versioned reads are rendered without a
serializer, see docs/api.md), and these classes say what that data is. ``tests/api`` checks that
the real answers validate against the schema built from them (``test_contract.py``, and
schemathesis' response conformance)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from brag_event.audit.models import Verb
from brag_event.engine import ACTIONS
from brag_event.events.models import Day
from brag_event.hands.models import Hand
from brag_event.ledger.models import Transfer

from . import roles

S = serializers
PLAYER_STATUSES = ["active", "folded", "covered"]
ROLES = [roles.ORGANISER, roles.SUPERVISOR, roles.DEALER, roles.PLAYER, roles.PUBLIC]


def nullable_int(**kwargs: Any) -> S.IntegerField:
    return S.IntegerField(allow_null=True, **kwargs)


# ------------------------------------------------------------------ errors


class ErrorDetail(S.Serializer):
    code = S.CharField(help_text="Stable: docs/error-codes.md lists every one")
    message = S.CharField(help_text="In words, for people")
    details = S.DictField(
        child=S.JSONField(),
        help_text="What the code needs: a field's name, a limit, a stale hand's state…",
    )


class ErrorOut(S.Serializer):
    """Every refusal and failure of the API (4xx and 5xx) has this shape."""

    error = ErrorDetail()


ERRORS = {
    400: "Refused: the input's shape or the rules (details.field names the field)",
    401: "Not authenticated: log in or send a device token",
    403: "Your role may not do this (or the CSRF token is missing)",
    404: "Not found, or not yours to see",
    405: "Method not allowed",
    406: "Not acceptable: this API answers JSON only",
    413: "The body is too large",
    415: "Unsupported media type: send JSON",
    429: "Too many attempts, or the login is locked",
    500: "Something went wrong on the server; nothing was saved",
    503: "Busy or the database is away; nothing was saved: send it again (Retry-After)",
}
WRITE_ERRORS = {
    409: "Conflict: the hand moved on (details.hand is its current state), or the state refuses",
    422: "The Idempotency-Key was used for another request",
}
NOT_MODIFIED = OpenApiResponse(
    description="Not modified: the request's If-None-Match names the answer's current ETag "
    "(no body)."
)


class ContractSchema(AutoSchema):
    """drf-spectacular's schema, plus the one error shape for every 4xx and 5xx an operation
    may answer (writes: 409 and 422 too), and the ``Idempotency-Key`` header of every write
    that takes one."""

    def get_override_parameters(self) -> list[Any]:
        parameters: list[Any] = list(super().get_override_parameters())
        handler = getattr(self.view, self.method.lower(), None)
        if getattr(handler, "takes_idempotency_key", False):
            parameters.append(IDEMPOTENCY_KEY)
        return parameters

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        bodies: dict[str, Any] = super()._get_response_bodies(direction)
        errors = dict(ERRORS)
        if self.method != "GET":
            errors.update(WRITE_ERRORS)
        for code, description in sorted(errors.items()):
            if str(code) not in bodies:
                bodies[str(code)] = self._get_response_for_code(
                    OpenApiResponse(ErrorOut, description=description), str(code)
                )
        return bodies


# ------------------------------------------------------------------ events and days


class RulesOut(S.Serializer):
    ante = S.IntegerField()
    min_bet = S.IntegerField()
    max_bet = S.IntegerField()
    max_raise = S.IntegerField()
    house_fee = S.IntegerField()
    table_min = S.IntegerField()
    table_max = nullable_int()
    seats = S.IntegerField()
    blind_allowed = S.BooleanField()
    see_cost = S.ChoiceField(choices=["double", "equal"])
    pot_limit = S.BooleanField()
    rake_percent = S.IntegerField()
    rake_cap = nullable_int()
    cover_allowed = S.BooleanField()
    rebuy_needs_consent = S.BooleanField()
    rebuy_pays_fee = S.BooleanField()


class DayOut(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()
    date = S.DateField(allow_null=True)
    status = S.ChoiceField(choices=Day.Status.choices)
    status_text = S.CharField()
    rules = RulesOut()


class EventOut(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()
    currency = S.CharField()
    days = DayOut(many=True)


class EventsOut(S.Serializer):
    events = EventOut(many=True)


# ------------------------------------------------------------------ tables, seats, hands


class TableSummaryOut(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()
    seated = S.IntegerField()
    hands = S.IntegerField()
    live_hand = nullable_int(help_text="The hand in progress")
    carried_pot = S.IntegerField()


class DayTablesOut(S.Serializer):
    day = S.IntegerField()
    tables = TableSummaryOut(many=True)


class PlayerRef(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()


class SeatOut(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()
    player = PlayerRef()
    stack = S.IntegerField()
    buy_in = S.IntegerField()
    sitting_out = S.BooleanField()
    left = S.BooleanField()


class CarriedOut(S.Serializer):
    pot = S.IntegerField()
    seat = nullable_int()


class PotOut(S.Serializer):
    amount = S.IntegerField()
    coverers = S.ListField(child=S.IntegerField())


class HandPlayerOut(S.Serializer):
    seat = S.IntegerField()
    player = S.CharField()
    stack = S.IntegerField()
    paid = S.IntegerField()
    status = S.ChoiceField(choices=PLAYER_STATUSES)
    blind = S.BooleanField()
    hands = S.IntegerField(help_text="2 while holding a retained blind hand beside a new one")
    looked = S.CharField(allow_null=True, help_text="The hand looked at, awaiting keep or throw")


class LegalActionOut(S.Serializer):
    action = S.ChoiceField(choices=list(ACTIONS))
    seat = nullable_int()
    allowed = S.BooleanField()
    min_amount = S.IntegerField(required=False)
    max_amount = S.IntegerField(required=False)
    cost = S.IntegerField(required=False)
    blind = S.BooleanField(required=False)
    hands = S.ListField(child=S.CharField(), required=False)
    code = S.CharField(required=False, allow_null=True, help_text="Why not (when not allowed)")
    reason = S.CharField(required=False, allow_null=True)


class ActionOut(S.Serializer):
    seat = S.IntegerField(required=False)
    action = S.ChoiceField(choices=list(ACTIONS))
    amount = S.IntegerField(required=False)
    hand = S.CharField(required=False)
    cards = S.CharField(required=False)


class AwardPotOut(S.Serializer):
    pot = S.IntegerField()
    amount = S.IntegerField(help_text="Paid out of the pot (after any rake)")
    seats = S.ListField(child=S.IntegerField())
    players = S.ListField(child=S.CharField())


class AwardOut(S.Serializer):
    """A large pot's second confirmation (the day's ``award_confirm_from``)."""

    status = S.ChoiceField(choices=["waiting", "confirmed"])
    amount = S.IntegerField(help_text="The largest pot at or above the day's amount")
    threshold = S.IntegerField(help_text="The day's amount when the hand settled")
    awards = AwardPotOut(many=True)
    message = S.CharField(help_text="In words, for the tablet's banner")
    confirmed_by = S.CharField(allow_null=True)
    confirmed_at = S.DateTimeField(allow_null=True)


class HandOut(S.Serializer):
    """A hand's live state, straight from the engine: everything to draw the table and the
    action bar."""

    id = S.IntegerField()
    table = S.IntegerField()
    number = S.IntegerField()
    status = S.ChoiceField(choices=Hand.Status.choices)
    dealer = S.IntegerField()
    next_seq = S.IntegerField(help_text="The expected_seq of the next action")
    shuffle_before = S.BooleanField()
    carried = CarriedOut()
    rules = RulesOut()
    phase = S.ChoiceField(choices=["betting", "choosing", "showing", "settled"])
    to_act = nullable_int()
    stake = S.IntegerField()
    pots = PotOut(many=True)
    players = HandPlayerOut(many=True)
    pending = nullable_int(help_text="The seat that looked and must keep or throw")
    must_choose = S.ListField(child=S.IntegerField())
    cards_needed = S.ListField(child=S.IntegerField())
    legal_actions = LegalActionOut(many=True)
    result = S.DictField(
        child=S.JSONField(), allow_null=True, help_text="The settlement (see brag-hh/1 replay)"
    )
    actions = ActionOut(many=True, help_text="The live log (voided actions left out)")
    award = AwardOut(
        allow_null=True,
        help_text="A settled hand's large pot and its second confirmation (null: none asked)",
    )


class VoidOut(S.Serializer):
    reason = S.CharField()
    at = S.DateTimeField()
    seq = nullable_int(help_text="The hand's sequence number the void took")
    by = S.CharField(allow_null=True)
    by_name = S.CharField(
        allow_null=True, help_text="Who voided it: the full name, else the user name"
    )
    by_role = S.CharField(allow_null=True, help_text="Who voided it: their highest role")


class HandEntryOut(S.Serializer):
    seq = S.IntegerField()
    seat = nullable_int()
    action = S.ChoiceField(choices=list(ACTIONS))
    amount = nullable_int()
    hand = S.CharField(allow_null=True)
    cards = S.CharField(allow_null=True)
    entered_at = S.DateTimeField()
    entered_by = S.CharField(allow_null=True)
    entered_by_name = S.CharField(
        allow_null=True, help_text="Who entered it: the full name, else the user name"
    )
    entered_by_role = S.CharField(allow_null=True, help_text="Who entered it: their highest role")
    device = S.CharField(allow_blank=True)
    void = VoidOut(allow_null=True)


class HandDetailOut(HandOut):
    entries = HandEntryOut(
        many=True, required=False, help_text="Every entry, voided ones too (staff only)"
    )


class DayRef(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()
    status = S.ChoiceField(choices=Day.Status.choices)


class EventRef(S.Serializer):
    id = S.IntegerField()
    currency = S.CharField()


class TableOut(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()
    day = DayRef()
    event = EventRef()
    button = S.IntegerField()
    shuffle_next = S.BooleanField()
    rules = RulesOut(help_text="The day's rules (the next hand is dealt with them)")
    carried = CarriedOut()
    seats = SeatOut(many=True)
    hand = HandOut(allow_null=True, help_text="The latest hand")


def table_etag_field() -> S.CharField:
    """The ETag of the table's state a write answers with (its read's)."""
    return S.CharField(
        required=False,
        help_text="The ETag of that state: sent as If-None-Match, the table's read answers 304 "
        "until something else changes",
    )


class ActionAcceptedOut(S.Serializer):
    seq = S.IntegerField(help_text="The sequence number the action got")
    hand = HandOut()
    table = TableOut(
        required=False,
        help_text="The table's state after the action, as GET /tables/{id}/ answers it",
    )
    table_etag = table_etag_field()


class HandStateOut(S.Serializer):
    hand = HandOut()


class AwardConfirmedOut(S.Serializer):
    award = AwardOut()
    hand = HandOut()


class HistorySeatOut(S.Serializer):
    seat = S.IntegerField()
    player = S.CharField()
    stack = S.IntegerField()
    sitting_out = S.BooleanField(required=False)


class HistoryOut(S.Serializer):
    """A ``brag-hh/1`` document (docs/hand-history.md)."""

    format = S.CharField()
    rules = RulesOut()
    dealer = S.IntegerField()
    seats = HistorySeatOut(many=True)
    carried = CarriedOut()
    actions = ActionOut(many=True)
    cards = S.DictField(child=S.CharField(), help_text="Seat number → card text")
    meta = S.DictField(child=S.JSONField())


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


# ------------------------------------------------------------------ ledger, audit, standings


class TransferOut(S.Serializer):
    id = S.IntegerField()
    kind = S.ChoiceField(choices=Transfer.Kind.choices)
    amount = S.IntegerField()
    source = S.IntegerField()  # type: ignore[assignment]  # a field, not Field.source
    target = S.IntegerField()
    hand = nullable_int()
    action = nullable_int()
    reverses = nullable_int()
    memo = S.CharField(allow_blank=True)
    at = S.DateTimeField()


class DayNumberRef(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()


class TableRef(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()
    day = S.IntegerField(help_text="The table's day's number")


class HandRef(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()


class SeatRef(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()


class TokenRef(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()


class AuditEntryOut(S.Serializer):
    id = S.IntegerField()
    at = S.DateTimeField()
    actor = S.CharField(allow_null=True, help_text="Who did it (user name); null: the system")
    actor_id = nullable_int()
    verb = S.ChoiceField(choices=Verb.choices)
    verb_label = S.CharField(help_text="The kind of change in words")
    target = S.CharField(allow_blank=True, help_text="What it was done to, as it read then")
    # What it was done to, as references (null where it does not apply); a seat's entry names
    # its table and player too.
    day = DayNumberRef(allow_null=True)
    table = TableRef(allow_null=True)
    hand = HandRef(allow_null=True)
    seat = SeatRef(allow_null=True)
    player = PlayerRef(allow_null=True)
    token = TokenRef(allow_null=True, help_text="The device token the change was about")
    data = S.DictField(child=S.JSONField())  # type: ignore[assignment]  # a field
    device = S.CharField(allow_blank=True, help_text="Device, IP and user agent")
    device_token = nullable_int(help_text="The device token the change came through, if any")


def page_of(item: type[S.Serializer], name: str) -> type[S.Serializer]:
    """A ``LimitOffsetPagination`` page of ``item``."""
    fields = {
        "count": S.IntegerField(),
        "next": S.URLField(allow_null=True),
        "previous": S.URLField(allow_null=True),
        "results": item(many=True),
    }
    return type(name, (S.Serializer,), fields)


TransferPage = page_of(TransferOut, "TransferPage")
AuditPage = page_of(AuditEntryOut, "AuditPage")
PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description="At most this many (100 unless said; ≤ 1000)"),
    OpenApiParameter("offset", int, description="Skip this many"),
]


class StandingOut(S.Serializer):
    rank = nullable_int(help_text="None for a disqualified player (outside the ranking)")
    player = S.IntegerField()
    name = S.CharField()
    balance = S.IntegerField()
    stack = S.IntegerField()
    table = nullable_int(help_text="The table number where the player sits")
    total = S.IntegerField()
    change = S.IntegerField(help_text="Since the start of the day")
    hands_played = S.IntegerField()
    hands_won = S.IntegerField()
    disqualified = S.BooleanField(
        help_text="Disqualified (RULES §4b): listed last, outside the ranking"
    )
    standing = S.ChoiceField(
        choices=["qualified", "in", "out", "disqualified"],
        help_text="qualified: for the next day by the close of the day shown; in: plays the "
        "day shown, not yet cut; out: missed a cut or withdrew; disqualified",
    )
    note = S.CharField(help_text="The standing in words, e.g. 'qualified for day 2' ('' if in)")


class CutOut(S.Serializer):
    after = S.IntegerField(help_text="How many rows (in the order given) lie above the cut")
    text = S.CharField(help_text="The cut in words")


class SinceCloseOut(S.Serializer):
    player = S.IntegerField()
    name = S.CharField()
    text = S.CharField(help_text="The decision in words, e.g. 'let back in for day 2'")


class StandingsOut(S.Serializer):
    event = S.IntegerField()
    name = S.CharField()
    currency = S.CharField()
    day = nullable_int()
    scope = S.ChoiceField(choices=["day", "event"])
    standings = StandingOut(many=True)
    cut = CutOut(
        allow_null=True,
        help_text="Where the cut line falls (the close's, or where it would fall if the day "
        "closed now); null on the last day",
    )
    since_close = SinceCloseOut(
        many=True,
        help_text="A closed day's standings never change: the organiser's decisions since its "
        "close (players let back in for the next day) are listed here, beside them",
    )


# ------------------------------------------------------------------ me, tokens, login


class MySeatOut(S.Serializer):
    table = S.IntegerField()
    seat = S.IntegerField()
    stack = S.IntegerField()


class MyPlayerOut(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()
    balance = S.IntegerField()
    seat = MySeatOut(allow_null=True)


class MeOut(S.Serializer):
    username = S.CharField()
    role = S.ChoiceField(choices=ROLES)
    player = MyPlayerOut(required=False, help_text="Players only")


class MyShownHandOut(S.Serializer):
    seat = S.IntegerField()
    player = S.CharField()
    own = S.BooleanField(help_text="Your own hand")
    cards = S.CharField(help_text='As shown at the table, e.g. "As Ad 2c"')


class MyHandOut(S.Serializer):
    id = S.IntegerField()
    day = S.IntegerField()
    table = S.IntegerField()
    number = S.IntegerField()
    status = S.ChoiceField(choices=Hand.Status.choices)
    result = S.DictField(
        child=S.JSONField(),
        allow_null=True,
        help_text="The engine's outcome, with the cards of hands you may not see taken out",
    )
    cards = MyShownHandOut(
        many=True,
        help_text="Once the day is over: the hands shown at the table (at a see, for a covered "
        "pot or at an agreed showdown), yours among them; never a folded or unshown hand",
    )


class MyHandsOut(S.Serializer):
    hands = MyHandOut(many=True)


class TokenOut(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()
    user = S.CharField()
    prefix = S.CharField()
    active = S.BooleanField()
    last_used_at = S.DateTimeField(allow_null=True)


class TokensOut(S.Serializer):
    tokens = TokenOut(many=True)


class TokenIssuedOut(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()
    key = S.CharField(
        allow_null=True, help_text="Shown once; null when the request is a replay (same key)"
    )


class TokenRevokedOut(S.Serializer):
    id = S.IntegerField()
    active = S.BooleanField()


class OkOut(S.Serializer):
    ok = S.BooleanField()


class ShiftChangeOut(S.Serializer):
    dealer = S.CharField(help_text="Who takes the table, by name")
    at = S.DateTimeField()
    at_text = S.CharField(help_text="The time of the change, in the event's time zone (14:30)")
    overdue = S.BooleanField(help_text="The time has passed and someone else still deals")
    message = S.CharField(help_text="What the tablet says, in words")


class ShiftOut(S.Serializer):
    dealer = S.CharField(allow_null=True, help_text="Who deals at the table now (signed in)")
    dealer_username = S.CharField(allow_null=True)
    started_at = S.DateTimeField(allow_null=True)
    change = ShiftChangeOut(allow_null=True, help_text="The change of dealer the rota has due")


class MyShiftRelievedOut(S.Serializer):
    by = S.CharField(help_text="Who took over the table")
    at = S.DateTimeField()
    at_text = S.CharField(help_text="When, in the event's time zone (HH:MM)")
    message = S.CharField(help_text="The tablet's words")


class MyShiftOut(S.Serializer):
    table = S.IntegerField(allow_null=True, help_text="The table you are signed in to deal at")
    table_number = S.IntegerField(allow_null=True)
    dealing_here = S.BooleanField(help_text="Whether you are signed in to deal at this table")
    relieved = MyShiftRelievedOut(
        allow_null=True, help_text="You were relieved at this table (and have not come back)"
    )


class LoggedInOut(S.Serializer):
    username = S.CharField()
    role = S.ChoiceField(choices=ROLES)


class FloorTableRef(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField()


class FloorCallOut(S.Serializer):
    id = S.IntegerField()
    table = FloorTableRef()
    hand = nullable_int(help_text="The hand in play when the floor was called")
    note = S.CharField(allow_blank=True)
    status = S.ChoiceField(choices=["open", "taken", "resolved"])
    called_by = S.CharField(allow_null=True)
    called_at = S.DateTimeField()
    taken_by = S.CharField(allow_null=True)
    taken_at = S.DateTimeField(allow_null=True)
    resolved_at = S.DateTimeField(allow_null=True)


class FloorCallsOut(S.Serializer):
    calls = FloorCallOut(many=True)


class PenaltyOut(S.Serializer):
    id = S.IntegerField()
    player = S.IntegerField()
    kind = S.ChoiceField(choices=["warning", "missed_hands", "disqualified"])
    hands = S.IntegerField(help_text="Missed hands given (0 for the other kinds)")
    hands_left = S.IntegerField()
    given_at = S.DateTimeField()
    what_happened = S.CharField()
    decision = S.CharField()
    lifted = S.BooleanField()
    lift_reason = S.CharField(allow_blank=True)


class PenaltiesOut(S.Serializer):
    penalties = PenaltyOut(many=True)


class RulingOut(S.Serializer):
    id = S.IntegerField()
    call = nullable_int()
    table = S.IntegerField()
    hand = nullable_int()
    what_happened = S.CharField()
    decision = S.CharField()
    players = S.ListField(child=S.IntegerField())
    ruled_by = S.CharField(allow_null=True)
    ruled_at = S.DateTimeField()
    penalties = PenaltyOut(many=True)


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="The ETag of the answer you hold: 304 if it is still current",
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="1–200 printable characters, unique per user: a retry gets the first answer",
)
