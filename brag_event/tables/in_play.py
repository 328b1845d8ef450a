"""Is a hand in play at a table, and is a seat dealt into it: asked before a seat is taken,
moved, left or withdrawn.

The hand is the hands' row (``hands.models.Hand``), above the tables; the tables read the fact
through the relation the hand puts on its table (``Table.hands``) and own the stored value of a
hand in play, which ``Hand.Status`` takes from here (as ``players.disqualified`` for the
floor's penalties)."""

from __future__ import annotations

from .models import Seat, Table

# Hand.Status.IN_PROGRESS's stored value (hands.models).
IN_PROGRESS = "in_progress"


def table_in_play(table: Table) -> bool:
    """Whether a hand is in play at the table."""
    return table.hands.filter(status=IN_PROGRESS).exists()


def dealt_in_play(seat: Seat) -> bool:
    """Whether the seat was dealt into the hand in play at its table."""
    hand = seat.table.hands.filter(status=IN_PROGRESS).first()
    return hand is not None and any(
        s.get("seat_id") == seat.pk and s.get("dealt") for s in hand.seats
    )
