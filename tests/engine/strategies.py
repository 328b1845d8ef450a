"""Hypothesis strategies and a random-play driver for property tests of the rules engine.

* :func:`rules_strategy` — valid :class:`Rules` with random limits and options.
* :func:`tables` — a table before the deal (rules, dealer, seats, carried pot) that deals at
  least two players in, with a shuffled deck to give every dealt-in player three distinct cards.
* :func:`play_random` — plays one hand to the end, choosing among the actions that
  ``legal_actions()`` lists as allowed, with a bias towards ending so every hand is short.
* :func:`junk_actions` — random, mostly illegal actions (wrong kinds, seats, amounts, hands).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from hypothesis import assume
from hypothesis import strategies as st

from brag_event import bots
from brag_event.engine import (
    ACTIONS,
    FLOOR_ACTIONS,
    SETTLED,
    Action,
    EngineError,
    HandState,
    LegalAction,
    Rules,
    SeatSetup,
    card_str,
)
from brag_event.engine.history import start_of

T = TypeVar("T")

MAX_STEPS = 400
"""Every random hand must settle within this many actions."""

ENDING = bots.ENDING
"""Actions that move a hand towards its end (no new money at stake, no new look)."""

WEIGHTS = {"bet": 10, "cover": 4, "look": 3, "see": 2}
"""How many times an allowed action of a kind is entered in the draw (default 1)."""

# Every kind a dealer may enter, then a few that are not kinds at all.
JUNK_KINDS = (*(kind for kind in ACTIONS if kind not in FLOOR_ACTIONS), "nonsense", "", "BET")


# ---------------------------------------------------------------------------- tables


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    min_bet = draw(st.integers(1, 10))
    return Rules(
        ante=draw(st.integers(0, 10)),
        min_bet=min_bet,
        max_bet=draw(st.integers(min_bet, min_bet * 4)),
        max_raise=draw(st.integers(0, 40)),
        blind_allowed=draw(st.booleans()),
        see_cost=draw(st.sampled_from(("double", "equal"))),
        pot_limit=draw(st.booleans()),
        rake_percent=draw(st.integers(0, 10)),
        rake_cap=draw(st.none() | st.integers(0, 20)),
        cover_allowed=draw(st.booleans()),
    )


@st.composite
def decks(draw: st.DrawFn) -> tuple[int, ...]:
    """A shuffled pack; sometimes the first four three-card hands are equal (same ranks, other
    suits) so that ties and split pots come up."""
    deck = list(draw(st.permutations(range(52))))
    if draw(st.booleans()):
        ranks = draw(st.lists(st.integers(0, 12), min_size=3, max_size=3, unique=True))
        tied = [rank * 4 + (j + k) % 4 for j in range(4) for k, rank in enumerate(ranks)]
        deck = tied + [c for c in deck if c not in tied]
    return tuple(deck)


@dataclass(frozen=True)
class Table:
    """A table before the deal, and the pack the hands are dealt from."""

    rules: Rules
    dealer: int
    seats: tuple[SeatSetup, ...]
    carried_pot: int
    carried_seat: int | None
    deck: tuple[int, ...]

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    def __repr__(self) -> str:
        defaults = Rules(0, 1, 1, 0)
        options = ", ".join(
            f"{name}={value!r}"
            for name, value in self.rules.to_dict().items()
            if name in ("ante", "min_bet", "max_bet", "max_raise")
            or value != getattr(defaults, name)
        )
        seats = ", ".join(
            f"SeatSetup({s.seat}, {s.player!r}, {s.stack}"
            + (", sitting_out=True)" if s.sitting_out else ")")
            for s in self.seats
        )
        dealt = card_text(self.deck[:18])
        return (
            f"Table(rules=Rules({options}), dealer={self.dealer}, seats=({seats}), "
            f"carried_pot={self.carried_pot}, carried_seat={self.carried_seat}, "
            f"deck starts {dealt!r})"
        )

    def start(self) -> HandState:
        return start_of(self)

    @property
    def money(self) -> int:
        """All the money in play: every seat's stack and the carried pot."""
        return sum(s.stack for s in self.seats) + self.carried_pot

    def hands(self, state: HandState) -> dict[int, tuple[int, ...]]:
        """Three distinct cards for each dealt-in player, dealt in turn from the pack."""
        return {p.seat: self.deck[3 * i : 3 * i + 3] for i, p in enumerate(state.players)}


@st.composite
def tables(draw: st.DrawFn) -> Table:
    rules = draw(rules_strategy())
    count = draw(st.integers(2, 6))
    numbers = sorted(draw(st.permutations(range(1, 7)))[:count])
    seats = tuple(
        SeatSetup(
            n,
            f"P{n}",
            draw(st.integers(0, 300) | st.integers(0, 40)),
            draw(st.sampled_from((False, False, False, True))),
        )
        for n in numbers
    )
    dealer = draw(st.integers(1, 6))
    carried_pot, carried_seat = 0, None
    if rules.blind_allowed and draw(st.booleans()):
        carried_pot = draw(st.integers(0, 100))
        carried_seat = draw(st.sampled_from(numbers))
    table = Table(rules, dealer, seats, carried_pot, carried_seat, draw(decks()))
    try:
        table.start()
    except EngineError as err:
        if err.code != "not_enough_players":
            raise
        assume(False)
    return table


# ---------------------------------------------------------------------------- card text

_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_text(cards: Sequence[int], style: int = 0) -> str:
    """Card text in one of the accepted spellings: canonical, ``10``, upper case, symbols."""
    out = []
    for c in cards:
        text = card_str(c)
        rank, suit = text[0], text[1]
        if style == 1 and rank == "T":
            rank = "10"
        elif style == 2:
            rank, suit = rank.lower(), suit.upper()
        elif style == 3:
            suit = _SYMBOLS[suit]
        out.append(rank + suit)
    return " ".join(out)


# ---------------------------------------------------------------------------- the driver


class Draws:
    """Hypothesis's draws as the bots' source of randomness (``brag_event.bots.Rng``): each
    choice is a draw, so a failing hand shrinks."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def random(self) -> float:
        return self.data.draw(st.floats(0, 1, exclude_max=True))

    def randint(self, a: int, b: int) -> int:
        return self.data.draw(st.integers(a, b))

    def choice(self, seq: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(seq))


def concrete(
    choice: LegalAction, state: HandState, data: st.DataObject, cards: dict[int, str]
) -> Action:
    """A concrete action for an allowed :class:`LegalAction` (``brag_event.bots.concrete``)."""
    return bots.concrete(choice, state, Draws(data), cards)


def play_random(
    state: HandState,
    data: st.DataObject,
    table: Table,
    *,
    before_each: Callable[[HandState], None] | None = None,
    after_each: Callable[[HandState], None] | None = None,
) -> int:
    """Play ``state`` to the end with random allowed actions (``brag_event.bots.Sampler``);
    returns the number of actions.

    ``before_each`` runs before every chosen action (it may itself move the hand on);
    ``after_each`` after every action. After ``patience`` actions only actions that move the hand
    towards its end are chosen, so the hand settles within :data:`MAX_STEPS`.
    """
    style = data.draw(st.integers(0, 3), label="card style")
    cards = {seat: card_text(c, style) for seat, c in table.hands(state).items()}
    patience = data.draw(st.sampled_from((60, 30, 10)), label="patience")
    weights = dict(WEIGHTS)
    if data.draw(st.booleans(), label="nobody folds early"):
        weights.update(fold=0, showdown=0)
    sampler, rng = bots.Sampler(weights, patience), Draws(data)
    steps = 0
    while True:
        assert steps <= MAX_STEPS, f"the hand did not settle within {MAX_STEPS} actions"
        if state.phase == SETTLED:
            return steps
        if before_each is not None:
            before_each(state)
            if state.phase == SETTLED:
                return steps
        choice = sampler.pick(state, rng, steps)
        state.apply(bots.concrete(choice, state, rng, cards))
        steps += 1
        if after_each is not None:
            after_each(state)


# ---------------------------------------------------------------------------- junk


def junk_actions(state: HandState, cards: dict[int, str]) -> st.SearchStrategy[Action]:
    """Random actions, most of them illegal: random kinds, seats, amounts and hands; near
    misses around what ``legal_actions()`` lists (off-by-one amounts, other seats …); and allowed
    actions with one field changed."""
    seats = [s.seat for s in state.seats]
    seat: st.SearchStrategy[Any] = st.one_of(
        st.sampled_from(seats),
        st.integers(-2, 12),
        st.none(),
        st.sampled_from(("1", "", "seat 2")),
        st.booleans(),
    )
    amount: st.SearchStrategy[Any] = st.one_of(
        st.none(),
        st.integers(-10, 0),
        st.integers(1, 400),
        st.just(10**12),
        st.sampled_from(("5", "", "ten")),
        st.booleans(),
        st.integers(0, 60).map(float),
    )
    hand: st.SearchStrategy[Any] = st.sampled_from((None, "old", "new", "both", "", 1))
    texts: st.SearchStrategy[Any] = st.one_of(
        st.none(),
        st.sampled_from(sorted(cards.values())) if cards else st.none(),
        st.sampled_from(("", "As", "As As Kd", "Xx Yy Zz", "2c 3c 4c 5c", "As Kd Qh")),
    )
    random = st.builds(Action, st.sampled_from(JUNK_KINDS), seat, amount, hand, texts)

    legal = state.legal_actions()
    if not legal:
        return random

    @st.composite
    def near_miss(draw: st.DrawFn) -> Action:
        base = draw(st.sampled_from(legal))
        near: list[Any] = [None, 0, -1, 1, True, False]
        for value in (base.min_amount, base.max_amount, base.cost):
            if value is not None:
                near += [value - 1, value, value + 1, float(value)]
        for p in state.players:
            near += [p.stack, p.stack + 1]
        kind = draw(st.sampled_from((base.action, *JUNK_KINDS)))
        return Action(
            kind,
            draw(st.sampled_from((base.seat, *seats, None))),
            draw(st.sampled_from(near)),
            draw(st.sampled_from((None, *base.hands, "old", "new"))),
            draw(texts),
        )

    allowed = [la for la in legal if la.allowed]

    @st.composite
    def mutant(draw: st.DrawFn) -> Action:
        """An allowed action with exactly one field changed to a nearby or odd value."""
        base = draw(st.sampled_from(allowed))
        seat = base.seat
        amount = draw(st.sampled_from((base.min_amount, base.max_amount))) or base.cost
        hand = draw(st.sampled_from(base.hands)) if base.hands else None
        text = cards.get(seat) if base.action == "show" and seat is not None else None
        fields: list[Any] = [base.action, seat, amount, hand, text]
        which = draw(st.integers(0, 4))
        if which == 0:
            options: list[Any] = list(JUNK_KINDS)
        elif which == 1:
            options = [*seats, None, 0, 7, True, str(seat)]
        elif which == 2:
            stack = state.by_seat[seat].stack if seat in state.by_seat else 0
            options = [None, 0, -1, True, False, 10**12, stack, stack + 1, "5"]
            if amount is not None:
                options += [amount - 1, amount + 1, float(amount), str(amount)]
        elif which == 3:
            options = [None, "old", "new", "both", "", "NEW", 1]
        else:
            options = [None, "", *sorted(cards.values()), "As Ks", "as ks qs", "Xx Yy Zz"]
        fields[which] = draw(st.sampled_from(options))
        return Action(*fields)

    choices = [random, near_miss()]
    if allowed:
        choices += [mutant(), mutant()]
    return st.one_of(choices)
