"""The money a hand moves, derived from the engine alone.

Both the services (to post transfers) and ``audit_ledger`` (to check them) use these functions,
so "the ledger follows what the engine settled" is one piece of code — for every action, a
misdeal's refunds included (``applied_movements``). Places are symbols:
``("stack", seat)``, ``("pot", index)``, ``("house",)``, ``("carried",)``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from brag_event.engine import Action, HandState, Rules, SeatSetup

Place = tuple[Any, ...]
# A stored action as a plain row: (seq, seat, action, amount, hand_choice, cards).
LogRow = tuple[int, int | None, str, int | None, str, str]
Movement = tuple[str, Place, Place, int]  # (transfer kind, from, to, amount)


def state_start(hand: Any) -> HandState:
    """The engine state of a stored hand before any action."""
    seats = [
        SeatSetup(
            s["seat"],
            s["player"],
            s["stack"],
            s.get("sitting_out", False),
            s.get("penalty", False),
        )
        for s in hand.seats
    ]
    return HandState(
        Rules.from_dict(hand.rules),
        hand.dealer_seat,
        seats,
        carried_pot=hand.carried_pot,
        carried_seat=hand.carried_seat,
        first_deal=hand.shuffle_before,
    )


def log_action(row: LogRow) -> Action:
    """A stored action, read as a ``LogRow``, as the engine's ``Action``."""
    _seq, seat, kind, amount, choice, cards = row
    return Action(kind, seat, amount, choice or None, cards or None)


def engine_action(row: Any) -> Action:
    """A stored action (a ``HandAction``) as the engine's ``Action``."""
    return Action(
        row.action,
        row.seat,
        row.amount,
        row.hand_choice or None,
        row.cards or None,
    )


def start_movements(state: HandState) -> list[Movement]:
    out: list[Movement] = []
    ante = state.rules.ante
    if ante:
        out.extend(("ante", ("stack", p.seat), ("pot", 0), ante) for p in state.players)
    if state.carried_in:
        out.append(("carry_in", ("carried",), ("pot", 0), state.carried_in))
    return out


def pots_of(state: HandState) -> list[int]:
    return [pot.amount for pot in state.pots]


def action_movements(before_pots: list[int], state: HandState, action: Action) -> list[Movement]:
    """What one applied action moved: a payment into a pot, and the settlement if it settled."""
    out: list[Movement] = []
    for index, amount in enumerate(pots_of(state)):
        before = before_pots[index] if index < len(before_pots) else 0
        if amount > before:
            out.append((action.action, ("stack", action.seat), ("pot", index), amount - before))
    return out


def settlement_movements(state: HandState) -> list[Movement]:
    outcome = state.outcome
    assert outcome is not None
    out: list[Movement] = []
    for result in outcome.pots:
        if result.how == "carried":
            out.extend(
                ("carry", ("pot", i), ("carried",), pot.amount)
                for i, pot in enumerate(state.pots)
                if pot.amount
            )
            continue
        if result.rake:
            out.append(("rake", ("pot", result.index), ("house",), result.rake))
        out.extend(
            ("pot_won", ("pot", result.index), ("stack", seat), share)
            for seat, share in result.shares.items()
            if share
        )
    return out


def misdeal_movements(earlier: Iterable[Movement], state: HandState) -> list[Movement]:
    """A misdeal's movements (RULES §4b): every stake the hand took (the ``earlier`` movements
    into its pots) goes back to the place it came from — each player's ante and bets to their
    stack, the carried pot brought in back to the table's carried pot — so every pot is
    emptied. Checked against the engine, which says what each player paid (``refunds``)."""
    owed: Counter[tuple[Place, Place]] = Counter()
    for _kind, source, target, amount in earlier:
        if target[0] == "pot":
            owed[target, source] += amount
        elif source[0] == "pot":  # pragma: no cover - a misdeal comes before any settlement
            owed[source, target] -= amount
    moves = [("refund", pot, back_to, amount) for (pot, back_to), amount in owed.items() if amount]
    misdeal = state.outcome.misdeal if state.outcome is not None else None
    assert misdeal is not None, "misdeal_movements of a hand that was not misdealt"
    by_seat: Counter[int] = Counter()
    carried = 0
    for _kind, _pot, back_to, amount in moves:
        if back_to[0] == "stack":
            by_seat[back_to[1]] += amount
        else:
            carried += amount
    # The engine's own account of the misdeal: a stake that goes anywhere else is a bug here.
    if +by_seat != +Counter(misdeal.refunds) or carried != state.carried_in:
        raise ValueError(
            f"misdeal refunds {dict(by_seat)} (carried {carried}) differ from the engine's "
            f"{misdeal.refunds} (carried {state.carried_in})"
        )
    return moves


def applied_movements(
    before_pots: list[int],
    state: HandState,
    action: Action,
    earlier: Callable[[], Sequence[Movement]],
) -> list[Movement]:
    """Every movement of one applied action — what it paid in, and what the hand's end pays
    out: a settlement, or a misdeal's refunds of the ``earlier`` movements (asked for only
    then). The one derivation the services post and the ledger audit replays."""
    moves = action_movements(before_pots, state, action)
    if state.outcome is not None:
        if state.misdealt:
            moves += misdeal_movements([*earlier(), *moves], state)
        else:
            moves += settlement_movements(state)
    return moves


def replay_movements(hand: Any, actions: list[Any]) -> tuple[HandState, list[Movement]]:
    """Replay a stored hand (its live, not voided, actions) and list every movement."""
    return replay_actions(hand, (engine_action(row) for row in actions))


def replay_actions(hand: Any, actions: Iterable[Action]) -> tuple[HandState, list[Movement]]:
    """Replay a stored hand from its live actions as the engine's ``Action`` (the ledger audit
    reads them as ``LogRow``) and list every movement."""
    state = state_start(hand)
    moves = start_movements(state)
    for action in actions:
        before = pots_of(state)
        state.apply(action)
        moves.extend(applied_movements(before, state, action, lambda: moves))
    return state, moves
