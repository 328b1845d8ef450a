"""The day's rules (RULES §2), frozen onto every hand."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Final, NoReturn

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

SEE_DOUBLE: Final = "double"
SEE_EQUAL: Final = "equal"


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
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "see_cost":
                if value not in (SEE_DOUBLE, SEE_EQUAL):
                    _bad("see_cost must be 'double' or 'equal'")
            elif f.type in ("bool",):
                if not isinstance(value, bool):
                    _bad(f"{f.name} must be true or false")
            elif value is None and f.name in ("rake_cap", "table_max"):
                continue
            elif not isinstance(value, int) or isinstance(value, bool):
                _bad(f"{f.name} must be a whole number")
            elif value < 0:
                _bad(f"{f.name} must not be negative")
            elif f.name in MONEY_RULES and value > MONEY_MAX:
                _bad(f"{f.name} must be at most {MONEY_MAX}")
        if self.min_bet < 1:
            _bad("min_bet must be at least 1")
        if self.max_bet < self.min_bet:
            _bad("max_bet must be at least min_bet")
        if self.rake_percent > 100:
            _bad("rake_percent must be at most 100")
        if not 2 <= self.seats <= 10:
            _bad("seats must be between 2 and 10")
        if self.table_max is not None and self.table_max < self.table_min:
            _bad("table_max must be at least table_min")

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Build rules from a JSON object; unknown keys and missing required keys are errors.

        Every hand of a day has the same rules, so valid rule sets are remembered (they are
        immutable); a rule set with unhashable values simply skips the memo."""
        if not isinstance(data, dict):
            _bad("rules must be an object")
        try:
            # The type is part of the key: True == 1 and 5 == 5.0, but only one is valid.
            key = tuple((k, type(v), v) for k, v in sorted(data.items(), key=_first))
            hash(key)
        except TypeError:
            return cls._from_dict(data)
        cached = _MEMO.get(key)
        if cached is None:
            cached = cls._from_dict(data)
            if len(_MEMO) >= 256:
                _MEMO.clear()
            _MEMO[key] = cached
        return cached

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            _bad(f"unknown rule {unknown[0]!r}")
        for name in ("ante", "min_bet", "max_bet", "max_raise"):
            if name not in data:
                _bad(f"{name} is required")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_MEMO: dict[tuple[tuple[str, type, Any], ...], Rules] = {}


def _first(item: tuple[Any, Any]) -> str:
    return str(item[0])


def _bad(problem: str) -> NoReturn:
    raise EngineError("invalid_rules", problem=problem)


FLASH_DAY_1: Final = Rules(
    ante=5, min_bet=5, max_bet=20, max_raise=20, house_fee=10, table_min=90, table_max=240
)
FLASH_DAYS_2_3: Final = Rules(
    ante=10, min_bet=10, max_bet=40, max_raise=40, house_fee=25, table_min=180, table_max=475
)
