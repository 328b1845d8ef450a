"""A day's own chain as the apps that write on it see it: a record of a day that belongs to no
hand (a check-in, a player let back, a ruling with no hand, a disqualification lifted) is chained
onto the day's row (``Day.record_seq``, ``Day.record_head``) with :func:`day_chain_append`, and
:func:`register_day_source` says where such records are stored, for the audit and the export
(``hands.chain``, which recomputes the chain and seals its head into the day's root).

Below every domain app, so that the players, below the hands, write on it without importing them
(docs/architecture.md, "The domain's order"). The stored rows stay where they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from brag_event.engine import chain

from .models import Day

# An entry of a day's own chain read back: (day id, seq, canonical content, stored hash).
DayEntry = tuple[int, int, dict[str, Any], str]


def day_chain_append(*, day: Day, kind: str, fields: Mapping[str, Any]) -> tuple[int, str]:
    """Chain a record of ``kind`` that belongs to no hand onto ``day``'s own chain: it takes the
    day's next sequence number; returns ``(seq, hash)`` for the record to store.

    The caller holds the day's row lock (``events.states.day_for_change``), refuses a closed
    day (its root is published), and saves ``day`` with
    ``update_fields=["record_seq", "record_head"]`` in the same transaction as the record —
    an update of the day's row, so that a close computing the root in a snapshot taken before
    it cannot commit without it (a serialization failure: the close runs again)."""
    if day.status == Day.Status.CLOSED:
        raise ValueError(f"day {day.number} is closed: its root is published")
    seq = day.record_seq
    previous = day.record_head or chain.day_record_genesis(day.number)
    day.record_head = chain.link(previous, chain.entry_content(kind, seq, fields))
    day.record_seq = seq + 1
    return seq, day.record_head


@dataclass(frozen=True)
class DaySource:
    """Where a kind of day-level record is stored: ``rows(days)`` gives every such record of
    those days as a :data:`DayEntry`, sorted by day id then seq."""

    name: str
    rows: Callable[[QuerySet[Day]], Iterator[DayEntry]]


DAY_SOURCES: list[DaySource] = []


def register_day_source(source: DaySource) -> None:
    """Make the audit and the export read another kind of day-level record."""
    if all(s.name != source.name for s in DAY_SOURCES):
        DAY_SOURCES.append(source)
