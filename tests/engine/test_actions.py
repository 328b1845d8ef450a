"""Each action's check apart from its change (``engine/actions.py``): one rule per action; a
check never changes the state, whether it accepts the action or not; a change never raises once
its check has passed, and ``apply`` is exactly the check and then the change."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brag_event.engine import ACTIONS, Action, HandState, IllegalAction
from brag_event.engine.actions import TABLE, verify
from tests.engine.strategies import Table, junk_actions, play_random, tables

from .helpers import table


def test_there_is_one_rule_for_every_action_in_the_order_of_the_actions() -> None:
    assert tuple(TABLE) == ACTIONS


def test_verify_returns_the_rule_of_an_accepted_action_and_changes_nothing() -> None:
    state = table(3)
    before = state.snapshot()
    assert verify(state, Action("bet", 1, 5)) is TABLE["bet"]
    assert state.snapshot() == before


def test_the_checks_every_action_shares_come_before_its_own() -> None:
    state = table(3)
    # An unknown seat is the action's own check; the stray field is checked before it.
    with pytest.raises(IllegalAction) as info:
        verify(state, Action("fold", 9, amount=5))
    assert info.value.code == "unexpected_field"
    with pytest.raises(IllegalAction) as info:
        verify(state, Action("fold", 9))
    assert info.value.code == "unknown_seat"
    with pytest.raises(IllegalAction) as info:
        verify(state, Action(["not", "a", "name"], 1))  # type: ignore[arg-type]
    assert info.value.code == "unknown_action"


@settings(
    deadline=None,
    # 40 random hands under make test; the fast profile's few under make test-fast.
    max_examples=(
        settings.get_profile("fast").max_examples
        if settings.get_current_profile_name() == "fast"
        else 40
    ),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(table=tables(), data=st.data())
def test_a_check_changes_nothing_and_the_change_after_it_does_what_apply_does(
    table: Table, data: st.DataObject
) -> None:
    """At every step of a random hand, random actions (most of them illegal): the check leaves
    the state as it was; when it accepts, its change on a copy never raises and ends where
    ``apply`` on another copy ends (``apply`` also logs the action)."""
    state = table.start()
    cards: dict[int, str] = {}  # probes show made-up cards only: a copy takes them

    def probe(s: HandState) -> None:
        for _ in range(data.draw(st.integers(1, 3), label="probes")):
            action = data.draw(junk_actions(s, cards), label="probe")
            before = s.snapshot()
            try:
                rule = verify(s, action)
            except IllegalAction:
                assert s.snapshot() == before
                continue
            assert s.snapshot() == before
            assert rule is TABLE[action.action]
            changed, applied = s.copy(), s.copy()
            rule.change(changed, action)
            applied.apply(action)
            changed.log = applied.log  # the one thing apply adds
            assert changed.snapshot() == applied.snapshot()

    play_random(state, data, table, before_each=probe)
