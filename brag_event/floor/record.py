"""Rulings in the tamper-evident record (``hands.chain``; docs/integrity.md): each ruling is an
entry of kind ``"ruling"`` of the hand it is about — or, if it names no hand, of its table's
latest hand — with what happened, the decision, the players and the penalties it gave."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import QuerySet

from brag_event.engine import chain as engine_chain
from brag_event.hands import chain
from brag_event.hands.models import Hand

from .models import Penalty, Ruling

KIND = "ruling"

_COLUMNS = ("id", "what_happened", "decision", "table__number", "hand__number")


def _fields(rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    ids = [r["id"] for r in rows]
    players: dict[int, list[int]] = defaultdict(list)
    through = Ruling.players.through.objects.filter(ruling_id__in=ids)
    for ruling_id, player_id in through.order_by("player_id").values_list("ruling_id", "player_id"):
        players[ruling_id].append(player_id)
    penalties: dict[int, list[list[Any]]] = defaultdict(list)
    given = Penalty.objects.filter(ruling_id__in=ids).order_by("player_id", "id")
    for ruling_id, player_id, kind, hands in given.values_list(
        "ruling_id", "player_id", "kind", "hands"
    ):
        penalties[ruling_id].append([player_id, kind, hands])
    return {
        r["id"]: {
            "table": r["table__number"],
            "hand": r["hand__number"],
            "what_happened": r["what_happened"],
            "decision": r["decision"],
            "players": players[r["id"]],
            "penalties": penalties[r["id"]],
        }
        for r in rows
    }


def ruling_fields(ruling_id: int) -> dict[str, Any]:
    """A ruling's own fields as chained, read from its stored rows (what the audit reads)."""
    rows = list(Ruling.objects.filter(pk=ruling_id).values(*_COLUMNS))
    return _fields(rows)[ruling_id]


def _rows(hands: QuerySet[Hand]) -> Iterator[chain.Entry]:
    qs = (
        Ruling.objects.filter(chain_hand__in=hands.order_by().values("id"))
        .order_by("chain_hand_id", "seq")
        .values("chain_hand_id", "seq", "hash", *_COLUMNS)
    )
    rows = list(qs)
    for part in _chunks(rows, 2000):
        fields = _fields(part)
        for r in part:
            seq = r["seq"] if r["seq"] is not None else 0  # unnumbered: sorts first, and fails
            content = engine_chain.entry_content(KIND, seq, fields[r["id"]])
            yield r["chain_hand_id"], seq, content, r["hash"]


def _chunks(rows: list[dict[str, Any]], size: int) -> Iterable[list[dict[str, Any]]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def rulings_source() -> chain.Source:
    return chain.Source("rulings", _rows)
