"""The settlement's decisions (``engine/settlement.py``): each pot is decided as far as the
hands known decide it, never before, newest pot first; a hand given up loses its comparison."""

from __future__ import annotations

import pytest

from brag_event.engine import IllegalAction, parse_cards, strength3
from brag_event.engine.model import GAVE_UP
from brag_event.engine.settlement import conceding_against, decisions, pots_to_show

from .helpers import covered_three_way, seen_two_way, table
from .test_betting import settle

PAIR_OF_KINGS = strength3(*parse_cards("Kh Kd 4c", 3))
NINE_HIGH = strength3(*parse_cards("2c 7d 9h", 3))
PRIAL = strength3(*parse_cards("5s 5h 5d", 3))


def test_a_see_is_decided_only_once_both_hands_are_known() -> None:
    state = seen_two_way()
    assert list(decisions(state, {})) == []
    assert list(decisions(state, {1: PAIR_OF_KINGS})) == []
    (only,) = decisions(state, {1: PAIR_OF_KINGS, 2: NINE_HIGH})
    assert (only.pot, only.winners, only.contenders, only.how) == (0, [1], [1, 2], "see")


def test_a_tie_and_a_hand_given_up_go_against_the_seer() -> None:
    state = seen_two_way()
    (tie,) = decisions(state, {1: NINE_HIGH, 2: NINE_HIGH})
    assert tie.winners == [1] and "A tie goes against the player who paid to see." in tie.text
    (gave_up,) = decisions(state, {1: NINE_HIGH, 2: GAVE_UP})
    assert gave_up.winners == [1] and "gives up without showing" in gave_up.text


def test_a_covered_pot_waits_for_the_newer_pots_winner_and_the_coverers_hand() -> None:
    state = covered_three_way()
    newer_only = list(decisions(state, {1: PAIR_OF_KINGS, 3: NINE_HIGH}))
    assert [(d.pot, d.winners) for d in newer_only] == [(1, [1])]
    both = list(decisions(state, {1: PAIR_OF_KINGS, 3: NINE_HIGH, 2: PRIAL}))
    assert [(d.pot, d.winners, d.how) for d in both] == [
        (1, [1], "see"),
        (0, [2], "covered_pot"),
    ]
    assert both[1].contenders == [1, 2, 3]


def test_the_coverer_plays_against_the_newer_pots_winner_once_it_is_known() -> None:
    state = covered_three_way()
    bill = state.by_seat[2]
    with pytest.raises(IllegalAction) as info:
        conceding_against(state, bill)
    assert info.value.code == "concede_too_early"
    state.show(1, "Kh Kd 4c").show(3, "2c 7d 9h")
    assert conceding_against(state, bill) is state.by_seat[1]
    with pytest.raises(IllegalAction) as info:
        conceding_against(state, state.by_seat[1])  # the seen player must show
    assert info.value.code == "concede_must_show"


def test_a_pot_a_cover_opened_with_nothing_bet_into_it_is_not_shown() -> None:
    """Issue 44: seat 2 covers, seat 3 folds to seat 1; the newest pot holds nothing. The
    record keeps both pots; the words for people (``pots_to_show``) only the one with money."""
    state = table(3, stacks=[100, 8, 100])
    state.look(1).look(2)
    state.bet(1, 5)
    state.cover(2)
    state.fold(3)
    settle(state, {1: "As Ad 2c", 2: "Ks Kd Qc"})
    assert state.outcome is not None
    pots = state.outcome.to_dict()["pots"]
    assert [p["amount"] for p in pots] == [pots[0]["amount"], 0]
    assert "wins 0" in pots[1]["explanation"]  # what the issue saw, now never shown
    shown = pots_to_show(pots)
    assert shown == pots[:1] and shown[0]["amount"] > 0
    assert pots_to_show([{"amount": 0}]) == [{"amount": 0}]  # the first pot always stays
