"""Buy-in, re-buy, sitting out and leaving: the money and the refusals (which change nothing)."""

from __future__ import annotations

import pytest

from brag_event.core.errors import ServiceError
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import RebuyConsent, Seat, Table
from brag_event.tables.services import (
    seat_buy_in,
    seat_leave,
    seat_rebuy,
    seat_sit_out,
    table_create,
)
from tests.factories import World, act, assert_audit_ok, start, world

pytestmark = pytest.mark.django_db


def frozen(w) -> tuple:
    """Everything money-related, to prove a refused request changed nothing."""
    return (
        Transfer.objects.count(),
        tuple(Seat.objects.order_by("pk").values_list("pk", "stack", "left_at", "sitting_out")),
        tuple(Player.objects.filter(event=w.event).order_by("pk").values_list("pk", "balance")),
    )


def refused(w, code: str, fn, **kwargs) -> ServiceError:
    before = frozen(w)
    with pytest.raises(ServiceError) as err:
        fn(**kwargs)
    assert err.value.code == code, err.value.message
    assert frozen(w) == before
    return err.value


def buy_in_refused(
    w: World, code: str, seat: int, player: Player, amount: int, *, table: Table | None = None
) -> ServiceError:
    """A buy-in at ``seat`` (of the world's table, or ``table``), refused with ``code``,
    changing nothing."""
    return refused(
        w,
        code,
        seat_buy_in,
        table=table or w.table,
        seat_number=seat,
        player=player,
        amount=amount,
        by=None,
    )


def test_buy_in_pays_the_fee_on_top_from_the_balance() -> None:
    w = world(2, money=500, buy_in=240)
    seat = w.seat(1)
    assert seat.stack == 240
    w.players[0].refresh_from_db()
    assert w.players[0].balance == 500 - 240 - 10
    kinds = list(Transfer.objects.filter(source__player=w.players[0]).values_list("kind", "amount"))
    assert sorted(kinds) == [("buy_in", 240), ("house_fee", 10)]
    assert_audit_ok(w.event)


@pytest.mark.parametrize("amount", [89, 241, 0, -5])
def test_buy_in_outside_the_day_limits_is_refused(amount: int) -> None:
    w = world(2)
    newcomer = player_register(event=w.event, name="Zed", starting_money=1000, by=None)
    err = buy_in_refused(w, "buy_in_out_of_range", 4, newcomer, amount)
    assert "90" in err.message and "240" in err.message


def test_buy_in_needs_the_amount_plus_fee() -> None:
    w = world(2)
    poor = player_register(event=w.event, name="Zed", starting_money=99, by=None)
    err = buy_in_refused(w, "insufficient_balance", 4, poor, 90)
    assert "100" in err.message
    rich = player_register(event=w.event, name="Yan", starting_money=100, by=None)
    seat_buy_in(table=w.table, seat_number=5, player=rich, amount=90, by=None)
    rich.refresh_from_db()
    assert rich.balance == 0


def test_a_seat_holds_one_player_and_a_player_sits_at_one_table() -> None:
    w = world(2)
    other = table_create(day=w.day, by=None)
    newcomer = player_register(event=w.event, name="Zed", starting_money=1000, by=None)
    buy_in_refused(w, "seat_taken", 1, newcomer, 100)
    buy_in_refused(w, "already_seated", 1, w.players[0], 100, table=other)
    buy_in_refused(w, "invalid_seat", 7, newcomer, 100)


def test_leave_returns_the_stack_to_the_balance() -> None:
    w = world(2, money=500, buy_in=200)
    seat_leave(seat=w.seat(1), by=None)
    w.players[0].refresh_from_db()
    assert w.players[0].balance == 500 - 10
    assert not Seat.objects.filter(player=w.players[0], left_at__isnull=True).exists()
    assert_audit_ok(w.event)


def test_a_player_in_the_live_hand_cannot_leave_until_it_ends() -> None:
    w = world(3)
    hand = start(w)
    refused(w, "player_in_hand", seat_leave, seat=w.seat(2), by=None)
    act(hand, seat=2, action="fold")
    act(hand, seat=3, action="fold")  # seat 1 (blind) wins: the pot is carried
    seat_leave(seat=w.seat(2), by=None)
    assert_audit_ok(w.event)


def test_sitting_out_skips_the_deal() -> None:
    w = world(3)
    seat_sit_out(seat=w.seat(2), sitting_out=True, by=None)
    hand = start(w)
    dealt = [s["seat"] for s in hand.seats if s["dealt"]]
    assert dealt == [1, 3]
    seat_sit_out(seat=w.seat(2), sitting_out=False, by=None)


def run_out(w) -> None:
    """Seat 2 loses everything to seat 3 in one hand (seat 1 deals)."""
    hand = start(w)  # dealer 1: seat 2 first
    act(hand, seat=2, action="look")
    act(hand, seat=3, action="look")
    act(hand, seat=1, action="look")
    act(hand, seat=2, action="bet", amount=20)
    act(hand, seat=3, action="bet", amount=20)
    act(hand, seat=1, action="fold")
    stack = w.seat(2).stack
    while stack >= 40:
        act(hand, seat=2, action="bet", amount=20)
        act(hand, seat=3, action="bet", amount=20)
        stack = w.seat(2).stack
    hand, state = act(hand, seat=2, action="cover")
    assert state.phase == "showing"
    act(hand, seat=3, action="show", cards="As Ad Ac")
    hand, state = act(hand, seat=2, action="show", cards="2s 3d 5c")
    assert state.is_settled


def test_rebuy_same_amount_fee_again_with_everyones_consent() -> None:
    w = world(3, money=1000, buy_in=100)
    run_out(w)
    seat = w.seat(2)
    assert seat.stack == 0
    others = [w.players[0].pk, w.players[2].pk]
    err = refused(w, "consent_missing", seat_rebuy, seat=seat, consenting=[others[0]], by=None)
    assert "Chris" in err.message
    seat_rebuy(seat=seat, consenting=others, by=None)
    seat.refresh_from_db()
    assert seat.stack == 100
    w.players[1].refresh_from_db()
    assert w.players[1].balance == 1000 - 110 - 110
    assert RebuyConsent.objects.filter(rebuy_seat=seat).count() == 2
    assert_audit_ok(w.event)


def test_rebuy_only_for_a_player_who_has_run_out_and_only_between_hands() -> None:
    w = world(3)
    others = [w.players[0].pk, w.players[2].pk]
    refused(w, "not_run_out", seat_rebuy, seat=w.seat(2), consenting=others, by=None)
    start(w)
    refused(w, "hand_in_progress", seat_rebuy, seat=w.seat(2), consenting=others, by=None)
