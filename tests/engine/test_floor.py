"""RULES §4b in the engine: a misdeal gives every player back what they paid into the hand, and
a seat that misses hands as a penalty is not dealt in. Unit tests, then hypothesis properties:
a misdeal at any point of any random hand returns exactly what each player paid, conserves the
money, and replays from its ``brag-hh/1`` document to the same stacks."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from brag_event.engine import (
    BETTING,
    SETTLED,
    Action,
    HandState,
    SeatSetup,
    dump,
    load_history,
    outcome_dict,
    replay,
)
from brag_event.engine.errors import EngineError
from tests.engine.strategies import Table, play_random, tables

from .helpers import R, rejects, table

FAST = settings.get_current_profile_name() == "fast"
PROPERTY_SETTINGS = settings(
    deadline=None,
    max_examples=settings.get_profile("fast").max_examples if FAST else 150,
    suppress_health_check=[HealthCheck.too_slow],
)


# ---------------------------------------------------------------------------- misdeal


def test_misdeal_gives_back_antes_and_bets_and_keeps_the_carried_pot() -> None:
    state = table(3, 100, carried_pot=30, carried_seat=2)
    state.look(1).bet(1, 10).bet(2, 5)  # seat 2 holds two blind hands and bets blind
    state.misdeal("a card was exposed")
    out = state.outcome
    assert out is not None and out.misdeal is not None
    assert state.phase == SETTLED and state.misdealt
    assert out.misdeal.refunds == {1: 15, 2: 10, 3: 5}
    assert out.stacks == {1: 100, 2: 100, 3: 100}
    assert (out.carried_pot, out.carried_seat) == (30, 2)  # the kept blind hand stays kept
    assert out.next_dealer == 3  # the same dealer deals again …
    assert out.shuffle is True  # … after a shuffle
    assert out.house == 0
    data = outcome_dict(state)
    assert data["misdeal"] == {
        "reason": "a card was exposed",
        "refunds": {"1": 15, "2": 10, "3": 5},
    }
    assert data["pots"][0]["how"] == "misdeal"
    assert "Shuffle and deal again" in data["pots"][0]["explanation"]


def test_misdeal_after_a_cover_with_betting_going_on_returns_the_cover() -> None:
    state = table(stacks=[100, 100, 12])
    state.look(1).bet(1, 10).look(2).bet(2, 10)
    state.look(3).cover(3)  # 7 left, below the stake: covers, the others bet on
    assert state.phase == BETTING and len(state.pots) == 2
    state.bet(1, 10)
    state.misdeal()
    assert state.outcome is not None
    assert state.outcome.stacks == {1: 100, 2: 100, 3: 12}
    assert state.outcome.misdeal is not None and state.outcome.misdeal.reason == ""


def test_misdeal_refused_after_the_betting_ended() -> None:
    state = table(2, 100)
    state.look(1).bet(1, 10).look(2).bet(2, 10).see(1)
    rejects(state, Action("misdeal", reason="late"), "misdeal_too_late")
    state.show(1, "As Ks Qs").show(2, "2c 3d 5h")
    rejects(state, Action("misdeal"), "hand_over")


def test_misdeal_fields_are_checked() -> None:
    state = table(2, 100)
    rejects(state, Action("misdeal", seat=1), "unexpected_field")
    rejects(state, Action("misdeal", reason="x" * 201), "invalid_reason")
    rejects(state, Action("fold", state.to_act, reason="why"), "unexpected_field")


def test_misdeal_is_never_offered_to_the_dealer() -> None:
    state = table(3, 100)
    assert all(a.action != "misdeal" for a in state.legal_actions())


def test_misdeal_replays_from_its_history() -> None:
    state = table(3, 100, carried_pot=12, carried_seat=1)
    state.bet(1, 5).misdeal("two cards face up")
    doc = json.loads(json.dumps(dump(state)))
    assert doc["actions"][-1] == {"action": "misdeal", "reason": "two cards face up"}
    again = replay(doc)
    assert again.outcome is not None and state.outcome is not None
    assert again.outcome.to_dict() == state.outcome.to_dict()


def test_a_misdeal_in_a_history_with_a_seat_is_invalid() -> None:
    doc = dump(table(2, 100))
    doc["actions"] = [{"seat": 1, "action": "misdeal"}]
    with pytest.raises(EngineError) as err:
        load_history(doc)
    assert err.value.code == "invalid_history"


# ---------------------------------------------------------------------------- missed hands


def test_a_penalty_seat_is_not_dealt_in_and_pays_no_ante() -> None:
    seats = [SeatSetup(1, "A", 100), SeatSetup(2, "B", 100, penalty=True), SeatSetup(3, "C", 100)]
    state = HandState(R, 3, seats)
    assert [p.seat for p in state.players] == [1, 3]
    assert state.pot_total == 10
    state.look(1).fold(1)
    assert state.outcome is not None
    assert state.outcome.stacks[2] == 100
    assert state.outcome.next_dealer == 1  # the button passes a seat that sits the hand out
    doc = dump(state)
    assert doc["seats"][1] == {"seat": 2, "player": "B", "stack": 100, "penalty": True}
    assert replay(doc).outcome.to_dict() == state.outcome.to_dict()  # type: ignore[union-attr]


def test_penalty_must_be_a_boolean_in_a_history() -> None:
    doc = dump(table(2, 100))
    doc["seats"][0]["penalty"] = "yes"
    with pytest.raises(EngineError) as err:
        load_history(doc)
    assert err.value.code == "invalid_history"


def test_only_penalty_seats_left_means_no_hand() -> None:
    seats = [SeatSetup(1, "A", 100), SeatSetup(2, "B", 100, penalty=True)]
    try:
        HandState(R, 1, seats)
    except EngineError as err:
        assert err.code == "not_enough_players"
    else:  # pragma: no cover
        raise AssertionError("dealt")


# ---------------------------------------------------------------------------- properties


@PROPERTY_SETTINGS
@given(table=tables(), data=st.data())
def test_a_misdeal_at_any_point_gives_everyone_back_what_they_paid(
    table: Table, data: st.DataObject
) -> None:
    note(f"table: {table!r}")
    state = table.start()
    # Stop the random play at a random moment of the betting and declare a misdeal there.
    stop_after = data.draw(st.integers(0, 40), label="actions before the misdeal")
    count = [0]

    def maybe_misdeal(s: HandState) -> None:
        if s.phase == BETTING and count[0] >= stop_after:
            paid = {p.seat: p.paid for p in s.players}
            start = {p.seat: p.start for p in s.players}
            s.misdeal("property")
            out = s.outcome
            assert out is not None and out.misdeal is not None
            assert out.misdeal.refunds == paid
            for seat, stack in out.stacks.items():
                setup = next(x for x in table.seats if x.seat == seat)
                assert stack == start.get(seat, setup.stack) == setup.stack
            assert out.carried_pot == table.carried_pot
            total = sum(out.stacks.values()) + out.carried_pot + out.house
            assert total == table.money
            assert out.next_dealer == table.dealer and out.shuffle
            again = replay(json.loads(json.dumps(dump(s))))
            assert again.outcome is not None
            assert again.outcome.to_dict() == out.to_dict()
        count[0] += 1

    play_random(state, data, table, before_each=maybe_misdeal)
    assert state.phase == SETTLED


@PROPERTY_SETTINGS
@given(table=tables(), data=st.data())
def test_a_misdeal_is_refused_once_the_betting_is_over(table: Table, data: st.DataObject) -> None:
    note(f"table: {table!r}")
    state = table.start()

    def check(s: HandState) -> None:
        if s.phase != BETTING:
            assert not s.can(Action("misdeal"))

    play_random(state, data, table, after_each=check)
    if not state.misdealt:
        assert not state.can(Action("misdeal"))


# ---------------------------------------------------------------------------- disqualification


def test_disqualifying_the_player_to_act_passes_the_turn_on() -> None:
    state = table(3, 100)
    state.look(1).bet(1, 10)
    assert state.to_act == 2
    state.disqualify(2)
    assert state.by_seat[2].status == "folded" and state.to_act == 3
    assert state.pot_total == 25  # what seat 2 paid stays in the pot
    state.look(3).see(3)
    state.show(3, "As Ks Qs").show(1, "2c 3d 5h")
    out = state.outcome
    assert out is not None and out.stacks == {1: 85, 2: 95, 3: 120}


def test_disqualifying_another_player_keeps_the_turn() -> None:
    state = table(4, 100)
    state.look(1).bet(1, 10)
    state.disqualify(3)
    assert state.to_act == 2 and state.active_seats == [1, 2, 4]
    state.look(2).bet(2, 10)
    assert state.to_act == 4  # seat 3 is skipped, as after any fold


def test_disqualifying_one_of_the_last_two_gives_the_other_the_pot() -> None:
    state = table(2, 100)
    state.look(1).bet(1, 10).look(2)
    state.disqualify(1)  # not their turn (seat 2 is to act)
    out = state.outcome
    assert state.phase == SETTLED and out is not None
    assert out.pots[0].how == "folds" and out.pots[0].winners == [2]
    assert out.stacks == {1: 85, 2: 115}


def test_disqualifying_a_player_deciding_between_two_hands_clears_the_decision() -> None:
    state = table(3, 100, carried_pot=30, carried_seat=1)
    state.look(1, "new")
    assert state.pending is not None
    state.disqualify(1)
    assert state.pending is None and state.to_act == 2


def test_disqualify_is_refused_when_it_cannot_fold() -> None:
    state = table(3, 100)
    state.look(1).bet(1, 10).fold(2)
    rejects(state, Action("disqualify", 2), "player_out")
    rejects(state, Action("disqualify", 9), "unknown_seat")
    rejects(state, Action("disqualify", 1, amount=3), "unexpected_field")
    state.look(3).see(3)
    state.disqualify(1)  # after the see: seat 3 wins as after a fold
    assert state.outcome is not None and state.outcome.pots[0].winners == [3]


def test_disqualify_is_never_offered_and_replays_from_its_history() -> None:
    state = table(3, 100)
    assert all(a.action != "disqualify" for a in state.legal_actions())
    state.bet(1, 5).disqualify(3).disqualify(1)
    doc = json.loads(json.dumps(dump(state)))
    assert {"seat": 3, "action": "disqualify"} in doc["actions"]
    again = replay(doc)
    assert again.outcome is not None and state.outcome is not None
    assert again.outcome.to_dict() == state.outcome.to_dict()


def test_disqualifying_a_player_who_covered_gives_their_pot_to_the_newer_winner() -> None:
    state = table(stacks=[100, 100, 12])
    state.look(1).bet(1, 10).look(2).bet(2, 10)
    state.look(3).cover(3)  # 7 more: pot 1 is 15 + 10 + 10 + 7 = 42, covered by seat 3
    assert state.phase == BETTING and state.pots[0].coverers == [3]
    state.disqualify(3)  # a covered player: their hand is folded, their money stays
    assert state.by_seat[3].status == "folded" and state.pots[0].coverers == []
    assert state.pot_total == 42 and state.to_act == 1
    state.bet(1, 10).see(2)
    state.show(1, "2c 3d 5h").show(2, "As Ks Qs")  # seat 3's hand is never needed
    out = state.outcome
    assert out is not None and [p.winners for p in out.pots] == [[2], [2]]
    assert out.pots[0].how == "covered_pot" and "disqualified" in out.pots[0].explanation
    assert out.pots[0].contenders == [1, 2]
    assert out.stacks == {1: 75, 2: 137, 3: 0}
    assert sum(out.stacks.values()) == 212


def test_disqualifying_the_seer_after_the_see_gives_the_seen_player_the_pot() -> None:
    state = table(3, 100)
    state.look(1).bet(1, 10).fold(2).look(3).see(3)
    assert state.cards_needed == [1, 3]
    state.show(3, "As Ks Qs")  # seat 3's hand is already shown …
    state.disqualify(3)  # … when the floor disqualifies them: seat 1 wins as after a fold
    out = state.outcome
    assert out is not None and out.pots[0].how == "folds" and out.pots[0].winners == [1]
    assert out.stacks == {1: 130, 2: 95, 3: 75}
    assert out.pots[0].explanation.startswith(
        "Andy (seat 1) wins: everyone else folded or was disqualified (Chris (seat 3))."
    )  # seat 3 paid the ante and 20 to see
    assert out.shown == {}
    doc = json.loads(json.dumps(dump(state)))
    # The show before the disqualification stays in its place, so the replay agrees.
    assert doc["actions"][-2:] == [
        {"seat": 3, "action": "show", "cards": "As Ks Qs"},
        {"seat": 3, "action": "disqualify"},
    ]
    assert doc["cards"] == {}
    again = replay(doc)
    assert again.outcome is not None and again.outcome.to_dict() == out.to_dict()


def test_disqualifying_a_blind_player_s_only_opponent_after_a_see_carries_the_pot() -> None:
    state = table(2, 100)
    state.bet(1, 5).bet(2, 5).see(1)  # both blind: seat 1 sees for 10
    state.disqualify(2)  # seat 1 is left alone, blind: the pot carries as after a fold
    out = state.outcome
    assert out is not None and out.pots[0].how == "carried"
    assert (out.carried_pot, out.carried_seat) == (30, 1)


def test_disqualifying_the_player_left_against_a_cover_gives_the_coverer_everything() -> None:
    state = table(stacks=[100, 30])
    state.look(1).bet(1, 20).look(2).cover(2)  # seat 2 (25 left) covers: betting ends
    assert state.end == "cover" and state.cards_needed == [1, 2]
    state.disqualify(1)  # nobody left in the betting: the coverer's pot is theirs
    out = state.outcome
    assert out is not None and out.pots[0].winners == [2] and out.pots[0].how == "disqualified"
    assert out.stacks == {1: 75, 2: 55}


def test_disqualifying_the_coverer_after_a_cover_gives_the_other_the_pot() -> None:
    state = table(stacks=[100, 30])
    state.look(1).bet(1, 20).look(2).cover(2)
    state.disqualify(2)
    out = state.outcome
    assert out is not None and out.pots[0].winners == [1] and out.pots[0].how == "folds"
    assert out.stacks == {1: 130, 2: 0}


def test_disqualifying_the_last_bettor_leaves_the_pots_to_the_coverers() -> None:
    # Seat 3 covers pot 1, seats 1 and 2 bet on into pot 2, seat 2 folds: seat 1 shows against
    # seat 3 — until seat 1 is disqualified; then seat 3 takes pot 1, and pot 2 goes with it.
    state = table(stacks=[100, 100, 12])
    state.look(1).bet(1, 10).look(2).bet(2, 10).look(3).cover(3)
    state.bet(1, 10).fold(2)
    assert state.phase == "showing" and state.cards_needed == [1, 3]
    state.disqualify(1)
    out = state.outcome
    assert out is not None
    assert [(p.index, p.winners, p.how) for p in out.pots] == [
        (0, [3], "disqualified"),
        (1, [3], "covered_pot"),
    ]
    assert out.stacks == {1: 75, 2: 85, 3: 52}


def test_disqualifying_the_blind_winner_choosing_a_hand_carries_the_pot_with_nobody() -> None:
    state = table(3, 100, carried_pot=30, carried_seat=1)
    state.bet(1, 5).fold(2).fold(3)  # everyone folds to seat 1, blind with two hands
    assert state.phase == "choosing" and state.must_choose == [1]
    state.disqualify(1)
    out = state.outcome
    assert out is not None and out.pots[0].how == "carried"
    assert (out.carried_pot, out.carried_seat) == (50, None)
    assert out.stacks == {1: 90, 2: 95, 3: 95}
    again = replay(json.loads(json.dumps(dump(state))))
    assert again.outcome is not None and again.outcome.to_dict() == out.to_dict()


def test_disqualifying_one_of_an_agreed_showdown_shows_the_others() -> None:
    state = table(4, 100)
    state.look(1).bet(1, 10).look(2).bet(2, 10).look(3).bet(3, 10).fold(4).showdown()
    state.show(1, "As Ad Ah")
    state.disqualify(1)  # the best hand, but folded: the two others show down
    assert state.cards_needed == [2, 3]
    state.show(2, "2c 3d 5h").show(3, "Ks Qs Js")
    out = state.outcome
    assert out is not None and out.pots[0].winners == [3] and out.stacks[1] == 85
    again = replay(json.loads(json.dumps(dump(state))))
    assert again.outcome is not None and again.outcome.to_dict() == out.to_dict()


@PROPERTY_SETTINGS
@given(table=tables(), data=st.data())
def test_a_disqualification_at_any_point_conserves_money_and_settles(
    table: Table, data: st.DataObject
) -> None:
    """One or more players still in the hand (betting, covered, or waiting to show) are
    disqualified at random moments, up to the settlement: the money is conserved, a
    disqualified player pays nothing more and wins nothing, and the export replays."""
    note(f"table: {table!r}")
    state = table.start()
    stop_after = data.draw(st.integers(0, 40), label="actions before the first one")
    count = [0]
    out_seat: dict[int, int] = {}

    def maybe_disqualify(s: HandState) -> None:
        count[0] += 1
        if s.phase == SETTLED or count[0] <= stop_after or not data.draw(st.booleans()):
            return
        still_in = [p.seat for p in s.players if p.status != "folded"]
        seat = data.draw(st.sampled_from(still_in), label="disqualified seat")
        before = s.snapshot()
        phase = s.phase
        out_seat[seat] = s.by_seat[seat].stack
        s.disqualify(seat)
        assert s.snapshot() != before and s.by_seat[seat].status == "folded"
        assert all(seat not in pot.coverers for pot in s.pots)
        assert seat not in s.cards_needed and seat not in s.must_choose
        if phase == BETTING and s.phase == BETTING:
            assert s.to_act != seat
        # A player already out cannot be disqualified out of the hand again.
        if s.phase != SETTLED:
            assert not s.can(Action("disqualify", seat))

    play_random(state, data, table, before_each=maybe_disqualify)
    out = state.outcome
    assert state.phase == SETTLED and out is not None
    assert sum(out.stacks.values()) + out.carried_pot + out.house == table.money
    won = sum(out.stacks[p.seat] - (p.start - p.paid) for p in state.players)
    assert won + out.carried_pot + out.house == state.pot_total  # every pot paid out once
    for seat, stack in out_seat.items():
        assert out.stacks[seat] == stack  # they pay nothing more and win nothing
        assert out.carried_seat != seat
        for pot in out.pots:
            assert seat not in pot.winners and seat not in pot.contenders
    for pot in out.pots:
        assert sum(pot.shares.values()) + pot.rake == (pot.amount if pot.how != "carried" else 0)
    if out.carried_pot and out.carried_seat is None and out_seat and not state.misdealt:
        # Carried with nobody keeping a hand: everyone still in the hand was disqualified.
        assert all(p.status == "folded" for p in state.players)
    again = replay(json.loads(json.dumps(dump(state))))
    assert again.outcome is not None and again.outcome.to_dict() == out.to_dict()
