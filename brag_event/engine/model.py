"""The things a hand is made of: its actions, seats, players, pots and settled outcome.

Plain data with no rules of the game: :mod:`.state` moves a hand on, :mod:`.actions` checks and
performs each action, :mod:`.settlement` decides and pays the pots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .cards import Card, HandValue, cards_str, strength3, value_of_strength

# Player status in the betting.
ACTIVE: Final = "active"
FOLDED: Final = "folded"
COVERED: Final = "covered"

# Phases of a hand.
BETTING: Final = "betting"
CHOOSING: Final = "choosing"  # a player with two blind hands throws one in (showdown or carry)
SHOWING: Final = "showing"  # betting is over; the cards of the hands to compare are entered
SETTLED: Final = "settled"

# How the betting ended when every player still in it was disqualified: the pots go to the
# players who covered them (RULES §4b).
DISQUALIFIED: Final = "disqualified"

ACTIONS: Final = (
    "look",
    "keep",
    "discard",
    "bet",
    "fold",
    "see",
    "cover",
    "showdown",
    "show",
    "concede",
    "misdeal",
    "disqualify",
)
# Entered by a supervisor, never offered by ``legal_actions`` (RULES §4b).
FLOOR_ACTIONS: Final = ("misdeal", "disqualify")
REASON_MAX: Final = 200
# The fields each action may carry besides its seat; anything else is refused, so that every
# accepted action can be written to a hand history and read back.
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "look": ("hand",),
    "keep": (),
    "discard": ("hand",),
    "bet": ("amount",),
    "fold": (),
    "see": ("amount",),
    "cover": ("amount",),
    "showdown": (),
    "show": ("cards",),
    "concede": (),
    "misdeal": ("reason",),
    "disqualify": (),
}
# The value of a hand given up at the showdown (RULES §3.6): below every hand (0 … 740).
GAVE_UP: Final = -1
OLD: Final = "old"
NEW: Final = "new"
HANDS: Final = (OLD, NEW)


class SeatSetup(NamedTuple):
    """A seated player at the start of a hand. A named tuple rather than a frozen dataclass:
    six are made at every replay, and a tuple is made at a fraction of the cost."""

    seat: int
    player: str
    stack: int
    sitting_out: bool = False
    # Misses this hand as a penalty (RULES §4b): not dealt in, pays no ante, like sitting out.
    penalty: bool = False


class Action(NamedTuple):
    """One entry of a hand: ``action`` is one of :data:`ACTIONS`.

    ``amount`` is what the player pays now (bet, see, cover); ``hand`` names one of two blind
    hands (``old``/``new``); ``cards`` is the card text of a shown hand (``show``).
    ``showdown`` has no seat, nor has ``misdeal`` (a supervisor's, with a ``reason``).
    """

    action: str
    seat: int | None = None
    amount: int | None = None
    hand: str | None = None
    cards: str | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.seat is not None:
            out["seat"] = self.seat
        out["action"] = self.action
        if self.amount is not None:
            out["amount"] = self.amount
        if self.hand is not None:
            out["hand"] = self.hand
        if self.cards is not None:
            out["cards"] = self.cards
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One action the tablet may offer now, or may show greyed out with its reason.

    For ``bet``: ``min_amount``/``max_amount`` are payments (a blind player's count double; the
    new stake is ``2 * amount`` then). For ``see`` and ``cover``: ``cost`` is the exact payment.
    ``hands`` lists the hand names that may be named (two-hand players).
    """

    action: str
    seat: int | None
    allowed: bool
    min_amount: int | None = None
    max_amount: int | None = None
    cost: int | None = None
    blind: bool | None = None
    hands: tuple[str, ...] = ()
    code: str | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action, "seat": self.seat, "allowed": self.allowed}
        for name in ("min_amount", "max_amount", "cost", "blind"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.hands:
            out["hands"] = list(self.hands)
        if not self.allowed:
            out["code"] = self.code
            out["reason"] = self.reason
        return out


@dataclass(slots=True)
class PotResult:
    """How one pot was settled."""

    index: int
    amount: int
    contenders: list[int]
    winners: list[int]
    shares: dict[int, int]
    rake: int
    how: str  # folds | see | cover | showdown | disqualified | covered_pot | carried | misdeal
    explanation: str

    @classmethod
    def unwon(cls, amount: int, how: str, explanation: str) -> PotResult:
        """The hand's one pot, won by nobody (a misdeal's, or one carried forward)."""
        return cls(0, amount, [], [], {}, 0, how, explanation)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "amount": self.amount,
            "contenders": self.contenders,
            "winners": self.winners,
            "shares": {str(k): v for k, v in self.shares.items()},
            "rake": self.rake,
            "how": self.how,
            "explanation": self.explanation,
        }


@dataclass(slots=True)
class Outcome:
    """The settled result of a hand."""

    pots: list[PotResult]
    stacks: dict[int, int]
    house: int
    carried_pot: int
    carried_seat: int | None
    next_dealer: int
    shuffle: bool
    shown: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    # Seats that gave up at the showdown without showing (RULES §3.6, §3.8).
    conceded: list[int] = field(default_factory=list)
    # A misdeal (RULES §4b): its reason and what each dealt-in player got back.
    misdeal: Misdeal | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "pots": [p.to_dict() for p in self.pots],
            "stacks": {str(k): v for k, v in self.stacks.items()},
            "house": self.house,
            "carried": {"pot": self.carried_pot, "seat": self.carried_seat},
            "next_dealer": self.next_dealer,
            "shuffle": self.shuffle,
            "shown": {
                str(seat): {"cards": cards_str(cards), "hand": _value(cards).describe()}
                for seat, cards in self.shown.items()
            },
        }
        if self.conceded:
            out["conceded"] = list(self.conceded)
        if self.misdeal is not None:
            out["misdeal"] = self.misdeal.to_dict()
        return out


@dataclass(frozen=True, slots=True)
class Misdeal:
    """A misdeal: every amount each player paid into the hand goes back to them (``refunds``,
    by seat); a carried pot stays carried and a kept blind hand stays kept."""

    reason: str
    refunds: dict[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "refunds": {str(k): v for k, v in self.refunds.items()}}


def _value(cards: Sequence[Card]) -> HandValue:
    return value_of_strength(strength3(cards[0], cards[1], cards[2]))


class Player:
    """A dealt-in player's place in the hand."""

    __slots__ = (
        "blind",
        "cards",
        "hands",
        "held",
        "looked",
        "name",
        "paid",
        "seat",
        "stack",
        "start",
        "status",
    )

    def __init__(self, seat: int, name: str, stack: int) -> None:
        self.seat = seat
        self.name = name
        self.start = stack
        self.stack = stack
        self.paid = 0
        self.status = ACTIVE
        self.blind = True
        self.hands = 1  # 2 while holding a retained blind hand beside the new one
        self.held = NEW  # which hand a one-hand player holds
        self.looked: str | None = None  # the hand looked at, awaiting keep or throw in
        self.cards: tuple[Card, ...] | None = None

    @property
    def label(self) -> str:
        return f"{self.name} (seat {self.seat})" if self.name else f"seat {self.seat}"

    def snapshot(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in Player.__slots__)


class Pot:
    """One pot: its amount and the seats that covered it (paid their whole stack into it)."""

    __slots__ = ("amount", "coverers")

    def __init__(self, amount: int = 0) -> None:
        self.amount = amount
        self.coverers: list[int] = []


def ceil_half(value: int) -> int:
    return (value + 1) // 2


def status_words(status: str) -> str:
    """How a player out of the betting is described in a message."""
    return "folded" if status == FOLDED else "covered the pot"
