"""A misdeal's money (RULES §4b) goes through the one derivation of a hand's money
(``hands.money``) and the one path that posts every action's movements: its refunds are the
derivation's, the ledger audit replays a misdealt hand as any other and catches a refund that is
not, and a misdeal at any point of a random legal hand conserves money and gives every stake
back to where it came from — in the derivation alone, and through the services and the ledger."""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from brag_event.engine import BETTING, EngineError, HandState
from brag_event.floor.services import hand_misdeal
from brag_event.hands.audit import HandMoves
from brag_event.hands.models import Hand
from brag_event.hands.money import (
    Movement,
    misdeal_movements,
    replay_actions,
    replay_movements,
)
from brag_event.hands.selectors import hand_live_actions, hand_state
from brag_event.hands.services import hand_apply_action, hand_start
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import Account, Transfer
from brag_event.ledger.services import transfer_post, transfer_reverse
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_buy_in
from tests.engine.strategies import Table, concrete, tables
from tests.factories import World, act, assert_audit_ok, start, world

FAST = settings.get_current_profile_name() == "fast"
FAST_EXAMPLES = settings.get_profile("fast").max_examples
# The derivation alone: as many random hands as the engine's own properties.
DERIVATION_SETTINGS = settings(
    deadline=None,
    max_examples=FAST_EXAMPLES if FAST else 150,
    suppress_health_check=[HealthCheck.too_slow],
)
# Through the services, the ledger and its audit (a database round trip an action).
LEDGER_SETTINGS = settings(
    deadline=None,
    max_examples=FAST_EXAMPLES if FAST else 15,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def balances(moves: list[Movement], start: dict[Any, int]) -> Counter[Any]:
    """Every place's money after ``moves``, from ``start``."""
    held: Counter[Any] = Counter(start)
    for _kind, source, target, amount in moves:
        assert amount > 0, f"a movement of {amount}"
        held[source] -= amount
        held[target] += amount
    return held


def ledger_balance(account: Account) -> int:
    incoming = sum(t.amount for t in Transfer.objects.filter(target=account))
    return incoming - sum(t.amount for t in Transfer.objects.filter(source=account))


def refunds_of(hand: Hand) -> list[str]:
    """The hand's refund transfers, as the audit writes movements."""
    out = []
    for t in Transfer.objects.filter(hand=hand, kind="refund").select_related("source", "target"):
        places = []
        for account in (t.source, t.target):
            if account.kind == "stack":
                places.append(f"stack:{account.seat_id}")
            elif account.kind == "carried":
                places.append(f"carried:{account.table_id}")
            else:
                assert account.hand_id == hand.pk
                places.append(f"pot:{account.pot_index}")
        out.append(f"refund|{places[0]}|{places[1]}|{t.amount}")
    return sorted(out)


def derived_refunds(hand: Hand) -> list[str]:
    """The refunds ``hands.money`` derives for the stored hand (its live actions replayed)."""
    live = list(hand_live_actions(hand))
    assert live[-1].action == "misdeal"
    _state, earlier = replay_movements(hand, live[:-1])
    state = hand_state(hand)
    moves = HandMoves(hand)  # type: ignore[arg-type]
    return sorted(moves.key(m) for m in misdeal_movements(earlier, state))


# ---------------------------------------------------------------------------- the service


@pytest.mark.django_db
def test_a_misdeals_refunds_are_the_derivation_and_empty_every_pot() -> None:
    w = world(3)
    before = {n: w.seat(n).stack for n in (1, 2, 3)}
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="bet", amount=5)  # blind
    hand, _state = hand_misdeal(hand=hand, reason="a card turned over", by=None)
    assert refunds_of(hand) == derived_refunds(hand)
    assert len(refunds_of(hand)) == 3
    # The refunds name the misdeal's own action, as every action's movements do.
    misdeal = hand.actions.get(action="misdeal")
    assert set(Transfer.objects.filter(hand=hand, kind="refund").values_list("action", flat=True))
    assert set(
        Transfer.objects.filter(hand=hand, kind="refund").values_list("action_id", flat=True)
    ) == {misdeal.pk}
    for pot in Account.objects.filter(kind="pot", hand=hand):
        assert ledger_balance(pot) == 0
    assert {n: w.seat(n).stack for n in (1, 2, 3)} == before
    assert_audit_ok(w.event)


def seat_to_act(state: HandState) -> int:
    seat = next(a.seat for a in state.legal_actions() if a.allowed and a.action == "fold")
    assert seat is not None
    return seat


@pytest.mark.django_db
def test_a_misdeal_after_a_cover_gives_each_pot_back_to_who_paid_into_it() -> None:
    w = world(2)
    # Dan sits down with the least a seat takes: he covers, and the betting goes on in a new pot.
    dan = player_register(event=w.event, name="Dan", starting_money=1000, by=None)
    seat_buy_in(table=w.table, seat_number=3, player=dan, amount=90, by=None)
    hand = start(w)
    state = hand_state(hand)
    looked: set[int] = set()
    for _ in range(40):
        seat = seat_to_act(state)
        allowed = {a.action: a for a in state.legal_actions() if a.allowed and a.seat == seat}
        if seat == 3 and "cover" in allowed:
            hand, state = act(hand, seat=3, action="cover")
            break
        if seat not in looked and "look" in allowed:
            looked.add(seat)
            hand, state = act(hand, seat=seat, action="look")
            continue
        hand, state = act(hand, seat=seat, action="bet", amount=allowed["bet"].max_amount)
    assert len(state.pots) == 2 and state.pots[1].amount == 0, "Dan did not cover"
    seat = seat_to_act(state)
    bet = next(a for a in state.legal_actions() if a.allowed and a.action == "bet")
    hand, state = act(hand, seat=seat, action="bet", amount=bet.min_amount)
    assert state.phase == BETTING and state.pots[1].amount > 0
    second = state.pots[1].amount
    hand, _state = hand_misdeal(hand=hand, reason="cards on the floor", by=None)
    refunds = refunds_of(hand)
    assert refunds == derived_refunds(hand)
    # The second pot goes back from the second pot, to the one seat that paid into it.
    assert [r for r in refunds if "|pot:1|" in r] == [
        f"refund|pot:1|stack:{w.seat(seat).pk}|{second}"
    ]
    for pot in Account.objects.filter(kind="pot", hand=hand):
        assert ledger_balance(pot) == 0
    assert w.seat(3).stack == 90
    assert_audit_ok(w.event)


# ---------------------------------------------------------------------------- the audit


@pytest.mark.django_db
def test_the_audit_catches_a_misdeal_refund_paid_to_the_wrong_seat() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    hand, _state = hand_misdeal(hand=hand, reason="a card turned over", by=None)
    assert_audit_ok(w.event)
    # Seat 2's refund of 15 reversed and paid to seat 3 instead: every balance still adds up.
    refund = Transfer.objects.get(hand=hand, kind="refund", amount=15)
    transfer_reverse(transfer=refund, by=None, memo="test: tamper")
    third = Account.objects.get(kind="stack", seat=w.seat(3))
    transfer_post(kind="refund", source=refund.source, target=third, amount=15, hand=hand)
    report = ledger_audit(event=w.event)
    assert [c.name for c in report.checks if not c.ok] == ["hands replay to their transfers"]
    assert any("ledger differs from replay" in p and "refund 15" in p for p in report.problems)


@pytest.mark.django_db
def test_the_audit_catches_a_misdeal_refund_left_out_or_made_larger() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=20)
    hand, _state = hand_misdeal(hand=hand, reason="deck short a card", by=None)
    refund = Transfer.objects.get(hand=hand, kind="refund", amount=25)
    transfer_reverse(transfer=refund, by=None, memo="test: one refund taken back")
    report = ledger_audit(event=w.event)
    failing = {c.name for c in report.checks if not c.ok}
    assert failing == {"settled hands' pots are empty", "hands replay to their transfers"}
    assert any("missing refund 25" in p for p in report.problems)
    # Paid again, one unit more (the pot would go below zero; the ledger allows it, the audit
    # does not).
    transfer_post(kind="refund", source=refund.source, target=refund.target, amount=26, hand=hand)
    report = ledger_audit(event=w.event)
    assert "hands replay to their transfers" in {c.name for c in report.checks if not c.ok}
    assert any("extra refund 26" in p for p in report.problems)


# ------------------------------------------------------------------- the derivation, at random


def stored(table: Table) -> Any:
    """A stored hand as ``hands.money.state_start`` reads it, for the engine's random table."""
    return SimpleNamespace(
        seats=[
            {"seat": s.seat, "player": s.player, "stack": s.stack, "sitting_out": s.sitting_out}
            for s in table.seats
        ],
        rules=table.rules.to_dict(),
        dealer_seat=table.dealer,
        carried_pot=table.carried_pot,
        carried_seat=table.carried_seat,
        shuffle_before=False,
    )


def play_then_misdeal(state: HandState, data: st.DataObject, table: Table) -> None:
    """Random allowed actions while the betting goes on, then a misdeal: at a drawn moment, or
    just before an action that would end the betting. Sometimes a player is disqualified."""
    cards = {p.seat: "" for p in state.players}
    stop = data.draw(st.integers(0, 40), label="actions before the misdeal")
    for _ in range(stop):
        allowed = [a for a in state.legal_actions() if a.allowed and a.action != "show"]
        choice = data.draw(st.sampled_from(allowed)) if allowed else None
        if choice is None:
            break
        action = concrete(choice, state, data, cards)
        if data.draw(st.integers(0, 19), label="disqualify instead") == 0:
            seat = data.draw(st.sampled_from([p.seat for p in state.players]))
            action = action._replace(action="disqualify", seat=seat, amount=None, hand=None)
        what_if = state.copy()
        try:
            what_if.apply(action)
        except EngineError:
            continue  # e.g. a disqualification of a player already out
        if what_if.phase != BETTING:
            break
        state.apply(action)
    state.misdeal("property")


@DERIVATION_SETTINGS
@given(table=tables(), data=st.data())
def test_a_misdeal_at_any_point_moves_every_stake_back_in_the_derivation(
    table: Table, data: st.DataObject
) -> None:
    note(f"table: {table!r}")
    state = table.start()
    play_then_misdeal(state, data, table)
    hand = stored(table)
    replayed, moves = replay_actions(hand, state.log)
    assert replayed.misdealt
    refunds = [m for m in moves if m[0] == "refund"]
    start_places: dict[tuple[Any, ...], int] = {("stack", s.seat): s.stack for s in table.seats}
    start_places["carried",] = table.carried_pot
    held = balances(moves, start_places)
    # Conserved: every unit is somewhere, and nothing is below zero.
    assert sum(held.values()) == table.money
    assert all(v >= 0 for v in held.values()), held
    # Every stake back: each stack as before the deal, the carried pot carried, pots empty.
    for s in table.seats:
        assert held["stack", s.seat] == s.stack
    assert held["carried",] == table.carried_pot
    assert all(v == 0 for place, v in held.items() if place[0] == "pot")
    assert held["house",] == 0
    # Each refund goes back from the pot a stake went into, to the place it came from.
    stakes: Counter[tuple[Any, Any]] = Counter()
    for _kind, source, target, amount in moves:
        if target[0] == "pot":
            stakes[source, target] += amount
    assert Counter({(t, s): a for _k, s, t, a in refunds}) == stakes
    # And per seat, what the engine says each player paid.
    outcome = replayed.outcome
    assert outcome is not None and outcome.misdeal is not None
    paid: Counter[int] = Counter()
    for _k, _s, target, amount in refunds:
        if target[0] == "stack":
            paid[target[1]] += amount
    assert +paid == +Counter(outcome.misdeal.refunds)


# ----------------------------------------------------------------- through the ledger, at random


@pytest.fixture
def table_of_four(db: Any) -> World:
    return world(4)


@pytest.mark.slow
@pytest.mark.django_db
@LEDGER_SETTINGS
@given(data=st.data())
def test_a_misdeal_at_any_point_of_a_stored_hand_conserves_the_ledger(
    table_of_four: World, data: st.DataObject
) -> None:
    w = table_of_four
    with transaction.atomic():  # each example rolled back: the same table every time
        players = {p.pk: p.balance for p in Player.objects.filter(event=w.event)}
        before = {s.pk: s.stack for s in Seat.objects.filter(table=w.table)}
        hand = hand_start(table=w.table, by=None)
        state = hand_state(hand)
        stop = data.draw(st.integers(0, 25), label="actions before the misdeal")
        for _ in range(stop):
            allowed = [a for a in state.legal_actions() if a.allowed and a.action != "show"]
            if not allowed:
                break
            action = concrete(data.draw(st.sampled_from(allowed)), state, data, {})
            what_if = state.copy()
            what_if.apply(action)
            if what_if.phase != BETTING:
                break
            hand, _row, state = hand_apply_action(
                hand=hand.pk, action=action, expected_seq=hand.next_seq, by=None
            )
        note(json.dumps([a._asdict() for a in state.log]))
        hand, state = hand_misdeal(hand=hand.pk, reason="property", by=None)
        assert refunds_of(hand) == derived_refunds(hand)
        for pot in Account.objects.filter(kind="pot", hand=hand):
            assert ledger_balance(pot) == 0
        assert {s.pk: s.stack for s in Seat.objects.filter(table=w.table)} == before
        assert {p.pk: p.balance for p in Player.objects.filter(event=w.event)} == players
        assert_audit_ok(w.event)
        transaction.set_rollback(True)
