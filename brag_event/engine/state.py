"""The betting state machine for one hand of Three Card Brag (RULES §3).

A :class:`HandState` is built from the table (rules, dealer, seats, carried pot) and then moved on
by actions. For every action the engine can

* *verify* it (:meth:`HandState.verify` raises :class:`IllegalAction` with a stable code),
* say whether it *can* be done (:meth:`HandState.can`),
* list *what is legal now* (:meth:`HandState.legal_actions`, with amounts, costs and reasons),
* *apply* it (:meth:`HandState.apply`; an illegal action leaves the state untouched).

Each action's check and its change are kept apart (:mod:`.actions`): every check happens before
the first change, so a rejected action never changes anything. The pots are decided and paid in
:mod:`.settlement`.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Any

from .actions import verify as _verify
from .errors import EngineError, IllegalAction
from .model import (
    ACTIVE,
    BETTING,
    CHOOSING,
    HANDS,
    NEW,
    SETTLED,
    SHOWING,
    Action,
    LegalAction,
    Outcome,
    Player,
    Pot,
    SeatSetup,
    ceil_half,
)
from .rules import SEE_DOUBLE, Rules

# A C-level sort key: the seats are sorted at every replay.
_SEAT_NUMBER = attrgetter("seat")


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
        self.seats: tuple[SeatSetup, ...] = tuple(sorted(seat_list, key=_SEAT_NUMBER))
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
        _verify(self, action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now. Changes nothing."""
        try:
            _verify(self, action)
        except EngineError:
            return False
        return True

    def apply(self, action: Action) -> HandState:
        """Verify and perform ``action``; returns ``self`` for chaining. An illegal action raises
        :class:`IllegalAction` and changes nothing. A ``see`` without an amount is logged with
        the exact cost paid, so that the log always replays."""
        if action.action == "see" and action.amount is None and self.phase == BETTING:
            p = self.by_seat.get(action.seat) if isinstance(action.seat, int) else None
            if p is not None and self.stake:
                action = action._replace(amount=self._see_cost(p))
        _verify(self, action).change(self, action)
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
        if self.phase == SETTLED:
            return []
        if self.phase == SHOWING:
            return self._legal_showing()
        if self.phase == CHOOSING:
            return [LegalAction("discard", s, True, hands=HANDS) for s in self.must_choose]
        if self.pending is not None:
            p = self.pending
            return [
                LegalAction("keep", p.seat, True, hands=(p.looked or NEW,)),
                LegalAction("discard", p.seat, True, hands=HANDS),
            ]
        return self._legal_betting(self.players[self.turn])

    def _legal_showing(self) -> list[LegalAction]:
        out: list[LegalAction] = []
        for s in self.cards_needed:
            out.append(LegalAction("show", s, True))
            if self.can(Action("concede", s)):
                out.append(LegalAction("concede", s, True))
        return out

    def _legal_betting(self, p: Player) -> list[LegalAction]:
        """The options of ``p``, whose turn it is, and the looks others may take before the
        first bet."""
        seat = p.seat
        hands = HANDS if p.hands == 2 else ()
        out = [
            self._option(Action("look", seat, hand=hands[0] if hands else None), hands),
            self._bet_option(p),
            LegalAction("fold", seat, True),
        ]
        see_cost = self._see_cost(p) if self.stake else None
        out.append(self._option(Action("see", seat, see_cost), (), cost=see_cost))
        out.append(self._option(Action("cover", seat, p.stack), (), cost=p.stack))
        out.append(self._option(Action("showdown"), ()))
        if not self.stake:
            out.extend(
                LegalAction("look", other.seat, True)
                for other in self.players
                if other is not p and other.status == ACTIVE and other.blind and other.hands == 1
            )
        return out

    def _bet_option(self, p: Player) -> LegalAction:
        """The range of payments ``p`` may bet, capped by the stack, or why they may not."""
        blind = p.blind
        lo, hi = self._bounds(blind)
        top = min(hi, p.stack)
        if lo <= top and (not blind or self.rules.blind_allowed):
            return LegalAction("bet", p.seat, True, min_amount=lo, max_amount=top, blind=blind)
        probe = lo if lo <= hi else max(1, hi)
        return self._option(Action("bet", p.seat, probe), (), blind=blind)

    def _option(
        self,
        action: Action,
        hands: tuple[str, ...],
        *,
        cost: int | None = None,
        blind: bool | None = None,
    ) -> LegalAction:
        try:
            _verify(self, action)
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

    # ------------------------------------------------------------------ shared by the checks

    def _labels(self, seats: Iterable[int]) -> str:
        return ", ".join(self.by_seat[s].label for s in seats)

    def _purpose(self) -> str:
        return "to keep for the next hand" if self.end == "folds" else "before the showdown"

    def _coverers(self) -> list[Player]:
        return [self.by_seat[s] for pot in self.pots for s in pot.coverers]

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
        """The least ``p`` must pay to stay in (a blind player's counts double)."""
        blind = p.blind and self.rules.blind_allowed
        base = self.stake or self.rules.min_bet
        return ceil_half(base) if blind else base

    def _see_cost(self, p: Player) -> int:
        """What ``p`` pays to see now: under ``double`` twice the stake (a blind seer the
        stake); under ``equal`` the stake (a blind seer half of it, rounded up) — but only when
        the player being seen is open: seeing a blind player costs what it costs under
        ``double`` (RULES 3.6, the ``equal`` option's Decision)."""
        stake = self.stake
        if self.rules.see_cost == SEE_DOUBLE or self._other_is_blind(p):
            return stake if p.blind else 2 * stake
        return ceil_half(stake) if p.blind else stake

    def _other_is_blind(self, p: Player) -> bool:
        """Whether the one other player left in the betting (a see needs exactly two) is
        blind."""
        left = [q for q in self.players if q is not p and q.status == ACTIVE]
        return len(left) == 1 and left[0].blind


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
