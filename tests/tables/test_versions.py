"""The cached, conditional reads are never stale: every kind of change that alters what a read
shows bumps its version in the same transaction (``tables.versions``), so a client asking with
the ETag it has gets the new answer, and the cache never serves an old one.

Each case makes one change between two rounds of reads. For every read — the tablet's table,
the standings API (overall and of a day), the standings page and the organisers' dashboard —
the answer served after the change, asked with the old ETag and asked plainly (from the cache
when it holds that version), must equal a fresh rendering with an empty cache. Reads whose
content must change, and those whose version must not move (a 304), are listed per case: a
hand's bets move the table and the dashboard but not the standings, which count a hand when it
ends."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from brag_event.closing.services import day_close_request
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_void_last_action
from brag_event.ledger.checks import ledger_check_run
from brag_event.players.models import Player
from brag_event.players.services import player_issue_money, player_register
from brag_event.tables.assign import table_assign_dealers
from brag_event.tables.models import Seat
from brag_event.tables.seating import seat_move
from brag_event.tables.services import (
    seat_buy_in,
    seat_leave,
    seat_rebuy,
    seat_sit_out,
    table_create,
)
from tests.factories import World, act, start, world

pytestmark = pytest.mark.django_db

READS = ("table", "standings", "standings_day", "standings_page", "dashboard")
STANDINGS = {"standings", "standings_day", "standings_page"}
STAMP = re.compile(rb'<span id="updated" class="updated">Updated [0-9:]+ [A-Za-z0-9+-]+</span>')


@dataclass
class Hall:
    w: World
    client: Client  # an organiser: sees every table and the dashboard
    hand: Hand | None = None

    @property
    def live(self) -> Hand:
        """The hand the case's set-up dealt."""
        assert self.hand is not None
        return self.hand

    def urls(self) -> dict[str, str]:
        event = self.w.event.pk
        return {
            "table": f"/api/v1/tables/{self.w.table.pk}/",
            "standings": f"/api/v1/events/{event}/standings/",
            "standings_day": f"/api/v1/events/{event}/standings/?day=1",
            "standings_page": f"/standings/{event}/",
            "dashboard": f"/organiser/events/{event}/live/",
        }

    def get(self, name: str, etag: str | None = None) -> Any:
        headers = {"If-None-Match": etag} if etag else {}
        response = self.client.get(self.urls()[name], headers=headers)
        assert response.status_code in (200, 304), (name, response.status_code)
        return response


def body(response: Any) -> bytes:
    """The answer's content, less the standings page's "Updated hh:mm:ss GMT" (the render time)."""
    return STAMP.sub(b"", response.content)


@pytest.fixture
def hall(monkeypatch: pytest.MonkeyPatch) -> Hall:
    # The dashboard is drawn at the minute: hold the clock so that two renderings agree.
    minute = timezone.now().replace(second=0, microsecond=0)
    monkeypatch.setattr(
        "brag_event.organiser.views.timezone.now", lambda: minute + dt.timedelta(seconds=30)
    )
    cache.clear()
    w = world(3, money=1000, buy_in=100)
    user = User.objects.create_user("organiser")
    user.groups.add(Group.objects.get_or_create(name="organiser")[0])
    client = Client()
    client.force_login(user)
    return Hall(w, client)


# ------------------------------------------------------------------ the changes


def bet_hand(h: Hall) -> None:
    h.hand = start(h.w)
    act(h.live, seat=2, action="look")


def settled_hand(h: Hall) -> None:
    bet_hand(h)
    assert h.hand is not None
    act(h.live, seat=2, action="bet", amount=10)
    act(h.live, seat=3, action="fold")
    h.hand, _ = act(h.live, seat=1, action="fold")


def run_out(h: Hall) -> None:
    """Seat 2 loses every chip it has to seat 3 at a showdown (a re-buy is for them)."""
    h.hand = hand = start(h.w)  # dealer 1: seat 2 first
    for seat in (2, 3, 1):
        act(hand, seat=seat, action="look")
    act(hand, seat=2, action="bet", amount=20)
    act(hand, seat=3, action="bet", amount=20)
    act(hand, seat=1, action="fold")
    while h.w.seat(2).stack >= 40:
        act(hand, seat=2, action="bet", amount=20)
        act(hand, seat=3, action="bet", amount=20)
    act(hand, seat=2, action="cover")
    act(hand, seat=3, action="show", cards="As Ad Ac")
    act(hand, seat=2, action="show", cards="2s 3d 5c")
    assert h.w.seat(2).stack == 0


def second_table(h: Hall) -> None:
    table_create(day=h.w.day, by=None)


def newcomer(h: Hall) -> None:
    player_register(event=h.w.event, name="Zed", starting_money=500, by=None)


@dataclass(frozen=True)
class Case:
    """``setup`` brings the hall to where the change can happen; ``change`` makes it.
    ``changed``: the reads whose content changes; ``quiet``: those answered 304."""

    name: str
    setup: Callable[[Hall], None]
    change: Callable[[Hall], Any]
    changed: frozenset[str]
    quiet: frozenset[str]


def case(
    name: str,
    change: Callable[[Hall], Any],
    changed: set[str],
    quiet: set[str],
    setup: Callable[[Hall], None] = lambda h: None,
) -> Case:
    return Case(name, setup, change, frozenset(changed), frozenset(quiet))


TABLE_AND_BOARD = {"table", "dashboard"}
ALL = set(READS)

CASES = [
    case("hand start", lambda h: start(h.w), TABLE_AND_BOARD, STANDINGS),
    case(
        "a look (no money)",
        lambda h: act(h.live, seat=3, action="look"),
        {"table"},
        STANDINGS,
        bet_hand,
    ),
    case(
        "a bet",
        lambda h: act(h.live, seat=2, action="bet", amount=10),
        TABLE_AND_BOARD,
        STANDINGS,
        bet_hand,
    ),
    case(
        "a fold that settles the hand",
        lambda h: [
            act(h.live, seat=2, action="bet", amount=10),
            act(h.live, seat=3, action="fold"),
            act(h.live, seat=1, action="fold"),
        ],
        ALL,
        set(),
        bet_hand,
    ),
    case(
        "a void in the hand",
        lambda h: hand_void_last_action(hand=h.live, reason="x", by=None),
        {"table"},
        STANDINGS,
        bet_hand,
    ),
    case(
        "a void that reopens a settled hand",
        lambda h: hand_void_last_action(hand=h.live, reason="wrong seat", by=None),
        ALL,
        set(),
        settled_hand,
    ),
    case(
        "a buy-in",
        lambda h: seat_buy_in(
            table=h.w.table,
            seat_number=4,
            player=Player.objects.get(name="Zed"),
            amount=100,
            by=None,
        ),
        ALL,
        set(),
        newcomer,
    ),
    case("a leave", lambda h: seat_leave(seat=h.w.seat(1), by=None), ALL, set()),
    case(
        "a re-buy",
        lambda h: seat_rebuy(
            seat=h.w.seat(2), consenting=[h.w.players[0].pk, h.w.players[2].pk], by=None
        ),
        ALL,
        set(),
        run_out,
    ),
    case(
        "a sit-out",
        lambda h: seat_sit_out(seat=h.w.seat(1), sitting_out=True, by=None),
        {"table"},
        STANDINGS,
    ),
    case(
        "money issued",
        lambda h: player_issue_money(player=h.w.players[0], amount=50, by=None),
        STANDINGS,
        {"table"},
    ),
    case("a player registered", newcomer, STANDINGS | {"dashboard"}, {"table"}),
    # A new table starts at version 1: the dashboard's sum moves, nothing else.
    case("a table created", second_table, {"dashboard"}, STANDINGS | {"table"}),
    case(
        "a seat moved",
        lambda h: seat_move(
            seat=h.w.seat(1), to_table=h.w.day.tables.get(number=2), to_seat=1, by=None
        ),
        ALL,
        set(),
        second_table,
    ),
    case(
        "dealers assigned",
        lambda h: table_assign_dealers(table=h.w.table, dealers=[dealer()], by=None),
        {"dashboard"},
        STANDINGS,
    ),
    # Event-wide changes move the standings' version too (Event.version is shared): one
    # rendering more, for a change that comes every five minutes.
    case(
        "a ledger audit",
        lambda h: ledger_check_run(event=h.w.event),
        {"dashboard"},
        {"table"},
    ),
    case(
        "the day closed",
        lambda h: day_close_request(day=h.w.day, by=None),
        ALL,
        set(),
        settled_hand,
    ),
]


def dealer() -> User:
    user = User.objects.create_user("dealer")
    user.groups.add(Group.objects.get_or_create(name="dealer")[0])
    return user


@pytest.mark.parametrize("c", CASES, ids=[c.name for c in CASES])
def test_a_change_is_never_served_stale(
    hall: Hall, c: Case, django_capture_on_commit_callbacks: Any
) -> None:
    c.setup(hall)
    before = {name: hall.get(name) for name in READS}
    for name in READS:  # asked again with its ETag, an unchanged read is a 304
        assert hall.get(name, etag=before[name]["ETag"]).status_code == 304, name
    with django_capture_on_commit_callbacks(execute=True):  # the day close's task
        c.change(hall)
    changed = set()
    for name in READS:
        asked = hall.get(name, etag=before[name]["ETag"])
        plain = hall.get(name)  # from the cache, when it holds the version just read
        cache.clear()
        fresh = hall.get(name)
        assert fresh.status_code == 200
        if body(fresh) != body(before[name]):
            changed.add(name)
            assert asked.status_code == 200, f"{c.name}: {name} answered 304, stale"
            assert asked["ETag"] != before[name]["ETag"]
        if asked.status_code == 200:
            assert body(asked) == body(fresh), f"{c.name}: {name} served stale"
        assert body(plain) == body(fresh), f"{c.name}: {name} served stale from the cache"
        if name in c.quiet:
            assert asked.status_code == 304, f"{c.name}: {name} changed its version for nothing"
        # The new version, asked for again: nothing changed since, a 304.
        assert hall.get(name, etag=fresh["ETag"]).status_code == 304
    assert changed == c.changed


def test_the_cache_never_answers_for_another_version(hall: Hall) -> None:
    """An entry holds its version: a body kept for an older version is not served for the
    current one, whatever the cache holds."""
    url = hall.urls()["standings"]
    first = hall.client.get(url)
    key = f"standings-{hall.w.event.pk}"
    version, kept = cache.get(key)
    assert first["ETag"] == f'"{key}@{version}"' and kept == first.content
    cache.set(key, (version, b'{"forged": true}'))
    assert hall.client.get(url).content == b'{"forged": true}'  # the cache is used …
    player_issue_money(player=hall.w.players[0], amount=50, by=None)
    again = hall.client.get(url)
    assert b"forged" not in again.content and again["ETag"] != first["ETag"]  # … per version


def test_a_broken_cache_is_a_miss_not_an_error(hall: Hall, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(cache, "get", broken)
    monkeypatch.setattr(cache, "set", broken)
    for name in READS:
        response = hall.get(name)
        assert response.status_code == 200 and response["ETag"]


def test_a_hand_in_play_costs_the_standings_nothing(hall: Hall) -> None:
    """Fifty tables acting every two seconds would change an event-wide counter all the time;
    the standings' version moves only when a hand ends."""
    from brag_event.tables.versions import dashboard_version, standings_version

    event = hall.w.event.pk
    standings, board = standings_version(event), dashboard_version(event)
    hand = start(hall.w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    assert standings_version(event) == standings
    assert dashboard_version(event) != board
    act(hand, seat=1, action="fold")  # settled
    assert standings_version(event) != standings
    assert Seat.objects.filter(left_at__isnull=True).count() == 3


def test_the_written_out_version_queries_agree_with_the_orm(hall: Hall) -> None:
    from django.db.models import Sum

    from brag_event.api.roles import TableAccess, tables_for
    from brag_event.events.models import Event
    from brag_event.tables.models import Table
    from brag_event.tables.versions import dashboard_version, standings_version, table_version

    settled_hand(hall)
    second_table(hall)
    world(2, name="OTHER")
    reads = (("standings_version", standings_version), ("version", dashboard_version))
    for event in Event.objects.all():
        for column, read in reads:
            total = Table.objects.filter(day__event=event).aggregate(s=Sum(column))["s"]
            assert read(event.pk) == (event.version, total or 0)
    assert standings_version(10**9) is None and dashboard_version(2**70) is None
    users = {role: User.objects.create_user(role) for role in ("supervisor", "dealer", "nobody")}
    for role in ("supervisor", "dealer"):
        users[role].groups.add(Group.objects.get_or_create(name=role)[0])
    hall.w.table.dealers.add(users["dealer"])
    users["organiser"] = User.objects.get(username="organiser")
    for user in users.values():
        for table in Table.objects.all():
            seen = tables_for(user).filter(pk=table.pk).values_list("version", flat=True).first()
            assert table_version(table.pk, TableAccess(user)) == seen, (user, table)
    assert table_version(2**70, TableAccess(users["organiser"])) is None
