"""Cards, card text and the ranking of three-card Brag hands (RULES §1).

A card is a plain ``int`` from 0 to 51: ``rank_index * 4 + suit_index`` where rank index 0 is the
two and 12 the ace, and suits are ``c d h s``. Every three-card hand has a *strength* from 0
(the worst high card, 5-3-2) to 740 (the prial of threes); equal hands have equal strengths and
there are exactly 741 of them. :func:`evaluate` returns a :class:`HandValue` for card text or
cards; :func:`strength3` is the fast path: one table look-up for three card ints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import Final

from .errors import EngineError

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
_SUIT_SYMBOLS: Final = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
_RANK_NAMES: Final = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
_RANK_PLURALS: Final = tuple(n + ("es" if n == "six" else "s") for n in _RANK_NAMES)

CATEGORIES: Final = ("high_card", "pair", "flush", "run", "running_flush", "prial")
"""Categories, worst first: the index is the category's order."""

CATEGORY_LABELS: Final = {
    "high_card": "high card",
    "pair": "pair",
    "flush": "flush",
    "run": "run",
    "running_flush": "running flush",
    "prial": "prial",
}

Card = int
"""A card: ``rank_index * 4 + suit_index`` (0..51)."""

DECK: Final[tuple[Card, ...]] = tuple(range(52))


def card_rank(card: Card) -> int:
    """Rank index 0 (two) .. 12 (ace)."""
    return card >> 2


def card_suit(card: Card) -> int:
    """Suit index 0..3 (``c d h s``)."""
    return card & 3


def _rank_label(rank: int) -> str:
    return "10" if rank == 8 else RANKS[rank]


def card_str(card: Card) -> str:
    """Canonical text of a card, e.g. ``As``, ``Td``."""
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards: Iterable[Card]) -> str:
    """Canonical text of several cards, space separated."""
    return " ".join(card_str(c) for c in cards)


def _spellings() -> dict[str, Card]:
    out: dict[str, Card] = {}
    for r, rank in enumerate(RANKS):
        ranks = [rank, rank.lower()] + (["10"] if rank == "T" else [])
        for s, suit in enumerate(SUITS):
            suits = [suit, suit.upper()] + [k for k, v in _SUIT_SYMBOLS.items() if v == suit]
            for rt in ranks:
                for st in suits:
                    out[rt + st] = r * 4 + s
    return out


_SPELLINGS: Final = _spellings()


def parse_card(text: str) -> Card:
    """Parse one card: rank ``A K Q J T 9 … 2`` (or ``10``), suit ``c d h s`` (or ``♣ ♦ ♥ ♠``),
    case-insensitive. Raises :class:`EngineError` ``invalid_card``."""
    card = _SPELLINGS.get(text)
    if card is None:
        card = _SPELLINGS.get(text.strip())
        if card is None:
            raise EngineError("invalid_card", card=text)
    return card


def parse_cards(
    text: str | Sequence[str] | Sequence[Card], count: int | None = 3
) -> tuple[Card, ...]:
    """Parse card text such as ``"As 10d 3c"`` (spaces or commas between cards; suit symbols
    allowed) into card ints. With ``count`` (3 by default) the number of cards is checked; the
    cards must be distinct. Already-parsed sequences of ints or strings are accepted too."""
    if isinstance(text, str):
        return _parse_text(text, count)
    cards: list[Card] = []
    for item in text:
        if isinstance(item, bool):
            raise EngineError("invalid_card", card=repr(item))
        if isinstance(item, int):
            if not 0 <= item < 52:
                raise EngineError("invalid_card", card=str(item))
            cards.append(item)
        elif isinstance(item, str):
            cards.append(parse_card(item))
        else:
            raise EngineError("invalid_card", card=repr(item))
    return _checked(cards, count)


@lru_cache(maxsize=4096)
def _parse_text(text: str, count: int | None) -> tuple[Card, ...]:
    """Card text parsed, kept: a hand's text is parsed again at each replay (and twice in one,
    from ``cards`` and from its ``show``). Errors raise and are not kept."""
    return _checked([parse_card(t) for t in text.replace(",", " ").split()], count)


def _checked(cards: list[Card], count: int | None) -> tuple[Card, ...]:
    """``cards`` as a tuple, once their number is ``count`` (unless None) and none repeats."""
    if count is not None and len(cards) != count:
        raise EngineError("wrong_card_count", expected=count, got=len(cards))
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for c in cards:
            if c in seen:
                raise EngineError("duplicate_card", card=card_str(c))
            seen.add(c)
    return tuple(cards)


# --------------------------------------------------------------------------------------------
# Ranking. A *score* orders hands exactly (category first, then the category's own order); the
# 741 distinct scores are then numbered 0..740 to give the dense *strength*.


def _score(a: Card, b: Card, c: Card) -> tuple[int, int, tuple[int, ...]]:
    """(category index, score, ranks high to low) for three distinct cards."""
    ranks = sorted((a >> 2, b >> 2, c >> 2), reverse=True)
    hi, mid, lo = ranks
    flush = (a & 3) == (b & 3) == (c & 3)
    # Ranks as values 2..14 for scoring.
    vh, vm, vl = hi + 2, mid + 2, lo + 2
    if hi == mid == lo:
        # Prial: threes best, then aces down to twos.
        return 5, 15 if vh == 3 else vh, (hi, mid, lo)
    run_key = 0
    if hi - mid == 1 and mid - lo == 1:
        run_key = vh  # K-Q-J = 13 ... 4-3-2 = 4, A-K-Q = 14
    elif (vh, vm, vl) == (14, 3, 2):
        run_key = 15  # A-2-3 is the best run
    if run_key:
        return (4 if flush else 3), run_key, (hi, mid, lo)
    if flush:
        return 2, vh * 225 + vm * 15 + vl, (hi, mid, lo)
    if hi == mid or mid == lo:
        pair, odd = (hi, lo) if hi == mid else (mid, hi)
        return 1, (pair + 2) * 15 + odd + 2, (pair, pair, odd)
    return 0, vh * 225 + vm * 15 + vl, (hi, mid, lo)


def _build_tables() -> tuple[list[int], list[tuple[int, tuple[int, ...]]]]:
    keyed: dict[tuple[Card, Card, Card], tuple[int, int, tuple[int, ...]]] = {}
    for a, b, c in combinations(DECK, 3):
        keyed[(a, b, c)] = _score(a, b, c)
    distinct = sorted({(cat, score) for cat, score, _ in keyed.values()})
    dense = {key: i for i, key in enumerate(distinct)}
    table = [-1] * (52 * 52 * 52)
    info: list[tuple[int, tuple[int, ...]]] = [(0, ())] * len(distinct)
    for (a, b, c), (cat, score, ranks) in keyed.items():
        s = dense[(cat, score)]
        info[s] = (cat, ranks)
        for x, y, z in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
            table[x * 2704 + y * 52 + z] = s
    return table, info


_TABLE, _INFO = _build_tables()
DISTINCT_VALUES: Final = len(_INFO)


def strength3(a: Card, b: Card, c: Card) -> int:
    """The fastest path: strength (0..740, higher is better) of three card ints, by one table
    look-up. Returns -1 when two cards are the same. The cards are not range-checked."""
    return _TABLE[a * 2704 + b * 52 + c]


STRENGTH_TABLE: Final = _TABLE
"""Flat table behind :func:`strength3`: ``STRENGTH_TABLE[a*2704 + b*52 + c]``."""


class HandValue:
    """The value of a three-card hand: totally ordered (``<``, ``==``, ``>``) and hashable; equal
    hands (which differ only in suits) are equal."""

    __slots__ = ("strength",)

    def __init__(self, strength: int) -> None:
        if not 0 <= strength < DISTINCT_VALUES:
            raise ValueError(f"strength must be 0..{DISTINCT_VALUES - 1}")
        self.strength = strength

    @property
    def category(self) -> str:
        """One of ``prial``, ``running_flush``, ``run``, ``flush``, ``pair``, ``high_card``."""
        return CATEGORIES[_INFO[self.strength][0]]

    @property
    def ranks(self) -> tuple[int, ...]:
        """Rank indexes high to low (for a pair: the pair's rank twice, then the odd card)."""
        return _INFO[self.strength][1]

    def describe(self) -> str:
        """Plain words, e.g. ``prial of threes``, ``running flush A-2-3``, ``pair of nines``."""
        return _describe(self.strength)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength < other.strength

    def __le__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength <= other.strength

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength > other.strength

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength >= other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    def __repr__(self) -> str:
        return f"HandValue({self.describe()!r}, strength={self.strength})"


_VALUES: Final = tuple(HandValue(s) for s in range(DISTINCT_VALUES))


@cache
def _describe(strength: int) -> str:
    """:meth:`HandValue.describe` of a strength, kept: a settlement describes the hands it
    compares, and there are only :data:`DISTINCT_VALUES` of them."""
    cat = CATEGORIES[_INFO[strength][0]]
    ranks = _INFO[strength][1]
    if cat == "prial":
        return f"prial of {_RANK_PLURALS[ranks[0]]}"
    if cat == "pair":
        return f"pair of {_RANK_PLURALS[ranks[0]]}, odd card {_rank_label(ranks[2])}"
    if cat in ("run", "running_flush") and ranks == (12, 1, 0):
        seq = "A-2-3"
    else:
        seq = "-".join(_rank_label(r) for r in ranks)
    return f"{CATEGORY_LABELS[cat]} {seq}"


def evaluate(cards: str | Sequence[str] | Sequence[Card]) -> HandValue:
    """The value of a three-card hand given as card text (``"As 10d 3c"``) or cards."""
    a, b, c = parse_cards(cards, 3)
    return _VALUES[_TABLE[a * 2704 + b * 52 + c]]


def value_of_strength(strength: int) -> HandValue:
    """The shared :class:`HandValue` instance for a strength."""
    return _VALUES[strength]
