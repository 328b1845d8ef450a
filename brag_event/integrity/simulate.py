"""A simulated event, played hand by hand through the rules engine, to prove and calibrate the
integrity monitor (``docs/integrity.md``).

Players have styles of their own (how soon they look, how tight, how aggressive, how often they
see blind), tables are drawn afresh each day, dealers rotate, and every hand is chosen among the
engine's legal actions and replayed into the same facts the database gives (``facts.hand_facts``).
The pack is handled as RULES §3.12 says: shuffled before a table's first deal and after a hand
won by a prial at a see; otherwise the cards of the hand go to the bottom unshuffled.

Anomalies can be planted: a colluding pair (one always folds to the other's bets), a dumper (bets
big and folds to a partner, who never folds to the dumper), a table whose pack was never shuffled
(a new pack, in the maker's order, cards back to the bottom after every hand), and a dealer who
makes more mistakes than the others.

``python -m brag_event.integrity.simulate --runs 20`` measures the false-alarm rate of honest
events and the power against each planted anomaly."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from brag_event.bots import Style, fallback, keeps, styled_action
from brag_event.engine import (
    BETTING,
    CHOOSING,
    FLASH_DAY_1,
    SETTLED,
    SHOWING,
    Action,
    HandState,
    IllegalAction,
    Rules,
    SeatSetup,
    cards_str,
)

from .facts import HandFacts, Recorder
from .stats import ALPHA, DealerEvent, DealerPace, Finding, Report, cards_check, monitor

BOX_ORDER: tuple[int, ...] = tuple(
    rank * 4 + suit for suit in (3, 2, 0, 1) for rank in range(12, -1, -1)
)
"""A new pack as it comes out of the box: spades, hearts, clubs, diamonds, each A down to 2."""


def random_style(rng: random.Random) -> Style:
    return Style(
        look=rng.uniform(0.3, 0.95),
        tight=rng.uniform(0.3, 0.7),
        aggression=rng.uniform(0.1, 0.6),
        blind_see=rng.uniform(0.1, 0.5),
    )


@dataclass(frozen=True)
class Plan:
    """What to simulate. ``days × tables × hands_per_table`` hands in all."""

    seed: int = 1
    players: int = 36
    dealers: int = 8
    days: int = 8
    tables: int = 6
    hands_per_table: int = 417
    rules: Rules = FLASH_DAY_1
    collusion: tuple[int, int] | None = None  # (folder, partner): the folder folds to the partner
    dumper: tuple[int, int] | None = None  # (dumper, receiver)
    unshuffled: tuple[int, int] | None = None  # (day, table) whose pack is never shuffled
    sloppy_dealer: int | None = None  # a dealer with ``sloppiness`` times the error rates
    sloppiness: float = 3.0
    slow_dealer: int | None = None  # a dealer ``slowness`` times as long over each entry
    slowness: float = 1.5
    seconds_per_action: float = 8.0  # the mean time between two entries of a hand
    seconds_between_hands: float = 40.0  # gathering, shuffling and dealing
    error_rates: tuple[tuple[str, float], ...] = (
        ("voids", 0.008),
        ("refusals", 0.03),
        ("misdeals", 0.003),
    )


@dataclass
class Event:
    plan: Plan
    hands: list[HandFacts] = field(default_factory=list)
    dealer_hands: dict[Any, int] = field(default_factory=dict)
    dealer_events: list[DealerEvent] = field(default_factory=list)
    styles: dict[int, Style] = field(default_factory=dict)


class _Table:
    """One table of one day: the pack, the button and a pot carried with its blind hand."""

    def __init__(self, rng: random.Random, *, unshuffled: bool) -> None:
        self.rng = rng
        self.unshuffled = unshuffled
        self.pack: list[int] = list(BOX_ORDER)
        self.shuffle = True  # before the table's first deal (the only one an unshuffled pack gets)
        self.dealer = 1
        self.carried_pot = 0
        self.carried_seat: int | None = None
        self.retained: tuple[int, ...] = ()  # the cards of the blind hand kept with the pot
        self.started = False


def _cards(held: dict[int, dict[str, tuple[int, ...]]], p: Any) -> tuple[int, ...]:
    hands = held[p.seat]
    return hands["old"] if (p.hands == 1 and p.held == "old") else hands["new"]


def _deal(
    table: _Table, state: HandState
) -> tuple[dict[int, dict[str, tuple[int, ...]]], list[int]]:
    """Each dealt-in seat's hand (and the blind hand kept with a carried pot), and the rest of
    the pack."""
    if table.shuffle and not (table.unshuffled and table.started):
        table.rng.shuffle(table.pack)
    table.started = True
    n = len(state.players)
    held: dict[int, dict[str, tuple[int, ...]]] = {}
    if table.unshuffled:
        # Run from the bottom, three at a time: the hands just thrown in come straight back.
        cut = len(table.pack) - 3 * n
        deal, stub = table.pack[cut:][::-1], table.pack[:cut]
    else:
        deal, stub = table.pack[: 3 * n], table.pack[3 * n :]
    for k, p in enumerate(state.players):
        if table.unshuffled:
            held[p.seat] = {"new": tuple(deal[3 * k : 3 * k + 3])}
        else:  # one at a time, from the top, as RULES deal
            held[p.seat] = {"new": (deal[k], deal[k + n], deal[k + 2 * n])}
        if p.seat == table.carried_seat and table.retained:
            held[p.seat]["old"] = table.retained
    return held, stub


def _not_betting(
    state: HandState, held: dict[int, dict[str, tuple[int, ...]]], rng: random.Random
) -> Action | None:
    """The action of a showing, choosing or keeping player (None while betting)."""
    if state.phase == SHOWING:
        seat = state.cards_needed[0]
        return Action("show", seat, cards=cards_str(_cards(held, state.by_seat[seat])))
    if state.phase == CHOOSING:
        return Action("discard", state.must_choose[0], hand=rng.choice(("old", "new")))
    if state.pending is not None:
        p = state.pending
        looked = held[p.seat][p.looked or "new"]
        return Action("keep", p.seat) if keeps(looked) else Action("discard", p.seat, hand=p.looked)
    return None


def _gather(
    table: _Table,
    state: HandState,
    held: dict[int, dict[str, tuple[int, ...]]],
    stub: list[int],
    folded_order: list[int],
) -> None:
    """The cards go back to the bottom: folded hands as they were thrown in, then the others;
    the table's carried pot, button and shuffle move on."""
    outcome = state.outcome
    assert outcome is not None
    keep: tuple[int, ...] = ()
    if outcome.carried_seat is not None:
        keep = _cards(held, state.by_seat[outcome.carried_seat])
    order = folded_order + [p.seat for p in state.players if p.seat not in folded_order]
    gathered = [
        c for seat in order for cards in held[seat].values() if cards != keep for c in cards
    ]
    table.pack = stub + gathered
    table.retained = keep
    table.carried_pot = outcome.carried_pot
    table.carried_seat = outcome.carried_seat
    table.dealer = outcome.next_dealer
    table.shuffle = outcome.shuffle
    assert len(table.pack) + len(keep) == 52, (len(table.pack), len(keep))


def _play(
    table: _Table,
    seats: list[tuple[int, int]],
    plan: Plan,
    styles: dict[int, Style],
    rng: random.Random,
    plots: dict[int, dict[str, Any]],
    hand_id: int,
    keys: dict[str, Any],
) -> HandFacts | None:
    """Deal and play one hand; the table's pack, button and carried pot move on."""
    rules = plan.rules
    stack = rules.table_max or 240  # everyone tops up to the table's most between hands
    setups = [SeatSetup(s, f"P{pid}", stack) for s, pid in seats]
    seat_player = dict(seats)
    seat_of = {pid: seat for seat, pid in seats}
    state = HandState(
        rules,
        table.dealer,
        setups,
        carried_pot=table.carried_pot,
        carried_seat=table.carried_seat,
        first_deal=table.shuffle,
    )
    recorder = Recorder(state, hand=hand_id, players=seat_player, **keys)
    held, stub = _deal(table, state)
    folded_order: list[int] = []
    steps = 0
    while state.phase != SETTLED:
        steps += 1
        if steps > 400:
            return None
        step = _not_betting(state, held, rng)
        if step is not None:
            recorder.apply(step)
            continue
        assert state.phase == BETTING
        p = state.players[state.turn]
        pid = seat_player[p.seat]
        plot = {role: seat_of.get(other) for role, other in plots.get(pid, {}).items()}
        action = styled_action(
            state, p, styles[pid], rng, _cards(held, p), steps, recorder.setter, plot
        )
        try:
            recorder.apply(action)
        except IllegalAction:
            action = fallback(state, p.seat)
            recorder.apply(action)
        if action.action == "fold":
            folded_order.append(p.seat)
    _gather(table, state, held, stub, folded_order)
    return recorder.finish()


def simulate(plan: Plan) -> Event:
    """Play the whole event of ``plan``; deterministic for a given seed."""
    rng = random.Random(plan.seed)  # nosec B311 - a reproducible simulation, not a secret
    event = Event(plan=plan)
    players = list(range(plan.players))
    event.styles = {pid: random_style(rng) for pid in players}
    plots: dict[int, dict[str, Any]] = {}
    together: list[tuple[int, int]] = []
    if plan.collusion:
        folder, partner = plan.collusion
        plots.setdefault(folder, {})["folds_to"] = partner
        together.append(plan.collusion)
    if plan.dumper:
        dumper, receiver = plan.dumper
        plots.setdefault(dumper, {})["dumps_to"] = receiver
        plots.setdefault(receiver, {})["receives_from"] = dumper
        together.append(plan.dumper)
    hand_id = 0
    for day in range(plan.days):
        # The draw; colluders get themselves seated together (that is the point of planting them).
        fixed = [pid for pair in together for pid in pair]
        rest = [pid for pid in players if pid not in fixed]
        rng.shuffle(rest)
        tables: list[list[int]] = [list(pair) for pair in together]
        tables += [[] for _ in range(plan.tables - len(tables))]
        for pid in rest:
            min(tables, key=len).append(pid)
        for t, seated in enumerate(tables):
            dealer = (day + t) % plan.dealers
            table_key = (day, t)
            pack_rng = random.Random(rng.getrandbits(64))  # nosec B311
            table = _Table(pack_rng, unshuffled=plan.unshuffled == (day, t))
            seats = [(i + 1, pid) for i, pid in enumerate(seated)]
            keys = {"table": table_key, "dealer": dealer, "day": day}
            for _ in range(plan.hands_per_table):
                facts = _play(table, seats, plan, event.styles, rng, plots, hand_id + 1, keys)
                if facts is None:
                    continue
                hand_id += 1
                event.hands.append(facts)
                event.dealer_hands[dealer] = event.dealer_hands.get(dealer, 0) + 1
    event.dealer_events = dealer_mistakes(plan, event.hands)
    return event


def dealer_mistakes(plan: Plan, hands: list[HandFacts]) -> list[DealerEvent]:
    """Each hand's mistakes, drawn apart from the play (so an event with a sloppy dealer plays
    exactly the hands of the honest one, and the two can share them)."""
    mistakes = random.Random(plan.seed * 7919 + 1)  # nosec B311
    out = []
    for facts in hands:
        scale = plan.sloppiness if facts.dealer == plan.sloppy_dealer else 1.0
        for kind, rate in plan.error_rates:
            if mistakes.random() < rate * scale:
                out.append(DealerEvent(facts.dealer, kind, facts.hand))
    return out


def dealer_paces(plan: Plan, hands: list[HandFacts]) -> dict[Any, DealerPace]:
    """Each dealer's clock, drawn apart from the play like the mistakes: 6 to 14 entries a hand,
    the time between two an exponential of mean ``seconds_per_action`` (``slowness`` times it
    for the slow dealer), and ``seconds_between_hands`` between hands; the hours signed in
    are the sum."""
    clock = random.Random(plan.seed * 104729 + 3)  # nosec B311
    gaps: dict[Any, list[float]] = {}
    seconds: dict[Any, float] = {}
    for facts in hands:
        mean = plan.seconds_per_action * (
            plan.slowness if facts.dealer == plan.slow_dealer else 1.0
        )
        entries = clock.randint(6, 14)
        own = [clock.expovariate(1 / mean) for _ in range(entries - 1)]
        gaps.setdefault(facts.dealer, []).extend(own)
        seconds[facts.dealer] = (
            seconds.get(facts.dealer, 0.0) + sum(own) + plan.seconds_between_hands
        )
    return {d: DealerPace(hours=seconds[d] / 3600, gaps=tuple(gaps[d])) for d in gaps}


def run(plan: Plan, **options: Any) -> Report:
    event = simulate(plan)
    return monitor(event.hands, event.dealer_hands, event.dealer_events, **options)


def naive_cards(event: Event, alpha: float = ALPHA) -> list[Finding]:
    """The cards check as it would be on *every* hand shown (not only blind ones), with
    Pearson's test as it is: what the selection of showdowns does to an honest event
    (``docs/integrity.md``; the dispersion correction would absorb a bias every table shares,
    so it is left out here)."""
    everything = [replace(f, shown=[replace(s, blind=True) for s in f.shown]) for f in event.hands]
    return cards_check(everything, alpha, allow_dispersion=False)


# ---------------------------------------------------------------------------- calibration

SCENARIOS: dict[str, dict[str, Any]] = {
    "honest": {},
    "collusion": {"collusion": (0, 1)},
    "dumper": {"dumper": (2, 3)},
    "unshuffled": {"unshuffled": (2, 1)},
    "sloppy dealer": {"sloppy_dealer": 0},
}


def expected_subjects(name: str) -> set[tuple[Any, ...]]:
    """The subjects a scenario's planted anomaly should be flagged under."""
    plan = SCENARIOS[name]
    if "collusion" in plan:
        return {("pair", *plan["collusion"])}
    if "dumper" in plan:
        return {("pair", *plan["dumper"])}
    if "unshuffled" in plan:
        return {("table", plan["unshuffled"])}
    if "sloppy_dealer" in plan:
        return {("dealer", plan["sloppy_dealer"])}
    return set()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="events per scenario")
    parser.add_argument("--hands", type=int, default=417, help="hands per table and day")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--scenario", action="append", help="only these scenarios")
    parser.add_argument("--json", help="write every run's findings here")
    args = parser.parse_args(argv)
    names = args.scenario or list(SCENARIOS)
    out: dict[str, Any] = {}
    for name in names:
        flagged_runs = 0
        caught = 0
        others = 0
        pvalues: dict[str, list[float]] = {}
        began = time.monotonic()
        naive = 0
        for r in range(args.runs):
            plan = replace(Plan(seed=args.seed + r, hands_per_table=args.hands), **SCENARIOS[name])
            event = simulate(plan)
            report = monitor(event.hands, event.dealer_hands, event.dealer_events)
            subjects = {f.subject for f in report.flags}
            expected = expected_subjects(name)
            flagged_runs += bool(subjects)
            caught += bool(expected) and expected <= subjects
            others += bool(subjects - expected)
            for f in report.findings:
                pvalues.setdefault(f.check, []).append(f.p_value)
            naive += sum(f.flagged for f in naive_cards(event) if f.subject[0] == "table")
            print(f"  {name} run {r}: flags {sorted(map(repr, subjects))}", flush=True)
        summary = {
            "runs": args.runs,
            "hands": Plan(hands_per_table=args.hands).days * Plan().tables * args.hands,
            "runs_with_a_flag": flagged_runs,
            "runs_with_the_planted_flag": caught,
            "runs_with_another_flag": others,
            "tests": {k: len(v) for k, v in pvalues.items()},
            "share_p_below_0.01": {
                k: sum(p < 0.01 for p in v) / len(v) for k, v in pvalues.items() if v
            },
            "share_p_below_0.001": {
                k: sum(p < 0.001 for p in v) / len(v) for k, v in pvalues.items() if v
            },
            "naive_cards_tables_flagged_per_run": naive / args.runs,
            "seconds": round(time.monotonic() - began, 1),
        }
        out[name] = summary
        print(name, json.dumps(summary), flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
