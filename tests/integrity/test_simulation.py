"""The proof of the monitor (issue 20): 20,016 hands of simulated play through the rules engine
raise no flag; the same event with one planted anomaly — a colluding pair, a dumper, a table
whose pack is never shuffled and is run from the bottom, a sloppy dealer — raises a flag for
it, from the check meant to see it, and no other. The false-alarm rates and the power over many
seeds are measured by ``python -m brag_event.integrity.simulate`` (docs/integrity.md)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from brag_event.integrity.simulate import (
    SCENARIOS,
    Event,
    Plan,
    dealer_mistakes,
    expected_subjects,
    simulate,
)
from brag_event.integrity.stats import Report, monitor

pytestmark = pytest.mark.slow

SEED = 1


@cache
def event(name: str) -> Event:
    plan = replace(Plan(seed=SEED), **SCENARIOS[name])
    if name == "sloppy dealer":
        # The mistakes are drawn apart from the play: the honest event's hands are the same.
        honest = event("honest")
        return replace(honest, plan=plan, dealer_events=dealer_mistakes(plan, honest.hands))
    return simulate(plan)


@cache
def report(name: str) -> Report:
    e = event(name)
    return monitor(e.hands, e.dealer_hands, e.dealer_events)


def test_honest_play_raises_no_flag() -> None:
    honest = report("honest")
    assert honest.hands >= 20_000
    assert honest.flags == []
    # Every check really ran, on many subjects.
    assert honest.tests["cards"] >= 48  # tables, dealers and days with enough blind hands
    assert honest.tests["folds"] >= 500 and honest.tests["flows"] >= 300
    assert honest.tests["dealers"] == 8 * 3  # eight dealers, three kinds of mistake
    # The smallest p-value of each check is far from its threshold.
    for check in ("cards", "folds", "flows", "dealers"):
        smallest = min(f.p_value for f in honest.findings if f.check == check)
        threshold = next(f.threshold for f in honest.findings if f.check == check)
        assert smallest > 10 * threshold, check


def test_the_simulated_hands_look_like_brag() -> None:
    hands = event("honest").hands
    shown = [s for h in hands for s in h.shown]
    blind = [s for s in shown if s.blind]
    showdowns = sum(1 for h in hands if h.shown)
    assert 0.5 < showdowns / len(hands) < 0.95
    assert 0.1 < len(blind) / len(shown) < 0.5
    chances = [c for h in hands for c in h.chances]
    assert 0.2 < sum(c.folded for c in chances) / len(chances) < 0.6


@pytest.mark.parametrize(
    ("name", "check"),
    [
        ("collusion", "folds"),
        ("dumper", "flows"),
        ("unshuffled", "cards"),
        ("sloppy dealer", "dealers"),
    ],
)
def test_a_planted_anomaly_is_flagged_and_nothing_else(name: str, check: str) -> None:
    flags = report(name).flags
    expected = expected_subjects(name)
    assert {f.subject for f in flags} == expected, [(f.check, f.subject) for f in flags]
    assert check in {f.check for f in flags}
    for f in flags:
        assert f.hands, "a flag names the hands behind it"


def test_a_sloppy_dealers_mistakes_are_drawn_apart_from_the_play() -> None:
    plan = replace(
        Plan(seed=SEED, players=12, days=1, tables=2, hands_per_table=150), sloppy_dealer=0
    )
    sloppy = simulate(plan)
    honest = simulate(replace(plan, sloppy_dealer=None))
    assert sloppy.hands == honest.hands
    assert sloppy.dealer_events == dealer_mistakes(plan, honest.hands)
    assert sloppy.dealer_events != honest.dealer_events
