"""The end-of-day count raced (issue 31): two rulings that move money through the count's
account, a ruling against the close's request, a table counted twice at once. Every service of
the count locks the day first (then its close, the seat, the money record last), so each pair
runs one after the other; no run crashes, the count's account never goes negative and the
ledger audit passes."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from brag_event.closing.count import count_difference_rule, table_count_enter
from brag_event.closing.models import SeatCount, TableCount
from brag_event.closing.services import day_close_request
from brag_event.events.models import Day, DayClose
from brag_event.ledger.models import Account
from brag_event.ledger.services import account_balance
from brag_event.tables.models import Table
from tests.factories import World, world

from .floor import problems
from .harness import Outcome, crashes, interleave, race

pytestmark = pytest.mark.django_db(transaction=True)

_tags = itertools.count(1)
DAY_LOCK = r'FROM "events_day".* FOR (NO KEY )?UPDATE'


def counting() -> World:
    """Three players at table 1 (200 each), the close asked for: it waits for the count."""
    w = world(3, name=f"Count race {next(_tags)}", count=True)
    assert day_close_request(day=w.day, by=None).status == DayClose.Status.COUNTING
    return w


def rule(w: World, seat: int, **ruling: Any) -> Any:
    def job() -> str:
        row = SeatCount.objects.get(table_count__table=w.table, seat__number=seat)
        return count_difference_rule(seat_count=row, by=None, **ruling).ruling

    return job


def check(w: World, outcomes: list[Outcome]) -> None:
    assert not crashes(outcomes), "\n".join(crashes(outcomes))
    assert not problems(w.event), problems(w.event)
    count = Account.objects.filter(event=w.event, kind=Account.Kind.COUNT).first()
    assert count is None or account_balance(count) >= 0


@pytest.mark.parametrize("order", ["lower first", "raise first"])
def test_a_stack_lowered_and_another_raised_from_it_at_once(order: str) -> None:
    w = counting()
    table_count_enter(table=w.table, counts={1: 190, 2: 210, 3: 200}, by=None)
    lower = rule(w, 1, ruling="correct", reason="passed 10 to seat 2")
    raise_ = rule(w, 2, ruling="correct", reason="had 10 of seat 1's", source="count")
    first, second = (lower, raise_) if order == "lower first" else (raise_, lower)
    outcomes, _seen = interleave(first, second, after=DAY_LOCK)
    check(w, outcomes)
    kinds = [o.kind for o in outcomes]
    if order == "lower first":
        assert kinds == ["ok", "ok"], outcomes
    else:  # nothing set aside yet when the raise ran: refused, in words
        assert [o.value for o in outcomes] == ["count_source_short", "correct"], outcomes
    outcomes = race(lower, raise_)
    check(w, outcomes)


def test_a_ruling_while_the_close_is_asked_again() -> None:
    w = counting()
    table_count_enter(table=w.table, counts={1: 190, 2: 200, 3: 200}, by=None)
    again = lambda: day_close_request(day=Day.objects.get(pk=w.day.pk), by=None).status  # noqa: E731
    ruling = rule(w, 1, ruling="accept", reason="miscounted")
    for first, second in ((again, ruling), (ruling, again)):
        outcomes, _seen = interleave(first, second, after=DAY_LOCK)
        check(w, outcomes)
    status = DayClose.objects.get(day=w.day).status
    assert status == DayClose.Status.DONE, status  # counted and ruled: the last ask closed it


def test_one_table_counted_twice_at_once() -> None:
    w = counting()
    counts = {1: 200, 2: 200, 3: 200}
    table = Table.objects.get(pk=w.table.pk)
    job = lambda: table_count_enter(table=table, counts=counts, by=None).pk  # noqa: E731
    outcomes = race(job, job)
    check(w, outcomes)
    assert sorted(o.kind for o in outcomes) == ["ok", "refused"], outcomes
    assert [o.value for o in outcomes if o.kind == "refused"] == ["count_already_entered"]
    assert TableCount.objects.filter(table=table).count() == 1
