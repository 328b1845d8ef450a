"""Closing a day: no new hands, stacks back to balances, audit, snapshot, qualifiers; twice is
once. (Tasks run eagerly here; ``test_day_close_worker`` runs a real worker on Redis.)"""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.closing.services import day_close_request, day_close_run
from brag_event.core.errors import ServiceError
from brag_event.events.models import Day, DayClose
from brag_event.events.services import day_open
from brag_event.hands.services import hand_start
from brag_event.players.models import Player, Qualification, StandingSnapshot
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_buy_in, table_create
from tests.factories import act, assert_audit_ok, start, world

pytestmark = pytest.mark.django_db


@pytest.fixture
def commits(django_capture_on_commit_callbacks: Any) -> Any:
    """Run on-commit callbacks (the queued task) as the test's transaction never commits."""
    return django_capture_on_commit_callbacks


def play_one(w: object) -> None:
    hand = start(w)  # type: ignore[arg-type]
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")  # Bill wins 25


def test_closing_returns_stacks_snapshots_and_qualifies_and_twice_is_once(commits: Any) -> None:
    w = world(3, money=1000, buy_in=200)
    player_register(event=w.event, name="Poor", starting_money=50, by=None)
    play_one(w)
    with commits(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE and close.progress == 100 and close.runs == 1
    day = Day.objects.get(pk=w.day.pk)
    assert day.status == Day.Status.CLOSED
    assert not Seat.objects.filter(left_at__isnull=True).exists()
    balances = dict(Player.objects.values_list("name", "balance"))
    assert balances == {"Andy": 985, "Bill": 1000, "Chris": 985, "Poor": 50}
    snap = list(
        StandingSnapshot.objects.filter(day=day)
        .order_by("rank", "player__name")  # players tied on a rank: by name
        .values_list("player__name", "rank")
    )
    assert snap == [("Bill", 1), ("Andy", 2), ("Chris", 2), ("Poor", 4)]
    day2 = w.event.days.get(number=2)
    need = day2.table_min + day2.house_fee
    assert need > 50
    assert set(Qualification.objects.filter(day=day2).values_list("player__name", flat=True)) == {
        "Andy",
        "Bill",
        "Chris",
    }
    assert_audit_ok(w.event)
    # No new hands on a closed day.
    with pytest.raises(ServiceError) as err:
        hand_start(table=w.table, by=None)
    assert err.value.code == "day_closed"
    # Asking again, or a task delivered twice, changes nothing.
    with commits(execute=True):
        again = day_close_request(day=w.day, by=None)
    assert again.pk == close.pk
    day_close_run(close_id=close.pk)
    close.refresh_from_db()
    assert close.runs == 1 and StandingSnapshot.objects.count() == 4
    assert Qualification.objects.count() == 3
    # Day 2 opens now that day 1 has closed, and seats only the qualified.
    day2 = day_open(day=day2, by=None)
    poor = Player.objects.get(name="Poor")
    table2 = table_create(day=day2, by=None)
    with pytest.raises(ServiceError) as refused:
        seat_buy_in(table=table2, seat_number=1, player=poor, amount=day2.table_min, by=None)
    assert refused.value.code == "not_qualified"
    andy = Player.objects.get(name="Andy")
    seat_buy_in(table=table2, seat_number=1, player=andy, amount=day2.table_min, by=None)


def test_the_top_n_rule_keeps_ties_at_the_cut(commits: Any) -> None:
    w = world(3, money=1000, buy_in=200)
    Day.objects.filter(pk=w.day.pk).update(qualify_rule="top", qualify_top=2)
    play_one(w)  # Bill 1,000; Andy and Chris 985 each
    with commits(execute=True):
        day_close_request(day=w.day, by=None)
    day2 = w.event.days.get(number=2)
    qualified = set(Qualification.objects.filter(day=day2).values_list("player__name", flat=True))
    assert qualified == {"Bill", "Andy", "Chris"}  # Andy and Chris tie for second
    Day.objects.filter(pk=day2.pk).update(qualify_rule="top", qualify_top=1)


def test_a_hand_in_play_refuses_the_close_until_it_is_finished(commits: Any) -> None:
    w = world(3, money=1000, buy_in=200)
    hand = start(w)
    with commits(execute=True) as queued, pytest.raises(ServiceError) as refused:
        day_close_request(day=w.day, by=None)
    assert refused.value.code == "hands_in_play" and refused.value.details == {"tables": [1]}
    assert "table 1" in refused.value.message
    assert queued == [] and not DayClose.objects.exists()
    assert Day.objects.get(pk=w.day.pk).is_open  # nothing changed: play goes on
    assert Seat.objects.filter(left_at__isnull=True).count() == 3
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="fold")
    act(hand, seat=3, action="look")
    act(hand, seat=3, action="fold")  # folded to Andy, who is blind: the pot is carried
    with commits(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE and close.runs == 1
    # A pot still carried is shared by the hand's players (RULES §4b); the report lists it.
    assert close.report["carried_pots"] == []
    (split,) = close.report["carried_splits"]
    assert (split["table"], split["amount"]) == (1, 15)
    assert [(s["seat"], s["amount"]) for s in split["shares"]] == [(2, 5), (3, 5), (1, 5)]
    assert_audit_ok(w.event)
