"""The maintained standings: ``Standing`` rows updated, in the same transaction, as hands start
(hands played) and settle (hands won). Written as plain statements so that they can ride in the
action path's batch (see ``core.sql``)."""

from __future__ import annotations

from collections.abc import Iterable

from brag_event.core import sql

from .models import Standing


def started_statement(*, day_id: int, players: list[tuple[int, int]]) -> sql.Statement:
    """Count a hand played for each ``(player_id, total_before_the_hand)``; a player's first
    hand of the day also records the money they started the day with."""
    table = sql.table(Standing)
    values = ", ".join(["(%s, %s, 1, 0, %s)"] * len(players))
    params: list[object] = []
    for player_id, total in players:
        params += [player_id, day_id, total]
    return (
        f"INSERT INTO {table} ({sql.qn('player_id')}, {sql.qn('day_id')}, "  # nosec B608
        f"{sql.qn('hands_played')}, {sql.qn('hands_won')}, {sql.qn('start_total')}) "
        f"VALUES {values} ON CONFLICT ({sql.qn('player_id')}, {sql.qn('day_id')}) DO UPDATE "
        f"SET {sql.qn('hands_played')} = {table}.{sql.qn('hands_played')} + 1",
        params,
    )


def won_statement(*, day_id: int, player_ids: Iterable[int], delta: int = 1) -> sql.Statement:
    """Count (or, for a void, take back) a hand won by each player."""
    ids = sorted(set(player_ids))
    column = sql.qn("hands_won")
    return (
        f"UPDATE {sql.table(Standing)} SET {column} = {column} + %s "  # nosec B608
        f"WHERE {sql.qn('day_id')} = %s AND {sql.qn('player_id')} IN "
        f"({', '.join(['%s'] * len(ids))})",
        [delta, day_id, *ids],
    )


def ensure_started(*, day_id: int, player_id: int, total: int) -> None:
    """Record the money a player starts the day with, if their day has not begun yet (a buy-in
    before their first hand: its fee counts as part of the day)."""
    Standing.objects.get_or_create(
        player_id=player_id, day_id=day_id, defaults={"start_total": total}
    )
