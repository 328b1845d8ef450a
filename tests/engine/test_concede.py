"""Giving up at the showdown (RULES §3.6, §3.8): every legal and every illegal ``concede``, and
the Decisions of §3.12 on shuffling and on players sitting out."""

from __future__ import annotations

import json

from brag_event.engine import (
    CHOOSING,
    SETTLED,
    SHOWING,
    Action,
    HandState,
    dump,
    outcome_dict,
    replay,
)

from .helpers import (
    cli,
    covered_three_way,
    everyone_looks,
    rejects,
    seen_two_way,
    settled_total,
    start_total,
    table,
)


def allowed(state: HandState, kind: str) -> list[int | None]:
    """The seats for which ``legal_actions()`` offers ``kind`` as allowed."""
    return [la.seat for la in state.legal_actions() if la.allowed and la.action == kind]


# ---------------------------------------------------------------- a see


def test_the_seer_gives_up_once_the_seen_hand_is_shown_and_the_seen_player_wins() -> None:
    state = seen_two_way()
    rejects(state, Action("concede", 2), "concede_too_early")
    assert allowed(state, "concede") == []
    state.show(1, "Kh Kd 4c")
    assert allowed(state, "show") == [2] and allowed(state, "concede") == [2]
    state.concede(2)
    out = state.outcome
    assert state.phase == SETTLED and out is not None
    assert out.pots[0].winners == [1] and out.pots[0].how == "see"
    assert out.stacks == {1: 100 - 10 + 25, 2: 100 - 15}
    assert set(out.shown) == {1} and out.conceded == [2]
    assert "Bill (seat 2) gives up without showing" in out.pots[0].explanation
    assert settled_total(state) == start_total(state)
    data = out.to_dict()
    assert data["conceded"] == [2] and set(data["shown"]) == {"1"}
    assert state.log[-1] == Action("concede", 2)


def test_the_seen_player_must_show_and_cannot_give_up() -> None:
    state = seen_two_way()
    err = rejects(state, Action("concede", 1), "concede_must_show")
    assert "Andy (seat 1) must show" in err.message
    state.show(1, "Kh Kd 4c")
    rejects(state, Action("concede", 1), "already_shown")


def test_a_seer_who_has_shown_cannot_give_up_and_one_who_gave_up_cannot_show() -> None:
    shown = seen_two_way()
    shown.show(2, "Qs Js Ts")  # the seer's cards entered first: then the seen player's are due
    rejects(shown, Action("concede", 2), "already_shown")
    assert allowed(shown, "concede") == []
    gave_up = covered_three_way()  # pot 0 still open after the seer gives up
    gave_up.show(1, "Kh Kd 4c")
    gave_up.concede(3)
    assert gave_up.phase == SHOWING and gave_up.cards_needed == [2]
    rejects(gave_up, Action("concede", 3), "already_conceded")
    rejects(gave_up, Action("show", 3, cards="Qs Js Ts"), "cards_not_needed")


def test_giving_up_with_an_equal_hand_ends_as_showing_it_would() -> None:
    """A tie goes against the seer (§3.6), so the seer with an equal hand may as well give up:
    the money is the same, only the seer's cards stay unknown."""
    shown = seen_two_way()
    shown.show(1, "7s 7d Qh").show(2, "7c 7h Qd")
    conceded = seen_two_way()
    conceded.show(1, "7s 7d Qh").concede(2)
    assert shown.outcome is not None and conceded.outcome is not None
    assert shown.outcome.stacks == conceded.outcome.stacks
    assert shown.outcome.pots[0].winners == conceded.outcome.pots[0].winners == [1]
    assert 2 in shown.outcome.shown and 2 not in conceded.outcome.shown


def test_giving_up_is_only_at_the_showdown() -> None:
    state = everyone_looks(table(3))
    rejects(state, Action("concede", 1), "concede_not_now")
    state.bet(1, 5)
    err = rejects(state, Action("concede", 2), "concede_not_now")
    assert "fold" in err.message
    rejects(state, Action("concede", 5), "unknown_seat")
    rejects(state, Action("concede", 2, 5), "unexpected_field")
    rejects(state, Action("concede", 2, hand="old"), "unexpected_field")
    rejects(state, Action("concede"), "unknown_seat")
    assert "concede" not in {la.action for la in state.legal_actions()}
    state.fold(2).see(3, 10)
    state.show(1, "Kh Kd 4c")
    rejects(state, Action("concede", 2), "concede_not_in_showdown")  # folded
    state.concede(3)
    rejects(state, Action("concede", 3), "hand_over")


def test_an_agreed_showdown_shows_every_hand() -> None:
    state = everyone_looks(table(3))
    state.bet(1, 5).bet(2, 5).bet(3, 5).showdown()
    state.show(1, "2c 3d 5h")
    for seat in (2, 3):
        rejects(state, Action("concede", seat), "concede_must_show")
    assert allowed(state, "concede") == []


def test_a_prial_shown_by_the_seen_player_who_wins_on_a_concession_means_a_shuffle() -> None:
    prial = seen_two_way()
    prial.show(1, "4s 4d 4h").concede(2)
    assert prial.outcome is not None and prial.outcome.shuffle
    plain = seen_two_way()
    plain.show(1, "4s 4d 5h").concede(2)
    assert plain.outcome is not None and not plain.outcome.shuffle


# ---------------------------------------------------------------- a covered pot, one other left


def test_the_covering_player_gives_up_against_the_last_other_player() -> None:
    state = everyone_looks(table(stacks=[100, 20]))
    state.bet(1, 20).cover(2)
    assert state.cards_needed == [1, 2]
    rejects(state, Action("concede", 2), "concede_too_early")
    rejects(state, Action("concede", 1), "concede_must_show")
    state.show(1, "Kh Kd 4c")
    assert allowed(state, "concede") == [2]
    state.concede(2)
    out = state.outcome
    assert out is not None and out.pots[0].winners == [1] and out.pots[0].how == "cover"
    assert out.stacks == {1: 75 + 45, 2: 0} and out.conceded == [2]
    assert "gives up without showing" in out.pots[0].explanation
    assert settled_total(state) == start_total(state)


# ---------------------------------------------------------------- a covered pot, two others


def test_the_coverer_gives_up_only_once_the_newer_pots_winner_is_known_and_shown() -> None:
    state = covered_three_way()
    # Pot 1 (Andy against Chris) decides who Bill plays against: not known yet.
    err = rejects(state, Action("concede", 2), "concede_too_early")
    assert "the winner of the newer pot" in err.message
    state.show(1, "Kh Kd 4c")
    rejects(state, Action("concede", 2), "concede_too_early")
    assert allowed(state, "concede") == [3]
    state.show(3, "Qs Js Ts")  # Chris wins pot 1 and has shown
    assert allowed(state, "concede") == [2]
    state.concede(2)
    out = state.outcome
    assert out is not None
    assert [(p.amount, p.winners) for p in out.pots] == [(37, [3]), (40, [3])]
    assert out.pots[0].how == "covered_pot" and out.pots[0].contenders == [1, 2, 3]
    assert "Bill (seat 2) (gave up without showing)" in out.pots[0].explanation
    assert out.stacks == {1: 75, 2: 0, 3: 65 + 40 + 37, 4: 95}
    assert settled_total(state) == start_total(state)


def test_the_seer_and_then_the_coverer_give_up_and_the_seen_player_takes_both_pots() -> None:
    state = covered_three_way()
    state.show(1, "Kh Kd 4c")
    state.concede(3)  # Andy wins pot 1, and has shown: Bill's comparison is due
    assert allowed(state, "concede") == [2]
    state.concede(2)
    out = state.outcome
    assert out is not None
    assert [(p.amount, p.winners) for p in out.pots] == [(37, [1]), (40, [1])]
    assert out.conceded == [3, 2] and set(out.shown) == {1}
    assert settled_total(state) == start_total(state)


def test_a_coverer_who_shows_a_better_hand_still_takes_the_older_pot_after_a_concession() -> None:
    state = covered_three_way()
    state.show(1, "Kh Kd 4c").concede(3).show(2, "5h 5d 5c")
    out = state.outcome
    assert out is not None
    assert [(p.amount, p.winners) for p in out.pots] == [(37, [2]), (40, [1])]
    assert out.shuffle  # a pot won by a shown prial


def test_the_player_everyone_folded_to_must_show_for_the_covered_pots() -> None:
    state = everyone_looks(table(5, stacks=[100, 8, 15, 100, 100], dealer=5))
    state.bet(1, 5).cover(2)
    state.bet(3, 5).bet(4, 20).fold(5).bet(1, 20)
    state.cover(3)
    state.bet(4, 20).fold(1)
    assert state.cards_needed == [4, 3, 2]
    rejects(state, Action("concede", 4), "concede_must_show")
    err = rejects(state, Action("concede", 3), "concede_too_early")
    assert "Dan (seat 4)" in err.message  # the winner of the newer pot is known, not shown
    state.show(4, "9s 9d 2c")
    # Pot 1 (Chris's) is due, and asked first; pot 0 (Bill's) waits for pot 1's winner.
    assert state.cards_needed == [3, 2]
    assert allowed(state, "concede") == [3]
    rejects(state, Action("concede", 2), "concede_too_early")
    state.concede(3)
    assert allowed(state, "concede") == [2]
    state.show(2, "7c 7d 7h")
    out = state.outcome
    assert out is not None
    assert [(p.amount, p.winners) for p in out.pots] == [(33, [2]), (50, [4]), (20, [4])]
    assert out.stacks == {1: 70, 2: 33, 3: 0, 4: 75 + 50, 5: 95}
    assert settled_total(state) == start_total(state)


def test_a_disqualification_after_a_concession_asks_for_it_again() -> None:
    """The comparisons change with a player gone: a concession is entered again if it still
    stands."""
    state = covered_three_way()
    state.show(1, "Kh Kd 4c").concede(3)
    state.disqualify(2)  # Bill covered pot 0 and is folded out: pot 0 joins Andy and Chris
    assert state.phase == SHOWING and state.cards_needed == [3]
    assert allowed(state, "concede") == [3]
    state.concede(3)
    out = state.outcome
    assert out is not None and out.conceded == [3]
    assert [p.winners for p in out.pots] == [[1], [1]]
    assert settled_total(state) == start_total(state)


# ---------------------------------------------------------------- a player with two hands


def test_a_seer_holding_two_hands_throws_one_in_before_giving_up() -> None:
    state = table(2, carried_pot=20, carried_seat=2)
    state.look(1).bet(1, 5)
    state.see(2, 5)  # two blind hands, one blind player: sees for the stake
    assert state.phase == CHOOSING and state.must_choose == [2]
    rejects(state, Action("concede", 2), "choose_hand_first")
    state.discard(2, "old")
    assert state.phase == SHOWING
    rejects(state, Action("concede", 2), "concede_too_early")
    state.show(1, "As Ad 2c").concede(2)
    out = state.outcome
    assert out is not None and out.pots[0].winners == [1]
    assert out.stacks == {1: 100 - 10 + 40, 2: 90}
    assert settled_total(state) == start_total(state)


# ---------------------------------------------------------------- brag-hh/1 and the CLI


def conceded_document() -> dict[str, object]:
    state = seen_two_way()
    state.show(1, "Kh Kd 4c").concede(2)
    return json.loads(json.dumps(dump(state)))  # type: ignore[no-any-return]


def test_a_concession_is_written_and_replayed_and_the_conceders_cards_stay_unknown() -> None:
    doc = conceded_document()
    assert doc["actions"][-1] == {"seat": 2, "action": "concede"}  # type: ignore[index]
    assert doc["cards"] == {"1": "Kh Kd 4c"}
    again = replay(doc)
    assert outcome_dict(again)["conceded"] == [2]
    assert outcome_dict(again)["pots"][0]["winners"] == [1]


def test_a_history_that_shows_a_hand_it_also_gives_up_is_refused() -> None:
    doc = conceded_document()
    doc["cards"] = {"1": "Kh Kd 4c", "2": "Qs Js Ts"}
    result = cli("replay", "-", stdin=json.dumps(doc))
    assert result.returncode == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "invalid_history"
    assert "seat 2 gives up without showing" in error["message"]


def test_cli_replays_a_concession() -> None:
    result = cli("replay", "-", stdin=json.dumps(conceded_document()))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["conceded"] == [2] and set(out["shown"]) == {"1"}
    assert "gives up without showing" in out["pots"][0]["explanation"]


# ---------------------------------------------------------------- RULES §3.12 Decisions


def test_a_prial_that_wins_a_covered_pot_after_a_fold_means_a_shuffle() -> None:
    """'Seen' is any showdown: the hand everyone folded to is shown for the covered pot."""
    state = everyone_looks(table(stacks=[100, 8, 100]))
    state.bet(1, 5).cover(2).fold(3)
    state.show(1, "As Ad 2c").show(2, "6s 6d 6c")
    assert state.outcome is not None and state.outcome.pots[0].winners == [2]
    assert state.outcome.shuffle


def test_a_prial_shown_in_an_agreed_showdown_that_wins_means_a_shuffle() -> None:
    state = everyone_looks(table(3))
    state.bet(1, 5).bet(2, 5).bet(3, 5).showdown()
    state.show(1, "2c 3d 5h").show(2, "9s 9d 9h").show(3, "As Kd Qh")
    assert state.outcome is not None and state.outcome.shuffle


def test_a_kept_blind_hand_is_dead_when_its_owner_sits_out_and_the_carried_pot_goes_on() -> None:
    state = table(3, carried_pot=18, carried_seat=1, sitting_out=[1], dealer=3)
    assert 1 not in state.by_seat  # not dealt in: the kept hand is dead
    assert all(p.hands == 1 for p in state.players)
    assert state.pot_total == 18 + 10
    state.look(2).bet(2, 5).fold(3)
    out = state.outcome
    assert out is not None and out.pots[0].winners == [2] and out.pots[0].amount == 33
    assert out.carried_pot == 0 and out.carried_seat is None
    assert out.stacks == {1: 100, 2: 95 + 33 - 5, 3: 95}
    assert out.next_dealer == 2  # the deal passes over seat 1, sitting out
    assert settled_total(state) == start_total(state)
