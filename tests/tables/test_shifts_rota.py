"""Dealers on the clock: shifts started and ended by signing in and out on a table's tablet,
the rota's plan (breaks included) and the change of dealer it has due at a table."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brag_event.audit.models import AuditEntry
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.hands.models import Hand, HandAction
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_start, hand_take_back
from brag_event.tables.models import DealerShift
from brag_event.tables.rota import rota_change_due, rota_draw, rota_plan, rota_turn
from brag_event.tables.services import table_create
from brag_event.tables.shifts import shift_sign_in, shift_sign_out, table_change_due, table_shift
from tests.factories import act, refused, user_in, world

T0 = datetime(2026, 11, 26, 14, 0, tzinfo=UTC)


# The plan (pure) ---------------------------------------------------------------------------------


def test_round_robin_with_breaks() -> None:
    plan = rota_plan(
        tables=[1, 2, 3], dealers=["A", "B", "C", "D", "E"], starts_at=T0, minutes=30, changes=6
    )
    assert [t.at for t in plan[:3]] == [T0, T0 + timedelta(minutes=30), T0 + timedelta(hours=1)]
    assert plan[0].tables == {1: "A", 2: "B", 3: "C"} and plan[0].breaks == ["D", "E"]
    # Each dealer moves on one place: A from table 1 to table 2, C to the first break, E back to
    # table 1.
    assert plan[1].tables == {1: "E", 2: "A", 3: "B"} and plan[1].breaks == ["C", "D"]
    assert plan[2].tables == {1: "D", 2: "E", 3: "A"} and plan[2].breaks == ["B", "C"]


@given(
    tables=st.integers(min_value=1, max_value=8),
    extra=st.integers(min_value=0, max_value=5),
    rounds=st.integers(min_value=1, max_value=4),
)
def test_everyone_deals_every_table_and_takes_every_break_equally(
    tables: int, extra: int, rounds: int
) -> None:
    dealers = list(range(tables + extra))
    places = len(dealers)
    plan = rota_plan(
        tables=list(range(tables)),
        dealers=dealers,
        starts_at=T0,
        minutes=20,
        changes=places * rounds,
    )
    dealt: Counter[tuple[int, int]] = Counter()
    rested: Counter[int] = Counter()
    for turn in plan:
        # Every table has one dealer and nobody is in two places at once.
        assert sorted([*turn.tables.values(), *turn.breaks]) == dealers
        for table, dealer in turn.tables.items():
            dealt[table, dealer] += 1
        rested.update(turn.breaks)
    assert set(dealt.values()) == {rounds}
    assert all(rested[d] == extra * rounds for d in dealers)


def test_a_rota_needs_a_dealer_for_every_table() -> None:
    with pytest.raises(ValueError):
        rota_turn([1, 2, 3], ["A", "B"], 0)


def due(now: datetime, dealing: str | None) -> tuple[str, datetime, bool] | None:
    change = rota_change_due(
        tables=[1, 2],
        dealers=["A", "B", "C"],
        starts_at=T0,
        minutes=30,
        changes=4,
        table=1,
        dealing=dealing,
        now=now,
    )
    return None if change is None else (change.dealer, change.at, change.overdue)


def test_when_a_change_is_due() -> None:
    minute = timedelta(minutes=1)
    # Before the rota starts: the first dealer, from ten minutes before.
    assert due(T0 - 11 * minute, None) is None
    assert due(T0 - 10 * minute, None) == ("A", T0, False)
    # A deals as planned: nothing until ten minutes before the change, then C (the last
    # dealer, back from the break) is announced.
    assert due(T0 + 5 * minute, "A") is None
    assert due(T0 + 20 * minute, "A") == ("C", T0 + 30 * minute, False)
    # C takes over a little early: nothing is due.
    assert due(T0 + 25 * minute, "C") is None
    # Nobody signed in during A's turn: A is due, now.
    assert due(T0 + 5 * minute, None) == ("A", T0, True)
    # The change has come and A is still there: overdue until C signs in.
    assert due(T0 + 31 * minute, "A") == ("C", T0 + 30 * minute, True)
    assert due(T0 + 31 * minute, "C") is None
    # After the last turn, nothing more; a table outside the rota, nothing.
    assert due(T0 + 130 * minute, "B") is None
    assert (
        rota_change_due(
            tables=[1, 2],
            dealers=["A", "B"],
            starts_at=T0,
            minutes=30,
            changes=4,
            table=9,
            dealing=None,
            now=T0,
        )
        is None
    )


# Shifts ------------------------------------------------------------------------------------------


pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_sign_in_starts_a_shift_and_the_next_dealer_relieves_it() -> None:
    w = world(3)
    maria, sam = user_in("dealer", "maria"), user_in("dealer", "sam")
    first = shift_sign_in(table=w.table, by=Actor(user=maria))
    assert table_shift(w.table) == first and first.day == w.day and first.ended_at is None
    # Signing in again where one deals changes nothing.
    assert shift_sign_in(table=w.table, by=Actor(user=maria)).pk == first.pk
    second = shift_sign_in(table=w.table, by=Actor(user=sam))
    first.refresh_from_db()
    assert first.ended_how == "relieved" and first.ended_at == second.started_at
    assert table_shift(w.table) == second
    # Opening another table's page moves nobody: Sam deals at table 1 until relieved or signed
    # out, and is told so in words that name the way out.
    other = table_create(day=w.day, by=None)
    err = refused("dealing_elsewhere", lambda: shift_sign_in(table=other, by=Actor(user=sam)))
    assert err.message == (
        "You are signed in to deal at table 1: you stay there until the next dealer takes over "
        "or you leave it. Leave table 1 to deal here."
    )
    assert err.status == 409 and err.details == {"table": w.table.pk, "number": 1}
    second.refresh_from_db()
    assert second.ended_at is None and table_shift(other) is None
    # Leaving it, said in so many words, moves him: nobody deals at table 1.
    third = shift_sign_in(table=other, by=Actor(user=sam), leave=True)
    second.refresh_from_db()
    assert second.ended_how == "moved" and table_shift(w.table) is None
    assert shift_sign_out(by=Actor(user=sam)) == 1
    third.refresh_from_db()
    assert third.ended_how == "signed_out"
    assert shift_sign_out(by=Actor(user=sam)) == 0
    verbs = Counter(AuditEntry.objects.filter(event=w.event).values_list("verb", flat=True))
    assert verbs["dealer.shift_start"] == 3 and verbs["dealer.shift_end"] == 3


def fold_out(hand: Hand, by: Actor) -> Hand:
    """Everyone but the last player in folds: the hand is settled."""
    while not (state := hand_state(hand)).is_settled:
        hand, state = act(hand, by=by, seat=state.to_act, action="fold")
    return hand


@pytestmark_db
def test_a_relieved_dealer_still_ticked_for_the_table_deals_there_no_more() -> None:
    """Relieved at table 1 by the next dealer, Maria (still ticked for it on the Dealers page)
    can neither start a hand there, nor enter an action, nor take one back — refused in the
    words her tablet shows — until she signs in there again; a supervisor still may."""
    w = world(3)
    maria, sam = user_in("dealer", "maria"), user_in("dealer", "sam")
    w.table.dealers.add(maria, sam)
    shift_sign_in(table=w.table, by=Actor(user=maria))
    hand = hand_start(table=w.table, by=Actor(user=maria))
    hand, _state = act(hand, by=Actor(user=maria), seat=hand_state(hand).to_act, action="look")
    shift_sign_in(table=w.table, by=Actor(user=sam))  # Sam takes over mid-hand
    before = HandAction.objects.count()
    err = refused(
        "relieved_here",
        lambda: act(hand, by=Actor(user=maria), seat=hand_state(hand).to_act, action="look"),
    )
    assert err.status == 403
    assert re.fullmatch(
        r"sam took over this table at \d\d:\d\d: you no longer deal here\. The dealer signed "
        r"in here now enters its hands\.",
        err.message,
    ), err.message
    refused(
        "relieved_here",
        lambda: hand_take_back(hand=hand, reason="wrong_seat", by=Actor(user=maria)),
    )
    assert HandAction.objects.count() == before  # nothing written
    # Sam deals on; the hand ends; Maria still cannot start the next one there.
    hand = fold_out(hand, Actor(user=sam))
    refused("relieved_here", lambda: hand_start(table=w.table, by=Actor(user=maria)))
    assert Hand.objects.filter(table=w.table).count() == 1
    # A supervisor is not a dealer on the clock; Maria signing in again deals again.
    boss = user_in("supervisor", "boss")
    fold_out(hand_start(table=w.table, by=Actor(user=boss)), Actor(user=boss))
    shift_sign_in(table=w.table, by=Actor(user=maria))
    assert hand_start(table=w.table, by=Actor(user=maria)).number == 3


@pytestmark_db
def test_only_dealers_sign_in_and_only_on_an_open_day() -> None:
    w = world(2)
    boss = user_in("supervisor", "boss")
    refused("not_a_dealer", lambda: shift_sign_in(table=w.table, by=Actor(user=boss)))
    assert not DealerShift.objects.exists()


@pytestmark_db
def test_the_day_s_rota_says_when_the_change_is_due_at_a_table() -> None:
    w = world(3)
    second = table_create(day=w.day, by=None)
    maria, sam, ann = (user_in("dealer", n) for n in ("maria", "sam", "ann"))
    maria.first_name, maria.last_name = "Maria", "Lopez"
    maria.save()
    start = datetime(2026, 11, 26, 14, 0, tzinfo=UTC)
    rota = rota_draw(
        day=w.day, starts_at=start, minutes=30, changes=6, dealers=[sam, ann, maria], by=None
    )
    assert rota.tables == [w.table.pk, second.pk]
    shift_sign_in(table=w.table, by=Actor(user=sam))
    assert table_change_due(w.table, start + timedelta(minutes=5)) is None
    change = table_change_due(w.table, start + timedelta(minutes=22))
    assert change is not None and change.dealer == maria and not change.overdue
    assert change.at == start + timedelta(minutes=30)
    shift_sign_in(table=w.table, by=Actor(user=maria))
    assert table_change_due(w.table, start + timedelta(minutes=31)) is None
    refused(
        "too_few_dealers",
        lambda: rota_draw(
            day=w.day, starts_at=start, minutes=30, changes=6, dealers=[sam], by=None
        ),
    )
    refused(
        "invalid_minutes",
        lambda: rota_draw(
            day=w.day, starts_at=start, minutes=5, changes=6, dealers=[sam, ann], by=None
        ),
    )
    boss = user_in("supervisor", "boss")
    err = refused(
        "not_a_dealer",
        lambda: rota_draw(
            day=w.day, starts_at=start, minutes=30, changes=6, dealers=[sam, boss], by=None
        ),
    )
    assert isinstance(err, ServiceError)


@pytestmark_db
def test_the_close_ends_the_shifts_still_open() -> None:
    from brag_event.closing.services import day_close_request

    w = world(2)
    maria = user_in("dealer", "maria")
    shift = shift_sign_in(table=w.table, by=Actor(user=maria))
    day_close_request(day=w.day, by=None)
    shift.refresh_from_db()
    assert shift.ended_how == "day_closed" and shift.ended_at is not None
    assert table_shift(w.table) is None
    assert AuditEntry.objects.filter(verb="dealer.shift_end", data__how="day_closed").count() == 1
