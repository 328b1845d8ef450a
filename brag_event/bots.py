"""The hand-playing bots: every player the code simulates chooses here.

Pure standard library over the engine (an import contract keeps it Django-free, as the engine):
each bot picks among what ``HandState.legal_actions()`` lists, or, for speed, from RULES §3
with the engine's listing as the fallback, and draws its chances from a source of randomness
given to it (``Rng``: a seeded ``random.Random``, or Hypothesis's draws in the property tests).
What differs between the players is a parameter:

* ``concrete`` — an allowed ``LegalAction`` made an ``Action`` (amount, hand, cards drawn);
* ``Sampler`` — any allowed action, weighted by kind, then only ending ones after a patience
  (the engine's property tests);
* ``Casual`` — the demo event's players: look, see and fold at fixed chances, weighed by the
  hand's quality and the stake (``brag_event.demo``);
* ``Style`` and ``styled_action`` — the integrity simulation's players, each with a style of
  their own (how soon they look, how tight, how aggressive, how often they see blind) and an
  optional plot (collusion, dumping) (``brag_event.integrity.simulate``);
* ``opener_bets`` — the benchmarks' seed: the first to act looks and bets the minimum,
  everyone after folds (``bench.ledger_seed``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Protocol, TypeVar

from brag_event.engine import (
    ACTIVE,
    CHOOSING,
    DECK,
    SHOWING,
    Action,
    Card,
    HandState,
    LegalAction,
    cards_str,
    strength3,
    value_of_strength,
)

T = TypeVar("T")


class Rng(Protocol):
    """A source of randomness: ``random.Random`` is one."""

    def random(self) -> float: ...

    def randint(self, a: int, b: int) -> int: ...

    def choice(self, seq: Sequence[T]) -> T: ...


def allowed(state: HandState) -> list[LegalAction]:
    """What the engine allows now."""
    return [la for la in state.legal_actions() if la.allowed]


# ----------------------------------------------------------------------- any allowed action


ENDING = frozenset({"fold", "see", "showdown", "show", "concede", "keep", "discard", "cover"})
"""The kinds that move a hand towards its end."""


def concrete(choice: LegalAction, state: HandState, rng: Rng, cards: Mapping[int, str]) -> Action:
    """A concrete action for an allowed ``LegalAction``: a bet's amount, a look's or discard's
    hand drawn from ``rng``, a show's cards from ``cards`` (by seat)."""
    kind, seat = choice.action, choice.seat
    if kind == "bet":
        assert choice.min_amount is not None and choice.max_amount is not None
        return Action("bet", seat, rng.randint(choice.min_amount, choice.max_amount))
    if kind in ("see", "cover"):
        return Action(kind, seat, choice.cost)
    if kind == "look":
        hand = rng.choice(choice.hands) if choice.hands else None
        return Action("look", seat, hand=hand)
    if kind == "discard":
        options: list[str | None] = list(choice.hands)
        if state.phase == "betting":
            options.append(None)  # defaults to the hand looked at
        return Action("discard", seat, hand=rng.choice(options))
    if kind == "show":
        assert seat is not None
        return Action("show", seat, cards=cards[seat])
    return Action(kind, seat)


@dataclass(frozen=True)
class Sampler:
    """Any allowed action, each kind ``weights`` times as likely (1 if not named); from
    ``patience`` actions on, only the ``ENDING`` kinds (when there are any)."""

    weights: Mapping[str, int]
    patience: int

    def pick(self, state: HandState, rng: Rng, steps: int) -> LegalAction:
        choices = allowed(state)
        assert choices, f"nothing is allowed in phase {state.phase}"
        if steps >= self.patience:
            pool = [a for a in choices if a.action in ENDING] or choices
        else:
            pool = [a for a in choices for _ in range(self.weights.get(a.action, 1))] or choices
        return rng.choice(pool)


# ----------------------------------------------------------------------- the opener bets


def opener_bets(state: HandState, seq: int, min_bet: int) -> Action:
    """The ``seq``-th action (from 1) of a hand where the first to act looks and bets
    ``min_bet`` and everyone after folds: the pot goes to the opener."""
    turn = next(a.seat for a in state.legal_actions() if a.action == "fold")
    if seq == 1:
        return Action("look", turn)
    if seq == 2:
        return Action("bet", turn, min_bet)
    return Action("fold", turn)


# ----------------------------------------------------------------------- the demo's players


def quality(cards: tuple[Card, ...]) -> int:
    """0 weak high card, 1 high card with a queen or better, 2 pair or better."""
    value = value_of_strength(strength3(*cards))
    if value.category != "high_card":
        return 2
    return 1 if value.ranks[0] >= 10 else 0


@dataclass(frozen=True)
class Casual:
    """A plausible player at fixed chances: a blind player looks (``look``), or now and then
    looks at another's hand for them (``look_other``: never, in the rules, but offered); an
    open one sees more readily with a fair hand (``see`` against ``see_weak``) and folds by
    quality (``fold``: blind, weak, fair, strong), more as the stake grows against the stack;
    bets are mostly the minimum (``min_bet``). Always an action the engine lists as allowed."""

    concede: float = 0.8  # a seer or coverer who cannot win gives up without showing
    keep: float = 0.7  # a two-hand player keeps the hand looked at
    look: float = 0.45
    look_other: float = 0.08
    showdown: float = 0.003
    see: float = 0.5
    see_weak: float = 0.3
    fold: tuple[float, float, float, float] = (0.12, 0.5, 0.25, 0.04)
    min_bet: float = 0.6

    def choose(
        self,
        state: HandState,
        cards: Mapping[int, tuple[Card, ...]],
        rng: Rng,
        *,
        force: bool = False,
    ) -> Action:
        """The next action; ``force``: end the hand (keep, fold)."""
        if state.phase == SHOWING:
            return self._show(state, cards, rng)
        legal = allowed(state)
        if state.phase == CHOOSING:
            la = legal[0]
            return Action("discard", la.seat, hand=rng.choice(la.hands))
        if state.pending is not None:
            # A two-hand player looked at one hand: mostly keep it, sometimes throw it in.
            keep = next(la for la in legal if la.action == "keep")
            if force or rng.random() < self.keep:
                return Action("keep", keep.seat)
            return Action("discard", keep.seat, hand=state.pending.looked)
        seat = state.to_act
        assert seat is not None
        if force:
            return Action("fold", seat)
        return self._turn(state, seat, legal, cards, rng)

    def _show(self, state: HandState, cards: Mapping[int, tuple[Card, ...]], rng: Rng) -> Action:
        shower = state.cards_needed[0]
        text = cards_str(cards[shower])
        # RULES §3.6, §3.8: tried on a copy, which the engine offers for this.
        if state.can(Action("concede", shower)) and rng.random() < self.concede:
            trial = state.copy().apply(Action("show", shower, cards=text))
            outcome = trial.outcome
            if outcome is not None and all(shower not in r.winners for r in outcome.pots):
                return Action("concede", shower)
        return Action("show", shower, cards=text)

    def _look(
        self,
        state: HandState,
        seat: int,
        mine: dict[str, LegalAction],
        legal: list[LegalAction],
        rng: Rng,
    ) -> Action | None:
        look = mine.get("look")
        if look is not None and rng.random() < self.look:
            return _look(look, rng)
        if not state.stake and rng.random() < self.look_other:
            others = [la for la in legal if la.action == "look" and la.seat != seat]
            if others:
                return _look(rng.choice(others), rng)
        return None

    def _turn(
        self,
        state: HandState,
        seat: int,
        legal: list[LegalAction],
        cards: Mapping[int, tuple[Card, ...]],
        rng: Rng,
    ) -> Action:
        mine = {la.action: la for la in legal if la.seat in (seat, None)}
        me = state.by_seat[seat]
        if "cover" in mine:  # short of the least stay: cover when the rules offer it
            return Action("cover", seat, mine["cover"].cost)
        looked = self._look(state, seat, mine, legal, rng)
        if looked is not None:
            return looked
        if "showdown" in mine and rng.random() < self.showdown:
            return Action("showdown")
        q = -1 if me.blind else quality(cards[seat])
        if "see" in mine and rng.random() < (self.see if q != 0 else self.see_weak):
            return Action("see", seat, mine["see"].cost)
        bet = mine.get("bet")
        if rng.random() < self._fold_chance(q, bet, me.stack):
            return Action("fold", seat)
        if bet is not None:
            return Action("bet", seat, self._amount(bet, rng, strong=q == 2))
        if "see" in mine:
            return Action("see", seat, mine["see"].cost)
        return Action("fold", seat)

    def _fold_chance(self, q: int, bet: LegalAction | None, stack: int) -> float:
        fold = self.fold[q + 1]
        if bet is not None and stack:
            # The stakes are getting high for this stack: more likely to give up.
            fold += min(0.8, 3 * (bet.min_amount or 0) / stack) * (0.3 if q == 2 else 0.8)
        return fold

    def _amount(self, la: LegalAction, rng: Rng, *, strong: bool) -> int:
        """A bet payment in [min, max]: mostly the minimum, otherwise biased to the low end (a
        strong open hand raises more freely)."""
        lo = la.min_amount or 0
        hi = la.max_amount if la.max_amount is not None else lo
        if not strong and rng.random() < self.min_bet:
            return lo
        return lo + int((hi - lo + 1) * rng.random() ** (1 if strong else 2.5))


def _look(la: LegalAction, rng: Rng) -> Action:
    return Action("look", la.seat, hand=rng.choice(la.hands) if la.hands else None)


# ----------------------------------------------------------------------- players with a style


def _percentiles() -> list[float]:
    """For each strength 0..740: the share of the 22,100 hands that it beats (ties count half)."""
    counts = [0] * 741
    for a, b, c in combinations(DECK, 3):
        counts[strength3(a, b, c)] += 1
    total = sum(counts)
    out, below = [], 0
    for n in counts:
        out.append((below + n / 2) / total)
        below += n
    return out


PERCENTILE = _percentiles()


def percentile(cards: Sequence[int]) -> float:
    """The share of three-card hands that ``cards`` beat."""
    return PERCENTILE[strength3(cards[0], cards[1], cards[2])]


@dataclass(frozen=True)
class Style:
    look: float  # chance, at each of their turns, that a blind player looks
    tight: float  # how good a hand an open player wants to stay in (a percentile)
    aggression: float  # chance of raising with a good hand
    blind_see: float  # chance a blind player sees when two are left


class Options:
    """What the player to act may do, from RULES §3 (cheaper than asking the engine for every
    legal action at every turn). The engine still checks every action: if one of these is
    refused, the player falls back to what ``legal_actions()`` lists (``fallback``)."""

    def __init__(self, state: HandState, p: Any) -> None:
        self.state, self.p, self.seat = state, p, p.seat
        self.stake = state.stake
        self.active = [q for q in state.players if q.status == ACTIVE]
        self.two = len(self.active) == 2
        self.lo, self.hi = self._limits(state, p)
        self.see_cost = self._see_cost(state, p)

    def _limits(self, state: HandState, p: Any) -> tuple[int, int]:
        rules, stake = state.rules, self.stake
        lo, hi = (stake, stake + rules.max_raise) if stake else (rules.min_bet, rules.max_bet)
        if p.blind:
            lo, hi = (lo + 1) // 2, hi // 2
        return lo, min(hi, p.stack)

    def _see_cost(self, state: HandState, p: Any) -> int | None:
        stake = self.stake
        other = next((q for q in self.active if q is not p), None)
        if not (self.two and stake and other is not None and (p.blind or not other.blind)):
            return None
        cost = stake if p.blind else 2 * stake
        if state.rules.see_cost != "double":
            cost = (stake + 1) // 2 if p.blind else stake
        return cost if cost <= p.stack else None

    def bet(self, amount: int | None = None) -> Action:
        if self.lo > self.hi:
            return Action("cover", self.seat, self.p.stack)
        amount = self.lo if amount is None else max(self.lo, min(self.hi, amount))
        return Action("bet", self.seat, amount)

    def top(self) -> Action:
        return self.bet(self.hi)

    def some(self, rng: Rng) -> Action:
        return self.bet(rng.randint(self.lo, max(self.lo, self.hi)))

    def see(self) -> Action | None:
        return None if self.see_cost is None else Action("see", self.seat, self.see_cost)

    def fold(self) -> Action:
        return Action("fold", self.seat)

    def look(self, hand: str | None = None) -> Action:
        return Action("look", self.seat, hand=hand)


def styled_action(
    state: HandState,
    p: Any,
    style: Style,
    rng: Rng,
    cards: tuple[int, ...],
    steps: int,
    setter: int | None,
    plot: Mapping[str, Any],
) -> Action:
    """An action for the player to act, in their style (and their plot, if any: ``folds_to``,
    ``dumps_to``, ``receives_from`` name seats)."""
    o = Options(state, p)
    plotted = _plotted(o, state, p, setter, plot)
    if plotted is not None:
        return plotted
    ending = _ending(o, p, rng, steps)
    if ending is not None:
        return ending
    if p.blind:
        return _blind(o, state, p, style, rng, steps)
    return _open(o, state, style, rng, cards, steps)


def _plotted(
    o: Options, state: HandState, p: Any, setter: int | None, plot: Mapping[str, Any]
) -> Action | None:
    stake = o.stake
    partner = plot.get("folds_to")
    if partner is not None and stake and setter == partner:
        return o.fold()
    # A dumper and the partner who receives play as usual, until only the two of them are
    # left: then the dumper raises to the limit a few times and folds to the partner's bet;
    # the partner always calls the dumper.
    heads_up_with = o.two and any(
        q.seat in (plot.get("dumps_to"), plot.get("receives_from")) for q in o.active
    )
    if plot.get("dumps_to") is not None and heads_up_with:
        if p.blind and p.hands == 1:
            return o.look()
        if stake >= 3 * state.rules.max_bet:
            return o.fold()
        return o.top()
    if plot.get("receives_from") is not None and heads_up_with and stake:
        return o.bet()
    return None


def _ending(o: Options, p: Any, rng: Rng, steps: int) -> Action | None:
    if steps > 24:  # a long hand: end it
        see = o.see()
        if see is not None:
            return see
        if len(o.active) >= 3:
            return Action("showdown")
        if not p.blind and rng.random() < 0.3:
            return o.fold()
    if len(o.active) >= 3 and steps > 14 and rng.random() < 0.3:
        return Action("showdown")
    return None


def _blind(o: Options, state: HandState, p: Any, style: Style, rng: Rng, steps: int) -> Action:
    looks = style.look + o.stake / (4 * state.rules.max_bet)
    if rng.random() < looks:
        return o.look(rng.choice(("old", "new")) if p.hands == 2 else None)
    see = o.see()
    if see is not None and rng.random() < style.blind_see + steps / 20:
        return see
    if rng.random() < 0.03:
        return o.fold()
    if rng.random() < style.aggression * 0.3:
        return o.some(rng)
    return o.bet()


def _open(
    o: Options, state: HandState, style: Style, rng: Rng, cards: tuple[int, ...], steps: int
) -> Action:
    u = percentile(cards)
    stake = o.stake
    if not stake:
        if u < style.tight * 0.6:
            return o.fold()
        if u > 0.8 and rng.random() < style.aggression:
            return o.some(rng)
        return o.bet()
    pressure = stake / (stake + 2 * state.rules.max_bet)
    if u < style.tight + (1 - style.tight) * pressure:
        return o.fold()
    see = o.see()
    if see is not None and rng.random() < 0.5 + steps / 20:
        return see
    if u > 0.85 and rng.random() < style.aggression:
        return o.some(rng)
    return o.bet()


def fallback(state: HandState, seat: int) -> Action:
    """When a chosen action is refused: stay in if the engine allows it (the least bet, a see,
    a cover), else fold."""
    legal = {a.action: a for a in state.legal_actions() if a.allowed and a.seat == seat}
    for kind in ("bet", "see", "cover"):
        la = legal.get(kind)
        if la is not None:
            return Action(kind, seat, la.min_amount if kind == "bet" else la.cost)
    return Action("fold", seat)


def keeps(looked: Sequence[int]) -> bool:
    """A styled two-hand player keeps the hand looked at if it beats half of all hands."""
    return percentile(looked) > 0.5
