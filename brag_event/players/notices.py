"""What the players' and the tables' services tell a player, stated on the players' side and
written by the notices (``notify``).

The notices (the outbox of what a player asked to hear, docs/notifications.md) sit above the
players, the tables and the hands, whose rows they read; yet a check-in window opened
(``players.checkin``) and a seat drawn or moved (``tables.seating``) queue a notice in the
same transaction. They do it through this port, which the notices fill when their app is ready
(``notify.apps``), as the floor fills ``tables.floor_rules``, and so import nothing of notify
(docs/architecture.md, "The domain's order")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Notices:
    # Check-in for a day is open (or its times moved): a notice to each of these players who
    # asked to hear it; how many. Keywords: day, player_ids, opens, closes.
    checkin: Callable[..., int]
    # A player's seat for a day, drawn (moved false) or moved to by the floor. Keywords: seat,
    # moved.
    seat: Callable[..., Any]


_notices: list[Notices] = []


def notices_register(notices: Notices) -> None:
    """The notices' answers (once, when the notify app is ready)."""
    _notices[:] = [notices]


def notices() -> Notices:
    assert _notices, "the notify app registers its notices when it is ready (notify.apps)"
    return _notices[0]
