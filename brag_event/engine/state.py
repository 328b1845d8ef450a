"""The betting state machine for one hand of Three Card Brag (RULES §3).

A :class:`HandState` is built from the table (rules, dealer, seats, carried pot) and then moved on
by actions. For every action the engine can

* *verify* it (:meth:`HandState.verify` raises :class:`IllegalAction` with a stable code),
* say whether it *can* be done (:meth:`HandState.can`),
* list *what is legal now* (:meth:`HandState.legal_actions`, with amounts, costs and reasons),
* *apply* it (:meth:`HandState.apply`; an illegal action leaves the state untouched).

Every check happens before the first change, so a rejected action never changes anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .cards import Card, HandValue, cards_str, parse_cards, strength3, value_of_strength
from .errors import EngineError, IllegalAction
from .rules import SEE_DOUBLE, Rules

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
_HANDS: Final = (OLD, NEW)


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """A seated player at the start of a hand."""

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


class Decision(NamedTuple):
    """How one pot is won: the pot's index, winners, contenders, how and the reason in words."""

    pot: int
    winners: list[int]
    contenders: list[int]
    how: str
    text: str


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
    __slots__ = ("amount", "coverers")

    def __init__(self, amount: int = 0) -> None:
        self.amount = amount
        self.coverers: list[int] = []


def _ceil_half(value: int) -> int:
    return (value + 1) // 2


class HandState:
    """One hand, from the antes to the settlement.

    Create it with the table as it is before the deal; the antes are taken at once. Then
    :meth:`apply` actions (or use the shortcuts :meth:`bet`, :meth:`fold`, …).
    """

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        seats: Iterable[SeatSetup],
        *,
        carried_pot: int = 0,
        carried_seat: int | None = None,
        first_deal: bool = False,
    ) -> None:
        seat_list = list(seats)
        _check_setup(rules, dealer, seat_list, carried_pot, carried_seat)
        self.rules = rules
        self.dealer = dealer
        self.seats: tuple[SeatSetup, ...] = tuple(sorted(seat_list, key=lambda s: s.seat))
        self.carried_in = carried_pot
        self.carried_seat_in = carried_seat
        self.first_deal = first_deal
        n = rules.seats
        dealt = [
            s for s in self.seats if not s.sitting_out and not s.penalty and s.stack >= rules.ante
        ]
        if len(dealt) < 2:
            raise EngineError("not_enough_players", ante=rules.ante, count=len(dealt))
        dealt.sort(key=lambda s: (s.seat - dealer - 1) % n)
        self.players: list[Player] = [Player(s.seat, s.player, s.stack) for s in dealt]
        self.by_seat: dict[int, Player] = {p.seat: p for p in self.players}
        pot = Pot(carried_pot)
        for p in self.players:
            p.stack -= rules.ante
            p.paid += rules.ante
            pot.amount += rules.ante
        self.pots: list[Pot] = [pot]
        if carried_seat is not None and carried_seat in self.by_seat:
            self.by_seat[carried_seat].hands = 2
        self.stake = 0  # current stake in open terms; 0 = nobody has bet yet
        self.turn = 0  # index into players of the player to act; -1 when betting is over
        self.phase = BETTING
        self.pending: Player | None = None
        self.end: str | None = None
        self.seer: Player | None = None
        self.seen: Player | None = None
        self.must_choose: list[int] = []
        self.show_seats: list[int] = []
        # Seats of ``show_seats`` that gave up instead of showing (RULES §3.6, §3.8).
        self.conceded: list[int] = []
        self.log: list[Action] = []
        self.outcome: Outcome | None = None
        self.disqualified: list[int] = []  # seats the floor folded out (RULES §4b)

    # ------------------------------------------------------------------ public read side

    @property
    def to_act(self) -> int | None:
        """Seat of the player to act in the betting, or ``None`` when betting is over."""
        if self.phase != BETTING or self.turn < 0:
            return None
        return self.players[self.turn].seat

    @property
    def shuffle_before_deal(self) -> bool:
        """Whether the dealer shuffles before dealing this hand: before a table's first deal
        (the previous hand's outcome says so for every later deal, see ``Outcome.shuffle``)."""
        return self.first_deal

    @property
    def is_settled(self) -> bool:
        return self.phase == SETTLED

    @property
    def misdealt(self) -> bool:
        return self.outcome is not None and self.outcome.misdeal is not None

    @property
    def pot_total(self) -> int:
        return sum(p.amount for p in self.pots)

    @property
    def active_seats(self) -> list[int]:
        return [p.seat for p in self.players if p.status == ACTIVE]

    @property
    def cards_needed(self) -> list[int]:
        """Seats whose cards must still be entered (or, where the rules allow, given up) before
        the hand can settle."""
        if self.phase != SHOWING:
            return []
        return [
            s for s in self.show_seats if self.by_seat[s].cards is None and s not in self.conceded
        ]

    def player(self, seat: int) -> Player:
        try:
            return self.by_seat[seat]
        except KeyError:
            raise IllegalAction("unknown_seat", seat=seat) from None

    def copy(self) -> HandState:
        """An independent copy (for what-if questions)."""
        clone = HandState.__new__(HandState)
        clone.__dict__.update(self.__dict__)
        clone.players = []
        for p in self.players:
            q = Player.__new__(Player)
            for name in Player.__slots__:
                setattr(q, name, getattr(p, name))
            clone.players.append(q)
        clone.by_seat = {p.seat: p for p in clone.players}
        clone.pots = []
        for pot in self.pots:
            new = Pot(pot.amount)
            new.coverers = list(pot.coverers)
            clone.pots.append(new)
        clone.pending = clone.by_seat[self.pending.seat] if self.pending else None
        clone.seer = clone.by_seat[self.seer.seat] if self.seer else None
        clone.seen = clone.by_seat[self.seen.seat] if self.seen else None
        clone.must_choose = list(self.must_choose)
        clone.show_seats = list(self.show_seats)
        clone.conceded = list(self.conceded)
        clone.log = list(self.log)
        clone.disqualified = list(self.disqualified)
        return clone

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that makes up the state, as a comparable value."""
        return (
            tuple(p.snapshot() for p in self.players),
            tuple((pot.amount, tuple(pot.coverers)) for pot in self.pots),
            self.stake,
            self.turn,
            self.phase,
            self.pending.seat if self.pending else None,
            self.end,
            self.seer.seat if self.seer else None,
            self.seen.seat if self.seen else None,
            tuple(self.must_choose),
            tuple(self.show_seats),
            tuple(self.conceded),
            tuple(self.log),
            self.outcome.to_dict() if self.outcome else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready data (for the tablet and the API)."""
        return {
            "phase": self.phase,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "stake": self.stake,
            "pots": [{"amount": p.amount, "coverers": list(p.coverers)} for p in self.pots],
            "players": [
                {
                    "seat": p.seat,
                    "player": p.name,
                    "stack": p.stack,
                    "paid": p.paid,
                    "status": p.status,
                    "blind": p.blind,
                    "hands": p.hands,
                    "looked": p.looked,
                }
                for p in self.players
            ],
            "pending": self.pending.seat if self.pending else None,
            "must_choose": list(self.must_choose),
            "cards_needed": self.cards_needed,
            "conceded": list(self.conceded),
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    # ------------------------------------------------------------------ verify / can / apply

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``action`` is not legal now. Changes nothing."""
        self._dispatch(action, False)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self._dispatch(action, False)
        except EngineError:
            return False
        return True

    def apply(self, action: Action) -> HandState:
        """Verify and perform ``action``; returns ``self`` for chaining. A ``see`` without an
        amount is logged with the exact cost paid, so that the log always replays."""
        if action.action == "see" and action.amount is None and self.phase == BETTING:
            p = self.by_seat.get(action.seat) if isinstance(action.seat, int) else None
            if p is not None and self.stake:
                action = action._replace(amount=self._see_cost(p))
        self._dispatch(action, True)
        self.log.append(action)
        return self

    # Shortcuts.
    def look(self, seat: int, hand: str | None = None) -> HandState:
        return self.apply(Action("look", seat, hand=hand))

    def keep(self, seat: int) -> HandState:
        return self.apply(Action("keep", seat))

    def discard(self, seat: int, hand: str | None = None) -> HandState:
        return self.apply(Action("discard", seat, hand=hand))

    def bet(self, seat: int, amount: int) -> HandState:
        return self.apply(Action("bet", seat, amount))

    def fold(self, seat: int) -> HandState:
        return self.apply(Action("fold", seat))

    def see(self, seat: int, amount: int | None = None) -> HandState:
        return self.apply(Action("see", seat, amount))

    def cover(self, seat: int, amount: int | None = None) -> HandState:
        return self.apply(Action("cover", seat, amount))

    def showdown(self) -> HandState:
        return self.apply(Action("showdown"))

    def show(self, seat: int, cards: str) -> HandState:
        return self.apply(Action("show", seat, cards=cards))

    def concede(self, seat: int) -> HandState:
        return self.apply(Action("concede", seat))

    def misdeal(self, reason: str = "") -> HandState:
        return self.apply(Action("misdeal", reason=reason))

    def disqualify(self, seat: int) -> HandState:
        return self.apply(Action("disqualify", seat))

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[LegalAction]:
        """What can be entered now, each with its amounts or cost, and — for actions that are
        shown but not allowed — the code and reason."""
        out: list[LegalAction] = []
        if self.phase == SETTLED:
            return out
        if self.phase == SHOWING:
            for s in self.cards_needed:
                out.append(LegalAction("show", s, True))
                if self.can(Action("concede", s)):
                    out.append(LegalAction("concede", s, True))
            return out
        if self.phase == CHOOSING:
            return [LegalAction("discard", s, True, hands=_HANDS) for s in self.must_choose]
        if self.pending is not None:
            p = self.pending
            return [
                LegalAction("keep", p.seat, True, hands=(p.looked or NEW,)),
                LegalAction("discard", p.seat, True, hands=_HANDS),
            ]
        p = self.players[self.turn]
        seat = p.seat
        hands = _HANDS if p.hands == 2 else ()
        out.append(self._option(Action("look", seat, hand=hands[0] if hands else None), hands))
        # Bet: the range of payments, capped by the stack.
        blind = p.blind
        lo, hi = self._bounds(blind)
        top = min(hi, p.stack)
        if lo <= top and (not blind or self.rules.blind_allowed):
            out.append(LegalAction("bet", seat, True, min_amount=lo, max_amount=top, blind=blind))
        else:
            probe = lo if lo <= hi else max(1, hi)
            out.append(self._option(Action("bet", seat, probe), (), blind=blind))
        out.append(LegalAction("fold", seat, True))
        see_cost = self._see_cost(p) if self.stake else None
        out.append(self._option(Action("see", seat, see_cost), (), cost=see_cost))
        out.append(self._option(Action("cover", seat, p.stack), (), cost=p.stack))
        out.append(self._option(Action("showdown"), ()))
        if not self.stake:
            for other in self.players:
                if other is not p and other.status == ACTIVE and other.blind and other.hands == 1:
                    out.append(LegalAction("look", other.seat, True))
        return out

    def _option(
        self,
        action: Action,
        hands: tuple[str, ...],
        *,
        cost: int | None = None,
        blind: bool | None = None,
    ) -> LegalAction:
        try:
            self._dispatch(action, False)
        except EngineError as err:
            return LegalAction(
                action.action,
                action.seat,
                False,
                cost=None,
                blind=blind,
                hands=hands,
                code=err.code,
                reason=err.message,
            )
        return LegalAction(action.action, action.seat, True, cost=cost, blind=blind, hands=hands)

    # ------------------------------------------------------------------ the rules

    def _dispatch(self, a: Action, do: bool) -> None:
        kind = a.action
        if self.phase == SETTLED:
            raise IllegalAction("hand_over")
        if kind not in ACTIONS:
            raise IllegalAction("unknown_action", action=kind)
        allowed = FIELDS[kind]
        if a.amount is not None and "amount" not in allowed:
            raise IllegalAction("unexpected_field", field="amount", action=kind)
        if a.hand is not None and ("hand" not in allowed or not isinstance(a.hand, str)):
            if "hand" in allowed:
                raise IllegalAction(
                    "invalid_hand", hand=a.hand, who="the player", choices="old or new"
                )
            raise IllegalAction("unexpected_field", field="hand", action=kind)
        if a.cards is not None and ("cards" not in allowed or not isinstance(a.cards, str)):
            if "cards" in allowed:
                raise IllegalAction("invalid_card", card=repr(a.cards))
            raise IllegalAction("unexpected_field", field="cards", action=kind)
        if a.reason is not None and "reason" not in allowed:
            raise IllegalAction("unexpected_field", field="reason", action=kind)
        if kind == "misdeal":
            if a.seat is not None:
                raise IllegalAction("unexpected_field", field="seat", action=kind)
            self._misdeal(a.reason, do)
            return
        if kind == "showdown":
            if a.seat is not None:
                raise IllegalAction("unexpected_field", field="seat", action=kind)
            self._showdown(do)
            return
        seat = a.seat
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.by_seat:
            raise IllegalAction("unknown_seat", seat=seat)
        p = self.by_seat[seat]
        if kind == "disqualify":
            self._disqualify(p, do)
            return
        if self.phase == SHOWING:
            if kind == "concede":
                self._concede(p, do)
                return
            if kind != "show":
                raise IllegalAction("cards_required", seats=self._labels(self.cards_needed))
            self._show(p, a.cards, do)
            return
        if self.phase == CHOOSING:
            if kind != "discard" or seat not in self.must_choose:
                who = self.by_seat[self.must_choose[0]]
                raise IllegalAction("choose_hand_first", who=who.label, purpose=self._purpose())
            self._choose(p, a.hand, do)
            return
        if kind == "show":
            raise IllegalAction("cards_not_needed", who=p.label)
        if kind == "concede":
            raise IllegalAction("concede_not_now", who=p.label)
        pending = self.pending
        if pending is not None and (pending is not p or kind not in ("keep", "discard")):
            raise IllegalAction("decision_pending", who=pending.label, hand=pending.looked)
        if kind == "look":
            self._look(p, a.hand, do)
        elif kind == "keep":
            self._keep(p, do)
        elif kind == "discard":
            self._discard(p, a.hand, do)
        else:
            self._check_turn(p)
            if kind == "bet":
                self._bet(p, a.amount, do)
            elif kind == "fold":
                if do:
                    self._fold(p)
            elif kind == "see":
                self._see(p, a.amount, do)
            else:
                self._cover(p, a.amount, do)

    def _check_turn(self, p: Player) -> None:
        if p.status != ACTIVE:
            raise IllegalAction("player_out", who=p.label, status=_status_words(p.status))
        current = self.players[self.turn]
        if current is not p:
            raise IllegalAction("not_your_turn", turn=current.label, who=p.label)

    def _labels(self, seats: Iterable[int]) -> str:
        return ", ".join(self.by_seat[s].label for s in seats)

    def _purpose(self) -> str:
        return "to keep for the next hand" if self.end == "folds" else "before the showdown"

    # Looking, keeping, throwing in.

    def _look(self, p: Player, hand: str | None, do: bool) -> None:
        if p.status != ACTIVE:
            raise IllegalAction("player_out", who=p.label, status=_status_words(p.status))
        if not p.blind:
            raise IllegalAction("already_open", who=p.label)
        current = self.players[self.turn]
        if p.hands == 2:
            if hand is None:
                raise IllegalAction("hand_required", who=p.label, choices="old or new")
            if hand not in _HANDS:
                raise IllegalAction("invalid_hand", hand=hand, who=p.label, choices="old or new")
            if current is not p:
                raise IllegalAction(
                    "look_not_your_turn",
                    why="A player holding two blind hands may look only at their own turn",
                    turn=current.label,
                )
            if do:
                p.looked = hand
                self.pending = p
            return
        if hand is not None and hand != p.held:
            raise IllegalAction("invalid_hand", hand=hand, who=p.label, choices=p.held)
        if self.stake and current is not p:
            raise IllegalAction(
                "look_not_your_turn",
                why="Once betting has started a blind player may look only at their own turn",
                turn=current.label,
            )
        if do:
            p.blind = False

    def _keep(self, p: Player, do: bool) -> None:
        if self.pending is not p or p.looked is None:
            raise IllegalAction("nothing_to_keep", who=p.label)
        if do:
            p.held = p.looked
            p.hands = 1
            p.blind = False
            p.looked = None
            self.pending = None

    def _discard(self, p: Player, hand: str | None, do: bool) -> None:
        if self.pending is not p or p.looked is None:
            raise IllegalAction("discard_not_allowed", who=p.label)
        looked = p.looked
        if hand is None:
            hand = looked
        if hand not in _HANDS:
            raise IllegalAction("invalid_hand", hand=hand, who=p.label, choices="old or new")
        if not do:
            return
        if hand == looked:
            # Throw in the looked-at hand: stay blind with the other.
            p.held = OLD if looked == NEW else NEW
            p.blind = True
        else:
            # Throwing in the unseen one is keeping the looked-at hand.
            p.held = looked
            p.blind = False
        p.hands = 1
        p.looked = None
        self.pending = None

    def _choose(self, p: Player, hand: str | None, do: bool) -> None:
        if hand is None:
            raise IllegalAction("hand_required", who=p.label, choices="old or new")
        if hand not in _HANDS:
            raise IllegalAction("invalid_hand", hand=hand, who=p.label, choices="old or new")
        if not do:
            return
        p.hands = 1
        p.held = OLD if hand == NEW else NEW
        self.must_choose.remove(p.seat)
        if not self.must_choose:
            if self.end == "folds" and not self._coverers():
                self._settle_carry()
            else:
                self.phase = SHOWING

    # Betting.

    def _bounds(self, blind: bool, pot_limit: bool | None = None) -> tuple[int, int]:
        """Least and most payment for a bet now, before the stack is considered."""
        rules = self.rules
        stake = self.stake
        if pot_limit is None:
            pot_limit = rules.pot_limit
        if stake == 0:
            lo_v, hi_v = rules.min_bet, rules.max_bet
            if pot_limit:
                hi_v = max(lo_v, min(hi_v, self.pot_total))
        else:
            raise_by = rules.max_raise
            if pot_limit:
                raise_by = min(raise_by, self.pot_total)
            lo_v, hi_v = stake, stake + raise_by
        if blind:
            return (lo_v + 1) // 2, hi_v // 2
        return lo_v, hi_v

    def _least_stay(self, p: Player) -> int:
        blind = p.blind and self.rules.blind_allowed
        base = self.stake or self.rules.min_bet
        return _ceil_half(base) if blind else base

    def _see_cost(self, p: Player) -> int:
        stake = self.stake
        if self.rules.see_cost == SEE_DOUBLE:
            return stake if p.blind else 2 * stake
        return _ceil_half(stake) if p.blind else stake

    def _bet(self, p: Player, amount: int | None, do: bool) -> None:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            raise IllegalAction("invalid_amount", amount=amount, minimum=1)
        blind = p.blind
        rules = self.rules
        if blind and not rules.blind_allowed:
            raise IllegalAction("blind_play_not_allowed", who=p.label)
        lo, hi = self._bounds(blind)
        if lo > hi:
            raise IllegalAction("blind_bet_impossible", who=p.label)
        if amount < lo or amount > hi:
            self._raise_limit(p, amount, lo, hi, blind)
        self._afford(p, amount)
        if do:
            self._put_in(p, amount)
            self.stake = 2 * amount if blind else amount
            self._advance()

    def _raise_limit(self, p: Player, amount: int, lo: int, hi: int, blind: bool) -> None:
        rules = self.rules
        note = " (blind: counts double)" if blind else ""
        common: dict[str, Any] = {"who": p.label, "least": lo, "most": hi, "blind_note": note}
        if amount < lo:
            if self.stake == 0:
                raise IllegalAction("bet_below_min", min_bet=rules.min_bet, **common)
            raise IllegalAction("bet_below_stake", stake=self.stake, **common)
        if rules.pot_limit and hi < self._bounds(blind, False)[1]:
            raise IllegalAction("raise_above_pot", pot=self.pot_total, **common)
        if self.stake == 0:
            raise IllegalAction("bet_above_max", max_bet=rules.max_bet, **common)
        raise IllegalAction(
            "raise_above_max", max_raise=rules.max_raise, stake=self.stake, **common
        )

    def _afford(self, p: Player, amount: int) -> None:
        """Refuse a bet or a see that ``p``'s stack cannot pay (a cover is how to go all in)."""
        if amount > p.stack:
            raise IllegalAction(
                "insufficient_stack", who=p.label, stack=p.stack, amount=amount, hint=self._hint()
            )

    def _put_in(self, p: Player, amount: int) -> None:
        """``p`` puts ``amount`` from their stack into the newest pot."""
        p.stack -= amount
        p.paid += amount
        self.pots[-1].amount += amount

    def _hint(self) -> str:
        if self.rules.cover_allowed:
            return "; they may cover the pot (put in their whole stack) or fold"
        return "; they may only fold"

    def _fold(self, p: Player) -> None:
        """A fold — the player's own, at their turn, or the floor's out of turn (a
        disqualification): the turn passes on only if it was theirs; one player left wins as
        after any last fold."""
        p.status = FOLDED
        if self.pending is p:
            p.looked = None
            self.pending = None
        active = [q for q in self.players if q.status == ACTIVE]
        if len(active) == 1:
            if self.pending is not None:  # the winner's look at one of two hands is moot
                self.pending.looked = None
                self.pending = None
            self._end_betting("folds")
        elif self.players[self.turn] is p:
            self._advance()

    def _disqualify(self, p: Player, do: bool) -> None:
        """RULES §4b: a disqualified player's live hand is folded, out of turn, at any moment
        before the hand settles; what they paid stays in the pot(s) it went into.

        While the betting goes on it is a fold (the turn passes on only if it was theirs); a
        player who covered leaves the pot(s) they covered, which then go to the newer pot's
        winner. Once the betting is over (cards still to choose or show), the hand's end is
        decided again without them, as if they had folded: one player left in the betting wins
        as after the last fold, and the hands still needed are shown."""
        if p.status == FOLDED:
            raise IllegalAction("player_out", who=p.label, status=_status_words(p.status))
        if not do:
            return
        self.disqualified.append(p.seat)
        if p.status == COVERED:
            for pot in self.pots:
                if p.seat in pot.coverers:
                    pot.coverers.remove(p.seat)
            p.status = FOLDED
        elif self.phase == BETTING:
            self._fold(p)
            return
        else:
            p.status = FOLDED
        if self.phase != BETTING:
            self._end_again(p)

    def _end_again(self, out: Player) -> None:
        """The betting is over and ``out`` has just been folded out of the hand: end it again
        with the players still in it (see :meth:`_disqualify`)."""
        active = [q for q in self.players if q.status == ACTIVE]
        end = self.end
        if len(active) >= 2:
            how = end or "showdown"  # a see with both still in (a coverer left), or a showdown
        elif len(active) == 1:
            how = "cover" if end == "cover" and self.pots[-1].coverers else "folds"
        else:
            how = DISQUALIFIED
        self.must_choose = []
        self.show_seats = []
        # The comparisons change with the player gone: a concession is entered again if it
        # still stands (RULES §3.6).
        self.conceded = []
        if how != "see":
            self.seer = self.seen = None
        if how == DISQUALIFIED and len(self._coverers()) <= 1:
            self.end = how
            self.turn = -1
            if self._coverers():
                self._settle({})  # one player left in the hand: nothing to compare
            else:
                self._settle_nobody()
            return
        self._end_betting(how)
        if self.phase == SHOWING:
            self._settle_if_complete()

    def _see(self, p: Player, amount: int | None, do: bool) -> None:
        active = [q for q in self.players if q.status == ACTIVE]
        if len(active) != 2:
            raise IllegalAction("see_needs_two_players", count=len(active))
        if not self.stake:
            raise IllegalAction("see_needs_stake")
        if p.blind and not self.rules.blind_allowed:
            raise IllegalAction("blind_play_not_allowed", who=p.label)
        other = active[0] if active[1] is p else active[1]
        if not p.blind and other.blind:
            raise IllegalAction("cannot_see_blind", who=p.label, other=other.label)
        cost = self._see_cost(p)
        if amount is not None and (type(amount) is not int or amount != cost):
            raise IllegalAction("see_wrong_amount", who=p.label, cost=cost, amount=amount)
        self._afford(p, cost)
        if do:
            self._put_in(p, cost)
            self.seer = p
            self.seen = other
            self._end_betting("see")

    def _cover(self, p: Player, amount: int | None, do: bool) -> None:
        if not self.rules.cover_allowed:
            raise IllegalAction("cover_not_allowed")
        least = self._least_stay(p)
        if p.stack >= least:
            active = [q for q in self.players if q.status == ACTIVE]
            short_to_see = False
            if len(active) == 2 and self.stake:
                other = active[0] if active[1] is p else active[1]
                if p.blind or not other.blind:
                    short_to_see = p.stack < self._see_cost(p)
            if not short_to_see:
                raise IllegalAction("cover_not_needed", who=p.label, least=least)
        if amount is not None and (type(amount) is not int or amount != p.stack):
            raise IllegalAction("cover_wrong_amount", stack=p.stack, amount=amount)
        if not do:
            return
        pot = self.pots[-1]
        pot.amount += p.stack
        pot.coverers.append(p.seat)
        p.paid += p.stack
        p.stack = 0
        p.status = COVERED
        active = [q for q in self.players if q.status == ACTIVE]
        if len(active) >= 2:
            self.pots.append(Pot())
            self._advance()
        else:
            self._end_betting("cover")

    def _showdown(self, do: bool) -> None:
        if self.phase != BETTING:
            if self.phase == SHOWING:
                raise IllegalAction("cards_required", seats=self._labels(self.cards_needed))
            who = self.by_seat[self.must_choose[0]]
            raise IllegalAction("choose_hand_first", who=who.label, purpose=self._purpose())
        if self.pending is not None:
            p = self.pending
            raise IllegalAction("decision_pending", who=p.label, hand=p.looked)
        count = sum(1 for q in self.players if q.status == ACTIVE)
        if count < 3:
            raise IllegalAction("showdown_needs_three", count=count)
        if do:
            self._end_betting("showdown")

    def _misdeal(self, reason: str | None, do: bool) -> None:
        """RULES §4b: up to the first see, cover-settlement or showdown — that is, while the
        betting goes on. Everything each player paid goes back; the carried pot and a kept
        blind hand stay as they were before the deal; the same dealer deals again, shuffled."""
        if reason is not None and (not isinstance(reason, str) or len(reason) > REASON_MAX):
            raise IllegalAction("invalid_reason", most=REASON_MAX)
        if self.phase != BETTING:
            raise IllegalAction("misdeal_too_late", end=self.end or "betting")
        if not do:
            return
        refunds = {p.seat: p.paid for p in self.players}
        total = self.pot_total
        for p in self.players:
            p.stack += p.paid
        for pot in self.pots:
            pot.amount = 0
        self.turn = -1
        self.end = "misdeal"
        self.pending = None
        kept = self.carried_seat_in if self.carried_seat_in in self.by_seat else None
        text = " ".join(str(reason or "").split())
        back = ", ".join(f"{p.label} {p.paid}" for p in self.players)
        explanation = f"Misdeal{f' ({text})' if text else ''}: back to the players: {back}."
        if self.carried_in:
            explanation += f" The carried pot of {self.carried_in} stays carried."
        result = PotResult.unwon(total, "misdeal", explanation + " Shuffle and deal again.")
        self._finish([result], self.carried_in, kept, True)
        assert self.outcome is not None
        self.outcome.next_dealer = self.dealer
        self.outcome.misdeal = Misdeal(text, refunds)

    def _advance(self) -> None:
        players = self.players
        n = len(players)
        i = self.turn
        for _ in range(n):
            i = (i + 1) % n
            if players[i].status == ACTIVE:
                self.turn = i
                return
        raise AssertionError("no active player to move to")  # pragma: no cover

    # Ending the betting and settling.

    def _coverers(self) -> list[Player]:
        return [self.by_seat[s] for pot in self.pots for s in pot.coverers]

    def _end_betting(self, how: str) -> None:
        self.turn = -1
        self.end = how
        active = [q for q in self.players if q.status == ACTIVE]
        # Shown as the pots are settled (RULES §3.8): the newest first, then each older pot's
        # coverer, so a covering player's turn to show comes when their comparison is due and
        # they may give up instead.
        coverers = self._coverers()[::-1]
        if how == "folds":
            winner = active[0]
            if not coverers:
                if winner.blind and self.rules.blind_allowed:
                    if winner.hands == 2:
                        self.must_choose = [winner.seat]
                        self.phase = CHOOSING
                    else:
                        self._settle_carry()
                    return
                self._settle({})
                return
            show = [winner, *coverers]
        elif how == "see":
            assert self.seer is not None and self.seen is not None
            show = [self.seen, self.seer, *coverers]
        else:  # cover (the last two) or an agreed showdown
            show = [*active, *coverers]
        self.show_seats = [q.seat for q in show]
        self.must_choose = [q.seat for q in show if q.hands == 2]
        self.phase = CHOOSING if self.must_choose else SHOWING

    def _show(self, p: Player, text: str | None, do: bool) -> None:
        if p.seat not in self.show_seats or p.cards is not None or p.seat in self.conceded:
            raise IllegalAction("cards_not_needed", who=p.label)
        if text is None:
            raise IllegalAction("wrong_card_count", expected=3, got=0)
        try:
            cards = parse_cards(text, 3)
        except EngineError as err:
            raise IllegalAction(err.code, **err.details) from None
        for q in self.players:
            if q.cards is not None:
                for c in cards:
                    if c in q.cards:
                        raise IllegalAction(
                            "card_already_shown", card=cards_str([c]), other=q.label
                        )
        if not do:
            return
        p.cards = cards
        self._settle_if_complete()

    def _known_values(self) -> dict[int, int]:
        """The hands of ``show_seats`` known so far: each shown hand's strength, and
        :data:`GAVE_UP` for a hand given up without showing."""
        values = {s: GAVE_UP for s in self.conceded}
        for s in self.show_seats:
            cards = self.by_seat[s].cards
            if cards is not None:
                values[s] = strength3(*cards)
        return values

    def _settle_if_complete(self) -> None:
        """Settle once every hand to be compared is shown or given up."""
        if not self.cards_needed:
            self._settle(self._known_values())

    def _concede(self, p: Player, do: bool) -> None:
        """RULES §3.6, §3.8: a player who saw, or who covered a pot, may give up without
        showing once the hand they play against is shown; they lose that comparison (and with
        it every older pot they could only win through it)."""
        if p.seat in self.conceded:
            raise IllegalAction("already_conceded", who=p.label)
        if p.seat not in self.show_seats:
            raise IllegalAction("concede_not_in_showdown", who=p.label)
        if p.cards is not None:
            raise IllegalAction("already_shown", who=p.label)
        against = self._conceding_against(p)
        if against.cards is None:
            raise IllegalAction("concede_too_early", who=p.label, other=against.label)
        if not do:
            return
        self.conceded.append(p.seat)
        self._settle_if_complete()

    def _conceding_against(self, p: Player) -> Player:
        """The player whose hand ``p``'s is compared with: the seen player for the seer; for a
        player who covered, the other player (the last two) or the newer pot's winner. Raises
        ``concede_must_show`` for anyone else, ``concede_too_early`` while that winner is not
        yet known."""
        if self.end == "see" and p is self.seer:
            assert self.seen is not None
            return self.seen
        if p.status == COVERED:
            i = next(i for i, pot in enumerate(self.pots) if p.seat in pot.coverers)
            if i == self._newest_in_play():
                if self.end == "cover":
                    return next(q for q in self.players if q.status == ACTIVE)
                # Everyone else still in was disqualified: this coverer wins the pot with
                # nobody against them, and their hand decides the older pots.
                raise IllegalAction("concede_must_show", who=p.label)
            for index, winners, *_ in self._decisions(self._known_values()):
                if index == i + 1:
                    return self.by_seat[winners[0]]
            raise IllegalAction(
                "concede_too_early", who=p.label, other="the winner of the newer pot"
            )
        raise IllegalAction("concede_must_show", who=p.label)

    def _settle_carry(self) -> None:
        winner = next(q for q in self.players if q.status == ACTIVE)
        total = self.pot_total
        result = PotResult(
            index=0,
            amount=total,
            contenders=[winner.seat],
            winners=[],
            shares={},
            rake=0,
            how="carried",
            explanation=(
                f"Everyone folded to {winner.label}, who is blind: the pot of {total} is "
                f"carried forward and {winner.label} keeps the unseen hand."
            ),
        )
        self._finish([result], total, winner.seat, False)

    def _settle_nobody(self) -> None:
        """Every player left in the hand was disqualified: nobody can win the pot, which is
        carried forward as after a blind player's win, but nobody keeps a hand."""
        total = self.pot_total
        result = PotResult.unwon(
            total,
            "carried",
            f"Nobody is left in the hand (disqualified): the pot of {total} is carried forward; "
            "nobody keeps a hand.",
        )
        self._finish([result], total, None, False)

    def _newest_in_play(self) -> int:
        """The index of the newest pot someone still in the hand paid into: the newest, unless
        everyone left in the betting was disqualified (then the newest a coverer is still in)."""
        pots = self.pots
        j = len(pots) - 1
        if not any(q.status == ACTIVE for q in self.players):
            while j > 0 and not pots[j].coverers:
                j -= 1
        return j

    def _decisions(self, values: dict[int, int]) -> Iterator[Decision]:
        """How each pot is won, as far as ``values`` (the hands known: strengths, or
        :data:`GAVE_UP`) decide it: the newest pot someone still in paid into first, then the
        newer pots that go with it, then the older pots, newest first. Stops at the first pot
        whose decision needs a hand not yet known. The one place the pots are compared: the
        settlement takes every decision, a concession asks whether its comparison is due."""
        players = self.players
        pots = self.pots
        order = {p.seat: i for i, p in enumerate(players)}
        active = [q.seat for q in players if q.status == ACTIVE]
        how = self.end
        k = len(pots) - 1

        def known(*seats: int) -> bool:
            return all(s in values for s in seats)

        def desc(seat: int) -> str:
            if values[seat] == GAVE_UP:
                return "gave up without showing"
            return value_of_strength(values[seat]).describe()

        def name(seat: int) -> str:
            return self.by_seat[seat].label

        j = self._newest_in_play()
        if how == "folds":
            winners = [active[0]]
            why = "folded"
            if self.disqualified:
                why += f" or was disqualified ({self._labels(self.disqualified)})"
            text = f"{name(active[0])} wins: everyone else {why}."
        elif how == "see":
            assert self.seer is not None and self.seen is not None
            seer, seen = self.seer.seat, self.seen.seat
            if not known(seer, seen):
                return
            text = _compare_text(name(seer), values[seer], name(seen), values[seen], "saw")
            winners = [seer] if values[seer] > values[seen] else [seen]
            if values[seer] == values[seen]:
                text += " A tie goes against the player who paid to see."
        elif how == "cover":
            coverer = pots[k].coverers[-1]
            other = active[0]
            if not known(coverer, other):
                return
            text = _compare_text(
                name(coverer), values[coverer], name(other), values[other], "covered against"
            )
            winners = [coverer] if values[coverer] > values[other] else [other]
            if values[coverer] == values[other]:
                text += " A tie goes to the player who did not cover."
        elif how == DISQUALIFIED:
            left = pots[j].coverers
            if len(left) == 1:
                winners = list(left)
                text = f"{name(left[0])} wins: everyone else still in the hand was disqualified."
            else:  # pragma: no cover - one cover per pot; kept for safety
                if not known(*left):
                    return
                best = max(values[s] for s in left)
                winners = [s for s in left if values[s] == best]
                text = f"Everyone still betting was disqualified: best hand {desc(winners[0])}."
        else:
            if not known(*active):
                return
            best = max(values[s] for s in active)
            winners = [s for s in active if values[s] == best]
            shown = "; ".join(f"{name(s)}: {desc(s)}" for s in active)
            text = f"Agreed showdown ({shown}): best hand {desc(winners[0])}."
            if len(winners) > 1:
                text += " Equal best hands split the pot."
        contenders = sorted(
            active + [c for pot in pots[j:] for c in pot.coverers], key=order.__getitem__
        )
        yield Decision(j, winners, contenders, how or "folds", text)
        # Newer pots nobody still in the hand paid into go with the newest someone did.
        for i in range(k, j, -1):
            text = "Everyone who paid into this pot was disqualified or folded: it goes with pot"
            yield Decision(i, winners, [], "covered_pot", f"{text} {j + 1}.")
        # Older pots, newest first: the better of the newer pot's winner and the coverer(s).
        for i in range(j - 1, -1, -1):
            newer = winners
            coverers = pots[i].coverers
            contenders = sorted(
                active + [c for pot in pots[i:] for c in pot.coverers], key=order.__getitem__
            )
            if not coverers:
                text = (
                    "Covered pot: the player who covered it was disqualified; it goes to the "
                    f"newer pot's winner, {name(newer[0])}."
                )
                yield Decision(i, winners, contenders, "covered_pot", text)
                continue
            if not known(newer[0], *coverers):
                return
            best_c = max(values[c] for c in coverers)
            newer_value = values[newer[0]]
            covered = ", ".join(f"{name(c)} ({desc(c)})" for c in coverers)
            if best_c > newer_value:
                winners = [c for c in coverers if values[c] == best_c]
                verdict = "the covering hand is better"
            elif best_c == GAVE_UP:
                verdict = "the newer pot's winner takes it"
            else:
                verdict = (
                    "a tie goes to the newer pot's winner"
                    if best_c == newer_value
                    else "the newer pot's winner is better"
                )
            text = f"Covered pot: {covered} against {name(newer[0])} ({desc(newer[0])}): {verdict}."
            yield Decision(i, winners, contenders, "covered_pot", text)

    def _settle(self, values: dict[int, int]) -> None:
        decisions = list(self._decisions(values))
        assert len(decisions) == len(self.pots), "a pot was left undecided"
        results = [self._pay(*d) for d in decisions]
        results.sort(key=lambda r: r.index)
        # RULES §3.12: any pot won by a shown prial (a see, a covered pot's settlement, an
        # agreed showdown) means a shuffle before the next deal.
        shuffle = any(
            values.get(w, GAVE_UP) != GAVE_UP and value_of_strength(values[w]).category == "prial"
            for r in results
            for w in r.winners
        )
        self._finish(results, 0, None, shuffle)

    def _pay(
        self, index: int, winners: list[int], contenders: list[int], how: str, text: str
    ) -> PotResult:
        rules = self.rules
        amount = self.pots[index].amount
        rake = amount * rules.rake_percent // 100
        if rules.rake_cap is not None:
            rake = min(rake, rules.rake_cap)
        net = amount - rake
        share, odd = divmod(net, len(winners))
        order = {p.seat: i for i, p in enumerate(self.players)}
        ordered = sorted(winners, key=order.__getitem__)
        shares = {s: share + (1 if i < odd else 0) for i, s in enumerate(ordered)}
        for s, won in shares.items():
            self.by_seat[s].stack += won
        names = ", ".join(self.by_seat[s].label for s in ordered)
        summary = f"{names} {'win' if len(ordered) > 1 else 'wins'} {net}"
        if rake:
            summary += f" (rake {rake})"
        return PotResult(
            index=index,
            amount=amount,
            contenders=contenders,
            winners=ordered,
            shares=shares,
            rake=rake,
            how=how,
            explanation=f"{text} {summary}.",
        )

    def _finish(
        self, results: list[PotResult], carried: int, carried_seat: int | None, shuffle: bool
    ) -> None:
        stacks = {s.seat: s.stack for s in self.seats}
        for p in self.players:
            stacks[p.seat] = p.stack
        self.outcome = Outcome(
            pots=results,
            stacks=stacks,
            house=sum(r.rake for r in results),
            carried_pot=carried,
            carried_seat=carried_seat,
            next_dealer=self._next_dealer(),
            shuffle=shuffle,
            shown={
                s: cards for s in self.show_seats if (cards := self.by_seat[s].cards) is not None
            },
            conceded=list(self.conceded),
        )
        self.phase = SETTLED

    def _next_dealer(self) -> int:
        seated = [s.seat for s in self.seats if not s.sitting_out and not s.penalty]
        n = self.rules.seats
        for step in range(1, n + 1):
            seat = (self.dealer - 1 + step) % n + 1
            if seat in seated:
                return seat
        return self.dealer


def _status_words(status: str) -> str:
    return "folded" if status == FOLDED else "covered the pot"


def _compare_text(a: str, a_value: int, b: str, b_value: int, verb: str) -> str:
    """'A saw B: B shows X; A has Y, which beats it.' (or: 'A gives up without showing.')"""
    b_desc = value_of_strength(b_value).describe()
    if a_value == GAVE_UP:
        return f"{a} {verb} {b}: {b} shows {b_desc}; {a} gives up without showing."
    a_desc = value_of_strength(a_value).describe()
    if a_value == b_value:
        rel = "which only equals it"
    elif a_value > b_value:
        rel = "which beats it"
    else:
        rel = "which does not beat it"
    return f"{a} {verb} {b}: {b} shows {b_desc}; {a} has {a_desc}, {rel}."


def _check_setup(
    rules: Rules,
    dealer: int,
    seats: list[SeatSetup],
    carried_pot: int,
    carried_seat: int | None,
) -> None:
    def bad(problem: str) -> None:
        raise EngineError("invalid_setup", problem=problem)

    if not isinstance(rules, Rules):
        bad("rules are missing")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 1 <= dealer <= rules.seats:
        bad(f"the dealer must be a seat from 1 to {rules.seats}")
    numbers: set[int] = set()
    for s in seats:
        if (
            not isinstance(s.seat, int)
            or isinstance(s.seat, bool)
            or not 1 <= s.seat <= rules.seats
        ):
            bad(f"seat numbers run from 1 to {rules.seats}")
        if s.seat in numbers:
            bad(f"seat {s.seat} is listed twice")
        numbers.add(s.seat)
        if not isinstance(s.stack, int) or isinstance(s.stack, bool) or s.stack < 0:
            bad(f"the stack of seat {s.seat} must be a whole number, not negative")
        if not isinstance(s.player, str):
            bad(f"the player of seat {s.seat} must be a name")
    if not isinstance(carried_pot, int) or isinstance(carried_pot, bool) or carried_pot < 0:
        bad("the carried pot must be a whole number, not negative")
    if carried_seat is not None:
        if carried_seat not in numbers:
            bad("the seat that kept a blind hand is not at the table")
        if not rules.blind_allowed:
            bad("a kept blind hand needs blind play")
