"""What the integrity monitor reads from one hand, as plain data.

A hand is replayed through the engine and three kinds of facts come out of it:

* :class:`Shown` — every hand of three cards shown at the showdown, with its category and
  whether its owner played it **blind** (never looked at it). Only blind hands reach a showdown
  independently of their cards, so only they are a fair sample of the pack (``docs/integrity.md``).
* :class:`FoldChance` — the first time in a hand that a player faced another's bet: whether
  they folded to it, and the situation (blind or not, the stake, two left or more).
* :class:`Exchange` — money that passed from one player to another in the hand: each loser's
  loss is shared among the winners in proportion to what they won.

The database's selectors (``integrity.selectors``) and the simulation (``integrity.simulate``)
both call :func:`hand_facts`, so the monitor sees a stored hand and a simulated one the same way.
Pure Python and the engine: no Django."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from brag_event.engine import ACTIVE, SETTLED, Action, HandState, strength3, value_of_strength

Key = Hashable
"""A player, table, dealer or day: an id in the database, anything hashable in a simulation."""

TURN_ACTIONS = frozenset({"bet", "fold", "see", "cover"})


@dataclass(frozen=True, slots=True)
class Shown:
    hand: int
    player: Key
    cards: tuple[int, ...]
    category: str
    blind: bool
    others: tuple[int, ...]
    """The other cards shown in the same hand."""


@dataclass(frozen=True, slots=True)
class FoldChance:
    hand: int
    player: Key
    bettor: Key
    folded: bool
    blind: bool
    stake: float
    """The stake faced, in units of the day's largest first bet (so days compare)."""
    heads_up: bool
    """Only the two of them were left in the betting."""
    stayed: bool
    """They had already stayed in against a bet earlier in the hand (so their hand is likelier
    to be a good one)."""


@dataclass(frozen=True, slots=True)
class Exchange:
    hand: int
    loser: Key
    winner: Key
    amount: float


@dataclass(slots=True)
class HandFacts:
    hand: int
    table: Key
    dealer: Key
    day: Key
    players: tuple[Key, ...]
    shown: list[Shown] = field(default_factory=list)
    chances: list[FoldChance] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)


class Recorder:
    """Applies a hand's actions to its state and notes the facts as they happen. The
    simulation plays through one (so it need not replay), the selectors replay through one."""

    def __init__(
        self,
        state: HandState,
        *,
        hand: int,
        players: Mapping[int, Key],
        table: Key,
        dealer: Key,
        day: Key,
    ) -> None:
        self.state = state
        self.hand = hand
        self.players = players
        self.facts = HandFacts(
            hand=hand,
            table=table,
            dealer=dealer,
            day=day,
            players=tuple(players[p.seat] for p in state.players),
        )
        self.setter: int | None = None  # the seat whose bet set the current stake
        # The first time in the hand that a player faces another's bet: what they did then, and
        # in what situation. Later turns of the same hand are not independent chances (a long
        # exchange of bets is one contest), so each hand counts once for each pair.
        self.faced: dict[tuple[int, int], FoldChance] = {}
        self.stayed: set[int] = set()  # seats that stayed in against a bet

    def apply(self, action: Action) -> None:
        state = self.state
        setter = self.setter
        if action.action in TURN_ACTIONS and state.stake and setter is not None:
            p = state.by_seat.get(action.seat)  # type: ignore[arg-type]
            if p is not None and p.status == ACTIVE and setter != p.seat:
                key = (p.seat, setter)
                if key not in self.faced:
                    active = sum(1 for q in state.players if q.status == ACTIVE)
                    self.faced[key] = FoldChance(
                        hand=self.hand,
                        player=self.players[p.seat],
                        bettor=self.players[setter],
                        folded=action.action == "fold",
                        blind=p.blind,
                        stake=state.stake / state.rules.max_bet,
                        heads_up=active == 2,
                        stayed=p.seat in self.stayed,
                    )
                if action.action != "fold":
                    self.stayed.add(p.seat)
        state.apply(action)
        if action.action == "bet":
            self.setter = action.seat

    def finish(self) -> HandFacts | None:
        """The facts of the settled hand (``None`` if it has not settled)."""
        state = self.state
        outcome = state.outcome
        if state.phase != SETTLED or outcome is None:
            return None
        facts = self.facts
        facts.chances = list(self.faced.values())
        players = self.players
        shown_cards = {seat: tuple(cards) for seat, cards in outcome.shown.items() if cards}
        for seat, cards in shown_cards.items():
            others = tuple(c for s, cs in shown_cards.items() if s != seat for c in cs)
            category = value_of_strength(strength3(cards[0], cards[1], cards[2])).category
            facts.shown.append(
                Shown(
                    hand=self.hand,
                    player=players[seat],
                    cards=cards,
                    category=category,
                    blind=state.by_seat[seat].blind,
                    others=others,
                )
            )
        facts.exchanges = _exchanges(state, self.hand, players)
        return facts


def hand_facts(
    start: HandState,
    actions: Sequence[Action],
    *,
    hand: int,
    players: Mapping[int, Key],
    table: Key,
    dealer: Key,
    day: Key,
) -> HandFacts | None:
    """Replay ``actions`` on ``start`` (a hand just dealt, before any action) and collect its
    facts. ``players`` maps seats to players. ``None`` if the actions do not settle the hand."""
    recorder = Recorder(start, hand=hand, players=players, table=table, dealer=dealer, day=day)
    for action in actions:
        recorder.apply(action)
    return recorder.finish()


def _exchanges(state: HandState, hand: int, players: Mapping[int, Key]) -> list[Exchange]:
    """Who paid whom: every loser's loss shared among the winners in proportion to their gains.
    Money that came from a carried pot, or went into one, or to the house, has no other player
    behind it; so neither a loser's flow nor a winner's exceeds what they lost or won."""
    outcome = state.outcome
    assert outcome is not None
    net = {p.seat: outcome.stacks[p.seat] - p.start for p in state.players}
    losers = {s: -n for s, n in net.items() if n < 0}
    winners = {s: n for s, n in net.items() if n > 0}
    scale = max(sum(losers.values()), sum(winners.values()), 1)
    return [
        Exchange(hand=hand, loser=players[ls], winner=players[ws], amount=lost * won / scale)
        for ls, lost in losers.items()
        for ws, won in winners.items()
    ]
