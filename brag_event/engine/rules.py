"""The day's rules (RULES §2), frozen onto every hand, and the one place they are checked.

``Rules.problems(values)`` lists every problem of a set of rules, each naming its field in
words an organiser understands; ``Rules.validate(values)`` builds the rules or raises the first
problem as ``invalid_rules`` with ``details.field``. The day's model, its forms (admin and
console), the services and the API all check rules through these two, and nothing else."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Final

from .errors import EngineError

# The most money there can be: no amount anyone enters (a rule, a buy-in, a bet, money issued)
# may exceed it, and neither may all the money an event issues together — so every balance,
# stack, pot and sum of them stays far inside the database's 64-bit columns (and a day's rules
# inside its 32-bit ones). docs/domain.md, "The money bound".
MONEY_MAX: Final = 1_000_000_000

# The rules that are amounts of money (the others are counts, percentages and options).
MONEY_RULES: Final = frozenset(
    {"ante", "min_bet", "max_bet", "max_raise", "rake_cap", "house_fee", "table_min", "table_max"}
)
# Whole numbers that are not money, and the options that are true or false.
_COUNT_RULES: Final = frozenset({"seats", "rake_percent"})
_FLAG_RULES: Final = frozenset(
    {"blind_allowed", "pot_limit", "cover_allowed", "rebuy_needs_consent", "rebuy_pays_fee"}
)
_OPTIONAL_RULES: Final = frozenset({"rake_cap", "table_max"})
REQUIRED_RULES: Final = ("ante", "min_bet", "max_bet", "max_raise")

SEE_DOUBLE: Final = "double"
SEE_EQUAL: Final = "equal"

# Each rule in words, for the sentences of its problems.
RULE_LABELS: Final[dict[str, str]] = {
    "ante": "The ante",
    "min_bet": "The minimum first bet",
    "max_bet": "The maximum first bet",
    "max_raise": "The maximum raise",
    "house_fee": "The house fee",
    "table_min": "The least money on the table",
    "table_max": "The most money on the table",
    "rake_cap": "The rake cap",
    "rake_percent": "The rake",
    "seats": "The number of seats",
    "see_cost": "The cost of seeing",
    "blind_allowed": "Blind play allowed",
    "pot_limit": "Pot limit",
    "cover_allowed": "Covering allowed",
    "rebuy_needs_consent": "Re-buys need consent",
    "rebuy_pays_fee": "Re-buys pay the fee",
}

# The sentences of the problems one field can have on its own (forms use them for the same
# problems their own fields find first, so a problem reads the same wherever it is found).
_SENTENCES: Final[dict[str, str]] = {
    "whole": "{label} must be a whole number.",
    "negative": "{label} must not be negative.",
    "too_large": "{label} must be at most {max:,}.",
    "required": "{label} is required.",
}


def rule_message(field: str, problem: str) -> str:
    """The sentence for one field's own problem: ``whole``, ``negative``, ``too_large`` or
    ``required`` (e.g. ``rule_message("ante", "negative")`` → "The ante must not be
    negative.")."""
    return _SENTENCES[problem].format(label=RULE_LABELS.get(field, field), max=MONEY_MAX)


@dataclass(frozen=True, slots=True)
class RuleProblem:
    """One problem of a set of rules: the field it is about and a sentence saying what is
    wrong. A problem between two fields (``min_bet`` above ``max_bet``) is one per field."""

    field: str
    message: str


@dataclass(frozen=True, slots=True)
class Rules:
    """Betting limits and options. Amounts are whole units of the event's currency.

    The first four are required; the options default to the FLASH event's settings.
    ``house_fee``, ``table_min``, ``table_max`` and the re-buy options are carried for the table
    (buy-ins and re-buys) and do not affect the play of a hand.
    """

    ante: int
    min_bet: int
    max_bet: int
    max_raise: int
    blind_allowed: bool = True
    see_cost: str = SEE_DOUBLE
    pot_limit: bool = False
    rake_percent: int = 0
    rake_cap: int | None = None
    cover_allowed: bool = True
    seats: int = 6
    house_fee: int = 0
    table_min: int = 0
    table_max: int | None = None
    rebuy_needs_consent: bool = True
    rebuy_pays_fee: bool = True

    def __post_init__(self) -> None:
        problems = Rules.problems({name: getattr(self, name) for name in _NAMES})
        if problems:
            raise _invalid(problems[0])

    @staticmethod
    def problems(values: Mapping[str, Any]) -> list[RuleProblem]:
        """Every problem of ``values`` (a day's rules, by field name), in the order of the
        fields; empty if they make valid rules. Fields not given take their defaults."""
        unknown = [name for name in values if name not in _NAMES]
        out = [RuleProblem(str(name), f"{name!r} is not a rule.") for name in unknown]
        out += [
            RuleProblem(name, rule_message(name, "required"))
            for name in REQUIRED_RULES
            if name not in values
        ]
        for name in _NAMES:
            if name in values:
                problem = _field_problem(name, values[name])
                if problem:
                    out.append(RuleProblem(name, problem))
        if out:
            return out  # the checks between fields need every field sound

        def get(name: str) -> Any:
            return values.get(name, _DEFAULTS.get(name))

        if get("min_bet") < 1:
            out.append(RuleProblem("min_bet", "The minimum first bet must be at least 1."))
        elif get("min_bet") > get("max_bet"):
            message = "The minimum first bet must not be more than the maximum."
            out += [RuleProblem("min_bet", message), RuleProblem("max_bet", message)]
        table_max = get("table_max")
        if table_max is not None and get("table_min") > table_max:
            message = "The least money on the table must not be more than the most."
            out += [RuleProblem("table_min", message), RuleProblem("table_max", message)]
        return out

    @classmethod
    def validate(cls, values: Mapping[str, Any]) -> Rules:
        """The rules ``values`` make, or ``EngineError("invalid_rules")`` for the first problem:
        ``details["field"]`` names the field, ``details["problem"]`` says what is wrong."""
        if not isinstance(values, Mapping):
            raise EngineError("invalid_rules", problem="rules must be an object", field=None)
        problems = cls.problems(values)
        if problems:
            raise _invalid(problems[0])
        return cls(**values)

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """``validate`` for a JSON object, remembered: every hand of a day has the same rules,
        so valid rule sets are kept (they are immutable); a rule set with unhashable values
        simply skips the memo."""
        if not isinstance(data, dict):
            return cls.validate(data)
        try:
            # The type is part of the key: True == 1 and 5 == 5.0, but only one is valid. The
            # fields stay in the document's order (not sorted): the same rules written in
            # another order are only one more entry.
            key = tuple([(k, type(v), v) for k, v in data.items()])
            hash(key)
        except TypeError:
            return cls.validate(data)
        cached = _MEMO.get(key)
        if cached is None:
            cached = cls.validate(data)
            if len(_MEMO) >= 256:
                _MEMO.clear()
            _MEMO[key] = cached
        return cached

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_NAMES: Final = tuple(f.name for f in fields(Rules))
_DEFAULTS: Final[dict[str, Any]] = {
    f.name: f.default for f in fields(Rules) if f.name not in REQUIRED_RULES
}
_MEMO: dict[tuple[tuple[str, type, Any], ...], Rules] = {}


def _field_problem(name: str, value: Any) -> str | None:
    """What is wrong with one field on its own, or None."""
    label = RULE_LABELS[name]
    if name == "see_cost":
        return None if value in (SEE_DOUBLE, SEE_EQUAL) else f"{label} must be 'double' or 'equal'."
    if name in _FLAG_RULES:
        return None if isinstance(value, bool) else f"{label} must be true or false."
    if value is None and name in _OPTIONAL_RULES:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        return rule_message(name, "whole")
    if value < 0:
        return rule_message(name, "negative")
    if name in MONEY_RULES and value > MONEY_MAX:
        return rule_message(name, "too_large")
    if name == "seats" and not 2 <= value <= 10:
        return "A table has from 2 to 10 seats."
    if name == "rake_percent" and value > 100:
        return "The rake is a percentage from 0 to 100."
    return None


def _invalid(problem: RuleProblem) -> EngineError:
    sentence = problem.message[:1].lower() + problem.message[1:]
    return EngineError("invalid_rules", problem=sentence, field=problem.field)


# The FLASH event sheet (seeds/004, "Three Card Brag (FLASH)"): day 1, then days 2 and 3. The
# one definition of the preset: ``events.services.event_create_flash`` creates its days from it.
FLASH_DAY_1: Final = Rules(
    ante=5, min_bet=5, max_bet=20, max_raise=20, house_fee=10, table_min=90, table_max=240
)
FLASH_DAYS_2_3: Final = Rules(
    ante=10, min_bet=10, max_bet=40, max_raise=40, house_fee=25, table_min=180, table_max=475
)
FLASH_DAYS: Final = (FLASH_DAY_1, FLASH_DAYS_2_3, FLASH_DAYS_2_3)
