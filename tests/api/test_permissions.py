"""The permission matrix: every route of API v1 against every role, and the query-set scoping
that keeps other tables out of lists and lookups.

Each cell starts from the same fresh state — built once for the module and rolled back after
every cell (``shared_api``, tests/api/conftest.py) — and sends a request that would succeed for
a role that is allowed, so a refusal can only come from the permission layer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import URLPattern

from brag_event.access.rules import PERMISSIONS
from brag_event.api.models import DeviceToken, token_hash
from brag_event.api.urls import v1
from brag_event.audit.models import AuditEntry
from brag_event.core.actors import Actor
from brag_event.events.models import Day
from brag_event.events.services import day_update_rules
from brag_event.floor.models import Ruling
from brag_event.floor.services import floor_call_open, ruling_record
from brag_event.hands.models import ActionVoid, Hand, HandAction
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_start
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import DealerShift, Seat, Table
from brag_event.tables.services import seat_buy_in, seat_leave, table_create
from brag_event.tables.shifts import shift_sign_in
from tests.exchange_world import minimal_document, past_event
from tests.factories import act, disqualify, start

from .conftest import SEEN_HAND, Api, assert_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unthrottled")]


@pytest.fixture
def api(shared_api: Api) -> Api:
    return shared_api


ROLES = ("anonymous", "player", "dealer", "other_dealer", "supervisor", "organiser")
REFUSAL_CODES = {401: "not_authenticated", 403: "forbidden", 404: "not_found"}


def call(client: Any, method: str, url: str, body: Any = None) -> Any:
    if method == "GET":
        return client.get(url)
    return client.post(url, body, format="json")


def snapshot() -> tuple[Any, ...]:
    """Everything a write could change."""
    return (
        HandAction.objects.count(),
        Transfer.objects.count(),
        ActionVoid.objects.count(),
        AuditEntry.objects.count(),
        tuple(Hand.objects.order_by("pk").values_list("pk", "status", "next_seq")),
        tuple(Seat.objects.order_by("pk").values_list("pk", "stack", "sitting_out", "left_at")),
        tuple(Player.objects.order_by("pk").values_list("pk", "balance")),
        tuple(DeviceToken.objects.order_by("pk").values_list("pk", "revoked_at")),
    )


# ------------------------------------------------------------------ state for the cells


def spare_token(api: Api) -> DeviceToken:
    key = DeviceToken.new_key()
    return DeviceToken.objects.create(
        user=api.users["dealer"], name="spare tablet", key_hash=token_hash(key), prefix=key[:6]
    )


def hand_to_show(api: Api) -> Hand:
    """A hand that was seen: seats 1 and 2 must show their cards."""
    hand = start(api.world)
    for action in SEEN_HAND:
        hand, state = act(hand, **action)
    assert state.cards_needed == [1, 2]
    return hand


def run_out_seat_2(api: Api) -> Seat:
    """Bill comes back to seat 2 with the table minimum and loses all of it to seat 3."""
    w = api.world
    seat_leave(seat=w.seat(2), by=None)
    seat_buy_in(table=w.table, seat_number=2, player=w.players[1], amount=w.day.table_min, by=None)
    hand = start(w)  # seat 1 deals: seat 2 speaks first
    for action in (
        {"seat": 2, "action": "look"},
        {"seat": 3, "action": "look"},
        {"seat": 1, "action": "look"},
        {"seat": 2, "action": "bet", "amount": 20},
        {"seat": 3, "action": "bet", "amount": 20},
        {"seat": 1, "action": "fold"},
    ):
        hand, state = act(hand, **action)
    while w.seat(2).stack >= 40:
        act(hand, seat=2, action="bet", amount=20)
        act(hand, seat=3, action="bet", amount=20)
    act(hand, seat=2, action="cover")
    act(hand, seat=3, action="show", cards="As Ad Ac")
    hand, state = act(hand, seat=2, action="show", cards="2s 3d 5c")
    assert state.is_settled and w.seat(2).stack == 0
    return w.seat(2)


def buy_in_request(api: Api) -> tuple[str, Any]:
    dan = player_register(event=api.world.event, name="Dan", starting_money=1000, by=None)
    body = {"seat": 4, "player": dan.pk, "amount": 200}
    return f"/api/v1/tables/{api.world.table.pk}/seats/", body


def action_request(api: Api) -> tuple[str, Any]:
    hand = start(api.world)
    body = {"seat": hand_state(hand).to_act, "action": "look", "expected_seq": hand.next_seq}
    return f"/api/v1/hands/{hand.pk}/actions/", body


def cards_request(api: Api) -> tuple[str, Any]:
    hand = hand_to_show(api)
    body = {"seat": 1, "cards": "Kh Kd 4c", "expected_seq": hand.next_seq}
    return f"/api/v1/hands/{hand.pk}/cards/", body


def void_request(api: Api) -> tuple[str, Any]:
    hand = start(api.world)
    hand, _state = act(hand, seat=hand_state(hand).to_act, action="fold")
    body = {"reason": "wrong seat", "expected_seq": hand.next_seq}
    return f"/api/v1/hands/{hand.pk}/void/", body


def take_back_request(api: Api, role: str) -> tuple[str, Any]:
    """The table's dealer entered a fold: theirs to take back (a supervisor's: anyone's). A
    dealer of the table takes back their own entry: the fold is entered as theirs."""
    hand = start(api.world)
    dealer = role if role.endswith("dealer") and role in api.users else "dealer"
    by = Actor(api.users[dealer], "tablet")
    hand, _state = act(hand, by=by, seat=hand_state(hand).to_act, action="fold")
    body = {"reason": "wrong_seat", "expected_seq": hand.next_seq}
    return f"/api/v1/hands/{hand.pk}/take-back/", body


def rebuy_request(api: Api) -> tuple[str, Any]:
    seat = run_out_seat_2(api)
    body = {"consenting": [api.world.players[0].pk, api.world.players[2].pk]}
    return f"/api/v1/seats/{seat.pk}/rebuy/", body


def misdeal_request(api: Api) -> tuple[str, Any]:
    hand = start(api.world)
    return f"/api/v1/hands/{hand.pk}/misdeal/", {"reason": "cards exposed", "expected_seq": 1}


def award_request(api: Api) -> tuple[str, Any]:
    """A pot of the antes, at or above the day's amount (1): it waits for a second member of
    staff. Entered by the system: a member of staff who may confirm it did not enter it."""
    w = api.world
    day_update_rules(day=w.day, changes={"award_confirm_from": 1}, by=None)
    hand = start(w)
    first = hand_state(hand).to_act
    act(hand, seat=first, action="look")  # a blind player folded to keeps the pot carried
    hand, _state = act(hand, seat=first, action="bet", amount=w.day.min_bet)
    while not hand_state(hand).is_settled:
        hand, _state = act(hand, seat=hand_state(hand).to_act, action="fold")
    return f"/api/v1/hands/{hand.pk}/award-confirm/", {}


def take_request(api: Api) -> tuple[str, Any]:
    call = floor_call_open(table=api.world.table, note="dispute", by=None)
    return f"/api/v1/floor-calls/{call.pk}/take/", None


def ruling_request(api: Api) -> tuple[str, Any]:
    w = api.world
    body = {
        "table": w.table.pk,
        "what_happened": "showed a card",
        "decision": "a warning",
        "players": [w.players[1].pk],
        "penalty": "warning",
    }
    return "/api/v1/rulings/", body


def warn(api: Api, player: Player) -> Ruling:
    return ruling_record(
        table=api.world.table,
        what_happened="talked about a hand",
        decision="a warning",
        players=[player.pk],
        penalty="warning",
        by=None,
    )


def lift_request(api: Api) -> tuple[str, Any]:
    w = api.world
    ruling = disqualify(w.table, w.players[2])
    return f"/api/v1/penalties/{ruling.penalties.get().pk}/lift/", {"reason": "appeal"}


def me_penalties(api: Api) -> tuple[str, Any]:
    warn(api, api.world.players[0])
    warn(api, api.world.players[1])
    return "/api/v1/me/penalties/", None


def me_penalties_check(api: Api, role: str, body: Any) -> None:
    seen = {p["player"] for p in body["penalties"]}
    assert seen == ({api.world.players[0].pk} if role == "player" else set())


def url_body(
    make: Callable[[Api], tuple[str, Any]],
) -> Callable[[Api, str], tuple[str, Any]]:
    return lambda api, role: make(api)


def login_body(api: Api, role: str) -> tuple[str, Any]:
    who = "player" if role == "anonymous" else role
    return "/api/v1/auth/login/", {"username": who, "password": f"{who}-pw"}


def login_check(api: Api, role: str, body: Any) -> None:
    assert body == {"username": "player" if role == "anonymous" else role, "role": body["role"]}


def day_tables_check(api: Api, role: str, body: Any) -> None:
    seen = [t["id"] for t in body["tables"]]
    assert seen == ([] if role == "other_dealer" else [api.world.table.pk])


def me_check(api: Api, role: str, body: Any) -> None:
    assert body["username"] == role
    if role == "player":
        assert body["player"]["id"] == api.world.players[0].pk
        assert body["player"]["seat"]["seat"] == 1
    else:
        assert "player" not in body


def person_check(api: Api, role: str, body: Any) -> None:
    assert body["number"] == api.world.players[0].person.number
    assert [e["event_name"] for e in body["events"]] == [api.world.event.name]


def exchange_check(api: Api, role: str, body: Any) -> None:
    assert body["format"] == "brag-results/1" and body["event"]["name"] == "Club night"


def tokens_check(api: Api, role: str, body: Any) -> None:
    assert all("key" not in t for t in body["tokens"])


def shift_check(api: Api, role: str, body: Any) -> None:
    if role.endswith("dealer"):
        assert body["dealer_username"] == role
    else:
        assert body["error"]["code"] == "not_a_dealer"


def my_shift_check(api: Api, role: str, body: Any) -> None:
    assert body == {"table": None, "table_number": None, "dealing_here": False, "relieved": None}


def shift_end_request(api: Api, role: str) -> tuple[str, Any]:
    """The table's dealer (the role itself, when it deals there) is signed in."""
    dealer = role if role in ("dealer", "here_dealer") else "dealer"
    shift_sign_in(table=api.world.table, by=Actor(api.users[dealer], "tablet"))
    return f"/api/v1/tables/{api.world.table.pk}/shift/end/", None


def shift_end_check(api: Api, role: str, body: Any) -> None:
    assert body["dealer"] is None
    assert DealerShift.objects.get().ended_how == "signed_out"


# ------------------------------------------------------------------ the matrix


@dataclass(frozen=True)
class Row:
    method: str
    route: str  # exactly as in brag_event.api.urls.v1
    request: Callable[[Api, str], tuple[str, Any]]
    # anonymous, player, dealer, other_dealer, supervisor, organiser
    expect: tuple[int, int, int, int, int, int]
    check: Callable[[Api, str, Any], None] | None = field(default=None)


MATRIX: list[Row] = [
    #   method route / request / expected: anon player dealer other super organiser
    Row(
        "GET",
        "events/",
        url_body(lambda a: ("/api/v1/events/", None)),
        (401, 200, 200, 200, 200, 200),
    ),
    Row(
        "GET",
        "events/<int:event_id>/",
        url_body(lambda a: (f"/api/v1/events/{a.world.event.pk}/", None)),
        (401, 200, 200, 200, 200, 200),
    ),
    Row(
        "GET",
        "events/<int:event_id>/ledger/",
        url_body(lambda a: (f"/api/v1/events/{a.world.event.pk}/ledger/", None)),
        (401, 403, 403, 403, 403, 200),
    ),
    Row(
        "GET",
        "events/<int:event_id>/audit/",
        url_body(lambda a: (f"/api/v1/events/{a.world.event.pk}/audit/", None)),
        (401, 403, 403, 403, 403, 200),
    ),
    Row(
        "GET",
        "events/<int:event_id>/standings/",
        url_body(lambda a: (f"/api/v1/events/{a.world.event.pk}/standings/", None)),
        (200, 200, 200, 200, 200, 200),
    ),
    Row(
        "GET",
        "days/<int:day_id>/tables/",
        url_body(lambda a: (f"/api/v1/days/{a.world.day.pk}/tables/", None)),
        (401, 403, 200, 200, 200, 200),
        day_tables_check,
    ),
    Row(
        "GET",
        "tables/<int:table_id>/",
        url_body(lambda a: (f"/api/v1/tables/{a.world.table.pk}/", None)),
        (401, 403, 200, 404, 200, 200),
    ),
    Row(
        "POST",
        "tables/<int:table_id>/hands/",
        url_body(lambda a: (f"/api/v1/tables/{a.world.table.pk}/hands/", None)),
        (401, 403, 201, 404, 201, 201),
    ),
    Row(
        "POST",
        "tables/<int:table_id>/seats/",
        url_body(buy_in_request),
        (401, 403, 201, 404, 201, 201),
    ),
    Row(
        "GET",
        "tables/<int:table_id>/shift/",
        url_body(lambda a: (f"/api/v1/tables/{a.world.table.pk}/shift/", None)),
        (401, 403, 200, 404, 200, 200),
    ),
    # Signing in to deal: a dealer's own table; staff who do not deal are told so (400).
    Row(
        "POST",
        "tables/<int:table_id>/shift/",
        url_body(lambda a: (f"/api/v1/tables/{a.world.table.pk}/shift/", None)),
        (401, 403, 200, 404, 400, 400),
        shift_check,
    ),
    # One's own shift (only one's own: readable after a relief took the table away).
    Row(
        "GET",
        "tables/<int:table_id>/my-shift/",
        url_body(lambda a: (f"/api/v1/tables/{a.world.table.pk}/my-shift/", None)),
        (401, 403, 200, 200, 200, 200),
        my_shift_check,
    ),
    # Signing out: the dealer's own shift; the floor ends a shift a dealer forgot.
    Row(
        "POST",
        "tables/<int:table_id>/shift/end/",
        shift_end_request,
        (401, 403, 200, 404, 200, 200),
        shift_end_check,
    ),
    Row(
        "GET",
        "hands/<int:hand_id>/",
        url_body(lambda a: (f"/api/v1/hands/{start(a.world).pk}/", None)),
        (401, 200, 200, 404, 200, 200),
    ),
    Row(
        "GET",
        "hands/<int:hand_id>/history/",
        url_body(lambda a: (f"/api/v1/hands/{start(a.world).pk}/history/", None)),
        (401, 200, 200, 404, 200, 200),
    ),
    Row(
        "POST",
        "hands/<int:hand_id>/actions/",
        url_body(action_request),
        (401, 403, 201, 404, 201, 201),
    ),
    Row(
        "POST",
        "hands/<int:hand_id>/cards/",
        url_body(cards_request),
        (401, 403, 201, 404, 201, 201),
    ),
    Row(
        "POST",
        "hands/<int:hand_id>/void/",
        url_body(void_request),
        (401, 403, 403, 403, 200, 200),
    ),
    Row(
        "POST",
        "hands/<int:hand_id>/take-back/",
        take_back_request,
        (401, 403, 200, 404, 200, 200),
    ),
    Row(
        "POST",
        "seats/<int:seat_id>/rebuy/",
        url_body(rebuy_request),
        (401, 403, 200, 404, 200, 200),
    ),
    Row(
        "POST",
        "seats/<int:seat_id>/sit-out/",
        url_body(lambda a: (f"/api/v1/seats/{a.world.seat(3).pk}/sit-out/", {"sitting_out": True})),
        (401, 403, 200, 404, 200, 200),
    ),
    Row(
        "POST",
        "seats/<int:seat_id>/leave/",
        url_body(lambda a: (f"/api/v1/seats/{a.world.seat(3).pk}/leave/", None)),
        (401, 403, 200, 404, 200, 200),
    ),
    Row(
        "POST",
        "hands/<int:hand_id>/misdeal/",
        url_body(misdeal_request),
        (401, 403, 403, 403, 200, 200),
    ),
    Row(
        "POST",
        "hands/<int:hand_id>/award-confirm/",
        url_body(award_request),
        (401, 403, 403, 404, 200, 200),
    ),
    Row(
        "POST",
        "tables/<int:table_id>/floor-calls/",
        url_body(lambda a: (f"/api/v1/tables/{a.world.table.pk}/floor-calls/", {"note": "x"})),
        (401, 403, 201, 404, 201, 201),
    ),
    Row(
        "GET",
        "events/<int:event_id>/floor-calls/",
        url_body(lambda a: (f"/api/v1/events/{a.world.event.pk}/floor-calls/", None)),
        (401, 403, 403, 403, 200, 200),
    ),
    Row(
        "POST",
        "floor-calls/<int:call_id>/take/",
        url_body(take_request),
        (401, 403, 403, 403, 200, 200),
    ),
    Row("POST", "rulings/", url_body(ruling_request), (401, 403, 403, 403, 201, 201)),
    Row(
        "POST",
        "penalties/<int:penalty_id>/lift/",
        url_body(lift_request),
        (401, 403, 403, 403, 403, 200),
    ),
    Row(
        "GET",
        "players/<int:player_id>/penalties/",
        url_body(
            lambda a: (
                f"/api/v1/players/{warn(a, a.world.players[0]).players.get().pk}/penalties/",
                None,
            )
        ),
        (401, 403, 403, 403, 200, 200),
    ),
    Row(
        "GET",
        "me/penalties/",
        url_body(me_penalties),
        (401, 200, 200, 200, 200, 200),
        me_penalties_check,
    ),
    Row(
        "GET",
        "me/",
        url_body(lambda a: ("/api/v1/me/", None)),
        (401, 200, 200, 200, 200, 200),
        me_check,
    ),
    Row(
        "GET",
        "me/hands/",
        url_body(lambda a: ("/api/v1/me/hands/", None)),
        (401, 200, 200, 200, 200, 200),
    ),
    Row(
        "GET",
        "tokens/",
        url_body(lambda a: ("/api/v1/tokens/", None)),
        (401, 403, 403, 403, 403, 200),
        tokens_check,
    ),
    Row(
        "POST",
        "tokens/",
        url_body(
            lambda a: ("/api/v1/tokens/", {"user": a.users["dealer"].pk, "name": "new tablet"})
        ),
        (401, 403, 403, 403, 403, 201),
    ),
    Row(
        "POST",
        "tokens/<int:token_id>/revoke/",
        url_body(lambda a: (f"/api/v1/tokens/{spare_token(a).pk}/revoke/", None)),
        (401, 403, 403, 403, 403, 200),
    ),
    Row(
        "POST",
        "events/<int:event_id>/players/",
        url_body(
            lambda a: (
                f"/api/v1/events/{a.world.event.pk}/players/",
                {"name": "Newcomer Nell", "starting_money": 100},
            )
        ),
        (401, 403, 403, 403, 403, 201),
    ),
    Row(
        "GET",
        "people/<int:person_id>/",
        url_body(lambda a: (f"/api/v1/people/{a.world.players[0].person_id}/", None)),
        (401, 403, 403, 403, 403, 200),
        person_check,
    ),
    Row(
        "GET",
        "events/<int:event_id>/results-exchange/",
        url_body(lambda a: (f"/api/v1/events/{past_event().pk}/results-exchange/", None)),
        (401, 403, 403, 403, 403, 200),
        exchange_check,
    ),
    Row(
        "POST",
        "results-exchange/",
        url_body(lambda a: ("/api/v1/results-exchange/", minimal_document())),
        (401, 403, 403, 403, 403, 201),
    ),
    Row(
        "GET",
        "auth/csrf/",
        url_body(lambda a: ("/api/v1/auth/csrf/", None)),
        (200, 200, 200, 200, 200, 200),
    ),
    Row("POST", "auth/login/", login_body, (200, 200, 200, 200, 200, 200), login_check),
    Row(
        "POST",
        "auth/logout/",
        url_body(lambda a: ("/api/v1/auth/logout/", None)),
        (401, 200, 200, 200, 200, 200),
    ),
]


def implemented_methods(pattern: URLPattern) -> set[str]:
    view_class = pattern.callback.view_class  # type: ignore[attr-defined]
    return {m.upper() for m in ("get", "post", "put", "patch", "delete") if hasattr(view_class, m)}


def test_the_matrix_covers_every_route_and_method_of_v1() -> None:
    routes = {
        (m, str(p.pattern)) for p in v1 if isinstance(p, URLPattern) for m in implemented_methods(p)
    }
    assert len(v1) == len({str(p.pattern) for p in v1})
    rows = [(row.method, row.route) for row in MATRIX]
    assert len(rows) == len(set(rows)), "a route is in the matrix twice"
    assert set(rows) == routes


# The routes that name no permission: open to all, or to anyone signed in whose rows the
# querysets then scope (their own hands, their own account).
OPEN_ROUTES = {
    "events/",
    "events/<int:event_id>/",
    "events/<int:event_id>/standings/",
    "hands/<int:hand_id>/",
    "hands/<int:hand_id>/history/",
    "me/",
    "me/hands/",
    "me/penalties/",
    "auth/csrf/",
    "auth/login/",
    "auth/logout/",
}


def test_every_route_states_its_permission_by_name() -> None:
    """One way to say who may do what: a route either names one permission of
    ``access.rules`` (``Can``) or is one of the open routes above; no role classes."""
    named: dict[str, str] = {}
    for p in v1:
        assert isinstance(p, URLPattern)
        classes = p.callback.view_class.permission_classes  # type: ignore[attr-defined]
        names = [getattr(c, "permission", None) for c in classes]
        route = str(p.pattern)
        if route in OPEN_ROUTES:
            assert names == [None], route
            continue
        assert len(names) == 1 and names[0] in PERMISSIONS, (route, classes)
        named[route] = names[0]
    assert {str(p.pattern) for p in v1} >= OPEN_ROUTES
    assert (
        named["rulings/"] == "floor.rule" and named["hands/<int:hand_id>/void/"] == "hand.correct"
    )


CELLS = [
    pytest.param(row, role, status, id=f"{row.method} {row.route} as {role}")
    for row in MATRIX
    for role, status in zip(ROLES, row.expect, strict=True)
]


@pytest.mark.parametrize(("row", "role", "status"), CELLS)
def test_permission_matrix(api: Api, row: Row, role: str, status: int) -> None:
    url, body = row.request(api, role)
    before = snapshot()
    response = call(api.client(role), row.method, url, body)
    if status in REFUSAL_CODES:
        assert_error(response, status, REFUSAL_CODES[status])
        assert snapshot() == before, "a refused request changed something"
        return
    assert response.status_code == status, (response.status_code, response.content[:500])
    if row.check is not None:
        row.check(api, role, response.json())
    if row.method == "POST" and status < 400 and row.route not in ("auth/login/", "auth/logout/"):
        assert snapshot() != before, "an accepted write changed nothing"


# ------------------------------------------------------------------ query-set scoping


@dataclass
class TwoTables:
    day: Day
    mine: Table
    other: Table
    other_seat: Seat


def second_table(api: Api) -> TwoTables:
    """Table 2 on the same day, not assigned to ``dealer``, with Dan and Eddie seated."""
    w = api.world
    other = table_create(day=w.day, by=None)
    seats = []
    for number, name in ((1, "Dan"), (2, "Eddie")):
        player = player_register(event=w.event, name=name, starting_money=1000, by=None)
        seats.append(
            seat_buy_in(table=other, seat_number=number, player=player, amount=200, by=None)
        )
    return TwoTables(w.day, w.table, other, seats[0])


def table_ids(api: Api, role: str, day: Day) -> list[int]:
    response = api.client(role).get(f"/api/v1/days/{day.pk}/tables/")
    assert response.status_code == 200, response.json()
    return [t["id"] for t in response.json()["tables"]]


def test_a_dealer_sees_and_operates_only_their_own_table(api: Api) -> None:
    two = second_table(api)
    dealer = api.client("dealer")
    assert table_ids(api, "dealer", two.day) == [two.mine.pk]
    assert table_ids(api, "supervisor", two.day) == [two.mine.pk, two.other.pk]
    assert table_ids(api, "organiser", two.day) == [two.mine.pk, two.other.pk]

    # Table-level lookups and writes on the other table: hidden, and nothing changes.
    fred = player_register(event=two.day.event, name="Fred", starting_money=500, by=None)
    before = snapshot()
    assert_error(dealer.get(f"/api/v1/tables/{two.other.pk}/"), 404, "not_found")
    for method, url, body in (
        ("POST", f"/api/v1/tables/{two.other.pk}/hands/", None),
        (
            "POST",
            f"/api/v1/tables/{two.other.pk}/seats/",
            {"seat": 3, "player": fred.pk, "amount": 200},
        ),
        ("POST", f"/api/v1/seats/{two.other_seat.pk}/sit-out/", {"sitting_out": True}),
        ("POST", f"/api/v1/seats/{two.other_seat.pk}/leave/", None),
    ):
        assert_error(call(dealer, method, url, body), 404, "not_found")
    assert snapshot() == before

    # Hands of the other table: invisible to the dealer (and to a player not dealt in).
    theirs = hand_start(table=two.other, by=None)
    ours = hand_start(table=two.mine, by=None)
    fold = {"seat": hand_state(theirs).to_act, "action": "fold", "expected_seq": 1}
    before = snapshot()
    hand_requests: list[tuple[str, str, Any]] = [
        ("GET", f"/api/v1/hands/{theirs.pk}/", None),
        ("GET", f"/api/v1/hands/{theirs.pk}/history/", None),
        ("POST", f"/api/v1/hands/{theirs.pk}/actions/", fold),
        # No cards are due yet: an allowed role would get 400, the dealer gets 404 before that.
        ("POST", f"/api/v1/hands/{theirs.pk}/cards/", {"seat": 1, "cards": "As Ad Ac", **fold}),
    ]
    for method, url, body in hand_requests:
        assert_error(call(dealer, method, url, body), 404, "not_found")
        if method == "GET":
            assert_error(call(api.client("player"), method, url, body), 404, "not_found")
    assert snapshot() == before
    assert api.client("player").get(f"/api/v1/hands/{ours.pk}/").status_code == 200
    mine = [h["id"] for h in api.client("player").get("/api/v1/me/hands/").json()["hands"]]
    assert mine == [ours.pk]

    # A supervisor sees and operates both tables; the body refused to the dealer was a good one.
    supervisor = api.client("supervisor")
    assert supervisor.get(f"/api/v1/tables/{two.other.pk}/").status_code == 200
    assert supervisor.get(f"/api/v1/hands/{theirs.pk}/history/").status_code == 200
    done = call(supervisor, "POST", f"/api/v1/hands/{theirs.pk}/actions/", fold)
    assert done.status_code == 201, done.json()


def test_after_the_day_is_closed_only_the_organiser_sees_its_tables(api: Api) -> None:
    two = second_table(api)
    hand = hand_start(table=two.mine, by=None)
    Day.objects.filter(pk=two.day.pk).update(status=Day.Status.CLOSED)
    assert table_ids(api, "dealer", two.day) == []
    assert table_ids(api, "supervisor", two.day) == []
    assert table_ids(api, "organiser", two.day) == [two.mine.pk, two.other.pk]
    for role in ("dealer", "supervisor"):
        client = api.client(role)
        # Their table's state is not shown: only that its day is closed (for the tablet to say).
        assert_error(client.get(f"/api/v1/tables/{two.mine.pk}/"), 409, "day_closed")
        assert_error(client.get(f"/api/v1/hands/{hand.pk}/"), 404, "not_found")
    assert_error(api.client("dealer").get(f"/api/v1/tables/{two.other.pk}/"), 404, "not_found")
    assert api.client("organiser").get(f"/api/v1/tables/{two.mine.pk}/").status_code == 200
    assert api.client("organiser").get(f"/api/v1/hands/{hand.pk}/").status_code == 200


# ------------------------------------------------------------------ staff of one event
#
# The same requests, by staff of one event (``access.StaffRole``): of this event ("here_*",
# who do what the same role for every event does — but manage only their own event's staff's
# tokens) and of ANOTHER event ("away_*", refused on everything of this event although their
# dealer is even on this table's list). Expected per role in SCOPED_ROLES order.

SCOPED_ROLES = (
    "here_organiser",
    "here_supervisor",
    "here_dealer",
    "away_organiser",
    "away_supervisor",
    "away_dealer",
)
HERE_AS = {"here_organiser": "organiser", "here_supervisor": "supervisor", "here_dealer": "dealer"}

AWAY: dict[tuple[str, str], tuple[int, int, int]] = {
    # (method, route): away organiser, supervisor, dealer
    ("GET", "events/"): (200, 200, 200),
    ("GET", "events/<int:event_id>/"): (200, 200, 200),
    ("GET", "events/<int:event_id>/ledger/"): (403, 403, 403),
    ("GET", "events/<int:event_id>/audit/"): (403, 403, 403),
    ("GET", "events/<int:event_id>/standings/"): (200, 200, 200),
    ("GET", "days/<int:day_id>/tables/"): (403, 403, 403),
    ("GET", "tables/<int:table_id>/"): (403, 403, 403),
    ("POST", "tables/<int:table_id>/hands/"): (403, 403, 403),
    ("POST", "tables/<int:table_id>/seats/"): (403, 403, 403),
    ("GET", "hands/<int:hand_id>/"): (404, 404, 404),
    ("GET", "hands/<int:hand_id>/history/"): (404, 404, 404),
    ("POST", "hands/<int:hand_id>/actions/"): (403, 403, 403),
    ("POST", "hands/<int:hand_id>/cards/"): (403, 403, 403),
    ("POST", "hands/<int:hand_id>/void/"): (403, 403, 403),
    ("POST", "hands/<int:hand_id>/take-back/"): (403, 403, 403),
    ("POST", "seats/<int:seat_id>/rebuy/"): (403, 403, 403),
    ("POST", "seats/<int:seat_id>/sit-out/"): (403, 403, 403),
    ("POST", "seats/<int:seat_id>/leave/"): (403, 403, 403),
    ("POST", "hands/<int:hand_id>/misdeal/"): (403, 403, 403),
    ("POST", "hands/<int:hand_id>/award-confirm/"): (403, 403, 403),
    ("POST", "tables/<int:table_id>/floor-calls/"): (403, 403, 403),
    ("GET", "events/<int:event_id>/floor-calls/"): (403, 403, 403),
    ("POST", "floor-calls/<int:call_id>/take/"): (403, 403, 403),
    ("GET", "tables/<int:table_id>/shift/"): (403, 403, 403),
    ("POST", "tables/<int:table_id>/shift/"): (403, 403, 403),
    ("POST", "tables/<int:table_id>/shift/end/"): (403, 403, 403),
    ("GET", "tables/<int:table_id>/my-shift/"): (403, 403, 403),
    # The table is named in the body: a supervisor somewhere passes the first check, then is
    # told there is no such table in their event (400 unknown_table, as for a table that does
    # not exist: access.scoping); a dealer is refused first.
    ("POST", "rulings/"): (400, 400, 403),
    ("POST", "penalties/<int:penalty_id>/lift/"): (403, 403, 403),
    ("GET", "players/<int:player_id>/penalties/"): (403, 403, 403),
    ("GET", "me/penalties/"): (200, 200, 200),
    ("GET", "me/"): (200, 200, 200),
    ("GET", "me/hands/"): (200, 200, 200),
    # An organiser of another event sees their own staff's tokens (none here), may not issue
    # one for this event's dealer (400: no such user of theirs) nor revoke theirs (404).
    ("GET", "tokens/"): (200, 403, 403),
    ("POST", "tokens/"): (400, 403, 403),
    ("POST", "tokens/<int:token_id>/revoke/"): (404, 403, 403),
    # Registering needs the event's organiser; people's pages an organiser of every event.
    ("POST", "events/<int:event_id>/players/"): (403, 403, 403),
    ("GET", "people/<int:person_id>/"): (403, 403, 403),
    # The results file: of a past event (not theirs); an import needs an organiser of every
    # event.
    ("GET", "events/<int:event_id>/results-exchange/"): (403, 403, 403),
    ("POST", "results-exchange/"): (403, 403, 403),
    ("GET", "auth/csrf/"): (200, 200, 200),
    ("POST", "auth/login/"): (200, 200, 200),
    ("POST", "auth/logout/"): (200, 200, 200),
}


def scoped_expected(row: Row, role: str) -> int:
    if role in HERE_AS:
        if role == "here_organiser" and row.route == "tokens/" and row.method == "POST":
            return 400  # the dealer of the matrix is staff of every event: not theirs to manage
        if role == "here_organiser" and row.route == "tokens/<int:token_id>/revoke/":
            return 404  # likewise that dealer's token
        if role == "here_organiser" and row.route == "people/<int:person_id>/":
            return 403  # a person spans events: organisers of every event only
        if role == "here_organiser" and "results-exchange" in row.route:
            return 403  # a past event's file (not their event's); an import: every event's
        return row.expect[ROLES.index(HERE_AS[role])]
    return AWAY[(row.method, row.route)][SCOPED_ROLES.index(role) - 3]


def test_the_scoped_table_covers_every_row() -> None:
    assert set(AWAY) == {(row.method, row.route) for row in MATRIX}


SCOPED_CELLS = [
    pytest.param(row, role, id=f"{row.method} {row.route} as {role}")
    for row in MATRIX
    for role in SCOPED_ROLES
]


@pytest.mark.parametrize(("row", "role"), SCOPED_CELLS)
def test_staff_of_one_event(api: Api, row: Row, role: str) -> None:
    status = scoped_expected(row, role)
    url, body = row.request(api, role)
    before = snapshot()
    response = call(api.client(role), row.method, url, body)
    if status in REFUSAL_CODES:
        assert_error(response, status, REFUSAL_CODES[status])
        assert snapshot() == before, "a refused request changed something"
        return
    if status == 400:
        code = {"tables/<int:table_id>/shift/": "not_a_dealer", "rulings/": "unknown_table"}
        assert_error(response, 400, code.get(row.route, "unknown_user"))
        assert snapshot() == before
        return
    assert response.status_code == status, (response.status_code, response.content[:500])
    if row.check is not None and row.check not in (me_check, login_check, day_tables_check):
        row.check(api, role, response.json())
    if row.method == "POST" and status < 400 and row.route not in ("auth/login/", "auth/logout/"):
        assert snapshot() != before, "an accepted write changed nothing"


def test_scoped_staff_see_their_own_event_only(api: Api) -> None:
    """The day's tables: this event's scoped dealer sees the table assigned; the other event's
    dealer (on the list by mistake) is refused; me/ says each one's role."""
    day = api.world.day.pk
    assert table_ids(api, "here_dealer", api.world.day) == [api.world.table.pk]
    assert table_ids(api, "here_supervisor", api.world.day) == [api.world.table.pk]
    for role in ("away_dealer", "away_supervisor", "away_organiser"):
        assert_error(api.client(role).get(f"/api/v1/days/{day}/tables/"), 403, "forbidden")
    for role in SCOPED_ROLES:
        me = api.client(role).get("/api/v1/me/").json()
        assert me == {"username": role, "role": role.split("_", 1)[1]}
        # The events listed: their own only (the tablet lists no other event's days).
        names = [e["name"] for e in api.client(role).get("/api/v1/events/").json()["events"]]
        assert names == (["FLASH"] if role.startswith("here") else ["Elsewhere Open"]), role
    everyone = api.client("dealer").get("/api/v1/events/").json()["events"]
    assert sorted(e["name"] for e in everyone) == ["Elsewhere Open", "FLASH"]
