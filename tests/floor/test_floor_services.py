"""The floor's services (RULES §4b): misdeals, missed hands, calls, rulings, disqualification and
the pots still carried at the day's close — each scenario ends with the ledger audit passing."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.closing.services import day_close_request
from brag_event.core.errors import Conflict, ServiceError, StaleHand
from brag_event.engine import Action, dump, replay
from brag_event.events.models import Day, DayClose
from brag_event.floor.models import CarriedSplit, FloorCall, Misdeal, Penalty, Ruling
from brag_event.floor.services import (
    floor_call_open,
    floor_call_take,
    hand_misdeal,
    penalty_lift,
    ruling_record,
)
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_start, hand_void_last_action
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player, Qualification, Standing, StandingSnapshot
from brag_event.players.services import player_register
from brag_event.standings.selectors import standings
from brag_event.tables.models import Seat, Table
from brag_event.tables.services import seat_buy_in
from tests.factories import act, assert_audit_ok, played, start, world

pytestmark = pytest.mark.django_db


def stacks(w: Any) -> list[int]:
    return [w.seat(n).stack for n in (1, 2, 3)]


def test_a_misdeal_gives_back_everything_paid_and_the_same_dealer_deals_again() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="bet", amount=5)  # blind
    assert stacks(w) == [195, 185, 190]
    hand, _state = hand_misdeal(hand=hand, reason="a card turned over", by=None)
    assert stacks(w) == [200, 200, 200]
    assert hand.result is not None
    assert hand.status == Hand.Status.SETTLED and hand.result["misdeal"]["refunds"] == {
        "2": 15,
        "3": 10,
        "1": 5,
    }
    assert Misdeal.objects.get(hand=hand).reason == "a card turned over"
    exported = dump(hand_state(hand))  # the brag-hh/1 export says so, and replays
    assert exported["actions"][-1] == {"action": "misdeal", "reason": "a card turned over"}
    assert replay(exported).outcome.to_dict()["misdeal"]["refunds"] == {"2": 15, "3": 10, "1": 5}  # type: ignore[union-attr]
    assert hand.actions.last().action == "misdeal"  # type: ignore[union-attr]
    # Nothing edited or reversed: the hand's stakes stay, and new refund transfers give each
    # player back what they paid, from the pot, which ends empty.
    assert not Transfer.objects.filter(hand=hand, kind="reversal").exists()
    assert not Transfer.objects.filter(hand=hand, reversed_by__isnull=False).exists()
    refunds = Transfer.objects.filter(hand=hand, kind="refund").select_related("source", "target")
    seats: dict[int | None, int] = {s.pk: s.number for s in Seat.objects.filter(table=w.table)}
    back = sorted((seats[t.target.seat_id], t.amount) for t in refunds)
    assert back == [(1, 5), (2, 15), (3, 10)]
    assert {t.source.kind for t in refunds} == {"pot"}
    assert {t.action.action for t in refunds} == {"misdeal"}  # type: ignore[union-attr]
    table = Table.objects.get(pk=w.table.pk)
    assert table.button == hand.dealer_seat and table.shuffle_next
    # Not counted as a hand played.
    assert set(Standing.objects.filter(day=w.day).values_list("hands_played", flat=True)) == {0}
    assert_audit_ok(w.event)
    again = hand_start(table=w.table, by=None)
    assert again.dealer_seat == hand.dealer_seat and again.shuffle_before
    # A misdeal cannot be voided, nor declared twice.
    with pytest.raises(Conflict) as err:
        hand_void_last_action(hand=hand, reason="undo", by=None)
    assert err.value.code in ("newer_hand", "misdealt")
    with pytest.raises(ServiceError) as err2:
        hand_misdeal(hand=hand, reason="again", by=None)
    assert err2.value.code == "hand_not_in_play"
    assert_audit_ok(w.event)


def test_a_carried_pot_and_a_kept_blind_hand_survive_a_misdeal() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="bet", amount=5)  # blind
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")  # everyone folds to a blind player: the pot carries
    table = Table.objects.get(pk=w.table.pk)
    assert (table.carried_pot, table.carried_seat) == (20, 2)
    nxt = hand_start(table=w.table, by=None)
    assert Table.objects.get(pk=w.table.pk).carried_pot == 0
    before = stacks(w)
    hand_misdeal(hand=nxt, reason="deck short a card", by=None)
    table = Table.objects.get(pk=w.table.pk)
    assert (table.carried_pot, table.carried_seat) == (20, 2)
    assert [a + 5 for a in before] == stacks(w)
    assert_audit_ok(w.event)


def test_a_misdeal_is_refused_after_the_betting_ended_and_needs_a_reason() -> None:
    w = world(2)
    hand = start(w)
    with pytest.raises(ServiceError) as err:
        hand_misdeal(hand=hand, reason="  ", by=None)
    assert err.value.code == "reason_required"
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=1, action="look")
    act(hand, seat=1, action="bet", amount=10)
    act(hand, seat=2, action="see", amount=20)
    with pytest.raises(ServiceError) as err:
        hand_misdeal(hand=hand, reason="late", by=None)
    assert err.value.code == "misdeal_too_late"
    with pytest.raises(StaleHand):
        hand_misdeal(hand=hand, reason="stale", expected_seq=1, by=None)
    assert_audit_ok(w.event)


def test_a_misdeal_is_not_a_tablet_action() -> None:
    w = world(2)
    hand = start(w)
    with pytest.raises(ServiceError) as err:
        act(hand, action="misdeal")
    assert err.value.code == "floor_only" and err.value.status == 403


def test_a_call_is_taken_and_resolved_by_a_ruling_with_a_warning() -> None:
    w = world(3)
    hand = start(w)
    call = floor_call_open(table=w.table, hand=hand, note="cards shown", by=None)
    assert call.status == FloorCall.Status.OPEN
    taken = floor_call_take(call=call, by=None)
    assert taken.status == FloorCall.Status.TAKEN
    with pytest.raises(Conflict):
        floor_call_take(call=call, by=None)
    ruling = ruling_record(
        call=call,
        what_happened="Andy showed his cards",
        decision="warning",
        players=[w.players[0].pk],
        penalty="warning",
        by=None,
    )
    call.refresh_from_db()
    assert call.status == FloorCall.Status.RESOLVED and ruling.hand_id == hand.pk
    assert Penalty.objects.get().kind == "warning"
    with pytest.raises(Conflict):
        ruling_record(call=call, what_happened="x", decision="y", players=[], by=None)
    assert_audit_ok(w.event)


def test_missed_hands_sit_the_seat_out_then_it_comes_back_by_itself() -> None:
    w = world(3)
    ruling_record(
        table=w.table,
        what_happened="Chris talked about a live hand",
        decision="two hands out",
        players=[w.players[2].pk],
        penalty="missed_hands",
        missed_hands=2,
        by=None,
    )
    for _ in range(2):
        hand = start(w)
        dealt = {s["seat"] for s in hand.seats if s["dealt"]}
        assert dealt == {1, 2}
        assert next(s for s in hand.seats if s["seat"] == 3)["penalty"] is True
        assert w.seat(3).stack == 200  # no ante
        first, second = (2, 1) if hand.dealer_seat == 1 else (1, 2)
        act(hand, seat=first, action="look")
        act(hand, seat=first, action="bet", amount=10)  # open: a fold to it does not carry
        act(hand, seat=second, action="look")
        act(hand, seat=second, action="fold")
    hand = start(w)
    assert {s["seat"] for s in hand.seats if s["dealt"]} == {1, 2, 3}
    assert Penalty.objects.get().hands_left == 0
    assert_audit_ok(w.event)


def test_a_misdeal_gives_back_a_missed_hand() -> None:
    w = world(3)
    ruling_record(
        table=w.table,
        what_happened="x",
        decision="one hand out",
        players=[w.players[2].pk],
        penalty="missed_hands",
        missed_hands=1,
        by=None,
    )
    hand = start(w)
    assert Penalty.objects.get().hands_left == 0
    hand_misdeal(hand=hand, reason="misdealt", by=None)
    assert Penalty.objects.get().hands_left == 1
    assert_audit_ok(w.event)


def test_disqualification_returns_the_stack_keeps_out_and_can_be_lifted() -> None:
    w = world(3)
    andy = w.players[0]
    ruling = ruling_record(
        table=w.table,
        what_happened="Andy folded out of turn again",
        decision="disqualified",
        players=[andy.pk],
        penalty="disqualified",
        by=None,
    )
    andy.refresh_from_db()
    assert andy.balance == 1000 - 210 + 200  # fee gone, stack back
    assert not Seat.objects.filter(player=andy, left_at__isnull=True).exists()
    rows = standings(w.event)
    assert rows[-1]["player"] == andy.pk and rows[-1]["disqualified"] and rows[-1]["rank"] is None
    with pytest.raises(Conflict) as err:
        seat_buy_in(table=w.table, seat_number=1, player=andy, amount=100, by=None)
    assert err.value.code == "disqualified"
    penalty = ruling.penalties.get()
    with pytest.raises(ServiceError):
        penalty_lift(penalty=penalty, reason="", by=None)
    penalty_lift(penalty=penalty, reason="appeal upheld", by=None)
    seat_buy_in(table=w.table, seat_number=1, player=andy, amount=100, by=None)
    assert_audit_ok(w.event)


def _disqualify(w: Any, index: int) -> Any:
    return ruling_record(
        table=w.table,
        what_happened="abused the dealer",
        decision="disqualified",
        players=[w.players[index].pk],
        penalty="disqualified",
        by=None,
    )


def _balance(w: Any, index: int) -> int:
    w.players[index].refresh_from_db()
    return int(w.players[index].balance)


def test_disqualifying_the_player_to_act_folds_them_and_play_goes_on() -> None:
    w = world(3)
    hand = start(w)  # dealer 1: seat 2 is to act
    assert hand_state(hand).to_act == 2
    _disqualify(w, 1)
    hand.refresh_from_db()
    state = hand_state(hand)
    assert state.log[-1] == Action("disqualify", 2) and state.by_seat[2].status == "folded"
    assert state.to_act == 3 and hand.status == Hand.Status.IN_PROGRESS
    assert state.pot_total == 15  # the ante paid stays in the pot
    assert _balance(w, 1) == 1000 - 210 + 195  # the stack back to the balance
    assert not Seat.objects.filter(player=w.players[1], left_at__isnull=True).exists()
    # On the hand's record: the fold, then the ruling that gave it (issue 20), in that order.
    fold = hand.actions.last()
    ruling = Ruling.objects.get()
    assert fold is not None and fold.action == "disqualify" and ruling.chain_hand_id == hand.pk
    assert (ruling.seq, ruling.hash) == (fold.seq + 1, hand.chain_head)
    act(hand, seat=3, action="look")
    act(hand, seat=3, action="bet", amount=10)
    hand, state = act(hand, seat=1, action="fold")
    assert hand.status == Hand.Status.SETTLED
    assert [w.seat(1).stack, w.seat(3).stack] == [195, 210]
    exported = dump(hand_state(hand))  # the brag-hh/1 export replays to the same stacks
    assert {"seat": 2, "action": "disqualify"} in exported["actions"]
    assert replay(exported).outcome.to_dict() == state.outcome.to_dict()  # type: ignore[union-attr]
    # The fold out of turn is no tablet action and no undo.
    with pytest.raises(ServiceError) as err:
        act(hand, seat=1, action="disqualify")
    assert err.value.code in ("floor_only", "hand_over")
    assert_audit_ok(w.event)


def test_disqualifying_another_player_keeps_the_turn() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)  # seat 3 is to act
    _disqualify(w, 0)
    state = hand_state(Hand.objects.get(pk=hand.pk))
    assert state.to_act == 3 and state.active_seats == [2, 3]
    assert _balance(w, 0) == 1000 - 210 + 195
    with pytest.raises(Conflict) as err:
        hand_void_last_action(hand=hand, reason="undo", by=None)
    assert err.value.code == "disqualified_out"
    with pytest.raises(ServiceError) as err2:
        act(hand, seat=3, action="disqualify")
    assert err2.value.code == "floor_only"
    assert_audit_ok(w.event)


def test_the_standings_count_a_player_folded_out_of_a_live_hand_once() -> None:
    # The hand goes on without Andy; his stack (195 after the ante) is in his balance already,
    # so the standings must not add his stack from before the hand as well.
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    _disqualify(w, 0)
    assert Hand.objects.get(pk=hand.pk).status == Hand.Status.IN_PROGRESS
    andy = next(r for r in standings(w.event) if r["player"] == w.players[0].pk)
    assert (andy["balance"], andy["stack"], andy["total"]) == (985, 0, 985)
    assert andy["disqualified"] and andy["rank"] is None
    others = [r for r in standings(w.event) if r["player"] != w.players[0].pk]
    assert [r["total"] for r in others] == [990, 990]  # their hand counts when it ends
    assert_audit_ok(w.event)


def test_disqualifying_one_of_the_last_two_gives_the_other_the_pot() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="look")  # seat 1 to act, open
    _disqualify(w, 1)  # seat 2, not their turn
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert hand.result["pots"][0]["how"] == "folds"
    assert w.seat(1).stack == 195 + 25  # the antes and seat 2's bet
    assert _balance(w, 1) == 1000 - 210 + 185
    assert Table.objects.get(pk=w.table.pk).button == 2
    assert_audit_ok(w.event)
    start(w)  # the table deals on without the disqualified player
    assert_audit_ok(w.event)


def test_a_misdeal_after_a_disqualification_gives_the_player_s_refund_to_their_balance() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    _disqualify(w, 2)  # Chris: folded out, 195 back to his balance, his ante in the pot
    assert _balance(w, 2) == 1000 - 210 + 195
    hand_misdeal(hand=hand, reason="a card face up", by=None)
    # His ante comes back to him too, not to the seat he has left.
    assert _balance(w, 2) == 1000 - 10
    chris = Seat.objects.get(player=w.players[2])
    assert chris.left_at is not None and chris.stack == 0
    assert [w.seat(1).stack, w.seat(2).stack] == [200, 200]
    assert_audit_ok(w.event)


def test_disqualifying_a_player_who_already_folded_returns_the_stack_at_once() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    _disqualify(w, 2)
    assert not hand.actions.filter(action="disqualify").exists()
    assert _balance(w, 2) == 1000 - 210 + 195
    act(hand, seat=1, action="look")
    hand, _state = act(hand, seat=1, action="fold")
    assert hand.status == Hand.Status.SETTLED and w.seat(2).stack == 210
    assert_audit_ok(w.event)


def test_disqualifying_a_player_after_the_betting_ended_folds_them_before_the_show() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="look")
    act(hand, seat=1, action="see")  # 20: the cards are to be shown …
    act(hand, seat=2, action="show", cards="As Ks Qs")  # … seat 2's already are
    _disqualify(w, 0)  # seat 1, the seer: seat 2 wins as after a fold (RULES §4b)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert [(p["how"], p["winners"]) for p in hand.result["pots"]] == [("folds", [2])]
    assert w.seat(2).stack == 185 + 45  # three antes, the bet and the see
    assert _balance(w, 0) == 1000 - 210 + 175  # seat 1's stack after the see, back
    assert Penalty.objects.get().seat is not None
    exported = dump(hand_state(hand))  # the show stays in its place: the export replays
    assert exported["actions"][-2:] == [
        {"seat": 2, "action": "show", "cards": "As Ks Qs"},
        {"seat": 1, "action": "disqualify"},
    ]
    replayed = replay(exported).outcome
    assert replayed is not None and replayed.to_dict()["stacks"] == hand.result["stacks"]
    assert_audit_ok(w.event)
    start(w)  # the table deals on without them
    assert_audit_ok(w.event)


def test_disqualifying_the_blind_winner_keeping_a_hand_carries_the_pot_with_nobody() -> None:
    w = world(3)
    first = start(w)  # dealer 1: seats 2, 3, 1
    act(first, seat=2, action="bet", amount=3)  # blind
    act(first, seat=3, action="fold")
    act(first, seat=1, action="fold")  # the pot of 18 carries; Bill keeps his blind hand
    hand = start(w)  # dealer 2: seats 3, 1, 2; Bill holds two blind hands
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")  # everyone folds to Bill again: he must keep one …
    assert hand_state(Hand.objects.get(pk=hand.pk)).must_choose == [2]
    _disqualify(w, 1)  # … but is disqualified: nobody is left, the pot carries, kept by nobody
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert hand.result["carried"] == {"pot": 33, "seat": None}
    table = Table.objects.get(pk=w.table.pk)
    assert (table.carried_pot, table.carried_seat) == (33, None)
    assert _balance(w, 1) == 1000 - 210 + 200 - 5 - 3 - 5
    assert_audit_ok(w.event)
    nxt = start(w)  # Andy and Chris play for it; nobody holds a second hand
    state = hand_state(nxt)
    assert state.pot_total == 33 + 10 and all(p.hands == 1 for p in state.players)
    assert_audit_ok(w.event)


def _four_with_a_short_stack() -> tuple[Any, Hand]:
    """Three players with 200 and Dan with 90 at seat 4; in the first hand Dan covers the pot
    and the three others bet on into a new pot."""
    w = world(3)
    dan = player_register(event=w.event, name="Dan", starting_money=1000, by=None)
    w.players.append(dan)
    seat_buy_in(table=w.table, seat_number=4, player=dan, amount=90, by=None)
    hand = start(w)  # dealer 1: seats 2, 3, 4, 1 in turn
    for seat in (2, 3, 4, 1):
        act(hand, seat=seat, action="look")
    act(hand, seat=2, action="bet", amount=20)
    act(hand, seat=3, action="bet", amount=40)
    act(hand, seat=4, action="bet", amount=60)  # 25 left
    act(hand, seat=1, action="bet", amount=60)
    act(hand, seat=2, action="bet", amount=60)
    act(hand, seat=3, action="bet", amount=60)
    act(hand, seat=4, action="cover")  # 25 < 60: Dan covers pot 1, the others bet on
    return w, hand


def test_disqualifying_a_player_who_covered_leaves_their_pot_to_the_newer_winner() -> None:
    w, hand = _four_with_a_short_stack()
    state = hand_state(Hand.objects.get(pk=hand.pk))
    assert state.by_seat[4].status == "covered" and len(state.pots) == 2
    covered = state.pots[0].amount
    _disqualify(w, 3)  # Dan: his hand is folded, his 90 stays in pot 1
    state = hand_state(Hand.objects.get(pk=hand.pk))
    assert state.log[-1] == Action("disqualify", 4) and state.pots[0].coverers == []
    assert state.pots[0].amount == covered and state.to_act == 1
    assert _balance(w, 3) == 1000 - 100  # nothing left on the table to give back
    act(hand, seat=1, action="fold")
    act(hand, seat=2, action="bet", amount=60)
    hand, state = act(hand, seat=3, action="fold")  # seat 2 wins both pots, shows nothing
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert [(p["how"], p["winners"]) for p in hand.result["pots"]] == [
        ("covered_pot", [2]),
        ("folds", [2]),
    ]
    # Seat 2 kept 200 - 5 - 80 - 60 = 55; pot 1 is the antes 20 + 80 + 100 + 85 (Dan's) + 60.
    assert covered == 345 and w.seat(2).stack == 55 + 345 + 60
    assert_audit_ok(w.event)


def test_disqualifying_the_last_player_betting_against_covers_gives_the_coverer_the_pots() -> None:
    w, hand = _four_with_a_short_stack()
    act(hand, seat=1, action="fold")
    act(hand, seat=2, action="fold")  # seat 3 is left in the betting, against Dan's cover
    state = hand_state(Hand.objects.get(pk=hand.pk))
    assert state.phase == "showing" and state.cards_needed == [3, 4]
    _disqualify(w, 2)  # seat 3: nobody is left betting; Dan takes pot 1, pot 2 goes with it
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert [(p["how"], p["winners"]) for p in hand.result["pots"]] == [
        ("disqualified", [4]),
        ("covered_pot", [4]),
    ]
    assert w.seat(4).stack == state.pot_total
    assert _balance(w, 2) == 1000 - 210 + 200 - 5 - 40 - 60
    exported = dump(hand_state(hand))
    assert replay(exported).outcome.to_dict()["stacks"] == hand.result["stacks"]  # type: ignore[union-attr]
    assert_audit_ok(w.event)


def test_the_close_shares_a_pot_still_carried(django_capture_on_commit_callbacks: Any) -> None:
    w = world(3)
    hand = start(w)  # dealer 1: seats 2, 3, 1 in turn
    act(hand, seat=2, action="bet", amount=3)  # blind: the pot is 15 + 3 = 18
    act(hand, seat=3, action="look")
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="look")
    act(hand, seat=1, action="fold")
    assert Table.objects.get(pk=w.table.pk).carried_pot == 18
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE, close.report
    split = CarriedSplit.objects.get()
    # 18 among three: 6 each, clockwise from the dealer (seat 1): seats 2, 3, 1.
    assert [(s["seat"], s["amount"]) for s in split.shares] == [(2, 6), (3, 6), (1, 6)]
    assert close.report["carried_splits"][0]["amount"] == 18
    assert Table.objects.get(pk=w.table.pk).carried_pot == 0
    balances = dict(Player.objects.values_list("name", "balance"))
    assert balances == {"Andy": 991, "Bill": 988, "Chris": 991}
    assert_audit_ok(w.event)


def test_the_close_qualifies_nobody_disqualified_but_a_lifted_one(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3)
    played(w)  # everyone has played day 1 (only its players can qualify)
    andy, bill = w.players[0], w.players[1]
    for player in (andy, bill):
        ruling_record(
            table=w.table,
            what_happened="abuse",
            decision="disqualified",
            players=[player.pk],
            penalty="disqualified",
            by=None,
        )
    penalty_lift(penalty=Penalty.objects.get(player=bill), reason="appeal upheld", by=None)
    Day.objects.filter(pk=w.day.pk).update(qualify_rule="top", qualify_top=5)
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE, close.report
    day2 = w.event.days.get(number=2)
    qualified = set(Qualification.objects.filter(day=day2).values_list("player_id", flat=True))
    assert qualified == {bill.pk, w.players[2].pk}  # Andy is out of every qualification
    snapshot = StandingSnapshot.objects.get(day=w.day, player=andy)
    assert not snapshot.qualified and snapshot.rank == 0  # outside the ranking
    assert_audit_ok(w.event)
