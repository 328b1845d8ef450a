"""The day's rules are checked in one place: ``Rules.problems`` / ``Rules.validate``."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.engine import FLASH_DAY_1, FLASH_DAYS, MONEY_MAX, EngineError, Rules

GOOD: dict[str, Any] = {"ante": 5, "min_bet": 5, "max_bet": 20, "max_raise": 20}


def test_valid_rules_are_built() -> None:
    assert Rules.validate(FLASH_DAY_1.to_dict()) == FLASH_DAY_1
    assert Rules.problems(GOOD) == []
    assert [r.ante for r in FLASH_DAYS] == [5, 10, 10]


@pytest.mark.parametrize(
    ("changes", "field", "sentence"),
    [
        ({"ante": -1}, "ante", "The ante must not be negative."),
        ({"ante": 2.5}, "ante", "The ante must be a whole number."),
        ({"ante": True}, "ante", "The ante must be a whole number."),
        ({"house_fee": MONEY_MAX + 1}, "house_fee", "The house fee must be at most 1,000,000,000."),
        ({"min_bet": 0}, "min_bet", "The minimum first bet must be at least 1."),
        ({"max_bet": 4}, "min_bet", "The minimum first bet must not be more than the maximum."),
        ({"seats": 11}, "seats", "A table has from 2 to 10 seats."),
        ({"rake_percent": 101}, "rake_percent", "The rake is a percentage from 0 to 100."),
        ({"see_cost": "triple"}, "see_cost", "The cost of seeing must be 'double' or 'equal'."),
        ({"pot_limit": 1}, "pot_limit", "Pot limit must be true or false."),
        ({"colour": "red"}, "colour", "'colour' is not a rule."),
    ],
)
def test_a_problem_names_its_field(changes: dict[str, Any], field: str, sentence: str) -> None:
    values = {**GOOD, **changes}
    problems = Rules.problems(values)
    assert problems[0].field == field and problems[0].message == sentence
    with pytest.raises(EngineError) as err:
        Rules.validate(values)
    assert err.value.code == "invalid_rules"
    assert err.value.details["field"] == field
    with pytest.raises(EngineError):
        Rules.from_dict(values)


def test_every_problem_is_listed_and_a_problem_between_fields_is_on_both() -> None:
    problems = Rules.problems({**GOOD, "ante": -1, "house_fee": -2})
    assert [p.field for p in problems] == ["ante", "house_fee"]
    both = Rules.problems({**GOOD, "table_min": 300, "table_max": 240})
    assert [p.field for p in both] == ["table_min", "table_max"]
    missing = Rules.problems({"ante": 5})
    assert {p.field for p in missing} == {"min_bet", "max_bet", "max_raise"}


def test_constructing_rules_directly_runs_the_same_check() -> None:
    with pytest.raises(EngineError) as err:
        Rules(ante=5, min_bet=30, max_bet=20, max_raise=20)
    assert err.value.details["field"] == "min_bet"
