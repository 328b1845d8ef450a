"""The seating draw, applying it, table balancing, moving a player and assigning dealers."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from django.contrib.auth.models import Group, User
from django.db.models import Sum
from hypothesis import given
from hypothesis import strategies as st

from brag_event.audit.models import AuditEntry
from brag_event.core.errors import ServiceError
from brag_event.events.models import Day, Event
from brag_event.events.services import day_open, event_create_flash
from brag_event.hands.services import hand_start
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player, Qualification
from brag_event.players.services import player_register
from brag_event.tables.assign import table_assign_dealers
from brag_event.tables.models import Seat, SeatingDraw, Table
from brag_event.tables.seating import (
    balance_apply,
    balance_proposals,
    seat_move,
    seat_numbers,
    seating_apply,
    seating_draw,
    seating_plan,
)
from brag_event.tables.services import seat_buy_in, seat_leave, table_create
from tests.factories import assert_audit_ok

pytestmark = pytest.mark.django_db


# The plan (pure) ---------------------------------------------------------------------------------


def check_plan(players: list[tuple[int, str, int]], seats: int, seed: str) -> None:
    plan = seating_plan(players=players, seats=seats, seed=seed)
    n = len(players)
    assert len(plan) == math.ceil(n / seats)
    sizes = [len(t) for t in plan]
    assert all(0 < s <= seats for s in sizes)
    if sizes:
        assert max(sizes) - min(sizes) <= 1
    assert Counter(p for t in plan for p in t) == Counter(players)
    assert plan == seating_plan(players=list(reversed(players)), seats=seats, seed=seed)
    for size in sizes:
        numbers = seat_numbers(size, seats)
        assert len(set(numbers)) == size and all(1 <= x <= seats for x in numbers)


@pytest.mark.parametrize("seats", [2, 3, 6, 10])
def test_plan_properties_for_every_size(seats: int) -> None:
    for n in range(0, 61):
        players = [(i, f"P{i}", 100 + i) for i in range(1, n + 1)]
        check_plan(players, seats, f"seed-{n}")


@given(
    n=st.integers(min_value=0, max_value=80),
    seats=st.integers(min_value=2, max_value=10),
    seed=st.text(max_size=20),
)
def test_plan_properties_hypothesis(n: int, seats: int, seed: str) -> None:
    check_plan([(i, f"P{i}", 100) for i in range(1, n + 1)], seats, seed)


def test_plan_depends_on_the_seed() -> None:
    players = [(i, f"P{i}", 100) for i in range(1, 25)]
    plans = {str(seating_plan(players=players, seats=6, seed=str(s))) for s in range(10)}
    assert len(plans) > 1


# The draw ----------------------------------------------------------------------------------------


def make_event(n: int, *, money: int = 1000) -> tuple[Event, Day, list[Player]]:
    event = event_create_flash(name="FLASH", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    players = [
        player_register(event=event, name=f"Player {i:02d}", starting_money=money, by=None)
        for i in range(n)
    ]
    return event, day, players


def test_draw_eligibility_amounts_and_reasons() -> None:
    event, day, players = make_event(7)
    poor = player_register(event=event, name="Poor", starting_money=99, by=None)
    just = player_register(event=event, name="Just", starting_money=100, by=None)
    mid = player_register(event=event, name="Mid", starting_money=150, by=None)
    table = table_create(day=day, by=None)
    seat_buy_in(table=table, seat_number=1, player=players[0], amount=100, by=None)
    draw = seating_draw(day=day, seed="abc", by=None)
    assert draw.seed == "abc"
    reasons = {e["name"]: e["reason"] for e in draw.excluded}
    assert reasons == {
        "Poor": "cannot afford 100 (90 + fee 10)",
        "Player 00": "already seated at table 1",
    }
    amounts = {s["name"]: s["amount"] for t in draw.plan for s in t["seats"]}
    assert amounts["Just"] == 90 and amounts["Mid"] == 140 and amounts["Player 01"] == 240
    assert len(amounts) == 6 + 2  # players 1..6, Just and Mid
    assert [t["table"] for t in draw.plan] == [2, 3]  # after the existing table 1
    assert sorted(len(t["seats"]) for t in draw.plan) == [4, 4]
    assert poor.pk not in {s["player"] for t in draw.plan for s in t["seats"]}
    assert just.pk in {s["player"] for t in draw.plan for s in t["seats"]}
    assert mid.pk in {s["player"] for t in draw.plan for s in t["seats"]}
    assert AuditEntry.objects.filter(verb="seating.draw").count() == 1


def test_draw_only_the_qualified_when_the_day_has_qualifiers() -> None:
    _event, day, players = make_event(4)
    for p in players[:3]:
        Qualification.objects.create(day=day, player=p)
    draw = seating_draw(day=day, by=None)
    assert len(draw.seed) == 16
    assert draw.excluded == [
        {"player": players[3].pk, "name": "Player 03", "reason": "not qualified"}
    ]
    assert sum(len(t["seats"]) for t in draw.plan) == 3


def test_same_seed_same_players_same_plan() -> None:
    _event, day, _players = make_event(20)
    first = seating_draw(day=day, seed="repeat-me", by=None)
    second = seating_draw(day=day, seed="repeat-me", by=None)
    assert first.pk != second.pk
    assert first.plan == second.plan and first.excluded == second.excluded
    other = seating_draw(day=day, seed="something else", by=None)
    assert other.plan != first.plan
    assert [len(t["seats"]) for t in first.plan] == [5, 5, 5, 5]


def test_apply_seats_everyone_and_the_ledger_is_right() -> None:
    event, day, players = make_event(14)
    player_register(event=event, name="Poor", starting_money=50, by=None)
    draw = seating_draw(day=day, seed="s1", by=None)
    tables = seating_apply(draw=draw, by=None)
    assert [t.number for t in tables] == [1, 2, 3]
    draw.refresh_from_db()
    assert draw.applied_at is not None
    for planned in draw.plan:
        table = Table.objects.get(day=day, number=planned["table"])
        live = {(s.number, s.player_id, s.stack) for s in table.seats.filter(left_at__isnull=True)}
        assert live == {(s["seat"], s["player"], s["amount"]) for s in planned["seats"]}
    assert Seat.objects.filter(left_at__isnull=True).count() == 14
    for p in players:
        p.refresh_from_db()
        assert p.balance == 1000 - 240 - 10
    assert_audit_ok(event)
    assert AuditEntry.objects.filter(verb="seating.apply").count() == 1


def frozen() -> tuple[object, ...]:
    return (
        Transfer.objects.count(),
        Table.objects.count(),
        tuple(Seat.objects.order_by("pk").values_list("pk", "table_id", "number", "left_at")),
        tuple(Player.objects.order_by("pk").values_list("pk", "balance")),
        tuple(SeatingDraw.objects.order_by("pk").values_list("pk", "applied_at")),
    )


def test_apply_twice_is_refused_and_changes_nothing() -> None:
    event, day, _players = make_event(8)
    draw = seating_draw(day=day, seed="twice", by=None)
    seating_apply(draw=draw, by=None)
    before = frozen()
    with pytest.raises(ServiceError) as err:
        seating_apply(draw=draw, by=None)
    assert err.value.code == "draw_applied"
    assert frozen() == before
    assert_audit_ok(event)


def test_apply_is_all_or_nothing() -> None:
    event, day, players = make_event(8)
    draw = seating_draw(day=day, seed="late", by=None)
    # After the draw, one of the players sits down elsewhere: their buy-in will be refused.
    table = table_create(day=day, number=9, by=None)
    seat_buy_in(table=table, seat_number=1, player=players[5], amount=100, by=None)
    before = frozen()
    with pytest.raises(ServiceError) as err:
        seating_apply(draw=draw, by=None)
    assert err.value.code == "already_seated"
    assert frozen() == before
    assert_audit_ok(event)


def test_apply_on_a_closed_day_is_refused() -> None:
    _event, day, _players = make_event(4)
    draw = seating_draw(day=day, seed="x", by=None)
    Day.objects.filter(pk=day.pk).update(status=Day.Status.CLOSED)
    with pytest.raises(ServiceError) as err:
        seating_apply(draw=draw, by=None)
    assert err.value.code == "day_closed"
    assert Table.objects.count() == 0


# Balancing ---------------------------------------------------------------------------------------


def seat_tables(day: Day, players: list[Player], sizes: list[int]) -> list[Table]:
    tables = []
    it = iter(players)
    for size in sizes:
        table = table_create(day=day, by=None)
        for number in range(1, size + 1):
            seat_buy_in(table=table, seat_number=number, player=next(it), amount=200, by=None)
        tables.append(table)
    return tables


def counts(day: Day) -> list[int]:
    return [t.seats.filter(left_at__isnull=True).count() for t in Table.objects.filter(day=day)]


def money(event: Event) -> int:
    """Balances + stacks + house fees: what the players brought, however it is placed."""
    balances = Player.objects.filter(event=event).aggregate(s=Sum("balance"))["s"] or 0
    stacks = Seat.objects.filter(table__day__event=event).aggregate(s=Sum("stack"))["s"] or 0
    fees = (
        Transfer.objects.filter(event=event, kind=Transfer.Kind.HOUSE_FEE).aggregate(
            s=Sum("amount")
        )["s"]
        or 0
    )
    return int(balances + stacks + fees)


def test_six_six_two_proposes_a_move_and_applies_it() -> None:
    event, day, players = make_event(14)
    t3 = seat_tables(day, players, [6, 6, 2])[2]
    proposals = balance_proposals(day=day)
    assert [p["kind"] for p in proposals] == ["move"]
    move = proposals[0]
    assert move == balance_proposals(day=day)[0]  # stable
    (m,) = move["moves"]
    assert m["from_table"] == 1 and m["to_table"] == 3 and m["to_seat"] == 3
    assert "table 1" in move["description"] and "table 3" in move["description"]
    total = money(event)
    fees = Transfer.objects.filter(kind=Transfer.Kind.HOUSE_FEE).count()
    balance_apply(day=day, proposal_id=move["id"], by=None)
    assert counts(day) == [5, 6, 3]
    moved = Seat.objects.get(player_id=m["player"], left_at__isnull=True)
    assert (moved.table_id, moved.number, moved.stack, moved.buy_in) == (t3.pk, 3, 200, 200)
    assert money(event) == total
    assert Transfer.objects.filter(kind=Transfer.Kind.HOUSE_FEE).count() == fees
    assert AuditEntry.objects.filter(verb="table.balance").count() == 1
    assert_audit_ok(event)
    # The old id no longer applies; the next proposal moves from table 2.
    with pytest.raises(ServiceError) as err:
        balance_apply(day=day, proposal_id=move["id"], by=None)
    assert err.value.code == "unknown_proposal"
    nxt = balance_proposals(day=day)
    assert [(p["kind"], p["moves"][0]["from_table"]) for p in nxt] == [("move", 2)]
    balance_apply(day=day, proposal_id=nxt[0]["id"], by=None)
    assert counts(day) == [5, 5, 4]
    assert balance_proposals(day=day) == []
    assert money(event) == total
    assert_audit_ok(event)


def test_three_three_two_breaks_the_short_table() -> None:
    event, day, players = make_event(8)
    seat_tables(day, players, [3, 3, 2])
    proposals = balance_proposals(day=day)
    assert [p["kind"] for p in proposals] == ["break"]
    brk = proposals[0]
    assert {m["from_table"] for m in brk["moves"]} == {3}
    assert sorted(m["to_table"] for m in brk["moves"]) == [1, 2]
    total = money(event)
    balance_apply(day=day, proposal_id=brk["id"], by=None)
    assert counts(day) == [4, 4, 0]
    assert balance_proposals(day=day) == []
    assert money(event) == total
    assert_audit_ok(event)


def test_balanced_tables_need_nothing() -> None:
    _event, day, players = make_event(11)
    seat_tables(day, players, [6, 5])
    assert balance_proposals(day=day) == []
    with pytest.raises(ServiceError) as err:
        balance_apply(day=day, proposal_id="move-nothing", by=None)
    assert err.value.code == "unknown_proposal"


def test_break_fills_the_shortest_tables_first() -> None:
    _event, day, players = make_event(13)
    seat_tables(day, players, [5, 3, 3, 2])
    kinds = {p["kind"]: p for p in balance_proposals(day=day)}
    assert set(kinds) == {"move", "break"}
    brk = kinds["break"]
    assert {m["from_table"] for m in brk["moves"]} == {4}
    assert [m["to_table"] for m in brk["moves"]] == [2, 3]


# Moving a player ---------------------------------------------------------------------------------


def test_move_is_refused_during_a_hand_at_either_table_and_changes_nothing() -> None:
    event, day, players = make_event(6)
    t1, t2 = seat_tables(day, players, [4, 2])
    hand_start(table=t1, by=None)
    seat = Seat.objects.get(table=t1, number=4, left_at__isnull=True)
    before = frozen()
    with pytest.raises(ServiceError) as err:
        seat_move(seat=seat, to_table=t2, to_seat=3, by=None)
    assert err.value.code == "hand_in_progress" and err.value.status == 409
    back = Seat.objects.get(table=t2, number=1)
    with pytest.raises(ServiceError) as err:
        seat_move(seat=back, to_table=t1, to_seat=5, by=None)
    assert err.value.code == "hand_in_progress"
    assert frozen() == before
    assert_audit_ok(event)


def test_move_refusals() -> None:
    event, day, players = make_event(5)
    t1, t2 = seat_tables(day, players[:4], [2, 2])
    seat = Seat.objects.get(table=t1, number=1)
    other_day = Day.objects.get(event=event, number=2)
    t9 = Table.objects.create(day=other_day, number=1)
    cases = [
        ("seat_taken", t2, 1),
        ("invalid_seat", t2, 7),
        ("same_table", t1, 4),
        ("different_day", t9, 1),
    ]
    for code, table, number in cases:
        before = frozen()
        with pytest.raises(ServiceError) as err:
            seat_move(seat=seat, to_table=table, to_seat=number, by=None)
        assert err.value.code == code
        assert frozen() == before
    seat_leave(seat=seat, by=None)
    with pytest.raises(ServiceError) as err:
        seat_move(seat=seat, to_table=t2, to_seat=3, by=None)
    assert err.value.code == "not_seated"


def test_move_carries_the_stack_without_fee_and_conserves_money() -> None:
    event, day, players = make_event(4)
    t1, t2 = seat_tables(day, players, [3, 1])
    seat = Seat.objects.get(table=t1, number=2)
    player = players[1]
    player.refresh_from_db()
    balance = player.balance
    total = money(event)
    new = seat_move(seat=seat, to_table=t2, to_seat=6, by=None)
    seat.refresh_from_db()
    player.refresh_from_db()
    assert seat.left_at is not None and seat.stack == 0
    assert (new.table_id, new.number, new.stack, new.buy_in) == (t2.pk, 6, 200, 200)
    assert player.balance == balance
    kinds = list(Transfer.objects.filter(source__seat=seat).values_list("kind", "amount")) + list(
        Transfer.objects.filter(target__seat=new).values_list("kind", "amount")
    )
    assert kinds == [("leave", 200), ("buy_in", 200)]
    assert money(event) == total
    assert AuditEntry.objects.filter(verb="seat.move").count() == 1
    assert_audit_ok(event)


def test_draw_then_leaving_then_breaking_keeps_the_ledger_right() -> None:
    event, day, _players = make_event(13)
    seating_apply(draw=seating_draw(day=day, seed="full", by=None), by=None)
    assert sorted(counts(day)) == [4, 4, 5]
    total = money(event)
    # One player leaves each of tables 1 and 2 (5/4/4 → 4/3/4): everyone fits on two tables.
    for table in Table.objects.filter(day=day).order_by("number")[:2]:
        leaving = table.seats.filter(left_at__isnull=True).first()
        assert leaving is not None
        seat_leave(seat=leaving, by=None)
    assert sum(counts(day)) == 11
    proposals = balance_proposals(day=day)
    assert "break" in {p["kind"] for p in proposals}
    brk = next(p for p in proposals if p["kind"] == "break")
    balance_apply(day=day, proposal_id=brk["id"], by=None)
    assert sorted(counts(day)) == [0, 5, 6]
    assert money(event) == total
    assert_audit_ok(event)


# Dealers -----------------------------------------------------------------------------------------


def test_assign_dealers_only_dealers() -> None:
    _event, day, _players = make_event(0)
    table = table_create(day=day, by=None)
    dealers = Group.objects.get_or_create(name="dealer")[0]
    d1 = User.objects.create_user("d1")
    d2 = User.objects.create_user("d2")
    outsider = User.objects.create_user("someone")
    d1.groups.add(dealers)
    d2.groups.add(dealers)
    table_assign_dealers(table=table, dealers=[d1, d2], by=None)
    assert set(table.dealers.all()) == {d1, d2}
    with pytest.raises(ServiceError) as err:
        table_assign_dealers(table=table, dealers=[d1, outsider], by=None)
    assert err.value.code == "not_a_dealer" and "someone" in err.value.message
    assert set(table.dealers.all()) == {d1, d2}
    table_assign_dealers(table=table, dealers=[d2], by=None)
    assert list(table.dealers.all()) == [d2]
    assert AuditEntry.objects.filter(verb="table.dealers").count() == 2


def test_apply_numbers_tables_after_ones_created_since_the_draw() -> None:
    event, day, _players = make_event(8)
    draw = seating_draw(day=day, seed="renumber", by=None)
    assert [t["table"] for t in draw.plan] == [1, 2]
    table_create(day=day, by=None)  # table 1, empty, made after the draw
    tables = seating_apply(draw=draw, by=None)
    assert [t.number for t in tables] == [2, 3]  # planned 1 and 2, numbered after table 1
    assert sorted(counts(day)) == [0, 4, 4]
    assert_audit_ok(event)


def test_draw_on_a_closed_day_is_refused() -> None:
    _event, day, _players = make_event(3)
    Day.objects.filter(pk=day.pk).update(status=Day.Status.CLOSED)
    with pytest.raises(ServiceError) as err:
        seating_draw(day=day, by=None)
    assert err.value.code == "day_closed"
    assert not SeatingDraw.objects.exists()
