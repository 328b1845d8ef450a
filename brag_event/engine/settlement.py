"""Settling a hand (RULES §3.6–§3.12, §4b): which pots each player can win, how each pot is won,
the shares and the rake, a pot carried forward, a misdeal's refunds, and when a player may give up
at the showdown.

:func:`decisions` is the one place the pots are compared. The ``settle_…`` functions are the
changes that end a hand: each assumes its action was verified and never raises; each leaves the
state :data:`~.model.SETTLED` with its :class:`~.model.Outcome`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .cards import strength3, value_of_strength
from .errors import IllegalAction
from .model import (
    ACTIVE,
    COVERED,
    DISQUALIFIED,
    GAVE_UP,
    SETTLED,
    Misdeal,
    Outcome,
    Player,
    PotResult,
)

if TYPE_CHECKING:
    from .state import HandState

Values = dict[int, int]  # seat → a shown hand's strength, or GAVE_UP


class Decision(NamedTuple):
    """How one pot is won: the pot's index, winners, contenders, how and the reason in words."""

    pot: int
    winners: list[int]
    contenders: list[int]
    how: str
    text: str


# ---------------------------------------------------------------------------- what is known


def known_values(s: HandState) -> Values:
    """The hands of ``show_seats`` known so far: each shown hand's strength, and
    :data:`GAVE_UP` for a hand given up without showing."""
    values = dict.fromkeys(s.conceded, GAVE_UP)
    for seat in s.show_seats:
        cards = s.by_seat[seat].cards
        if cards is not None:
            values[seat] = strength3(*cards)
    return values


def newest_in_play(s: HandState) -> int:
    """The index of the newest pot someone still in the hand paid into: the newest, unless
    everyone left in the betting was disqualified (then the newest a coverer is still in)."""
    pots = s.pots
    j = len(pots) - 1
    if not any(q.status == ACTIVE for q in s.players):
        while j > 0 and not pots[j].coverers:
            j -= 1
    return j


def _name(s: HandState, seat: int) -> str:
    return s.by_seat[seat].label


def _desc(values: Values, seat: int) -> str:
    if values[seat] == GAVE_UP:
        return "gave up without showing"
    return value_of_strength(values[seat]).describe()


def _active(s: HandState) -> list[int]:
    return [q.seat for q in s.players if q.status == ACTIVE]


def _contenders(s: HandState, index: int) -> list[int]:
    """Who could win pot ``index``: everyone still betting and whoever covered it or a newer
    pot, in the order of play."""
    order = {p.seat: i for i, p in enumerate(s.players)}
    seats = _active(s) + [c for pot in s.pots[index:] for c in pot.coverers]
    return sorted(seats, key=order.__getitem__)


# ---------------------------------------------------------------------------- the newest pot
# Each returns the winners of the newest pot in play and why, or None while a hand it needs is
# not known yet.

Won = tuple[list[int], str] | None


def _by_folds(s: HandState, values: Values, j: int) -> Won:
    winner = _active(s)[0]
    why = "folded"
    if s.disqualified:
        why += f" or was disqualified ({s._labels(s.disqualified)})"
    return [winner], f"{_name(s, winner)} wins: everyone else {why}."


def _by_see(s: HandState, values: Values, j: int) -> Won:
    assert s.seer is not None and s.seen is not None
    seer, seen = s.seer.seat, s.seen.seat
    if seer not in values or seen not in values:
        return None
    text = _compare_text(_name(s, seer), values[seer], _name(s, seen), values[seen], "saw")
    if values[seer] == values[seen]:
        text += " A tie goes against the player who paid to see."
    return ([seer] if values[seer] > values[seen] else [seen]), text


def _by_cover(s: HandState, values: Values, j: int) -> Won:
    coverer = s.pots[-1].coverers[-1]
    other = _active(s)[0]
    if coverer not in values or other not in values:
        return None
    text = _compare_text(
        _name(s, coverer), values[coverer], _name(s, other), values[other], "covered against"
    )
    if values[coverer] == values[other]:
        text += " A tie goes to the player who did not cover."
    return ([coverer] if values[coverer] > values[other] else [other]), text


def _by_disqualified(s: HandState, values: Values, j: int) -> Won:
    left = s.pots[j].coverers
    if len(left) != 1:  # pragma: no cover - one cover per pot; kept so no pot is ever lost
        return _best_of(values, left)
    text = f"{_name(s, left[0])} wins: everyone else still in the hand was disqualified."
    return list(left), text


def _best_of(values: Values, left: list[int]) -> Won:  # pragma: no cover - see above
    if not all(seat in values for seat in left):
        return None
    best = max(values[seat] for seat in left)
    winners = [seat for seat in left if values[seat] == best]
    text = f"Everyone still betting was disqualified: best hand {_desc(values, winners[0])}."
    return winners, text


def _by_showdown(s: HandState, values: Values, j: int) -> Won:
    active = _active(s)
    if not all(seat in values for seat in active):
        return None
    best = max(values[seat] for seat in active)
    winners = [seat for seat in active if values[seat] == best]
    shown = "; ".join(f"{_name(s, seat)}: {_desc(values, seat)}" for seat in active)
    text = f"Agreed showdown ({shown}): best hand {_desc(values, winners[0])}."
    if len(winners) > 1:
        text += " Equal best hands split the pot."
    return winners, text


_NEWEST: Final[dict[str, Callable[[HandState, Values, int], Won]]] = {
    "folds": _by_folds,
    "see": _by_see,
    "cover": _by_cover,
    DISQUALIFIED: _by_disqualified,
}


def _older(s: HandState, values: Values, i: int, newer: list[int]) -> Decision | None:
    """Covered pot ``i``: the better of the newer pot's winner and its coverer(s); ``None``
    while one of those hands is not known."""
    coverers = s.pots[i].coverers
    contenders = _contenders(s, i)
    if not coverers:
        text = (
            "Covered pot: the player who covered it was disqualified; it goes to the "
            f"newer pot's winner, {_name(s, newer[0])}."
        )
        return Decision(i, newer, contenders, "covered_pot", text)
    if not all(seat in values for seat in (newer[0], *coverers)):
        return None
    best_c = max(values[c] for c in coverers)
    newer_value = values[newer[0]]
    winners = newer
    if best_c > newer_value:
        winners = [c for c in coverers if values[c] == best_c]
        verdict = "the covering hand is better"
    elif best_c == GAVE_UP:
        verdict = "the newer pot's winner takes it"
    elif best_c == newer_value:
        verdict = "a tie goes to the newer pot's winner"
    else:
        verdict = "the newer pot's winner is better"
    covered = ", ".join(f"{_name(s, c)} ({_desc(values, c)})" for c in coverers)
    text = (
        f"Covered pot: {covered} against {_name(s, newer[0])} ({_desc(values, newer[0])}): "
        f"{verdict}."
    )
    return Decision(i, winners, contenders, "covered_pot", text)


def decisions(s: HandState, values: Values) -> Iterator[Decision]:
    """How each pot is won, as far as ``values`` (the hands known: strengths, or
    :data:`GAVE_UP`) decide it: the newest pot someone still in paid into first, then the
    newer pots that go with it, then the older pots, newest first. Stops at the first pot
    whose decision needs a hand not yet known. The settlement takes every decision, a
    concession asks whether its comparison is due."""
    j = newest_in_play(s)
    how = s.end
    won = _NEWEST.get(how or "", _by_showdown)(s, values, j)
    if won is None:
        return
    winners, text = won
    yield Decision(j, winners, _contenders(s, j), how or "folds", text)
    # Newer pots nobody still in the hand paid into go with the newest someone did.
    for i in range(len(s.pots) - 1, j, -1):
        text = "Everyone who paid into this pot was disqualified or folded: it goes with pot"
        yield Decision(i, winners, [], "covered_pot", f"{text} {j + 1}.")
    for i in range(j - 1, -1, -1):
        decision = _older(s, values, i, winners)
        if decision is None:
            return
        winners = decision.winners
        yield decision


def conceding_against(s: HandState, p: Player) -> Player:
    """The player whose hand ``p``'s is compared with: the seen player for the seer; for a
    player who covered, the other player (the last two) or the newer pot's winner. Raises
    ``concede_must_show`` for anyone else, ``concede_too_early`` while that winner is not
    yet known. Changes nothing."""
    if s.end == "see" and p is s.seer:
        assert s.seen is not None
        return s.seen
    if p.status != COVERED:
        raise IllegalAction("concede_must_show", who=p.label)
    i = next(i for i, pot in enumerate(s.pots) if p.seat in pot.coverers)
    if i == newest_in_play(s):
        if s.end == "cover":
            return next(q for q in s.players if q.status == ACTIVE)
        # Everyone else still in was disqualified: this coverer wins the pot with nobody
        # against them, and their hand decides the older pots.
        raise IllegalAction("concede_must_show", who=p.label)
    for index, winners, *_ in decisions(s, known_values(s)):
        if index == i + 1:
            return s.by_seat[winners[0]]
    raise IllegalAction("concede_too_early", who=p.label, other="the winner of the newer pot")


# ---------------------------------------------------------------------------- paying


def pot_result(s: HandState, d: Decision) -> PotResult:
    """Pot ``d.pot`` paid as decided: the rake taken (capped), the rest shared equally, the odd
    chips to the winners first in the order of play."""
    rules = s.rules
    amount = s.pots[d.pot].amount
    rake = amount * rules.rake_percent // 100
    if rules.rake_cap is not None:
        rake = min(rake, rules.rake_cap)
    net = amount - rake
    share, odd = divmod(net, len(d.winners))
    ordered = list(d.winners)
    if len(ordered) > 1:
        order = {p.seat: i for i, p in enumerate(s.players)}
        ordered.sort(key=order.__getitem__)
    shares = {seat: share + (1 if i < odd else 0) for i, seat in enumerate(ordered)}
    names = ", ".join(_name(s, seat) for seat in ordered)
    summary = f"{names} {'win' if len(ordered) > 1 else 'wins'} {net}"
    if rake:
        summary += f" (rake {rake})"
    return PotResult(
        index=d.pot,
        amount=amount,
        contenders=d.contenders,
        winners=ordered,
        shares=shares,
        rake=rake,
        how=d.how,
        explanation=f"{d.text} {summary}.",
    )


def settle_if_complete(s: HandState) -> None:
    """Settle once every hand to be compared is shown or given up."""
    if not s.cards_needed:
        settle(s, known_values(s))


def settle(s: HandState, values: Values) -> None:
    """Decide and pay every pot on the hands ``values`` (all of those needed)."""
    decided = list(decisions(s, values))
    assert len(decided) == len(s.pots), "a pot was left undecided"
    results = sorted((pot_result(s, d) for d in decided), key=attrgetter("index"))
    for r in results:
        for seat, won in r.shares.items():
            s.by_seat[seat].stack += won
    # RULES §3.12: any pot won by a shown prial (a see, a covered pot's settlement, an
    # agreed showdown) means a shuffle before the next deal.
    shuffle = any(
        values.get(w, GAVE_UP) != GAVE_UP and value_of_strength(values[w]).category == "prial"
        for r in results
        for w in r.winners
    )
    _finish(s, results, 0, None, shuffle)


def settle_carry(s: HandState) -> None:
    """Everyone folded to a blind player: the pot is carried forward and they keep the hand."""
    winner = next(q for q in s.players if q.status == ACTIVE)
    total = s.pot_total
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
    _finish(s, [result], total, winner.seat, False)


def settle_nobody(s: HandState) -> None:
    """Every player left in the hand was disqualified: nobody can win the pot, which is
    carried forward as after a blind player's win, but nobody keeps a hand."""
    total = s.pot_total
    result = PotResult.unwon(
        total,
        "carried",
        f"Nobody is left in the hand (disqualified): the pot of {total} is carried forward; "
        "nobody keeps a hand.",
    )
    _finish(s, [result], total, None, False)


def settle_misdeal(s: HandState, reason: str | None) -> None:
    """RULES §4b: everything each player paid goes back; the carried pot and a kept blind hand
    stay as they were before the deal; the same dealer deals again, shuffled."""
    refunds = {p.seat: p.paid for p in s.players}
    total = s.pot_total
    for p in s.players:
        p.stack += p.paid
    for pot in s.pots:
        pot.amount = 0
    s.turn = -1
    s.end = "misdeal"
    s.pending = None
    kept = s.carried_seat_in if s.carried_seat_in in s.by_seat else None
    text = " ".join(str(reason or "").split())
    back = ", ".join(f"{p.label} {p.paid}" for p in s.players)
    explanation = f"Misdeal{f' ({text})' if text else ''}: back to the players: {back}."
    if s.carried_in:
        explanation += f" The carried pot of {s.carried_in} stays carried."
    result = PotResult.unwon(total, "misdeal", explanation + " Shuffle and deal again.")
    _finish(s, [result], s.carried_in, kept, True)
    assert s.outcome is not None
    s.outcome.next_dealer = s.dealer
    s.outcome.misdeal = Misdeal(text, refunds)


def _finish(
    s: HandState, results: list[PotResult], carried: int, carried_seat: int | None, shuffle: bool
) -> None:
    stacks = {seat.seat: seat.stack for seat in s.seats}
    for p in s.players:
        stacks[p.seat] = p.stack
    s.outcome = Outcome(
        pots=results,
        stacks=stacks,
        house=sum(r.rake for r in results),
        carried_pot=carried,
        carried_seat=carried_seat,
        next_dealer=_next_dealer(s),
        shuffle=shuffle,
        shown={
            seat: cards for seat in s.show_seats if (cards := s.by_seat[seat].cards) is not None
        },
        conceded=list(s.conceded),
    )
    s.phase = SETTLED


def _next_dealer(s: HandState) -> int:
    seated = [seat.seat for seat in s.seats if not seat.sitting_out and not seat.penalty]
    n = s.rules.seats
    for step in range(1, n + 1):
        seat = (s.dealer - 1 + step) % n + 1
        if seat in seated:
            return seat
    return s.dealer


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


def pots_to_show(pots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pots worth a line to people (a result's or a hand's ``pots``, as dicts): a pot a
    cover opened that nothing was bet into is left out ("Pot 2: 0", "… wins 0" would not add
    up); the first pot always stays. The tablet's render.js ``potsToShow`` is the same rule."""
    return [p for i, p in enumerate(pots) if i == 0 or int(p.get("amount") or 0) > 0]
