"""The monitor's statistics on plain data: each test flags what it should and nothing else."""

from __future__ import annotations

import random

import numpy as np
import pytest
from scipy import stats as sps

from brag_event.integrity import stats
from brag_event.integrity.facts import Exchange, FoldChance, HandFacts, Shown
from brag_event.integrity.stats import (
    CATEGORIES,
    HANDS_PER_CATEGORY,
    DealerEvent,
    cards_check,
    dealers_check,
    flows_check,
    folds_check,
    goodness_of_fit,
    pool,
)


def test_the_odds_are_the_22100_hands_of_rules_section_1() -> None:
    assert sum(HANDS_PER_CATEGORY) == 22100
    assert dict(zip(CATEGORIES, HANDS_PER_CATEGORY, strict=True)) == {
        "prial": 52,
        "running_flush": 48,
        "run": 720,
        "flush": 1096,
        "pair": 3744,
        "high_card": 16440,
    }


@pytest.mark.parametrize(
    ("hands", "classes"),
    [
        (20, None),  # two classes only: too few to test
        (57, None),
        (58, [["prial", "running_flush", "run", "flush"], ["pair"], ["high_card"]]),
        (135, [["prial", "running_flush", "run"], ["flush"], ["pair"], ["high_card"]]),
        (1000, [["prial", "running_flush", "run"], ["flush"], ["pair"], ["high_card"]]),
        (1200, [["prial", "running_flush"], ["run"], ["flush"], ["pair"], ["high_card"]]),
        (2200, [["prial"], ["running_flush", "run"], ["flush"], ["pair"], ["high_card"]]),
        (2500, [["prial"], ["running_flush"], ["run"], ["flush"], ["pair"], ["high_card"]]),
    ],
)
def test_rare_categories_are_pooled_until_each_class_expects_five(
    hands: int, classes: list[list[str]] | None
) -> None:
    expected = stats.ODDS * hands
    pooled = pool(expected)
    assert all(expected[c].sum() >= stats.MIN_EXPECTED for c in pooled)
    names = [[CATEGORIES[i] for i in c] for c in pooled]
    if classes is None:
        assert len(pooled) < stats.MIN_CLASSES
        assert goodness_of_fit(["high_card"] * hands) is None
    else:
        assert names == classes


def _deal(rng: random.Random, n: int) -> list[str]:
    from brag_event.engine import strength3, value_of_strength

    out = []
    for _ in range(n):
        a, b, c = rng.sample(range(52), 3)
        out.append(value_of_strength(strength3(a, b, c)).category)
    return out


def test_hands_from_a_shuffled_pack_fit_and_a_pack_of_flushes_does_not() -> None:
    rng = random.Random(7)
    fair = goodness_of_fit(_deal(rng, 3000))
    assert fair is not None and fair[0] > 0.001
    assert fair[1]["hands"] == 3000 and fair[1]["df"] == 5  # six classes from 2,213 hands
    # Every fourth hand a flush (the odds give one in twenty): far off.
    skewed = ["flush" if i % 4 == 0 else c for i, c in enumerate(_deal(rng, 400))]
    result = goodness_of_fit(skewed)
    assert result is not None and result[0] < 1e-20
    flush = next(c for c in result[1]["classes"] if c["categories"] == ["flush"])
    assert flush["observed"] >= 100 and flush["expected"] == pytest.approx(19.8, abs=0.1)


def test_the_hypergeometric_shortcut_equals_scipy() -> None:
    for population, successes, draws in [(10, 3, 4), (600, 250, 300), (50, 0, 10), (7, 7, 7)]:
        k = np.arange(min(successes, draws) + 1)
        mine = stats._hypergeometric_pmf(population, successes, draws)
        assert np.allclose(mine, sps.hypergeom.pmf(k, population, successes, draws), atol=1e-12)


def _facts(hand: int, table: str, shown: list[str]) -> HandFacts:
    return HandFacts(
        hand=hand,
        table=table,
        dealer="d-" + table,
        day=1,
        players=(),
        shown=[Shown(hand, 0, (), c, True, ()) for c in shown],
    )


def test_a_bad_table_is_one_flag_and_its_dealer_and_day_are_judged_without_it() -> None:
    rng = random.Random(3)
    facts = [_facts(i, f"t{i % 4}", _deal(rng, 1)) for i in range(2400)]
    bad = [_facts(10_000 + i, "bad", ["flush"]) for i in range(150)]
    findings = cards_check(facts + bad, 0.001)
    flagged = {f.subject for f in findings if f.flagged}
    assert flagged == {("table", "bad")}
    # Its dealer ("d-bad") and the day were tested on the other tables' hands only.
    day = next(f for f in findings if f.subject == ("day", 1))
    assert day.numbers["hands"] == 2400 and day.numbers["left_out_tables"] == 1
    assert all(f.threshold == pytest.approx(0.001 / (4 + 1 + 4 + 1 + 1)) for f in findings)


def _chance(player: str, bettor: str, folded: bool, hand: int) -> FoldChance:
    return FoldChance(hand, player, bettor, folded, False, 0.5, False, False)


def _folds(rate_of: dict[tuple[str, str], float], n: int, seed: int = 1) -> list[FoldChance]:
    rng = random.Random(seed)
    players = ["A", "B", "C", "D", "E", "F"]
    out = []
    for hand in range(n):
        for p in players:
            for q in players:
                if p != q and rng.random() < 0.3:
                    rate = rate_of.get((p, q), rate_of.get((p, "*"), rate_of.get(("*", q), 0.3)))
                    out.append(_chance(p, q, rng.random() < rate, hand))
    return out


def test_a_player_who_always_folds_to_one_bettor_is_flagged_and_nobody_else() -> None:
    findings = folds_check(_folds({("A", "B"): 1.0}, 400), 0.001)
    assert {f.subject for f in findings if f.flagged} == {("pair", "A", "B")}
    ab = next(f for f in findings if f.subject == ("pair", "A", "B"))
    assert ab.numbers["folds"] == ab.numbers["chances"]
    assert ab.numbers["player_rate_elsewhere"] == pytest.approx(0.3, abs=0.05)


def test_a_player_who_folds_to_everybody_or_a_feared_bettor_is_no_pair() -> None:
    # A folds to everyone 80% of the time; everybody folds to F's bets 80% of the time.
    findings = folds_check(_folds({("A", "*"): 0.8, ("*", "F"): 0.8}, 400), 0.001)
    assert findings and not [f for f in findings if f.flagged]
    af = next(f for f in findings if f.subject == ("pair", "A", "C"))
    assert af.numbers["p_bettor"] < 1e-6  # others fold to C less than A does: one test alone
    assert af.p_value >= af.numbers["p_bettor"]  # would have flagged; both are needed


def _exchanges(bias: dict[tuple[str, str], float], n: int, seed: int = 2) -> list[Exchange]:
    rng = random.Random(seed)
    players = ["A", "B", "C", "D", "E", "F"]
    out = []
    for hand in range(n):
        a, b = rng.sample(players, 2)
        share = bias.get((a, b), 0.5)  # the chance that b wins from a
        amount = rng.choice((5, 10, 20, 40, 80))
        loser, winner = (a, b) if rng.random() < share else (b, a)
        out.append(Exchange(hand, loser, winner, float(amount)))
    return out


def test_money_flowing_one_way_between_two_players_is_flagged() -> None:
    honest = flows_check(_exchanges({}, 6000), 0.001)
    assert honest and not [f for f in honest if f.flagged]
    dumped = flows_check(_exchanges({("A", "B"): 0.95, ("B", "A"): 0.05}, 6000), 0.001)
    assert {f.subject for f in dumped if f.flagged} == {("pair", "A", "B")}
    ab = next(f for f in dumped if f.subject == ("pair", "A", "B"))
    assert ab.numbers["net"] > 0 and ab.numbers["net"] > 5 * abs(ab.numbers["expected"])
    assert ab.hands  # the hands behind it, largest first


def test_a_dealer_with_more_mistakes_than_the_others_is_flagged() -> None:
    hands = {f"d{i}": 1000 for i in range(6)}
    rng = random.Random(4)
    events = [
        DealerEvent(d, "voids", i)
        for d in hands
        for i in range(1000)
        if rng.random() < (0.04 if d == "d0" else 0.01)
    ]
    findings = dealers_check(hands, events, 0.001)
    assert {f.subject for f in findings if f.flagged} == {("dealer", "d0")}
    d0 = next(f for f in findings if f.subject == ("dealer", "d0"))
    assert d0.numbers["per_100"] > 3 * d0.numbers["others_per_100"]
    assert all(f.threshold == pytest.approx(0.001 / 6) for f in findings)
    # Too few hands: not compared at all.
    assert dealers_check({"x": 10, "y": 10}, [DealerEvent("x", "voids", 1)], 0.001) == []


def test_the_dispersion_allows_for_hands_that_are_not_independent() -> None:
    rng = random.Random(5)
    independent = [_deal(rng, 300) for _ in range(20)]
    assert 1.0 <= stats.dispersion_of(independent) < 1.4
    # Every hand dealt twice in a row: the counts stray twice as far.
    doubled = [[c for c in _deal(rng, 150) for _ in range(2)] for _ in range(20)]
    assert stats.dispersion_of(doubled) > 1.6
    # A bad table barely moves the first, trimmed guess; it would the plain mean.
    bad = ["flush"] * 300
    assert stats.dispersion_of([*independent, bad], trim=True) < 1.4
    assert stats.dispersion_of([*independent, bad]) > 3
    assert stats.dispersion_of(independent[:4]) == 1.0  # too few tables to tell
    # Divided by the dispersion, the same counts are less surprising.
    plain = goodness_of_fit(doubled[0])
    allowed = goodness_of_fit(doubled[0], dispersion=2.0)
    assert plain is not None and allowed is not None and allowed[0] > plain[0]
    assert allowed[1]["dispersion"] == 2.0


def test_a_table_flagged_for_its_cards_is_left_out_of_the_pair_checks() -> None:
    """Hands that keep coming back make players' play pair-specific: that table cannot say
    anything about collusion (found by the simulation's calibration runs)."""
    rng = random.Random(9)
    facts = []
    for i in range(3000):
        table = f"t{i % 6}" if i < 2850 else "bad"
        shown = ["flush"] if table == "bad" else _deal(rng, 1)
        f = _facts(i, table, shown)
        if table == "bad":  # at the bad table, A folds to B every time
            f.chances = [_chance("A", "B", True, i)]
        else:
            pairs = [("A", "C"), ("C", "B"), ("B", "A")] + ([("A", "B")] if i % 5 == 0 else [])
            f.chances = [_chance(p, q, rng.random() < 0.3, i) for p, q in pairs]
        facts.append(f)
    report = stats.monitor(facts, {}, [])
    assert {f.subject for f in report.flags} == {("table", "bad")}
    # Without the bad table's hands left out, the pair would have been flagged.
    unfiltered = folds_check([c for f in facts for c in f.chances], 0.001)
    assert ("pair", "A", "B") in {f.subject for f in unfiltered if f.flagged}
