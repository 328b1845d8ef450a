"""Builders for domain tests: everything goes through the services, as in production."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from brag_event.core.errors import ServiceError
from brag_event.engine import HandState
from brag_event.events.models import Day, Event
from brag_event.events.services import day_open, event_create_flash
from brag_event.floor.models import Ruling
from brag_event.floor.services import ruling_record
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_apply_action, hand_start
from brag_event.ledger.audit import ledger_audit
from brag_event.players.models import Person, Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat, Table
from brag_event.tables.services import seat_buy_in, table_create

NAMES = ["Andy", "Bill", "Chris", "Dan", "Eddie", "Fred"]
# Twenty characters each, the longest a name may be: the layout tests show them whole.
LONG_NAMES = [
    "Declan Iqbal-Forsyth",
    "Annabel Whitcombe-Ng",
    "Bartholomew Okafor-J",
    "Maximiliano Oyelaran",
    "Gwendolyn Castellano",
    "Vanderhoeven-Ruijter",
]


@dataclass
class World:
    event: Event
    day: Day
    table: Table
    players: list[Player]
    seats: list[Seat]

    def seat(self, number: int) -> Seat:
        return Seat.objects.get(table=self.table, number=number, left_at__isnull=True)


def world(
    n: int = 3,
    *,
    money: int = 1000,
    buy_in: int = 200,
    name: str = "FLASH",
    time_zone: str | None = None,
    count: bool = False,
    returning: bool = False,
) -> World:
    """An event with day 1 open, one table and ``n`` players bought in. ``count``: its closes
    wait for the end-of-day count (on for a new event; the tests of the count set it, the rest
    close as before the count existed). ``returning``: a player whose name a person has
    already (from another event) is entered as that person, else each player is someone new."""
    event = event_create_flash(
        name=name, time_zone=time_zone, starting_money=money, count_at_close=count, by=None
    )
    day = day_open(day=event.days.get(number=1), by=None)
    table = table_create(day=day, by=None)
    players = [
        player_register(
            event=event,
            name=NAMES[i],
            starting_money=money,
            person=Person.objects.filter(name=NAMES[i], merged_into=None).first()
            if returning
            else None,
            by=None,
        )
        for i in range(n)
    ]
    seats = [
        seat_buy_in(table=table, seat_number=i + 1, player=p, amount=buy_in, by=None)
        for i, p in enumerate(players)
    ]
    return World(event, day, table, players, seats)


def act(hand: Hand, by: Any = None, **action: Any) -> tuple[Hand, HandState]:
    hand.refresh_from_db()
    hand, _row, state = hand_apply_action(
        hand=hand, action=action, expected_seq=hand.next_seq, by=by
    )
    return hand, state


def start(w: World) -> Hand:
    return hand_start(table=w.table, by=None)


def assert_audit_ok(event: Event) -> None:
    report = ledger_audit(event=event)
    assert report.ok, "\n".join(report.lines())


def user_in(role: str, username: str | None = None, *, password: str = "x") -> User:
    """A staff user (named ``username``, else after the role) in the group ``role``; in none for
    ``"nobody"``."""
    user = User.objects.create_user(username or role, password=password)
    if role != "nobody":
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


def signed_in(role: str = "organiser", username: str | None = None, **user: Any) -> Client:
    """A test client signed in as a new ``user_in(role, username)``."""
    client = Client()
    client.force_login(user_in(role, username, **user))
    return client


def played(w: World) -> Hand:
    """One hand at ``w``'s table, played to its end: seat 2 looks and bets 10, the others fold."""
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    hand, _ = act(hand, seat=1, action="fold")
    return hand


def play_day(
    day: Day, players: list[Player], *, buy_in: int = 200, winner: Player | None = None
) -> World:
    """A new table on ``day`` (open), ``players`` bought in at it, and one hand played there
    (``play_hand``): each of them has played the day, so its cut counts them (RULES §4b, "Who
    can qualify")."""
    table = table_create(day=day, by=None)
    seats = [
        seat_buy_in(table=table, seat_number=i + 1, player=p, amount=buy_in, by=None)
        for i, p in enumerate(players)
    ]
    w = World(day.event, day, table, players, seats)
    play_hand(w, winner=winner)
    return w


def play_at_every_table(day: Day) -> list[Hand]:
    """One hand (``play_hand``) at each table of ``day`` with players seated: everyone seated has
    played the day."""
    hands = []
    for table in Table.objects.filter(day=day).order_by("number"):
        seats = list(Seat.objects.filter(table=table, left_at__isnull=True).order_by("number"))
        if len(seats) >= 2:
            w = World(day.event, day, table, [s.player for s in seats], seats)
            hands.append(play_hand(w))
    return hands


def play_hand(w: World, *, winner: Player | None = None) -> Hand:
    """One hand at ``w``'s table, played to its end: the first to act looks and bets 10 and
    everyone else folds; with ``winner``, the winner looks first and bets at their turn,
    everyone else folds at theirs (the winner gains the others' antes, each of the others loses
    one ante: their order is kept)."""
    hand = start(w)
    state = hand_state(hand)
    if winner is None:
        seat = state.to_act
    else:
        seat = Seat.objects.get(table=w.table, player=winner, left_at__isnull=True).number
    hand, state = act(hand, seat=seat, action="look")
    while state.to_act is not None:
        if state.to_act == seat:
            hand, state = act(hand, seat=seat, action="bet", amount=10)
        else:
            hand, state = act(hand, seat=state.to_act, action="fold")
    return hand


def disqualify(table: Table, player: Player) -> Ruling:
    """The floor's ruling at ``table`` that disqualifies ``player`` (RULES §4b)."""
    return ruling_record(
        table=table,
        what_happened="abuse",
        decision="out",
        players=[player.pk],
        penalty="disqualified",
        by=None,
    )


def refused(code: str, call: Callable[[], Any]) -> ServiceError:
    """The ``ServiceError`` that ``call`` raises, checked to carry ``code``."""
    with pytest.raises(ServiceError) as err:
        call()
    assert err.value.code == code, (err.value.code, err.value.message)
    return err.value
