"""Standings rank players by balance plus their stack on the table now."""

from __future__ import annotations

import pytest

from brag_event.players.services import player_register
from brag_event.standings.selectors import standings
from tests.factories import act, start, world

pytestmark = pytest.mark.django_db


def test_standings_count_balance_and_table_stack_and_share_ranks_on_ties() -> None:
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
        (3, "Andy", 790 + 195),  # equal totals: the same rank, listed by name
        (3, "Chris", 790 + 195),
    ]
    assert sum(r["total"] for r in rows) + 30 == 3 * 1000 + 990  # the house holds the 3 fees


def test_hands_played_won_and_the_change_today_are_maintained_as_hands_settle() -> None:
    from brag_event.hands.services import hand_void_last_action
    from brag_event.players.models import Standing

    w = world(3, money=1000, buy_in=200)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    hand, _state = act(hand, seat=1, action="fold")  # Bill wins 25
    hand2 = start(w)  # dealer 2: Chris first
    act(hand2, seat=2, action="look")  # open: folding to him is a win, not a carry
    act(hand2, seat=3, action="fold")
    act(hand2, seat=1, action="fold")  # Bill wins again
    by_name = {r["name"]: r for r in standings(w.event, w.day)}
    assert {n: (r["hands_played"], r["hands_won"]) for n, r in by_name.items()} == {
        "Andy": (2, 0),
        "Bill": (2, 2),
        "Chris": (2, 0),
    }
    # The day began (before the buy-in and its fee of 10) with 1,000 each.
    assert by_name["Bill"]["change"] == by_name["Bill"]["total"] - 1000
    assert by_name["Andy"]["change"] == -10 - 5 - 5
    assert Standing.objects.get(player__name="Bill").start_total == 1000
    # A void that reopens a settled hand takes its win back.
    hand2.refresh_from_db()
    hand_void_last_action(hand=hand2, reason="wrong seat folded", by=None)
    assert Standing.objects.get(player__name="Bill").hands_won == 1
    # The reopened hand is in play again: it counts when it ends, so its players are shown with
    # their money before it, and every MB is with a player or the house's three fees.
    rows = standings(w.event)
    assert sum(r["total"] for r in rows) + 30 == 3000
    assert {r["name"]: r["hands_played"] for r in rows} == {"Andy": 1, "Bill": 1, "Chris": 1}


def test_a_hand_in_play_counts_when_it_ends() -> None:
    """Bets of a hand in play move no one's standing (its players show the money they had
    before it, and it is not yet among their hands played); when it settles, all of it shows."""
    w = world(3, money=1000, buy_in=200)  # each: balance 790, stack 200
    before = {r["name"]: (r["total"], r["hands_played"], r["change"]) for r in standings(w.event)}
    hand = start(w)  # antes 5 each
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    for scope in (None, w.day):
        rows = standings(w.event, scope)
        assert {r["name"]: (r["total"], r["hands_played"], r["change"]) for r in rows} == before
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")  # Bill wins the pot of 25
    after = {r["name"]: (r["total"], r["hands_played"]) for r in standings(w.event)}
    assert after == {"Andy": (985, 1), "Bill": (1000, 1), "Chris": (985, 1)}
