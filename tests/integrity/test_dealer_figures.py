"""The integrity monitor's per-dealer figures on a simulated day (the simulated event of
tests/integrity/test_simulation.py, one day of it): hands per hour, the median seconds per
action, voids and misdeals per hundred hands, each tested against the other dealers. One sloppy
dealer (many voids and misdeals) and one slow dealer are flagged, for what they did and nothing
else; the honest day flags nobody."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from brag_event.integrity.simulate import Plan, dealer_mistakes, dealer_paces, simulate
from brag_event.integrity.stats import ALPHA, DealerPace, dealer_figures, rate_p_value

pytestmark = pytest.mark.slow

DAY = Plan(seed=1, players=36, days=1, tables=6, hands_per_table=417)


@cache
def honest() -> Any:
    return simulate(DAY)


def figures(plan: Plan) -> dict[Any, dict[str, Any]]:
    event = honest()
    events = dealer_mistakes(plan, event.hands)
    return dealer_figures(event.dealer_hands, events, dealer_paces(plan, event.hands), ALPHA)


def flagged(rows: dict[Any, dict[str, Any]]) -> set[tuple[Any, str]]:
    return {(d, name) for d, r in rows.items() for name, f in r["tests"].items() if f.flagged}


def test_an_honest_day_flags_no_dealer() -> None:
    rows = figures(DAY)
    assert len(rows) == 6 and all(r["hands"] >= 400 for r in rows.values())
    assert flagged(rows) == set()
    for r in rows.values():
        # Every figure was tested for every dealer, and the figures are what the clock says.
        assert set(r["tests"]) == {"hands_per_hour", "seconds_per_action", "voids", "misdeals"}
        assert 25 < r["hands_per_hour"] < 40
        assert 3 < r["median_seconds"] < 8  # an exponential of mean 8 s: median 8 ln 2


def test_the_sloppy_and_the_slow_dealer_are_flagged_for_what_they_did() -> None:
    plan = replace(DAY, sloppy_dealer=0, sloppiness=8.0, slow_dealer=1, slowness=1.5)
    rows = figures(plan)
    found = flagged(rows)
    assert (0, "voids") in found
    assert {(1, "hands_per_hour"), (1, "seconds_per_action")} <= found
    assert {d for d, _ in found} == {0, 1}, found
    assert {name for d, name in found if d == 0} <= {"voids", "misdeals"}
    assert {name for d, name in found if d == 1} == {"hands_per_hour", "seconds_per_action"}
    assert rows[0]["voids_per_100"] > 3 * max(rows[d]["voids_per_100"] for d in (2, 3, 4, 5))
    assert rows[1]["median_seconds"] > max(rows[d]["median_seconds"] for d in (0, 2, 3, 4, 5))
    assert rows[1]["hands_per_hour"] < min(rows[d]["hands_per_hour"] for d in (0, 2, 3, 4, 5))


def test_the_rate_test() -> None:
    # Half the time on the clock and half the hands: nothing unusual.
    assert rate_p_value(50, 10.0, 100, 20.0, low=True) > 0.5
    # Half the time and a fifth of the hands: too slow.
    assert rate_p_value(20, 10.0, 100, 20.0, low=True) < 1e-8
    assert rate_p_value(20, 10.0, 100, 20.0, low=False) > 0.99
    # No one else to compare with: untested.
    assert rate_p_value(20, 10.0, 20, 10.0, low=True) == 1.0


def test_a_dealer_without_a_shift_is_shown_and_not_tested() -> None:
    rows = dealer_figures(
        {"a": 300, "b": 300, "c": 300},
        [],
        {"a": DealerPace(10.0, (5.0,) * 10), "b": DealerPace(10.0, (5.0,) * 10)},
    )
    assert rows["c"]["hands_per_hour"] is None and "hands_per_hour" not in rows["c"]["tests"]
    assert rows["a"]["hands_per_hour"] == 30.0 and rows["a"]["median_seconds"] == 5.0
    assert rows["c"]["voids"] == 0 and rows["c"]["voids_per_100"] == 0.0
