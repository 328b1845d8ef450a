"""Withdrawing a player (docs/domain.md, "Withdrawing a player"): refused while they are dealt
into a hand in play; seated between hands, they leave the table first; never drawn, bought in
or qualified again; their money stays theirs in the ledger."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.closing.services import day_close_request
from brag_event.events.models import Day
from brag_event.hands.selectors import hand_state
from brag_event.players.models import Player, Qualification, StandingSnapshot
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.seating import seating_draw
from brag_event.tables.services import seat_buy_in
from brag_event.tables.withdraw import player_reinstate, player_withdraw
from tests.factories import act, assert_audit_ok, refused, start, world

pytestmark = pytest.mark.django_db


def total(player: Player) -> int:
    player.refresh_from_db()
    seated = Seat.objects.filter(player=player, left_at__isnull=True).first()
    return player.balance + (seated.stack if seated else 0)


def test_not_while_dealt_into_a_hand_in_play_then_off_the_table_with_the_money() -> None:
    w = world(3, money=1000, buy_in=200)
    chris = w.players[2]
    hand = start(w)
    err = refused("player_in_hand", lambda: player_withdraw(player=chris, by=None))
    assert err.message == (
        "Chris is in the hand being played at table 1: withdraw them when it ends."
    )
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")  # settled: Bill wins
    before = total(chris)
    player_withdraw(player=chris, reason="went home", by=None)
    chris.refresh_from_db()
    assert chris.withdrawn_at is not None
    assert not Seat.objects.filter(player=chris, left_at__isnull=True).exists()
    assert chris.balance == before  # the stack came back to the balance; nothing taken
    refused("already_withdrawn", lambda: player_withdraw(player=chris, by=None))
    assert_audit_ok(w.event)


def test_a_withdrawn_player_is_not_drawn_bought_in_or_qualified() -> None:
    w = world(2, money=1000, buy_in=200)
    zoe = player_register(event=w.event, name="Zoe", starting_money=1000, by=None)
    player_withdraw(player=zoe, by=None)
    draw = seating_draw(day=w.day, seed="s", by=None)
    assert {"player": zoe.pk, "name": "Zoe", "reason": "withdrawn"} in draw.excluded
    assert all(s["player"] != zoe.pk for t in draw.plan for s in t["seats"])
    err = refused("player_withdrawn", lambda: seat_buy_in(
        table=w.table, seat_number=5, player=zoe, amount=200, by=None
    ))  # fmt: skip
    assert err.message == "Zoe has withdrawn from the event."
    assert err.status == 403


def test_the_close_qualifies_nobody_withdrawn_and_the_money_stays(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3, money=1000, buy_in=200)
    bill = w.players[1]
    player_withdraw(player=bill, by=None)  # seated, no hand: leaves the table
    # Andy and Chris play a hand (only the players of a day can qualify).
    hand = start(w)
    first = hand_state(hand).to_act
    act(hand, seat=first, action="look")
    _hand, state = act(hand, seat=first, action="bet", amount=10)
    act(hand, seat=state.to_act, action="fold")
    Day.objects.filter(pk=w.day.pk).update(qualify_rule="top", qualify_top=5)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    day2 = w.event.days.get(number=2)
    assert not Qualification.objects.filter(day=day2, player=bill).exists()
    assert Qualification.objects.filter(day=day2).count() == 2
    assert not StandingSnapshot.objects.get(day=w.day, player=bill).qualified
    bill.refresh_from_db()
    assert bill.balance == 990  # 1,000 less the day-1 buy-in fee
    assert_audit_ok(w.event)


def test_a_withdrawal_taken_back() -> None:
    w = world(2)
    zoe = player_register(event=w.event, name="Zoe", starting_money=500, by=None)
    refused("not_withdrawn", lambda: player_reinstate(player=zoe, by=None))
    player_withdraw(player=zoe, by=None)
    player_reinstate(player=zoe, by=None)
    zoe.refresh_from_db()
    assert zoe.withdrawn_at is None
    seat_buy_in(table=w.table, seat_number=5, player=zoe, amount=200, by=None)
