"""No id crosses an event (``access.scoping``): every write route of the API and the console —
taken from the URL configuration — is sent by staff of event A with each id it takes (in its
address, its body, its form or its query string) replaced in turn by the id of the same kind of
row of event B. Each must be refused (4xx, with the refusal of an id that names nothing) and
store nothing (no row in any of the project's tables, nothing a write would change); then the
request as it was, all of A, must be accepted — so the refusal came from the id.

A write route this walk does not know fails it: a new route is walked, or listed (with why) among
the routes that take no id of an event.

One world for the module (event A with its staff of that event only, from the API's tests'
``build_api``; event B with a row of every kind), rolled back after each test; each swapped
request is also rolled back by itself."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.cache import cache, caches
from django.db import connection, transaction
from django.forms import ModelChoiceField
from django.test import Client
from django.urls import URLPattern, resolve
from django.utils import timezone
from rest_framework import serializers

from brag_event.access.models import StaffRole
from brag_event.access.rules import EVENT_OF
from brag_event.access.scoping import (
    EVENT_PATHS,
    EventScopedChoiceField,
    EventScopedMultipleChoiceField,
    event_of_row,
    noun_of,
    rows_of_events,
)
from brag_event.api import resources
from brag_event.api.models import DeviceToken
from brag_event.api.resources.fields import EventScopedId
from brag_event.closing.count import table_count_enter
from brag_event.closing.models import SeatCount
from brag_event.closing.services import day_close_request
from brag_event.core.actors import Actor
from brag_event.core.forms import Inputs
from brag_event.events.hall import announcement_post
from brag_event.events.models import Day, Event
from brag_event.floor.services import floor_call_open, ruling_record
from brag_event.hands.models import Hand
from brag_event.notify.feed import feed_refresh
from brag_event.notify.models import FeedEntry
from brag_event.players.checkin import checkin_window_set, player_check_in
from brag_event.players.imports import players_import_preview
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat, Table
from brag_event.tables.seating import balance_proposals, seating_draw
from brag_event.tables.services import seat_buy_in, seat_sit_out, table_create
from brag_event.tables.shifts import shift_sign_in
from tests.api.conftest import Api, assert_error, build_api, key_client, token_key
from tests.api.test_permissions import (
    action_request,
    award_request,
    buy_in_request,
    cards_request,
    lift_request,
    misdeal_request,
    rebuy_request,
    snapshot,
    take_back_request,
    take_request,
    void_request,
)
from tests.core.hostile import ROOT, routes
from tests.factories import World, disqualify, played, start, world
from tests.once import built_once

pytestmark = pytest.mark.django_db

# ------------------------------------------------------------------ the world: events A and B

# The kind of row each address keyword names (``rules.EVENT_OF``, with the event's and the
# device token's, which belongs to the staff of an event).
URL_KINDS = {
    "event_id": "event",
    **{k: k.removesuffix("_id") for k in EVENT_OF},
    "token_id": "token",
}
KIND_MODELS = {
    "event": "events.Event",
    "day": "events.Day",
    "table": "tables.Table",
    "seat": "tables.Seat",
    "hand": "hands.Hand",
    "player": "players.Player",
    "call": "floor.FloorCall",
    "penalty": "floor.Penalty",
    "batch": "players.ImportBatch",
    "announcement": "events.Announcement",
    "feed_entry": "notify.FeedEntry",
    "draw": "tables.SeatingDraw",
    "seat_count": "closing.SeatCount",
    "user": "auth.User",
    "token": "api.DeviceToken",
}


@dataclass(frozen=True)
class Built:
    a: dict[str, Any]  # what the API's tests' ``build_api`` made (event A), by id
    keys: dict[str, str | None]
    b: dict[str, int]  # a row of every kind in event B, by kind


def build_b() -> dict[str, int]:
    """Event B: its day 1 closing with the tables' count entered (so that a seat's count
    exists), after a hand played, a floor call, a warning, an announcement, a seating draw and
    a file of players previewed; a dealer of B only, with a device token."""
    b = world(3, name="Other Open", count=True)
    dealer = User.objects.create_user("b_dealer", password="x")
    StaffRole.objects.create(user=dealer, event=b.event, role="dealer")
    b.table.dealers.add(dealer)
    token_key(dealer, "B's tablet")
    hand = played(b)
    call = floor_call_open(table=b.table, hand=hand, note="B", by=None)
    warned = ruling_record(
        table=b.table,
        what_happened="talked",
        decision="warning",
        players=[b.players[0].pk],
        penalty="warning",
        by=None,
    )
    said = announcement_post(event=b.event, text="B's news", by=None)
    draw = seating_draw(day=b.day, seed="B", by=None)
    batch = players_import_preview(event=b.event, data=b"name\nZed\n", by=None)
    feed_refresh(event_id=b.event.pk)  # its feed: the day opened, the announcement
    day_close_request(day=b.day, by=None)
    stacks = {s.number: s.stack for s in Seat.objects.filter(table=b.table, left_at=None)}
    table_count_enter(table=b.table, counts={**stacks, 1: stacks[1] + 5}, by=None)
    return {
        "event": b.event.pk,
        "day": b.day.pk,
        "table": b.table.pk,
        "seat": b.seats[1].pk,
        "hand": hand.pk,
        "player": b.players[1].pk,
        "call": call.pk,
        "penalty": warned.penalties.get().pk,
        "batch": batch.pk,
        "announcement": said.pk,
        "feed_entry": FeedEntry.objects.filter(event=b.event).values_list("pk", flat=True)[0],
        "draw": draw.pk,
        "seat_count": SeatCount.objects.get(seat__table=b.table, seat__number=1).pk,
        "user": dealer.pk,
        "token": DeviceToken.objects.get(user=dealer).pk,
    }


@pytest.fixture(scope="module")
def built(django_db_setup: None, django_db_blocker: Any) -> Iterator[Built]:
    def build() -> Built:
        api, keys = build_api()
        w = api.world
        a = {
            "event": w.event.pk,
            "day": w.day.pk,
            "table": w.table.pk,
            "players": [p.pk for p in w.players],
            "seats": [s.pk for s in w.seats],
            "users": {role: user.pk for role, user in api.users.items()},
        }
        return Built(a=a, keys=keys, b=build_b())

    yield from built_once(django_db_blocker, build)


@dataclass
class Ctx:
    """A test's view of the world: event A as the API's tests see it, B's rows by kind, and
    the fixtures a builder may need."""

    api: Api
    b: dict[str, int]
    commits: Any

    @property
    def w(self) -> World:
        return self.api.world

    def user(self, role: str) -> User:
        return self.api.users[role]


@pytest.fixture
def ctx(built: Built, db: Any, django_capture_on_commit_callbacks: Any) -> Ctx:
    cache.clear()
    caches["throttle"].clear()
    a = built.a
    players = Player.objects.in_bulk(a["players"])
    seats = Seat.objects.in_bulk(a["seats"])
    users = User.objects.in_bulk(list(a["users"].values()))
    w = World(
        event=Event.objects.get(pk=a["event"]),
        day=Day.objects.get(pk=a["day"]),
        table=Table.objects.get(pk=a["table"]),
        players=[players[pk] for pk in a["players"]],
        seats=[seats[pk] for pk in a["seats"]],
    )
    api = Api(
        w,
        {role: users[pk] for role, pk in a["users"].items()},
        {role: key_client(key) for role, key in built.keys.items()},
    )
    return Ctx(api, built.b, django_capture_on_commit_callbacks)


# ------------------------------------------------------------------ good requests in event A
#
# Each returns (url, body) of a request that staff of event A may send and that is accepted;
# the walk swaps its ids. API builders come from the permission matrix where they fit.


def api_(build: Callable[[Api], tuple[str, Any]]) -> Callable[[Ctx], tuple[str, Any]]:
    return lambda c: build(c.api)


def floor_call_request(c: Ctx) -> tuple[str, Any]:
    hand = start(c.w)
    return f"/api/v1/tables/{c.w.table.pk}/floor-calls/", {"hand": hand.pk, "note": "dispute"}


def ruling_request(c: Ctx) -> tuple[str, Any]:
    """A ruling answering a call, naming its table, its hand and a player: four ids."""
    hand = start(c.w)
    call = floor_call_open(table=c.w.table, hand=hand, note="dispute", by=None)
    body = {
        "call": call.pk,
        "table": c.w.table.pk,
        "hand": hand.pk,
        "what_happened": "showed a card",
        "decision": "a warning",
        "players": [c.w.players[1].pk],
        "penalty": "warning",
    }
    return "/api/v1/rulings/", body


def shift_end_request(c: Ctx) -> tuple[str, Any]:
    shift_sign_in(table=c.w.table, by=Actor(c.user("here_dealer"), "tablet"))
    return f"/api/v1/tables/{c.w.table.pk}/shift/end/", None


def token_revoke_request(c: Ctx) -> tuple[str, Any]:
    token = DeviceToken.objects.filter(user=c.user("here_dealer")).first()
    assert token is not None
    return f"/api/v1/tokens/{token.pk}/revoke/", None


def audit_query(c: Ctx) -> tuple[str, Any]:
    query = {"table": c.w.table.pk, "player": c.w.players[0].pk, "actor": c.user("dealer").pk}
    # The world's dealer did something in A: a sit-out, so that the filters find an entry.
    seat_sit_out(seat=c.w.seat(2), sitting_out=True, by=Actor(c.user("dealer"), "tablet"))
    return f"/api/v1/events/{c.w.event.pk}/audit/", query


def counting(c: Ctx) -> Day:
    """A's day 1 closing, waiting for its tables' count (a hand played first)."""
    Event.objects.filter(pk=c.w.event.pk).update(count_at_close=True)
    played(c.w)
    day_close_request(day=Day.objects.get(pk=c.w.day.pk), by=None)
    return Day.objects.get(pk=c.w.day.pk)


def counted(c: Ctx) -> SeatCount:
    """A's table counted with a difference at seat 1."""
    counting(c)
    stacks = {s.number: s.stack for s in Seat.objects.filter(table=c.w.table, left_at=None)}
    table_count_enter(table=c.w.table, counts={**stacks, 1: stacks[1] + 5}, by=None)
    return SeatCount.objects.get(seat__table=c.w.table, seat__number=1)


def day_2(c: Ctx) -> Day:
    return c.w.event.days.get(number=2)


def day_2_after_the_close(c: Ctx) -> Day:
    """A's day 1 closed (its close run on commit), Poor (50) not through to day 2."""
    player_register(event=c.w.event, name="Poor", starting_money=50, by=None)
    with c.commits(execute=True):
        day_close_request(day=Day.objects.get(pk=c.w.day.pk), by=None)
    assert Day.objects.get(pk=c.w.day.pk).status == Day.Status.CLOSED
    return day_2(c)


def day_rules_form(day: Day) -> dict[str, Any]:
    """A day's rules as its set-up form posts them, with a change (the house fee)."""
    posted: dict[str, Any] = {}
    for name, value in day.settings_dict().items():
        if value is True:
            posted[name] = "on"
        elif value is not False and value is not None:
            posted[name] = str(value)
    posted["house_fee"] = str(int(posted["house_fee"]) + 1)
    posted["reason"] = "agreed with the club"
    return posted


def requalify_request(c: Ctx) -> tuple[str, Any]:
    day = day_2_after_the_close(c)
    poor = Player.objects.get(event=c.w.event, name="Poor")
    return f"/organiser/days/{day.pk}/requalify/", {"player": poor.pk, "reason": "a sponsor"}


def staff_off_request(c: Ctx) -> tuple[str, Any]:
    return (
        f"/organiser/events/{c.w.event.pk}/staff/",
        {"form": "off", "user": c.user("here_dealer").pk},
    )


def staff_on_request(c: Ctx) -> tuple[str, Any]:
    User.objects.filter(pk=c.user("here_dealer").pk).update(is_active=False)
    return (
        f"/organiser/events/{c.w.event.pk}/staff/",
        {"form": "on", "user": c.user("here_dealer").pk},
    )


def staff_password_request(c: Ctx) -> tuple[str, Any]:
    body = {"form": "password", "user": c.user("here_dealer").pk, "password": "a-new-pw-1234"}
    return f"/organiser/events/{c.w.event.pk}/staff/", body


def seating_apply_request(c: Ctx) -> tuple[str, Any]:
    """Applying a draw of A's day 1, asked first (the answer asks; nothing is applied)."""
    draw = seating_draw(day=c.w.day, seed="A", by=None)
    return f"/organiser/days/{c.w.day.pk}/seating/", {"form": "apply", "draw": draw.pk}


def balance_request(c: Ctx) -> tuple[str, Any]:
    """A second table of A's day with one player: moving a player from table 1 evens them."""
    second = table_create(day=c.w.day, by=None)
    dan = player_register(event=c.w.event, name="Dan", starting_money=1000, by=None)
    seat_buy_in(table=second, seat_number=1, player=dan, amount=200, by=None)
    proposal = balance_proposals(day=Day.objects.get(pk=c.w.day.pk))[0]["id"]
    return f"/organiser/days/{c.w.day.pk}/seating/balance/", {"proposal": proposal}


def _checkin_open(c: Ctx) -> Day:
    day = Day.objects.get(pk=c.w.day.pk)
    now = timezone.now()
    checkin_window_set(
        day=day, opens_at=now - timedelta(minutes=5), closes_at=now + timedelta(hours=1), by=None
    )
    return day


def checkin_desk_request(c: Ctx) -> tuple[str, Any]:
    """A player of A's day 1 checked in at the desk."""
    day = _checkin_open(c)
    lou = player_register(event=c.w.event, name="Lou", starting_money=1000, by=None)
    return f"/organiser/days/{day.pk}/seating/check-in/", {"form": "desk", "player": lou.pk}


def checkin_late_request(c: Ctx) -> tuple[str, Any]:
    """A late arrival of A's day 1, checked in, seated where balancing puts one more."""
    day = _checkin_open(c)
    lou = player_register(event=c.w.event, name="Lou", starting_money=1000, by=None)
    player_check_in(day=day, player=lou, how="desk", by=None)
    return f"/organiser/days/{day.pk}/seating/check-in/", {"form": "late", "player": lou.pk}


def seating_query(c: Ctx) -> tuple[str, Any]:
    draw = seating_draw(day=c.w.day, seed="A", by=None)
    return f"/organiser/days/{c.w.day.pk}/seating/", {"draw": draw.pk}


def dealers_request(c: Ctx) -> tuple[str, Any]:
    pair = f"{c.w.table.pk}-{c.user('here_dealer').pk}"
    return f"/organiser/days/{c.w.day.pk}/seating/dealers/", {"form": "day", "assign": [pair]}


def table_dealers_request(c: Ctx) -> tuple[str, Any]:
    body = {"form": "table", "table": c.w.table.pk, "dealers": [c.user("here_dealer").pk]}
    return f"/organiser/days/{c.w.day.pk}/seating/dealers/", body


def rota_request(c: Ctx) -> tuple[str, Any]:
    body = {
        "starts_at": "14:00",
        "minutes": "30",
        "changes": "4",
        "dealers": [c.user("here_dealer").pk],
    }
    return f"/organiser/days/{c.w.day.pk}/seating/rota/", body


def count_rule_request(c: Ctx) -> tuple[str, Any]:
    row = counted(c)
    body = {"seat_count": row.pk, "ruling": "accept", "reason": "miscounted"}
    return f"/organiser/tables/{c.w.table.pk}/count/rule/", body


def count_request(c: Ctx) -> tuple[str, Any]:
    counting(c)
    stacks = {s.number: s.stack for s in Seat.objects.filter(table=c.w.table, left_at=None)}
    return f"/organiser/tables/{c.w.table.pk}/count/", {f"seat_{n}": v for n, v in stacks.items()}


def waive_request(c: Ctx) -> tuple[str, Any]:
    day = counting(c)
    body = {"reason": "the hall closes", "confirm": "on"}
    return f"/organiser/days/{day.pk}/count/waive/", body


def hall_remove_request(c: Ctx) -> tuple[str, Any]:
    said = announcement_post(event=c.w.event, text="A's news", by=None)
    body = {"form": "remove", "announcement": said.pk}
    return f"/organiser/events/{c.w.event.pk}/hall/", body


def feed_remove_request(c: Ctx) -> tuple[str, Any]:
    announcement_post(event=c.w.event, text="A's news", by=None)
    feed_refresh(event_id=c.w.event.pk)
    entry = FeedEntry.objects.filter(event=c.w.event, removed_at=None).first()
    assert entry is not None
    return f"/organiser/events/{c.w.event.pk}/hall/", {"form": "feed_remove", "entry": entry.pk}


def import_confirm_request(c: Ctx) -> tuple[str, Any]:
    batch = players_import_preview(event=c.w.event, data=b"name\nNew Nora\n", by=None)
    return f"/organiser/imports/{batch.pk}/", {"form": "confirm"}


def call_page(c: Ctx, form: str, **body: Any) -> tuple[str, Any]:
    hand = start(c.w)
    call = floor_call_open(table=c.w.table, hand=hand, note="dispute", by=None)
    return f"/organiser/floor/calls/{call.pk}/", {"form": form, **body}


def award_confirm_page(c: Ctx) -> tuple[str, Any]:
    url, _body = award_request(c.api)
    hand_id = resolve(url).kwargs["hand_id"]
    return f"/organiser/floor/hands/{hand_id}/confirm-award/", {"confirm": "on"}


def lift_page(c: Ctx) -> tuple[str, Any]:
    penalty = disqualify(c.w.table, c.w.players[2]).penalties.get()
    return f"/organiser/floor/penalties/{penalty.pk}/lift/", {"reason": "appeal"}


# ------------------------------------------------------------------ the walk's table


@dataclass(frozen=True)
class Walk:
    route: str  # the full pattern, as the URL configuration has it
    request: Callable[[Ctx], tuple[str, Any]]
    actor: str = "here_organiser"  # staff of event A only (tests/api/conftest.py)
    ids: dict[str, str] = field(default_factory=dict)  # body field → the kind of row it names
    form: str = ""  # the console's form posted ("form" field), "?" for a query string
    method: str = "POST"
    stores: bool = True  # the good request changes something (False: it asks, or reads)
    # A page's words for a refused id, where they are its own rather than the field's.
    said: str = "Select a valid choice"


A_ = "api/v1/"
O_ = "organiser/"

WALKS: list[Walk] = [
    # ---- the API
    Walk(
        A_ + "tables/<int:table_id>/hands/",
        lambda c: (f"/api/v1/tables/{c.w.table.pk}/hands/", None),
    ),
    Walk(A_ + "tables/<int:table_id>/seats/", api_(buy_in_request), ids={"player": "player"}),
    Walk(
        A_ + "tables/<int:table_id>/shift/",
        lambda c: (f"/api/v1/tables/{c.w.table.pk}/shift/", None),
        actor="here_dealer",
    ),
    Walk(A_ + "tables/<int:table_id>/shift/end/", shift_end_request, actor="here_dealer"),
    Walk(A_ + "hands/<int:hand_id>/actions/", api_(action_request)),
    Walk(A_ + "hands/<int:hand_id>/cards/", api_(cards_request)),
    Walk(A_ + "hands/<int:hand_id>/void/", api_(void_request)),
    Walk(
        A_ + "hands/<int:hand_id>/take-back/",
        lambda c: take_back_request(c.api, "here_dealer"),
        actor="here_dealer",
    ),
    Walk(A_ + "seats/<int:seat_id>/rebuy/", api_(rebuy_request), ids={"consenting": "player"}),
    Walk(
        A_ + "seats/<int:seat_id>/sit-out/",
        lambda c: (f"/api/v1/seats/{c.w.seat(3).pk}/sit-out/", {"sitting_out": True}),
    ),
    Walk(
        A_ + "seats/<int:seat_id>/leave/",
        lambda c: (f"/api/v1/seats/{c.w.seat(3).pk}/leave/", None),
    ),
    Walk(A_ + "hands/<int:hand_id>/misdeal/", api_(misdeal_request)),
    Walk(A_ + "hands/<int:hand_id>/award-confirm/", api_(award_request)),
    Walk(A_ + "tables/<int:table_id>/floor-calls/", floor_call_request, ids={"hand": "hand"}),
    Walk(A_ + "floor-calls/<int:call_id>/take/", api_(take_request)),
    Walk(
        A_ + "rulings/",
        ruling_request,
        ids={"call": "call", "table": "table", "hand": "hand", "players": "player"},
    ),
    Walk(A_ + "penalties/<int:penalty_id>/lift/", api_(lift_request)),
    Walk(
        A_ + "tokens/",
        lambda c: ("/api/v1/tokens/", {"user": c.user("here_dealer").pk, "name": "tablet 2"}),
        ids={"user": "user"},
    ),
    Walk(A_ + "tokens/<int:token_id>/revoke/", token_revoke_request),
    # ``person``, a returning person, is not walked: people span events (SITE_WIDE_IDS).
    Walk(
        A_ + "events/<int:event_id>/players/",
        lambda c: (
            f"/api/v1/events/{c.w.event.pk}/players/",
            {"name": "Nell", "starting_money": 9},
        ),
    ),
    # A read, for the ids of its query string.
    Walk(
        A_ + "events/<int:event_id>/audit/",
        audit_query,
        ids={"table": "table", "player": "player", "actor": "user"},
        method="GET",
        form="?",
        stores=False,
    ),
    # ---- the console
    Walk(
        O_ + "events/<int:event_id>/setup/",
        lambda c: (f"/organiser/events/{c.w.event.pk}/setup/", {"starting_money": "900"}),
    ),
    Walk(
        O_ + "days/<int:day_id>/setup/",
        lambda c: (f"/organiser/days/{day_2(c).pk}/setup/", day_rules_form(day_2(c))),
    ),
    Walk(
        O_ + "days/<int:day_id>/copy-rules/",
        lambda c: (f"/organiser/days/{c.w.day.pk}/copy-rules/", {"confirm": "on"}),
    ),
    Walk(
        O_ + "days/<int:day_id>/large-pot/",
        lambda c: (f"/organiser/days/{c.w.day.pk}/large-pot/", {"award_confirm_from": "400"}),
    ),
    Walk(
        O_ + "events/<int:event_id>/hall/",
        lambda c: (f"/organiser/events/{c.w.event.pk}/hall/", {"form": "announce", "text": "Hi"}),
        form="announce",
    ),
    Walk(
        O_ + "events/<int:event_id>/hall/",
        hall_remove_request,
        ids={"announcement": "announcement"},
        form="remove",
    ),
    Walk(
        O_ + "events/<int:event_id>/hall/",
        feed_remove_request,
        ids={"entry": "feed_entry"},
        form="feed_remove",
    ),
    Walk(
        O_ + "events/<int:event_id>/audit/",
        lambda c: (
            f"/organiser/events/{c.w.event.pk}/audit/",
            {"table": c.w.table.pk, "player": c.w.players[0].pk},
        ),
        ids={"table": "table", "player": "player"},
        method="GET",
        form="?",
        stores=False,
    ),
    Walk(
        O_ + "events/<int:event_id>/ledger-audit/",
        lambda c: (f"/organiser/events/{c.w.event.pk}/ledger-audit/", {}),
    ),
    Walk(
        O_ + "events/<int:event_id>/players/",
        lambda c: (
            f"/organiser/events/{c.w.event.pk}/players/",
            {"form": "issue", "player": c.w.players[0].pk, "amount": "50"},
        ),
        ids={"player": "player"},
        form="issue",
    ),
    Walk(O_ + "events/<int:event_id>/staff/", staff_off_request, ids={"user": "user"}, form="off"),
    Walk(O_ + "events/<int:event_id>/staff/", staff_on_request, ids={"user": "user"}, form="on"),
    Walk(
        O_ + "events/<int:event_id>/staff/",
        staff_password_request,
        ids={"user": "user"},
        form="password",
    ),
    Walk(
        O_ + "players/<int:player_id>/",
        lambda c: (
            f"/organiser/players/{c.w.players[0].pk}/",
            {"form": "rename", "name": "Andrew"},
        ),
        form="rename",
    ),
    Walk(
        O_ + "players/<int:player_id>/link/",
        lambda c: (f"/organiser/players/{c.w.players[0].pk}/link/", {}),
    ),
    Walk(O_ + "imports/<int:batch_id>/", import_confirm_request, form="confirm"),
    Walk(
        O_ + "tokens/",
        lambda c: ("/organiser/tokens/", {"name": "tablet 2", "user": c.user("here_dealer").pk}),
        ids={"user": "user"},
    ),
    Walk(O_ + "tokens/<int:token_id>/revoke/", lambda c: token_revoke_request(c)),
    Walk(
        O_ + "days/<int:day_id>/open/",
        lambda c: (f"/organiser/days/{day_2(c).pk}/open/", {}),
        stores=False,  # asks first (day 2 cannot open while day 1 is open: the page says so)
    ),
    Walk(
        O_ + "days/<int:day_id>/close/",
        lambda c: (
            f"/organiser/days/{c.w.day.pk}/close/",
            {"qualify_rule": "afford", "confirm": "on"},
        ),
    ),
    Walk(O_ + "days/<int:day_id>/requalify/", requalify_request, ids={"player": "player"}),
    Walk(O_ + "days/<int:day_id>/count/waive/", waive_request),
    Walk(O_ + "tables/<int:table_id>/count/", count_request),
    Walk(
        O_ + "tables/<int:table_id>/count/rule/",
        count_rule_request,
        ids={"seat_count": "seat_count"},
    ),
    Walk(
        O_ + "days/<int:day_id>/seating/",
        lambda c: (f"/organiser/days/{c.w.day.pk}/seating/", {"form": "draw", "seed": "x"}),
        form="draw",
    ),
    Walk(
        O_ + "days/<int:day_id>/seating/",
        seating_apply_request,
        ids={"draw": "draw"},
        form="apply",
        stores=False,  # asks first: nothing is applied until it is confirmed
    ),
    Walk(
        O_ + "days/<int:day_id>/seating/",
        seating_query,
        ids={"draw": "draw"},
        method="GET",
        form="?",
        stores=False,
    ),
    Walk(
        O_ + "days/<int:day_id>/seating/check-in/",
        checkin_desk_request,
        ids={"player": "player"},
        form="desk",
    ),
    Walk(
        O_ + "days/<int:day_id>/seating/check-in/",
        checkin_late_request,
        ids={"player": "player"},
        form="late",
    ),
    Walk(
        O_ + "days/<int:day_id>/seating/balance/",
        balance_request,  # its proposal is not a row: a digest of the moves it proposes
    ),
    Walk(
        O_ + "days/<int:day_id>/seating/dealers/",
        dealers_request,
        ids={"assign (table)": "table", "assign (dealer)": "user"},
        form="day",
        said="one of the boxes is not a dealer of this event any more",
    ),
    Walk(
        O_ + "days/<int:day_id>/seating/dealers/",
        table_dealers_request,
        ids={"table": "table", "dealers": "user"},
        form="table",
        said="One of the chosen users is not (or no longer) a dealer.",
    ),
    Walk(O_ + "days/<int:day_id>/seating/rota/", rota_request, ids={"dealers": "user"}),
    Walk(
        O_ + "events/<int:event_id>/integrity/run/",
        lambda c: (f"/organiser/events/{c.w.event.pk}/integrity/run/", {}),
    ),
    Walk(O_ + "floor/calls/<int:call_id>/", lambda c: call_page(c, "take"), form="take"),
    Walk(
        O_ + "floor/calls/<int:call_id>/",
        lambda c: call_page(
            c,
            "ruling",
            what_happened="showed a card",
            decision="a warning",
            players=[c.w.players[1].pk],
            penalty="warning",
        ),
        ids={"players": "player"},
        form="ruling",
    ),
    Walk(
        O_ + "floor/calls/<int:call_id>/",
        lambda c: call_page(c, "misdeal", reason="cards exposed"),
        form="misdeal",
    ),
    Walk(O_ + "floor/penalties/<int:penalty_id>/lift/", lift_page),
    Walk(O_ + "floor/hands/<int:hand_id>/confirm-award/", award_confirm_page),
]

# Write routes that take no id of an event — each with why.
NO_EVENT_IDS: dict[str, str] = {
    # Signing in and out: a user name and password, nothing of an event.
    A_ + "auth/login/": "signing in",
    A_ + "auth/logout/": "signing out",
    "organiser/login/": "signing in",
    "organiser/logout/": "signing out",
    # Organisers of every event only (site permissions: ``access.rules``): a new event, a past
    # event from a results file, the login locks, people (who span events) and series (which
    # group any events: the event a series adds or takes out is any event, by design).
    A_ + "results-exchange/": "a file, made a new event",
    "organiser/events/new/": "a new event",
    "organiser/events/import/": "a file, made a new event",
    "organiser/lockouts/": "a user name and an address",
    "organiser/people/<int:person_id>/": "a person spans events",
    "organiser/series/": "a new series",
    "organiser/series/<int:series_id>/": "a series groups events of every organiser",
    # A player's own link and an email's unsubscribe link: the secret in the address names
    # whose they are; the forms name no row.
    "p/<str:token>/notices/": "a player's own link",
    "p/<str:token>/check-in/": "a player's own link",
    "unsubscribe/<str:token>/": "an email's own link",
}

# Ids in forms that name rows of no event (people span events; a series' events are any):
# each is its page's own, offered as a choice by it.
SITE_WIDE_IDS = {
    ("organiser/events/<int:event_id>/players/", "register", "returning"): "a person",
    ("organiser/imports/<int:batch_id>/", "confirm", "decide_<line>"): "a person",
    ("organiser/series/<int:series_id>/", "add", "event"): "a series' event",
    ("organiser/series/<int:series_id>/", "remove", "event"): "a series' event",
    (A_ + "events/<int:event_id>/players/", "", "person"): "a person",
}


# ------------------------------------------------------------------ which routes write


def post_only(view: Any) -> bool:
    """Whether a view (through its decorators) takes POST only (``require_POST``)."""
    while view is not None:
        code = getattr(view, "__code__", None)
        if code is not None and "request_method_list" in code.co_freevars:
            cells = dict(zip(code.co_freevars, view.__closure__ or (), strict=True))
            return list(cells["request_method_list"].cell_contents) == ["POST"]
        view = getattr(view, "__wrapped__", None)
    return False


def api_posts(pattern: URLPattern) -> bool:
    view_class = getattr(pattern.callback, "view_class", None)
    return view_class is not None and hasattr(view_class, "post")


def write_routes() -> dict[str, set[str]]:
    """Every route that writes, with the forms it takes that name rows ("" for its only form,
    or for an API body): the API's POST routes, and every page that declares a form to post or
    takes POST only; and the query strings whose forms name rows ("?")."""
    found: dict[str, set[str]] = {}
    for route, _name, pattern in routes():
        if route.startswith("admin/"):
            continue  # Django's admin: organisers of every event, its own forms
        if route.startswith("api/"):
            if route.startswith(A_) and api_posts(pattern):
                found[route] = set()
            continue
        inputs: Inputs | None = getattr(pattern.callback, "inputs", None)
        if inputs is None:
            continue  # tests/core/test_hostile_input.py fails a page that declares nothing
        forms = {k for k, form in inputs.post.items() if _names_rows(form)}
        if inputs.query is not None and _names_rows(inputs.query):
            forms.add("?")
        if inputs.post or post_only(pattern.callback) or forms:
            found[route] = forms
    return found


def _names_rows(form: Any) -> bool:
    return any(
        isinstance(f, EventScopedChoiceField | EventScopedMultipleChoiceField)
        for f in form.base_fields.values()
    )


def test_the_walk_knows_every_write_route() -> None:
    """A write route not walked, nor listed as taking no id of an event, fails here — and so
    does every form of a page that names rows, and every query string that does."""
    writes = write_routes()
    walked: dict[str, set[str]] = {}
    for walk in WALKS:
        walked.setdefault(walk.route, set()).add(walk.form)
    unknown = sorted(set(writes) - set(walked) - set(NO_EVENT_IDS))
    assert not unknown, f"write routes the walk does not know: {unknown}"
    # The API's reads walked for their query strings are not write routes.
    posted = {w.route for w in WALKS if not (w.method == "GET" and w.route.startswith("api/"))}
    stale = sorted((posted | set(NO_EVENT_IDS)) - set(writes))
    assert not stale, f"walked or listed, but not a write route: {stale}"
    missing = sorted(
        f"{route} form {form!r}"
        for route, forms in writes.items()
        for form in forms - walked.get(route, set())
    )
    assert not missing, f"forms that name rows, not walked: {missing}"


def test_every_id_field_of_the_console_is_scoped_to_an_event() -> None:
    """A form field choosing rows is the helper's (``access.scoping``), or named here as a row
    of no event."""
    loose = []
    for route, _name, pattern in routes():
        inputs: Inputs | None = getattr(pattern.callback, "inputs", None)
        if inputs is None:
            continue
        posted = dict(inputs.post) if inputs else {}
        if inputs.query is not None:
            posted["?"] = inputs.query
        for key, form in posted.items():
            for name, f in form.base_fields.items():
                scoped = isinstance(f, EventScopedChoiceField | EventScopedMultipleChoiceField)
                site_wide = (route, key, name) in SITE_WIDE_IDS
                if isinstance(f, ModelChoiceField) and not scoped and not site_wide:
                    loose.append(f"{route} {key!r}.{name}")
    assert not loose, loose


# The fields of the API's bodies and query strings named like a kind of row, that are numbers
# rather than ids — and the ids of rows of no event.
NOT_IDS = {
    ("ActionIn", "seat"): "a seat's number at the table",
    ("BuyInIn", "seat"): "a seat's number at the table",
    ("CardsIn", "seat"): "a seat's number at the table",
    ("StandingsQueryIn", "day"): "a day's number",
    ("ActionIn", "hand"): "a blind player's old or new hand",
    ("RulingIn", "penalty"): "the kind of penalty",
    ("PlayerRegisterIn", "person"): "a person: people span events",
    ("ResultsDocument", "event"): "a results file's event: its name and the like",
}
ROW_NAMES = {*KIND_MODELS, "players", "consenting", "dealers", "actor", "person"}


def api_inputs() -> Iterator[tuple[str, str, Any]]:
    """(serializer, field, field) of every input the API parses (every resource's module)."""
    modules = [
        importlib.import_module(f"{resources.__name__}.{info.name}")
        for info in pkgutil.iter_modules(resources.__path__)
    ]
    for module in modules:
        for name, shape in vars(module).items():
            if (
                isinstance(shape, type)
                and issubclass(shape, serializers.Serializer)
                and shape.__module__ == module.__name__
                and not name.endswith(("Out", "Ref", "Page"))  # answers (beside the inputs)
            ):
                for field_name, f in shape().fields.items():
                    yield name, field_name, getattr(f, "child", f)


def test_every_id_of_the_api_is_resolved_within_its_event() -> None:
    """A field of an API body or query string named like a kind of row is an ``EventScopedId``
    (or named in ``NOT_IDS``), and each is walked."""
    walked = {name for w in WALKS if w.route.startswith("api/") for name in w.ids}
    codes = (ROOT / "docs" / "error-codes.md").read_text(encoding="utf-8")
    loose, unwalked, undocumented = [], [], []
    for shape, name, f in api_inputs():
        if isinstance(f, EventScopedId):
            if name not in walked:
                unwalked.append(f"{shape}.{name}")
            code = f"unknown_{noun_of(f.model).replace(' ', '_')}"
            if f"`{code}`" not in codes:
                undocumented.append(code)
        elif name in ROW_NAMES and (shape, name) not in NOT_IDS:
            loose.append(f"{shape}.{name}")
    assert not loose, f"ids not resolved within their event: {loose}"
    assert not unwalked, f"ids the walk does not send: {unwalked}"
    assert not undocumented, f"refusals not in docs/error-codes.md: {undocumented}"


# ------------------------------------------------------------------ the walk


def row_counts() -> tuple[int, ...]:
    """How many rows every table of the project holds (and the users'), in one statement."""
    tables = sorted(
        {
            m._meta.db_table
            for m in apps.get_models()
            if m.__module__.startswith("brag_event.") and m._meta.managed
        }
        | {User._meta.db_table}
    )
    counts = ", ".join(f"(SELECT COUNT(*) FROM {connection.ops.quote_name(t)})" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")  # nosec B608: table names from the models
        return tuple(cursor.fetchone())


def state() -> tuple[Any, ...]:
    """Everything a write could change: every table's rows, and what the writes update."""
    return (row_counts(), snapshot())


def fill(route: str, kwargs: dict[str, Any]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), route)


def send(c: Ctx, walk: Walk, url: str, body: Any) -> Any:
    if walk.route.startswith("api/"):
        client = c.api.client(walk.actor)
        if walk.method == "GET":
            return client.get(url, body)
        return client.post(url, body, format="json")
    console = Client()
    console.force_login(c.user(walk.actor))
    if walk.method == "GET":
        return console.get(url, body)
    return console.post(url, body)


def said(response: Any) -> str:
    """What a refusal says: the API's error, or a page's errors and alerts."""
    if response["Content-Type"].startswith("application/json"):
        return str(response.json())[:500]
    page = response.content.decode()
    found = re.findall(r'class="(?:errorlist|alert|field-error)[^"]*"[^>]*>(.*?)</', page, re.S)
    return f"{response.status_code}: " + " | ".join(" ".join(f.split()) for f in found)[:500]


def swap(value: Any, other: int) -> Any:
    """One id replaced by another's: a list keeps its other ids."""
    if isinstance(value, list):
        return [other, *value[1:]]
    return other


def swapped(c: Ctx, walk: Walk, url: str, body: Any) -> Iterator[tuple[str, str, Any, str]]:
    """(what, url, body, kind) with one id of the request replaced by B's row of its kind."""
    kwargs = resolve(url.split("?")[0]).kwargs
    for name in kwargs:
        kind = URL_KINDS[name]
        yield f"the address's {name}", fill(walk.route, {**kwargs, name: c.b[kind]}), body, kind
    for name, kind in walk.ids.items():
        other = c.b[kind]
        if name.startswith("assign ("):  # the dealers' boxes: "<table id>-<user id>"
            table, user = str(body["assign"][0]).split("-")
            pair = f"{other}-{user}" if kind == "table" else f"{table}-{other}"
            yield f"the body's {name}", url, {**body, "assign": [pair]}, kind
            continue
        assert name in body, (walk.route, name)
        yield f"the body's {name}", url, {**body, name: swap(body[name], other)}, kind


def refusal(walk: Walk, what: str, kind: str, response: Any) -> str | None:
    """Why ``response`` is not the refusal of an id of another event (``None``: it is)."""
    status = response.status_code
    if not 400 <= status < 500:
        return f"answered {status}"
    in_address = what.startswith("the address")
    if walk.route.startswith("api/"):
        code = response.json()["error"]["code"]
        if in_address:
            wanted = {"forbidden", "not_found"}
        elif walk.form == "?":
            wanted = {"invalid_filter"}
        else:
            wanted = {f"unknown_{noun_of(KIND_MODELS[kind]).replace(' ', '_')}"}
        return None if code in wanted else f"answered {status} {code}, not one of {wanted}"
    if in_address:
        return None if status in (403, 404) else f"answered {status}"
    page = response.content.decode()
    if status != 400 or not any(s in page for s in ("Select a valid choice", walk.said)):
        return f"answered {status} without the field's refusal"
    return None


@pytest.mark.parametrize(
    "walk", WALKS, ids=[f"{w.method} {w.route} {w.form}".strip() for w in WALKS]
)
def test_no_id_crosses_an_event(ctx: Ctx, walk: Walk) -> None:
    url, body = walk.request(ctx)
    body = body if body is not None else {}
    problems = []
    seen = 0
    for what, other_url, other_body, kind in swapped(ctx, walk, url, body):
        seen += 1
        before = state()
        with transaction.atomic():  # each swapped request rolled back by itself, whatever it did
            response = send(ctx, walk, other_url, other_body or None)
            after = state()
            transaction.set_rollback(True)
        why = refusal(walk, what, kind, response)
        if why is not None:
            problems.append(f"{what} of event B: {why}: {said(response)}")
        if after != before:
            problems.append(f"{what} of event B: something was stored")
    assert seen, "a walked route names no id: list it in NO_EVENT_IDS"
    assert not problems, "\n".join(problems)
    # The request as it was, all of event A: accepted — the refusals came from the ids.
    before = state()
    response = send(ctx, walk, url, body or None)
    assert response.status_code < 400, (response.status_code, said(response))
    if walk.stores:
        assert state() != before, "the good request changed nothing"


# ------------------------------------------------------------------ a ruling's ids agree


def test_a_rulings_ids_agree_with_each_other(ctx: Ctx) -> None:
    """A supervisor of every event names rows of two tables (or of two events) in one ruling:
    each is theirs to name, but they do not agree — refused in words, and nothing stored."""
    w = ctx.w
    hand = start(w)
    call = floor_call_open(table=w.table, hand=hand, note="dispute", by=None)
    second = table_create(day=w.day, by=None)
    good = {"what_happened": "talked", "decision": "a warning", "penalty": "warning"}
    cases: list[tuple[dict[str, Any], str, str, str]] = [
        (
            {"table": w.table.pk, "hand": ctx.b["hand"]},
            "wrong_table",
            "hand",
            "was not played at table 1 of day 1",
        ),
        (
            {"call": call.pk, "table": second.pk},
            "wrong_table",
            "table",
            "That floor call was made at table 1 of day 1, not at table 2 of day 1",
        ),
        (
            {"call": call.pk, "hand": ctx.b["hand"]},
            "wrong_table",
            "hand",
            "was not played at table 1 of day 1",
        ),
        (
            {"table": w.table.pk, "players": [ctx.b["player"]]},
            "invalid_players",
            "players",
            "players of this event",
        ),
    ]
    supervisor = ctx.api.client("supervisor")  # of every event: B's rows are theirs too
    for ids, code, field_name, words in cases:
        before = state()
        body = {"players": [w.players[0].pk], **good, **ids}
        error = assert_error(supervisor.post("/api/v1/rulings/", body, format="json"), 400, code)
        assert error["details"]["field"] == field_name, error
        assert words in error["message"], error
        assert state() == before
    # The same ids, agreeing: recorded.
    body = {"call": call.pk, "table": w.table.pk, "hand": hand.pk, "players": [w.players[0].pk]}
    done = supervisor.post("/api/v1/rulings/", {**good, **body}, format="json")
    assert done.status_code == 201, done.json()
    assert (done.json()["call"], done.json()["table"], done.json()["hand"]) == (
        call.pk,
        w.table.pk,
        hand.pk,
    )


def test_the_issue_a_supervisor_of_one_event_names_another_events_hand(ctx: Ctx) -> None:
    """Issue 42: A's table and B's hand, by a supervisor of A only — refused as a hand that
    does not exist (same code, same words), and nothing stored."""
    body = {
        "table": ctx.w.table.pk,
        "what_happened": "talked",
        "decision": "a warning",
        "players": [ctx.w.players[0].pk],
    }
    supervisor = ctx.api.client("here_supervisor")
    answers = []
    for hand in (ctx.b["hand"], Hand.objects.latest("pk").pk + 1000):
        before = state()
        response = supervisor.post("/api/v1/rulings/", {**body, "hand": hand}, format="json")
        answers.append(assert_error(response, 400, "unknown_hand"))
        assert state() == before
    assert (
        answers[0]
        == answers[1]
        == {
            "code": "unknown_hand",
            "message": "No such hand in this event.",
            "details": {"field": "hand"},
        }
    )


# ------------------------------------------------------------------ the helper itself


def test_every_path_leads_to_its_event(ctx: Ctx) -> None:
    """For every model of ``EVENT_PATHS``: the path is one the database answers; B's row of
    that kind is among B's rows and not among A's; ``event_of_row`` finds B."""
    a, b = ctx.w.event.pk, ctx.b["event"]
    kinds = {model: kind for kind, model in KIND_MODELS.items()}
    for label in EVENT_PATHS:
        rows_of_events(label, a).count()  # the path is one the database answers
        kind = kinds.get(label)
        if kind is None:
            continue
        pk = ctx.b[kind]
        assert rows_of_events(label, b).filter(pk=pk).exists(), label
        assert not rows_of_events(label, a).filter(pk=pk).exists(), label
        assert not rows_of_events(label, []).exists(), label
        assert rows_of_events(label, None).filter(pk=pk).exists(), label
        assert event_of_row(label, pk) == b, label
    assert set(kinds) - {"auth.User", "api.DeviceToken"} <= set(EVENT_PATHS)
    assert event_of_row("tables.Table", 10**12) is None


def test_the_users_of_an_event(ctx: Ctx) -> None:
    """A user belongs to an event as its staff (of that event, or of every event), or as
    someone its log says did something; a user of another event's staff does not."""
    users = ctx.api.users
    b_dealer = User.objects.get(pk=ctx.b["user"])

    def of(event: int) -> set[str]:
        return set(rows_of_events("auth.User", event).values_list("username", flat=True))

    in_a = of(ctx.w.event.pk)
    assert {"here_organiser", "here_dealer", "organiser", "dealer", "other_dealer"} <= in_a
    assert "away_dealer" not in in_a and b_dealer.username not in in_a
    assert "player" not in in_a  # no staff, nothing done in A's log
    assert b_dealer.username in of(ctx.b["event"])
    # Someone A's log names (a sit-out entered by a user of no role) belongs to A from then on.
    nobody = User.objects.create_user("nobody")
    seat_sit_out(seat=ctx.w.seat(2), sitting_out=True, by=Actor(nobody, "web"))
    assert "nobody" in of(ctx.w.event.pk) and "nobody" not in of(ctx.b["event"])
    assert users["here_dealer"].pk in set(rows_of_events(User, None).values_list("pk", flat=True))
