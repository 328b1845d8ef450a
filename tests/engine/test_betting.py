"""RULES §3, rule by rule: every rule and every Decision has a test here."""

from __future__ import annotations

import pytest

from brag_event.engine import (
    CHOOSING,
    SETTLED,
    SHOWING,
    Action,
    EngineError,
    HandState,
    Rules,
)

from .helpers import everyone_looks, rejects, settled_total, start_total, table, total_money


def settle(state: HandState, cards: dict[int, str]) -> HandState:
    assert state.phase == SHOWING, state.phase
    for seat in list(state.cards_needed):
        state.show(seat, cards[seat])
    assert state.phase == SETTLED
    assert settled_total(state) == start_total(state)
    return state


# ---------------------------------------------------------------- 3.1 dealing in


def test_antes_are_paid_and_a_carried_pot_is_added() -> None:
    state = table(3, 100, carried_pot=30)
    assert [p.stack for p in state.players] == [95, 95, 95]
    assert state.pot_total == 45
    assert [p.paid for p in state.players] == [5, 5, 5]
    assert total_money(state) == start_total(state)


def test_only_seated_players_with_the_ante_who_are_not_sitting_out_are_dealt_in() -> None:
    state = table(seats=[1, 2, 3, 4], stacks=[100, 100, 4, 100], sitting_out=[2], dealer=4)
    assert [p.seat for p in state.players] == [1, 4]
    assert state.pot_total == 10
    assert state.to_act == 1
    rejects(state, Action("bet", 3, 5), "unknown_seat")
    rejects(state, Action("bet", 2, 5), "unknown_seat")


def test_a_player_with_exactly_the_ante_is_dealt_in() -> None:
    state = table(stacks=[5, 100])
    assert [p.stack for p in state.players] == [0, 95]


def test_a_hand_needs_two_players() -> None:
    with pytest.raises(EngineError) as err:
        table(seats=[1, 2], stacks=[100, 4])
    assert err.value.code == "not_enough_players"


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"seats": [1, 1], "stacks": [50, 50]}, "listed twice"),
        ({"seats": [1, 7], "stacks": [50, 50], "dealer": 1}, "seat numbers"),
        ({"stacks": [50, -1]}, "negative"),
        ({"n": 2, "dealer": 0}, "dealer"),
        ({"n": 2, "carried_pot": -5}, "carried pot"),
        ({"n": 2, "carried_seat": 5}, "kept a blind hand"),
    ],
)
def test_an_impossible_table_is_rejected(kwargs: dict, problem: str) -> None:
    with pytest.raises(EngineError) as err:
        table(**kwargs)
    assert err.value.code == "invalid_setup"
    assert problem in err.value.message


# ---------------------------------------------------------------- 3.2 looking


def test_everyone_starts_blind_and_anyone_may_look_before_the_first_bet() -> None:
    state = table(4)
    assert all(p.blind for p in state.players)
    state.look(3).look(1).look(4)
    assert [p.blind for p in state.players] == [False, True, False, False]
    assert state.to_act == 1  # looking does not pass the turn
    rejects(state, Action("look", 3), "already_open")


def test_after_the_first_bet_a_blind_player_looks_only_at_their_turn_and_then_bets_open() -> None:
    state = table(3)
    state.look(1).bet(1, 5)
    rejects(state, Action("look", 3), "look_not_your_turn")
    state.look(2)
    assert state.to_act == 2
    # Having looked, seat 2 pays in open terms: 3 (half the stake) is no longer enough.
    rejects(state, Action("bet", 2, 3), "bet_below_stake")
    state.bet(2, 5)
    assert state.stake == 5


# ---------------------------------------------------------------- 3.3 turns


@pytest.mark.parametrize(("dealer", "first"), [(6, 2), (2, 4), (4, 6), (5, 6), (1, 2)])
def test_betting_starts_left_of_the_dealer_skipping_empty_seats(dealer: int, first: int) -> None:
    state = table(seats=[2, 4, 6], dealer=dealer)
    assert state.to_act == first


def test_turns_go_round_clockwise_skipping_folded_players() -> None:
    state = everyone_looks(table(4, dealer=2))
    assert state.to_act == 3
    state.bet(3, 5).fold(4)
    assert state.to_act == 1
    state.bet(1, 5).bet(2, 5)
    assert state.to_act == 3
    state.bet(3, 5)
    assert state.to_act == 1  # seat 4 folded and is skipped
    rejects(state, Action("bet", 2, 5), "not_your_turn")
    rejects(state, Action("fold", 3), "not_your_turn")
    rejects(state, Action("bet", 4, 5), "player_out")


# ---------------------------------------------------------------- 3.4 the stake


def test_first_bet_open_between_min_and_max() -> None:
    state = everyone_looks(table(3))
    rejects(state, Action("bet", 1, 4), "bet_below_min")
    rejects(state, Action("bet", 1, 21), "bet_above_max")
    assert state.can(Action("bet", 1, 5)) and state.can(Action("bet", 1, 20))
    state.bet(1, 20)
    assert state.stake == 20


def test_first_bet_blind_counts_double_and_halves_round_up() -> None:
    state = table(3)
    # min_bet 5 ≤ 2b ≤ 20: a blind first bet is 3 to 10.
    rejects(state, Action("bet", 1, 2), "bet_below_min")
    rejects(state, Action("bet", 1, 11), "bet_above_max")
    state.bet(1, 3)
    assert state.stake == 6
    assert state.pot_total == 18


def test_later_bets_open_from_the_stake_to_stake_plus_max_raise() -> None:
    state = everyone_looks(table(3))
    state.bet(1, 6)
    rejects(state, Action("bet", 2, 5), "bet_below_stake")
    rejects(state, Action("bet", 2, 27), "raise_above_max")
    state.bet(2, 26)
    assert state.stake == 26


def test_a_blind_player_stays_in_for_half_the_stake_rounded_up() -> None:
    state = table(3)
    state.look(1).bet(1, 5)  # stake 5
    rejects(state, Action("bet", 2, 2), "bet_below_stake")
    state.bet(2, 3)  # blind 3 counts 6
    assert state.stake == 6
    # Blind most: (6 + 20) // 2 = 13.
    rejects(state, Action("bet", 3, 14), "raise_above_max")
    state.bet(3, 13)
    assert state.stake == 26


def test_there_is_no_equalising_each_turn_costs_the_stake_again() -> None:
    state = everyone_looks(table(3))
    state.bet(1, 5).bet(2, 5).bet(3, 5)
    rejects(state, Action("bet", 1, 4), "bet_below_stake")
    state.bet(1, 5)
    assert state.players[0].paid == 15  # ante + 5 + 5
    assert state.pot_total == 35


@pytest.mark.parametrize("amount", [0, -5, None, True, "5", 5.0])
def test_amounts_must_be_positive_whole_numbers(amount: object) -> None:
    state = everyone_looks(table(3))
    rejects(state, Action("bet", 1, amount), "invalid_amount")  # type: ignore[arg-type]


def test_a_bet_larger_than_the_stack_is_refused() -> None:
    state = everyone_looks(table(stacks=[12, 100, 100]))
    err = rejects(state, Action("bet", 1, 8), "insufficient_stack")
    assert "cover" in err.message
    state.bet(1, 7)
    assert state.players[0].stack == 0


# ---------------------------------------------------------------- 3.5 folding


def test_folding_loses_what_was_put_in() -> None:
    state = everyone_looks(table(3))
    state.bet(1, 10).fold(2).bet(3, 10).fold(1)
    assert state.phase == SETTLED and state.outcome is not None
    assert state.outcome.stacks == {1: 85, 2: 95, 3: 120}
    assert state.outcome.pots[0].winners == [3]
    assert state.outcome.pots[0].how == "folds"
    assert state.outcome.shown == {}


# ---------------------------------------------------------------- 3.6 seeing


def test_seeing_needs_exactly_two_players_and_a_stake() -> None:
    state = everyone_looks(table(3))
    state.bet(1, 5)
    rejects(state, Action("see", 2, 10), "see_needs_two_players")
    two = everyone_looks(table(2))
    rejects(two, Action("see", 1), "see_needs_stake")


def test_an_open_player_pays_twice_the_stake_to_see_and_the_seen_hand_shows_first() -> None:
    state = everyone_looks(table(2))
    state.bet(1, 5).bet(2, 8)
    rejects(state, Action("see", 1, 8), "see_wrong_amount")
    state.see(1, 16)
    assert state.phase == SHOWING
    assert state.cards_needed == [2, 1]
    settle(state, {1: "Qs Js Ts", 2: "Kh Kd 4c"})
    assert state.outcome is not None
    assert state.outcome.pots[0].amount == 10 + 5 + 8 + 16
    assert state.outcome.pots[0].winners == [1]
    assert "running flush Q-J-10" in state.outcome.pots[0].explanation


def test_a_blind_player_sees_for_the_stake() -> None:
    state = table(2)
    state.look(2)
    state.bet(1, 3)  # blind: stake 6
    state.bet(2, 6)
    state.see(1, 6)  # blind pays S
    settle(state, {1: "2c 3d 5h", 2: "4s 6d 8h"})
    assert state.outcome is not None and state.outcome.pots[0].winners == [2]
    assert state.outcome.stacks == {1: 100 - 5 - 3 - 6, 2: 100 - 5 - 6 + 25}


def test_you_cannot_see_a_blind_man_but_a_blind_player_may_see_either() -> None:
    state = table(2)
    state.bet(1, 3)  # seat 1 blind, stake 6
    state.look(2)
    rejects(state, Action("see", 2, 12), "cannot_see_blind")
    state.bet(2, 6)  # going on betting is fine
    state.see(1, 6)
    assert state.phase == SHOWING
    both_blind = table(2)
    both_blind.bet(1, 3).see(2, 6)
    assert both_blind.phase == SHOWING


def test_a_tie_goes_against_the_seer() -> None:
    state = everyone_looks(table(2))
    state.bet(1, 5).see(2, 10)
    settle(state, {1: "7s 7d Qh", 2: "7c 7h Qd"})
    assert state.outcome is not None
    assert state.outcome.pots[0].winners == [1]
    assert "tie goes against" in state.outcome.pots[0].explanation


def test_the_seer_wins_only_with_a_strictly_better_hand() -> None:
    state = everyone_looks(table(2))
    state.bet(1, 5).see(2, 10)
    settle(state, {1: "7s 7d Qh", 2: "7c 7h Kd"})
    assert state.outcome is not None and state.outcome.pots[0].winners == [2]


def test_two_players_may_go_on_betting_even_doubling_without_seeing() -> None:
    state = everyone_looks(table(2))
    state.bet(1, 5).bet(2, 10).bet(1, 20).bet(2, 40)
    assert state.stake == 40 and state.phase == "betting"


def test_see_cost_equal_option() -> None:
    rules = Rules(ante=5, min_bet=5, max_bet=20, max_raise=20, see_cost="equal")
    state = table(2, rules=rules)
    state.look(2).bet(1, 5)  # blind 5 -> stake 10
    state.bet(2, 11)
    rejects(state, Action("see", 1, 11), "see_wrong_amount")
    state.see(1, 6)  # blind pays half of the stake, rounded up
    assert state.phase == SHOWING
    open_ = everyone_looks(table(2, rules=rules))
    open_.bet(1, 7).see(2, 7)  # open pays the stake
    assert open_.pot_total == 10 + 14


@pytest.mark.parametrize(
    ("see_cost", "cost"),
    [("double", 10), ("equal", 10)],
)
def test_a_blind_player_seeing_a_blind_player_pays_what_double_asks(
    see_cost: str, cost: int
) -> None:
    """RULES 3.6, the ``equal`` option's Decision: seeing a blind player costs what it costs
    under ``double`` — a blind seer pays the stake (10 at a stake of 10), not half of it."""
    rules = Rules(ante=5, min_bet=5, max_bet=20, max_raise=20, see_cost=see_cost)
    state = table(2, rules=rules)
    state.bet(1, 5)  # blind 5 -> stake 10; both still blind
    assert state.stake == 10
    (see,) = [o for o in state.legal_actions() if o.action == "see"]
    assert see.cost == cost
    rejects(state, Action("see", 2, 5), "see_wrong_amount")
    state.see(2, cost)
    assert state.phase == SHOWING
    assert state.pot_total == 10 + 5 + cost


# ---------------------------------------------------------------- 3.7 everyone else folds


def test_an_open_last_player_wins_without_showing() -> None:
    state = table(3)
    state.look(1).bet(1, 5).fold(2).fold(3)
    assert state.outcome is not None
    assert state.outcome.pots[0].winners == [1] and state.outcome.shown == {}
    assert state.outcome.stacks[1] == 100 - 10 + 20
    assert state.outcome.carried_seat is None


def test_a_blind_last_player_does_not_win_the_pot_it_is_carried_forward() -> None:
    state = table(3)
    state.bet(1, 3).fold(2).fold(3)  # seat 1 never looked
    outcome = state.outcome
    assert outcome is not None
    assert outcome.carried_pot == 18 and outcome.carried_seat == 1
    assert outcome.pots[0].how == "carried" and outcome.pots[0].winners == []
    assert outcome.stacks == {1: 92, 2: 95, 3: 95}
    assert settled_total(state) == start_total(state)
    # The next hand: the pot is added, seat 1 holds two blind hands.
    nxt = table(
        3, stack=0, stacks=[92, 95, 95], dealer=outcome.next_dealer, carried_pot=18, carried_seat=1
    )
    assert nxt.pot_total == 18 + 15
    assert nxt.by_seat[1].hands == 2 and nxt.by_seat[1].blind


def test_decision_no_carry_forward_when_the_hand_has_a_covered_pot() -> None:
    state = table(3, stacks=[100, 8, 100])
    state.look(1).look(2)
    state.bet(1, 5)
    state.cover(2)  # 3 < 5: covers with 3; new pot for seats 1 and 3
    state.fold(3)  # seat 3 (blind) folds ... seat 1 left against the coverer
    assert state.phase == SHOWING
    assert state.cards_needed == [1, 2]
    blind_winner = table(3, stacks=[100, 8, 100])
    blind_winner.look(2).bet(1, 3)  # seat 1 blind, stake 6
    blind_winner.cover(2).fold(3)
    # Seat 1 is blind and alone, but there is a covered pot: no carry, the hand is shown.
    assert blind_winner.phase == SHOWING
    settle(blind_winner, {1: "As Ad 2c", 2: "Ks Kd Qc"})
    assert blind_winner.outcome is not None
    assert blind_winner.outcome.carried_pot == 0
    assert blind_winner.outcome.pots[0].winners == [1]


# ---------------------------------------------------------------- 3.8 covering the pot


def test_cover_only_when_short() -> None:
    state = everyone_looks(table(3))
    state.bet(1, 10)
    err = rejects(state, Action("cover", 2), "cover_not_needed")
    assert "10" in err.message


def test_cover_amount_must_be_the_whole_stack() -> None:
    state = everyone_looks(table(stacks=[100, 12, 100]))
    state.bet(1, 10)
    rejects(state, Action("cover", 2, 6), "cover_wrong_amount")
    # Found by the dump-and-replay property: 7.0 == 7 in Python, but an amount is a whole
    # number, and a history with 7.0 in it would not load again.
    for not_whole in (7.0, True, "7"):
        rejects(state, Action("cover", 2, not_whole), "cover_wrong_amount")  # type: ignore[arg-type]
    state.cover(2, 7)
    assert state.by_seat[2].stack == 0


def covered_three_way() -> HandState:
    """Seat 2 covers pot 0; seats 1 and 3 bet on in pot 1; seat 3 sees seat 1."""
    state = everyone_looks(table(4, stacks=[100, 12, 100, 100], dealer=4))
    state.bet(1, 10)
    state.cover(2)
    assert [p.amount for p in state.pots] == [37, 0]
    assert state.to_act == 3
    state.bet(3, 10).fold(4).bet(1, 10)
    assert [p.amount for p in state.pots] == [37, 20]  # new bets go into the new pot
    state.see(3, 20)
    assert state.cards_needed == [1, 3, 2]
    return state


def test_older_pot_goes_to_the_better_of_the_newer_winner_and_the_coverer() -> None:
    state = settle(covered_three_way(), {1: "Kh Kd 4c", 3: "Qs Js Ts", 2: "As Ad 2c"})
    assert state.outcome is not None
    newest, older = state.outcome.pots[1], state.outcome.pots[0]
    assert (newest.amount, newest.winners) == (40, [3])
    assert (older.amount, older.winners) == (37, [3])
    assert older.how == "covered_pot" and older.contenders == [1, 2, 3]
    assert state.outcome.stacks == {1: 75, 2: 0, 3: 65 + 40 + 37, 4: 95}


def test_the_coverer_takes_the_older_pot_with_a_better_hand() -> None:
    state = settle(covered_three_way(), {1: "Kh Kd 4c", 3: "Qs Js Ts", 2: "5h 5d 5c"})
    assert state.outcome is not None
    assert state.outcome.pots[0].winners == [2]
    assert state.outcome.pots[1].winners == [3]
    assert state.outcome.stacks == {1: 75, 2: 37, 3: 65 + 40, 4: 95}
    assert state.outcome.shuffle  # seen and won by a prial


def test_a_tie_for_the_older_pot_goes_to_the_newer_pots_winner() -> None:
    state = settle(covered_three_way(), {1: "Kh Kd 4c", 3: "Qs Js Ts", 2: "Qh Jh Th"})
    assert state.outcome is not None
    assert state.outcome.pots[0].winners == [3]
    assert "tie goes to the newer pot's winner" in state.outcome.pots[0].explanation


def test_a_second_cover_closes_another_pot_and_pots_settle_newest_first() -> None:
    state = everyone_looks(table(5, stacks=[100, 8, 15, 100, 100], dealer=5))
    state.bet(1, 5).cover(2)
    state.bet(3, 5).bet(4, 20).fold(5).bet(1, 20)
    state.cover(3)  # 5 < 20
    assert [p.amount for p in state.pots] == [33, 50, 0]
    state.bet(4, 20).fold(1)
    # Seat 4 won the newest pot by folds; its hand is shown against the coverers.
    assert state.cards_needed == [4, 3, 2]
    settle(state, {4: "9s 9d 2c", 3: "Ah Kh 5h", 2: "7c 7d 7h"})
    outcome = state.outcome
    assert outcome is not None
    assert [(p.amount, p.winners) for p in outcome.pots] == [(33, [2]), (50, [3]), (20, [4])]
    assert outcome.stacks == {1: 70, 2: 33, 3: 50, 4: 75, 5: 95}


def test_cover_with_one_other_left_ends_the_betting_and_the_other_shows() -> None:
    state = everyone_looks(table(stacks=[100, 20]))
    state.bet(1, 20).cover(2)
    assert state.phase == SHOWING and state.cards_needed == [1, 2]
    settle(state, {1: "Kh Kd 4c", 2: "Ks Kc 4d"})  # equal: the covering player needs better
    assert state.outcome is not None
    assert state.outcome.pots[0].winners == [1] and state.outcome.stacks == {1: 120, 2: 0}
    better = everyone_looks(table(stacks=[100, 20]))
    better.bet(1, 20).cover(2)
    settle(better, {1: "Kh Kd 4c", 2: "Ks Kc 5d"})
    assert better.outcome is not None and better.outcome.stacks == {1: 75, 2: 45}


def test_a_player_short_of_the_cost_of_seeing_may_cover_when_two_are_left() -> None:
    state = everyone_looks(table(stacks=[100, 30]))
    state.bet(1, 10).bet(2, 10).bet(1, 10)
    assert state.by_seat[2].stack == 15  # enough to stay in (10), not to see (20)
    state.cover(2)
    assert state.phase == SHOWING


def test_covering_switched_off_means_a_short_player_may_only_fold() -> None:
    rules = Rules(ante=5, min_bet=5, max_bet=20, max_raise=20, cover_allowed=False)
    state = everyone_looks(table(stacks=[100, 12, 100], rules=rules))
    state.bet(1, 10)
    rejects(state, Action("cover", 2), "cover_not_allowed")
    err = rejects(state, Action("bet", 2, 10), "insufficient_stack")
    assert "only fold" in err.message
    allowed = {a.action for a in state.legal_actions() if a.allowed}
    assert allowed == {"fold", "showdown"}  # three are left, so they may agree a showdown


# ---------------------------------------------------------------- 3.9 two hands


def two_hands() -> HandState:
    return table(3, carried_pot=30, carried_seat=2)


def test_the_player_who_kept_a_blind_hand_starts_with_two_blind_hands() -> None:
    state = two_hands()
    assert state.by_seat[2].hands == 2 and state.by_seat[2].blind
    assert state.pot_total == 45
    rejects(state, Action("look", 2, hand="old"), "look_not_your_turn")


def test_look_at_one_hand_then_keep_it() -> None:
    state = two_hands()
    state.look(1).bet(1, 5)
    rejects(state, Action("look", 2), "hand_required")
    rejects(state, Action("look", 2, hand="both"), "invalid_hand")
    state.look(2, "old")
    # The choice must be made at once: nothing else may happen.
    rejects(state, Action("bet", 2, 5), "decision_pending")
    rejects(state, Action("look", 3), "decision_pending")
    rejects(state, Action("showdown"), "decision_pending")
    rejects(state, Action("keep", 3), "decision_pending")
    state.keep(2)
    p = state.by_seat[2]
    assert (p.hands, p.blind, p.held) == (1, False, "old")
    rejects(state, Action("bet", 2, 3), "bet_below_stake")  # open now
    state.bet(2, 5)


def test_look_at_one_hand_and_throw_it_in_stays_blind_with_the_other() -> None:
    state = two_hands()
    state.look(1).bet(1, 5)
    state.look(2, "new").discard(2, "new")
    p = state.by_seat[2]
    assert (p.hands, p.blind, p.held) == (1, True, "old")
    state.bet(2, 3)  # still blind
    assert state.stake == 6


def test_throwing_in_the_unseen_hand_keeps_the_looked_at_one() -> None:
    state = two_hands()
    state.look(1).bet(1, 5)
    state.look(2, "new").discard(2, "old")
    p = state.by_seat[2]
    assert (p.hands, p.blind, p.held) == (1, False, "new")


def test_keep_and_discard_need_a_hand_just_looked_at() -> None:
    state = two_hands()
    state.look(1).bet(1, 5)
    rejects(state, Action("keep", 2), "nothing_to_keep")
    rejects(state, Action("discard", 2, hand="old"), "discard_not_allowed")


def test_two_hands_bet_as_one_blind_player() -> None:
    state = two_hands()
    state.look(1).bet(1, 5).bet(2, 3)
    assert state.stake == 6 and state.by_seat[2].hands == 2


def test_carried_again_the_player_keeps_only_one_hand_never_three() -> None:
    state = two_hands()
    state.fold(1).bet(2, 3).fold(3)
    assert state.phase == CHOOSING and state.must_choose == [2]
    rejects(state, Action("bet", 2, 3), "choose_hand_first")
    rejects(state, Action("discard", 2), "hand_required")
    state.discard(2, "old")
    outcome = state.outcome
    assert outcome is not None
    assert outcome.carried_seat == 2 and outcome.carried_pot == 48
    nxt = table(3, stacks=[95, 92, 95], carried_pot=48, carried_seat=2)
    assert nxt.by_seat[2].hands == 2  # the kept hand plus the new one


def test_decision_a_two_hand_player_throws_one_in_before_a_showdown() -> None:
    state = table(2, carried_pot=10, carried_seat=2)
    state.look(1).bet(1, 5)
    state.see(2, 5)  # blind with two hands: pays the stake
    assert state.phase == CHOOSING
    rejects(state, Action("show", 1, cards="As Ad 2c"), "choose_hand_first")
    state.discard(2, "new")
    assert state.phase == SHOWING and state.cards_needed == [1, 2]
    settle(state, {1: "As Ad 2c", 2: "Ks Kd Qc"})
    assert state.by_seat[2].held == "old"


# ---------------------------------------------------------------- 3.10 agreed showdown


def test_agreed_showdown_needs_three_players() -> None:
    state = everyone_looks(table(2))
    state.bet(1, 5)
    rejects(state, Action("showdown"), "showdown_needs_three")


def test_agreed_showdown_shows_every_hand_and_the_best_wins() -> None:
    state = everyone_looks(table(3))
    state.bet(1, 5).bet(2, 5).bet(3, 5).showdown()
    assert state.cards_needed == [1, 2, 3]
    settle(state, {1: "Kh Kd 4c", 2: "2s 3s 5s", 3: "Qh 9d 2c"})
    assert state.outcome is not None
    assert state.outcome.pots[0].winners == [2] and state.outcome.pots[0].how == "showdown"


@pytest.mark.parametrize(("dealer", "odd_to"), [(3, 1), (1, 2)])
def test_equal_best_hands_split_and_the_odd_unit_goes_first_clockwise(
    dealer: int, odd_to: int
) -> None:
    state = everyone_looks(table(3, dealer=dealer))
    first, second, last = (p.seat for p in state.players)
    state.bet(first, 5).bet(second, 5).bet(last, 6)
    state.showdown()
    settle(state, {1: "Kh Kd 4c", 2: "Ks Kc 4d", 3: "Qh 9d 2c"})
    outcome = state.outcome
    assert outcome is not None
    assert outcome.pots[0].amount == 31
    assert outcome.pots[0].shares == {odd_to: 16, 3 - odd_to: 15}


# ---------------------------------------------------------------- 3.11 rake


def test_rake_is_taken_per_pot_when_won_rounded_down_and_capped() -> None:
    rules = Rules(ante=5, min_bet=5, max_bet=20, max_raise=20, rake_percent=10, rake_cap=3)
    state = everyone_looks(table(3, rules=rules))
    state.bet(1, 20).bet(2, 20).fold(3).fold(1)
    outcome = state.outcome
    assert outcome is not None
    assert outcome.pots[0].amount == 55 and outcome.pots[0].rake == 3 and outcome.house == 3
    assert outcome.stacks[2] == 75 + 52
    uncapped = everyone_looks(
        table(3, rules=Rules(ante=5, min_bet=5, max_bet=20, max_raise=20, rake_percent=10))
    )
    uncapped.bet(1, 9).fold(2).fold(3)
    assert uncapped.outcome is not None and uncapped.outcome.house == 2  # 24 * 10% = 2.4


def test_no_rake_on_a_carried_pot() -> None:
    rules = Rules(ante=5, min_bet=5, max_bet=20, max_raise=20, rake_percent=10)
    state = table(3, rules=rules)
    state.bet(1, 3).fold(2).fold(3)
    assert state.outcome is not None
    assert state.outcome.house == 0 and state.outcome.carried_pot == 18


# ---------------------------------------------------------------- 3.12 after the hand


def test_the_deal_passes_to_the_next_seated_player() -> None:
    state = table(seats=[1, 3, 5, 6], sitting_out=[5], dealer=3)
    state.fold(6)
    state.fold(1)
    assert state.outcome is not None and state.outcome.next_dealer == 6
    wrap = table(seats=[2, 4], dealer=4)
    wrap.look(2).bet(2, 5).fold(4)
    assert wrap.outcome is not None and wrap.outcome.next_dealer == 2


def test_shuffle_before_the_first_deal_and_after_a_see_won_by_a_prial() -> None:
    assert table(2, first_deal=True).shuffle_before_deal
    assert not table(2).shuffle_before_deal
    prial = everyone_looks(table(2))
    prial.bet(1, 5).see(2, 10)
    settle(prial, {1: "4s 4d 4h", 2: "As Kd Qh"})
    assert prial.outcome is not None and prial.outcome.shuffle
    other = everyone_looks(table(2))
    other.bet(1, 5).see(2, 10)
    settle(other, {1: "4s 4d 5h", 2: "As Kd Qh"})
    assert other.outcome is not None and not other.outcome.shuffle
    folds = everyone_looks(table(2))
    folds.bet(1, 5).fold(2)
    assert folds.outcome is not None and not folds.outcome.shuffle


# ---------------------------------------------------------------- showing cards


def test_shown_cards_are_checked() -> None:
    state = everyone_looks(table(3))
    state.bet(1, 5).fold(2).see(3, 10)
    rejects(state, Action("bet", 1, 5), "cards_required")
    rejects(state, Action("show", 2, cards="As Kd Qh"), "cards_not_needed")
    rejects(state, Action("show", 1, cards="As Kd"), "wrong_card_count")
    rejects(state, Action("show", 1, cards="As Kd Zz"), "invalid_card")
    rejects(state, Action("show", 1, cards="As As Qh"), "duplicate_card")
    state.show(1, "As Kd Qh")
    rejects(state, Action("show", 3, cards="Ah Kd 2c"), "card_already_shown")
    rejects(state, Action("show", 1, cards="2h 3d 4c"), "cards_not_needed")
    state.show(3, "Ah Kh 2c")
    assert state.phase == SETTLED
    rejects(state, Action("fold", 1), "hand_over")


def test_unknown_action_and_seat() -> None:
    state = table(3)
    rejects(state, Action("raise", 1, 5), "unknown_action")
    rejects(state, Action("bet", 9, 5), "unknown_seat")
    rejects(state, Action("bet", None, 5), "unknown_seat")


# ---------------------------------------------------------------- options of RULES §2


def test_blind_play_off() -> None:
    rules = Rules(ante=5, min_bet=5, max_bet=20, max_raise=20, blind_allowed=False)
    state = table(3, rules=rules)
    rejects(state, Action("bet", 1, 5), "blind_play_not_allowed")
    bet = next(a for a in state.legal_actions() if a.action == "bet")
    assert not bet.allowed and bet.code == "blind_play_not_allowed"
    state.look(1).bet(1, 5).fold(2)
    state.fold(3)
    # Seat 1 looked; but even a player who never looked wins outright with blind play off.
    nobody_looked = table(3, rules=rules)
    nobody_looked.fold(1)
    nobody_looked.fold(2)
    assert nobody_looked.outcome is not None
    assert nobody_looked.outcome.carried_pot == 0 and nobody_looked.outcome.pots[0].winners == [3]
    with pytest.raises(EngineError) as err:
        table(2, rules=rules, carried_pot=10, carried_seat=1)
    assert err.value.code == "invalid_setup"


def test_pot_limit_option_limits_the_first_bet_and_raises_to_the_pot() -> None:
    rules = Rules(ante=1, min_bet=1, max_bet=10, max_raise=10, pot_limit=True)
    state = everyone_looks(table(3, rules=rules))  # pot 3
    rejects(state, Action("bet", 1, 4), "raise_above_pot")
    state.bet(1, 3)  # pot 6: the stake may rise by at most 6
    rejects(state, Action("bet", 2, 10), "raise_above_pot")
    state.bet(2, 9)
    assert state.stake == 9
    floor = everyone_looks(
        table(2, rules=Rules(ante=0, min_bet=4, max_bet=10, max_raise=10, pot_limit=True))
    )
    floor.bet(1, 4)  # the limit never drops below min_bet


# ---------------------------------------------------------------- legal actions


def test_legal_actions_give_amounts_costs_and_reasons() -> None:
    state = table(stacks=[100, 40])
    state.look(1).bet(1, 10)
    legal = {a.action: a for a in state.legal_actions()}
    assert legal["bet"].allowed and legal["bet"].blind
    assert (legal["bet"].min_amount, legal["bet"].max_amount) == (5, 15)
    assert legal["see"].allowed and legal["see"].cost == 10
    assert legal["look"].allowed
    assert legal["fold"].allowed
    assert not legal["cover"].allowed and legal["cover"].code == "cover_not_needed"
    assert not legal["showdown"].allowed and legal["showdown"].code == "showdown_needs_three"
    state.look(2)
    legal = {a.action: a for a in state.legal_actions()}
    assert (legal["bet"].min_amount, legal["bet"].max_amount) == (10, 30)
    assert legal["see"].allowed and legal["see"].cost == 20  # open sees open: twice 10
    # The stack caps the most a player may bet.
    state.bet(2, 30)
    legal = {a.action: a for a in state.legal_actions()}
    assert not legal["look"].allowed and legal["look"].code == "already_open"
    assert (legal["bet"].min_amount, legal["bet"].max_amount) == (30, 50)
    assert legal["see"].cost == 60


def test_legal_actions_before_the_first_bet_offer_looks_to_everyone() -> None:
    state = table(3)
    looks = [a.seat for a in state.legal_actions() if a.action == "look" and a.allowed]
    assert looks == [1, 2, 3]
    see = next(a for a in state.legal_actions() if a.action == "see")
    assert not see.allowed and see.code == "see_needs_two_players"


def test_every_allowed_action_is_accepted() -> None:
    state = table(4, stacks=[100, 12, 100, 60], carried_pot=20, carried_seat=4)
    state.look(1).bet(1, 10)
    for option in state.legal_actions():
        if not option.allowed:
            continue
        amounts = (
            [option.min_amount, option.max_amount] if option.action == "bet" else [option.cost]
        )
        for amount in amounts:
            hand = option.hands[0] if option.hands else None
            assert state.can(Action(option.action, option.seat, amount, hand)), option


@pytest.mark.parametrize(
    "action",
    [
        Action("look", 1, amount=5),
        Action("fold", 1, hand="old"),
        Action("bet", 1, 5, cards="As Kd Qh"),
        Action("showdown", 1),
        Action("keep", 1, hand="old"),
    ],
)
def test_fields_that_do_not_belong_with_an_action_are_refused(action: Action) -> None:
    state = table(3)
    rejects(state, action, "unexpected_field")
