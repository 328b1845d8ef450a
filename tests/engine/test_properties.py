"""Property-based tests: random tables, random hands played through ``legal_actions()``.

Every hand is played from random rules, seats, stacks, dealer and carried pot, choosing at random
among the actions the engine lists as allowed (see ``strategies.play_random``). The properties:

a/b. money is neither created nor destroyed, and no stack or pot goes below zero;
c.   every hand settles;
d.   ``replay(dump(state))`` reproduces the hand (outcome and state), also mid-hand;
e.   an illegal action changes nothing, and ``can``/``verify``/``apply`` agree;
f.   ``legal_actions()`` is exact: what it allows is accepted (at its min and max amounts, not one
     beyond), what it greys out is rejected with its code and has a reason;
g.   pots go to contenders holding a best hand; shares add up to the pot less the rake.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from brag_event.engine import (
    ACTIONS,
    FOLDED,
    MESSAGES,
    SETTLED,
    Action,
    EngineError,
    HandState,
    IllegalAction,
    LegalAction,
    dump,
    outcome_dict,
    parse_cards,
    replay,
    strength3,
)
from tests.engine.strategies import (
    MAX_STEPS,
    Table,
    card_text,
    junk_actions,
    play_random,
    tables,
)

# 150 random hands a property; the "fast" profile of `make test-fast` runs its own few.
FAST = settings.get_current_profile_name() == "fast"
PROPERTY_SETTINGS = settings(
    deadline=None,
    max_examples=settings.get_profile("fast").max_examples if FAST else 150,
    suppress_health_check=[HealthCheck.too_slow],
)


# ---------------------------------------------------------------------------- helpers


def begin(table: Table) -> HandState:
    """The hand after the antes; the table is noted so that a failure report shows it."""
    note(f"table: {table!r}")
    return table.start()


def check_money(state: HandState, table: Table) -> None:
    """Conservation while the hand runs, and nothing below zero."""
    for p in state.players:
        assert p.stack >= 0, f"seat {p.seat} has a negative stack {p.stack}"
    for pot in state.pots:
        assert pot.amount >= 0, f"a pot holds {pot.amount}"
    if state.phase == SETTLED:
        return
    starts = {s.seat: s.stack for s in table.seats}
    dealt_in = sum(starts[p.seat] for p in state.players)
    held = sum(p.stack for p in state.players) + state.pot_total
    assert held == dealt_in + table.carried_pot, (
        f"stacks + pots = {held}, but the dealt-in players brought {dealt_in} and the carried "
        f"pot is {table.carried_pot}"
    )


def check_outcome_money(state: HandState, table: Table) -> None:
    out = state.outcome
    assert out is not None
    assert set(out.stacks) == {s.seat for s in table.seats}
    for seat, stack in out.stacks.items():
        assert stack >= 0, f"seat {seat} ends with {stack}"
    total = sum(out.stacks.values()) + out.house + out.carried_pot
    assert total == table.money, f"the outcome accounts for {total} of {table.money}"
    dealt = {p.seat for p in state.players}
    for s in table.seats:
        if s.seat not in dealt:
            assert out.stacks[s.seat] == s.stack, f"seat {s.seat} was not dealt in"


def normalised(snapshot: tuple[Any, ...]) -> tuple[Any, ...]:
    """A snapshot with the ``show`` entries of the log in seat order and canonical card text
    (the history does not record the order or spelling in which cards were entered)."""
    *head, log, outcome = snapshot
    others = tuple(a for a in log if a.action != "show")
    shows = sorted((a.seat, parse_cards(a.cards)) for a in log if a.action == "show")
    return (*head, others, tuple(shows), outcome)


def replayed(state: HandState) -> HandState:
    doc = json.loads(json.dumps(dump(state)))
    return replay(doc)


def matching_entries(state: HandState, action: Action) -> list[LegalAction]:
    """The allowed ``legal_actions()`` entries that cover ``action``."""
    out = []
    for la in state.legal_actions():
        if not la.allowed or la.action != action.action:
            continue
        if la.action != "showdown" and la.seat != action.seat:
            continue
        amount = action.amount
        if la.action == "bet":
            assert la.min_amount is not None and la.max_amount is not None
            if not la.min_amount <= amount <= la.max_amount:  # type: ignore[operator]
                continue
        if la.action in ("see", "cover") and amount is not None and amount != la.cost:
            continue
        if la.hands and action.hand is not None and action.hand not in la.hands:
            continue
        out.append(la)
    return out


def examples_of(la: LegalAction, state: HandState, cards: dict[int, str]) -> list[Action]:
    """Concrete actions that an allowed entry promises will be accepted."""
    kind, seat = la.action, la.seat
    if kind == "bet":
        assert la.min_amount is not None and la.max_amount is not None
        assert la.min_amount <= la.max_amount
        return [Action("bet", seat, la.min_amount), Action("bet", seat, la.max_amount)]
    if kind == "see":
        assert la.cost is not None, "an allowed see has no cost"
        return [Action(kind, seat, la.cost)]
    if kind == "cover":  # RULES §5: the amount of a cover is optional
        assert la.cost is not None, "an allowed cover has no cost"
        return [Action(kind, seat, la.cost), Action(kind, seat)]
    if kind in ("look", "discard"):
        if not la.hands:
            return [Action(kind, seat)]
        return [Action(kind, seat, hand=h) for h in la.hands]
    if kind == "show":
        assert seat is not None
        return [Action("show", seat, cards=cards[seat])]
    return [Action(kind, seat)]


def just_beyond(la: LegalAction) -> list[Action]:
    """Amounts one unit outside what an allowed entry offers."""
    if la.action == "bet":
        assert la.min_amount is not None and la.max_amount is not None
        return [
            Action("bet", la.seat, la.min_amount - 1),
            Action("bet", la.seat, la.max_amount + 1),
        ]
    if la.action in ("see", "cover"):
        assert la.cost is not None
        return [Action(la.action, la.seat, la.cost - 1), Action(la.action, la.seat, la.cost + 1)]
    return []


def shown_cards(table: Table, state: HandState) -> dict[int, str]:
    return {seat: card_text(c) for seat, c in table.hands(state).items()}


# ---------------------------------------------------------------------------- a, b, c


@PROPERTY_SETTINGS
@given(table=tables(), data=st.data())
def test_money_is_conserved_and_every_hand_settles(table: Table, data: st.DataObject) -> None:
    state = begin(table)
    check_money(state, table)
    steps = play_random(state, data, table, after_each=lambda s: check_money(s, table))
    assert state.phase == SETTLED
    assert steps <= MAX_STEPS
    check_outcome_money(state, table)
    assert state.legal_actions() == []


# ---------------------------------------------------------------------------- d


@PROPERTY_SETTINGS
@given(table=tables(), data=st.data())
def test_replay_reproduces_the_hand(table: Table, data: st.DataObject) -> None:
    state = begin(table)

    def replay_midway(s: HandState) -> None:
        # A history is complete only with the cards, so mid-hand replays stop before showing.
        if s.phase in ("betting", "choosing") and data.draw(st.integers(0, 4)) == 0:
            again = replayed(s)
            assert again.snapshot() == s.snapshot()
            assert outcome_dict(again) == outcome_dict(s)

    play_random(state, data, table, before_each=replay_midway)
    assert state.phase == SETTLED
    again = replayed(state)
    assert again.phase == SETTLED
    assert outcome_dict(again) == outcome_dict(state)
    assert normalised(again.snapshot()) == normalised(state.snapshot())


# ---------------------------------------------------------------------------- e


def probe(state: HandState, action: Action) -> None:
    """``action`` is either rejected without any change, or accepted and listed as legal."""
    before = state.snapshot()
    error: EngineError | None = None
    try:
        state.verify(action)
    except EngineError as err:
        error = err
    assert state.snapshot() == before, f"verify({action}) changed the state"
    assert state.can(action) == (error is None), f"can and verify disagree on {action}"
    assert state.snapshot() == before, f"can({action}) changed the state"
    if error is not None:
        assert isinstance(error, IllegalAction), f"verify raised a plain {error.code}"
        assert error.code in MESSAGES
        with pytest.raises(EngineError) as info:
            state.apply(action)
        assert info.value.code == error.code, "apply and verify give different codes"
        assert state.snapshot() == before, f"a rejected {action} changed the state"
    else:
        assert matching_entries(state, action), f"{action} is accepted but not listed as legal"
        clone = state.copy()
        clone.apply(action)
        assert state.snapshot() == before, "applying to a copy changed the original"


@pytest.mark.slow  # 10-20 s: every step of many random hands
@PROPERTY_SETTINGS
@given(table=tables(), data=st.data())
def test_illegal_actions_change_nothing(table: Table, data: st.DataObject) -> None:
    state = begin(table)
    cards = shown_cards(table, state)

    def try_junk(s: HandState) -> None:
        for _ in range(data.draw(st.integers(0, 3), label="junk count")):
            probe(s, data.draw(junk_actions(s, cards), label="junk"))

    play_random(state, data, table, before_each=try_junk)
    assert state.phase == SETTLED
    for _ in range(3):
        action = data.draw(junk_actions(state, cards))
        before = state.snapshot()
        with pytest.raises(IllegalAction) as info:
            state.apply(action)
        assert info.value.code == "hand_over"
        assert state.snapshot() == before


@pytest.mark.slow  # 10-20 s: every step of many random hands
@PROPERTY_SETTINGS
@given(table=tables(), data=st.data())
def test_accepted_actions_survive_dump_and_replay(table: Table, data: st.DataObject) -> None:
    """Whatever ``apply`` accepts goes into the log, and ``dump`` writes the log: so every hand
    that ``apply`` accepted must replay, including actions with extra or unusual fields."""
    state = begin(table)
    cards = shown_cards(table, state)

    def apply_junk(s: HandState) -> None:
        for _ in range(data.draw(st.integers(0, 2), label="junk count")):
            action = data.draw(junk_actions(s, cards), label="junk")
            # Shown cards other than the dealt ones could clash with later shows.
            if action.action != "show" and s.can(action):
                s.apply(action)
                check_money(s, table)
                if s.phase == SETTLED:
                    return

    play_random(state, data, table, before_each=apply_junk)
    assert state.phase == SETTLED
    check_outcome_money(state, table)
    again = replayed(state)
    assert outcome_dict(again) == outcome_dict(state)
    assert normalised(again.snapshot()) == normalised(state.snapshot())


# ---------------------------------------------------------------------------- f


@PROPERTY_SETTINGS
@given(table=tables(), data=st.data())
def test_legal_actions_are_exact(table: Table, data: st.DataObject) -> None:
    state = begin(table)
    cards = shown_cards(table, state)

    def check_listed(s: HandState) -> None:
        before = s.snapshot()
        listed = s.legal_actions()
        assert any(la.allowed for la in listed)
        for la in listed:
            assert la.action in ACTIONS
            if la.allowed:
                for action in examples_of(la, s, cards):
                    s.verify(action)  # raises if the listed action is refused
                    assert s.can(action)
                for action in just_beyond(la):
                    assert not s.can(action), f"{action} is beyond {la} but accepted"
                continue
            assert la.code in MESSAGES, f"{la} has no valid code"
            assert isinstance(la.reason, str) and la.reason, f"{la} has no reason"
            if la.action == "bet":
                p = s.by_seat[la.seat] if la.seat is not None else None
                top = (p.stack if p else 0) + 2
                for amount in {1, top, data.draw(st.integers(1, top))}:
                    assert not s.can(Action("bet", la.seat, amount)), f"{la} but {amount} is ok"
            else:
                hand = la.hands[0] if la.hands else None
                with pytest.raises(IllegalAction) as info:
                    s.verify(Action(la.action, la.seat, hand=hand))
                assert info.value.code == la.code
        assert s.snapshot() == before

    play_random(state, data, table, before_each=check_listed)
    assert state.legal_actions() == []


# ---------------------------------------------------------------------------- g


@PROPERTY_SETTINGS
@given(table=tables(), data=st.data())
def test_pots_go_to_contenders_with_the_best_hand(table: Table, data: st.DataObject) -> None:
    state = begin(table)
    steps = play_random(state, data, table)
    out = state.outcome
    assert out is not None
    event(f"actions: {'<10' if steps < 10 else '<40' if steps < 40 else '40+'}")
    event(f"pots: {len(out.pots)}")
    for r in out.pots:
        event(f"settled by: {r.how}{' (split)' if len(r.winners) > 1 else ''}")
    rules = table.rules
    money_in_pots = sum(p.paid for p in state.players) + table.carried_pot
    assert sum(r.amount for r in out.pots) == money_in_pots
    assert out.house == sum(r.rake for r in out.pots)
    assert [r.index for r in out.pots] == list(range(len(out.pots)))
    dealt = {p.seat: p for p in state.players}
    values = {seat: strength3(*cards) for seat, cards in out.shown.items()}
    conceded = set(out.conceded)
    assert not conceded & set(values), "a hand both shown and given up"
    if conceded:
        event("a hand given up at the showdown")
    for r in out.pots:
        assert r.amount >= 0
        assert r.contenders, f"pot {r.index} has no contenders"
        for c in r.contenders:
            assert c in dealt and dealt[c].status != FOLDED, f"pot {r.index}: {c} folded"
        if r.how == "carried":
            assert len(out.pots) == 1
            assert r.winners == [] and r.shares == {} and r.rake == 0
            assert out.carried_pot == r.amount
            assert out.carried_seat in r.contenders
            continue
        assert out.carried_pot == 0 and out.carried_seat is None
        assert r.winners, f"pot {r.index} has no winner"
        assert set(r.winners) <= set(r.contenders)
        assert set(r.shares) == set(r.winners)
        assert sum(r.shares.values()) == r.amount - r.rake
        assert 0 <= r.rake <= r.amount * rules.rake_percent // 100
        if rules.rake_cap is not None:
            assert r.rake <= rules.rake_cap
        assert r.rake == min(
            r.amount * rules.rake_percent // 100,
            r.amount if rules.rake_cap is None else rules.rake_cap,
        )
        shares = [r.shares[w] for w in r.winners]
        assert max(shares) - min(shares) <= 1
        assert shares == sorted(shares, reverse=True), "the odd unit goes to the first winner"
        if len(r.winners) > 1 and r.how == "covered_pot":
            # A covered pot on a tie goes to the newer pot's winners, who may have split it.
            newer = out.pots[r.index + 1]
            assert r.winners == newer.winners or not set(r.winners) & set(newer.winners)
        elif len(r.winners) > 1:
            assert r.how == "showdown", f"a {r.how} pot was split"
        # A hand given up (RULES §3.6, §3.8) is never shown and never wins: the pot goes to a
        # best hand among those shown.
        assert not set(r.winners) & conceded, f"pot {r.index} goes to a player who gave up"
        if values and all(c in values or c in conceded for c in r.contenders):
            best = max(values[c] for c in r.contenders if c in values)
            for w in r.winners:
                assert values[w] == best, f"pot {r.index}: seat {w} wins without a best hand"
        elif r.how != "folds":
            raise AssertionError(f"pot {r.index} ({r.how}) settled without showing every hand")
