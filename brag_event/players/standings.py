"""The maintained standings: ``Standing`` rows updated, in the same transaction, as hands start
(hands played) and settle (hands won). A hand's start counts it in one statement (an insert
that counts on a conflict)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F

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


def standings_won(*, day_id: int, player_ids: Iterable[int], delta: int = 1) -> None:
    """Count (or, for a void, take back) a hand won by each player."""
    Standing.objects.filter(day_id=day_id, player_id__in=sorted(set(player_ids))).update(
        hands_won=F("hands_won") + delta
    )


def ensure_started(*, day_id: int, player_id: int, total: int) -> None:
    """Record the money a player starts the day with, if their day has not begun yet (a buy-in
    before their first hand: its fee counts as part of the day)."""
    Standing.objects.get_or_create(
        player_id=player_id, day_id=day_id, defaults={"start_total": total}
    )
