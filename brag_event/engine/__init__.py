"""The Brag rules engine: pure, typed Python with no dependencies outside the standard library.

Importable without Django. See ``docs/engine.md`` for a tour and ``docs/error-codes.md`` for the
codes of :class:`EngineError`.
"""

from .cards import (
    CATEGORIES,
    DECK,
    DISTINCT_VALUES,
    Card,
    HandValue,
    card_str,
    cards_str,
    evaluate,
    parse_card,
    parse_cards,
    strength3,
    value_of_strength,
)
from .errors import MESSAGES, EngineError, IllegalAction
from .history import FORMAT, HandHistory, dump, load_history, outcome_dict, replay
from .rules import FLASH_DAY_1, FLASH_DAYS_2_3, MONEY_MAX, Rules
from .state import (
    ACTIONS,
    ACTIVE,
    BETTING,
    CHOOSING,
    COVERED,
    FOLDED,
    SETTLED,
    SHOWING,
    Action,
    HandState,
    LegalAction,
    Outcome,
    PotResult,
    SeatSetup,
)

__all__ = [
    "ACTIONS",
    "ACTIVE",
    "BETTING",
    "CATEGORIES",
    "CHOOSING",
    "COVERED",
    "DECK",
    "DISTINCT_VALUES",
    "FLASH_DAYS_2_3",
    "FLASH_DAY_1",
    "FOLDED",
    "FORMAT",
    "MESSAGES",
    "MONEY_MAX",
    "SETTLED",
    "SHOWING",
    "Action",
    "Card",
    "EngineError",
    "HandHistory",
    "HandState",
    "HandValue",
    "IllegalAction",
    "LegalAction",
    "Outcome",
    "PotResult",
    "Rules",
    "SeatSetup",
    "card_str",
    "cards_str",
    "dump",
    "evaluate",
    "load_history",
    "outcome_dict",
    "parse_card",
    "parse_cards",
    "replay",
    "strength3",
    "value_of_strength",
]
