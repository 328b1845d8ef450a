"""Standings rank players by balance plus their stack on the table now."""

from __future__ import annotations

import pytest

from brag_event.players.selectors import standings
from brag_event.players.services import player_register
from tests.factories import act, start, world

pytestmark = pytest.mark.django_db


def test_standings_count_balance_and_table_stack_and_rank_ties_by_name() -> None:
    w = world(3, money=1000, buy_in=200)  # each: balance 790, stack 200
    player_register(event=w.event, name="Zed", starting_money=990, by=None)  # off the table
    hand = start(w)  # dealer 1: seat 2 first; antes 5 each
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")  # Bill wins 25
    rows = standings(w.event)
    assert [(r["rank"], r["name"], r["total"]) for r in rows] == [
        (1, "Bill", 790 + 210),
        (2, "Zed", 990),
        (3, "Andy", 790 + 195),  # equal totals: by name
        (4, "Chris", 790 + 195),
    ]
    assert sum(r["total"] for r in rows) + 30 == 3 * 1000 + 990  # the house holds the 3 fees
