"""Read-side queries of tables."""

from __future__ import annotations

from functools import cache

from brag_event.core import sql
from brag_event.events.models import Day, Event
from brag_event.players.models import Player

from .models import Seat, Table


@cache
def _live_sql() -> tuple[str, str]:
    table = (
        f"SELECT {sql.columns(Table, 't')}, {sql.columns(Day, 'd')}, "  # nosec B608
        f"{sql.columns(Event, 'e')} "
        f"FROM {sql.table(Table)} t "
        f"JOIN {sql.table(Day)} d ON d.{sql.qn('id')} = t.{sql.qn('day_id')} "
        f"JOIN {sql.table(Event)} e ON e.{sql.qn('id')} = d.{sql.qn('event_id')} "
        f"WHERE t.{sql.qn('id')} = %s"
    )
    seats = (
        f"SELECT {sql.columns(Seat, 's')}, {sql.columns(Player, 'p')} "  # nosec B608
        f"FROM {sql.table(Seat)} s "
        f"JOIN {sql.table(Player)} p ON p.{sql.qn('id')} = s.{sql.qn('player_id')} "
        f"WHERE s.{sql.qn('table_id')} = %s AND s.{sql.qn('left_at')} IS NULL "
        f"ORDER BY s.{sql.qn('number')}"
    )
    return table, seats


def table_live(table_id: int) -> tuple[Table, list[Seat]] | None:
    """The table with its day and event, and its occupied seats (by number) with their
    players: what its live state shows (``api.resources.state.table_view``), or ``None`` if there is
    no such table. Read after every action, inside its transaction, and on every rendering of
    a table's read: written out once (``core.sql``), since the ORM's compilation of these two
    queries cost more than the rest of the table's state."""
    if not sql.possible_id(table_id):
        return None
    table_sql, seats_sql = _live_sql()
    found, rows = sql.run_batch([(table_sql, [table_id]), (seats_sql, [table_id])])
    if not found:
        return None
    table, at = sql.hydrate(Table, found[0])
    table.day, at = sql.hydrate(Day, found[0], at)
    table.day.event, _ = sql.hydrate(Event, found[0], at)
    seats = []
    for row in rows or []:
        seat, at = sql.hydrate(Seat, row)
        seat.player, _ = sql.hydrate(Player, row, at)
        seat.table = table
        seats.append(seat)
    return table, seats
