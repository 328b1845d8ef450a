"""What the floor's rulings ask of the play at a table, stated where the play is and answered by
the floor.

The floor sits above the tables and the hands (its rows name their seats and hands), yet two of
its rules act inside their services' transactions: a large pot waits for a second member of
staff before the next hand starts or anyone leaves the table (``floor.awards``), and a seat
sitting out a penalty of missed hands is not dealt in (``floor.deal``). Those rules write the
floor's own rows, so they stay with the floor; the tables and the hands call them through this
port, which the floor fills when the app is ready (``floor.apps``) — as the hands' chain and the
ledger's record take their sources — and so import nothing of the floor."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FloorRules:
    # The award at the table still waiting for its second confirmation (a row with ``hand``,
    # ``hand_id``, ``words`` and ``amount``), or None.
    award_waiting: Callable[[int], Any]
    # A hand has just settled: the award that now waits (``awards``, ``threshold``), or None.
    # Keywords: hand, settled_seq, entered_by_id.
    award_ask: Callable[..., Any]
    # The hand's settlement was undone: its waiting award withdrawn; how many.
    award_withdraw: Callable[[int], int]
    # Of these seats, the ones sitting the next hand out as a penalty.
    missed_hand_seats: Callable[[Iterable[int]], set[int]]
    # A hand was dealt while these seats sat it out. Keywords: hand, seat_ids.
    missed_hands_count_deal: Callable[..., None]


_rules: list[FloorRules] = []


def floor_rules_register(rules: FloorRules) -> None:
    """The floor's answers (once, when the floor app is ready)."""
    _rules[:] = [rules]


def floor_rules() -> FloorRules:
    assert _rules, "the floor app registers its rules when it is ready (floor.apps)"
    return _rules[0]
