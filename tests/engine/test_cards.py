"""RULES §1: cards, card text and the ranking of all 22,100 hands."""

from collections import Counter
from itertools import combinations, pairwise

import pytest

from brag_event.engine import (
    DECK,
    DISTINCT_VALUES,
    EngineError,
    HandValue,
    card_str,
    evaluate,
    parse_card,
    parse_cards,
    strength3,
)


def v(text: str) -> HandValue:
    return evaluate(text)


def test_every_hand_category_counts_and_distinct_values() -> None:
    counts: Counter[str] = Counter()
    strengths = set()
    total = 0
    for a, b, c in combinations(DECK, 3):
        value = evaluate([a, b, c])
        counts[value.category] += 1
        strengths.add(value.strength)
        assert strength3(a, b, c) == strength3(c, a, b) == value.strength
        total += 1
    assert total == 22_100
    assert counts == {
        "prial": 52,
        "running_flush": 48,
        "run": 720,
        "flush": 1_096,
        "pair": 3_744,
        "high_card": 16_440,
    }
    assert len(strengths) == DISTINCT_VALUES == 741
    assert strengths == set(range(741))


def test_categories_are_strictly_ordered() -> None:
    best_of: dict[str, int] = {}
    worst_of: dict[str, int] = {}
    for a, b, c in combinations(DECK, 3):
        value = evaluate([a, b, c])
        cat = value.category
        best_of[cat] = max(best_of.get(cat, -1), value.strength)
        worst_of[cat] = min(worst_of.get(cat, 10_000), value.strength)
    order = ["high_card", "pair", "flush", "run", "running_flush", "prial"]
    for lower, higher in pairwise(order):
        assert best_of[lower] < worst_of[higher], (lower, higher)


def test_prials_threes_best_then_aces_down_to_twos() -> None:
    assert v("3c 3d 3h") > v("Ac Ad Ah") > v("Kc Kd Kh") > v("Qs Qd Qh")
    assert v("5s 5d 5h") > v("4s 4d 4h") > v("2s 2d 2h")
    assert v("3c 3d 3h").strength == 740
    assert v("2s 2d 2h") == min(v(f"{r}s {r}d {r}h") for r in "23456789TJQKA")
    assert v("3s 3d 3c").describe() == "prial of threes"


def test_running_flush_examples_from_the_seeds() -> None:
    # ♣3-♣2-♣A  ♦A-♦K-♦Q  ...  ♥4-♥3-♥2
    assert v("3♣ 2♣ A♣") > v("A♦ K♦ Q♦") > v("K♥ Q♥ J♥") > v("4♥ 3♥ 2♥")
    assert v("3♣ 2♣ A♣").category == "running_flush"
    assert v("4♥ 3♥ 2♥") == min(
        evaluate([a, b, c])
        for a, b, c in combinations(DECK, 3)
        if evaluate([a, b, c]).category == "running_flush"
    )
    assert v("3♣ 2♣ A♣").describe() == "running flush A-2-3"


def test_run_examples_and_any_running_flush_beats_any_run() -> None:
    # ♦3-♣2-♥A  ♥A-♦K-♦Q  ...  ♥4-♠3-♥2
    assert v("3♦ 2♣ A♥") > v("A♥ K♦ Q♦") > v("4♥ 3♠ 2♥")
    assert v("3♦ 2♣ A♥").category == "run"
    # ♥4-♥3-♥2 beats ♦3-♣2-♥A or ♥A-♦K-♦Q
    assert v("4♥ 3♥ 2♥") > v("3♦ 2♣ A♥")
    assert v("4♥ 3♥ 2♥") > v("A♥ K♦ Q♦")


def test_a23_is_the_best_run_and_2ak_is_not_a_run() -> None:
    best_run = max(
        evaluate([a, b, c])
        for a, b, c in combinations(DECK, 3)
        if evaluate([a, b, c]).category == "run"
    )
    assert best_run == v("As 2d 3c")
    assert v("2h As Kd").category == "high_card"
    assert v("2s As Ks").category == "flush"
    assert v("Qh Ks As").category == "run"
    assert v("As 2d 3c") > v("Ah Kd Qc") > v("Kh Qd Jc")


def test_flush_examples_from_the_seeds() -> None:
    # ♥K-♥9-♥2 beats ♠Q-♠10-♠5, which beats ♦Q-♦10-♦3, which beats ♣Q-♣9-♣8
    assert v("K♥ 9♥ 2♥") > v("Q♠ 10♠ 5♠") > v("Q♦ 10♦ 3♦") > v("Q♣ 9♣ 8♣")
    assert v("A♣ K♣ J♣").category == "flush"
    assert v("5♠ 3♠ 2♠").category == "flush"
    assert v("A♣ K♣ J♣") > v("5♠ 3♠ 2♠")


def test_pair_examples_from_the_seeds() -> None:
    # 9-9-3 beats 8-8-K, which beats 8-8-J; ♣A-♥A-♠K ... ♥2-♦2-♦3
    assert v("9s 9d 3c") > v("8s 8d Kc") > v("8h 8c Jd")
    assert v("A♣ A♥ K♠") > v("2♥ 2♦ 3♦")
    assert v("A♣ A♥ K♠").category == "pair"
    assert v("9s 9d 3c").describe() == "pair of nines, odd card 3"


def test_high_card_examples_from_the_seeds() -> None:
    # J-6-3 beats 10-9-7, which beats 10-9-6; ♠A-♠K-♥J ... ♣5-♦3-♠2
    assert v("Js 6d 3c") > v("10h 9d 7c") > v("10s 9h 6d")
    assert v("A♠ K♠ J♥") > v("5♣ 3♦ 2♠")
    assert v("5♣ 3♦ 2♠").strength == 0


def test_equal_hands_are_equal_regardless_of_suits() -> None:
    assert v("7s 7d Qh") == v("7c 7h Qd")
    assert hash(v("7s 7d Qh")) == hash(v("7c 7h Qd"))
    assert not v("7s 7d Qh") < v("7c 7h Qd")
    assert v("Ah Kh Jh") == v("As Ks Js")


def test_card_text_forms() -> None:
    assert parse_cards("As 10d 3c") == parse_cards("AS TD 3C") == parse_cards("a♠, 10♦, 3♣")
    assert parse_cards(["As", "Td", "3c"]) == parse_cards("as td 3c")
    assert card_str(parse_card("10h")) == "Th"
    assert parse_cards("as kd", count=2) == (parse_card("As"), parse_card("Kd"))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("As Kd", "wrong_card_count"),
        ("As Kd Qh Jc", "wrong_card_count"),
        ("As As Kd", "duplicate_card"),
        ("1s 2d 3c", "invalid_card"),
        ("Ax 2d 3c", "invalid_card"),
        ("11h 2d 3c", "invalid_card"),
        ("", "wrong_card_count"),
    ],
)
def test_bad_card_text_is_rejected_with_a_code(text: str, code: str) -> None:
    with pytest.raises(EngineError) as err:
        evaluate(text)
    assert err.value.code == code
    assert err.value.message


def test_hand_value_compares_only_with_hand_values() -> None:
    assert v("As Kd Qh") != "As Kd Qh"
    with pytest.raises(TypeError):
        _ = v("As Kd Qh") < 3  # type: ignore[operator]
